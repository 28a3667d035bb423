import Testing
import WardenCore
import WardenWire

/// ``EmailAddress``: the addr-spec subset the Management API accepts (SPEC §9, §11).
@Suite("EmailAddress")
struct EmailAddressTests {
    @Test(arguments: [
        "alice@example.com", "0@0.com", "first.last+tag@sub.example.co.uk", "o'brien@example.ie",
        "x!#$%&'*+-/=?^_`{|}~@example.com", "a@xn--bcher-kva.example", "a@a-b.c1",
        String(repeating: "l", count: 64) + "@example.com",
    ])
    func accepts(address: String) {
        #expect(EmailAddress.isValid(address))
    }

    @Test(arguments: [
        "0@0.com*", "0@.", "0@", "@example.com", "no-at-sign", "a@@example.com", "a@b@example.com",
        "a@example", "a@localhost", ".a@example.com", "a.@example.com", "a..b@example.com", "a b@example.com",
        "a@exa mple.com", "a@-example.com", "a@example-.com", "a@example..com", "a@example.com.", "a@1.2.3.4",
        "a@[127.0.0.1]", "\"quoted\"@example.com", "a(comment)@example.com", "jörg@example.com", "a@bücher.de",
        "a@example.com\n", String(repeating: "l", count: 65) + "@example.com",
        "a@" + String(repeating: "d", count: 64) + ".com",
        "a@" + Array(repeating: String(repeating: "d", count: 60), count: 5).joined(separator: ".") + ".com",
    ])
    func refuses(address: String) {
        #expect(!EmailAddress.isValid(address))
    }
}
