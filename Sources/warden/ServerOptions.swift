import ArgumentParser
import Foundation
import WardenServer

/// The options every command that opens the database shares (SPEC §1): `--database` and the log settings.
/// `warden migrate` and `warden keys rotate` take only these; `warden serve` adds ``ServerOptions``.
struct StoreOptions: ParsableArguments {
    @Option(
        help: """
            Database URL (env WARDEN_DATABASE_URL): sqlite:PATH (default sqlite:warden.sqlite), sqlite::memory:, \
            or postgres://user:pw@host:port/db (an IPv6 host in brackets: postgres://u:pw@[::1]:5432/db).
            """) var database: String?
    @Option(
        help: "Log level: trace, debug, info, notice, warning, error or critical (env WARDEN_LOG_LEVEL, default info).")
    var logLevel: String?
    @Option(
        help: """
            Log format: json (one object a line) or text (env WARDEN_LOG_FORMAT; default text when stdout is a \
            terminal, json otherwise).
            """) var logFormat: String?

    /// The database URL, checked for a known scheme; a message names what the user set.
    func databaseURL(_ settings: Settings) throws -> String {
        guard let setting = settings.string(database, flag: "--database", env: "WARDEN_DATABASE_URL") else {
            return "sqlite:warden.sqlite"
        }
        guard ["sqlite:", "postgres://", "postgresql://"].contains(where: setting.value.hasPrefix) else {
            throw settings.invalid(
                setting.name, "must start with sqlite:, postgres:// or postgresql://", got: setting.value,
                redact: true)
        }
        return setting.value
    }

    /// The log settings; an unknown level or format is refused, not ignored.
    func logging(_ settings: Settings) throws -> WardenLogging.Settings {
        var result = WardenLogging.Settings()
        if let setting = settings.string(logLevel, flag: "--log-level", env: "WARDEN_LOG_LEVEL") {
            guard let level = WardenLogging.Settings.level(named: setting.value) else {
                throw settings.invalid(
                    setting.name, "must be one of trace, debug, info, notice, warning, error, critical",
                    got: setting.value)
            }
            result.level = level
        }
        if let setting = settings.string(logFormat, flag: "--log-format", env: "WARDEN_LOG_FORMAT") {
            guard let format = WardenLogging.Format(rawValue: setting.value.lowercased()) else {
                throw settings.invalid(setting.name, "must be json or text", got: setting.value)
            }
            result.format = format
        }
        return result
    }

    /// The configuration of a command that only opens the database (default issuer).
    func configuration(_ settings: Settings) throws -> WardenConfiguration {
        var configuration = WardenConfiguration(issuer: URL(string: "http://127.0.0.1:8080/")!)
        configuration.databaseURL = try databaseURL(settings)
        try settings.bootstrapClient(into: &configuration)
        return configuration
    }
}

