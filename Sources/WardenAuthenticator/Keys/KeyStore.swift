/// Where a device keeps its enrollments and their signing keys.
///
/// ``Authenticator`` saves here after enrolling, reads the key to sign every request, and removes the entry
/// after unenrolling. The SDK ships ``InMemoryKeyStore`` (tests, previews) and ``FileKeyStore`` (a private
/// directory, for Linux devices and command-line tools); an Apple app can conform a Keychain-backed type.
///
/// Contract: ``save(_:key:)`` replaces any entry with the same ``Enrollment/id``; the read methods return `nil`
/// (not an error) for an unknown id; ``remove(enrollmentID:)`` of an unknown id is not an error.
public protocol KeyStore: Sendable {
    /// Saves (or replaces) an enrollment and its key.
    func save(_ enrollment: Enrollment, key: DeviceKey) async throws
    /// Replaces the stored record of an enrollment whose key is already stored.
    func update(_ enrollment: Enrollment) async throws
    /// The enrollment with this id, or `nil`.
    func enrollment(id: String) async throws -> Enrollment?
    /// The key of the enrollment with this id, or `nil`.
    func key(enrollmentID: String) async throws -> DeviceKey?
    /// Every stored enrollment, ordered by id.
    func enrollments() async throws -> [Enrollment]
    /// Forgets an enrollment and its key.
    func remove(enrollmentID: String) async throws
}

/// A ``KeyStore`` that lives only as long as the process: tests, previews, one-shot tools.
public actor InMemoryKeyStore: KeyStore {
    private var entries: [String: (enrollment: Enrollment, key: DeviceKey)] = [:]

    /// Creates an empty store.
    public init() {}

    public func save(_ enrollment: Enrollment, key: DeviceKey) {
        entries[enrollment.id] = (enrollment, key)
    }

    public func update(_ enrollment: Enrollment) throws {
        guard let entry = entries[enrollment.id] else { throw AuthenticatorError.keyNotFound(enrollment.id) }
        entries[enrollment.id] = (enrollment, entry.key)
    }

    public func enrollment(id: String) -> Enrollment? { entries[id]?.enrollment }

    public func key(enrollmentID: String) -> DeviceKey? { entries[enrollmentID]?.key }

    public func enrollments() -> [Enrollment] {
        entries.values.map(\.enrollment).sorted { $0.id < $1.id }
    }

    public func remove(enrollmentID: String) {
        entries[enrollmentID] = nil
    }
}
