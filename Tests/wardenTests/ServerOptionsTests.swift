import ArgumentParser
import Foundation
import Testing
import WardenServer

@testable import warden

/// SPEC §1: flags override environment variables, which override defaults; every option is validated.
@Suite("warden serve options")
struct ServerOptionsTests {
    func resolve(_ arguments: [String], _ environment: [String: String] = [:]) throws -> (String, Int, String, String) {
        let configuration = try ServerOptions.parse(arguments).resolve(environment: environment)
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
        #expect(throws: ValidationError.self) { try ServerOptions.parse(arguments).resolve(environment: environment) }
    }

    @Test func trustedProxiesAndSMTPAreParsed() throws {
        let configuration = try ServerOptions.parse([
            "--trusted-proxies", "10.0.0.0/8, ::1/128", "--smtp-url", "smtp://user:pw@127.0.0.1:2525",
        ]).resolve(environment: [:])
        #expect(configuration.trustedProxies == ["10.0.0.0/8", "::1/128"])
        #expect(configuration.smtpURL?.port == 2525)
        #expect(configuration.mailFrom == "no-reply@127.0.0.1")
    }
}
