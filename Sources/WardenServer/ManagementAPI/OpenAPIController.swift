import HTTPTypes
import Hummingbird
import NIOCore

/// `GET /api/v2/openapi.json` (SPEC §9): the OpenAPI 3.1 description of the Management API and of the
/// Authentication API's JSON endpoints. Public: it is registered on the router itself, outside the
/// `api/v2` group and so outside ``ManagementAuthMiddleware``.
struct OpenAPIController: Sendable {
    func addRoutes(to router: Router<WardenRequestContext>) {
        router.get("api/v2/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: Self.document))
        }
    }

    /// The document's bytes, made once.
    private static let document = ByteBuffer(string: OpenAPIDocument.json)
}
