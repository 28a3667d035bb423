import Foundation
import Testing
import WardenCore
import WardenTesting
import WardenWire

@testable import WardenServer

/// The server side of SPEC §12's factors: one-time codes checked against the user's secrets, recovery codes, and
/// `require_mfa` post-login rules.
@Suite("MFA: one-time codes, recovery codes, require_mfa rules")
struct SecondFactorServicesTests {
    static let secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"

    /// A verifier over `warden`'s store with an OTP-only authenticator of a new user holding ``secret``.
    static func enrolled(_ warden: TestWarden) async throws -> (OneTimeCodeVerifier, userID: String, TOTP) {
        let userID = "auth0|" + RandomToken.identifier(prefix: "", length: 20)
        try await warden.runtime.store.insertOTPAuthenticator(
            OTPAuthenticator(
                id: "totp_" + RandomToken.identifier(prefix: "", length: 16), userID: userID, name: "App",
                secret: secret, createdAt: warden.clock.now()))
        let verifier = OneTimeCodeVerifier(
            devices: warden.runtime.store, authenticators: warden.runtime.store, clock: warden.clock)
        return (verifier, userID, try #require(TOTP(base32Secret: secret)))
    }

    @Test("the code of now and of one step on either side pass; two steps off does not")
    func window() async throws {
        let warden = try await TestWarden.make()
        let (verifier, userID, totp) = try await Self.enrolled(warden)
        let step = totp.timeStep(at: warden.clock.now())
        #expect(try await verifier.verify(totp.code(step: step - 2), userID: userID) == .wrong(ordinal: 1))
        #expect(try await verifier.verify(totp.code(step: step + 2), userID: userID) == .wrong(ordinal: 2))
        #expect(try await verifier.verify(totp.code(step: step - 1), userID: userID) == .accepted)
        #expect(try await verifier.verify(totp.code(step: step), userID: userID) == .accepted)
        #expect(try await verifier.verify(totp.code(step: step + 1), userID: userID) == .accepted)
    }

    @Test("a used code is refused, and so is an earlier one")
    func replay() async throws {
        let warden = try await TestWarden.make()
        let (verifier, userID, totp) = try await Self.enrolled(warden)
        let code = totp.code(at: warden.clock.now())
        #expect(try await verifier.verify(code, userID: userID) == .accepted)
        #expect(try await verifier.verify(code, userID: userID) == .replayed)
        warden.clock.advance(by: 30)
        #expect(try await verifier.verify(code, userID: userID) == .replayed, "still in the window, already used")
        #expect(try await verifier.verify(totp.code(at: warden.clock.now()), userID: userID) == .accepted)
    }

    @Test("20 concurrent uses of one code: exactly one passes")
    func concurrentUse() async throws {
        let warden = try await TestWarden.make()
        let (verifier, userID, totp) = try await Self.enrolled(warden)
        let code = totp.code(at: warden.clock.now())
        let results = try await withThrowingTaskGroup(of: OTPAttemptResult.self) { group in
            for _ in 0..<20 { group.addTask { try await verifier.verify(code, userID: userID) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0 == .accepted }.count == 1)
        #expect(results.filter { $0 == .replayed }.count == 19)
    }

    @Test("ten wrong codes lock OTP for 15 minutes, whatever the code")
    func lockout() async throws {
        let warden = try await TestWarden.make()
        let (verifier, userID, totp) = try await Self.enrolled(warden)
        let right = totp.code(at: warden.clock.now())
        let wrong = right == "000000" ? "111111" : "000000"
        for ordinal in 1...10 {
            #expect(try await verifier.verify(wrong, userID: userID) == .wrong(ordinal: ordinal))
        }
        let lockEnd = Date(
            timeIntervalSince1970: (warden.clock.now().addingTimeInterval(15 * 60).timeIntervalSince1970 * 1000)
                .rounded() / 1000)
        #expect(try await verifier.verify(right, userID: userID) == .locked(until: lockEnd))
        warden.clock.advance(by: 15 * 60)
        #expect(try await verifier.verify(totp.code(at: warden.clock.now()), userID: userID) == .accepted)
    }

    @Test("a push device's secret is a second factor too")
    func deviceSecret() async throws {
        let warden = try await TestWarden.make()
        let userID = "auth0|" + RandomToken.identifier(prefix: "", length: 20)
        try await warden.runtime.store.insertDeviceEnrollment(
            DeviceEnrollment(
                id: "dev_" + RandomToken.identifier(prefix: "", length: 16), userID: userID, identifier: "phone",
                name: "Phone", pushCredentials: nil, publicKeyModulus: "u1SU", publicKeyExponent: "AQAB",
                tokenHash: SecretHash.sha256Hex(RandomToken.make()), totpSecret: Self.secret,
                createdAt: warden.clock.now()))
        let verifier = OneTimeCodeVerifier(
            devices: warden.runtime.store, authenticators: warden.runtime.store, clock: warden.clock)
        let totp = try #require(TOTP(base32Secret: Self.secret))
        #expect(try await verifier.verify(totp.code(at: warden.clock.now()), userID: userID) == .accepted)
        #expect(try await warden.runtime.store.deviceEnrollments(userID: userID).first?.lastAuthAt != nil)
    }

    @Test("a recovery code works once and is replaced at once; concurrent uses: one wins")
    func recoveryCode() async throws {
        let warden = try await TestWarden.make()
        let codes = RecoveryCodes(store: warden.runtime.store, clock: warden.clock)
        let userID = "auth0|" + RandomToken.identifier(prefix: "", length: 20)
        #expect(try await codes.redeem("ANYTHING", userID: userID) == .rejected, "no code yet")
        let code = try await codes.issue(userID: userID)
        #expect(try await codes.redeem(String(code.reversed()), userID: userID) == .rejected)
        let typed = code.lowercased().enumerated().map { $0.offset % 4 == 3 ? "\($0.element) " : "\($0.element)" }
            .joined()
        guard case .accepted(let next) = try await codes.redeem(typed, userID: userID) else {
            Issue.record("the code, typed in lower case with spaces, is accepted")
            return
        }
        #expect(next != code)
        #expect(try await codes.redeem(code, userID: userID) == .rejected, "used up")

        let results = try await withThrowingTaskGroup(of: RecoveryCodes.Redemption.self) { group in
            for _ in 0..<20 { group.addTask { try await codes.redeem(next, userID: userID) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.filter { $0 != .rejected }.count == 1)
    }

    @Test("a require_mfa rule asks for a second factor; a deny rule after it still denies")
    func requireMFARule() async throws {
        let warden = try await TestWarden.make()
        let store = warden.runtime.store
        let check = PostLoginCheck(
            rules: store, policies: [], ipIntelligence: IPIntelligence(), trustedProxies: [],
            eventLog: warden.runtime.eventLog, clock: warden.clock, logger: warden.runtime.logger)
        let user = User(userID: "auth0|ann", email: "ann@example.com", createdAt: warden.clock.now())
        let event = LoginEvent(
            request: .init(ip: "203.0.113.7", countryCode: "FR"), user: user,
            client: Client(clientID: "web", name: "Web"))
        #expect(try await check.decide(event) == .allow)
        try await store.insertPostLoginRule(
            PostLoginRule(
                id: "plr_mfa", name: "Abroad", enabled: true, order: 1,
                condition: #"event.request.geoip.countryCode != "DE""#, denyReason: "", action: .requireMFA))
        #expect(try await check.decide(event) == .requireMFA)
        try await store.insertPostLoginRule(
            PostLoginRule(
                id: "plr_deny", name: "No Ann", enabled: true, order: 2,
                condition: #"event.user.user_id == "auth0|ann""#,
                denyReason: "Ann may not sign in"))
        #expect(try await check.decide(event) == .deny(reason: "Ann may not sign in"))
    }
}
