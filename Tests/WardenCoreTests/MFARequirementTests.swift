import Foundation
import Testing
import WardenCore

/// The MFA decision of SPEC §12 "When MFA is required", over a table of logins.
@Suite("MFA requirement")
struct MFARequirementTests {
    static let user = "auth0|ann"
    static let home = LoginNetwork(rawValue: "asn:64500")
    static let office = LoginNetwork(rawValue: "ipv4:c0000200/24")
    static let elsewhere = LoginNetwork(rawValue: "asn:64999")
    static let browser = "hash-of-known-browser"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A successful login `minutesAgo` from `network` in `device`.
    static func login(_ network: LoginNetwork?, _ device: String?, mfa: Bool, minutesAgo: Double) -> RecentLogin {
        RecentLogin(
            userID: user, network: network, deviceHash: device, didMFA: mfa,
            at: now.addingTimeInterval(-60 * minutesAgo))
    }

    /// Two earlier logins: from home in the known browser with MFA, from the office in another browser without.
    static let history = [
        login(home, browser, mfa: true, minutesAgo: 60), login(office, "other-browser", mfa: false, minutesAgo: 30),
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var requirement: MFARequirement
        var expected: MFADecision
    }

    /// The login every case starts from: a password now, from `elsewhere`, in an unknown browser, factors enabled,
    /// no policy, and the two logins of ``history``.
    static func base(
        _ change: (inout MFARequirement) -> Void = { _ in }
    ) -> MFARequirement {
        var requirement = MFARequirement(
            policies: [], enabledFactors: [.pushNotification, .otp, .recoveryCode], firstFactor: .credentials,
            network: elsewhere, deviceHash: "new-browser", recentLogins: history)
        change(&requirement)
        return requirement
    }

    static let cases: [Case] = [
        Case(testDescription: "no policy, nothing asks", requirement: base(), expected: .notRequired),
        Case(
            testDescription: "all-applications asks", requirement: base { $0.policies = [.allApplications] },
            expected: .required([.allApplications])),
        Case(
            testDescription: "all-applications with prompt=none is interaction_required",
            requirement: base {
                $0.policies = [.allApplications]
                $0.promptNone = true
            },
            expected: .interactionRequired([.allApplications])),
        Case(
            testDescription: "confidence-score: unknown browser on a new network asks",
            requirement: base { $0.policies = [.confidenceScore] }, expected: .required([.lowConfidence])),
        Case(
            testDescription: "confidence-score: a known network does not ask",
            requirement: base {
                $0.policies = [.confidenceScore]
                $0.network = office
            },
            expected: .notRequired),
        Case(
            testDescription: "confidence-score: a browser that did MFA does not ask, from a new network too",
            requirement: base {
                $0.policies = [.confidenceScore]
                $0.deviceHash = browser
            },
            expected: .notRequired),
        Case(
            testDescription: "confidence-score: a browser seen without MFA is not known",
            requirement: base {
                $0.policies = [.confidenceScore]
                $0.deviceHash = "other-browser"
            },
            expected: .required([.lowConfidence])),
        Case(
            testDescription: "confidence-score: the first login always asks",
            requirement: base {
                $0.policies = [.confidenceScore]
                $0.network = home
                $0.deviceHash = browser
                $0.recentLogins = []
            },
            expected: .required([.lowConfidence])),
        Case(
            testDescription: "confidence-score: no known address is a new network",
            requirement: base {
                $0.policies = [.confidenceScore]
                $0.network = nil
                $0.deviceHash = nil
            },
            expected: .required([.lowConfidence])),
        Case(
            testDescription: "confidence-score: only the newest 10 logins count",
            requirement: base {
                $0.policies = [.confidenceScore]
                $0.network = home
                $0.recentLogins =
                    (1...10).map { login(office, nil, mfa: false, minutesAgo: Double($0)) }
                    + [login(home, nil, mfa: false, minutesAgo: 100)]
            },
            expected: .required([.lowConfidence])),
        Case(
            testDescription: "acr_values multi-factor asks",
            requirement: base { $0.acrValues = ["urn:other", MFARequirement.multiFactorACR] },
            expected: .required([.acrValues])),
        Case(
            testDescription: "another acr value does not ask", requirement: base { $0.acrValues = ["urn:other"] },
            expected: .notRequired),
        Case(
            testDescription: "a require_mfa rule asks", requirement: base { $0.ruleRequiresMFA = true },
            expected: .required([.rule])),
        Case(
            testDescription: "every reason is reported",
            requirement: base {
                $0.policies = [.allApplications]
                $0.acrValues = [MFARequirement.multiFactorACR]
                $0.ruleRequiresMFA = true
            },
            expected: .required([.allApplications, .acrValues, .rule])),
        Case(
            testDescription: "a session that did MFA answers for it",
            requirement: base {
                $0.policies = [.allApplications]
                $0.ruleRequiresMFA = true
                $0.firstFactor = .session(amr: [.password, .multiFactor])
            },
            expected: .notRequired),
        Case(
            testDescription: "a session that did MFA answers for prompt=none too",
            requirement: base {
                $0.policies = [.allApplications]
                $0.firstFactor = .session(amr: [.password, .multiFactor])
                $0.promptNone = true
            },
            expected: .notRequired),
        Case(
            testDescription: "a session without MFA does not",
            requirement: base {
                $0.policies = [.allApplications]
                $0.firstFactor = .session(amr: [.password])
            },
            expected: .required([.allApplications])),
        Case(
            testDescription: "prompt=login or max_age: the session's MFA no longer counts",
            requirement: base {
                $0.policies = [.allApplications]
                $0.firstFactor = .session(amr: [.password, .multiFactor])
                $0.reauthenticationForced = true
            },
            expected: .required([.allApplications])),
        Case(
            testDescription: "no factor a user can enrol with: nothing to ask",
            requirement: base {
                $0.policies = [.allApplications]
                $0.enabledFactors = [.recoveryCode]
            },
            expected: .notRequired),
        Case(
            testDescription: "OTP alone is enough to ask",
            requirement: base {
                $0.policies = [.allApplications]
                $0.enabledFactors = [.otp]
            },
            expected: .required([.allApplications])),
    ]

    @Test(arguments: cases)
    func decision(_ example: Case) {
        #expect(example.requirement.decision == example.expected)
    }

    @Test(
        "the network of an address: ASN when known, else /24 or /48",
        arguments: [
            ("192.0.2.77", IPInfo(asn: 64500, countryCode: "DE"), "asn:64500"),
            ("192.0.2.77", nil, "ipv4:c0000200/24"),
            ("192.0.2.200", IPInfo(asn: 0, countryCode: nil), "ipv4:c0000200/24"),
            ("::ffff:192.0.2.9", nil, "ipv4:c0000200/24"),
            ("2001:db8:1:2::1", nil, "ipv6:20010db80001/48"),
            ("2001:db8:1:ffff::1", nil, "ipv6:20010db80001/48"),
        ] as [(String, IPInfo?, String)])
    func network(ip: String, info: IPInfo?, expected: String) {
        #expect(LoginNetwork(ip: ip, info: info)?.rawValue == expected)
    }

    @Test func anAddressThatDoesNotParseHasNoNetwork() {
        #expect(LoginNetwork(ip: "not an address", info: nil) == nil)
    }
}
