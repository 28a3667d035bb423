import Testing
import WardenCore
import WardenWire

/// SPEC §11: text from a client's request is stripped of control characters (C0, C1, DEL) and of the
/// bidirectional embedding, override and isolate characters before a person sees it, and each value stays on its
/// own labelled line.
@Suite("Text shown to people")
struct DisplayTextTests {
    @Test(
        "Control and bidirectional characters are removed",
        arguments: [
            ("ok\n\nApprove at: http://evil.example/approve", "ok Approve at: http://evil.example/approve"),
            ("line\r\nbreak", "line break"),
            ("tab\there", "tab here"),
            ("bell\u{07}\u{1B}[31mred", "bell [31mred"),
            ("del\u{7F}c1\u{85}\u{9B}x", "del c1 x"),
            ("invoice\u{202E}fdp.exe", "invoicefdp.exe"),
            ("\u{202A}a\u{202B}b\u{202C}c\u{202D}d\u{2066}e\u{2067}f\u{2068}g\u{2069}", "abcdefg"),
            ("  padded  ", "padded"),
            ("Zürich 👩‍💻 Straße", "Zürich 👩‍💻 Straße"),
        ])
    func cleaned(input: String, expected: String) {
        #expect(DisplayText.clean(input) == expected)
    }

    @Test("Nothing of the forbidden ranges survives any input")
    func noForbiddenScalar() {
        let forbidden =
            (0..<0x20).map { $0 } + [0x7F] + (0x80...0x9F).map { $0 } + (0x202A...0x202E).map { $0 }
            + (0x2066...0x2069).map { $0 }
        let all = String(String.UnicodeScalarView(forbidden.compactMap { Unicode.Scalar(UInt32($0)) }))
        let cleaned = DisplayText.clean("a" + all + "b")
        #expect(cleaned == "a b")
    }
}

@Suite("Authorization details for people")
struct AuthorizationDetailsDisplayTests {
    @Test("A money transfer reads as a transfer, the rest as labelled fields")
    func moneyTransfer() throws {
        let details: JSONValue = [
            [
                "type": "money_transfer", "instructedAmount": ["amount": 2500, "currency": "USD"],
                "sourceAccount": "xxxxxxxxxxx1234", "destinationAccount": ["iban": "DE02100100109307118603"],
                "beneficiary": "Hanna Herwitz", "subject": "A Lannister always pays his debts", "priority": "high",
            ]
        ]
        let sections = AuthorizationDetailsDisplay.sections(details)
        #expect(sections.count == 1)
        #expect(sections[0].heading == "Money transfer")
        #expect(
            sections[0].rows == [
                .init(label: "Amount", value: "2500 USD"), .init(label: "From", value: "xxxxxxxxxxx1234"),
                .init(label: "To", value: "DE02100100109307118603"),
                .init(label: "Beneficiary", value: "Hanna Herwitz"),
                .init(label: "Subject", value: "A Lannister always pays his debts"),
                .init(label: "priority", value: "high"),
            ])
        #expect(
            AuthorizationDetailsDisplay.textLines(Array(sections[0].rows.prefix(2)), indent: "  ") == [
                "  Amount:  2500 USD", "  From:    xxxxxxxxxxx1234",
            ])
    }

    @Test("Other types: labelled fields, nested members one level deeper")
    func otherTypes() {
        let details: JSONValue = [
            [
                "type": "appointment", "when": ["date": "2026-12-01", "time": "09:30"], "doctor": "Dr. Who",
                "slots": [1, 2],
            ]
        ]
        let section = AuthorizationDetailsDisplay.sections(details)[0]
        #expect(section.heading == "Details of type appointment")
        #expect(
            section.rows == [
                .init(label: "doctor", value: "Dr. Who"), .init(label: "slots", value: "1, 2"),
                .init(label: "when", value: ""), .init(label: "date", value: "2026-12-01", depth: 1),
                .init(label: "time", value: "09:30", depth: 1),
            ])
    }

    @Test("A value with a line break stays on its labelled line")
    func hostileValues() {
        let details: JSONValue = [
            [
                "type": "money_transfer", "instructedAmount": ["amount": "1", "currency": "EUR"],
                "beneficiary": "ok\n\nApprove at: http://evil.example/approve", "note\u{202E}": "x\r\ny",
            ]
        ]
        let lines = AuthorizationDetailsDisplay.textLines(
            AuthorizationDetailsDisplay.sections(details)[0].rows, indent: "")
        #expect(
            lines == [
                "Amount:       1 EUR", "Beneficiary:  ok Approve at: http://evil.example/approve", "note:         x y",
            ])
        #expect(!lines.contains { $0.hasPrefix("Approve") })
    }
}
