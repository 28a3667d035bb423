import Hummingbird
import WardenCore

/// Bounds how long a request waits for the database (SPEC §11 "database reachable"; issue 33): each PostgreSQL statement and transaction it runs
/// gives up after ``limit`` (``Deadline/databaseLimit``), so a frozen database is a 503 with `Retry-After` within
/// 5 s rather than a request held for as long as the server stays silent.
struct DatabaseDeadlineMiddleware: RouterMiddleware {
    typealias Context = WardenRequestContext

    /// Under the 5 s an operator can expect a 503 within (issue 33), leaving time to answer.
    static let limit: Duration = .seconds(4)

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        try await Deadline.$databaseLimit.withValue(Self.limit) { try await next(request, context) }
    }
}
