import WardenAuthenticator

/// The `money_transfer` authorization detail (RFC 9396), decoded from a consent with
/// `filterAuthorizationDetailsByType`.
///
/// Accepts the members of the reference documents' example (`instructedAmount`, `sourceAccount`,
/// `destinationAccount`, `beneficiary`, `subject`) and their RFC 9396 payment-initiation counterparts
/// (`debtorAccount`, `creditorAccount`, `creditorName`, `remittanceInformationUnstructured`). An entry that does
/// not decode is shown generically instead.
struct MoneyTransfer: AuthorizationDetailsType {
    static let type = "money_transfer"

    /// `instructedAmount`: the amount (a JSON number or a decimal string, kept as text) and its currency.
    struct Amount: Codable {
        var amount: String
        var currency: String

        enum CodingKeys: String, CodingKey {
            case amount, currency
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            currency = try container.decode(String.self, forKey: .currency)
            if let text = try? container.decode(String.self, forKey: .amount) {
                amount = text
            } else {
                amount = ConsentRendering.number(try container.decode(Double.self, forKey: .amount))
            }
        }
    }

    /// An account: a string, or an object naming it by `iban` or `number`.
    struct Account: Codable {
        var identifier: String

        enum CodingKeys: String, CodingKey {
            case iban, number
        }

        init(from decoder: any Decoder) throws {
            if let text = try? decoder.singleValueContainer().decode(String.self) {
                identifier = text
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            identifier =
                try container.decodeIfPresent(String.self, forKey: .iban)
                ?? container.decode(String.self, forKey: .number)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(identifier)
        }
    }

    var instructedAmount: Amount?
    var sourceAccount: Account?
    var debtorAccount: Account?
    var destinationAccount: Account?
    var creditorAccount: Account?
    var beneficiary: String?
    var creditorName: String?
    var subject: String?
    var remittanceInformationUnstructured: String?

    enum CodingKeys: String, CodingKey {
        case instructedAmount, sourceAccount, debtorAccount, destinationAccount, creditorAccount, beneficiary
        case creditorName, subject, remittanceInformationUnstructured
    }

    /// The labelled rows to show, each from the first present member of its candidates, and the members they
    /// used (the others are shown generically, so nothing the user grants goes unseen).
    var rows: (rows: [(label: String, value: String)], members: Set<String>) {
        let candidates: [(String, [(CodingKeys, String?)])] = [
            ("Amount", [(.instructedAmount, instructedAmount.map { "\($0.amount) \($0.currency)" })]),
            ("From", [(.sourceAccount, sourceAccount?.identifier), (.debtorAccount, debtorAccount?.identifier)]),
            (
                "To",
                [
                    (.destinationAccount, destinationAccount?.identifier),
                    (.creditorAccount, creditorAccount?.identifier),
                ]
            ),
            ("Beneficiary", [(.beneficiary, beneficiary), (.creditorName, creditorName)]),
            (
                "Subject",
                [(.subject, subject), (.remittanceInformationUnstructured, remittanceInformationUnstructured)]
            ),
        ]
        var rows: [(label: String, value: String)] = []
        var members: Set<String> = []
        for (label, options) in candidates {
            guard let (key, value) = options.first(where: { $0.1 != nil }), let value else { continue }
            rows.append((label, value))
            members.insert(key.rawValue)
        }
        return (rows, members)
    }
}
