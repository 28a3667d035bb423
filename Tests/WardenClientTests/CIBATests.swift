import Foundation
import Testing
import WardenWire

@testable import WardenClient

/// CIBA with RAR (SPEC §6) through the SDK against a live server: the user's phone (the authenticator SDK)
/// approves or denies; the poller's requests are timed through the recording transport.
@Suite("WardenClient: CIBA")
struct CIBATests {
    static let details: [JSONValue] = [
        [
            "type": "money_transfer", "instructedAmount": ["amount": 2500, "currency": "USD"],
            "beneficiary": "Hanna Herwitz",
        ]
    ]

    /// Starts a push-channel request for the live user.
    static func start(_ sdk: LiveClient, expiry: Int = 120) async throws -> BackchannelAuthentication {
        try await sdk.client.backchannelAuthenticate(
            BackchannelAuthenticationRequest(
                loginHint: .issSub(issuer: sdk.live.issuer.absoluteString, subject: sdk.live.userID),
                scope: ["openid", "offline_access", "transfer:funds"], bindingMessage: "Pay 2500 USD #A-17",
                authorizationDetails: details, audience: sdk.live.apiIdentifier, requestedExpiry: expiry))
    }

    /// A live tenant, the CIBA client, the user's enrolled phone and a started request.
    static func withRequest(
        engine: Engine, expiry: Int = 120,
        _ body: @Sendable (LiveWarden, LiveClient, Device, BackchannelAuthentication) async throws -> Void
    ) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.ciba(live)
            let device = try await sdk.enrollDevice()
            try await body(live, sdk, device, try await Self.start(sdk, expiry: expiry))
        }
    }

    /// Waits for approval and returns the error the poller ended with.
    static func pollingError(_ sdk: LiveClient, _ started: BackchannelAuthentication) async -> WardenClientError? {
        await #expect(throws: WardenClientError.self) { _ = try await sdk.client.waitForApproval(started) }
    }

    /// Every gap between one poll's answer and the next poll is at least the interval then in force.
    static func expectPaced(_ polls: [RecordingTransport.Exchange], intervals: [Duration]) {
        for (index, pair) in zip(polls, polls.dropFirst()).enumerated() {
            #expect(pair.1.sent - pair.0.answered >= intervals[index], "poll \(index + 1) came too soon")
        }
    }

    @Test(arguments: LiveWarden.engines)
    func approvalYieldsTokensWithTheRequestedDetails(engine: Engine) async throws {
        try await Self.withRequest(engine: engine) { live, sdk, device, started in
            #expect(started.interval == 5)
            #expect(started.expiresIn == 120)
            #expect(started.bindingMessage == "Pay 2500 USD #A-17")
            try await device.answer(approve: true)
            let begun = ContinuousClock.now
            let tokens = try await sdk.client.waitForApproval(started)
            #expect(ContinuousClock.now - begun >= .seconds(5))
            #expect(tokens.authorizationDetails == Self.details)
            #expect(tokens.refreshToken != nil)
            #expect(sdk.transport.polls.count == 1)
            let claims = try await sdk.client.validateAccessToken(tokens.accessToken, audience: live.apiIdentifier)
            #expect(claims.subject == live.userID)
            #expect(claims.clientID == live.cibaClient.id)
            #expect(claims.authorizationDetails == Self.details)
            #expect(claims.scope.contains("transfer:funds"))
        }
    }

    /// Another poller (or a skewed clock) provokes `slow_down`: the SDK's poller then waits the server's raised
    /// interval and never polls faster than allowed.
    @Test(arguments: LiveWarden.engines)
    func slowDownRaisesTheIntervalAndThePollerNeverPollsFaster(engine: Engine) async throws {
        try await Self.withRequest(engine: engine) { live, sdk, device, started in
            let other = try await LiveClient.ciba(live)
            var events: [CIBAPollEvent] = []
            for try await event in sdk.client.poll(started) {
                events.append(event)
                switch event {
                case .pending where events.count == 1:
                    // Right after the poller's first poll, another poll of the same request.
                    let extra = await #expect(throws: WardenClientError.self) {
                        _ = try await other.client.waitForApprovalOnce(started)
                    }
                    #expect(extra == WardenClientError(error: "slow_down", status: 400))
                case .slowDown:
                    try await device.answer(approve: true)
                default:
                    break
                }
            }
            let intervals = events.compactMap { event -> Duration? in
                if case .slowDown(let interval) = event { return interval } else { return nil }
            }
            #expect(events.count == 3)
            #expect(intervals == [.seconds(15)])
            if case .approved(let tokens) = events.last { #expect(tokens.authorizationDetails == Self.details) }
            let polls = sdk.transport.polls
            #expect(polls.map(\.error) == [Optional("authorization_pending"), "slow_down", nil])
            Self.expectPaced(polls, intervals: [.seconds(5), .seconds(15)])
        }
    }

    @Test(arguments: LiveWarden.engines)
    func aDenialEndsThePollWithAccessDenied(engine: Engine) async throws {
        try await Self.withRequest(engine: engine) { live, sdk, device, started in
            try await device.answer(approve: false)
            let error = await Self.pollingError(sdk, started)
            #expect(error == WardenClientError(error: "access_denied", status: 400))
            #expect(sdk.transport.polls.count == 1)
        }
    }

    @Test(arguments: LiveWarden.engines)
    func anExpiredRequestEndsThePollWithExpiredToken(engine: Engine) async throws {
        try await Self.withRequest(engine: engine) { live, sdk, device, started in
            live.advanceClock(by: 121)
            let error = await Self.pollingError(sdk, started)
            #expect(error == WardenClientError(error: "expired_token", status: 400))
            #expect(sdk.transport.polls.count == 1)
        }
    }

    @Test(arguments: LiveWarden.engines)
    func thePollerDoesNotPollPastTheExpiry(engine: Engine) async throws {
        try await Self.withRequest(engine: engine, expiry: 3) { live, sdk, device, started in
            let error = await Self.pollingError(sdk, started)
            #expect(error == WardenClientError(error: "expired_token"))
            #expect(sdk.transport.polls.isEmpty)
        }
    }

    @Test(arguments: LiveWarden.engines)
    func cancellingThePollerEndsItPromptlyWithoutAnotherRequest(engine: Engine) async throws {
        try await Self.withRequest(engine: engine) { live, sdk, device, started in
            let client = sdk.client
            let waiting = Task { try await client.waitForApproval(started) }
            while sdk.transport.polls.isEmpty { try await Task.sleep(for: .milliseconds(50)) }
            try await Task.sleep(for: .seconds(1))
            let cancelled = ContinuousClock.now
            waiting.cancel()
            await #expect(throws: CancellationError.self) { _ = try await waiting.value }
            #expect(ContinuousClock.now - cancelled < .seconds(1))
            // Past the time of the next poll: none was sent.
            try await Task.sleep(for: .seconds(5))
            #expect(sdk.transport.polls.count == 1)
        }
    }

    @Test(arguments: LiveWarden.engines)
    func serverRefusalsCarryTheirCodeAndStatus(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            let sdk = try await LiveClient.ciba(live)
            let noDevice = await #expect(throws: WardenClientError.self) { _ = try await Self.start(sdk) }
            #expect(noDevice == WardenClientError(error: "invalid_request", status: 400))
            let unknownUser = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.client.backchannelAuthenticate(
                    BackchannelAuthenticationRequest(
                        loginHint: .issSub(issuer: live.issuer.absoluteString, subject: "auth0|nobody"),
                        scope: ["openid"], bindingMessage: "Hello"))
            }
            #expect(unknownUser == WardenClientError(error: "unknown_user_id", status: 400))
            let wrongSecret = try await LiveClient.discover(
                live, clientID: live.cibaClient.id, authentication: .clientSecretBasic("wrong"))
            let unauthenticated = await #expect(throws: WardenClientError.self) {
                _ = try await Self.start(wrongSecret)
            }
            #expect(unauthenticated == WardenClientError(error: "invalid_client", status: 401))
        }
    }
}

extension WardenClient {
    /// One poll of a request, outside any poller: the tokens, or the server's error.
    fileprivate func waitForApprovalOnce(_ authentication: BackchannelAuthentication) async throws -> TokenResponse {
        let response = try await postForm(
            configuration.metadata.tokenEndpoint,
            [("grant_type", "urn:openid:params:grant-type:ciba"), ("auth_req_id", authentication.authReqID)])
        return try Self.decodeSuccess(TokenResponse.self, from: response)
    }
}
