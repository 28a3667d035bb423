import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

/// What SPEC §12 stores: the tenant's factors and policy, OTP-only authenticators, the OTP replay and lockout state,
/// recovery codes, recent logins, a session's `amr` and a rule's `action`.
@Suite("MFA stores")
struct MFAStoreTests {
    private static let throttle = OTPThrottle.standard

    private static func authenticator(userID: String, createdAt: Date = storedTime()) -> OTPAuthenticator {
        OTPAuthenticator(
            id: uniqueID("totp"), userID: userID, name: "Authenticator app", secret: "JBSWY3DPEHPK3PXP",
            createdAt: createdAt)
    }

    private static func device(userID: String) -> DeviceEnrollment {
        DeviceEnrollment(
            id: uniqueID("dev"), userID: userID, identifier: uniqueID("device"), name: "Phone",
            pushCredentials: .init(service: "APNS", token: uniqueID("apns")), publicKeyModulus: "u1SU",
            publicKeyExponent: "AQAB", tokenHash: uniqueID("token"), totpSecret: "JBSWY3DPEHPK3PXP",
            createdAt: storedTime())
    }

    @Test("factors and policies: disabled and [] by default, then as set", arguments: TestDatabase.available)
    func settings(database: TestDatabase) async throws {
        // The tenant's one setting: on PostgreSQL in a schema of its own, or another test setting it races with this.
        try await database.withIsolatedStore { store in
            #expect(try await store.enabledMFAFactors().isEmpty)
            #expect(try await store.mfaPolicies().isEmpty)
            try await store.setMFAFactor(.otp, enabled: true)
            try await store.setMFAFactor(.pushNotification, enabled: true)
            try await store.setMFAFactor(.pushNotification, enabled: false)
            try await store.setMFAFactor(.recoveryCode, enabled: true)
            #expect(try await store.enabledMFAFactors() == [.otp, .recoveryCode])
            try await store.setMFAPolicies([.allApplications])
            #expect(try await store.mfaPolicies() == [.allApplications])
            try await store.setMFAPolicies([.confidenceScore])
            #expect(try await store.mfaPolicies() == [.confidenceScore])
            try await store.setMFAPolicies([])
            #expect(try await store.mfaPolicies().isEmpty)
            for factor in MFAFactor.all { try await store.setMFAFactor(factor, enabled: false) }
        }
    }

