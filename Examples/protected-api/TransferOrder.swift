import Foundation
import WardenClient

/// The body of `POST /transfers`: `{"amount": 2500, "currency": "USD", "beneficiary": "Hanna Herwitz"}` (the amount
/// a JSON number or a decimal string).
struct TransferOrder: Decodable, Sendable {
    var amount: Decimal
    var currency: String
    var beneficiary: String?

    enum CodingKeys: String, CodingKey {
        case amount, currency, beneficiary
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        currency = try container.decode(String.self, forKey: .currency)
        beneficiary = try container.decodeIfPresent(String.self, forKey: .beneficiary)
        let text: String
        if let string = try? container.decode(String.self, forKey: .amount) {
            text = string
        } else {
            text = String(describing: try container.decode(Double.self, forKey: .amount))
        }
        guard let amount = Self.amount(text), amount > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .amount, in: container, debugDescription: "amount must be a positive number")
        }
        self.amount = amount
    }

    /// A decimal amount from its text (`"2500"`, `"42.50"`).
    static func amount(_ text: String) -> Decimal? {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// The first `money_transfer` entry of `details` (RFC 9396 §2, the reference document's shape:
    /// `instructedAmount: {amount, currency}`) in this currency whose amount is at least this order's.
    func covering(_ details: [JSONValue]) -> JSONValue? {
        details.first { detail in
            guard detail["type"]?.stringValue == "money_transfer", let instructed = detail["instructedAmount"],
                instructed["currency"]?.stringValue == currency
            else { return false }
            let approved = instructed["amount"].flatMap { $0.stringValue ?? $0.doubleValue.map { "\($0)" } }
            return approved.flatMap(Self.amount).map { amount <= $0 } ?? false
        }
    }
}
