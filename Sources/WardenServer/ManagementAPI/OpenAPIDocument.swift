/// The OpenAPI 3.1 description of the Management API and of the Authentication API's JSON endpoints (SPEC §9),
/// served at `GET /api/v2/openapi.json` by ``OpenAPIController``.
///
/// The document is the file `openapi.json` beside this one, edited as JSON. The build embeds it in the binary
/// (the `EmbedTextFiles` build-tool plugin writes it into a Swift string literal, `json`): no resource
/// bundle, one binary. `OpenAPIRoutesTests` holds it against the router's routes and the scope each Management
/// route asks for; tests/interop/test_openapi.py validates it and checks live responses against it.
enum OpenAPIDocument {}
