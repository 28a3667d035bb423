import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// Authorizes a request on a device account (SPEC §7.1 PATCH/DELETE, §7.5): `Authorization: Bearer` with
/// the device-account token given at enrolment, or an RS256 JWT signed by the device key with `iss` = the
/// enrolment id, `sub` = the user id, `aud` = `{issuer}appliance-mfa/api/device-accounts` and a lifetime of
/// at most 2 hours.
struct DeviceAccountAuthorization: Sendable {
    static let maximumLifetime: Double = 7200

    let store: any WardenStore
    let verifier: DeviceJWTVerifier
    let issuer: String

    var audience: String { issuer + "appliance-mfa/api/device-accounts" }

    /// The enrolment `enrollmentID` when the request proves to be its device.
    ///
    /// - Throws: 401 `invalid_token` (no bearer credential, or one that does not verify), 404
    ///   `device_account_not_found` (no such enrolment).
    func authorize(_ request: Request, enrollmentID: String) async throws -> DeviceEnrollment {
        guard let credential = Self.credentials(request) else {
            throw ManagementError.invalidToken("Missing authorization: expected 'Bearer' credentials")
        }
        guard let enrollment = try await store.deviceEnrollment(id: enrollmentID) else {
            throw ManagementError.deviceAccountNotFound
        }
        if credential.contains(".") {
            guard let jws = verifier.signed(credential, by: enrollment),
                jws.payload["iss"]?.stringValue == enrollment.id, jws.payload["sub"]?.stringValue == enrollment.userID,
                jws.audiences.contains(audience), verifier.isCurrent(jws, maximumLifetime: Self.maximumLifetime)
            else { throw ManagementError.invalidToken("The device token is not valid") }
        } else {
            guard SecretHash.verify(credential, againstHex: enrollment.tokenHash) else {
                throw ManagementError.invalidToken("The device account token is not valid")
            }
        }
        return enrollment
    }

    /// The credentials of `Authorization: {scheme} …` (scheme case-insensitive, RFC 7235 §2.1); `nil` when
    /// absent or empty.
    static func credentials(_ request: Request, scheme: String = "Bearer") -> String? {
        guard let value = HeaderValue.credentials(request.headers[.authorization], scheme: scheme), !value.isEmpty
        else { return nil }
        return String(value)
    }
}
