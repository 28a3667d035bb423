import Foundation
import Hummingbird
import WardenCore
import WardenWebAuthn
import WardenWire

/// The MFA settings and a user's second factors in the Management API (SPEC §12): `GET /guardian/factors`,
/// `PUT /guardian/factors/{name}`, `GET|PUT /guardian/factors/{webauthn-roaming|webauthn-platform}/settings` (SPEC
/// §17), `GET|PUT /guardian/policies`, `POST /users/{id}/recovery-code-regeneration` and
/// `DELETE /users/{id}/authenticators`, in the reference's shapes.
struct MFAController {
    let settings: any MFASettingsStore
    let users: any UserStore
    let authenticators: any AuthenticatorStore
    let recoveryCodes: RecoveryCodes
    let audit: ManagementAudit
    let eventLog: EventLog
    let clock: any WardenClock
    /// The issuer's host, which a factor's `relyingPartyIdentifier` must be or be a registrable suffix of.
    let issuerHost: String

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("guardian/factors") { _, context in
            try context.requireScope("read:guardian_factors")
            let enabled = try await settings.enabledMFAFactors()
            return Response.json(
                .array(
                    MFAFactor.all.map { factor in
                        ["name": .string(factor.rawValue), "enabled": .bool(enabled.contains(factor))]
                    }))
        }
        group.put("guardian/factors/:name") { request, context in
            try await audit.change("Update a Guardian factor", scope: "update:guardian_factors", request, context) {
                let factor = MFAFactor(rawValue: try ManagementRequest.parameter("name", of: context))
                guard MFAFactor.all.contains(factor) else {
                    throw ManagementError.notFound("factor", "The factor '\(factor)' does not exist.")
                }
                let body = try await ManagementBody.read(request, allowed: ["enabled"])
                guard let enabled = try body.bool("enabled") else {
                    throw body.invalid("enabled", "Missing required property")
                }
                try await settings.setMFAFactor(factor, enabled: enabled)
                return Response.json(["enabled": .bool(enabled)])
            }
        }
        group.get("guardian/factors/:name/settings") { _, context in
            try context.requireScope("read:guardian_factors")
            return Response.json(try await settings.webAuthnFactorSettings(try webAuthnFactor(context)).json)
        }
        group.put("guardian/factors/:name/settings") { request, context in
            try await audit.change(
                "Update a Guardian factor's settings", scope: "update:guardian_factors", request, context
            ) {
                let factor = try webAuthnFactor(context)
                let body = try await ManagementBody.read(
                    request, allowed: ["userVerification", "overrideRelyingParty", "relyingPartyIdentifier"])
                let new = try Self.webAuthnSettings(body, issuerHost: issuerHost)
                try await settings.setWebAuthnFactorSettings(new, for: factor)
                return Response.json(new.json)
            }
        }
        group.get("guardian/policies") { _, context in
            try context.requireScope("read:mfa_policies")
            return Response.json(.array(try await settings.mfaPolicies().map { .string($0.rawValue) }))
        }
        group.put("guardian/policies") { request, context in
            try await audit.change("Set the MFA policies", scope: "update:mfa_policies", request, context) {
                let policies = try Self.policies(try await ManagementRequest.json(request))
                try await settings.setMFAPolicies(policies)
                return Response.json(.array(policies.map { .string($0.rawValue) }))
            }
        }
        group.post("users/:id/recovery-code-regeneration") { request, context in
            try await audit.change("Regenerate a recovery code", scope: "update:users", request, context) {
                let userID = try await existingUser(context)
                return Response.json(["recovery_code": .string(try await recoveryCodes.issue(userID: userID))])
            }
        }
        group.delete("users/:id/authenticators") { request, context in
            try await audit.change(
                "Delete a user's authenticators", scope: "delete:guardian_enrollments", request, context
            ) {
                try await resetAuthenticators(
                    userID: try await existingUser(context), clientID: context.managementClientID)
                return ManagementResponse.noContent
            }
        }
    }

    /// Deletes every authenticator and the recovery code of `userID` and logs `gd_unenroll` for `clientID`, made
    /// `through` the Management API (its client) or the admin console (the console's client): `DELETE
    /// /users/{id}/authenticators` and the console's "Reset MFA".
    func resetAuthenticators(userID: String, clientID: String?, through: String = "the Management API") async throws {
        let removed = try await authenticators.deleteAuthenticators(userID: userID)
        eventLog.record(
            LogEvent(
                date: clock.now(), type: .deviceUnenrolled,
                description: "Every authenticator and the recovery code deleted through \(through)",
                clientID: clientID, userID: userID, details: ["enrollments": .number(Double(removed))]))
    }

    /// The `name` path parameter, a factor with settings (else 404 `inexistent_factor`).
    private func webAuthnFactor(_ context: WardenRequestContext) throws -> MFAFactor {
        let factor = MFAFactor(rawValue: try ManagementRequest.parameter("name", of: context))
        guard MFAFactor.webAuthn.contains(factor) else {
            throw ManagementError.notFound("factor", "The factor '\(factor)' has no settings.")
        }
        return factor
    }

    /// The settings a `PUT` body replaces a WebAuthn factor's with (SPEC §17): members left out take their
    /// defaults; `overrideRelyingParty` needs a `relyingPartyIdentifier` that is the issuer's host or a registrable
    /// suffix of it (WebAuthn Level 3 §5.1.2), else 400 `invalid_body`.
    static func webAuthnSettings(_ body: ManagementBody, issuerHost: String) throws -> WebAuthnFactorSettings {
        var new = WebAuthnFactorSettings()
        if let verification = try body.value(
            "userVerification", oneOf: WebAuthnFactorSettings.UserVerification.all)
        {
            new.userVerification = verification
        }
        new.overrideRelyingParty = try body.bool("overrideRelyingParty") ?? false
        new.relyingPartyIdentifier = try body.string("relyingPartyIdentifier")
        if let id = new.relyingPartyIdentifier, !RelyingParty.isValidID(id, forHost: issuerHost) {
            throw body.invalid(
                "relyingPartyIdentifier", "Must be '\(issuerHost)' or a registrable domain suffix of it")
        }
        if new.overrideRelyingParty, new.relyingPartyIdentifier == nil {
            throw body.invalid("relyingPartyIdentifier", "Required when overrideRelyingParty is true")
        }
        return new
    }

    /// The `id` path parameter, a user that exists (else 404 `inexistent_user`).
    private func existingUser(_ context: WardenRequestContext) async throws -> String {
        let userID = try ManagementRequest.parameter("id", of: context)
        guard try await users.user(id: userID) != nil else {
            throw ManagementError.notFound("user", "The user does not exist.")
        }
        return userID
    }

    /// A policy list as SPEC §12 allows it: a JSON array of at most one policy name. Anything else is 400
    /// `invalid_body`.
    static func policies(_ body: JSONValue) throws -> [MFAPolicy] {
        guard case .array(let items) = body else {
            throw ManagementError.invalidBody("Payload validation error: 'Expected type array' on the body.")
        }
        guard items.count <= 1 else {
            throw ManagementError.invalidBody(
                "Payload validation error: 'Array is too long (\(items.count)), maximum 1'.")
        }
        return try items.map { item in
            guard let name = item.stringValue, MFAPolicy.all.contains(MFAPolicy(rawValue: name)) else {
                let allowed = MFAPolicy.all.map(\.rawValue).joined(separator: ", ")
                throw ManagementError.invalidBody("Payload validation error: 'Expected one of: \(allowed)' on [0].")
            }
            return MFAPolicy(rawValue: name)
        }
    }
}

extension MFAController {
    /// The controller over `runtime`'s store: the Management API's, and the console's "Reset MFA" (SPEC §14).
    init(runtime: WardenRuntime) {
        self.init(
            settings: runtime.store, users: runtime.store, authenticators: runtime.store,
            recoveryCodes: runtime.recoveryCodes, audit: ManagementAudit(runtime: runtime), eventLog: runtime.eventLog,
            clock: runtime.clock, issuerHost: runtime.configuration.issuer.host ?? "localhost")
    }
}
