import HummingbirdBcrypt
import NIOPosix

/// bcrypt off the Swift concurrency pool. A hash or a check takes tens of milliseconds by design; on the pool's
/// few threads (one per core) it would hold up every other request meanwhile, so it runs on NIO's thread pool for
/// blocking work.
enum PasswordHashing {
    /// The bcrypt hash of `password` at `cost` (SPEC §9: what the Management API and the console store).
    static func hash(_ password: String, cost: UInt8) async throws -> String {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash` (SPEC §5: the hosted login's check).
    static func verify(_ password: String, hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
