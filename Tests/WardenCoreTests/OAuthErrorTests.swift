import Testing
import WardenCore
import WardenWire

@Suite("OAuthError")
struct OAuthErrorTests {
    @Test(
        "status table of SPEC conventions",
        arguments: [
            (OAuthError.Code.invalidRequest, 400), (.invalidClient, 401), (.invalidGrant, 400),
            (.unauthorizedClient, 400), (.unsupportedGrantType, 400), (.invalidScope, 400),
            (.invalidToken, 401), (.insufficientScope, 403), (.tooManyRequests, 429), (.serverError, 500),
            (.authorizationPending, 400), (.slowDown, 400), (.expiredToken, 400), (.accessDenied, 400),
        ])
    func statusTable(code: OAuthError.Code, status: Int) {
        #expect(code.status == status)
        #expect(OAuthError(code, "x").statusCode == status)
    }

    @Test func bodyCarriesCodeDescriptionAndExtraFields() {
        let error = OAuthError(.slowDown, "Slow down", extraFields: ["interval": 10])
        #expect(error.body["error"] == "slow_down")
        #expect(error.body["error_description"] == "Slow down")
        #expect(error.body["interval"] == 10)
    }

    @Test func debugDetailIsNotInTheBody() {
        let error = OAuthError.serverError(debug: "database password is hunter2")
        #expect(!error.body.serialized.contains("hunter2"))
    }

    @Test func accessDeniedCanBe403AtTheTokenEndpoint() {
        #expect(OAuthError(.accessDenied, "no grant", status: 403).statusCode == 403)
    }
}

@Suite("ManagementError")
struct ManagementErrorTests {
    @Test(
        "reason phrases",
        arguments: [
            (ManagementError.invalidBody("x"), 400, "Bad Request", "invalid_body"),
            (.invalidQuery("x"), 400, "Bad Request", "invalid_query_string"),
            (.invalidToken(), 401, "Unauthorized", "invalid_token"),
            (.insufficientScope("read:users"), 403, "Forbidden", "insufficient_scope"),
            (.operationNotAllowed("x"), 403, "Forbidden", "operation_not_allowed"),
            (.notFound("user", "x"), 404, "Not Found", "inexistent_user"),
            (.conflict("x"), 409, "Conflict", "conflict"),
            (.payloadTooLarge, 413, "Payload Too Large", "payload_too_large"),
        ])
    func shape(error: ManagementError, status: Int, phrase: String, code: String) {
        #expect(error.body["statusCode"] == .number(Double(status)))
        #expect(error.body["error"] == .string(phrase))
        #expect(error.body["errorCode"] == .string(code))
        #expect(error.body["message"]?.stringValue?.isEmpty == false)
    }
}
