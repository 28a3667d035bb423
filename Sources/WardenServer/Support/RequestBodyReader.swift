import Hummingbird
import NIOCore

/// Reads request bodies with the SPEC §11 limit (64 KiB): larger bodies end in 413 in the error shape of
/// the API that received them.
enum RequestBodyReader {
    static let limit = 64 * 1024

    /// Collects the body, or throws `tooLarge()` once it exceeds `limit` (the SPEC §11 limit unless a route
    /// documents its own, as the users file of a bulk import does).
    static func collect(
        _ request: Request, limit: Int = RequestBodyReader.limit, tooLarge: @autoclosure () -> any Error
    ) async throws -> ByteBuffer {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw tooLarge()
        }
        var buffer = ByteBuffer()
        for try await chunk in request.body {
            guard buffer.readableBytes + chunk.readableBytes <= limit else { throw tooLarge() }
            var chunk = chunk
            buffer.writeBuffer(&chunk)
        }
        return buffer
    }
}
