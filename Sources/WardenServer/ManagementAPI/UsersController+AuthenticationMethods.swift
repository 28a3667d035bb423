import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// `GET /users/{id}/authentication-methods` and `GET|PATCH|DELETE /users/{id}/authentication-methods/{method_id}`
/// (SPEC §17 "Management"): every method a user signs in or proves themselves with — passkeys, security keys, push
/// devices, OTP authenticators, the recovery code — in the vendor's shapes. Renaming is for WebAuthn credentials and
/// push devices; deleting for all but the recovery code (the MFA reset of §12 removes it).
extension UsersController {
    static let methodNotFound = ManagementError.notFound(
        "authentication_method", "The authentication method does not exist.")

    func addAuthenticationMethodRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.get("users/:id/authentication-methods") { request, context in
            try context.requireScope("read:authentication_methods")
            let (page, totals) = try ManagementRequest.paging(request)
            let methods = try await authenticationMethods(of: try await record(context).user)
            return ManagementResponse.list(
                all: methods.map(\.json), page: page, includeTotals: totals, name: "authenticators")
        }
        group.get("users/:id/authentication-methods/:method") { _, context in
            try context.requireScope("read:authentication_methods")
            return Response.json(try await method(context).json)
        }
        group.patch("users/:id/authentication-methods/:method") { request, context in
            try await audit.change(
                "Update an authentication method", scope: "update:authentication_methods", request, context
            ) {
                let method = try await method(context)
                let body = try await ManagementBody.read(request, allowed: ["name"])
                let name = try body.requiredString("name")
                guard (1...100).contains(name.count) else { throw body.invalid("name", "Expected 1 to 100 characters") }
                let user = method.userID
                switch method.source {
                case .webAuthn(let credential):
                    _ = try await runtime.store.renameWebAuthnCredential(id: credential.id, userID: user, name: name)
                case .device(var enrollment):
                    enrollment.name = name
                    try await runtime.store.updateDeviceEnrollment(enrollment)
                case .otp, .recoveryCode:
                    throw body.invalid("name", "This authentication method has no name to change")
                }
                return Response.json(try await self.method(context).json)
            }
        }
        group.delete("users/:id/authentication-methods/:method") { request, context in
            try await audit.change(
                "Delete an authentication method", scope: "delete:authentication_methods", request, context
            ) {
                let method = try await method(context)
                switch method.source {
                case .webAuthn(let credential):
                    _ = try await runtime.store.deleteWebAuthnCredential(id: credential.id, userID: method.userID)
                case .device(let enrollment): _ = try await runtime.store.deleteDeviceEnrollment(id: enrollment.id)
                case .otp(let authenticator): _ = try await runtime.store.deleteOTPAuthenticator(id: authenticator.id)
                case .recoveryCode:
                    throw ManagementError.invalidBody("The recovery code is removed with the user's MFA reset")
                }
                return Response(status: .noContent)
            }
        }
    }

    /// The method `:method` of the user `:id`, or 404 `inexistent_authentication_method`.
    private func method(_ context: WardenRequestContext) async throws -> AuthenticationMethodEntry {
        let id = try ManagementRequest.parameter("method", of: context)
        let methods = try await authenticationMethods(of: try await record(context).user)
        guard let method = methods.first(where: { $0.id == id }) else { throw Self.methodNotFound }
        return method
    }

    /// Every method of `user`, WebAuthn credentials first (oldest first), then push devices, OTP authenticators and
    /// the recovery code.
    func authenticationMethods(of user: User) async throws -> [AuthenticationMethodEntry] {
        let store = runtime.store
        var methods = try await store.webAuthnCredentials(userID: user.userID).map {
            AuthenticationMethodEntry(userID: user.userID, source: .webAuthn($0))
        }
        methods += try await store.deviceEnrollments(userID: user.userID).map {
            AuthenticationMethodEntry(userID: user.userID, source: .device($0))
        }
        methods += try await store.otpAuthenticators(userID: user.userID).map {
            AuthenticationMethodEntry(userID: user.userID, source: .otp($0))
        }
        if try await store.recoveryCodeHash(userID: user.userID) != nil {
            methods.append(AuthenticationMethodEntry(userID: user.userID, source: .recoveryCode))
        }
        return methods
    }
}

/// One authentication method as the Management API shows it (SPEC §17): `{"id"` (`{type}|{stored id}`)`, "type",
/// "name", "created_at", "last_auth_at"?}`, WebAuthn credentials adding their key and flags.
struct AuthenticationMethodEntry: Sendable {
    var userID: String
    var source: Source

    enum Source: Sendable {
        case webAuthn(WebAuthnCredential)
        case device(DeviceEnrollment)
        case otp(OTPAuthenticator)
        case recoveryCode
    }

    var id: String {
        switch source {
        case .webAuthn(let credential): credential.methodID
        case .device(let enrollment): "push-notification|\(enrollment.id)"
        case .otp(let authenticator): "totp|\(authenticator.id)"
        case .recoveryCode: "recovery-code|\(userID)"
        }
    }

    var json: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id)]
        switch source {
        case .webAuthn(let credential):
            members["type"] = .string(credential.kind.rawValue)
            members["name"] = .string(credential.name)
            members["created_at"] = ManagementResponse.timestamp(credential.createdAt)
            if let last = credential.lastAuthAt { members["last_auth_at"] = ManagementResponse.timestamp(last) }
            members["credential_device_type"] = credential.backupEligible ? "multi_device" : "single_device"
            members["credential_backed_up"] = .bool(credential.backedUp)
            members["key_id"] = .string(Base64URL.encode(credential.credentialID))
            members["public_key"] = .string(Data(credential.publicKey).base64EncodedString())
            members["aaguid"] = .string(credential.aaguid.uuidString.lowercased())
            members["transports"] = .array(credential.transports.map(JSONValue.string))
            if let agent = credential.userAgent { members["user_agent"] = .string(agent) }
            members["relying_party_identifier"] = .string(credential.relyingPartyID)
            members["identity_user_id"] = .string(Self.identityUserID(userID))
        case .device(let enrollment):
            members["type"] = "push-notification"
            members["name"] = .string(enrollment.name)
            members["created_at"] = ManagementResponse.timestamp(enrollment.createdAt)
            if let last = enrollment.lastAuthAt { members["last_auth_at"] = ManagementResponse.timestamp(last) }
        case .otp(let authenticator):
            members["type"] = "totp"
            members["name"] = .string(authenticator.name)
            members["created_at"] = ManagementResponse.timestamp(authenticator.createdAt)
            if let last = authenticator.lastAuthAt { members["last_auth_at"] = ManagementResponse.timestamp(last) }
        case .recoveryCode:
            members["type"] = "recovery-code"
            members["name"] = "Recovery code"
        }
        return .object(members)
    }

    /// The user id without its provider prefix (SPEC §17 `identity_user_id`).
    static func identityUserID(_ userID: String) -> String {
        userID.firstIndex(of: "|").map { String(userID[userID.index(after: $0)...]) } ?? userID
    }
}
