import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /api/v2/openapi.json` (SPEC §9): the OpenAPI 3.1 description of the Management API and of the
/// Authentication API's JSON endpoints. Public: it is registered on the router itself, outside the
/// `api/v2` group and so outside ``ManagementAuthMiddleware``. A server without dynamic registration (SPEC §13,
/// `--registration off`) leaves `/oidc/register` out: it answers 404 there.
struct OpenAPIController: Sendable {
    /// The document's bytes, made once per server.
    private let document: ByteBuffer

    /// The document of a server whose registration endpoint exists (`registration`) or not.
    init(registration: Bool) {
        document = registration ? Self.full : Self.withoutRegistration
    }

    func addRoutes(to router: Router<WardenRequestContext>) {
        let document = document
        router.get("api/v2/openapi.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: document))
        }
    }

    private static let full = ByteBuffer(string: OpenAPIDocument.json)

    /// The document less `paths["/oidc/register"]`; the document is a constant of this module, so a failure to
    /// read it back is a programming error.
    private static let withoutRegistration: ByteBuffer = {
        var document = try! JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as! [String: Any]
        var paths = document["paths"] as! [String: Any]
        paths["/oidc/register"] = nil
        document["paths"] = paths
        let data = try! JSONSerialization.data(withJSONObject: document, options: [.withoutEscapingSlashes])
        return ByteBuffer(bytes: data)
    }()
}
