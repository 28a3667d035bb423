import Foundation
import Testing
import WardenXMLSecurity

/// One test per way of getting a signed message to say something its signer did not: each is refused with the
/// check it fails, or (comment truncation, wrapping) the value read is the signed one.
@Suite struct TamperingTests {
    static let signed = Fixtures.text("xmlsec1-rsa-sha256.xml")

    func verifyAssertion(
        _ xml: String, certificate: XMLSignatureCertificate = Fixtures.rsaCertificate,
        policy: XMLSignaturePolicy = XMLSignaturePolicy()
    ) throws -> VerifiedXMLElement {
        try SecureXMLDocument(xml).assertion.verifySignature(trusting: certificate, policy: policy)
    }

    func replacing(_ target: String, with replacement: String, in xml: String = signed) -> String {
        precondition(xml.contains(target), "fixture lacks \(target)")
        return xml.replacingOccurrences(of: target, with: replacement)
    }

    @Test func changedTextInsideTheSignedElement() {
        let xml = replacing(
            ">user@evil.com.example.com</saml:NameID>", with: ">admin@example.com</saml:NameID>")
        #expect(throws: XMLSecurityError.signatureInvalid) { try verifyAssertion(xml) }
    }

    @Test func changedAttributeInsideTheSignedElement() {
        let xml = replacing(#"NotOnOrAfter="2030-01-01T01:00:00Z""#, with: #"NotOnOrAfter="2099-01-01T01:00:00Z""#)
        #expect(throws: XMLSecurityError.signatureInvalid) { try verifyAssertion(xml) }
    }

    @Test func changedSignatureValue() {
        let xml = replacing("<ds:SignatureValue>", with: "<ds:SignatureValue>AAAA")
        #expect(throws: XMLSecurityError.signatureInvalid) { try verifyAssertion(xml) }
    }

    /// Signed by another key, with that key's certificate in KeyInfo: KeyInfo is never used, only the pinned one.
    @Test func signatureByAnotherKey() throws {
        let xml = try Fixtures.wardenSignedResponse(Fixtures.otherRSAIdentity)
        #expect(throws: XMLSecurityError.signatureInvalid) { try verifyAssertion(xml) }
        _ = try verifyAssertion(xml, certificate: Fixtures.otherRSACertificate)
    }

    /// The message's KeyInfo names another certificate: irrelevant, the pinned key verifies.
    @Test func keyInfoIsIgnored() throws {
        let other = Fixtures.text("other-rsa-cert.pem").split(separator: "\n").filter { !$0.hasPrefix("-----") }
            .joined(separator: "\n")
        let start = Self.signed.range(of: "<ds:X509Certificate>")!.upperBound
        let end = Self.signed.range(of: "</ds:X509Certificate>")!.lowerBound
        let xml = Self.signed.replacingCharacters(in: start..<end, with: other)
        _ = try verifyAssertion(xml)
        #expect(throws: XMLSecurityError.signatureInvalid) {
            try verifyAssertion(xml, certificate: Fixtures.otherRSACertificate)
        }
    }

    @Test func unsignedElement() {
        #expect(throws: XMLSecurityError.signatureMissing) { try verifyAssertion(Fixtures.unsignedResponse) }
    }

    @Test func twoSignatures() throws {
        let signature = try #require(Self.signature(of: Self.signed))
        let xml = replacing("<saml:Subject>", with: signature + "<saml:Subject>")
        #expect(throws: XMLSecurityError.multipleSignatures) { try verifyAssertion(xml) }
    }

    // MARK: Signature wrapping

    /// An evil Assertion with the signed one's ID, the signed one moved into Extensions: two elements, one ID.
    @Test func wrappingWithTheSameID() throws {
        let original = try #require(Self.assertion(of: Self.signed))
        let evil = replacing(
            ">user@evil.com.example.com</saml:NameID>", with: ">admin@example.com</saml:NameID>",
            in: original)
        var xml = Self.signed.replacingOccurrences(of: original, with: evil)
        xml = xml.replacingOccurrences(of: "<samlp:Extensions>", with: "<samlp:Extensions>" + original)
        #expect(throws: XMLSecurityError.duplicateID("_assertion1")) { try SecureXMLDocument(xml) }
    }

