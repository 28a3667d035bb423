import Foundation
import WardenCore
import WardenWire

/// Whether a login for an organization may end (SPEC §19), decided once every factor is done: the user is a member;
/// or becomes one through an invitation (its ticket for this organization, unexpired, for the user's e-mail, used
/// once — the roles it names given) or through a connection enabled with `assign_membership_on_login`. Otherwise
/// `access_denied` naming the organization.
struct OrganizationAdmission: Sendable {
    /// Memberships, invitations and the user's connections.
    let store: any WardenStore
    /// The organizations and their connections as this node caches them (``TenantCache``).
    let directory: any OrganizationDirectory
    /// Where a refusal is logged (`f` naming the organization, counted by `warden_organization_logins_total`).
    let eventLog: EventLog
    let clock: any WardenClock

    /// The organization `request` names, once `user` is its member; `nil` for a login without one.
    func admit(_ user: User, for request: AuthorizationRequest) async throws -> Organization? {
        guard let organizationID = request.organization else { return nil }
        guard let organization = try await directory.organization(id: organizationID) else {
            throw OAuthError.invalidRequest("The organization no longer exists")
        }
        do {
            try await admitMember(user, into: organization, request: request)
            OperationalMetrics.organizationLogin(admitted: true)
        } catch let refusal as OAuthError {
            OperationalMetrics.organizationLogin(admitted: false)
            eventLog.record(
                LogEvent(
                    date: clock.now(), type: .loginFailure, description: refusal.description,
                    clientID: request.clientID, userID: user.userID, userName: user.email,
                    organizationID: organization.id,
                    organizationName: organization.name))
            throw refusal
        }
        return organization
    }

    /// Makes `user` a member of `organization` when they may become one, else throws `access_denied`.
    private func admitMember(_ user: User, into organization: Organization, request: AuthorizationRequest)
        async throws
    {
        if request.invitation != nil {
            try await accept(request, by: user, into: organization)
        } else if !(try await store.isOrganizationMember(userID: user.userID, organizationID: organization.id)) {
            guard try await assignsMembership(user, organization) else {
                throw OAuthError(
                    .accessDenied, "User \(user.userID) is not a member of the organization \(organization.name)")
            }
            try await store.addOrganizationMembers([user.userID], organizationID: organization.id, at: clock.now())
        }
    }

    /// The organizations `user` is a member of, by name: at most ``pickable``, what a picker can show.
    func organizations(of user: User) async throws -> [Organization] {
        try await store.organizations(ofUser: user.userID, page: PageRequest(page: 0, perPage: Self.pickable)).items
    }

    /// How many organizations the post-login picker shows.
    static let pickable = 50

    /// The invitation `request` carries, while it can still be accepted: its ticket's, for the request's
    /// organization, unexpired. The sign-up and login pages fill in its address; the admission accepts it.
    func invitation(of request: AuthorizationRequest) async throws -> OrganizationInvitation? {
        guard let ticket = request.invitation, let organizationID = request.organization,
            let invitation = try await store.organizationInvitation(ticketHash: SecretHash.sha256Hex(ticket)),
            invitation.organizationID == organizationID, invitation.expiresAt > clock.now()
        else { return nil }
        return invitation
    }

    /// Accepts the invitation `request` carries for `user`: one conditional delete, so it works once.
    private func accept(_ request: AuthorizationRequest, by user: User, into organization: Organization)
        async throws
    {
        guard let invitation = try await invitation(of: request) else {
            throw OAuthError(.accessDenied, "The invitation is unknown, used or expired")
        }
        guard invitation.inviteeEmail == user.email?.lowercased() else {
            throw OAuthError(.accessDenied, "The invitation is for another e-mail address")
        }
        guard
            try await store.consumeOrganizationInvitation(ticketHash: invitation.ticketHash, now: clock.now()) != nil
        else { throw OAuthError(.accessDenied, "The invitation is unknown, used or expired") }
        try await store.addOrganizationMembers([user.userID], organizationID: organization.id, at: clock.now())
        if !invitation.roles.isEmpty {
            try await store.assignOrganizationRoles(
                invitation.roles, userID: user.userID, organizationID: organization.id)
        }
    }

    /// Whether one of the user's connections is enabled for the organization with `assign_membership_on_login`.
    private func assignsMembership(_ user: User, _ organization: Organization) async throws -> Bool {
        let assigning = Set(
            try await directory.organizationConnections(organizationID: organization.id)
                .filter(\.assignMembershipOnLogin).map(\.connectionID))
        guard !assigning.isEmpty else { return false }
        var connections = Set(
            (try await store.identities(ofUsers: [user.userID])[user.userID] ?? []).map(\.connectionID))
        if user.userID.hasPrefix("auth0|") { connections.insert(Connection.databaseID) }
        return !assigning.isDisjoint(with: connections)
    }
}