/// The options of `warden serve` (SPEC §1); each flag falls back to its `WARDEN_*` environment variable, then
/// to the default.
struct ServerOptions: ParsableArguments {
    @OptionGroup var store: StoreOptions
    @Option(help: "Listen address (env WARDEN_HOST, default 127.0.0.1).") var host: String?
    @Option(help: "Listen port (env WARDEN_PORT, default 8080).") var port: String?
    @Option(help: "Issuer URL (env WARDEN_ISSUER, default http://{host}:{port}/).") var issuer: String?
    @Option(help: "SMTP server smtp://[user:pw@]host:port or smtps://… (env WARDEN_SMTP_URL).") var smtpURL: String?
    @Option(help: "Sender address of mail (env WARDEN_MAIL_FROM, default no-reply@{issuer host}).") var mailFrom:
        String?
    @Option(help: "Webhook push channel URL (env WARDEN_PUSH_WEBHOOK_URL).") var pushWebhookURL: String?
    @Option(help: "HMAC secret of the webhook channel (env WARDEN_PUSH_WEBHOOK_SECRET).") var pushWebhookSecret: String?
    @Option(help: "APNs .p8 key file (env WARDEN_APNS_KEY_FILE).") var apnsKeyFile: String?
    @Option(help: "APNs key id (env WARDEN_APNS_KEY_ID).") var apnsKeyID: String?
    @Option(help: "APNs team id (env WARDEN_APNS_TEAM_ID).") var apnsTeamID: String?
    @Option(help: "APNs topic, the app bundle id (env WARDEN_APNS_TOPIC).") var apnsTopic: String?
    @Option(help: "APNs endpoint (env WARDEN_APNS_ENDPOINT, default https://api.push.apple.com).")
    var apnsEndpoint: String?
    @Option(help: "Extra trusted root for APNs, PEM (env WARDEN_APNS_CA_FILE).") var apnsCAFile: String?
    @Option(help: "FCM service-account JSON file (env WARDEN_FCM_SERVICE_ACCOUNT).") var fcmServiceAccount: String?
    @Option(help: "FCM endpoint (env WARDEN_FCM_ENDPOINT, default https://fcm.googleapis.com).") var fcmEndpoint:
        String?
    @Option(help: "Extra trusted root for FCM, PEM (env WARDEN_FCM_CA_FILE).") var fcmCAFile: String?
    @Option(help: "Days to keep log events (env WARDEN_LOG_RETENTION_DAYS, default 30).") var logRetentionDays: String?
    @Option(help: "ip2asn 'combined' TSV for ASN/country lookups (env WARDEN_IP_DATABASE).") var ipDatabase: String?
    @Option(help: "Comma-separated CIDRs allowed to set X-Forwarded-For (env WARDEN_TRUSTED_PROXIES).")
    var trustedProxies: String?
    @Option(help: "PEM certificate chain: serve HTTPS (env WARDEN_TLS_CERT).") var tlsCert: String?
    @Option(help: "PEM private key for --tls-cert (env WARDEN_TLS_KEY).") var tlsKey: String?
    @Option(help: "Seconds between refreshes of each node's caches, at most 60 (env WARDEN_CACHE_TTL, default 60).")
    var cacheTTL: String?
    @Option(
        help:
            "Dynamic client registration at /oidc/register: off, open, or token (a Management token with create:clients) (env WARDEN_REGISTRATION, default off)."
    )
    var registration: String?
    @Flag(
        help:
            "Accept https client_id URLs naming Client ID Metadata Documents (env WARDEN_CLIENT_METADATA_DOCUMENTS=1)."
    )
    var clientMetadataDocuments = false
    @Option(
        help:
            "Comma-separated host or host:port whose metadata documents may be on private addresses and over http (env WARDEN_CLIENT_METADATA_ALLOW_HOSTS)."
    )
    var clientMetadataAllowHosts: String?
    @Option(
        help:
            "Extra trusted root for fetching metadata documents, PEM: a private CA (env WARDEN_CLIENT_METADATA_CA_FILE)."
    )
    var clientMetadataCAFile: String?
    @Option(
        name: .customLong("webauthn-rp-id"),
        help: "WebAuthn relying party ID: the issuer's host or a suffix of it (env WARDEN_WEBAUTHN_RP_ID).")
    var webauthnRPID: String?
    @Option(
        help:
            "Comma-separated origins allowed for passkeys besides the issuer's, e.g. an app's android:apk-key-hash:… (env WARDEN_WEBAUTHN_ORIGINS)."
    )
    var webauthnOrigins: String?

