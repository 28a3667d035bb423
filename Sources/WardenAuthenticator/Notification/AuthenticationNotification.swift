public import Foundation
public import WardenWire

/// A transaction sent to an enrolled device: a CIBA request waiting for the user's answer (SPEC §7.2).
///
/// Build one from whatever delivered it, then fetch the consent and answer with an ``Authenticator``:
///
/// - APNs: ``init(userInfo:)`` with the notification's `userInfo` (`{"aps": …, "mfa": {…}}`);
/// - FCM: ``init(data:)`` with the data message (`[String: String]`);
/// - webhook, stream and the pending-transaction list (SPEC §7.5): ``init(json:)`` with the JSON body.
///
/// Every initialiser returns `nil` for anything that is not a Warden transaction, so an app can try it on
/// every push it receives and handle the others itself.
public struct AuthenticationNotification: Sendable, Hashable {
    /// The APNs category of authenticator notifications (SPEC §7.2 `aps.category`).
    public static let category = "com.auth0.notification.authentication"

    /// The enrollment (device account) the transaction was sent to (`dai`).
    public var enrollmentID: String
    /// The transaction token (`txtkn`): authorizes fetching the consent and answering (SPEC §7.3, §7.4).
    public var transactionToken: String
    /// The challenge (`c`) the answer signs as its `sub` (SPEC §7.4).
    public var challenge: String
    /// When the request started (`d`, `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` UTC).
    public var startedAt: Date
    /// The issuer host, with `:port` when not the default (`sh`).
    public var issuerHost: String
    /// The consent id `cns_…` to fetch the request's details with (`txlnkid`), when the request has one.
    public var transactionLinkingID: String?
    /// The requesting browser or application and its OS (`s`), when known.
    public var source: AuthenticationSource?
    /// The requester's location (`l`), when known.
    public var location: AuthenticationLocation?
    /// The binding message shown as the push's text (`aps.alert.body`), when the payload carried one. The
    /// consent's ``ConsentRequestedDetails/bindingMessage`` is the authoritative copy.
    public var bindingMessage: String?

    /// Creates a notification from its fields.
    public init(
        enrollmentID: String, transactionToken: String, challenge: String, startedAt: Date, issuerHost: String,
        transactionLinkingID: String? = nil, source: AuthenticationSource? = nil,
        location: AuthenticationLocation? = nil, bindingMessage: String? = nil
    ) {
        self.enrollmentID = enrollmentID
        self.transactionToken = transactionToken
        self.challenge = challenge
        self.startedAt = startedAt
        self.issuerHost = issuerHost
        self.transactionLinkingID = transactionLinkingID
        self.source = source
        self.location = location
        self.bindingMessage = bindingMessage
    }
}

// MARK: - Parsing

extension AuthenticationNotification {
    /// Parses an APNs payload: `{"aps": {"alert": {"title", "body"}, "category", "sound"}, "mfa": {…}}`
    /// (SPEC §7.2). Returns `nil` when `mfa` or a required field is missing or ill-typed, or when `aps.category`
    /// is present and is not ``category``.
    public init?(userInfo: [AnyHashable: Any]) {
        guard let payload = JSONValue(any: userInfo) else { return nil }
        self.init(payload: payload)
    }

    /// Parses an FCM data message: the SPEC §7.2 fields as top-level string values, `s` and `l` JSON-encoded.
    /// Returns `nil` when a required field is missing or the date does not parse.
    public init?(data: [String: String]) {
        self.init(fields: data.mapValues(JSONValue.string))
    }

    /// Parses a JSON body: a webhook or stream message (the APNs body plus `device`), an APNs payload, or a bare
    /// object of SPEC §7.2 fields (as in the SPEC §7.5 transaction list). Returns `nil` for anything else.
    public init?(json: Data) {
        guard let payload = try? JSONDecoder().decode(JSONValue.self, from: json) else { return nil }
        self.init(payload: payload)
    }

    /// Parses an already decoded JSON value of any of the shapes ``init(json:)`` accepts.
    public init?(payload: JSONValue) {
        guard let object = payload.objectValue else { return nil }
        guard let mfa = object["mfa"] else {
            self.init(fields: object)
            return
        }
        let aps = object["aps"]?.objectValue
        if let category = aps?["category"], category.stringValue != Self.category { return nil }
        let fields: [String: JSONValue]
        if let dictionary = mfa.objectValue {
            fields = dictionary
        } else if let string = mfa.stringValue, let decoded = JSONValue(jsonString: string)?.objectValue {
            fields = decoded
        } else {
            return nil
        }
        self.init(fields: fields)
        let alert = aps?["alert"]
        bindingMessage = alert?["body"]?.stringValue ?? alert?.stringValue
    }

    /// Parses the SPEC §7.2 field set.
    init?(fields: [String: JSONValue]) {
        guard
            let enrollmentID = fields["dai"]?.stringValue, !enrollmentID.isEmpty,
            let transactionToken = fields["txtkn"]?.stringValue, !transactionToken.isEmpty,
            let challenge = fields["c"]?.stringValue, !challenge.isEmpty,
            let started = fields["d"]?.stringValue, let startedAt = ISO8601.date(from: started),
            let issuerHost = fields["sh"]?.stringValue, !issuerHost.isEmpty
        else { return nil }
        if let linking = fields["txlnkid"], !linking.isNull, linking.stringValue == nil { return nil }
        func nested(_ value: JSONValue?) -> JSONValue? {
            if let string = value?.stringValue { return JSONValue(jsonString: string) }
            return value
        }
        self.init(
            enrollmentID: enrollmentID, transactionToken: transactionToken, challenge: challenge,
            startedAt: startedAt, issuerHost: issuerHost,
            transactionLinkingID: fields["txlnkid"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
            source: AuthenticationSource(json: nested(fields["s"])),
            location: AuthenticationLocation(json: nested(fields["l"])))
    }

    /// The SPEC §7.2 field set of this notification, as a JSON object (`s` and `l` as objects).
    public var fields: JSONValue {
        var object: [String: JSONValue] = [
            "dai": .string(enrollmentID), "txtkn": .string(transactionToken), "c": .string(challenge),
            "d": .string(ISO8601.string(from: startedAt)), "sh": .string(issuerHost),
        ]
        if let transactionLinkingID { object["txlnkid"] = .string(transactionLinkingID) }
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        if let source, let data = try? encoder.encode(source) {
            object["s"] = try? decoder.decode(JSONValue.self, from: data)
        }
        if let location, let data = try? encoder.encode(location) {
            object["l"] = try? decoder.decode(JSONValue.self, from: data)
        }
        return .object(object)
    }
}
