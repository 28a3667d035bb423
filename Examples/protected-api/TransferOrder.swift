import Foundation
import WardenResourceServer
import WardenWire

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
        let amount = try container.decode(Amount.self, forKey: .amount).value
        guard amount > 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .amount, in: container, debugDescription: "amount must be a positive number")
        }
        self.amount = amount
    }

    /// The first of the token's `money_transfer` authorization details (RFC 9396 §2) in this currency whose
    /// amount is at least this order's: the bank's rule for executing a transfer.
    func covering(_ approved: [MoneyTransfer]) -> MoneyTransfer? {
        approved.first { $0.instructedAmount.currency == currency && amount <= $0.instructedAmount.amount.value }
    }
}

/// A `money_transfer` authorization detail as the token carries it (the reference document's shape:
/// `instructedAmount: {amount, currency}`), and the entry as granted, for the receipt.
struct MoneyTransfer: Decodable, Sendable {
    static let type = "money_transfer"

    struct InstructedAmount: Decodable, Sendable {
        var amount: Amount
        var currency: String
    }

    var instructedAmount: InstructedAmount
    /// The whole entry, unchanged.
    var granted: JSONValue

    enum CodingKeys: String, CodingKey {
        case instructedAmount
    }

    init(from decoder: any Decoder) throws {
        instructedAmount = try decoder.container(keyedBy: CodingKeys.self)
            .decode(InstructedAmount.self, forKey: .instructedAmount)
        granted = try JSONValue(from: decoder)
    }
}

/// A decimal amount on the wire: a JSON number or a decimal string (`2500`, `"42.50"`).
struct Amount: Decodable, Sendable {
    var value: Decimal

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text: String
        if let string = try? container.decode(String.self) {
            text = string
        } else {
            text = String(describing: try container.decode(Double.self))
        }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a decimal amount: \(text)")
        }
        self.value = value
    }
}
