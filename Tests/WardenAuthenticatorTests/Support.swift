import Foundation
import WardenAuthenticator

/// An ``HTTPTransport`` that records every request and answers from a script.
actor RecordingTransport: HTTPTransport {
    private(set) var requests: [TransportRequest] = []
    private var responses: [TransportResponse]

    init(_ responses: [TransportResponse]) {
        self.responses = responses
    }

    func send(_ request: TransportRequest) throws -> TransportResponse {
        requests.append(request)
        guard !responses.isEmpty else { throw URLError(.cannotConnectToHost) }
        return responses.removeFirst()
    }
}

func json(_ object: Any) -> Data {
    try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
}

func jsonObject(_ data: Data?) -> [String: Any]? {
    guard let data else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}

/// The JSON segments of a compact JWS.
func jwsParts(_ token: String) -> (header: [String: Any], claims: [String: Any])? {
    let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3 else { return nil }
    func decode(_ segment: String) -> [String: Any]? {
        var base64 = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return jsonObject(Data(base64Encoded: base64))
    }
    guard let header = decode(parts[0]), let claims = decode(parts[1]) else { return nil }
    return (header, claims)
}

/// One shared 2048-bit key, so the suite generates as few keys as possible.
let sharedKey: DeviceKey = try! DeviceKey.generate()

let issuer = "https://warden.example:8443/"

func sampleEnrollment(id: String = "dev_abc123") -> Enrollment {
    Enrollment(
        id: id, userID: "auth0|user1", baseURL: URL(string: issuer)!, issuerLabel: "Warden",
        accountName: "ada@example.com", deviceIdentifier: "device-install-1", deviceName: "Ada's phone",
        deviceAccountToken: "dat_secret", pushCredentials: PushCredentials(service: .apns, token: "abcd"),
        totp: TOTPParameters(secret: "JBSWY3DPEHPK3PXP"))
}

func sampleNotification(enrollmentID: String = "dev_abc123", linking: String? = "cns_42") -> AuthenticationNotification
{
    AuthenticationNotification(
        enrollmentID: enrollmentID, transactionToken: "txtkn_opaque", challenge: "challenge-xyz",
        startedAt: Date(timeIntervalSince1970: 1_700_000_000), issuerHost: "warden.example:8443",
        transactionLinkingID: linking)
}
