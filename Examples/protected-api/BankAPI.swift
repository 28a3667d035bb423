import Foundation
import Hummingbird
import NIOCore
import WardenClient

/// The demo bank's two endpoints: `GET /balance` (scope `read:balance`) and `POST /transfers` (scope
/// `transfer:funds`, and a `money_transfer` authorization detail in the token covering the order).
struct BankAPI: Sendable {
    let policy: BearerTokenPolicy

    /// The largest body `POST /transfers` reads.
    static let maximumBodySize = 16 * 1024

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("balance") { request, _ in try await balance(request) }
        router.post("transfers") { request, _ in try await transfer(request) }
        return router
    }

    /// One line on standard output, unbuffered (a pipe reads it at once).
    static func log(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// `GET /balance`: the caller's (made-up) account balance.
    func balance(_ request: Request) async throws -> Balance {
        let claims = try await policy.authorize(request, scope: "read:balance")
        return Balance(owner: claims.subject, account: "xxxxxxxxxxx1234", amount: 12_480, currency: "USD")
    }

    /// `POST /transfers`: executes the order when the token's `authorization_details` approve it (RFC 9396 §9:
    /// the resource server enforces them): same currency, at most the approved amount.
    func transfer(_ request: Request) async throws -> EditedResponse<Receipt> {
        let claims = try await policy.authorize(request, scope: "transfer:funds")
        var request = request
        let body = try await request.collectBody(upTo: Self.maximumBodySize)
        let order: TransferOrder
        do {
            order = try JSONDecoder().decode(TransferOrder.self, from: Data(body.readableBytesView))
        } catch {
            throw APIError.invalidBody(
                "The body must be JSON {\"amount\": number, \"currency\": \"USD\", \"beneficiary\": text}",
                realm: policy.audience)
        }
        guard let detail = order.covering(claims.authorizationDetails) else {
            throw APIError.insufficientAuthorizationDetails(
                "No money_transfer authorization detail in the token approves \(order.amount) \(order.currency)",
                realm: policy.audience)
        }
        let receipt = Receipt(
            transferID: "trf_" + UUID().uuidString.lowercased(), status: "executed", amount: order.amount,
            currency: order.currency, beneficiary: order.beneficiary, approvedBy: claims.subject,
            clientID: claims.clientID, authorizationDetail: detail)
        Self.log(
            "transfer \(receipt.transferID): \(order.amount) \(order.currency) approved by \(claims.subject ?? "?")")
        return EditedResponse(status: .created, response: receipt)
    }
}

/// The answer of `GET /balance`.
struct Balance: ResponseEncodable {
    let owner: String?
    let account: String
    let amount: Decimal
    let currency: String
}

/// The answer of `POST /transfers` (201).
struct Receipt: ResponseEncodable {
    let transferID: String
    let status: String
    let amount: Decimal
    let currency: String
    let beneficiary: String?
    let approvedBy: String?
    let clientID: String?
    /// The token's `money_transfer` entry that approved the order.
    let authorizationDetail: JSONValue

    enum CodingKeys: String, CodingKey {
        case transferID = "transfer_id"
        case status, amount, currency, beneficiary
        case approvedBy = "approved_by"
        case clientID = "client_id"
        case authorizationDetail = "authorization_detail"
    }
}
