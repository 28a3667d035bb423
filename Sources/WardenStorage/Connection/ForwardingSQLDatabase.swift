import Logging
import NIOCore
import SQLKit

/// A database wrapping `base` (timed, bounded, serialized): what it does not override is `base`'s.
protocol ForwardingSQLDatabase: SQLDatabase {
    var base: any SQLDatabase { get }
}

extension ForwardingSQLDatabase {
    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }
}
