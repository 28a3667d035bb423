import Foundation
import Testing
import WardenWire

@testable import WardenMail

/// RFC 2045 §6.7 quoted-printable, as the text and HTML parts use it.
@Suite("Mail: quoted-printable")
struct MailQuotedPrintableTests {
    @Test(arguments: [
        ("hello world", "hello world"),
        ("a=b", "a=3Db"),
        ("café", "caf=C3=A9"),
        ("€ and 😀", "=E2=82=AC and =F0=9F=98=80"),
        ("trailing  ", "trailing =20"),
        ("tab\t", "tab=09"),
        ("  inner  spaces stay", "  inner  spaces stay"),
        ("line1\nline2", "line1\r\nline2"),
        ("line1\r\nline2", "line1\r\nline2"),
        ("line1\rline2", "line1\r\nline2"),
        ("space before break \nnext", "space before break=20\r\nnext"),
        ("end\n", "end\r\n"),
        ("", ""),
        (".leading dot", ".leading dot"),
        ("bell\u{07}", "bell=07"),
        ("~{}|", "~{}|"),
    ])
    func vectors(input: String, expected: String) {
        #expect(QuotedPrintable.encode(input) == expected)
    }

    @Test func longLinesGetSoftBreaksAt76Characters() {
        let line = String(repeating: "a", count: 100)
        #expect(
            QuotedPrintable.encode(line) == String(repeating: "a", count: 75) + "=\r\n"
                + String(repeating: "a", count: 25))
        // Exactly 76 characters need no soft break.
        #expect(QuotedPrintable.encode(String(repeating: "b", count: 76)) == String(repeating: "b", count: 76))
        #expect(
            QuotedPrintable.encode(String(repeating: "b", count: 77))
                == String(repeating: "b", count: 75) + "=\r\n" + "bb")
    }

    @Test func escapesAreNeverSplitBySoftBreaks() {
        let encoded = QuotedPrintable.encode(String(repeating: "a", count: 74) + "é=x")
        #expect(encoded == String(repeating: "a", count: 74) + "=\r\n" + "=C3=A9=3Dx")
    }

    @Test func trailingSpaceIsEscapedEvenAtTheSoftBreakLimit() {
        let encoded = QuotedPrintable.encode(String(repeating: "a", count: 75) + " ")
        // 75 + "=20" does not fit: break, then the escaped space alone.
        #expect(encoded == String(repeating: "a", count: 75) + "=\r\n=20")
    }

    @Test(arguments: [
        String(repeating: "Grüße, Köln! = 100 % ", count: 20),
        "tabs\t\tand spaces   \n\tindented \r\nend   ",
        String(repeating: "😀", count: 50) + "\n" + String(repeating: "x ", count: 80),
        "=\n==\n=3D\n.\n..\n",
        String(repeating: " ", count: 200),
    ])
    func roundTripsAndKeepsTheRules(text: String) {
        let encoded = QuotedPrintable.encode(text)
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\n", with: "\r\n")
        #expect(MailDecoding.decodeQuotedPrintable(encoded) == normalized)
        for line in encoded.components(separatedBy: "\r\n") {
            #expect(line.utf8.count <= 76, "line too long: \(line)")
            #expect(line.unicodeScalars.allSatisfy { $0 == "\t" || ($0.value >= 32 && $0.value < 127) })
            #expect(!line.hasSuffix(" ") && !line.hasSuffix("\t"), "trailing white space: '\(line)'")
        }
        #expect(!encoded.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
        #expect(!encoded.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }
}
