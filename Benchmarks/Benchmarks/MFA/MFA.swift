import Benchmark
import Foundation
import GroupConfiguration
import WardenCore
import WardenWire

/// The CPU side of a second factor at sign-in (SPEC §12): checking a typed one-time code against one TOTP secret
/// at the steps of now and on either side (three HMAC-SHA-1 and constant-time comparisons, RFC 6238 §5.2), one
/// code, and the MFA decision of a login. With `scalingFactor: .kilo`, the per-operation figures are the scaled
/// (`*`) ones.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .thousandOperations

    Benchmark("OTP verify (6 digits, ±1 step, a wrong code: all three steps checked)") { benchmark, totp in
        let step = totp.timeStep(at: Samples.now)
        for _ in benchmark.scaledIterations {
            blackHole(totp.matchingSteps(of: Samples.wrongCode, in: (step - 1)...(step + 1)))
        }
    } setup: {
        Samples.totp
    }

    Benchmark("OTP code (one HMAC-SHA-1 and truncation)") { benchmark, totp in
        for _ in benchmark.scaledIterations {
            blackHole(totp.code(at: Samples.now))
        }
    } setup: {
        Samples.totp
    }

    Benchmark("MFA decision (confidence-score, 10 recent logins)") { benchmark, requirement in
        for _ in benchmark.scaledIterations {
            blackHole(requirement.decision)
        }
    } setup: {
        Samples.requirement
    }
}

/// Inputs shaped like real ones.
enum Samples {
    /// 20 random bytes as Warden issues them (SPEC §7.1), in Base32.
    static let totp = TOTP(base32Secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP")!
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    /// A code none of the three steps has, so every step is computed and compared.
    static let wrongCode: String = {
        let step = totp.timeStep(at: now)
        let codes = Set(((step - 1)...(step + 1)).map(totp.code(step:)))
        return (0..<1000).lazy.map { String(format: "%06d", $0) }.first { !codes.contains($0) }!
    }()

    /// A login from a new network in an unknown browser, against ten earlier logins.
    static let requirement = MFARequirement(
        policies: [.confidenceScore], enabledFactors: [.pushNotification, .otp], firstFactor: .credentials,
        network: LoginNetwork(rawValue: "asn:64999"), deviceHash: SecretHash.sha256Hex("browser"),
        recentLogins: (0..<10).map { index in
            RecentLogin(
                userID: "auth0|ann", network: LoginNetwork(rawValue: "asn:\(64500 + index)"),
                deviceHash: SecretHash.sha256Hex("browser-\(index)"), didMFA: index.isMultiple(of: 2),
                at: now.addingTimeInterval(Double(-3600 * index)))
        })
}
