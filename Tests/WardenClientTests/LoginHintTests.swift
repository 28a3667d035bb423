import Foundation
import Testing
import WardenClient
import WardenWire

/// The CIBA `login_hint` (SPEC §6.1) as the SDK sends it.
@Suite("WardenClient: login hint")
struct LoginHintTests {
    @Test func issSubIsTheSpecJSONObject() throws {
        let hint = LoginHint.issSub(issuer: "http://127.0.0.1:8080/", subject: "auth0|abc")
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(hint.parameterValue.utf8))
        #expect(decoded == .object(["format": "iss_sub", "iss": "http://127.0.0.1:8080/", "sub": "auth0|abc"]))
    }
}
