import Foundation
import Testing
import WardenAuthenticator
import WardenWire

/// The reference document's `money_transfer` example.
struct MoneyTransfer: AuthorizationDetailsType, Equatable {
    static let type = "money_transfer"

    struct Amount: Codable, Equatable {
        let amount: Double
        let currency: String
    }

    let instructedAmount: Amount
    let sourceAccount: String
    let destinationAccount: String
    let beneficiary: String
    let subject: String
}

struct Payment: AuthorizationDetailsType {
    static let type = "payment"
    let amount: Double
    let currency: String
}

@Suite struct AuthorizationDetailsTests {
    let consentBody = Data(
        #"""
        {
          "id": "cns_2309dsfsd098",
          "requested_details": {
            "audience": "https://api.example.com",
            "scope": ["read:profile", "write:profile"],
            "binding_message": "Confirm payment of 2500",
            "authorization_details": [
              {"type": "money_transfer", "instructedAmount": {"amount": 2500, "currency": "USD"},
               "sourceAccount": "xxxxxxxxxxx1234", "destinationAccount": "xxxxxxxxxxx9876",
               "beneficiary": "Hanna Herwitz", "subject": "A Lannister Always Pays His Debts"},
              {"type": "payment", "amount": 10.5, "currency": "EUR"},
              {"type": "money_transfer", "broken": true},
              {"no_type": 1}
            ]
          },
          "created_at": "2024-05-01T12:00:00.000Z",
          "expires_at": "2024-05-01T12:05:00Z"
        }
        """#.utf8)

    @Test func decodesConsent() throws {
        let consent = try JSONDecoder().decode(Consent.self, from: consentBody)
        #expect(consent.id == "cns_2309dsfsd098")
        #expect(consent.requestedDetails.audience == "https://api.example.com")
        #expect(consent.requestedDetails.scope == ["read:profile", "write:profile"])
        #expect(consent.requestedDetails.bindingMessage == "Confirm payment of 2500")
        #expect(consent.requestedDetails.authorizationDetails.count == 4)
        #expect(consent.createdAt == "2024-05-01T12:00:00.000Z")
        #expect(consent.createdDate == Date(timeIntervalSince1970: 1_714_564_800))
        #expect(consent.expiresDate == Date(timeIntervalSince1970: 1_714_565_100))
        #expect(consent.requestedDetails.authorizationDetailsTypes == ["money_transfer", "payment"])
    }

    @Test func filtersByTypeAndDecodes() throws {
        let details = try JSONDecoder().decode(Consent.self, from: consentBody).requestedDetails
        let transfers = details.filterAuthorizationDetailsByType(MoneyTransfer.self)
        // The second money_transfer entry does not decode as MoneyTransfer and is left out.
        #expect(
            transfers == [
                MoneyTransfer(
                    instructedAmount: .init(amount: 2500, currency: "USD"), sourceAccount: "xxxxxxxxxxx1234",
                    destinationAccount: "xxxxxxxxxxx9876", beneficiary: "Hanna Herwitz",
                    subject: "A Lannister Always Pays His Debts")
            ])
        #expect(transfers.first?.type == "money_transfer")
        let payments = details.filterAuthorizationDetailsByType(Payment.self)
        #expect(payments.count == 1)
        #expect(payments.first?.amount == 10.5)
        #expect(payments.first?.currency == "EUR")
        #expect(payments.first?.type == "payment")
    }

    @Test func dynamicAccessLikeTheReference() throws {
        let details = try JSONDecoder().decode(Consent.self, from: consentBody).requestedDetails
        let first = try #require(details.authorizationDetails[0].objectValue)
        #expect(first["type"]?.stringValue == "money_transfer")
        #expect(first["instructedAmount"]?.objectValue?["amount"]?.doubleValue == 2500)
        #expect(first["beneficiary"]?.stringValue == "Hanna Herwitz")
    }

    @Test func lenientShapes() throws {
        let body = Data(
            #"""
            {"id": "cns_1", "requested_details": {"scope": "openid profile"},
             "created_at": 1632739200, "expires_at": 1632739500}
            """#.utf8)
        let consent = try JSONDecoder().decode(Consent.self, from: body)
        #expect(consent.requestedDetails.scope == ["openid", "profile"])
        #expect(consent.requestedDetails.authorizationDetails.isEmpty)
        #expect(consent.requestedDetails.bindingMessage == nil)
        #expect(consent.createdDate == Date(timeIntervalSince1970: 1_632_739_200))
        #expect(consent.requestedDetails.filterAuthorizationDetailsByType(MoneyTransfer.self).isEmpty)
    }
}
