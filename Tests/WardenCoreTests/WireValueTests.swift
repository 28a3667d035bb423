import Foundation
import Testing
import WardenCore
import WardenWire

/// The typed wire values of the data model: open `RawRepresentable` sets that encode as their plain string, and
/// the identity of a CIBA request.
@Suite("Typed wire values")
struct WireValueTests {
    @Test func aClientEncodesItsValuesAsPlainStrings() throws {
        var client = Client(clientID: "c1", name: "App")
        client.appType = .regularWeb
        client.grantTypes = [.authorizationCode, .ciba]
        client.backchannelTokenDeliveryMode = .ping
        client.refreshToken = RefreshTokenConfiguration(rotationType: .rotating, expirationType: .expiring)
        var transfer = SessionTransferConfiguration()
        transfer.enforceDeviceBinding = .asn
        client.sessionTransfer = transfer
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(client)) as? [String: Any]
        #expect(json?["app_type"] as? String == "regular_web")
        #expect(json?["grant_types"] as? [String] == ["authorization_code", "urn:openid:params:grant-type:ciba"])
        #expect(json?["token_endpoint_auth_method"] as? String == "client_secret_post")
        #expect(json?["backchannel_token_delivery_mode"] as? String == "ping")
        let refresh = json?["refresh_token"] as? [String: Any]
        #expect(refresh?["rotation_type"] as? String == "rotating")
        #expect(refresh?["expiration_type"] as? String == "expiring")
        #expect((json?["session_transfer"] as? [String: Any])?["enforce_device_binding"] as? String == "asn")
        #expect(try JSONDecoder().decode(Client.self, from: JSONEncoder().encode(client)) == client)
    }

    @Test func unknownValuesAreRepresented() throws {
        let body = #"{"client_id": "c1", "name": "App", "app_type": "tv", "token_endpoint_auth_method": "tls"}"#
        let client = try JSONDecoder().decode(Client.self, from: Data(body.utf8))
        #expect(client.appType == AppType(rawValue: "tv"))
        #expect(client.tokenEndpointAuthMethod?.rawValue == "tls")
        #expect(client.tokenEndpointAuthMethod?.usesSecret == false)
        #expect(TokenEndpointAuthMethod.clientSecretBasic.usesSecret)
    }

    @Test func aRequestIDIsTheSHA256OfTheAuthRequestID() throws {
        let id = BackchannelRequest.ID(authRequestID: "abc")
        #expect(id.hex == SecretHash.sha256Hex("abc"))
        #expect(BackchannelRequest.ID(hex: id.hex) == id)
        #expect(BackchannelRequest.ID(authRequestID: "abd") != id)
        let leadingZeros = String(repeating: "0", count: 63) + "1"
        #expect(BackchannelRequest.ID(hex: leadingZeros)?.hex == leadingZeros)
    }

    @Test(arguments: ["", "abc", String(repeating: "A", count: 64), String(repeating: "g", count: 64)])
    func onlySixtyFourLowerCaseHexDigitsParse(_ text: String) {
        #expect(BackchannelRequest.ID(hex: text) == nil)
    }

    @Test func aRequestIDEncodesAsItsHex() throws {
        let id = BackchannelRequest.ID(authRequestID: "abc")
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == #"[""# + id.hex + #""]"#)
        #expect(try JSONDecoder().decode([BackchannelRequest.ID].self, from: data) == [id])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([BackchannelRequest.ID].self, from: Data(#"["x"]"#.utf8))
        }
    }

    @Test func aDecisionIsAnnouncedByItsRequestID() {
        let id = BackchannelRequest.ID(authRequestID: "abc")
        let announcement = ChangeAnnouncement.backchannelDecided(requestID: id)
        #expect(announcement.payload == "ciba:" + id.hex)
        #expect(ChangeAnnouncement(payload: announcement.payload) == announcement)
        #expect(ChangeAnnouncement(payload: "ciba:not-an-id") == nil)
    }
}
