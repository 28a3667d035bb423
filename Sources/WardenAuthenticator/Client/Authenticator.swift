public import Foundation

/// The authenticator-device client: enrolls a device, fetches consents, answers transactions (SPEC §7).
///
/// ```swift
/// let authenticator = Authenticator(
///     transport: URLSessionTransport(),  // WardenAuthenticatorURLSession
///     keyStore: try FileKeyStore(directory: storeURL))
/// let enrollment = try await authenticator.enroll(
///     uri: scannedURI, identifier: deviceID, name: "Ada's phone",
///     pushCredentials: PushCredentials(service: .apns, token: apnsToken))
/// // later, for each push:
/// if let notification = AuthenticationNotification(userInfo: userInfo),
///    let enrollment = try await authenticator.enrollment(for: notification) {
///     let consent = try await authenticator.fetchConsent(for: notification, enrollment: enrollment)
///     // show consent.requestedDetails, then:
///     try await authenticator.allow(notification, enrollment: enrollment)
/// }
/// ```
///
/// The client is a value holding a transport and a key store; copies share both. Every method is `async` and
/// throws ``AuthenticatorError``.
public struct Authenticator: Sendable {
    /// Sends the HTTP requests.
    public var transport: any HTTPTransport
    /// Holds the enrollments and their device keys.
    public var keyStore: any KeyStore
    /// The clock used for JWT `iat`/`exp` (injectable for tests).
    public var now: @Sendable () -> Date

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - transport: The HTTP transport: `URLSessionTransport` of the WardenAuthenticatorURLSession module,
    ///     or any other ``HTTPTransport``.
    ///   - keyStore: Where enrollments and keys live; an ``InMemoryKeyStore`` by default (lost at exit).
    ///   - now: The clock for JWT times.
    public init(
        transport: any HTTPTransport, keyStore: any KeyStore = InMemoryKeyStore(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.transport = transport
        self.keyStore = keyStore
        self.now = now
    }

    /// The stored enrollment a notification was sent to (its ``AuthenticationNotification/enrollmentID``), or
    /// `nil` when this device does not hold it.
    public func enrollment(for notification: AuthenticationNotification) async throws -> Enrollment? {
        try await keyStore.enrollment(id: notification.enrollmentID)
    }

    /// Every enrollment in the key store.
    public func enrollments() async throws -> [Enrollment] {
        try await keyStore.enrollments()
    }

    // MARK: - Shared plumbing

    func key(for enrollment: Enrollment) async throws -> DeviceKey {
        guard let key = try await keyStore.key(enrollmentID: enrollment.id) else {
            throw AuthenticatorError.keyNotFound(enrollment.id)
        }
        return key
    }

    func url(_ base: URL, _ path: String) throws -> URL {
        let string = base.absoluteString.hasSuffix("/") ? base.absoluteString : base.absoluteString + "/"
        guard let url = URL(string: string + path) else {
            throw AuthenticatorError(kind: .invalidEnrollmentURI, detail: "cannot build a URL from \(string)\(path)")
        }
        return url
    }

    /// Sends `request`; returns the body when the status is one of `expected`, throws otherwise.
    @discardableResult
    func perform(_ request: TransportRequest, expecting expected: Set<Int>) async throws -> Data {
        var request = request
        request.headers["Accept"] = request.headers["Accept"] ?? "application/json"
        if request.body != nil { request.headers["Content-Type"] = "application/json" }
        let response: TransportResponse
        do {
            response = try await transport.send(request)
        } catch let error as AuthenticatorError {
            throw error
        } catch {
            throw AuthenticatorError(kind: .transport, detail: "\(request.method) \(request.url): \(error)")
        }
        guard expected.contains(response.status) else {
            let serverError = try? JSONDecoder().decode(AuthenticatorError.ServerError.self, from: response.body)
            let meaningful = serverError.map { $0.errorCode != nil || $0.error != nil || $0.message != nil } ?? false
            throw AuthenticatorError(
                kind: meaningful || response.status >= 400 ? .server : .invalidResponse, status: response.status,
                serverError: meaningful ? serverError : nil, detail: "\(request.method) \(request.url.path)")
        }
        return response.body
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data, context: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw AuthenticatorError(kind: .invalidResponse, detail: "\(context): \(error)")
        }
    }

    static func encode(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