    /// Resolves flags, environment and defaults into a validated configuration; every message names the flag or
    /// the environment variable the user actually set.
    func resolve(_ settings: Settings) throws -> WardenConfiguration {
        let host = settings.string(host, flag: "--host", env: "WARDEN_HOST")?.value ?? "127.0.0.1"
        let port = try settings.integer(port, flag: "--port", env: "WARDEN_PORT", default: 8080, range: 0...65535)
        let hostForURL = host.contains(":") ? "[\(host)]" : host
        let issuerSetting = settings.string(issuer, flag: "--issuer", env: "WARDEN_ISSUER")
        var issuerText = issuerSetting?.value ?? "http://\(hostForURL):\(port)/"
        if !issuerText.hasSuffix("/") { issuerText += "/" }
        guard let issuerURL = URL(string: issuerText), ["http", "https"].contains(issuerURL.scheme?.lowercased()),
            issuerURL.host != nil, issuerURL.query == nil, issuerURL.fragment == nil
        else {
            throw settings.invalid(
                issuerSetting?.name ?? "--issuer", "must be an http(s) URL without query or fragment",
                got: issuerText)
        }

        var configuration = WardenConfiguration(issuer: issuerURL)
        configuration.host = host
        configuration.port = port
        configuration.databaseURL = try store.databaseURL(settings)
        configuration.smtpURL = try settings.url(
            smtpURL, flag: "--smtp-url", env: "WARDEN_SMTP_URL", schemes: ["smtp", "smtps"])
        let sender = settings.string(mailFrom, flag: "--mail-from", env: "WARDEN_MAIL_FROM")
        configuration.mailFrom = sender?.value ?? "no-reply@\(issuerURL.host ?? "localhost")"
        if let sender, !sender.value.contains("@") {
            throw settings.invalid(sender.name, "must be an e-mail address", got: sender.value)
        }
        configuration.pushWebhookURL = try settings.url(
            pushWebhookURL, flag: "--push-webhook-url", env: "WARDEN_PUSH_WEBHOOK_URL", schemes: ["http", "https"])
        configuration.pushWebhookSecret =
            settings.string(
                pushWebhookSecret, flag: "--push-webhook-secret", env: "WARDEN_PUSH_WEBHOOK_SECRET")?.value
        if configuration.pushWebhookURL != nil, configuration.pushWebhookSecret == nil {
            throw ConfigurationError("--push-webhook-url needs --push-webhook-secret (or WARDEN_PUSH_WEBHOOK_SECRET)")
        }
        configuration.apns = try apns(settings)
        if let account = try settings.file(
            fcmServiceAccount, flag: "--fcm-service-account", env: "WARDEN_FCM_SERVICE_ACCOUNT")
        {
            configuration.fcm = .init(
                serviceAccountFile: account,
                endpoint: try settings.url(
                    fcmEndpoint, flag: "--fcm-endpoint", env: "WARDEN_FCM_ENDPOINT", schemes: ["https"])
                    ?? URL(string: "https://fcm.googleapis.com")!,
                caFile: try settings.file(fcmCAFile, flag: "--fcm-ca-file", env: "WARDEN_FCM_CA_FILE"))
        }
        configuration.logRetentionDays = try settings.integer(
            logRetentionDays, flag: "--log-retention-days", env: "WARDEN_LOG_RETENTION_DAYS", default: 30,
            range: 1...3650)
        configuration.ipDatabasePath = try settings.file(ipDatabase, flag: "--ip-database", env: "WARDEN_IP_DATABASE")
        if let proxies = settings.string(trustedProxies, flag: "--trusted-proxies", env: "WARDEN_TRUSTED_PROXIES") {
            configuration.trustedProxies = proxies.value.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard configuration.hasValidTrustedProxies else {
                throw settings.invalid(
                    proxies.name, "must be comma-separated CIDRs like 10.0.0.0/8,::1/128", got: proxies.value)
            }
        }
        configuration.tlsCertificatePath = try settings.file(tlsCert, flag: "--tls-cert", env: "WARDEN_TLS_CERT")
        configuration.tlsKeyPath = try settings.file(tlsKey, flag: "--tls-key", env: "WARDEN_TLS_KEY")
        if (configuration.tlsCertificatePath == nil) != (configuration.tlsKeyPath == nil) {
            throw ConfigurationError("--tls-cert and --tls-key go together (or WARDEN_TLS_CERT and WARDEN_TLS_KEY)")
        }
        try settings.bootstrapClient(into: &configuration)
        if let ttl = settings.string(cacheTTL, flag: "--cache-ttl", env: "WARDEN_CACHE_TTL") {
            guard let seconds = Double(ttl.value), seconds > 0, seconds <= 60 else {
                throw settings.invalid(ttl.name, "must be a number of seconds in (0, 60]", got: ttl.value)
            }
            configuration.cacheTTL = seconds
        }
        if let mode = settings.string(registration, flag: "--registration", env: "WARDEN_REGISTRATION") {
            guard let value = WardenConfiguration.RegistrationMode(rawValue: mode.value.lowercased()) else {
                throw settings.invalid(mode.name, "must be off, open or token", got: mode.value)
            }
            configuration.registration = value
        }
        try clientMetadata(settings, into: &configuration)
        try webAuthn(settings, into: &configuration)
        return configuration
    }