    @Test("a step is accepted once; an earlier or equal one is a replay", arguments: TestDatabase.available)
    func replay(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let app = Self.authenticator(userID: userID)
            try await store.insertOTPAuthenticator(app)
            let now = storedTime()
            let match = OTPMatch(authenticatorID: app.id, step: 1000)
            #expect(
                try await store.recordOTPAttempt(userID: userID, match: match, at: now, throttle: Self.throttle)
                    == .accepted)
            #expect(try await store.otpAuthenticators(userID: userID).first?.lastAuthAt == now)
            for step: Int64 in [1000, 999] {
                let again = OTPMatch(authenticatorID: app.id, step: step)
                #expect(
                    try await store.recordOTPAttempt(userID: userID, match: again, at: now, throttle: Self.throttle)
                        == .replayed)
            }
            let next = OTPMatch(authenticatorID: app.id, step: 1001)
            #expect(
                try await store.recordOTPAttempt(userID: userID, match: next, at: now, throttle: Self.throttle)
                    == .accepted)
            let otherUser = uniqueID("auth0|user")
            #expect(
                try await store.recordOTPAttempt(userID: otherUser, match: match, at: now, throttle: Self.throttle)
                    == .accepted, "steps are per user")
        }
    }

    @Test("20 concurrent uses of one code: exactly one accepted", arguments: TestDatabase.available)
    func concurrentUse(database: TestDatabase) async throws {
        try await database.withNodes { nodes in
            let userID = uniqueID("auth0|user")
            let match = OTPMatch(authenticatorID: uniqueID("totp"), step: 5000)
            let now = storedTime()
            let results = try await withThrowingTaskGroup(of: OTPAttemptResult.self) { group in
                for attempt in 0..<20 {
                    let store = nodes[attempt % nodes.count]
                    group.addTask {
                        try await store.recordOTPAttempt(userID: userID, match: match, at: now, throttle: Self.throttle)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.filter { $0 == .accepted }.count == 1)
            #expect(results.filter { $0 == .replayed }.count == 19)
        }
    }

    @Test(
        "30 concurrent wrong codes: exactly 10 counted, numbered 1…10, then locked", arguments: TestDatabase.available)
    func concurrentWrongCodes(database: TestDatabase) async throws {
        try await database.withNodes { nodes in
            let userID = uniqueID("auth0|user")
            let now = storedTime()
            let results = try await withThrowingTaskGroup(of: OTPAttemptResult.self) { group in
                for attempt in 0..<30 {
                    let store = nodes[attempt % nodes.count]
                    group.addTask {
                        try await store.recordOTPAttempt(userID: userID, match: nil, at: now, throttle: Self.throttle)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let ordinals = results.compactMap { if case .wrong(let ordinal) = $0 { ordinal } else { nil } }
            #expect(ordinals.sorted() == Array(1...10))
            let lockEnd = now.addingTimeInterval(Self.throttle.lockDuration)
            #expect(results.filter { $0 == .locked(until: lockEnd) }.count == 20)
        }
    }

    @Test(
        "the lock refuses even a right code until it ends; wrong codes age out of the window",
        arguments: TestDatabase.available)
    func lockAndWindow(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let start = storedTime(-7200)
            for minute in 0..<9 {
                let result = try await store.recordOTPAttempt(
                    userID: userID, match: nil, at: start.addingTimeInterval(Double(minute)), throttle: Self.throttle)
                #expect(result == .wrong(ordinal: minute + 1))
            }
            // Sixteen minutes on, the nine are outside the window.
            let later = start.addingTimeInterval(16 * 60)
            #expect(
                try await store.recordOTPAttempt(userID: userID, match: nil, at: later, throttle: Self.throttle)
                    == .wrong(ordinal: 1))
            for second in 1...9 {
                _ = try await store.recordOTPAttempt(
                    userID: userID, match: nil, at: later.addingTimeInterval(Double(second)), throttle: Self.throttle)
            }
            let lockedAt = later.addingTimeInterval(9)
            let lockEnd = lockedAt.addingTimeInterval(Self.throttle.lockDuration)
            let right = OTPMatch(authenticatorID: uniqueID("totp"), step: 1)
            #expect(
                try await store.recordOTPAttempt(
                    userID: userID, match: right, at: lockedAt.addingTimeInterval(60), throttle: Self.throttle)
                    == .locked(until: lockEnd))
            #expect(
                try await store.recordOTPAttempt(userID: userID, match: right, at: lockEnd, throttle: Self.throttle)
                    == .accepted)
        }
    }

    @Test("a recovery code is replaced once: of 20 concurrent uses exactly one wins", arguments: TestDatabase.available)
    func recoveryCode(database: TestDatabase) async throws {
        try await database.withNodes { nodes in
            let userID = uniqueID("auth0|user")
            let store = nodes[0]
            #expect(try await store.recoveryCodeHash(userID: userID) == nil)
            try await store.setRecoveryCode(userID: userID, hash: "first", at: storedTime())
            try await store.setRecoveryCode(userID: userID, hash: "second", at: storedTime())
            #expect(try await store.recoveryCodeHash(userID: userID) == "second")
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for attempt in 0..<20 {
                    let node = nodes[attempt % nodes.count]
                    group.addTask {
                        try await node.replaceRecoveryCode(
                            userID: userID, expectedHash: "second", newHash: "third-\(attempt)", at: storedTime())
                    }
                }
                return try await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(wins == 1)
            #expect(try await store.recoveryCodeHash(userID: userID)?.hasPrefix("third-") == true)
        }
    }

    @Test(
        "deleting a user's authenticators removes devices, OTP apps and the recovery code",
        arguments: TestDatabase.available)
    func deleteAuthenticators(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let device = Self.device(userID: userID)
            try await store.insertDeviceEnrollment(device)
            try await store.insertOTPAuthenticator(Self.authenticator(userID: userID))
            try await store.setRecoveryCode(userID: userID, hash: "h", at: storedTime())
            let bystander = uniqueID("auth0|user")
            try await store.insertOTPAuthenticator(Self.authenticator(userID: bystander))

            let used = storedTime(5)
            try await store.markAuthenticatorUsed(id: device.id, at: used)
            #expect(try await store.deviceEnrollment(id: device.id)?.lastAuthAt == used)

            #expect(try await store.deleteAuthenticators(userID: userID) == 2)
            #expect(try await store.deviceEnrollments(userID: userID).isEmpty)
            #expect(try await store.otpAuthenticators(userID: userID).isEmpty)
            #expect(try await store.recoveryCodeHash(userID: userID) == nil)
            #expect(try await store.otpAuthenticators(userID: bystander).count == 1)
            #expect(try await store.deleteAuthenticators(userID: userID) == 0)
        }
    }

    @Test("recent logins: newest first, the newest `keep` kept", arguments: TestDatabase.available)
    func recentLogins(database: TestDatabase) async throws {
        try await database.withStore { store in
            let userID = uniqueID("auth0|user")
            let start = storedTime(-3600)
            let logins = (0..<12).map { index in
                RecentLogin(
                    userID: userID, network: index.isMultiple(of: 2) ? LoginNetwork(rawValue: "asn:\(index)") : nil,
                    deviceHash: index.isMultiple(of: 3) ? "device-\(index)" : nil, didMFA: index.isMultiple(of: 4),
                    at: start.addingTimeInterval(Double(index)))
            }
            for login in logins { try await store.recordSuccessfulLogin(login, keep: RecentLogin.kept) }
            #expect(try await store.recentLogins(userID: userID) == Array(logins.suffix(10).reversed()))
            #expect(try await store.recentLogins(userID: uniqueID("auth0|user")).isEmpty)
        }
    }

    @Test("a session keeps its amr; a rule its action", arguments: TestDatabase.available)
    func sessionAndRule(database: TestDatabase) async throws {
        try await database.withStore { store in
            let now = storedTime()
            var session = Session(
                id: uniqueID("sid"), userID: uniqueID("auth0|user"), createdAt: now, authTime: now, lastActiveAt: now,
                expiresAt: now.addingTimeInterval(3600), idleExpiresAt: now.addingTimeInterval(600), method: "password",
                amr: [.password])
            try await store.insertSession(session, secretHash: uniqueID("secret"))
            #expect(try await store.session(id: session.id)?.amr == [.password])
            session.amr.append(.multiFactor)
            try await store.updateSession(session)
            #expect(try await store.session(id: session.id)?.amr == [.password, .multiFactor])

            let rule = PostLoginRule(
                id: uniqueID("plr"), name: "MFA from abroad", enabled: true, order: 1,
                condition: #"event.request.geoip.countryCode != "DE""#, denyReason: "", action: .requireMFA)
            try await store.insertPostLoginRule(rule)
            #expect(try await store.postLoginRule(id: rule.id) == rule)
        }
    }
}
