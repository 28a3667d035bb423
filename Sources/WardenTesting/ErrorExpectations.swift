public import HTTPTypes
public import HummingbirdTesting
import NIOCore
public import Testing
import WardenCore
import WardenWire

/// The error bodies of SPEC's route groups, as `expectError(_:status:code:shape:)` checks them.
public enum ErrorShape: Sendable {
    /// The OAuth endpoints (RFC 6749 §5.2, SPEC conventions): `error`, a non-empty `error_description`, and
    /// `Cache-Control: no-store`.
    case oauth
    /// The Management API and the device API (SPEC §9, §7): `statusCode` equal to the HTTP status, `errorCode`,
    /// and non-empty `error` and `message`.
    case management
}

/// Expects an error response of `shape` with `status` and the error code `code`: the one error check of the
/// Swift test suites, so every SPEC error path is asserted the same way.
public func expectError(
    _ response: TestResponse, status: HTTPResponse.Status, code: String, shape: ErrorShape = .oauth,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let body = response.json
    #expect(response.status == status, "\(String(buffer: response.body))", sourceLocation: sourceLocation)
    switch shape {
    case .oauth:
        #expect(body["error"] == .string(code), "\(body)", sourceLocation: sourceLocation)
        #expect(body["error_description"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(response.headers[.cacheControl] == "no-store", sourceLocation: sourceLocation)
    case .management:
        #expect(body["statusCode"] == .number(Double(status.code)), sourceLocation: sourceLocation)
        #expect(body["errorCode"] == .string(code), "\(body)", sourceLocation: sourceLocation)
        #expect(body["error"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
        #expect(body["message"]?.stringValue?.isEmpty == false, sourceLocation: sourceLocation)
    }
}
