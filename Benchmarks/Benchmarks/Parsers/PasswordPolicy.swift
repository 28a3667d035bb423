import Benchmark
import WardenCore
import WardenWire

/// The password policy of SPEC §15.1, checked at every sign-up, reset and Management API password: `check` with
/// the dictionary (the connection's words and the 10,000 common passwords) and personal information on, for a
/// password it accepts (every rule run) and one the dictionary refuses. Called from the group's `benchmarks`.
func passwordPolicyBenchmarks() {
    for (label, password) in [("accepted", "Correct-Horse-7"), ("common, refused", "P@ssw0rd")] {
        Benchmark("password policy check (good, dictionary and personal info on; \(label))") {
            (benchmark: Benchmark, policy: PasswordPolicy) in
            for _ in benchmark.scaledIterations {
                blackHole(policy.check(password, personalInfo: PasswordSamples.person))
            }
        } setup: { () async throws -> PasswordPolicy in
            let policy = try PasswordPolicy(options: PasswordSamples.options)
            // The common passwords' set is built at first use, outside the measurement.
            blackHole(policy.check(password, personalInfo: PasswordSamples.person))
            return policy
        }
    }
}

/// A connection's options and a person as sign-up sees them.
enum PasswordSamples {
    static let options: [String: JSONValue] = [
        "passwordPolicy": "good",
        "password_no_personal_info": ["enable": true],
        "password_dictionary": ["enable": true, "dictionary": ["warden", "acme", "acme2024"]],
    ]
    static let person = PasswordPolicy.PersonalInfo(email: "jane.doe@example.com", name: "Jane Doe", nickname: "jd")
}
