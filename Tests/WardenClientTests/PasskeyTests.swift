import Crypto
import Foundation
import Testing
import WardenClient
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

/// The SDK's passkey calls (SPEC §17 "Native API") against a live server, answered by a platform authenticator of
/// the test's own (P-256, attestation `none`) as `ASAuthorizationController` would answer: a sign-up makes the
/// account, a sign-in finds it, and a refused check surfaces as `invalid_grant`.
@Suite("WardenClient: passkeys")
struct PasskeyTests {
    /// A platform authenticator holding one P-256 passkey for the RP ID, talking for an app at `origin`.
    struct Platform {
        let relyingPartyID: String
        let origin: String
        let key = P256.Signing.PrivateKey()
        let credentialID = Data((0..<32).map { _ in UInt8.random(in: 0...255) })

        func clientData(_ type: String, _ challenge: PasskeyChallenge) -> Data {
            let text =
                #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge.challenge ?? Data()))","#
                + #""origin":"\#(origin)"}"#
            return Data(text.utf8)
        }

        func authenticatorData(flags: UInt8, counter: UInt32, attested: Data = Data()) -> Data {
            Data(SHA256.hash(data: Data(relyingPartyID.utf8))) + Data([flags])
                + withUnsafeBytes(of: counter.bigEndian) { Data($0) } + attested
        }

        /// `navigator.credentials.create()`: attestation `none`, UP, UV and AT set.
        func create(_ challenge: PasskeyChallenge) -> PasskeyCredential {
            let point = key.publicKey.x963Representation.dropFirst()
            let cose = CBOR.map([
                (CBOR.int(1), CBOR.int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
                (.int(-2), .bytes(Data(point.prefix(32)))), (.int(-3), .bytes(Data(point.suffix(32)))),
            ])
            let attested = Data(count: 16) + Data([0, UInt8(credentialID.count)]) + credentialID + cose.encoded
            let attestation = CBOR.map([
                (.text("fmt"), .text("none")), (.text("attStmt"), .map([])),
                (.text("authData"), .bytes(authenticatorData(flags: 0x45, counter: 0, attested: attested))),
            ])
            return PasskeyCredential(
                id: credentialID, attachment: "platform",
                response: .registration(
                    clientDataJSON: clientData("webauthn.create", challenge), attestationObject: attestation.encoded,
                    transports: ["internal"]))
        }

        /// `navigator.credentials.get()`: UP and UV set, the signature over `authenticatorData ‖ SHA-256(clientData)`.
        func get(_ challenge: PasskeyChallenge, userHandle: Data, counter: UInt32 = 1) throws -> PasskeyCredential {
            let clientData = clientData("webauthn.get", challenge)
            let authData = authenticatorData(flags: 0x05, counter: counter)
            let signature = try key.signature(for: authData + Data(SHA256.hash(data: clientData)))
            return PasskeyCredential(
                id: credentialID,
                response: .assertion(
                    clientDataJSON: clientData, authenticatorData: authData, signature: signature.derRepresentation,
                    userHandle: userHandle))
        }
    }

    /// The few CBOR items an attestation object uses (RFC 8949 §3).
    indirect enum CBOR {
        case int(Int)
        case bytes(Data)
        case text(String)
        case map([(CBOR, CBOR)])

        var encoded: Data {
            switch self {
            case .int(let value): value >= 0 ? Self.head(0, UInt64(value)) : Self.head(1, UInt64(-1 - value))
            case .bytes(let data): Self.head(2, UInt64(data.count)) + data
            case .text(let text): Self.head(3, UInt64(text.utf8.count)) + Data(text.utf8)
            case .map(let pairs):
                pairs.reduce(Self.head(5, UInt64(pairs.count))) { $0 + $1.0.encoded + $1.1.encoded }
            }
        }

        static func head(_ major: UInt8, _ value: UInt64) -> Data {
            switch value {
            case ..<24: Data([major << 5 | UInt8(value)])
            case ..<256: Data([major << 5 | 24, UInt8(value)])
            default: Data([major << 5 | 25, UInt8(value >> 8), UInt8(value & 0xFF)])
            }
        }
    }

    @Test(arguments: LiveWarden.engines)
    func aPasskeySignsUpThenSignsInThroughTheSDK(engine: Engine) async throws {
        try await LiveWarden.with(engine: engine) { live in
            var database = try #require(try await live.warden.runtime.store.connection(id: Connection.databaseID))
            database.options["authentication_methods"] = ["passkey": ["enabled": true]]
            try await live.warden.runtime.store.updateConnection(database)
            let clientID = try await live.warden.makeClient(grantTypes: [.webAuthn]) {
                $0.appType = .native
                $0.tokenEndpointAuthMethod = TokenEndpointAuthMethod.none
            }.id
            let sdk = try await LiveClient.discover(live, clientID: clientID).client
            let platform = Platform(
                relyingPartyID: live.issuer.host ?? "",
                origin: live.issuer.absoluteString.trimmingCharacters(
                    in: CharacterSet(charactersIn: "/")))

            let signUp = try await sdk.passkeySignUpChallenge(email: "sdk-passkey@example.com", name: "Sam")
            #expect(signUp.relyingPartyID == platform.relyingPartyID && signUp.userName == "sdk-passkey@example.com")
            let created = try await sdk.tokens(passkey: platform.create(signUp), challenge: signUp)
            #expect(created.idToken != nil)

            let signIn = try await sdk.passkeyLoginChallenge()
            let userHandle = try #require(signUp.userID)
            let tokens = try await sdk.tokens(
                passkey: try platform.get(signIn, userHandle: userHandle), challenge: signIn)
            #expect(tokens.accessToken != created.accessToken)

            // The same answer again: its session is spent.
            let replay = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.tokens(passkey: try platform.get(signIn, userHandle: userHandle), challenge: signIn)
            }
            #expect(replay == WardenClientError(error: "invalid_grant", status: 400))
            let taken = await #expect(throws: WardenClientError.self) {
                _ = try await sdk.passkeySignUpChallenge(email: "sdk-passkey@example.com")
            }
            #expect(taken == WardenClientError(error: "invalid_signup", status: 400))
        }
    }
}
