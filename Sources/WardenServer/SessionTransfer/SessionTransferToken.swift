import Foundation
import WardenCore

/// A session transfer token (SPEC §8): what a native client gets for its refresh token and a web client's
/// `GET /authorize` consumes once. The token itself is 256 random bits stored only as its SHA-256 (SPEC §3)
/// under ``artefactKind``, with this record as JSON, for ``lifetime`` seconds.
struct SessionTransferToken: Codable, Sendable, Equatable {
    static let artefactKind = "session_transfer_token"
    /// SPEC §8: `expires_in: 60`.
    static let lifetime = 60

    /// Where a request came from: its client IP, the ASN and country the IP database gives for it, its user
    /// agent (SPEC §8 "the creator's IP, ASN, country, user agent").
    struct Origin: Codable, Sendable, Equatable {
        var ip: String?
        var asn: Int?
        var countryCode: String?
        var userAgent: String?

        /// `ip` and `userAgent`, with what `ipIntelligence` knows of the address.
        init(ip: String?, userAgent: String?, ipIntelligence: IPIntelligence) {
            let info = ip.flatMap(ipIntelligence.lookup)
            self.ip = ip
            self.asn = info?.asn
            self.countryCode = info?.countryCode
            self.userAgent = userAgent
        }

        /// As a post-login rule sees it (`event.session_transfer_token.request`).
        var requestInfo: LoginEvent.RequestInfo {
            LoginEvent.RequestInfo(ip: ip, asn: asn, userAgent: userAgent, countryCode: countryCode)
        }
    }

    var userID: String
    /// The native client that exchanged its refresh token.
    var clientID: String
    /// The scope of that refresh token.
    var scope: [String]
    /// The refresh-token family (SPEC §8 cascade revocation: the web session records it).
    var familyID: String
    /// The SHA-256 of the refresh token exchanged: a token of a family revoked since makes no session.
    var refreshTokenHash: String
    /// The native client's `enforce_device_binding` when the token was made.
    var binding: DeviceBinding
    var creator: Origin

    /// The `audience` of both exchange forms: `urn:{issuer host}:session_transfer`, the host without its port.
    static func audience(issuer: URL) -> String {
        "urn:\(issuer.host ?? ""):session_transfer"
    }
}

/// `enforce_device_binding` (SPEC §8): what the consumer of a session transfer token must share with its creator.
extension DeviceBinding {
    /// The bindings Warden enforces.
    static let enforced: [DeviceBinding] = [.ip, .asn, .none]

    /// The binding a client's settings name; a stored value outside the three (never written by the Management
    /// API) binds to the IP, the default.
    init(_ configuration: SessionTransferConfiguration) {
        let named = configuration.enforceDeviceBinding
        self = Self.enforced.contains(named) ? named : .ip
    }

    /// Whether `consumer` may use a token `creator` made. An address or ASN unknown on either side never matches
    /// (ASN 0, an unrouted range in the ip2asn data, counts as unknown); addresses compare as numbers, so two
    /// spellings of one IPv6 address match, and so do an IPv4 address and its IPv4-mapped IPv6 form. A binding
    /// outside ``enforced`` (only from a token made by another version) binds to the IP.
    func isSatisfied(creator: LoginEvent.RequestInfo, consumer: LoginEvent.RequestInfo) -> Bool {
        switch self {
        case .none:
            return true
        case .asn:
            guard let asn = creator.asn, asn != 0 else { return false }
            return consumer.asn == asn
        default:
            guard let created = creator.ip.flatMap(IPAddress.init)?.unmappingIPv4 else { return false }
            return consumer.ip.flatMap(IPAddress.init)?.unmappingIPv4 == created
        }
    }
}