    /// The same with `xml:id` on the evil element instead of `ID`.
    @Test func wrappingWithAnXMLID() {
        let xml = replacing(
            "<samlp:Extensions>", with: #"<samlp:Extensions><saml:Assertion xml:id="_assertion1"/>"#)
        #expect(throws: XMLSecurityError.duplicateID("_assertion1")) { try SecureXMLDocument(xml) }
    }

    /// The signed Assertion moved into Extensions and an unsigned evil Assertion where a reader looks: the evil one
    /// has no signature, and verifying the moved one hands back the signed content, never the evil one's.
    @Test func wrappingWithTheSignedElementMoved() throws {
        let original = try #require(Self.assertion(of: Self.signed))
        let evil =
            #"<saml:Assertion ID="_evil"><saml:Subject><saml:NameID>admin@example.com</saml:NameID></saml:Subject></saml:Assertion>"#
        var xml = Self.signed.replacingOccurrences(of: original, with: evil)
        xml = xml.replacingOccurrences(of: "<samlp:Extensions>", with: "<samlp:Extensions>" + original)
        let document = try SecureXMLDocument(xml)
        let evilElement = try #require(document.element(withID: "_evil"))
        #expect(throws: XMLSecurityError.signatureMissing) {
            try evilElement.verifySignature(trusting: Fixtures.rsaCertificate)
        }
        let verified = try document.assertion.verifySignature(trusting: Fixtures.rsaCertificate)
        #expect(verified.element.text(of: "Subject", "NameID") == "user@evil.com.example.com")
        #expect(verified.element.firstChild(named: "Extensions", namespaceURI: XMLNamespace.samlProtocol) == nil)
    }

