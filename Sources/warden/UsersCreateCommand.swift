import ArgumentParser
import Foundation
import WardenServer

extension UsersCommand {
    /// `warden users create --email E --password-stdin [--admin]` (SPEC §14): a user made on the database, for
    /// instance the first administrator of the admin console.
    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a user; with --admin, one who may sign in to the admin console.",
            discussion: """
                The password is read from the first line of standard input (8 to 72 bytes), so it stays out of \
                the shell history and the process list:
                  printf '%s\\n' "$PASSWORD" | warden users create --email ops@example.com --password-stdin --admin
                """)
        @OptionGroup var options: StoreOptions
        @Option(help: "The user's e-mail address (their login).") var email: String
        @Flag(help: "Read the password from the first line of standard input (required).") var passwordStdin = false
        @Flag(help: "Give the user the warden:admin role: they may sign in to {issuer}admin/.") var admin = false

        func validate() throws {
            guard passwordStdin else {
                throw ValidationError("--password-stdin is required: pipe the password in (see --help)")
            }
        }

        func run() async throws {
            guard let password = readLine(strippingNewline: true), !password.isEmpty else {
                throw ValidationError("no password on standard input")
            }
            try await options.withRuntime { runtime, _ in
                let userID = try await Bootstrap(runtime: runtime).createUser(
                    email: email, password: password, admin: admin)
                Terminal.stderr(
                    "User \(email.lowercased()) created (user_id \(userID))"
                        + (admin ? "; they may sign in to the admin console, /admin/ on the server" : ""))
            }
        }
    }
}
