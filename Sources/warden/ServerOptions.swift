import ArgumentParser
import Foundation
import WardenServer

/// The options of SPEC §1; each flag falls back to its `WARDEN_*` environment variable, then to the default.
struct ServerOptions: ParsableArguments {
    @Option(help: "Listen address (env WARDEN_HOST, default 127.0.0.1).") var host: String?
    @Option(help: "Listen port (env WARDEN_PORT, default 8080).") var port: Int?
    @Option(help: "Issuer URL (env WARDEN_ISSUER, default http://{host}:{port}/).") var issuer: String?
    @Option(
        help: """
            Database URL (env WARDEN_DATABASE_URL): sqlite:PATH (default sqlite:warden.sqlite), sqlite::memory:, \
            or postgres://user:pw@host:port/db.
            """) var database: String?
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
    @Option(help: "Days to keep log events (env WARDEN_LOG_RETENTION_DAYS, default 30).") var logRetentionDays: Int?
    @Option(help: "ip2asn 'combined' TSV for ASN/country lookups (env WARDEN_IP_DATABASE).") var ipDatabase: String?
    @Option(help: "Comma-separated CIDRs allowed to set X-Forwarded-For (env WARDEN_TRUSTED_PROXIES).")
    var trustedProxies: String?
    @Option(help: "PEM certificate chain: serve HTTPS (env WARDEN_TLS_CERT).") var tlsCert: String?
    @Option(help: "PEM private key for --tls-cert (env WARDEN_TLS_KEY).") var tlsKey: String?

