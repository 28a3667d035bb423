import AsyncHTTPClient
import Foundation
import Logging
import NIOHTTP1
import NIOSSL
import WardenCore
import WardenWire

/// Firebase Cloud Messaging HTTP v1 (SPEC §6.3, data message of §7.2; Google, "Send a message using FCM HTTP
/// v1 API"): `POST {endpoint}/v1/projects/{project_id}/messages:send` with `Authorization: Bearer` and
/// `{"message": {"token", "data", "android": {"priority": "high"}}}`; the access token is ``FCMAccessToken``.
///
/// Answers (the v1 error codes, `FcmError.errorCode`): 200 delivered; 404 `UNREGISTERED`, and 400
/// `INVALID_ARGUMENT` about `message.token`, mean the device token is dead; 401 drops the access token and
/// retries; 429 and 5xx retry; any other 4xx is permanent.
final class FCMProvider: PushProviderWithConnections {
    /// What is read from the settings before any connection exists: the service account, its key, the trust
    /// roots (used for both `token_uri` and the endpoint).
    struct Setup {
        var settings: WardenConfiguration.FCMSettings
        var account: FCMServiceAccount
        var key: JWSKey
        var tls: TLSConfiguration

        init(settings: WardenConfiguration.FCMSettings) throws {
            self.settings = settings
            account = try FCMServiceAccount(contentsOfFile: settings.serviceAccountFile)
            do {
                key = try JWSKey(pushServicePEM: account.privateKey, kid: account.privateKeyID, alg: .rs256)
            } catch {
                throw PushConfigurationError(
                    description: "--fcm-service-account \(settings.serviceAccountFile): private_key is not an RSA "
                        + "private key in PEM (\(error))")
            }
            guard let scheme = URL(string: account.tokenURI)?.scheme, ["https", "http"].contains(scheme) else {
                throw PushConfigurationError(
                    description: "--fcm-service-account \(settings.serviceAccountFile): token_uri is not a URL")
            }
            tls = try OutboundTLS.configuration(caFile: settings.caFile, flag: "--fcm-ca-file")
        }
    }

    let name = "fcm"
    private let sendURL: String
    private let accessTokens: FCMAccessToken
    private let httpClient: HTTPClient

    init(_ setup: Setup, logger: Logger) {
        let endpoint = setup.settings.endpoint.absoluteString
        let project = PushHTTP.percentEncoded(setup.account.projectID)
        sendURL =
            (endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint) + "/v1/projects/\(project)/messages:send"
        httpClient = PushHTTP.makeClient(tls: setup.tls)
        accessTokens = FCMAccessToken(account: setup.account, key: setup.key, httpClient: httpClient, logger: logger)
    }

    func send(_ push: DevicePush, transactionToken: String) async throws {
        let accessToken = try await accessTokens.current()
        var headers = HTTPHeaders()
        headers.add(name: "Authorization", value: "Bearer " + accessToken)
        headers.add(name: "Content-Type", value: "application/json")
        let message: JSONValue = [
            "message": [
                "token": .string(push.pushToken),
                "data": .object(push.fcmData(transactionToken: transactionToken).mapValues(JSONValue.string)),
                "android": ["priority": "high"],
            ]
        ]
        let response = try await PushHTTP.post(sendURL, headers: headers, body: message.serialized, on: httpClient)
        let error = response.json?["error"]
        let status = error?["status"]?.stringValue ?? ""
        let reason = [status, error?["message"]?.stringValue ?? ""].filter { !$0.isEmpty }.joined(separator: ": ")
        switch response.status {
        case 401:
            await accessTokens.discard(accessToken)
            throw PushServiceError(service: name, status: response.status, reason: reason)
        case 404 where Self.errorCodes(of: error).contains("UNREGISTERED"):
            throw PushRejection.unregistered(reason: "UNREGISTERED")
        case 400 where status == "INVALID_ARGUMENT" && Self.isAboutTheDeviceToken(error):
            throw PushRejection.unregistered(reason: reason)
        default:
            try PushHTTP.check(response.status, service: name, reason: reason)
        }
    }

    func shutdown() async throws {
        try await httpClient.shutdown()
    }

    /// The `errorCode`s of the `FcmError` details of an error.
    private static func errorCodes(of error: JSONValue?) -> [String] {
        (error?["details"]?.arrayValue ?? []).compactMap { $0["errorCode"]?.stringValue }
    }

    /// Whether an `INVALID_ARGUMENT` error names the device token: a `BadRequest` field violation of
    /// `message.token`, or a message about the registration token.
    private static func isAboutTheDeviceToken(_ error: JSONValue?) -> Bool {
        let fields = (error?["details"]?.arrayValue ?? []).flatMap { detail in
            (detail["fieldViolations"]?.arrayValue ?? []).compactMap { $0["field"]?.stringValue }
        }
        let message = error?["message"]?.stringValue ?? ""
        return fields.contains("message.token") || message.localizedCaseInsensitiveContains("registration token")
    }
}
