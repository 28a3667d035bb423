import Foundation
import WardenCore
import WardenWire

/// One notification to one device (SPEC §7.2): the job payload of a ``DeliveryJob/Kind/push`` job and what
/// every provider renders. The transaction token is not stored here: it is a JWT minted when the
/// notification is sent (``TransactionToken``).
struct DevicePush: JobPayload, Equatable {
    var requestID: BackchannelRequest.ID
    var transactionID: String
    /// `dai`: the device account.
    var enrollmentID: String
    /// The push service as enrolled (`APNS`, `GCM`, `FCM`, `STREAM`, `WEBHOOK`).
    var service: PushService
    /// The device's push token.
    var pushToken: String
    /// `c`.
    var challenge: String
    /// `d`: the request start, `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'`.
    var requestedAt: String
    /// `sh`: the issuer host, with `:port` when not the scheme's default.
    var issuerHost: String
    /// `txlnkid`: the consent id `cns_…`.
    var consentID: String
    /// The alert title: who asks.
    var title: String
    /// The alert body: the binding message.
    var bindingMessage: String

    enum CodingKeys: String, CodingKey {
        case requestID = "request_id"
        case transactionID = "transaction_id"
        case enrollmentID = "enrollment_id"
        case service
        case pushToken = "push_token"
        case challenge
        case requestedAt = "requested_at"
        case issuerHost = "issuer_host"
        case consentID = "consent_id"
        case title
        case bindingMessage = "binding_message"
    }

    /// The notification of `transaction` (of `request`, by `clientName`) to `enrollment`.
    init(
        transaction: DeviceTransaction, request: BackchannelRequest, enrollment: DeviceEnrollment, clientName: String,
        issuer: URL
    ) {
        requestID = request.id
        transactionID = transaction.id
        enrollmentID = enrollment.id
        service = enrollment.pushCredentials?.service ?? PushService(rawValue: "")
        pushToken = enrollment.pushCredentials?.token ?? ""
        challenge = transaction.challenge
        requestedAt = ManagementResponse.timestamp(request.createdAt).stringValue ?? ""
        issuerHost = Self.host(of: issuer)
        consentID = request.consentID
        // Shown on the device as they are: cleaned of control and bidirectional characters (SPEC §11).
        title = DisplayText.clean(clientName)
        bindingMessage = DisplayText.clean(request.bindingMessage)
    }

    /// The §7.2 fields, in the table's order (`s` and `l` are not known to Warden).
    func fields(transactionToken: String) -> [(String, JSONValue)] {
        [
            ("dai", .string(enrollmentID)), ("txtkn", .string(transactionToken)), ("c", .string(challenge)),
            ("d", .string(requestedAt)), ("sh", .string(issuerHost)), ("txlnkid", .string(consentID)),
        ]
    }

    /// The APNs body of SPEC §7.2: `aps` (alert, category, sound) and `mfa` with the fields.
    func apnsBody(transactionToken: String) -> JSONValue {
        .object([
            "aps": .object([
                "alert": .object(["title": .string(title), "body": .string(bindingMessage)]),
                "category": .string("com.auth0.notification.authentication"),
                "sound": .string("default"),
            ]),
            "mfa": .object(Dictionary(uniqueKeysWithValues: fields(transactionToken: transactionToken))),
        ])
    }

    /// The FCM data message of SPEC §7.2: every field a string at the top level.
    func fcmData(transactionToken: String) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: fields(transactionToken: transactionToken).compactMap { key, value in
                value.stringValue.map { (key, $0) }
            })
    }

    /// The webhook and stream body of SPEC §7.2: the APNs body plus `device`.
    func webhookBody(transactionToken: String) -> JSONValue {
        guard case .object(var members) = apnsBody(transactionToken: transactionToken) else { return .null }
        members["device"] = .object([
            "id": .string(enrollmentID), "service": .string(service.rawValue), "token": .string(pushToken),
        ])
        return .object(members)
    }

    /// The host of `issuer` with `:port` when the port is not the scheme's default.
    static func host(of issuer: URL) -> String {
        let host = issuer.host ?? "localhost"
        guard let port = issuer.port else { return host }
        let isDefault = (issuer.scheme == "https" && port == 443) || (issuer.scheme == "http" && port == 80)
        return isDefault ? host : "\(host):\(port)"
    }
}
