import Foundation
import WardenXMLSecurity

/// The files of Resources/ (made by Resources/make-fixtures.sh) and the documents the tests build from them.
enum Fixtures {
    static func url(_ name: String) -> URL {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Resources")!
    }

    static func text(_ name: String) -> String {
        try! String(contentsOf: url(name), encoding: .utf8)
    }

    static func bytes(_ name: String) -> [UInt8] {
        Array(try! Data(contentsOf: url(name)))
    }

    static let rsaCertificate = try! XMLSignatureCertificate(pem: text("rsa-cert.pem"))
    static let otherRSACertificate = try! XMLSignatureCertificate(pem: text("other-rsa-cert.pem"))
    static let ecCertificate = try! XMLSignatureCertificate(pem: text("ec-cert.pem"))
    static let rsaIdentity = try! XMLSigningIdentity(
        privateKeyPEM: text("rsa-key.pem"), certificatePEM: text("rsa-cert.pem"))
    static let otherRSAIdentity = try! XMLSigningIdentity(
        privateKeyPEM: text("other-rsa-key.pem"), certificatePEM: text("other-rsa-cert.pem"))
    static let ecIdentity = try! XMLSigningIdentity(
        privateKeyPEM: text("ec-key.pem"), certificatePEM: text("ec-cert.pem"))

    /// A SAML Response whose Assertion (`_assertion1`) is not signed yet: the template without its Signature.
    static var unsignedResponse: String {
        let template = text("response-template.xml")
        let start = template.range(of: "    <ds:Signature")!.lowerBound
        let end = template.range(of: "</ds:Signature>\n")!.upperBound
        return template.replacingCharacters(in: start..<end, with: "")
    }

    /// The Response with its Assertion signed by `identity` through WardenXMLSecurity, serialized.
    static func wardenSignedResponse(_ identity: XMLSigningIdentity = rsaIdentity, xml: String = unsignedResponse)
        throws -> String
    {
        let signed = try SecureXMLDocument(xml).signing(elementWithID: "_assertion1", as: identity)
        return String(decoding: try signed.serialized(), as: UTF8.self)
    }

    static let saml = XMLNamespace.samlAssertion
}

extension SecureXMLDocument {
    /// The Assertion of a SAML Response fixture.
    var assertion: SecureXMLElement { element(withID: "_assertion1")! }
}

extension SecureXMLElement {
    /// The text of the first descendant named `localName` in the SAML assertion namespace, found by walking down.
    func text(of path: String...) -> String? {
        var element: SecureXMLElement? = self
        for name in path { element = element?.firstChild(named: name, namespaceURI: Fixtures.saml) }
        return element?.textContent
    }
}