    /// The evil Assertion carries a copy of the real Signature (which points at `#_assertion1`).
    @Test func wrappingWithTheSignatureCopiedIntoTheEvilElement() throws {
        let signature = try #require(Self.signature(of: Self.signed))
        let original = try #require(Self.assertion(of: Self.signed))
        let evil =
            #"<saml:Assertion ID="_evil"><saml:Issuer>https://idp.example/metadata</saml:Issuer>"# + signature
            + "<saml:Subject><saml:NameID>admin@example.com</saml:NameID></saml:Subject></saml:Assertion>"
        let xml = Self.signed.replacingOccurrences(of: original, with: original + evil)
        let evilElement = try #require(try SecureXMLDocument(xml).element(withID: "_evil"))
        #expect(throws: XMLSecurityError.referenceURIMismatch(expected: "#_evil", found: "#_assertion1")) {
            try evilElement.verifySignature(trusting: Fixtures.rsaCertificate)
        }
    }

    /// The Assertion's Signature moved up to the Response: it does not cover the Response.
    @Test func signatureOfAnotherElement() throws {
        let signature = try #require(Self.signature(of: Self.signed))
        var xml = Self.signed.replacingOccurrences(of: signature, with: "")
        xml = xml.replacingOccurrences(of: "<samlp:Status>", with: signature + "<samlp:Status>")
        let root = try SecureXMLDocument(xml).root
        #expect(throws: XMLSecurityError.referenceURIMismatch(expected: "#_response1", found: "#_assertion1")) {
            try root.verifySignature(trusting: Fixtures.rsaCertificate)
        }
    }

    @Test(arguments: ["#_extra", "", "#_response1", "#xpointer(id('_assertion1'))", "#xpointer(/)"])
    func referenceURIPointingElsewhere(uri: String) {
        let xml = replacing(##"<ds:Reference URI="#_assertion1">"##, with: ##"<ds:Reference URI="\##(uri)">"##)
        #expect(throws: XMLSecurityError.referenceURIMismatch(expected: "#_assertion1", found: uri)) {
            try verifyAssertion(xml)
        }
        let noURI = replacing(##"<ds:Reference URI="#_assertion1">"##, with: "<ds:Reference>")
        #expect(throws: XMLSecurityError.referenceURIMismatch(expected: "#_assertion1", found: nil)) {
            try verifyAssertion(noURI)
        }
    }

    /// Signed correctly by xmlsec1, with a second Reference (to an element outside the Assertion).
    @Test func twoReferences() throws {
        let xml = Fixtures.text("xmlsec1-two-references.xml")
        #expect(throws: XMLSecurityError.referenceCount(2)) { try verifyAssertion(xml) }
    }

    /// Signed correctly by xmlsec1 with an XPath transform instead of enveloped-signature.
    @Test func xpathTransform() {
        let xml = Fixtures.text("xmlsec1-xpath-transform.xml")
        #expect(
            throws: XMLSecurityError.transformsNotAllowed([
                "http://www.w3.org/TR/1999/REC-xpath-19991116", "http://www.w3.org/2001/10/xml-exc-c14n#",
            ])
        ) { try verifyAssertion(xml) }
    }

    @Test(arguments: [
        // XSLT (arbitrary computation on the verifier's side).
        #"<ds:Transform Algorithm="http://www.w3.org/TR/1999/REC-xslt-19991116"/>"#,
        // XPath Filter 2.0.
        #"<ds:Transform Algorithm="http://www.w3.org/2002/06/xmldsig-filter2"/>"#,
        // Base64 and inclusive C14N.
        #"<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#base64"/>"#,
        #"<ds:Transform Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>"#,
        // Exclusive C14N with comments.
        #"<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#WithComments"/>"#,
    ])
    func disallowedTransform(transform: String) {
        let enveloped = #"<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>"#
        let xml = replacing(enveloped, with: enveloped + transform)
        do {
            _ = try verifyAssertion(xml)
            Issue.record("verified")
        } catch let error as XMLSecurityError {
            guard case .transformsNotAllowed(let found) = error else {
                Issue.record("expected transformsNotAllowed, got \(error)")
                return
            }
            #expect(found.count == 3)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func transformsOutOfOrderOrMissing() {
        let transforms = Self.signed.range(of: "<ds:Transforms>")!.lowerBound
        let end = Self.signed.range(of: "</ds:Transforms>")!.upperBound
        let none = Self.signed.replacingCharacters(in: transforms..<end, with: "")
        #expect(throws: XMLSecurityError.transformsNotAllowed([])) { try verifyAssertion(none) }
        let reversed = Self.signed.replacingCharacters(
            in: transforms..<end,
            with: #"<ds:Transforms><ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>"#
                + #"<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/></ds:Transforms>"#)
        #expect(
            throws: XMLSecurityError.transformsNotAllowed([
                "http://www.w3.org/2001/10/xml-exc-c14n#", "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
            ])
        ) { try verifyAssertion(reversed) }
    }

    /// InclusiveNamespaces is exclusive C14N's one parameter: allowed (the digest then no longer matches here).
    @Test func inclusiveNamespacesAllowed() {
        let c14n = #"<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>"#
        let xml = replacing(
            c14n,
            with:
                #"<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"><ec:InclusiveNamespaces xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="xs"/></ds:Transform>"#
        )
        #expect(throws: XMLSecurityError.signatureInvalid) { try verifyAssertion(xml) }
    }

    /// Signed correctly by xmlsec1 with RSA-SHA1 and SHA-1 (SPEC §16 refuses SHA-1): refused unless allowed.
    @Test func sha1UnlessAllowed() throws {
        let xml = Fixtures.text("xmlsec1-rsa-sha1.xml")
        #expect(throws: XMLSecurityError.signatureAlgorithmNotAllowed("http://www.w3.org/2000/09/xmldsig#rsa-sha1")) {
            try verifyAssertion(xml)
        }
        let verified = try verifyAssertion(xml, policy: XMLSignaturePolicy(allowsSHA1: true))
        #expect(verified.signatureAlgorithm == .rsaSHA1)
        #expect(verified.digestAlgorithm == .sha1)
        let sha1Digest = replacing(
            "http://www.w3.org/2001/04/xmlenc#sha256", with: "http://www.w3.org/2000/09/xmldsig#sha1")
        #expect(throws: XMLSecurityError.digestAlgorithmNotAllowed("http://www.w3.org/2000/09/xmldsig#sha1")) {
            try verifyAssertion(sha1Digest)
        }
    }

    @Test(arguments: [
        "http://www.w3.org/2001/10/xml-exc-c14n#WithComments", "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
        "http://www.w3.org/2006/12/xml-c14n11",
    ])
    func signedInfoCanonicalizationOtherThanExclusive(algorithm: String) {
        let xml = replacing(
            #"<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>"#,
            with: #"<ds:CanonicalizationMethod Algorithm="\#(algorithm)"/>"#)
        #expect(throws: XMLSecurityError.canonicalizationNotAllowed(algorithm)) { try verifyAssertion(xml) }
    }

    @Test func hmacSignatureMethod() {
        let hmac = "http://www.w3.org/2001/04/xmldsig-more#hmac-sha256"
        let xml = replacing("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256", with: hmac)
        #expect(throws: XMLSecurityError.signatureAlgorithmNotAllowed(hmac)) { try verifyAssertion(xml) }
    }

    /// Comment truncation: the IdP signed `user@evil.com.example.com`; a comment inserted into the NameID does not
    /// change the digest (C14N without comments), so the signature holds, and the value read is the signed one.
    @Test func commentInsertedIntoTheSignedNameID() throws {
        let xml = replacing(
            ">user@evil.com.example.com</saml:NameID>", with: ">user@evil.com<!---->.example.com</saml:NameID>")
        let verified = try verifyAssertion(xml)
        #expect(verified.element.text(of: "Subject", "NameID") == "user@evil.com.example.com")
        #expect(String(decoding: verified.signedBytes, as: UTF8.self).contains("<!--") == false)
        #expect(try SecureXMLDocument(xml).assertion.text(of: "Subject", "NameID") == "user@evil.com.example.com")
    }

    /// An entity declared in a DOCTYPE to smuggle content into a signed message: refused before any signature.
    @Test func doctypeInASignedMessage() {
        let xml = replacing(
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            with: #"<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>"#)
        #expect(throws: XMLSecurityError.doctypeForbidden) { try verifyAssertion(xml) }
    }

    // MARK: Fixture surgery

    static func between(_ start: String, _ end: String, in xml: String) -> String? {
        guard let lower = xml.range(of: start)?.lowerBound,
            let upper = xml.range(of: end, range: lower..<xml.endIndex)?.upperBound
        else { return nil }
        return String(xml[lower..<upper])
    }

    static func signature(of xml: String) -> String? { between("<ds:Signature", "</ds:Signature>", in: xml) }

    static func assertion(of xml: String) -> String? { between("<saml:Assertion ", "</saml:Assertion>", in: xml) }
}
