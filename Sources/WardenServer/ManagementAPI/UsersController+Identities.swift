import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `POST /users/{id}/identities` and `DELETE /users/{id}/identities/{provider}/{user_id}` (SPEC §15 "Linking",
/// scope `update:users`), and the upstream tokens `read:user_idp_tokens` may see in `identities[]`.
extension UsersController {
    func addIdentityRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.post("users/:id/identities") { request, context in
            try await audit.change("Link a User Account", scope: "update:users", request, context) {
                let primary = try await record(context).user
                let body = try await ManagementBody.read(
                    request, allowed: ["provider", "user_id", "connection_id", "link_with"])
                let secondary = try await secondaryUser(body, primary: primary)
                do {
                    try await runtime.store.mergeUser(secondary.userID, into: primary.userID)
                } catch StorageError.notFound {
                    throw Self.notFound
                }
                return Response.json(try await identities(of: primary, context), status: .created)
            }
        }
        group.delete("users/:id/identities/:provider/:user_id") { request, context in
            try await audit.change("Unlink a User Identity", scope: "update:users", request, context) {
                let primary = try await record(context).user
                try await unlink(
                    provider: try ManagementRequest.parameter("provider", of: context),
                    identityUserID: try ManagementRequest.parameter("user_id", of: context), from: primary)
                return Response.json(try await identities(of: primary, context))
            }
        }
    }

    /// The user the link body names: `user_id` with or without its `provider|` prefix (SPEC §15). A database
    /// user keeps its password under its own id, so it can be a primary account but not a secondary one.
    private func secondaryUser(_ body: ManagementBody, primary: User) async throws -> User {
        guard !body.has("link_with") else {
            throw body.invalid("link_with", "Linking with a token is not supported: send provider and user_id")
        }
        let provider = try body.requiredString("provider")
        let userID: String
        switch body.members["user_id"] {
        case .string(let text) where !text.isEmpty: userID = text
        case .number(let number) where number == number.rounded(): userID = String(Int64(number))
        default: throw body.invalid("user_id", "Expected a non-empty string or an integer")
        }
        guard provider != ConnectionStrategy.auth0.rawValue else {
            throw body.invalid("provider", "A database user can be the primary account only")
        }
        let id = userID.hasPrefix(provider + "|") ? userID : provider + "|" + userID
        guard id != primary.userID else { throw body.invalid("user_id", "A user cannot be linked to itself") }
        guard let secondary = try await runtime.store.user(id: id)?.user else {
            throw body.invalid("user_id", "The user \(id) does not exist")
        }
        if let connectionID = try body.string("connection_id"),
            try await runtime.store.identities(ofUsers: [id])[id]?.contains(where: { $0.connectionID == connectionID })
                != true
        {
            throw body.invalid("connection_id", "The user \(id) has no identity of connection \(connectionID)")
        }
        return secondary
    }

    /// Moves the identity `provider`/`identityUserID` (its `user_id` in `identities[]`) out of `primary` into a
    /// user of its own, made from its profile; the identity that made `primary` stays.
    private func unlink(provider: String, identityUserID: String, from primary: User) async throws {
        let stored = try await runtime.store.identities(ofUsers: [primary.userID])[primary.userID] ?? []
        guard
            let identity = stored.first(where: {
                $0.identity.provider.rawValue == provider && $0.identity.qualifiedUserID == identityUserID
            })
        else {
            throw ManagementError.invalidBody("The user has no identity \(provider)|\(identityUserID) to unlink")
        }
        guard identity.identity.wardenUserID != primary.userID else {
            throw ManagementError.invalidBody("The main identity of a user cannot be unlinked")
        }
        let attributes = FederatedProfile(profileData: identity.profileData).rootAttributes
        var user = User(userID: identity.identity.wardenUserID, email: nil, createdAt: runtime.clock.now())
        FederatedLogin.apply(attributes, to: &user)
        try await ManagementRequest.write("user", conflict: "The user \(user.userID) already exists") {
            try await runtime.store.unlinkIdentity(
                connectionID: identity.connectionID, identityUserID: identity.identity.userID.description,
                from: primary.userID,
                into: UserRecord(user: user, passwordHash: nil))
        }
    }

    /// `identities[]` of `user` as the response shows it: with the kept upstream tokens for a token holding
    /// `read:user_idp_tokens` (SPEC §15 "Upstream tokens").
    func identities(of user: User, _ context: WardenRequestContext) async throws -> JSONValue {
        try await representation(user, context)["identities"] ?? .array([])
    }

    /// `identities`, each with its upstream tokens opened when `context`'s token may read them.
    func revealingTokens(_ identities: [UserIdentity], _ context: WardenRequestContext) -> [UserIdentity] {
        guard context.managementScopes?.contains("read:user_idp_tokens") == true,
            let sealer = runtime.sealer
        else { return identities }
        return identities.map { identity in
            guard let sealed = identity.sealedTokens,
                let plain = sealer.open(
                    sealed,
                    context: FederatedLogin.tokenContext(
                        connectionID: identity.connectionID, identityUserID: identity.identity.userID.description)),
                let tokens = try? JSONDecoder().decode(UpstreamTokenSet.self, from: Data(plain))
            else { return identity }
            var revealed = identity
            revealed.revealedTokens = tokens
            return revealed
        }
    }
}
