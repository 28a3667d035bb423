import Foundation
import Testing
import WardenAuthenticator
import WardenWire

@Suite struct EnrollmentURITests {
    static let uri =
        "otpauth://totp/Warden:ada%40example.com?secret=JBSWY3DPEHPK3PXP&enrollment_tx_id=tkt_123"
        + "&issuer=Warden&id=dev_abc123&base_url=https%3A%2F%2Fwarden.example%3A8443%2F"
        + "&algorithm=sha1&digits=6&counter=0&period=30"

    @Test func parsesTheSpecURI() throws {
        let parsed = try #require(EnrollmentURI(Self.uri))
        #expect(parsed.ticketID == "tkt_123")
        #expect(parsed.baseURL.absoluteString == "https://warden.example:8443/")
        #expect(parsed.enrollmentID == "dev_abc123")
        #expect(parsed.issuer == "Warden")
        #expect(parsed.accountName == "ada@example.com")
        #expect(parsed.secret == "JBSWY3DPEHPK3PXP")
        #expect(parsed.algorithm == .sha1)
        #expect(parsed.digits == 6)
        #expect(parsed.period == 30)
        #expect(parsed.counter == 0)
    }

    @Test func doubleEncodedBaseURLAndMissingSlash() throws {
        let uri = "otpauth://totp/Warden:ada?enrollment_tx_id=t&base_url=https%253A%252F%252Fid.example.com%252Ftenant"
        let parsed = try #require(EnrollmentURI(uri))
        #expect(parsed.baseURL.absoluteString == "https://id.example.com/tenant/")
        #expect(parsed.issuer == "Warden")
        #expect(parsed.digits == 6)
        #expect(parsed.secret == nil)
        #expect(parsed.enrollmentID == nil)
    }

    @Test(arguments: [
        "",
        "https://warden.example/",
        "otpauth://hotp/Warden:ada?enrollment_tx_id=t&base_url=https%3A%2F%2Fw.example%2F",
        "otpauth://totp/Warden:ada?base_url=https%3A%2F%2Fw.example%2F",
        "otpauth://totp/Warden:ada?enrollment_tx_id=t",
        "otpauth://totp/Warden:ada?enrollment_tx_id=t&base_url=ftp%3A%2F%2Fw.example%2F",
        "otpauth://totp/Warden:ada?enrollment_tx_id=t&base_url=not%20a%20url",
    ])
    func rejects(_ uri: String) {
        #expect(EnrollmentURI(uri) == nil)
    }
}
