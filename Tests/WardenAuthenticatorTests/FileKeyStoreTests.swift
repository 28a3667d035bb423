import Foundation
import Testing
import WardenAuthenticator

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite struct FileKeyStoreTests {
    func mode(_ path: String) -> mode_t {
        var info = stat()
        #expect(stat(path, &info) == 0)
        return info.st_mode & 0o777
    }

    func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("warden-authenticator-\(UUID().uuidString)")
            .appendingPathComponent("store")
    }

    @Test func roundTripAndPermissions() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store: any KeyStore = try FileKeyStore(directory: directory)
        #expect(mode(directory.path) == 0o700)

        let enrollment = sampleEnrollment()
        try await store.save(enrollment, key: sharedKey)
        #expect(mode(directory.appendingPathComponent("dev_abc123.pem").path) == 0o600)
        #expect(mode(directory.appendingPathComponent("dev_abc123.json").path) == 0o600)

        let reopened: any KeyStore = try FileKeyStore(directory: directory)
        #expect(try await reopened.enrollment(id: "dev_abc123") == enrollment)
        #expect(try await reopened.key(enrollmentID: "dev_abc123")?.publicJWK == sharedKey.publicJWK)
        #expect(try await reopened.enrollments() == [enrollment])
        #expect(try await reopened.enrollment(id: "dev_other") == nil)
        #expect(try await reopened.key(enrollmentID: "dev_other") == nil)

        var renamed = enrollment
        renamed.deviceName = "New name"
        try await reopened.update(renamed)
        #expect(try await store.enrollment(id: "dev_abc123")?.deviceName == "New name")
        #expect(mode(directory.appendingPathComponent("dev_abc123.json").path) == 0o600)

        try await store.remove(enrollmentID: "dev_abc123")
        try await store.remove(enrollmentID: "dev_abc123")
        #expect(try await store.enrollments().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func updateWithoutKeyFails() async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store: any KeyStore = try FileKeyStore(directory: directory)
        await #expect(throws: AuthenticatorError(kind: .keyNotFound)) {
            try await store.update(sampleEnrollment())
        }
    }

    @Test(arguments: ["../escape", "a/b", "", ".hidden"])
    func refusesUnsafeIDs(_ id: String) async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let store: any KeyStore = try FileKeyStore(directory: directory)
        await #expect(throws: AuthenticatorError(kind: .storage)) {
            try await store.save(sampleEnrollment(id: id), key: sharedKey)
        }
    }

    @Test func inMemoryStore() async throws {
        let store: any KeyStore = InMemoryKeyStore()
        try await store.save(sampleEnrollment(id: "dev_b"), key: sharedKey)
        try await store.save(sampleEnrollment(id: "dev_a"), key: sharedKey)
        #expect(try await store.enrollments().map(\.id) == ["dev_a", "dev_b"])
        try await store.remove(enrollmentID: "dev_a")
        #expect(try await store.key(enrollmentID: "dev_a") == nil)
        #expect(try await store.key(enrollmentID: "dev_b") != nil)
    }
}
