import BenchmarkSupport
import Foundation
import Hummingbird
import WardenCore

/// The ceiling for Warden's token endpoint (issue 8): a bare Hummingbird server whose one route per algorithm
/// only signs an access token (the same claims, key type and `JWSKey.sign` as Warden) and answers it as a token
/// response (RFC 6749 §5.1) — no client authentication, no form parsing, no storage, no logging. `scripts/bench/run`
/// runs wrk against it in the same run as against Warden.
///
/// Usage: `CeilingServer PORT` — listens on 127.0.0.1:PORT; `POST /token/es256`, `POST /token/rs256`,
/// `GET /readyz`.
@main
struct CeilingServer {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 2, let port = Int(arguments[1]) else {
            FileHandle.standardError.write(Data("usage: CeilingServer PORT\n".utf8))
            exit(2)
        }
        let router = Router()
        for alg in [SigningAlgorithm.es256, .rs256] {
            let key = try AccessTokenClaims.key(alg)
            router.post("token/\(alg.rawValue.lowercased())") { _, _ in try tokenResponse(key: key) }
        }
        router.get("readyz") { _, _ in HTTPResponse.Status.ok }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "CeilingServer"))
        try await app.runService()
    }

    static func tokenResponse(key: JWSKey) throws -> Response {
        let token = try key.sign(payload: AccessTokenClaims.serialized(), type: "at+jwt")
        let body = #"{"access_token":""# + token + #"","token_type":"Bearer","expires_in":86400}"#
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
