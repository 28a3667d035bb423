public import Hummingbird
public import NIOCore
import WardenCore

/// The request context of every Warden route: Hummingbird's core storage plus the socket peer, from which
/// the client IP is derived (SPEC §1 `--trusted-proxies`).
public struct WardenRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer, `nil` in in-process tests.
    public let remoteAddress: SocketAddress?
    /// The scopes of the verified Management API token (set by ``ManagementAuthMiddleware``).
    public var managementScopes: Set<String>?
    /// The client id of the verified Management API token.
    public var managementClientID: String?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// Bodies over 64 KiB are refused with 413 (SPEC §11).
    public var maxUploadSize: Int { RequestBodyReader.limit }
}

extension WardenRequestContext {
    /// Throws 403 `insufficient_scope` unless the Management API token carries `scope` (SPEC §9).
    func requireScope(_ scope: String) throws {
        guard let granted = managementScopes else { throw ManagementError.invalidToken("Missing authentication") }
        guard granted.contains(scope) else { throw ManagementError.insufficientScope(scope) }
    }
}
