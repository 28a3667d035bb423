public import Foundation
import WardenCore
import WardenWebAuthn

/// Every setting of SPEC §1. The CLI fills it from flags, then environment variables, then defaults.
public struct WardenConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// The issuer URL with a trailing slash (SPEC conventions).
    public var issuer: URL
    public var databaseURL: String = "sqlite:warden.sqlite"
    public var smtpURL: URL?
    public var mailFrom: String?
    public var pushWebhookURL: URL?
    public var pushWebhookSecret: String?
    public var apns: APNsSettings?
    public var fcm: FCMSettings?
    public var logRetentionDays: Int = 30
    public var ipDatabasePath: String?
    public var trustedProxies: [String] = []
    public var tlsCertificatePath: String?
    public var tlsKeyPath: String?
    public var bootstrapClientID: String?
    public var bootstrapClientSecret: String?
    /// `WARDEN_DATA_KEY` (environment only, SPEC §1, §15): the 32-byte AES-GCM key upstream tokens are kept
    /// under; without it no connection may keep them.
    public var dataKey: [UInt8]?
    /// Seconds between refreshes of the per-node caches from the database (SPEC §2: at most 60).
    public var cacheTTL: Double = 60
    /// Where mail goes when no SMTP server is configured.
    public var outboxDirectory: String = "warden-mail"
    /// bcrypt cost for user passwords.
    public var bcryptCost: UInt8 = 10
    /// Dynamic client registration (`--registration`, SPEC §13).
    public var registration: RegistrationMode = .off
    /// Client ID Metadata Documents (`--client-metadata-documents`, SPEC §13).
    public var clientMetadataDocuments = false
    /// Hosts (`host` or `host:port`) whose metadata documents may be on private addresses and over `http`
    /// (`--client-metadata-allow-hosts`).
    public var clientMetadataAllowHosts: [String] = []
    /// A PEM file of extra trust roots for fetching metadata documents (`--client-metadata-ca-file`): an
    /// organisation's private CA, or a test server's.
    public var clientMetadataCAFile: String?
    /// The WebAuthn relying party ID (`--webauthn-rp-id`, SPEC §17); `nil` is the issuer's host.
    public var webAuthnRPID: String?
    /// Origins allowed besides the issuer's (`--webauthn-origins`, SPEC §17): an app's, for instance.
    public var webAuthnOrigins: [String] = []

    public init(issuer: URL) {
        self.issuer = issuer
    }

    /// Who may register a client at `POST /oidc/register` (SPEC §13, RFC 7591).
    public enum RegistrationMode: String, Sendable, CaseIterable {
        /// No registration endpoint (the default).
        case off
        /// Anyone, within the per-address rate limit.
        case open
        /// A caller with a Management token holding `create:clients` (RFC 7591 §3's initial access token).
        case token
    }

    /// APNs provider settings (`--apns-*`).
    public struct APNsSettings: Sendable {
        public var keyFile: String
        public var keyID: String
        public var teamID: String
        public var topic: String
        public var endpoint: URL
        public var caFile: String?
        public init(keyFile: String, keyID: String, teamID: String, topic: String, endpoint: URL, caFile: String?) {
            self.keyFile = keyFile
            self.keyID = keyID
            self.teamID = teamID
            self.topic = topic
            self.endpoint = endpoint
            self.caFile = caFile
        }
    }

    /// FCM provider settings (`--fcm-*`).
    public struct FCMSettings: Sendable {
        public var serviceAccountFile: String
        public var endpoint: URL
        public var caFile: String?
        public init(serviceAccountFile: String, endpoint: URL, caFile: String?) {
            self.serviceAccountFile = serviceAccountFile
            self.endpoint = endpoint
            self.caFile = caFile
        }
    }

    /// The issuer as a string, always ending in `/`.
    public var issuerString: String { issuer.absoluteString }

    /// `{issuer}api/v2/`, the Management API audience.
    public var managementAudience: String { issuerString + "api/v2/" }

    /// `{issuer}userinfo`.
    public var userinfoAudience: String { issuerString + "userinfo" }

    /// Whether cookies may omit `Secure` (plain-HTTP issuer).
    public var isPlainHTTP: Bool { issuer.scheme == "http" }

    /// The `From` address of Warden's e-mail: `--mail-from`, else `no-reply@{issuer host}` (SPEC §1).
    public var mailSender: String { mailFrom ?? "no-reply@" + (issuer.host ?? "localhost") }
}

extension WardenConfiguration {
    /// The issuer's origin (RFC 6454): scheme, host and the port when it is not the scheme's default.
    public var issuerOrigin: String {
        let scheme = issuer.scheme ?? "http"
        var origin = "\(scheme)://\(issuer.host ?? "localhost")"
        if let port = issuer.port, port != (scheme == "https" ? 443 : 80) { origin += ":\(port)" }
        return origin
    }

    /// The relying party ID ceremonies are checked against (SPEC §17): `--webauthn-rp-id`, else the issuer's host.
    public var effectiveWebAuthnRPID: String { webAuthnRPID ?? issuer.host ?? "localhost" }

    /// Whether `--webauthn-rp-id` may scope credentials for this issuer (SPEC §17, WebAuthn Level 3 §5.1.2, as
    /// ``RelyingParty/isValidID(_:forHost:)`` says).
    public var hasValidWebAuthnRPID: Bool {
        guard let id = webAuthnRPID, let host = issuer.host else { return true }
        return RelyingParty.isValidID(id, forHost: host)
    }

    /// Whether every `trustedProxies` entry parses as a CIDR.
    public var hasValidTrustedProxies: Bool {
        trustedProxies.allSatisfy { CIDR($0) != nil }
    }
}
