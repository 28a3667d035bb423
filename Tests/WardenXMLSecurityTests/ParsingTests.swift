import Foundation
import Testing
import WardenXMLSecurity

/// Parsing (SPEC §16: DTDs and external entities refused, messages ≤ 256 KB) and reading elements.
@Suite struct ParsingTests {
    @Test func readsNamesAttributesTextAndChildren() throws {
        let document = try SecureXMLDocument(Fixtures.unsignedResponse)
        let root = document.root
        #expect(root.localName == "Response")
        #expect(root.namespaceURI == XMLNamespace.samlProtocol)
        #expect(root.prefix == "samlp")
        #expect(root.id == "_response1")
        #expect(root.attribute("Destination") == "https://warden.example/login/callback?connection=idp")
        #expect(root.attribute("Missing") == nil)
        #expect(root.attributes.map(\.localName) == ["ID", "Version", "IssueInstant", "Destination", "InResponseTo"])
        #expect(root.children.map(\.localName) == ["Issuer", "Extensions", "Status", "Assertion"])
        #expect(
            root.firstChild(named: "Issuer", namespaceURI: Fixtures.saml)?.textContent == "https://idp.example/metadata"
        )
        // A child in another namespace is not found by the SAML name.
        #expect(root.firstChild(named: "Status", namespaceURI: Fixtures.saml) == nil)
        #expect(root.hasSignature == false)
        let assertion = try #require(document.element(withID: "_assertion1"))
        #expect(assertion.text(of: "Subject", "NameID") == "user@evil.com.example.com")
        #expect(assertion.children(named: "Conditions", namespaceURI: Fixtures.saml).count == 1)
        #expect(document.element(withID: "_nothing") == nil)
    }

    @Test func namespacedAttributes() throws {
        let root = try SecureXMLDocument(
            #"<a xmlns:x="urn:x" x:k="namespaced" k="plain" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xs:string"/>"#
        ).root
        #expect(root.attribute("k") == "plain")
        #expect(root.attribute("k", namespaceURI: "urn:x") == "namespaced")
        #expect(root.attribute("type") == nil)
        #expect(root.attribute("type", namespaceURI: "http://www.w3.org/2001/XMLSchema-instance") == "xs:string")
        #expect(root.attributes.count == 3)  // namespace declarations are not attributes
    }

    /// Comment truncation: a comment (or a processing instruction, or CDATA) inside a value splits libxml2's text
    /// nodes; the value read is still the whole string.
    @Test(arguments: [
        "<NameID>user@evil.com<!---->.example.com</NameID>",
        "<NameID>user@evil.com<!-- a comment -->.example.com</NameID>",
        "<NameID>user@evil.com<?pi x?>.example.com</NameID>",
        "<NameID>user@evil.com<![CDATA[.example]]>.com</NameID>",
        "<NameID>user@<!---->evil.com<!---->.example<!---->.com</NameID>",
    ])
    func commentsDoNotTruncateText(xml: String) throws {
        #expect(try SecureXMLDocument(xml).root.textContent == "user@evil.com.example.com")
    }

    @Test func textContentConcatenatesDescendants() throws {
        let root = try SecureXMLDocument("<a>x<b>y<c>z</c></b>&amp;&#x41;</a>").root
        #expect(root.textContent == "xyz&A")
    }

    static let doctypes = [
        // XXE: an external entity read from the file system.
        #"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>"#,
        // An external DTD fetched over the network.
        #"<!DOCTYPE x SYSTEM "http://127.0.0.1:9/evil.dtd"><x/>"#,
        // A parameter entity (out-of-band exfiltration).
        #"<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:9/p.dtd"> %p;]><x/>"#,
        // A harmless-looking DOCTYPE: refused all the same.
        "<!DOCTYPE x><x/>",
        #"<!DOCTYPE x [<!ATTLIST x ID ID #IMPLIED>]><x ID="a"/>"#,
    ]

    @Test(arguments: doctypes) func refusesEveryDoctype(xml: String) {
        #expect(throws: XMLSecurityError.doctypeForbidden) { try SecureXMLDocument(xml) }
    }

    /// Billion laughs: 10^9 expansions if entities were expanded; refused at the DOCTYPE, at once.
    @Test func refusesBillionLaughs() {
        var xml = #"<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">"#
        for level in 1...9 {
            let previous = level == 1 ? "lol" : "lol\(level - 1)"
            xml += "<!ENTITY lol\(level) \"" + String(repeating: "&\(previous);", count: 10) + "\">"
        }
        xml += "]><lolz>&lol9;</lolz>"
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: XMLSecurityError.doctypeForbidden) { try SecureXMLDocument(xml) }
        }
        #expect(elapsed < .seconds(1))
    }

    @Test func refusesOversizedInput() throws {
        let limit = 256 * 1024
        let open = "<a>", close = "</a>"
        let exact = open + String(repeating: " ", count: limit - open.utf8.count - close.utf8.count) + close
        #expect(exact.utf8.count == limit)
        _ = try SecureXMLDocument(exact)
        #expect(throws: XMLSecurityError.tooLarge(limit: limit)) { try SecureXMLDocument(exact + " ") }
        #expect(throws: XMLSecurityError.tooLarge(limit: 10)) {
            try SecureXMLDocument("<a>0123456789</a>", limits: XMLParseLimits(maxBytes: 10))
        }
    }

    @Test func refusesDeepNesting() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        }
        _ = try SecureXMLDocument(nested(64))
        #expect(throws: XMLSecurityError.tooDeep(limit: 64)) { try SecureXMLDocument(nested(65)) }
        #expect(throws: XMLSecurityError.tooDeep(limit: 64)) { try SecureXMLDocument(nested(20_000)) }
        #expect(throws: XMLSecurityError.tooDeep(limit: 3)) {
            try SecureXMLDocument(nested(4), limits: XMLParseLimits(maxDepth: 3))
        }
    }

    @Test func refusesOtherEncodings() {
        // Latin-1 bytes (not UTF-8), UTF-16 with a byte-order mark, a lone continuation byte.
        let inputs: [[UInt8]] = [
            Array("<a>caf".utf8) + [0xE9] + Array("</a>".utf8),
            [0xFF, 0xFE] + Array("<a/>".utf8.flatMap { [$0, 0] }),
            [0x3C, 0x61, 0x3E, 0x80, 0x3C, 0x2F, 0x61, 0x3E],
        ]
        for bytes in inputs {
            #expect(throws: XMLSecurityError.notUTF8) { try SecureXMLDocument(bytes: bytes) }
        }
        // Valid UTF-8 that declares another encoding would be read differently: refused.
        #expect(throws: XMLSecurityError.notUTF8) {
            try SecureXMLDocument(#"<?xml version="1.0" encoding="ISO-8859-1"?><a>x</a>"#)
        }
        #expect(throws: Never.self) { try SecureXMLDocument(#"<?xml version="1.0" encoding="utf-8"?><a>é</a>"#) }
        #expect(throws: Never.self) { try SecureXMLDocument(bytes: [0xEF, 0xBB, 0xBF] + Array("<a/>".utf8)) }
    }

    @Test(arguments: [
        "", " ", "not xml", "<a>", "<a></b>", "<a/><b/>", "<a x='1' x='2'/>", "<a>&undefined;</a>", "<a>\u{0}</a>",
        "<?xml version='1.0'?>", "<p:a/>", "<a>]]></a>", "<!-- only a comment -->", "\u{FEFF}",
    ])
    func refusesMalformedInput(xml: String) {
        #expect(throws: XMLSecurityError.malformed) { try SecureXMLDocument(xml) }
    }

    @Test func refusesRandomBytesWithoutCrashing() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...64, using: &generator)).map { _ in UInt8.random(in: 0...255) }
            _ = try? SecureXMLDocument(bytes: bytes)
        }
    }

    /// Two elements with one ID: whichever a lookup or a Reference found, the other could be read. Refused for the
    /// whole document.
    @Test func refusesDuplicateIDs() {
        #expect(throws: XMLSecurityError.duplicateID("x")) {
            try SecureXMLDocument(#"<r><a ID="x"/><b><c ID="x"/></b></r>"#)
        }
        #expect(throws: XMLSecurityError.duplicateID("x")) {
            try SecureXMLDocument(#"<r><a xml:id="x"/><b ID="x"/></r>"#)
        }
    }

    @Test func findsOnlyIDAttributes() throws {
        let document = try SecureXMLDocument(#"<r><a xml:id="one"/><b ID="two"/><c Id="three"/><d id="four"/></r>"#)
        #expect(document.element(withID: "one") == nil)
        #expect(document.element(withID: "two")?.localName == "b")
        #expect(document.element(withID: "three") == nil)
        #expect(document.element(withID: "four") == nil)
    }

    /// Exclusive XML Canonicalization 1.0 §3 without comments: only visibly used namespaces, sorted attributes,
    /// no comments, empty elements as start-end pairs.
    @Test func canonicalizesExclusivelyWithoutComments() throws {
        let document = try SecureXMLDocument(
            #"<root xmlns:a="urn:a" xmlns:b="urn:b"><a:child b="2"   a='1'><!-- c --><x/>t&amp;&#x3c;</a:child></root>"#
        )
        let child = document.root.children[0]
        let expected = #"<a:child xmlns:a="urn:a" a="1" b="2"><x></x>t&amp;&lt;</a:child>"#
        #expect(String(decoding: try child.canonicalized(), as: UTF8.self) == expected)
    }

    @Test func serializesWithoutChangingTheTree() throws {
        let document = try SecureXMLDocument(Fixtures.text("xmlsec1-rsa-sha256.xml"))
        let again = try SecureXMLDocument(bytes: try document.serialized())
        #expect(try again.root.canonicalized() == (try document.root.canonicalized()))
        _ = try again.assertion.verifySignature(trusting: Fixtures.rsaCertificate)
    }

    @Test func handlesAreUsableFromManyTasks() async throws {
        let document = try SecureXMLDocument(Fixtures.text("xmlsec1-rsa-sha256.xml"))
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let verified = try document.assertion.verifySignature(trusting: Fixtures.rsaCertificate)
                    return verified.element.text(of: "Subject", "NameID") ?? ""
                }
            }
            for try await name in group { #expect(name == "user@evil.com.example.com") }
        }
    }
}