    /// `--webauthn-rp-id` and `--webauthn-origins` (SPEC §17): an RP ID that cannot scope the issuer's credentials
    /// stops the start.
    private func webAuthn(_ settings: Settings, into configuration: inout WardenConfiguration) throws {
        if let id = settings.string(webauthnRPID, flag: "--webauthn-rp-id", env: "WARDEN_WEBAUTHN_RP_ID") {
            configuration.webAuthnRPID = id.value.lowercased()
            guard configuration.hasValidWebAuthnRPID else {
                throw settings.invalid(
                    id.name, "must be the issuer's host (\(configuration.issuer.host ?? "")) or a domain it ends with",
                    got: id.value)
            }
        }
        if let origins = settings.string(webauthnOrigins, flag: "--webauthn-origins", env: "WARDEN_WEBAUTHN_ORIGINS") {
            configuration.webAuthnOrigins = origins.value.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
        }
    }

    /// `--client-metadata-documents` (a switch; `WARDEN_CLIENT_METADATA_DOCUMENTS` 1/true/0/false) and its allow
    /// list (SPEC §13).
    private func clientMetadata(_ settings: Settings, into configuration: inout WardenConfiguration) throws {
        if clientMetadataDocuments {
            configuration.clientMetadataDocuments = true
        } else if let value = settings.string(nil, flag: "", env: "WARDEN_CLIENT_METADATA_DOCUMENTS") {
            switch value.value.lowercased() {
            case "1", "true", "yes", "on": configuration.clientMetadataDocuments = true
            case "0", "false", "no", "off": configuration.clientMetadataDocuments = false
            default: throw settings.invalid(value.name, "must be 1 or 0", got: value.value)
            }
        }
        if let hosts = settings.string(
            clientMetadataAllowHosts, flag: "--client-metadata-allow-hosts", env: "WARDEN_CLIENT_METADATA_ALLOW_HOSTS")
        {
            configuration.clientMetadataAllowHosts = hosts.value.split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            }.filter { !$0.isEmpty }
        }
        configuration.clientMetadataCAFile = try settings.file(
            clientMetadataCAFile, flag: "--client-metadata-ca-file", env: "WARDEN_CLIENT_METADATA_CA_FILE")
    }

    /// APNs settings: all four of key file, key id, team id and topic, or none.
    private func apns(_ settings: Settings) throws -> WardenConfiguration.APNsSettings? {
        let keyID = settings.string(apnsKeyID, flag: "--apns-key-id", env: "WARDEN_APNS_KEY_ID")?.value
        let teamID = settings.string(apnsTeamID, flag: "--apns-team-id", env: "WARDEN_APNS_TEAM_ID")?.value
        let topic = settings.string(apnsTopic, flag: "--apns-topic", env: "WARDEN_APNS_TOPIC")?.value
        let keyFile = try settings.file(apnsKeyFile, flag: "--apns-key-file", env: "WARDEN_APNS_KEY_FILE")
        guard keyFile != nil || keyID != nil || teamID != nil || topic != nil else { return nil }
        guard let keyFile, let keyID, let teamID, let topic else {
            throw ConfigurationError("APNs needs --apns-key-file, --apns-key-id, --apns-team-id and --apns-topic")
        }
        return .init(
            keyFile: keyFile, keyID: keyID, teamID: teamID, topic: topic,
            endpoint: try settings.url(
                apnsEndpoint, flag: "--apns-endpoint", env: "WARDEN_APNS_ENDPOINT", schemes: ["https"])
                ?? URL(string: "https://api.push.apple.com")!,
            caFile: try settings.file(apnsCAFile, flag: "--apns-ca-file", env: "WARDEN_APNS_CA_FILE"))
    }
}

