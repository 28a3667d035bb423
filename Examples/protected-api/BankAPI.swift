import Foundation
import Hummingbird
import NIOCore
import WardenResourceServer
import WardenWire

/// The demo bank's two endpoints behind Warden's access tokens: `GET /balance` (scope `read:balance`) and
/// `POST /transfers` (scope `transfer:funds`, and a `money_transfer` authorization detail in the token covering
/// the order), and the RFC 9728 metadata at `/.well-known/oauth-protected-resource`. The SDK checks the tokens
/// and scopes; the bank's own rule is which authorization detail covers a transfer.
struct BankAPI: Sendable {
    let server: ProtectedResource

    /// The largest body `POST /transfers` reads.
    static let maximumBodySize = 16 * 1024

    func router() -> Router<BasicAccessTokenRequestContext> {
        let router = Router(context: BasicAccessTokenRequestContext.self)
        router.addProtectedResourceMetadata(server.metadata)
        let api = router.group().add(middleware: BearerTokenMiddleware(server))
        api.group("balance").add(middleware: RequiredScopeMiddleware("read:balance", server))
            .get { _, context in try balance(context.requireAccessToken()) }
        api.group("transfers").add(middleware: RequiredScopeMiddleware("transfer:funds", server))
            .post { request, context in try await transfer(request, token: context.requireAccessToken()) }
        return router
    }

    /// One line on standard output, unbuffered (a pipe reads it at once).
    static func log(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// `GET /balance`: the caller's (made-up) account balance.
    func balance(_ token: VerifiedAccessToken) -> Balance {
        Balance(owner: token.subject, account: "xxxxxxxxxxx1234", amount: 12_480, currency: "USD")
    }

    /// `POST /transfers`: executes the order when the token's `authorization_details` approve it (RFC 9396 §9:
    /// the resource server enforces them): same currency, at most the approved amount.
    func transfer(_ request: Request, token: VerifiedAccessToken) async throws -> EditedResponse<Receipt> {
        var request = request
        let body = try await request.collectBody(upTo: Self.maximumBodySize)
        let order: TransferOrder
        do {
            order = try JSONDecoder().decode(TransferOrder.self, from: Data(body.readableBytesView))
        } catch {
            throw ProtectedResourceError(
                status: .badRequest, code: .invalidRequest,
                description: "The body must be JSON {\"amount\": number, \"currency\": \"USD\", \"beneficiary\": text}",
                challenge: nil)
        }
        let approved = token.authorizationDetails(ofType: MoneyTransfer.type, as: MoneyTransfer.self)
        guard let detail = order.covering(approved) else {
            throw ProtectedResourceError.refusal(
                .forbidden, "insufficient_authorization_details",
                "No money_transfer authorization detail in the token approves \(order.amount) \(order.currency)",
                server)
        }
        let receipt = Receipt(
            transferID: "trf_" + UUID().uuidString.lowercased(), status: "executed", amount: order.amount,
            currency: order.currency, beneficiary: order.beneficiary, approvedBy: token.subject,
            clientID: token.clientID, authorizationDetail: detail.granted)
        Self.log(
            "transfer \(receipt.transferID): \(order.amount) \(order.currency) approved by \(token.subject ?? "?")")
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
