import JWTKit
import WardenCore
import WardenServer
import WardenTesting
import WardenWire

extension TestWarden {
    /// A `private_key_jwt` client (SPEC §4) whose one registered key is `key`'s public half. It is stored with a
    /// secret hash too, as a client made before SPEC §4's enforcement was: only its method decides.
    func makeKeyedClient(
        key: ES256PrivateKey, grantTypes: [GrantType] = [.clientCredentials]
    ) async throws -> (id: String, secret: String) {
        try await makeClient(grantTypes: grantTypes) {
            $0.tokenEndpointAuthMethod = nil
            $0.clientAuthenticationMethods = .init(
                privateKeyJWT: .init(credentials: [
                    .init(id: "cred_1", credentialType: "public_key", name: "k", pem: key.publicKey.pemRepresentation)
                ]))
        }
    }

    /// The form fields of a `private_key_jwt` assertion (RFC 7523 §2.2) for `audience`.
    func assertionFields(
        key: ES256PrivateKey, clientID: String, audience: String
    ) async throws -> [(String, String)] {
        [
            ("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"),
            (
                "client_assertion",
                try await PrivateKeyJWTTests.assertion(
                    key: key, clientID: clientID, audience: audience, now: clock.now())
            ),
        ]
    }
}
