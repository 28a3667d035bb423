import ArgumentParser
import Foundation
import WardenAuthenticator
import WardenCore

extension AuthenticatorCommand {
    /// `warden authenticator code [--account ID] [--plain]`: the enrolments' current one-time codes (RFC 6238 TOTP,
    /// the `otp` factor of SPEC §12) from the secret each enrolment received (SPEC §7.1 `totp`).
    struct Code: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the current one-time code of each enrolled account, with the seconds it has left.",
            discussion: """
                Each enrolment also holds a TOTP secret (RFC 6238: SHA-1, 6 digits, a new code every 30 s). When \
                a sign-in asks for a code ("Enter a code instead"), type the current one. Codes are computed on \
                this terminal; nothing is sent to the server. An enrolment stored without a secret (by an older \
                warden) is skipped with a note on standard error: enrol again to get its codes.

                One line per account — account (issuer), code, seconds until the next code:
                  ada@example.com (Warden)  123 456  (17 s left)

                Examples:
                  warden authenticator code
                  warden authenticator code --account ada@example.com
                  warden authenticator code --plain --account dev_3kq…    (digits only)
                """)

        @Option(help: "Only this enrolment: its id (dev_…, see `list`), account name (e-mail) or user id.")
        var account: String?
        @Flag(help: "Print only the code's digits, for scripts; needs a single enrolment (--account when several).")
        var plain = false

        func run() async throws {
            let (_, enrollments) = try await AuthenticatorHome().enrolledAuthenticator()
            let chosen = try Self.select(enrollments, account: account)
            let now = Date()
            if plain {
                guard chosen.count == 1 else {
                    throw AuthenticatorCLIError(
                        "\(chosen.count) enrolments match; name one with --account ID (see `warden authenticator list`)"
                    )
                }
                Screen.write(try Self.code(of: chosen[0], at: now).code + "\n")
                return
            }
            let listing = Self.listing(chosen, at: now)
            for note in listing.notes { Terminal.stderr(note) }
            guard !listing.lines.isEmpty else {
                throw AuthenticatorCLIError("no enrolment has a TOTP secret; enrol again to get codes")
            }
            Screen.write(listing.lines.joined(separator: "\n") + "\n")
        }

        /// Every enrolment, or those whose id, account name or user id is `account`.
        static func select(_ enrollments: [Enrollment], account: String?) throws -> [Enrollment] {
            guard let account else { return enrollments }
            let matching = enrollments.filter { [$0.id, $0.accountName, $0.userID].contains(account) }
            guard !matching.isEmpty else {
                throw AuthenticatorCLIError("no enrolment \(account) here (see `warden authenticator list`)")
            }
            return matching
        }

        /// `account (issuer)  123 456  (17 s left)` for each enrolment with a TOTP secret, the accounts padded to
        /// one width; a note for each one skipped.
        static func listing(_ enrollments: [Enrollment], at date: Date) -> (lines: [String], notes: [String]) {
            var rows: [(account: String, code: TOTPCode)] = []
            var notes: [String] = []
            for enrollment in enrollments {
                do {
                    rows.append((title(enrollment), try code(of: enrollment, at: date)))
                } catch {
                    notes.append("Skipped \(error)")
                }
            }
            let width = rows.map(\.account.count).max() ?? 0
            let lines = rows.map { row in
                row.account + String(repeating: " ", count: width - row.account.count)
                    + "  \(grouped(row.code.code))  (\(row.code.secondsRemaining) s left)"
            }
            return (lines, notes)
        }

        /// The enrolment's code at `date`, or why it has none.
        static func code(of enrollment: Enrollment, at date: Date) throws -> TOTPCode {
            let name = "\(title(enrollment)), \(enrollment.id)"
            guard let totp = enrollment.totp else {
                throw AuthenticatorCLIError("\(name): no TOTP secret stored (enrolled by an older warden); enrol again")
            }
            do {
                return try totp.code(at: date)
            } catch {
                throw AuthenticatorCLIError("\(name): \(TransactionDesk.describe(error))")
            }
        }

        /// The account name (else the user id) and the issuer label: `ada@example.com (Warden)`.
        static func title(_ enrollment: Enrollment) -> String {
            DisplayText.clean(
                (enrollment.accountName ?? enrollment.userID) + (enrollment.issuerLabel.map { " (\($0))" } ?? ""))
        }

        /// The code in two groups, as authenticator apps show it: `123 456`, `1234 5678`.
        static func grouped(_ code: String) -> String {
            let middle = code.index(code.startIndex, offsetBy: code.count / 2)
            return code[..<middle] + " " + code[middle...]
        }
    }
}
