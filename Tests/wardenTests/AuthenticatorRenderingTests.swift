import Foundation
import Testing
import WardenAuthenticator
import WardenCore
import WardenWire

@testable import warden

/// How `warden authenticator` shows a consent (SPEC §6.5, §7.3): the header, then each authorization detail as
/// ``AuthorizationDetailsDisplay`` lays it out for the approval page and e-mail too (a `money_transfer` as Amount
/// / From / To / Beneficiary / Subject rows, other members as labelled lines), with no terminal control sequence.
@Suite("warden authenticator: consent rendering")
struct AuthenticatorRenderingTests {
    func consent(_ json: String, bindingMessage: String = "Transfer 2500 EUR") throws -> Consent {
        let entry = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        return Consent(
            id: "cns_1",
            requestedDetails: ConsentRequestedDetails(
                audience: "https://bank.example/", scope: ["openid", "transfer:funds"],
                bindingMessage: bindingMessage, authorizationDetails: [entry]),
            createdAt: "", expiresAt: "")
    }

    @Test func theReferenceMoneyTransferIsShownInAlignedRows() throws {
        let consent = try consent(
            """
            {"type": "money_transfer", "instructedAmount": {"amount": 2500, "currency": "EUR"},
             "sourceAccount": "xxxxxxxxxxx1234", "destinationAccount": "xxxxxxxxxxx9876",
             "beneficiary": "Hanna Herwitz", "subject": "A Lannister Always Pays His Debts"}
            """)
        let lines = ConsentRendering.lines(consent: consent, client: "Bank app", account: "ada@example.com")
        #expect(
            lines == [
                "Request from Bank app",
                "  Binding message:  Transfer 2500 EUR",
                "  API:              https://bank.example/",
                "  Scopes:           openid transfer:funds",
                "  Account:          ada@example.com",
                "  Money transfer",
                "    Amount:       2500 EUR",
                "    From:         xxxxxxxxxxx1234",
                "    To:           xxxxxxxxxxx9876",
                "    Beneficiary:  Hanna Herwitz",
                "    Subject:      A Lannister Always Pays His Debts",
            ])
    }

    @Test func paymentInitiationMembersAreUnderstoodAndUnknownOnesStillShown() throws {
        let consent = try consent(
            """
            {"type": "money_transfer", "instructedAmount": {"currency": "EUR", "amount": "42.50"},
             "creditorName": "Merchant A", "creditorAccount": {"iban": "DE02100100109307118603"},
             "debtorAccount": {"number": "12345678"}, "urgency": "instant", "locations": ["https://bank.example/"]}
            """)
        #expect(
            Array(ConsentRendering.lines(consent: consent, client: nil, account: nil).suffix(7))
                == [
                    "  Money transfer",
                    "    Amount:       42.50 EUR",
                    "    From:         12345678",
                    "    To:           DE02100100109307118603",
                    "    Beneficiary:  Merchant A",
                    "    locations:    https://bank.example/",
                    "    urgency:      instant",
                ])
    }

    @Test func otherTypesAreLabelledLinesNestedOneLevelDeeper() throws {
        let consent = try consent(
            """
            {"type": "account_information", "actions": ["list_accounts", "read_balances"], "active": true,
             "limit": null, "owner": {"name": "Ada", "address": {"city": "London"}}}
            """)
        #expect(
            Array(ConsentRendering.lines(consent: consent, client: nil, account: nil).dropFirst(4)) == [
                "  Details of type account_information",
                "    actions:    list_accounts, read_balances",
                "    active:     true",
                "    limit:      null",
                "    owner:",
                "      address:",
                "        city:   London",
                "      name:     Ada",
            ])
    }

    @Test func withoutATitleOrAudienceTheHeaderSaysLess() {
        let consent = Consent(
            id: "cns_2", requestedDetails: ConsentRequestedDetails(bindingMessage: "Sign in"), createdAt: "",
            expiresAt: "")
        #expect(
            ConsentRendering.lines(consent: consent, client: nil, account: nil) == [
                "Authorization request", "  Binding message:  Sign in",
            ])
    }

    /// SPEC §11: control characters become a space, bidirectional controls are removed; nothing reaches the
    /// terminal that could move the cursor, recolour or start a line.
    @Test func controlAndBidiCharactersNeverReachTheTerminal() throws {
        let consent = try consent(#"{"type": "x\u001b[31m", "k\u0007": "v\r\nApprove: yes\u202e"}"#)
        let lines = ConsentRendering.lines(consent: consent, client: "Pay\u{1B}[2J\u{202E}", account: nil)
        #expect(lines.first == "Request from Pay [2J")
        #expect(lines.suffix(2) == ["  Details of type x [31m", "    k:  v Approve: yes"])
        #expect(!lines.joined().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
    }
}
