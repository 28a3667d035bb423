import Crypto
import Foundation
import JWTKit
import Testing
import WardenAuthenticator
import WardenAuthenticatorURLSession

/// The requests an ``Authenticator`` sends, checked against the SPEC §7 wire format with a recording transport.
@Suite struct AuthenticatorHTTPTests {
    static var enrollResponse: [String: Any] {
        [
            "id": "dev_abc123", "url": "https://warden.example:8443/appliance-mfa", "issuer": "Warden",
            "user_id": "auth0|user1", "token": "dat_secret",
            "totp": ["secret": "JBSWY3DPEHPK3PXP", "algorithm": "sha1", "digits": 6, "period": 30],
        ]
    }

    /// An authenticator whose key store already holds ``sampleEnrollment()`` with ``sharedKey``.
    func enrolled(_ responses: [TransportResponse]) async throws -> (Authenticator, RecordingTransport) {
        let transport = RecordingTransport(responses)
        let store = InMemoryKeyStore()
        await store.save(sampleEnrollment(), key: sharedKey)
        return (Authenticator(transport: transport, keyStore: store), transport)
    }

    @Test func enrollFromURI() async throws {
        let transport = RecordingTransport([TransportResponse(status: 200, body: json(Self.enrollResponse))])
        let store = InMemoryKeyStore()
        let authenticator = Authenticator(transport: transport, keyStore: store)
        let enrollment = try await authenticator.enroll(
            uri: EnrollmentURITests.uri, identifier: "device-install-1", name: "Ada's phone",
            pushCredentials: PushCredentials(service: .apns, token: "abcd"))

        let request = try #require(await transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://warden.example:8443/appliance-mfa/api/enroll")
        #expect(request.headers["Authorization"] == #"Ticket id="tkt_123""#)
        #expect(request.headers["Content-Type"] == "application/json")
        let body = try #require(jsonObject(request.body))
        #expect(Set(body.keys) == ["identifier", "name", "push_credentials", "public_key"])
        #expect(body["identifier"] as? String == "device-install-1")
        #expect(body["name"] as? String == "Ada's phone")
        let push = try #require(body["push_credentials"] as? [String: Any])
        #expect(push["service"] as? String == "APNS")
        #expect(push["token"] as? String == "abcd")
        let publicKey = try #require(body["public_key"] as? [String: Any])
        #expect(publicKey["kty"] as? String == "RSA")
        #expect(publicKey["use"] as? String == "sig")
        #expect(publicKey["alg"] as? String == "RS256")
        #expect(publicKey["e"] as? String == "AQAB")

        #expect(enrollment.id == "dev_abc123")
        #expect(enrollment.userID == "auth0|user1")
        #expect(enrollment.issuer == issuer)
        #expect(enrollment.issuerLabel == "Warden")
        #expect(enrollment.accountName == "ada@example.com")
        #expect(enrollment.deviceIdentifier == "device-install-1")
        #expect(enrollment.deviceAccountToken == "dat_secret")
        #expect(enrollment.totp == TOTPParameters(secret: "JBSWY3DPEHPK3PXP"))
        #expect(await store.enrollment(id: "dev_abc123") == enrollment)
        let key = try #require(await store.key(enrollmentID: "dev_abc123"))
        #expect(key.publicJWK.n == publicKey["n"] as? String)
    }

    @Test func anEnrollResponseWithoutTOTPKeepsTheSecretOfTheURI() async throws {
        var response = Self.enrollResponse
        response["totp"] = nil
        let transport = RecordingTransport([TransportResponse(status: 200, body: json(response))])
        let enrollment = try await Authenticator(transport: transport).enroll(
            uri: EnrollmentURITests.uri, identifier: "device-install-1", name: "Ada's phone")
        #expect(enrollment.totp == TOTPParameters(secret: "JBSWY3DPEHPK3PXP"))
    }

    @Test func enrollWithoutPushCredentials() async throws {
        let transport = RecordingTransport([TransportResponse(status: 200, body: json(Self.enrollResponse))])
        let authenticator = Authenticator(transport: transport)
        _ = try await authenticator.enroll(
            ticket: "tkt_9", baseURL: URL(string: "https://warden.example")!, identifier: "i", name: "n")
        let request = try #require(await transport.requests.first)
        #expect(request.url.absoluteString == "https://warden.example/appliance-mfa/api/enroll")
        #expect(request.headers["Authorization"] == #"Ticket id="tkt_9""#)
        #expect(jsonObject(request.body)?["push_credentials"] == nil)
    }

    @Test func enrollErrorCarriesTheServerBody() async throws {
        let error: [String: Any] = [
            "statusCode": 404, "error": "Not Found", "message": "Enrollment ticket not found",
            "errorCode": "enrollment_transaction_not_found",
        ]
        let transport = RecordingTransport([TransportResponse(status: 404, body: json(error))])
        let store = InMemoryKeyStore()
        let authenticator = Authenticator(transport: transport, keyStore: store)
        do {
            _ = try await authenticator.enroll(uri: EnrollmentURITests.uri, identifier: "i", name: "n")
            Issue.record("expected an error")
        } catch let error as AuthenticatorError {
            #expect(error.kind == .server)
            #expect(error.status == 404)
            #expect(error.errorCode == "enrollment_transaction_not_found")
            #expect(error.serverError?.message == "Enrollment ticket not found")
            #expect(error.serverError?.statusCode == 404)
        }
        #expect(await store.enrollments().isEmpty)
    }

