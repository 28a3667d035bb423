public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``KeyStore`` in a private directory: for each enrollment `{id}.pem` (the PKCS#1 PEM private key) and
/// `{id}.json` (the ``Enrollment``).
///
/// The directory is created with mode `0700` and every file with mode `0600` (the mode is set when the file is
/// created, never widened afterwards); writes go through a temporary file and `rename(2)`, so a crash leaves
/// the old or the new version, never half of one. Enrollment ids must be made of `A-Z a-z 0-9 _ - .` (the
/// server's `dev_…` ids are) so that they cannot name a file outside the directory.
public struct FileKeyStore: KeyStore {
    /// The directory holding the files.
    public let directory: URL

    /// Opens (creating when missing, mode `0700`) the store directory.
    public init(directory: URL) throws {
        self.directory = directory.standardizedFileURL
        let path = self.directory.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw AuthenticatorError.storage("\(path) is not a directory") }
        } else {
            let parent = self.directory.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
                throw AuthenticatorError.storage("cannot create \(path): errno \(errno)")
            }
            guard chmod(path, 0o700) == 0 else { throw AuthenticatorError.storage("cannot chmod \(path)") }
        }
    }

    public func save(_ enrollment: Enrollment, key: DeviceKey) throws {
        try writePrivately(Data(key.pemRepresentation.utf8), to: try fileURL(enrollment.id, "pem"))
        try writePrivately(try Self.encoder.encode(enrollment), to: try fileURL(enrollment.id, "json"))
    }

    public func update(_ enrollment: Enrollment) throws {
        guard FileManager.default.fileExists(atPath: try fileURL(enrollment.id, "pem").path) else {
            throw AuthenticatorError.keyNotFound(enrollment.id)
        }
        try writePrivately(try Self.encoder.encode(enrollment), to: try fileURL(enrollment.id, "json"))
    }

    public func enrollment(id: String) throws -> Enrollment? {
        guard let data = FileManager.default.contents(atPath: try fileURL(id, "json").path) else { return nil }
        return try JSONDecoder().decode(Enrollment.self, from: data)
    }

    public func key(enrollmentID: String) throws -> DeviceKey? {
        guard let data = FileManager.default.contents(atPath: try fileURL(enrollmentID, "pem").path) else {
            return nil
        }
        return try DeviceKey(pemRepresentation: String(decoding: data, as: UTF8.self))
    }

    public func enrollments() throws -> [Enrollment] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            try enrollment(id: String(name.dropLast(".json".count)))
        }
    }

    public func remove(enrollmentID: String) throws {
        for ext in ["pem", "json"] {
            let path = try fileURL(enrollmentID, ext).path
            if unlink(path) != 0 && errno != ENOENT {
                throw AuthenticatorError.storage("cannot remove \(path): errno \(errno)")
            }
        }
    }

    // MARK: - Files

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private func fileURL(_ id: String, _ ext: String) throws -> URL {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.")
        guard !id.isEmpty, !id.hasPrefix("."), id.allSatisfy(allowed.contains) else {
            throw AuthenticatorError.storage("unsafe enrollment id for a file name: \(id)")
        }
        return directory.appendingPathComponent("\(id).\(ext)")
    }

    /// Writes `data` to a new `0600` temporary file next to `url`, syncs it, and renames it over `url`.
    private func writePrivately(_ data: Data, to url: URL) throws {
        let temporary = url.path + ".tmp-\(UInt64.random(in: .min ... .max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw AuthenticatorError.storage("cannot create \(temporary): errno \(errno)") }
        var failure: String?
        if fchmod(descriptor, 0o600) != 0 { failure = "fchmod failed: errno \(errno)" }
        data.withUnsafeBytes { buffer in
            guard failure == nil else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = "write failed: errno \(errno)"
                    return
                }
                offset += written
            }
        }
        if failure == nil && fsync(descriptor) != 0 { failure = "fsync failed: errno \(errno)" }
        close(descriptor)
        if failure == nil && rename(temporary, url.path) != 0 { failure = "rename failed: errno \(errno)" }
        if let failure {
            unlink(temporary)
            throw AuthenticatorError.storage("\(url.path): \(failure)")
        }
    }
}
