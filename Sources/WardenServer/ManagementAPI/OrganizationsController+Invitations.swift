import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `POST|GET /organizations/{id}/invitations` and `GET|DELETE …/{invitation_id}` (SPEC §19): an invitation names
/// the invitee's e-mail, the application whose `initiate_login_uri` the link opens, the roles given on acceptance,
/// and lives `ttl_sec` (default 7 days, at most 30). Its ticket is stored hashed (and sealed with the data key, when
/// one is set, so that `GET` can show the link again); the e-mail goes through the mail transport.
extension OrganizationsController {
    static let defaultInvitationLifetime = 604_800
    static let maximumInvitationLifetime = 2_592_000

    func addInvitationRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("organizations/:id/invitations") { request, context in
            try context.requireScope("read:organization_invitations")
            let organization = try await organization(context)
            let (page, totals) = try ManagementRequest.paging(request)
            let result = try await store.organizationInvitations(organizationID: organization.id, page: page)
            var items: [JSONValue] = []
            for invitation in result.items {
                items.append(try await representation(invitation, organization: organization, ticket: nil))
            }
            return ManagementResponse.list(
                items, total: result.total, page: page, includeTotals: totals, name: "invitations")
        }
        group.post("organizations/:id/invitations") { request, context in
            try await audit.change(
                "Invite to an organization", scope: "create:organization_invitations", request, context
            ) {
                let body = try await invite(
                    try await ManagementRequest.object(request), to: try await organization(context))
                return Response.json(body, status: .created)
            }
        }
        group.get("organizations/:id/invitations/:invitation_id") { _, context in
            try context.requireScope("read:organization_invitations")
            let organization = try await organization(context)
            guard
                let invitation = try await store.organizationInvitation(
                    id: try ManagementRequest.parameter("invitation_id", of: context), organizationID: organization.id)
            else { throw Self.invitationNotFound }
            return Response.json(try await representation(invitation, organization: organization, ticket: nil))
        }
        group.delete("organizations/:id/invitations/:invitation_id") { request, context in
            try await audit.change(
                "Delete an organization invitation", scope: "delete:organization_invitations", request, context
            ) {
                let organization = try await organization(context)
                guard
                    try await store.deleteOrganizationInvitation(
                        id: try ManagementRequest.parameter("invitation_id", of: context),
                        organizationID: organization.id)
                else { throw Self.invitationNotFound }
                return ManagementResponse.noContent
            }
        }
    }

    static let invitationNotFound = ManagementError.notFound("invitation", "The invitation does not exist.")
    static let invitationProperties: Set<String> = [
        "inviter", "invitee", "client_id", "connection_id", "ttl_sec", "roles", "send_invitation_email",
        "app_metadata", "user_metadata",
    ]

    /// Validates `members` as the body of `POST /organizations/{id}/invitations`, stores the invitation and queues
    /// its e-mail (unless `send_invitation_email` is false); the answer's JSON. Shared with the console.
    func invite(_ members: [String: JSONValue], to organization: Organization) async throws -> JSONValue {
        let (invitation, ticket, sendEmail) = try await invitation(
            try ManagementBody(checking: members, allowed: Self.invitationProperties), organization)
        try await store.insertOrganizationInvitation(invitation)
        let body = try await representation(invitation, organization: organization, ticket: ticket)
        if sendEmail, let link = body.objectValue?["invitation_url"]?.stringValue {
            try await mail(invitation, link: link, organization: organization)
        }
        return body
    }

    /// The context a ticket is sealed under: an invitation's, so that a sealed value copied elsewhere opens nowhere.
    static func sealingContext(_ invitationID: String) -> String { "organization_invitation:" + invitationID }

    /// A new invitation from the body (every SPEC §19 check, 400 `invalid_body` naming the member), its ticket, and
    /// whether to send the e-mail.
    private func invitation(_ body: ManagementBody, _ organization: Organization) async throws
        -> (OrganizationInvitation, String, Bool)
    {
        guard let inviter = try body.object("inviter", allowed: ["name"]) else {
            throw body.invalid("inviter", "Missing required property")
        }
        guard let invitee = try body.object("invitee", allowed: ["email"]) else {
            throw body.invalid("invitee", "Missing required property")
        }
        let email = try invitee.requiredString("email").lowercased()
        guard EmailAddress.isValid(email) else { throw invitee.invalid("email", "Not an e-mail address") }
        let clientID = try body.requiredString("client_id")
        guard let client = try await store.client(id: clientID)?.client else {
            throw body.invalid("client_id", "No client with client_id \(clientID)")
        }
        guard client.initiateLoginURI != nil else {
            throw body.invalid("client_id", "The client has no initiate_login_uri for the invitation link")
        }
        let connectionID = try body.string("connection_id")
        if let connectionID,
            !(try await store.organizationConnections(organizationID: organization.id)
                .contains { $0.connectionID == connectionID })
        {
            throw body.invalid("connection_id", "The connection is not enabled for this organization")
        }
        let roles = Array(Set(try body.strings("roles") ?? []))
        for role in roles where try await store.role(id: role) == nil {
            throw body.invalid("roles", "No role with id \(role)")
        }
        let ttl = try body.integer("ttl_sec", in: 0...Self.maximumInvitationLifetime) ?? 0
        let id = RandomToken.identifier(prefix: "uinv_", length: 16)
        let ticket = RandomToken.make()
        let now = runtime.clock.now()
        let invitation = OrganizationInvitation(
            id: id, organizationID: organization.id, inviterName: try inviter.requiredString("name"),
            inviteeEmail: email, clientID: clientID, connectionID: connectionID, roles: roles.sorted(),
            appMetadata: try body.jsonObject("app_metadata").map(JSONValue.object),
            userMetadata: try body.jsonObject("user_metadata").map(JSONValue.object),
            ticketHash: SecretHash.sha256Hex(ticket),
            sealedTicket: try runtime.sealer?.seal(Array(ticket.utf8), context: Self.sealingContext(id)),
            createdAt: now,
            expiresAt: now.addingTimeInterval(Double(ttl == 0 ? Self.defaultInvitationLifetime : ttl)))
        return (invitation, ticket, try body.bool("send_invitation_email") ?? true)
    }

    /// The reference's shape; `ticket_id` and `invitation_url` when the ticket is known (just made, or opened with
    /// the data key).
    private func representation(_ invitation: OrganizationInvitation, organization: Organization, ticket: String?)
        async throws -> JSONValue
    {
        var object: [String: JSONValue] = [
            "id": .string(invitation.id), "organization_id": .string(invitation.organizationID),
            "inviter": ["name": .string(invitation.inviterName)],
            "invitee": ["email": .string(invitation.inviteeEmail)], "client_id": .string(invitation.clientID),
            "roles": .array(invitation.roles.map(JSONValue.string)),
            "created_at": ManagementResponse.timestamp(invitation.createdAt),
            "expires_at": ManagementResponse.timestamp(invitation.expiresAt),
        ]
        if let connectionID = invitation.connectionID { object["connection_id"] = .string(connectionID) }
        if let metadata = invitation.appMetadata { object["app_metadata"] = metadata }
        if let metadata = invitation.userMetadata { object["user_metadata"] = metadata }
        let opened = invitation.sealedTicket.flatMap {
            runtime.sealer?.open($0, context: Self.sealingContext(invitation.id))
        }
        if let ticket = ticket ?? opened.map({ String(decoding: $0, as: UTF8.self) }),
            let base = try await runtime.cache.client(id: invitation.clientID)?.client.initiateLoginURI
        {
            object["ticket_id"] = .string(ticket)
            object["invitation_url"] = .string(
                Self.invitationURL(base: base, ticket: ticket, organization: organization))
        }
        return .object(object)
    }

    /// `initiate_login_uri?invitation={ticket}&organization={id}&organization_name={name}` (SPEC §19).
    static func invitationURL(base: String, ticket: String, organization: Organization) -> String {
        let query = [
            ("invitation", ticket), ("organization", organization.id), ("organization_name", organization.name),
        ]
        .map { "\($0.0)=\(PercentEncoding.unreserved($0.1))" }.joined(separator: "&")
        return base + (base.contains("?") ? "&" : "?") + query
    }

    /// Queues the invitation e-mail; it lives as long as the invitation.
    private func mail(_ invitation: OrganizationInvitation, link: String, organization: Organization) async throws {
        let clientName = try await store.client(id: invitation.clientID)?.client.name
        let payload = AccountMailDelivery.Payload(
            purpose: .organizationInvitation, to: invitation.inviteeEmail, link: link,
            expiresAt: invitation.expiresAt, clientName: clientName, inviter: invitation.inviterName,
            organization: organization.shownName)
        try await runtime.deliveries.submit(
            kind: AccountMailDelivery.kind, payload: payload.json, expiresAt: invitation.expiresAt)
    }
}
