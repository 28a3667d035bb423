import Foundation
import Testing
import WardenXMLSecurity

/// Signing and verifying, and interoperability with the xmlsec1 command line (the field's reference tool).
@Suite struct SignatureTests {
    @Test func signsAndVerifiesWithRSA() throws {
        let signed = try SecureXMLDocument(try Fixtures.wardenSignedResponse())
        let assertion = signed.assertion
        #expect(assertion.hasSignature)
        // SAML Core §2.3.3: Issuer, then ds:Signature, then the rest.
        #expect(assertion.children.map(\.localName).prefix(3) == ["Issuer", "Signature", "Subject"])
        let verified = try assertion.verifySignature(trusting: Fixtures.rsaCertificate)
        #expect(verified.signatureAlgorithm == .rsaSHA256)
        #expect(verified.digestAlgorithm == .sha256)
        #expect(verified.certificateIndex == 0)
        #expect(verified.element.localName == "Assertion")
        #expect(verified.element.id == "_assertion1")
        #expect(verified.element.hasSignature == false)
        #expect(verified.element.text(of: "Subject", "NameID") == "user@evil.com.example.com")
        #expect(verified.signedBytes == (try verified.element.canonicalized()))
        let signature = try #require(assertion.firstChild(named: "Signature", namespaceURI: XMLNamespace.xmlDSig))
        let reference = signature.firstChild(named: "SignedInfo", namespaceURI: XMLNamespace.xmlDSig)?
            .firstChild(named: "Reference", namespaceURI: XMLNamespace.xmlDSig)
        #expect(reference?.attribute("URI") == "#_assertion1")
        let keyInfo = signature.firstChild(named: "KeyInfo", namespaceURI: XMLNamespace.xmlDSig)
        #expect(
            keyInfo?.firstChild(named: "X509Data", namespaceURI: XMLNamespace.xmlDSig)?
                .firstChild(named: "X509Certificate", namespaceURI: XMLNamespace.xmlDSig) != nil)
    }

    @Test func signsAndVerifiesWithECDSA() throws {
        #expect(Fixtures.ecIdentity.signatureAlgorithm == .ecdsaSHA256)
        let signed = try SecureXMLDocument(try Fixtures.wardenSignedResponse(Fixtures.ecIdentity))
        let verified = try signed.assertion.verifySignature(trusting: Fixtures.ecCertificate)
        #expect(verified.signatureAlgorithm == .ecdsaSHA256)
        #expect(throws: XMLSecurityError.signatureInvalid) {
            try signed.assertion.verifySignature(trusting: Fixtures.rsaCertificate)
        }
    }

    /// A Response whose Assertion is signed, itself signed: the outer verification hands back a Response whose
    /// Assertion still verifies.
    @Test func signsTheAssertionThenTheResponse() throws {
        let document = try SecureXMLDocument(Fixtures.unsignedResponse)
            .signing(elementWithID: "_assertion1", as: Fixtures.rsaIdentity)
            .signing(elementWithID: "_response1", as: Fixtures.rsaIdentity)
        #expect(document.root.children.map(\.localName).prefix(2) == ["Issuer", "Signature"])
        let response = try document.root.verifySignature(trusting: Fixtures.rsaCertificate).element
        let assertion = try #require(response.firstChild(named: "Assertion", namespaceURI: Fixtures.saml))
        let verified = try assertion.verifySignature(trusting: Fixtures.rsaCertificate)
        #expect(verified.element.text(of: "Issuer") == "https://idp.example/metadata")
    }

    @Test func signsElementsWithoutIssuerFirst() throws {
        let document = try SecureXMLDocument(
            #"<m:EntityDescriptor xmlns:m="urn:oasis:names:tc:SAML:2.0:metadata" ID="_m" entityID="urn:x"><m:IDPSSODescriptor/></m:EntityDescriptor>"#
        )
        .signing(elementWithID: "_m", as: Fixtures.rsaIdentity)
        #expect(document.root.children.map(\.localName) == ["Signature", "IDPSSODescriptor"])
        _ = try document.root.verifySignature(trusting: Fixtures.rsaCertificate)
        let empty = try SecureXMLDocument(#"<a ID="_e"/>"#).signing(elementWithID: "_e", as: Fixtures.rsaIdentity)
        _ = try empty.root.verifySignature(trusting: Fixtures.rsaCertificate)
    }

    @Test func signingLeavesTheOriginalUnchanged() throws {
        let original = try SecureXMLDocument(Fixtures.unsignedResponse)
        _ = try original.signing(elementWithID: "_assertion1", as: Fixtures.rsaIdentity)
        #expect(original.assertion.hasSignature == false)
    }

    @Test func refusesToSignTwiceOrWhatIsNotThere() throws {
        let signed = try SecureXMLDocument(try Fixtures.wardenSignedResponse())
        #expect(throws: XMLSecurityError.alreadySigned) {
            try signed.signing(elementWithID: "_assertion1", as: Fixtures.rsaIdentity)
        }
        #expect(throws: XMLSecurityError.elementNotFound(id: "_nope")) {
            try signed.signing(elementWithID: "_nope", as: Fixtures.rsaIdentity)
        }
    }

    @Test func verifiesWhatXmlsec1Signed() throws {
        let rsa = try SecureXMLDocument(Fixtures.text("xmlsec1-rsa-sha256.xml"))
        let verified = try rsa.assertion.verifySignature(trusting: Fixtures.rsaCertificate)
        #expect(verified.element.text(of: "Subject", "NameID") == "user@evil.com.example.com")
        #expect(verified.element.attribute("IssueInstant") == "2030-01-01T00:00:00Z")
        let ecdsa = try SecureXMLDocument(Fixtures.text("xmlsec1-ecdsa-sha256.xml"))
        #expect(
            try ecdsa.assertion.verifySignature(trusting: Fixtures.ecCertificate).signatureAlgorithm == .ecdsaSHA256)
    }

    @Test func readsDERCertificates() throws {
        let der = try XMLSignatureCertificate(der: Fixtures.bytes("rsa-cert.der"))
        let document = try SecureXMLDocument(Fixtures.text("xmlsec1-rsa-sha256.xml"))
        _ = try document.assertion.verifySignature(trusting: der)
    }

    /// Certificate rollover: any of the pinned certificates may verify; the index says which.
    @Test func triesEachPinnedCertificate() throws {
        let document = try SecureXMLDocument(Fixtures.text("xmlsec1-rsa-sha256.xml"))
        let verified = try document.assertion.verifySignature(
            trusting: [Fixtures.otherRSACertificate, Fixtures.ecCertificate, Fixtures.rsaCertificate])
        #expect(verified.certificateIndex == 2)
        #expect(throws: XMLSecurityError.signatureInvalid) {
            try document.assertion.verifySignature(trusting: [])
        }
    }

    @Test func refusesBadKeysAndCertificates() {
        #expect(throws: XMLSecurityError.invalidCertificate) { try XMLSignatureCertificate(pem: "not a certificate") }
        #expect(throws: XMLSecurityError.invalidCertificate) { try XMLSignatureCertificate(der: [0x30, 0x03, 1, 2]) }
        #expect(throws: XMLSecurityError.invalidCertificate) {
            try XMLSignatureCertificate(pem: Fixtures.text("rsa-key.pem"))
        }
        #expect(throws: XMLSecurityError.invalidPrivateKey) {
            try XMLSigningIdentity(privateKeyPEM: "nope", certificatePEM: Fixtures.text("rsa-cert.pem"))
        }
        #expect(throws: XMLSecurityError.invalidPrivateKey) {
            try XMLSigningIdentity(
                privateKeyPEM: Fixtures.text("rsa-cert.pem"), certificatePEM: Fixtures.text("rsa-cert.pem"))
        }
        #expect(throws: XMLSecurityError.keyDoesNotMatchCertificate) {
            try XMLSigningIdentity(
                privateKeyPEM: Fixtures.text("rsa-key.pem"), certificatePEM: Fixtures.text("other-rsa-cert.pem"))
        }
    }

    // MARK: xmlsec1 --verify on what Warden signs

    static let xmlsec1 = ["/usr/bin/xmlsec1", "/usr/local/bin/xmlsec1", "/opt/homebrew/bin/xmlsec1"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(
        .enabled(if: xmlsec1 != nil, "the xmlsec1 command line is not installed (Debian xmlsec1)"),
        arguments: [("rsa", "rsa-cert.pem"), ("ec", "ec-cert.pem")])
    func xmlsec1VerifiesWhatWardenSigned(kind: String, certificate: String) throws {
        let identity = kind == "rsa" ? Fixtures.rsaIdentity : Fixtures.ecIdentity
        let signed = try SecureXMLDocument(Fixtures.unsignedResponse)
            .signing(elementWithID: "_assertion1", as: identity)
            .signing(elementWithID: "_response1", as: identity)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("warden-xmlsec-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("signed.xml")
        try Data(try signed.serialized()).write(to: file)

        func xmlsec1Verify(_ node: String) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.xmlsec1!)
            process.arguments = [
                "--verify", "--pubkey-cert-pem", Fixtures.url(certificate).path,
                "--id-attr:ID", "urn:oasis:names:tc:SAML:2.0:assertion:Assertion",
                "--id-attr:ID", "urn:oasis:names:tc:SAML:2.0:protocol:Response",
                "--node-xpath", node, "--enabled-reference-uris", "same-doc", file.path,
            ]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self))
        }
        let response = try xmlsec1Verify("/*/*[local-name()='Signature']")
        #expect(response.status == 0, "\(response.output)")
        #expect(response.output.contains("OK"))
        let assertion = try xmlsec1Verify("/*/*[local-name()='Assertion']/*[local-name()='Signature']")
        #expect(assertion.status == 0, "\(assertion.output)")
    }
}
