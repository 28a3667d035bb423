import ArgumentParser
import Foundation
import Logging
import Testing
import WardenServer
import WardenWire

@testable import warden

/// SPEC §1: flags override environment variables, which override defaults; every option is validated.
@Suite("warden serve options")
struct ServerOptionsTests {
    func resolve(_ arguments: [String], _ environment: [String: String] = [:]) throws -> (String, Int, String, String) {
        let configuration = try ServerOptions.parse(arguments).resolve(Settings(environment: environment))
        return (configuration.host, configuration.port, configuration.issuerString, configuration.databaseURL)
    }

    @Test func defaults() throws {
        let (host, port, issuer, database) = try resolve([])
        #expect(host == "127.0.0.1")
        #expect(port == 8080)
        #expect(issuer == "http://127.0.0.1:8080/")
        #expect(database == "sqlite:warden.sqlite")
    }

    @Test func environmentOverridesDefaultsAndFlagsOverrideEnvironment() throws {
        let environment = ["WARDEN_PORT": "9000", "WARDEN_DATABASE_URL": "sqlite::memory:", "WARDEN_HOST": "0.0.0.0"]
        let fromEnvironment = try resolve([], environment)
        #expect(fromEnvironment.1 == 9000)
        #expect(fromEnvironment.3 == "sqlite::memory:")
        #expect(fromEnvironment.2 == "http://0.0.0.0:9000/")
        let fromFlags = try resolve(["--port", "9100", "--issuer", "https://id.example.com"], environment)
        #expect(fromFlags.1 == 9100)
        #expect(fromFlags.2 == "https://id.example.com/")
    }

    @Test(
        arguments: [
            (["--port", "70000"], [String: String]()),
            ([], ["WARDEN_PORT": "eighty"]),
            (["--issuer", "ftp://x/"], [:]),
            (["--database", "mysql://x"], [:]),
            (["--smtp-url", "http://mail"], [:]),
            (["--tls-cert", "/nonexistent.pem"], [:]),
            (["--push-webhook-url", "https://hooks.example.com/"], [:]),
            (["--apns-key-id", "ABC"], [:]),
            (["--trusted-proxies", "10.0.0.0/99"], [:]),
            (["--log-retention-days", "0"], [:]),
            ([], ["WARDEN_BOOTSTRAP_CLIENT_SECRET": "short"]),
            ([], ["WARDEN_CACHE_TTL": "600"]),
        ])
    func invalidOptionsAreRefusedWithAMessage(arguments: [String], environment: [String: String]) {
        #expect(throws: ConfigurationError.self) {
            try ServerOptions.parse(arguments).resolve(Settings(environment: environment))
        }
    }

    /// Issue 20: a message names what the user set — the flag, or the environment variable — and a URL's
    /// password never appears in it.
    @Test(
        arguments: [
            (["--port", "99999"], [String: String](), "--port must be a whole number from 0 to 65535, got '99999'"),
            ([], ["WARDEN_PORT": "99999"], "WARDEN_PORT must be a whole number from 0 to 65535, got '99999'"),
            (
                [], ["WARDEN_DATABASE_URL": "foo"],
                "WARDEN_DATABASE_URL must start with sqlite:, postgres:// or postgresql://, got 'foo'"
            ),
            (
                ["--database", "mysql://u:pw@h/d"], [:],
                "--database must start with sqlite:, postgres:// or postgresql://, got 'mysql://u:***@h/d'"
            ),
            (
                [], ["WARDEN_SMTP_URL": "http://mail"],
                "WARDEN_SMTP_URL must be a URL with scheme smtp or smtps, got 'http://mail'"
            ),
            (["--tls-cert", "/nonexistent.pem"], [:], "--tls-cert: cannot read the file '/nonexistent.pem'"),
            ([], ["WARDEN_REGISTRATION": "anyone"], "WARDEN_REGISTRATION must be off, open or token, got 'anyone'"),
        ])
    func messagesNameTheSettingTheUserGave(arguments: [String], environment: [String: String], message: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerOptions.parse(arguments).resolve(Settings(environment: environment))
        }
        #expect(error?.description == message)
    }

    /// SPEC §13: `--registration off|open|token`, `WARDEN_REGISTRATION`, default `off`.
    @Test func registrationModeIsParsed() throws {
        let settings = Settings(environment: ["WARDEN_REGISTRATION": "token"])
        #expect(try ServerOptions.parse([]).resolve(Settings(environment: [:])).registration == .off)
        #expect(try ServerOptions.parse([]).resolve(settings).registration == .token)
        #expect(try ServerOptions.parse(["--registration", "open"]).resolve(settings).registration == .open)
    }

    @Test func logSettingsAreValidated() throws {
        let level = #expect(throws: ConfigurationError.self) {
            try StoreOptions.parse([]).logging(Settings(environment: ["WARDEN_LOG_LEVEL": "verbose"]))
        }
        #expect(
            level?.description
                == "WARDEN_LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical, got 'verbose'"
        )
        let settings = try StoreOptions.parse(["--log-level", "DEBUG", "--log-format", "text"]).logging(
            Settings(environment: ["WARDEN_LOG_FORMAT": "json"]))
        #expect(settings.level == .debug)
        #expect(settings.format == .text)
    }

    @Test func trustedProxiesAndSMTPAreParsed() throws {
        let configuration = try ServerOptions.parse([
            "--trusted-proxies", "10.0.0.0/8, ::1/128", "--smtp-url", "smtp://user:pw@127.0.0.1:2525",
        ]).resolve(Settings(environment: [:]))
        #expect(configuration.trustedProxies == ["10.0.0.0/8", "::1/128"])
        #expect(configuration.smtpURL?.port == 2525)
        #expect(configuration.mailFrom == "no-reply@127.0.0.1")
    }
}
