public import Foundation
public import WardenWire

/// A transaction sent to an enrolled device, waiting for the user's answer (SPEC §7.2): a **sign-in request** (a
/// login transaction, the second factor of a hosted sign-in, SPEC §12) or a **consent request** (a CIBA request
/// whose consent the device fetches, SPEC §7.3); ``kind`` tells which.
///
/// Build one from whatever delivered it, then answer it with an ``Authenticator`` (fetching the consent first for
/// a consent request):
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

    /// What a transaction asks the user, told by the presence of a consent id (`txlnkid`, SPEC §7.2, §12).
    public enum Kind: Sendable, Hashable {
        /// A login transaction (SPEC §12 "Push device(s)"): someone is signing in to a client as the user, who
        /// approves or rejects it. It has no consent: ``Authenticator/fetchConsent(for:enrollment:)`` throws
        /// ``AuthenticatorError/Kind/noConsent``; show ``clientName``, ``source`` and ``location`` instead.
        case signIn
        /// A CIBA request (SPEC §6, §7.3): fetch its consent (binding message, scopes, authorization details)
        /// with ``Authenticator/fetchConsent(for:enrollment:)`` and show it before asking.
        case consent
    }

    /// The text the push showed (APNs `aps.alert`; in the SPEC §7.5 listing Warden's `alert` extension, with the
    /// same title and body).
    public struct Alert: Sendable, Hashable {
        /// The title: the client's name for a consent request, `"{issuer label}: sign in"` for a sign-in request
        /// (SPEC §12).
        public var title: String?
        /// The body: the binding message of a consent request, `"Sign in to {client name}"` for a sign-in
        /// request (SPEC §12).
        public var body: String?

        /// Creates an alert.
        public init(title: String?, body: String?) {
            self.title = title
            self.body = body
        }
    }

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
    /// The consent id `cns_…` to fetch the request's details with (`txlnkid`); `nil` for a sign-in request.
    public var transactionLinkingID: String?
    /// The requesting browser or application and its OS (`s`), when known.
    public var source: AuthenticationSource?
    /// The requester's location (`l`), when known.
    public var location: AuthenticationLocation?
    /// What the push showed, when the payload carried it (an FCM data message carries none).
    public var alert: Alert?

    /// Creates a notification from its fields.
    public init(
        enrollmentID: String, transactionToken: String, challenge: String, startedAt: Date, issuerHost: String,
        transactionLinkingID: String? = nil, source: AuthenticationSource? = nil,
        location: AuthenticationLocation? = nil, alert: Alert? = nil
    ) {
        self.enrollmentID = enrollmentID
        self.transactionToken = transactionToken
        self.challenge = challenge
        self.startedAt = startedAt
        self.issuerHost = issuerHost
        self.transactionLinkingID = transactionLinkingID
        self.source = source
        self.location = location
        self.alert = alert
    }

    /// A sign-in request without a consent id, a consent request with one (SPEC §12: login transactions carry
    /// the §7.2 fields without `txlnkid`).
    public var kind: Kind { transactionLinkingID == nil ? .signIn : .consent }

    /// The binding message of a consent request as the push showed it (``Alert/body``), when the payload carried
    /// one; `nil` for a sign-in request. The consent's ``ConsentRequestedDetails/bindingMessage`` is the
    /// authoritative copy.
    public var bindingMessage: String? { kind == .consent ? alert?.body : nil }

    /// The name of the client that asks, as the push showed it: for a sign-in request the `{client name}` of the
    /// alert body `Sign in to {client name}` (SPEC §12), for a consent request the alert title (Warden titles a
    /// CIBA push with the client's name). `nil` when the payload had no alert, or a sign-in body of another form
    /// (show ``Alert/body`` as it is then).
    public var clientName: String? {
        var name: Substring
        switch kind {
        case .consent:
            guard let title = alert?.title else { return nil }
            name = Substring(title)
        case .signIn:
            let prefix = "sign in to "
            guard let body = alert?.body?.trimmingCharacters(in: .whitespacesAndNewlines),
                body.prefix(prefix.count).lowercased() == prefix
            else { return nil }
            name = body.dropFirst(prefix.count)
            while let last = name.last, "?.!".contains(last) { name.removeLast() }
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
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

    /// Parses an FCM data message: the SPEC §7.2 fields as top-level string values, `s` and `l` (and an `alert`,
    /// if a sender adds one) JSON-encoded. Returns `nil` when a required field is missing or the date does not
    /// parse.
    public init?(data: [String: String]) {
        self.init(fields: data.mapValues(JSONValue.string))
    }

    /// Parses a JSON body: a webhook or stream message (the APNs body plus `device`), an APNs payload, or a bare
    /// object of SPEC §7.2 fields (as in the SPEC §7.5 transaction list, with Warden's `alert` extension
    /// `{"title", "body"}`). Returns `nil` for anything else.
    public init?(json: Data) {
        guard let payload = try? JSONValue(parsing: json) else { return nil }
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
        } else if let string = mfa.stringValue, let decoded = (try? JSONValue(parsing: string))?.objectValue {
            fields = decoded
        } else {
            return nil
        }
        self.init(fields: fields)
        alert = Self.alert(aps?["alert"]) ?? alert
    }

    /// An alert object `{"title", "body"}`, or a bare string as its body (APNs allows both).
    private static func alert(_ value: JSONValue?) -> Alert? {
        if let body = value?.stringValue { return Alert(title: nil, body: body) }
        let alert = Alert(title: value?["title"]?.stringValue, body: value?["body"]?.stringValue)
        return alert.title == nil && alert.body == nil ? nil : alert
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
            if let string = value?.stringValue { return try? JSONValue(parsing: string) }
            return value
        }
        self.init(
            enrollmentID: enrollmentID, transactionToken: transactionToken, challenge: challenge,
            startedAt: startedAt, issuerHost: issuerHost,
            transactionLinkingID: fields["txlnkid"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 },
            source: AuthenticationSource(json: nested(fields["s"])),
            location: AuthenticationLocation(json: nested(fields["l"])), alert: Self.alert(nested(fields["alert"])))
    }

    /// The SPEC §7.2 field set of this notification, as a JSON object (`s` and `l` as objects), with the
    /// ``alert`` as Warden's SPEC §7.5 listing carries it, when known.
    public var fields: JSONValue {
        var object: [String: JSONValue] = [
            "dai": .string(enrollmentID), "txtkn": .string(transactionToken), "c": .string(challenge),
            "d": .string(ISO8601.string(from: startedAt)), "sh": .string(issuerHost),
        ]
        if let transactionLinkingID { object["txlnkid"] = .string(transactionLinkingID) }
        let encoder = JSONEncoder()
        if let source, let data = try? encoder.encode(source) {
            object["s"] = try? JSONValue(parsing: data)
        }
        if let location, let data = try? encoder.encode(location) {
            object["l"] = try? JSONValue(parsing: data)
        }
        if let alert {
            var members: [String: JSONValue] = [:]
            if let title = alert.title { members["title"] = .string(title) }
            if let body = alert.body { members["body"] = .string(body) }
            object["alert"] = .object(members)
        }
        return .object(object)
    }
}
