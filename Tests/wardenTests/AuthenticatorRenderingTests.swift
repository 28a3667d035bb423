import Foundation
import Testing
import WardenAuthenticator
import WardenCore

@testable import warden

/// How `warden authenticator` shows a consent (SPEC §6.5, §7.3): the header, `money_transfer` details through
/// ``MoneyTransfer``, other details as indented `key: value` lines, and no terminal control sequences.
@Suite("warden authenticator: consent rendering")
struct AuthenticatorRenderingTests {
    func detail(_ json: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
    }

    @Test func theReferenceMoneyTransferIsShownInAlignedRows() throws {
        let entry = try detail(
            """
            {"type": "money_transfer", "instructedAmount": {"amount": 2500, "currency": "EUR"},
             "sourceAccount": "xxxxxxxxxxx1234", "destinationAccount": "xxxxxxxxxxx9876",
             "beneficiary": "Hanna Herwitz", "subject": "A Lannister Always Pays His Debts"}
            """)
        let consent = Consent(
            id: "cns_1",
            requestedDetails: ConsentRequestedDetails(
                audience: "https://bank.example/", scope: ["openid", "transfer:funds"],
                bindingMessage: "Transfer 2500 EUR", authorizationDetails: [entry]),
            createdAt: "", expiresAt: "")
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
        let entry = try detail(
            """
            {"type": "money_transfer", "instructedAmount": {"currency": "EUR", "amount": "42.50"},
             "creditorName": "Merchant A", "creditorAccount": {"iban": "DE02100100109307118603"},
             "debtorAccount": {"number": "12345678"}, "urgency": "instant", "locations": ["https://bank.example/"]}
            """)
        #expect(
            ConsentRendering.detailLines(entry, indent: "") == [
                "Money transfer",
                "  Amount:       42.50 EUR",
                "  From:         12345678",
                "  To:           DE02100100109307118603",
                "  Beneficiary:  Merchant A",
                "  locations: https://bank.example/",
                "  urgency: instant",
            ])
    }

    @Test func aMoneyTransferThatDoesNotDecodeIsShownGenerically() throws {
        let entry = try detail(#"{"type": "money_transfer", "instructedAmount": {"amount": 12.5}}"#)
        #expect(
            ConsentRendering.detailLines(entry, indent: "") == [
                "Details of type money_transfer",
                "  instructedAmount:",
                "    amount: 12.5",
            ])
    }

    @Test func otherTypesAreIndentedKeyValueLines() throws {
        let entry = try detail(
            """
            {"type": "account_information", "actions": ["list_accounts", "read_balances"], "active": true,
             "limit": null, "empty": {}, "locations": [{"url": "https://a.example/", "tier": 2}],
             "owner": {"name": "Ada", "address": {"city": "London"}}}
            """)
        #expect(
            ConsentRendering.detailLines(entry, indent: "  ") == [
                "  Details of type account_information",
                "    actions: list_accounts, read_balances",
                "    active: true",
                "    empty: {}",
                "    limit: null",
                "    locations:",
                "      -",
                "        tier: 2",
                "        url: https://a.example/",
                "    owner:",
                "      address:",
                "        city: London",
                "      name: Ada",
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

    @Test func controlAndBidiCharactersAreEscaped() throws {
        #expect(ConsentRendering.sanitized("Pay\u{1B}[2J 10\u{202E}RUE\nok") == #"Pay\u{1B}[2J 10\u{202E}RUE\u{A}ok"#)
        let entry = try detail(#"{"type": "x\u001b[31m", "k\u0007": "v\r"}"#)
        #expect(
            ConsentRendering.detailLines(entry, indent: "") == [
                #"Details of type x\u{1B}[31m"#, #"  k\u{7}: v\u{D}"#,
            ])
    }

    @Test func numbersHaveNoSpuriousFraction() {
        #expect(ConsentRendering.number(2500) == "2500")
        #expect(ConsentRendering.number(42.5) == "42.5")
        #expect(ConsentRendering.number(-3) == "-3")
    }
}
