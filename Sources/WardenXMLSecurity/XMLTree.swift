import CXMLSec
import CXMLSecShim
import Synchronization

typealias NodePointer = UnsafeMutablePointer<xmlNode>
typealias DocPointer = UnsafeMutablePointer<xmlDoc>

/// A parsed libxml2 tree, freed with this object.
///
/// Invariant that makes the handles Sendable: the tree is only read or written inside `withTree`, under one lock per
/// document (libxml2 trees are not safe for concurrent use, and xmlsec registers IDs while it verifies). A tree is
/// only changed before its storage is shared (signing works on a fresh copy), so node pointers held by
/// `SecureXMLElement` stay valid as long as the storage lives.
final class DocumentStorage: Sendable {
    private let tree: Mutex<DocPointer>
    let limits: XMLParseLimits

    init(_ document: sending DocPointer, limits: XMLParseLimits) {
        self.tree = Mutex(document)
        self.limits = limits
    }

    func withTree<Result: Sendable, Failure: Error>(
        _ body: (DocPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try tree.withLock { (document: inout DocPointer) throws(Failure) -> Result in try body(document) }
    }

    deinit {
        tree.withLock { xmlFreeDoc($0) }
    }
}

/// An xmlsec key, destroyed with this object. xmlsec's contexts take ownership of the key they use, so each use
/// gets a duplicate, made under the lock.
final class KeyStorage: Sendable {
    private let key: Mutex<OpaquePointer>

    init(_ key: sending OpaquePointer) {
        self.key = Mutex(key)
    }

    /// A copy for one signature context to own, or nil when out of memory.
    func duplicate() -> OpaquePointer? {
        key.withLock { warden_xmlsec_key_duplicate($0) }
    }

    var kind: WardenXMLSecKeyKind {
        key.withLock { warden_xmlsec_key_kind($0) }
    }

    deinit {
        key.withLock { warden_xmlsec_key_destroy($0) }
    }
}

/// Initializes libxml2 and xmlsec once; every entry point calls it.
func initializeLibraries() throws(XMLSecurityError) {
    guard warden_xmlsec_initialize() == 0 else {
        throw .libraryFailure("xmlsec initialization: \(String(cString: warden_xmlsec_last_error()))")
    }
}

/// Bytes that libxml2 allocated, copied and freed.
func takeBytes(_ pointer: UnsafeMutablePointer<xmlChar>?, count: Int32) -> [UInt8]? {
    guard let pointer, count >= 0 else { return nil }
    defer { warden_xml_free(pointer) }
    return Array(UnsafeBufferPointer(start: pointer, count: Int(count)))
}

/// A string that libxml2 allocated, copied and freed.
func takeString(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String? {
    guard let pointer else { return nil }
    defer { warden_xml_free(pointer) }
    return String(cString: pointer)
}

// Reading the tree: only inside `DocumentStorage.withTree`.
extension UnsafeMutablePointer where Pointee == xmlNode {
    var localName: String { String(cString: pointee.name) }

    var namespaceURI: String? { pointee.ns.flatMap { $0.pointee.href.map { String(cString: $0) } } }

    var prefix: String? { pointee.ns.flatMap { $0.pointee.prefix.map { String(cString: $0) } } }

    func isElement(_ localName: String, namespaceURI: String?) -> Bool {
        pointee.type == XML_ELEMENT_NODE && self.localName == localName && self.namespaceURI == namespaceURI
    }

    /// Element children in document order (text, comments and processing instructions skipped).
    var elementChildren: [NodePointer] {
        var children: [NodePointer] = []
        var child = pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE { children.append(current) }
            child = current.pointee.next
        }
        return children
    }

    /// The value of an attribute without a namespace when `namespaceURI` is nil (not "any namespace", as
    /// xmlGetProp would do), else of the attribute in that namespace.
    func attribute(_ localName: String, namespaceURI: String? = nil) -> String? {
        if let namespaceURI {
            return takeString(xmlGetNsProp(self, localName, namespaceURI))
        }
        return takeString(xmlGetNoNsProp(self, localName))
    }

    var attributes: [XMLAttribute] {
        var attributes: [XMLAttribute] = []
        var property = pointee.properties
        while let current = property {
            let name = String(cString: current.pointee.name)
            let namespace = current.pointee.ns.flatMap { $0.pointee.href.map { String(cString: $0) } }
            let value = takeString(xmlNodeListGetString(pointee.doc, current.pointee.children, 1)) ?? ""
            attributes.append(XMLAttribute(localName: name, namespaceURI: namespace, value: value))
            property = current.pointee.next
        }
        return attributes
    }

    /// Every text and CDATA descendant, concatenated in document order: comments and processing instructions add
    /// nothing and split nothing (`user@evil.com<!---->.example.com` reads as the whole address).
    var textContent: String { takeString(xmlNodeGetContent(self)) ?? "" }
}

/// The element whose `ID` attribute (no namespace) is `id`, as registered at parse time; nil for another kind of
/// ID (an `xml:id`) or none.
func lookUpElement(withID id: String, in document: DocPointer) -> NodePointer? {
    guard let attribute = xmlGetID(document, id), attribute.pointee.type == XML_ATTRIBUTE_NODE else { return nil }
    guard attribute.pointee.ns == nil, String(cString: attribute.pointee.name) == "ID",
        let element = attribute.pointee.parent, element.pointee.type == XML_ELEMENT_NODE
    else { return nil }
    return element
}