/// A setting the user gave that Warden cannot use. The command line prints it as `Error: MESSAGE` without the
/// usage block (the problem is a value, not the command's shape).
struct ConfigurationError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Flags, then environment variables (SPEC §1): each lookup remembers which of the two gave the value, so
/// that a message names what the user actually set (`--port`, or `WARDEN_PORT`).
struct Settings {
    var environment: [String: String] = ProcessInfo.processInfo.environment

    /// A non-empty flag value, else a non-empty environment value, with the name of its source.
    func string(_ flag: String?, flag flagName: String, env: String) -> (value: String, name: String)? {
        if let flag, !flag.isEmpty { return (flag, flagName) }
        if let value = environment[env], !value.isEmpty { return (value, env) }
        return nil
    }

    func integer(
        _ flag: String?, flag flagName: String, env: String, default fallback: Int, range: ClosedRange<Int>
    ) throws -> Int {
        guard let setting = string(flag, flag: flagName, env: env) else { return fallback }
        guard let number = Int(setting.value), range.contains(number) else {
            throw invalid(
                setting.name, "must be a whole number from \(range.lowerBound) to \(range.upperBound)",
                got: setting.value)
        }
        return number
    }

    func url(_ flag: String?, flag flagName: String, env: String, schemes: Set<String>) throws -> URL? {
        guard let setting = string(flag, flag: flagName, env: env) else { return nil }
        guard let parsed = URL(string: setting.value), let scheme = parsed.scheme?.lowercased(),
            schemes.contains(scheme), parsed.host != nil
        else {
            throw invalid(
                setting.name, "must be a URL with scheme \(schemes.sorted().joined(separator: " or "))",
                got: setting.value, redact: true)
        }
        return parsed
    }

    func file(_ flag: String?, flag flagName: String, env: String) throws -> String? {
        guard let setting = string(flag, flag: flagName, env: env) else { return nil }
        guard FileManager.default.isReadableFile(atPath: setting.value) else {
            throw ConfigurationError("\(setting.name): cannot read the file '\(setting.value)'")
        }
        return setting.value
    }

    /// `WARDEN_BOOTSTRAP_CLIENT_ID` / `_SECRET` (environment only, SPEC §1): the management client's id and
    /// secret when the operator chooses them; `WARDEN_DATA_KEY`, the key upstream tokens are kept under (§15).
    func bootstrapClient(into configuration: inout WardenConfiguration) throws {
        configuration.bootstrapClientID = string(nil, flag: "", env: "WARDEN_BOOTSTRAP_CLIENT_ID")?.value
        configuration.bootstrapClientSecret = string(nil, flag: "", env: "WARDEN_BOOTSTRAP_CLIENT_SECRET")?.value
        if let secret = configuration.bootstrapClientSecret, secret.count < 32 {
            throw ConfigurationError("WARDEN_BOOTSTRAP_CLIENT_SECRET must be at least 32 characters")
        }
        if let key = string(nil, flag: "", env: "WARDEN_DATA_KEY")?.value {
            guard let bytes = Data(base64Encoded: key), bytes.count == 32 else {
                throw ConfigurationError("WARDEN_DATA_KEY must be 32 bytes in base64 (openssl rand -base64 32)")
            }
            configuration.dataKey = Array(bytes)
        }
    }

    /// `NAME must …, got 'VALUE'`; a URL that may carry a password is shown without it.
    func invalid(_ name: String, _ rule: String, got value: String, redact: Bool = false) -> ConfigurationError {
        let shown = redact ? Database.redacted(value) : value
        return ConfigurationError("\(name) \(rule), got '\(shown)'")
    }
}
