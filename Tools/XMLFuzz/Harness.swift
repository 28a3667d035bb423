// The libFuzzer entry point of scripts/fuzz-xml, compiled into one module with Sources/WardenXMLSecurity by that
// script (no SwiftPM target: libFuzzer brings its own `main`). Each input goes through everything WardenXMLSecurity
// offers a SAML message: the parser (limits, DOCTYPE refusal, UTF-8, IDs), every accessor of every element,
// canonicalization, serialization, lookup by ID, signature verification of each signed element against the
// fixtures' RSA certificate (with and without SHA-1, so mutants of the xmlsec1-signed fixtures reach the structural
// checks and xmlsec), the verified element re-read, and signing with an EC key.
import Foundation

private func fixture(_ name: String) -> String {
    let directory = ProcessInfo.processInfo.environment["XML_FUZZ_FIXTURES"] ?? "Tests/WardenXMLSecurityTests/Resources"
    return try! String(contentsOfFile: directory + "/" + name, encoding: .utf8)
}

private let certificates = [
    try! XMLSignatureCertificate(pem: fixture("rsa-cert.pem")),
    try! XMLSignatureCertificate(pem: fixture("ec-cert.pem")),
]
private let identity = try! XMLSigningIdentity(
    privateKeyPEM: fixture("ec-key.pem"), certificatePEM: fixture("ec-cert.pem"))

/// Reads everything an element offers, and its descendants' (the parser bounds the depth).
private func read(_ element: SecureXMLElement, into ids: inout [String]) {
    _ = element.localName
    _ = element.namespaceURI
    _ = element.prefix
    for attribute in element.attributes {
        _ = element.attribute(attribute.localName, namespaceURI: attribute.namespaceURI)
    }
    _ = element.textContent
    _ = element.hasSignature
    if let id = element.id { ids.append(id) }
    for child in element.children {
        _ = element.children(named: child.localName, namespaceURI: child.namespaceURI)
        read(child, into: &ids)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    guard let document = try? SecureXMLDocument(bytes: input) else { return 0 }
    var ids: [String] = []
    read(document.root, into: &ids)
    _ = try? document.root.canonicalized()
    _ = try? document.serialized()
    for id in ids.prefix(8) {
        guard let element = document.element(withID: id) else { continue }
        _ = try? element.canonicalized()
        guard element.hasSignature else {
            _ = try? document.signing(elementWithID: id, as: identity)
            continue
        }
        for policy in [XMLSignaturePolicy(), XMLSignaturePolicy(allowsSHA1: true)] {
            if let verified = try? element.verifySignature(trusting: certificates, policy: policy) {
                var inner: [String] = []
                read(verified.element, into: &inner)
            }
        }
    }
    return 0
}
