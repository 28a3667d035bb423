import Foundation
import WardenClient
import WardenWire

/// The transfer the agent wants approved: the reference document's `money_transfer` authorization detail
/// (RFC 9396 §2), its binding message, and the order sent to the API once approved.
struct MoneyTransfer: Sendable {
    var amount: Decimal
    var currency: String
    var beneficiary: String
    /// The reference document's example accounts and subject.
    var sourceAccount = "xxxxxxxxxxx1234"
    var destinationAccount = "xxxxxxxxxxx9876"
    var subject = "A Lannister Always Pays His Debts"

    /// `2500 USD`.
    var summary: String { "\(amount) \(currency)" }

    /// The amount as a JSON number, as in the reference document.
    private var amountValue: JSONValue { .number(NSDecimalNumber(decimal: amount).doubleValue) }

    /// `authorization_details[0]`: `{"type": "money_transfer", "instructedAmount": {"amount", "currency"}, …}`.
    var authorizationDetail: JSONValue {
        [
            "type": "money_transfer",
            "instructedAmount": ["amount": amountValue, "currency": .string(currency)],
            "sourceAccount": .string(sourceAccount),
            "destinationAccount": .string(destinationAccount),
            "beneficiary": .string(beneficiary),
            "subject": .string(subject),
        ]
    }

    /// The binding message shown on the device (SPEC §6.1: at most 64 characters from letters, digits, space and
    /// `+-_.,:#`); other characters of the beneficiary's name are left out.
    var bindingMessage: String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " +-_.,:#"))
        let text = "Transfer \(summary) to \(beneficiary)".unicodeScalars.filter {
            $0.isASCII && allowed.contains($0)
        }
        return String(String.UnicodeScalarView(text).prefix(64))
    }

    /// The body of the protected API's `POST /transfers`.
    var order: JSONValue {
        [
            "amount": amountValue, "currency": .string(currency), "beneficiary": .string(beneficiary),
        ]
    }
}
