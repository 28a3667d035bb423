import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading messages back in tests: header fields (unfolded, encoded-words decoded), MIME parts,
/// quoted-printable bodies.
struct ParsedMail {
    var headers: [(name: String, value: String)]
    var body: String

    /// Splits `raw` at its first empty line; header lines are unfolded (RFC 5322 §2.2.3).
    init(_ raw: String) throws {
        let separator = try #require(raw.range(of: "\r\n\r\n"), "no blank line between header and body")
        body = String(raw[separator.upperBound...])
        headers = []
        for line in raw[..<separator.lowerBound].components(separatedBy: "\r\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t"), !headers.isEmpty {
                headers[headers.count - 1].value += line
            } else {
                let colon = try #require(line.firstIndex(of: ":"), "header line without a colon: \(line)")
                headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
            }
        }
        headers = headers.map { ($0.name, $0.value.trimmingCharacters(in: .whitespaces)) }
    }

    /// The first field called `name` (case-insensitive), unfolded, not decoded.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The first field called `name` with its encoded-words decoded.
    func decodedHeader(_ name: String) throws -> String? {
        try header(name).map(MailDecoding.decodeEncodedWords)
    }

    /// The `boundary` parameter of `Content-Type`.
    var boundary: String? {
        guard let contentType = header("Content-Type"), let range = contentType.range(of: "boundary=\"") else {
            return nil
        }
        let rest = contentType[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The body parts of a multipart body (RFC 2046 §5.1.1), preamble and epilogue left out.
    func parts() throws -> [ParsedMail] {
        let boundary = try #require(boundary, "no boundary")
        let body = "\r\n" + self.body
        let delimiter = "\r\n--" + boundary
        let end = try #require(body.range(of: delimiter + "--"), "no closing delimiter")
        let chunks = body[..<end.lowerBound].components(separatedBy: delimiter).dropFirst()
        return try chunks.map { chunk in
            #expect(chunk.hasPrefix("\r\n"), "a delimiter line must end right after the boundary")
            return try ParsedMail(String(chunk.dropFirst()))  // "\r\n" is one Character
        }
    }

    /// The body with its quoted-printable encoding undone.
    var decodedBody: String { MailDecoding.decodeQuotedPrintable(body) }
}

enum MailDecoding {
    static func decodeQuotedPrintable(_ text: String) -> String {
        let input = Array(text.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "="), index + 2 < input.count {
                let next = input[(index + 1)...(index + 2)]
                if next.elementsEqual("\r\n".utf8) {
                    index += 3
                    continue
                }
                if let byte = UInt8(String(decoding: next, as: UTF8.self), radix: 16) {
                    output.append(byte)
                    index += 3
                    continue
                }
            }
            output.append(input[index])
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes `=?UTF-8?B?…?=` words; white space between adjacent encoded-words disappears (RFC 2047 §6.2).
    /// Fails when a single word does not hold whole UTF-8 characters (RFC 2047 §5).
    static func decodeEncodedWords(_ text: String) throws -> String {
        let joined = text.replacing(/\?=\s+=\?/, with: "?==?")
        var output = ""
        var rest = Substring(joined)
        while let match = rest.firstMatch(of: /=\?UTF-8\?B\?([A-Za-z0-9+\/=]*)\?=/) {
            output += rest[..<match.range.lowerBound]
            let data = try #require(Data(base64Encoded: String(match.output.1)), "bad base64 in an encoded-word")
            output += try #require(String(validating: data, as: UTF8.self), "an encoded-word splits a character")
            rest = rest[match.range.upperBound...]
        }
        return output + rest
    }
}

/// What a test needs from the outside world (python3 with aiosmtpd, openssl): a missing tool fails the
/// test with this message instead of skipping it; CI installs them (scripts/test).
struct MissingTestTool: Error, CustomStringConvertible {
    let description: String
}

enum ExternalTools {
    /// The repository (three levels above this file's folder).
    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `arguments` through `/usr/bin/env` (so from PATH) and returns its exit status and standard error.
    static func run(_ arguments: [String]) async throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        let errorText = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (status, errorText)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "warden-mail-test-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A self-signed certificate for `localhost` and 127.0.0.1 (and its key), made with openssl.
    static func selfSignedCertificate(in directory: URL) async throws -> (certificate: String, key: String) {
        let certificate = directory.appendingPathComponent("cert.pem").path
        let key = directory.appendingPathComponent("key.pem").path
        let result: (status: Int32, stderr: String)
        do {
            result = try await run([
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1", "-days", "1", "-keyout", key, "-out",
                certificate,
            ])
        } catch {
            throw MissingTestTool(description: "could not run openssl (\(error)); install it (CI does)")
        }
        guard result.status == 0 else {
            throw MissingTestTool(
                description: "openssl failed to make a test certificate (status \(result.status); is openssl "
                    + "installed? CI installs it): \(result.stderr)")
        }
        return (certificate, key)
    }
}

/// `scripts/test-support/smtp-sink.py` running as a child process on a free port, writing what it receives to a maildir.
final class SMTPSink {
    let port: Int
    let maildir: URL
    private let process: Process
    private let directory: URL
    /// Kept open: the sink (started with --exit-on-stdin-eof) exits when it closes, also if this process dies.
    private let stdin: Pipe

    private init(port: Int, maildir: URL, process: Process, directory: URL, stdin: Pipe) {
        self.port = port
        self.maildir = maildir
        self.process = process
        self.directory = directory
        self.stdin = stdin
    }

    /// Starts the sink with `arguments` (after `--port 0 --maildir …`), waits for its "ready PORT" line, runs
    /// `body`, stops the sink. Fails (never skips) when python3 or aiosmtpd is missing.
    static func with<Result>(
        _ arguments: [String] = [], in directory: URL, _ body: (SMTPSink) async throws -> Result
    ) async throws -> Result {
        let sink = try await start(script: [scriptPath] + arguments, directory: directory)
        defer { sink.stop() }
        return try await body(sink)
    }

    /// Runs any python3 script that prints "ready PORT" (`-c` programs for odd servers).
    static func withPython<Result>(
        _ arguments: [String], in directory: URL, _ body: (SMTPSink) async throws -> Result
    ) async throws -> Result {
        let sink = try await start(script: arguments, directory: directory, sinkOptions: false)
        defer { sink.stop() }
        return try await body(sink)
    }

    static var scriptPath: String {
        ExternalTools.repositoryRoot.appendingPathComponent("scripts/test-support/smtp-sink.py").path
    }

    private static func start(script: [String], directory: URL, sinkOptions: Bool = true) async throws -> SMTPSink {
        let maildir = directory.appendingPathComponent("maildir-" + UUID().uuidString)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3"] + script
            + (sinkOptions ? ["--port", "0", "--maildir", maildir.path, "--exit-on-stdin-eof"] : [])
        let stdin = Pipe()
        let stdout = Pipe()
        let stderrURL = directory.appendingPathComponent("sink-stderr-" + UUID().uuidString + ".txt")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        let output = OutputBuffer()
        stdout.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            output.text.withLock { $0 += String(decoding: data, as: UTF8.self) }
        }
        func failure(_ why: String) -> MissingTestTool {
            let stderr = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            return MissingTestTool(
                description: "the test SMTP server (python3 \(script.first ?? "")) \(why). It needs python3 with "
                    + "aiosmtpd (pip install -r tests/interop/requirements.txt; CI installs it). stderr: \(stderr)")
        }
        do {
            try process.run()
        } catch {
            throw failure("could not be started: \(error)")
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let text = output.text.withLock { $0 }
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ready ") }),
                let port = Int(line.dropFirst("ready ".count).trimmingCharacters(in: .whitespaces))
            {
                stdout.fileHandleForReading.readabilityHandler = nil
                return SMTPSink(port: port, maildir: maildir, process: process, directory: directory, stdin: stdin)
            }
            if !process.isRunning {
                stdout.fileHandleForReading.readabilityHandler = nil
                throw failure("exited with status \(process.terminationStatus) before it was ready")
            }
            if ContinuousClock.now > deadline {
                process.terminate()
                throw failure("was not ready within 30 s")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// What the child prints, filled from a pipe callback.
    private final class OutputBuffer: Sendable {
        let text = Mutex("")
    }

    /// Stops the server: SIGTERM, and SIGKILL when it is still running 3 s later (a child inherits the signal
    /// mask of the thread that spawned it, which may block SIGTERM).
    func stop() {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// The contents of the delivered messages, oldest first (no temporary files).
    func messages() throws -> [String] {
        guard FileManager.default.fileExists(atPath: maildir.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: maildir.path)
            .filter { $0.hasSuffix(".eml") && !$0.hasPrefix(".") }
            .sorted()
            .map { try String(contentsOf: maildir.appendingPathComponent($0), encoding: .utf8) }
    }
}

/// A loopback TCP port that refuses connections for as long as the body runs: a socket bound to it but not
/// listening (the kernel answers a SYN with RST), held so that no test running in parallel can take the port.
enum ClosedPort {
    static func with<Result>(_ body: (Int) async throws -> Result) async throws -> Result {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try #require(descriptor >= 0, "socket() failed: errno \(errno)")
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        try #require(bound, "bind() failed: errno \(errno)")
        return try await body(Int(UInt16(bigEndian: address.sin_port)))
    }
}
