import Foundation
import WardenCore
import WardenWire

/// One notification to one device (SPEC §7.2): the job payload of a ``DeliveryJob/Kind/push`` job and what
/// every provider renders. The transaction token is not stored here: it is a JWT minted when the
/// notification is sent (``TransactionToken``).
struct DevicePush: JobPayload, Equatable {
    /// The CIBA request or the sign-in push (``LoginChallenge``) the transaction belongs to.
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
    /// `txlnkid`: the consent id `cns_…` of a CIBA request; `nil` for a sign-in push (SPEC §12).
    var consentID: String?
    /// `s`: the browser and operating system of a sign-in, when known.
    var source: JSONValue?
    /// `l`: where a sign-in comes from, when known.
    var location: JSONValue?
    /// The alert title: who asks (CIBA), or "{issuer label}: sign in" (SPEC §12).
    var title: String
    /// The alert body: the binding message (CIBA), or "Sign in to {client name}" (SPEC §12).
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
        case source, location, title
        case bindingMessage = "binding_message"
    }

    /// The notification of `transaction` (of `request`, by `clientName`) to `enrollment`.
    init(
        transaction: DeviceTransaction, request: BackchannelRequest, enrollment: DeviceEnrollment, clientName: String,
        issuer: URL
    ) {
        self.init(
            transaction: transaction, requestedAt: request.createdAt, enrollment: enrollment, issuer: issuer,
            title: clientName, body: request.bindingMessage)
        consentID = request.consentID
    }

    /// The notification of a sign-in push (SPEC §12): no `txlnkid`; `s` and `l` when known; the alert
    /// "{issuer label}: sign in" / "Sign in to {client name}".
    init(
        transaction: DeviceTransaction, challenge: LoginChallenge, enrollment: DeviceEnrollment, clientName: String,
        issuer: URL
    ) {
        self.init(
            transaction: transaction, requestedAt: challenge.createdAt, enrollment: enrollment, issuer: issuer,
            title: EnrollmentTicket.issuerLabel + ": sign in", body: "Sign in to " + clientName)
        source = challenge.source
        location = challenge.location
    }

    private init(
        transaction: DeviceTransaction, requestedAt: Date, enrollment: DeviceEnrollment, issuer: URL, title: String,
        body: String
    ) {
        requestID = transaction.requestID
        transactionID = transaction.id
        enrollmentID = enrollment.id
        service = enrollment.pushCredentials?.service ?? PushService(rawValue: "")
        pushToken = enrollment.pushCredentials?.token ?? ""
        challenge = transaction.challenge
        self.requestedAt = ManagementResponse.timestamp(requestedAt).stringValue ?? ""
        issuerHost = Self.host(of: issuer)
        // Shown on the device as they are: cleaned of control and bidirectional characters (SPEC §11).
        self.title = DisplayText.clean(title)
        bindingMessage = DisplayText.clean(body)
    }

    /// The §7.2 fields, in the table's order: `txlnkid` only for a CIBA request, `s` and `l` when known.
    func fields(transactionToken: String) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [
            ("dai", .string(enrollmentID)), ("txtkn", .string(transactionToken)), ("c", .string(challenge)),
            ("d", .string(requestedAt)), ("sh", .string(issuerHost)),
        ]
        if let consentID { fields.append(("txlnkid", .string(consentID))) }
        if let source { fields.append(("s", source)) }
        if let location { fields.append(("l", location)) }
        return fields
    }

    /// The alert the push shows, `{"title", "body"}`: in the APNs body, and in each transaction a device lists
    /// (SPEC §7.5, a Warden extension) so a listed sign-in request names its application too.
    var alert: JSONValue {
        .object(["title": .string(title), "body": .string(bindingMessage)])
    }

    /// The APNs body of SPEC §7.2: `aps` (alert, category, sound) and `mfa` with the fields.
    func apnsBody(transactionToken: String) -> JSONValue {
        .object([
            "aps": .object([
                "alert": alert,
                "category": .string("com.auth0.notification.authentication"),
                "sound": .string("default"),
            ]),
            "mfa": .object(Dictionary(uniqueKeysWithValues: fields(transactionToken: transactionToken))),
        ])
    }

    /// The FCM data message of SPEC §7.2: every field a string at the top level (`s`, `l` JSON-encoded).
    func fcmData(transactionToken: String) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: fields(transactionToken: transactionToken).map { key, value in
                (key, value.stringValue ?? value.serialized)
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
