import AsyncHTTPClient
import Crypto
import Foundation
import NIOHTTP1
import WardenCore
import WardenWire

/// Warden's webhook push channel (SPEC §6.3): a POST of the webhook body of SPEC §7.2 to
/// `--push-webhook-url`, signed with `X-Warden-Signature: sha256=HEX(HMAC-SHA256(secret, body))` over the exact
/// bytes sent (RFC 2104). 2xx delivers; 4xx other than 408 and 429 is permanent; anything else is retried.
struct WebhookProvider: PushProvider {
    static let signatureHeader = "X-Warden-Signature"

    let name = "webhook"
    let url: URL
    let key: SymmetricKey
    let httpClient: HTTPClient

    init(url: URL, secret: String, httpClient: HTTPClient) {
        self.url = url
        self.key = SymmetricKey(data: Data(secret.utf8))
        self.httpClient = httpClient
    }

    func send(_ push: DevicePush, transactionToken: String) async throws {
        let body = push.webhookBody(transactionToken: transactionToken).serialized
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: Self.signatureHeader, value: signature(of: Data(body.utf8)))
        let response = try await PushHTTP.post(url.absoluteString, headers: headers, body: body, on: httpClient)
        try PushHTTP.check(response.status, service: name, reason: "")
    }

    /// `sha256=` and the lower-case hex HMAC-SHA256 of `body`.
    func signature(of body: Data) -> String {
        "sha256=" + HMAC<SHA256>.authenticationCode(for: body, using: key).map { String(format: "%02x", $0) }.joined()
    }
}
