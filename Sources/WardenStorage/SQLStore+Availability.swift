import NIOCore
import NIOPosix
import PostgresKit
import PostgresNIO
import WardenCore

/// Telling a database outage from other failures (SPEC §11: 503 with `Retry-After` while the database is down).
extension SQLStore {
    /// `true` for what a PostgreSQL server that is down, restarting or unreachable makes this store throw: a
    /// connection refused, lost or closed under a query, a pool that found no connection in time, a network
    /// error, a request's wait for the database over its limit (a frozen server, ``BoundedSQLDatabase``). A query
    /// error the server answered (a constraint, a syntax error) is not an outage.
    public func isUnavailable(_ error: any Error) -> Bool {
        switch error {
        case let error as PSQLError:
            Self.outageCodes.contains(error.code)
        case is ConnectionPoolTimeoutError, is ConnectionPoolError, is NIOConnectionError, is IOError, is ChannelError,
            is Deadline.Exceeded:
            true
        default:
            false
        }
    }

    /// The PostgresNIO error codes of a connection that could not be made or was lost.
    private static let outageCodes: [PSQLError.Code] = [
        .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .poolClosed,
    ]
}