    /// Resolves flags, environment and defaults into a validated configuration.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> WardenConfiguration {
        func value(_ flag: String?, _ name: String) -> String? {
            if let flag, !flag.isEmpty { return flag }
            if let env = environment[name], !env.isEmpty { return env }
            return nil
        }
        func integer(_ flag: Int?, _ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
            let number: Int
            if let flag {
                number = flag
            } else if let text = value(nil, name) {
                guard let parsed = Int(text) else { throw ValidationError("\(name) must be an integer, got '\(text)'") }
                number = parsed
            } else {
                number = fallback
            }
            guard range.contains(number) else {
                throw ValidationError("\(name) must be between \(range.lowerBound) and \(range.upperBound)")
            }
            return number
        }
        func url(_ text: String?, _ name: String, schemes: Set<String>) throws -> URL? {
            guard let text else { return nil }
            guard let parsed = URL(string: text), let scheme = parsed.scheme?.lowercased(), schemes.contains(scheme),
                parsed.host != nil
            else {
                throw ValidationError(
                    "\(name) must be a URL with scheme \(schemes.sorted().joined(separator: " or ")): '\(text)'")
            }
            return parsed
        }
        func file(_ path: String?, _ name: String) throws -> String? {
            guard let path else { return nil }
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw ValidationError("\(name): cannot read file '\(path)'")
            }
            return path
        }

        let host = value(host, "WARDEN_HOST") ?? "127.0.0.1"
        let port = try integer(port, "WARDEN_PORT", default: 8080, range: 0...65535)
        let hostForURL = host.contains(":") ? "[\(host)]" : host
        var issuerText = value(issuer, "WARDEN_ISSUER") ?? "http://\(hostForURL):\(port)/"
        if !issuerText.hasSuffix("/") { issuerText += "/" }
        guard let issuerURL = try url(issuerText, "--issuer", schemes: ["http", "https"]),
            issuerURL.query == nil, issuerURL.fragment == nil
        else { throw ValidationError("--issuer must be an http(s) URL without query or fragment") }

        var configuration = WardenConfiguration(issuer: issuerURL)
        configuration.host = host
        configuration.port = port
        configuration.databaseURL = value(database, "WARDEN_DATABASE_URL") ?? "sqlite:warden.sqlite"
        guard ["sqlite:", "postgres://", "postgresql://"].contains(where: configuration.databaseURL.hasPrefix) else {
            throw ValidationError("--database must start with sqlite:, postgres:// or postgresql://")
        }
        configuration.smtpURL = try url(value(smtpURL, "WARDEN_SMTP_URL"), "--smtp-url", schemes: ["smtp", "smtps"])
        configuration.mailFrom = value(mailFrom, "WARDEN_MAIL_FROM") ?? "no-reply@\(issuerURL.host ?? "localhost")"
        guard configuration.mailFrom?.contains("@") == true else {
            throw ValidationError("--mail-from must be an address")
        }
        configuration.pushWebhookURL = try url(
            value(pushWebhookURL, "WARDEN_PUSH_WEBHOOK_URL"), "--push-webhook-url", schemes: ["http", "https"])
        configuration.pushWebhookSecret = value(pushWebhookSecret, "WARDEN_PUSH_WEBHOOK_SECRET")
        if configuration.pushWebhookURL != nil, configuration.pushWebhookSecret == nil {
            throw ValidationError("--push-webhook-url needs --push-webhook-secret")
        }
        let apnsValues = [
            value(apnsKeyFile, "WARDEN_APNS_KEY_FILE"), value(apnsKeyID, "WARDEN_APNS_KEY_ID"),
            value(apnsTeamID, "WARDEN_APNS_TEAM_ID"), value(apnsTopic, "WARDEN_APNS_TOPIC"),
        ]
        if apnsValues.contains(where: { $0 != nil }) {
            guard let keyFile = try file(apnsValues[0], "--apns-key-file"), let keyID = apnsValues[1],
                let teamID = apnsValues[2], let topic = apnsValues[3]
            else {
                throw ValidationError("APNs needs --apns-key-file, --apns-key-id, --apns-team-id and --apns-topic")
            }
            configuration.apns = .init(
                keyFile: keyFile, keyID: keyID, teamID: teamID, topic: topic,
                endpoint: try url(
                    value(apnsEndpoint, "WARDEN_APNS_ENDPOINT") ?? "https://api.push.apple.com", "--apns-endpoint",
                    schemes: ["https"])!,
                caFile: try file(value(apnsCAFile, "WARDEN_APNS_CA_FILE"), "--apns-ca-file"))
        }
        if let account = try file(value(fcmServiceAccount, "WARDEN_FCM_SERVICE_ACCOUNT"), "--fcm-service-account") {
            configuration.fcm = .init(
                serviceAccountFile: account,
                endpoint: try url(
                    value(fcmEndpoint, "WARDEN_FCM_ENDPOINT") ?? "https://fcm.googleapis.com", "--fcm-endpoint",
                    schemes: ["https"])!,
                caFile: try file(value(fcmCAFile, "WARDEN_FCM_CA_FILE"), "--fcm-ca-file"))
        }
        configuration.logRetentionDays = try integer(
            logRetentionDays, "WARDEN_LOG_RETENTION_DAYS", default: 30, range: 1...3650)
        configuration.ipDatabasePath = try file(value(ipDatabase, "WARDEN_IP_DATABASE"), "--ip-database")
        if let proxies = value(trustedProxies, "WARDEN_TRUSTED_PROXIES") {
            configuration.trustedProxies = proxies.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard configuration.hasValidTrustedProxies else {
                throw ValidationError("--trusted-proxies must be comma-separated CIDRs like 10.0.0.0/8,::1/128")
            }
        }
        configuration.tlsCertificatePath = try file(value(tlsCert, "WARDEN_TLS_CERT"), "--tls-cert")
        configuration.tlsKeyPath = try file(value(tlsKey, "WARDEN_TLS_KEY"), "--tls-key")
        if (configuration.tlsCertificatePath == nil) != (configuration.tlsKeyPath == nil) {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        configuration.bootstrapClientID = environment["WARDEN_BOOTSTRAP_CLIENT_ID"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.bootstrapClientSecret = environment["WARDEN_BOOTSTRAP_CLIENT_SECRET"].flatMap {
            $0.isEmpty ? nil : $0
        }
        if let secret = configuration.bootstrapClientSecret, secret.count < 32 {
            throw ValidationError("WARDEN_BOOTSTRAP_CLIENT_SECRET must be at least 32 characters")
        }
        if let ttl = environment["WARDEN_CACHE_TTL"], !ttl.isEmpty {
            guard let seconds = Double(ttl), seconds > 0, seconds <= 60 else {
                throw ValidationError("WARDEN_CACHE_TTL must be a number of seconds in (0, 60]")
            }
            configuration.cacheTTL = seconds
        }
        return configuration
    }
}
