import Foundation
import MCP
import WardenWire

/// The transfer a `transfer_funds` call asks for: the `money_transfer` authorization detail the user approves
/// (RFC 9396 §2, the reference document's shape, as `Examples/ciba-agent` sends it) and its binding message.
struct MoneyTransfer: Sendable, Equatable {
    var amount: Decimal
    var currency: String
    var beneficiary: String
    /// The beneficiary's account: an IBAN without spaces, upper case.
    var iban: String
    /// The text the beneficiary sees (the detail's `subject`); optional.
    var reference: String?
    /// The demo account the money leaves.
    var sourceAccount = "xxxxxxxxxxx1234"
    /// Tells this transfer's binding message apart from another one's for the same amount (`#` and 4 characters).
    var code: String

    /// Why the arguments were refused, for the tool's error result.
    struct Invalid: Error {
        let message: String
    }

    /// Reads the tool's arguments: `amount` (a positive number or decimal string, at most 2 decimals),
    /// `currency` (ISO 4217, three letters), `beneficiary` (1–70 characters), `iban` (ISO 13616: country,
    /// check digits that verify, 11–30 letters or digits; spaces ignored), `reference` (optional, ≤ 140).
    init(arguments: [String: Value], code: String = MoneyTransfer.freshCode()) throws(Invalid) {
        let text: String?
        switch arguments["amount"] {
        case .int(let value)?: text = String(value)
        case .double(let value)?: text = String(value)
        case .string(let value)?: text = value
        default: text = nil
        }
        guard let text, let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), amount > 0,
            amount <= 1_000_000_000, (amount * 100).isWhole
        else { throw Invalid(message: "amount must be a positive number with at most 2 decimals") }
        guard let currency = arguments["currency"]?.stringValue?.uppercased(),
            currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter })
        else { throw Invalid(message: "currency must be a three-letter ISO 4217 code, such as USD or EUR") }
        guard let beneficiary = arguments["beneficiary"]?.stringValue?.trimmingCharacters(in: .whitespaces),
            (1...70).contains(beneficiary.count)
        else { throw Invalid(message: "beneficiary must be the recipient's name (1–70 characters)") }
        guard let iban = arguments["iban"]?.stringValue.map(Self.normalizedIBAN), Self.isValidIBAN(iban) else {
            throw Invalid(message: "iban must be a valid IBAN (for example DE89 3704 0044 0532 0130 00)")
        }
        let reference = arguments["reference"]?.stringValue
        if let reference, reference.count > 140 { throw Invalid(message: "reference must be at most 140 characters") }
        self.amount = amount
        self.currency = currency
        self.beneficiary = beneficiary
        self.iban = iban
        self.reference = reference
        self.code = code
    }

    /// `2500 USD`.
    var summary: String { "\(amount) \(currency)" }

    /// `authorization_details[0]`: `{"type": "money_transfer", "instructedAmount": {"amount", "currency"},
    /// "sourceAccount", "destinationAccount", "beneficiary", "subject"?}`, the amount a JSON number.
    var authorizationDetail: JSONValue {
        var detail: [String: JSONValue] = [
            "type": "money_transfer",
            "instructedAmount": [
                "amount": .number(NSDecimalNumber(decimal: amount).doubleValue), "currency": .string(currency),
            ],
            "sourceAccount": .string(sourceAccount),
            "destinationAccount": .string(iban),
            "beneficiary": .string(beneficiary),
        ]
        if let reference { detail["subject"] = .string(reference) }
        return .object(detail)
    }

    /// The binding message on the user's device (SPEC §6.1: at most 64 characters from letters, digits, space
    /// and `+-_.,:#`): `Transfer 2500 USD to Hanna Herwitz #K7QD`, the name shortened to fit, other characters
    /// of it left out.
    var bindingMessage: String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " +-_.,:#"))
        let name = String(
            String.UnicodeScalarView(beneficiary.unicodeScalars.filter { $0.isASCII && allowed.contains($0) }))
        let head = "Transfer \(summary) to "
        let tail = " #\(code)"
        return head + String(name.prefix(max(0, 64 - head.count - tail.count))) + tail
    }

    /// Four characters from an alphabet without look-alikes.
    static func freshCode() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        return String((0..<4).map { _ in alphabet.randomElement()! })
    }

    static func normalizedIBAN(_ text: String) -> String {
        text.filter { !$0.isWhitespace }.uppercased()
    }

    /// ISO 13616: two letters, two digits, 11–30 letters or digits, and the check digits verify (ISO 7064
    /// MOD 97-10: the rearranged number modulo 97 is 1).
    static func isValidIBAN(_ iban: String) -> Bool {
        let characters = Array(iban)
        guard (15...34).contains(characters.count),
            characters.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }),
            characters[0].isLetter, characters[1].isLetter, characters[2].isNumber, characters[3].isNumber
        else { return false }
        var remainder = 0
        for character in characters[4...] + characters[..<4] {
            let value = character.isNumber ? Int(String(character))! : Int(character.asciiValue! - 55)
            remainder = (remainder * (value < 10 ? 10 : 100) + value) % 97
        }
        return remainder == 1
    }
}

extension Decimal {
    /// Whether the value has no fractional part.
    fileprivate var isWhole: Bool {
        var value = self
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 0, .plain)
        return rounded == self
    }
}
