import Benchmark
import Foundation
import GroupConfiguration
import WardenCore
import WardenWire

/// The per-request parsers and checks of WardenCore: PKCE S256 verification at the code exchange (RFC 7636
/// §4.6), the Management API user search query (SPEC §9 `q`), post-login rules (SPEC §8), parsed once when
/// saved and evaluated on every login, the JSON of a user's metadata, parsed at every read of a user, and the
/// password policy's check (SPEC §15.1, `PasswordPolicy.swift`). With `scalingFactor: .kilo`, the per-operation
/// figures are the scaled (`*`) ones.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .thousandOperations

    Benchmark("PKCE S256 verify (43-character verifier)") { benchmark in
        for _ in benchmark.scaledIterations {
            precondition(CodeChallenge.verify(verifier: Samples.verifier, challenge: Samples.challenge))
        }
    }

    for (label, query) in Samples.queries {
        Benchmark("user query parse: \(label)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try UserQueryParser.parse(query))
            }
        }
    }

    // A user's two metadata columns, as every user read parses them (SPEC §9; issue 16).
    Benchmark("JSONValue(parsing:) of a user's metadata") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONValue(parsing: Samples.userMetadata))
            blackHole(try JSONValue(parsing: Samples.appMetadata))
        }
    }

    Benchmark("JSONDecoder of a user's metadata (before)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try JSONDecoder().decode(JSONValue.self, from: Data(Samples.userMetadata.utf8)))
            blackHole(try JSONDecoder().decode(JSONValue.self, from: Data(Samples.appMetadata.utf8)))
        }
    }

    Benchmark("post-login rule parse") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try RuleParser.parse(Samples.rule))
        }
    }

    Benchmark("post-login rule evaluate (parsed rule; one login event)") { benchmark, setup in
        let (rule, evaluator) = setup
        for _ in benchmark.scaledIterations {
            blackHole(evaluator.matches(rule))
        }
    } setup: {
        (try RuleParser.parse(Samples.rule), RuleEvaluator(event: Samples.event))
    }
    passwordPolicyBenchmarks()
}

/// Inputs shaped like real ones.
enum Samples {
    /// A 43-character verifier and its S256 challenge, BASE64URL(SHA256(verifier)).
    static let verifier = "dBjftJeZ4CVP-mJ92K1u5JpTsARKh0RakhL7fO0EXWk"
    static let challenge = "eXNr2NYRWX1M19dLeLoGjnqC65oaDVX_qsS_eSpxzgU"

    static let queries = [
        ("one field", "email:\"jane@example.com\""),
        (
            "boolean with prefix and metadata",
            "(name:jan* OR email:jane*) AND email_verified:true AND NOT blocked:true AND app_metadata.plan:pro"
        ),
    ]

    /// Metadata as the bench-scale tenant stores it (sorted keys, `JSONValue.serialized`).
    static let userMetadata = #"{"city":"City 500","lang":"de"}"#
    static let appMetadata = #"{"plan":"gold","tier":3}"#

    /// A rule the SPEC has in mind: a session transfer from another network, or an unverified e-mail.
    static let rule = """
        exists(event.session_transfer_token) && event.session_transfer_token.request.asn != event.request.asn \
        || !event.user.email_verified && event.client.app_type in ["spa", "native"]
        """

    static let event: LoginEvent = {
        var user = User(userID: "auth0|jane", email: "jane@example.com", createdAt: Date(timeIntervalSince1970: 0))
        user.emailVerified = true
        user.appMetadata = ["plan": "pro"]
        var client = Client(clientID: "web-app", name: "Web")
        client.appType = .regularWeb
        let browser = LoginEvent.RequestInfo(ip: "203.0.113.7", asn: 64496, userAgent: "Mozilla/5.0", countryCode: "FR")
        let phone = LoginEvent.RequestInfo(ip: "198.51.100.1", asn: 64500, userAgent: "App/1.0", countryCode: "DE")
        return LoginEvent(
            request: browser,
            sessionTransferToken: .init(clientID: "native-app", scope: ["openid", "offline_access"], request: phone),
            user: user, client: client)
    }()
}
