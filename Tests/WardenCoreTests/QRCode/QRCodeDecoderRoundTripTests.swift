import Foundation
import Testing
import WardenCore
import WardenWire

/// Writes SVGs with `QRCode.svg` and decodes them with a third-party decoder (zxing-cpp, through
/// `scripts/test-support/qr-decode.py`), expecting the exact input bytes back. The decoder is a required test dependency:
/// `scripts/test` installs it (`pip install -r tests/interop/requirements.txt`), so a missing one fails the test.
@Suite("QR Code decoder round trip (zxing-cpp)")
struct QRCodeDecoderRoundTripTests {
    static let inputs: [(name: String, bytes: [UInt8])] = [
        ("len1", Array("x".utf8)),
        ("len17", Array("Warden push login".utf8)),
        ("len100", (0..<100).map { Array("The quick brown fox jumps over the lazy dog. ".utf8)[$0 % 45] }),
        ("len250-otpauth", Array(QRCodeTests.otpauthURI.utf8)),
        ("len400", (0..<400).map { UInt8(0x21 + ($0 * 13) % 94) }),
        ("len624-v19-max", [UInt8](repeating: UInt8(ascii: "9"), count: 624)),
        ("len666-v20-max", (0..<666).map { Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)[$0 % 36] }),
        ("binary-all-bytes", (0..<256).map { UInt8($0) }),
        ("utf8", Array("Grüße aus Zürich — 東京 🔐 Ελληνικά".utf8)),
        ("whitespace", Array("  leading and trailing spaces, a tab\tand a newline\n ".utf8)),
        ("json-quote", Array(#"{"a":"b\"c","d":[1,2]}"#.utf8)),
    ]

    @Test func thirdPartyDecoderReadsEverySymbol() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("warden-qr-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var expected: [String: String] = [:]
        for (name, bytes) in Self.inputs {
            let code = try QRCode(encoding: bytes)
            let svg = code.svg(moduleSize: 3, title: "QR code \(name)")
            try Data(svg.utf8).write(to: directory.appendingPathComponent("\(name).svg"))
            expected["\(name).svg"] = bytes.map { String(format: "%02x", $0) }.joined()
        }
        #expect(try QRCode(encoding: Self.inputs[6].bytes).version == 20)
        #expect(try QRCode(encoding: Self.inputs[5].bytes).version == 19)

        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let script = root.appendingPathComponent("scripts/test-support/qr-decode.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // scripts/test exports PYTHON (the interpreter it installed the requirements into).
        let python = ProcessInfo.processInfo.environment["PYTHON"] ?? "python3"
        process.arguments = [python, script, "--hex", "--names", directory.path]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let install =
            "install the decoder with `python3 -m pip install -r tests/interop/requirements.txt` "
            + "(needs python3; scripts/test installs both)"
        do {
            try process.run()
        } catch {
            Issue.record("cannot run \(python) (\(error)): \(install)")
            return
        }
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: break
        case 3, 127:
            Issue.record("the third-party QR decoder is missing: \(install)\n\(errors)")
            return
        default:
            Issue.record("scripts/test-support/qr-decode.py exited \(process.terminationStatus):\n\(errors)")
        }

        var decoded: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 2 else {
                Issue.record("unexpected decoder output line: \(line)")
                continue
            }
            decoded[String(fields[0])] = String(fields[1])
        }
        for (file, hex) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(decoded[file] == hex, "\(file) did not decode to its input")
        }
        #expect(decoded.count == expected.count)
    }
}