    @Test func invalidURIAndTransportFailure() async throws {
        let authenticator = Authenticator(transport: RecordingTransport([]))
        await #expect(throws: AuthenticatorError(kind: .invalidEnrollmentURI)) {
            try await authenticator.enroll(uri: "https://nope", identifier: "i", name: "n")
        }
        await #expect(throws: AuthenticatorError(kind: .transport)) {
            try await authenticator.enroll(uri: EnrollmentURITests.uri, identifier: "i", name: "n")
        }
    }

    @Test func fetchConsent() async throws {
        let consent: [String: Any] = [
            "id": "cns_42",
            "requested_details": [
                "audience": "https://api.example.com", "scope": ["openid"], "binding_message": "Confirm 2500",
                "authorization_details": [["type": "payment", "amount": 10.5, "currency": "EUR"]],
            ] as [String: Any],
            "created_at": "2024-05-01T12:00:00.000Z", "expires_at": "2024-05-01T12:05:00.000Z",
        ]
        let (authenticator, transport) = try await enrolled([TransportResponse(status: 200, body: json(consent))])
        let result = try await authenticator.fetchConsent(for: sampleNotification(), enrollment: sampleEnrollment())
        #expect(result.id == "cns_42")
        #expect(result.requestedDetails.bindingMessage == "Confirm 2500")
        #expect(result.requestedDetails.filterAuthorizationDetailsByType(Payment.self).first?.amount == 10.5)

        let request = try #require(await transport.requests.first)
        #expect(request.method == "GET")
        #expect(request.url.absoluteString == "https://warden.example:8443/rich-consents/cns_42")
        #expect(request.headers["Authorization"] == "MFA-DPoP txtkn_opaque")
        #expect(request.body == nil)
        let proof = try #require(request.headers["MFA-DPoP"])
        let parts = try #require(jwsParts(proof))
        #expect(parts.header["typ"] as? String == "dpop+jwt")
        let payload = try await verifier(for: sharedKey.publicJWK).verify(proof, as: DPoPPayload.self)
        #expect(payload.htu == request.url.absoluteString)
        #expect(payload.htm == "GET")
        #expect(payload.ath == base64URL(Data(SHA256.hash(data: Data("txtkn_opaque".utf8)))))
    }

    @Test func fetchConsentPreconditions() async throws {
        let (authenticator, transport) = try await enrolled([])
        await #expect(throws: AuthenticatorError(kind: .noConsent)) {
            try await authenticator.fetchConsent(for: sampleNotification(linking: nil), enrollment: sampleEnrollment())
        }
        await #expect(throws: AuthenticatorError(kind: .enrollmentMismatch)) {
            try await authenticator.fetchConsent(
                for: sampleNotification(enrollmentID: "dev_other"), enrollment: sampleEnrollment())
        }
        await #expect(throws: AuthenticatorError(kind: .keyNotFound)) {
            try await authenticator.fetchConsent(
                for: sampleNotification(enrollmentID: "dev_x"), enrollment: sampleEnrollment(id: "dev_x"))
        }
        #expect(await transport.requests.isEmpty)
    }

    /// A sign-in request (no `txlnkid`, SPEC §12) is answered exactly as a consent request.
    @Test(arguments: [true, false], ["cns_42", nil] as [String?])
    func allowAndReject(accept: Bool, linking: String?) async throws {
        let (authenticator, transport) = try await enrolled([TransportResponse(status: 204)])
        let notification = sampleNotification(linking: linking)
        if accept {
            try await authenticator.allow(notification, enrollment: sampleEnrollment())
        } else {
            try await authenticator.reject(notification, enrollment: sampleEnrollment(), reason: "hacked")
        }
        let request = try #require(await transport.requests.first)
        #expect(request.method == "POST")
        #expect(request.url.absoluteString == "https://warden.example:8443/appliance-mfa/api/resolve-transaction")
        #expect(request.headers["Authorization"] == "Bearer txtkn_opaque")
        let body = try #require(jsonObject(request.body))
        #expect(Set(body.keys) == ["challenge_response"])
        let jwt = try #require(body["challenge_response"] as? String)
        let payload = try await verifier(for: sharedKey.publicJWK).verify(jwt, as: ChallengeResponsePayload.self)
        #expect(payload.iss.value == "device-install-1")
        #expect(payload.sub.value == "challenge-xyz")
        #expect(payload.aud.value == ["https://warden.example:8443/appliance-mfa/api/resolve-transaction"])
        #expect(payload.accepted == accept)
        #expect(payload.reason == (accept ? nil : "hacked"))
    }

    @Test func answerAfterAnotherDevice() async throws {
        let error: [String: Any] = [
            "statusCode": 404, "error": "Not Found", "message": "Transaction not found",
            "errorCode": "login_transaction_not_found",
        ]
        let (authenticator, _) = try await enrolled([TransportResponse(status: 404, body: json(error))])
        do {
            try await authenticator.allow(sampleNotification(), enrollment: sampleEnrollment())
            Issue.record("expected an error")
        } catch let error as AuthenticatorError {
            #expect(
                error
                    == AuthenticatorError(
                        kind: .server, status: 404, serverError: .init(errorCode: "login_transaction_not_found")))
        }
    }

    @Test func nonJSONErrorBody() async throws {
        let (authenticator, _) = try await enrolled([TransportResponse(status: 502, body: Data("<html>".utf8))])
        do {
            try await authenticator.allow(sampleNotification(), enrollment: sampleEnrollment())
            Issue.record("expected an error")
        } catch let error as AuthenticatorError {
            #expect(error.kind == .server)
            #expect(error.status == 502)
            #expect(error.serverError == nil)
        }
    }

    @Test func pendingTransactions() async throws {
        let list: [String: Any] = [
            "transactions": [
                NotificationParsingTests.mfa,
                ["dai": "dev_abc123", "garbage": true],
                [
                    "dai": "dev_abc123", "txtkn": "t2", "c": "c2", "d": "2024-05-01T12:01:00.000Z",
                    "sh": "warden.example:8443",
                ],
            ]
        ]
        let (authenticator, transport) = try await enrolled([TransportResponse(status: 200, body: json(list))])
        let pending = try await authenticator.pendingTransactions(enrollment: sampleEnrollment())
        #expect(pending.map(\.transactionToken) == ["txtkn_opaque", "t2"])
        #expect(pending.first?.transactionLinkingID == "cns_42")

        let request = try #require(await transport.requests.first)
        #expect(request.method == "GET")
        #expect(
            request.url.absoluteString
                == "https://warden.example:8443/appliance-mfa/api/device-accounts/dev_abc123/transactions")
        try await expectDeviceJWT(request)
    }

    @Test func updatePushCredentials() async throws {
        let response: [String: Any] = [
            "id": "dev_abc123", "identifier": "device-install-1", "name": "Ada's phone",
            "push_credentials": ["service": "FCM", "token": "fcm-token"],
        ]
        let (authenticator, transport) = try await enrolled([TransportResponse(status: 200, body: json(response))])
        let updated = try await authenticator.updatePushCredentials(
            PushCredentials(service: .fcm, token: "fcm-token"), enrollment: sampleEnrollment())
        #expect(updated.pushCredentials == PushCredentials(service: .fcm, token: "fcm-token"))
        #expect(try await authenticator.keyStore.enrollment(id: "dev_abc123")?.pushCredentials?.service == .fcm)

        let request = try #require(await transport.requests.first)
        #expect(request.method == "PATCH")
        #expect(
            request.url.absoluteString == "https://warden.example:8443/appliance-mfa/api/device-accounts/dev_abc123")
        let body = try #require(jsonObject(request.body))
        #expect(Set(body.keys) == ["push_credentials"])
        #expect((body["push_credentials"] as? [String: Any])?["service"] as? String == "FCM")
        try await expectDeviceJWT(request)
    }

    @Test func unenroll() async throws {
        let (authenticator, transport) = try await enrolled([TransportResponse(status: 204)])
        try await authenticator.unenroll(sampleEnrollment())
        let request = try #require(await transport.requests.first)
        #expect(request.method == "DELETE")
        #expect(
            request.url.absoluteString == "https://warden.example:8443/appliance-mfa/api/device-accounts/dev_abc123")
        #expect(request.body == nil)
        try await expectDeviceJWT(request)
        #expect(try await authenticator.enrollments().isEmpty)
    }

    @Test func enrollmentForNotification() async throws {
        let (authenticator, _) = try await enrolled([])
        #expect(try await authenticator.enrollment(for: sampleNotification()) == sampleEnrollment())
        #expect(try await authenticator.enrollment(for: sampleNotification(enrollmentID: "dev_zzz")) == nil)
    }

    func expectDeviceJWT(_ request: TransportRequest) async throws {
        let authorization = try #require(request.headers["Authorization"])
        #expect(authorization.hasPrefix("Bearer "))
        let token = String(authorization.dropFirst("Bearer ".count))
        let payload = try await verifier(for: sharedKey.publicJWK).verify(token, as: DeviceAccountPayload.self)
        #expect(payload.iss.value == "dev_abc123")
        #expect(payload.sub.value == "auth0|user1")
        #expect(payload.aud.value == ["https://warden.example:8443/appliance-mfa/api/device-accounts"])
    }
}

@Suite struct URLSessionTransportTests {
    @Test func unreachableServerIsATransportError() async throws {
        let authenticator = Authenticator(transport: URLSessionTransport(timeout: 5))
        await #expect(throws: AuthenticatorError(kind: .transport)) {
            try await authenticator.enroll(
                ticket: "t", baseURL: URL(string: "http://127.0.0.1:1/")!, identifier: "i", name: "n")
        }
    }
}
