import Foundation
import WardenCore
import WardenWire

/// The discovery document of an OIDC upstream (OpenID Connect Discovery 1.0 §4), read when a connection is
/// created or changed (SPEC §15: Warden refuses a document it cannot read, and fills the endpoints the options
/// leave out from it, keeping the whole document as `oidc_metadata`).
struct OIDCDiscovery {
    let http: UpstreamHTTP

    /// The members a usable document must have.
    static let required = ["issuer", "authorization_endpoint", "jwks_uri"]

    /// `options` with `issuer`, the endpoints and `oidc_metadata` filled from the upstream's document, found at
    /// `discovery_url` or under `issuer`.
    func complete(_ options: ManagementBody) async throws -> [String: JSONValue] {
        let issuer = try options.url("issuer")
        guard let url = try options.url("discovery_url") ?? issuer.map(Self.wellKnown) else {
            throw options.invalid("discovery_url", "Missing required property (or issuer)")
        }
        let document: [String: JSONValue]
        do {
            let answer = try await http.get(url)
            guard answer.status == 200 else {
                throw UpstreamHTTP.Failure(description: "it answered HTTP \(answer.status), not 200")
            }
            document = try answer.jsonObject("the document")
        } catch {
            throw options.invalid("discovery_url", "The discovery document at \(url) cannot be read: \(error)")
        }
        for member in Self.required where document[member]?.stringValue == nil {
            throw options.invalid("discovery_url", "The discovery document at \(url) has no \(member)")
        }
        if let issuer, document["issuer"]?.stringValue != issuer {
            throw options.invalid(
                "issuer", "The discovery document names the issuer \(document["issuer"]?.stringValue ?? "")")
        }
        var completed = options.members
        completed["issuer"] = document["issuer"]
        for endpoint in ConnectionOptions.endpoints where options.members[endpoint] == nil {
            completed[endpoint] = document[endpoint]
        }
        completed["oidc_metadata"] = .object(document)
        return completed
    }

    /// `{issuer}/.well-known/openid-configuration` (Discovery §4.1: the issuer's trailing `/` removed first).
    static func wellKnown(_ issuer: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + "/.well-known/openid-configuration"
    }
}
