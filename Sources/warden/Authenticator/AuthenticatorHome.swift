import Foundation
import WardenAuthenticator

/// The directory holding this terminal's enrolments and device keys (a ``FileKeyStore``):
/// `$WARDEN_AUTHENTICATOR_HOME`, else `$XDG_CONFIG_HOME/warden/authenticator`, else
/// `~/.config/warden/authenticator`.
struct AuthenticatorHome {
    /// The store directory.
    let directory: URL

    /// Resolves the directory from the environment; empty variables count as unset, and a relative
    /// `XDG_CONFIG_HOME` is ignored (XDG Base Directory Specification).
    init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        homeDirectory: String = NSHomeDirectory()
    ) {
        if let home = environment["WARDEN_AUTHENTICATOR_HOME"], !home.isEmpty {
            directory = URL(fileURLWithPath: home, isDirectory: true)
        } else if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            directory = URL(fileURLWithPath: config, isDirectory: true)
                .appendingPathComponent("warden/authenticator", isDirectory: true)
        } else {
            directory = URL(fileURLWithPath: homeDirectory, isDirectory: true)
                .appendingPathComponent(".config/warden/authenticator", isDirectory: true)
        }
    }

    /// An SDK client over the store, creating the directory (mode `0700`) when missing.
    func authenticatorCreatingStore() throws -> Authenticator {
        Authenticator(transport: AsyncHTTPClientTransport(), keyStore: try FileKeyStore(directory: directory))
    }

    /// An SDK client over the existing store and its enrolments; fails with the command to run first when there
    /// are none.
    func enrolledAuthenticator() async throws -> (Authenticator, [Enrollment]) {
        guard FileManager.default.fileExists(atPath: directory.path) else { throw noEnrolments }
        let authenticator = try authenticatorCreatingStore()
        let enrollments = try await authenticator.enrollments()
        guard !enrollments.isEmpty else { throw noEnrolments }
        return (authenticator, enrollments)
    }

    private var noEnrolments: AuthenticatorCLIError {
        AuthenticatorCLIError(
            "no enrolment in \(directory.path); enrol first: warden authenticator enroll TICKET_URL")
    }
}
