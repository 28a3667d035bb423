// Plain C functions over libxml2 and libxmlsec1 for WardenXMLSecurity: what Swift cannot import (xmlsec's transform
// and key-data ids are macros over functions, libxml2's SAX hooks and C14N visibility callbacks are C callbacks) and
// the few steps whose structs differ between xmlsec builds (the signature context), so Swift sees libxml2's tree
// and these functions only. Nothing here decides what a valid signature is: WardenXMLSecurity checks the
// Signature's structure first and names the transforms and algorithms it allows.
#ifndef WARDEN_CXMLSECSHIM_H
#define WARDEN_CXMLSECSHIM_H

#include "../../CXMLSec/CXMLSec.h"

/// What `warden_xml_parse` found wrong, or `WARDEN_XML_OK`.
typedef enum {
    WARDEN_XML_OK = 0,
    WARDEN_XML_MALFORMED = 1,
    WARDEN_XML_DOCTYPE = 2,
    WARDEN_XML_TOO_DEEP = 3,
    WARDEN_XML_NOT_UTF8 = 4,
    WARDEN_XML_LIBRARY = 5,
} WardenXMLStatus;

/// What `warden_xmlsec_verify` concluded.
typedef enum {
    WARDEN_XMLSEC_VALID = 0,
    /// The signature or a digest does not match.
    WARDEN_XMLSEC_INVALID = 1,
    /// xmlsec refused to process the Signature (a transform or algorithm outside the enabled lists, a bad
    /// structure, a key of the wrong type).
    WARDEN_XMLSEC_REFUSED = 2,
    WARDEN_XMLSEC_FAILURE = 3,
} WardenXMLSecResult;

/// The kind of a loaded key.
typedef enum {
    WARDEN_XMLSEC_KEY_OTHER = 0,
    WARDEN_XMLSEC_KEY_RSA = 1,
    WARDEN_XMLSEC_KEY_EC = 2,
} WardenXMLSecKeyKind;

/// An xmlsec key (an `xmlSecKey`), owned by the caller: `warden_xmlsec_key_destroy`.
typedef struct WardenXMLSecKey WardenXMLSecKey;

/// Initializes libxml2, xmlsec and its OpenSSL back end once (thread-safe; later calls return the first result),
/// with libxml2's and xmlsec's error output silenced. 0 on success.
int warden_xmlsec_initialize(void);

/// Parses `length` bytes: no network, no DTD (a DOCTYPE or entity declaration stops the parser), no entity
/// substitution, no XInclude, CDATA as text, at most `max_depth` nested elements, declared encoding UTF-8 only.
/// Returns the document (free with xmlFreeDoc) or NULL with `*status` saying why.
xmlDocPtr warden_xml_parse(const char *bytes, int length, int max_depth, WardenXMLStatus *status);

/// Registers the `ID` attribute (no namespace) of every element as an XML ID. Returns 0, or 1 with `*duplicate`
/// (free with warden_xml_free) when a value is already an ID (another `ID`, or an `xml:id`), or -1.
int warden_xml_register_ids(xmlDocPtr doc, xmlChar **duplicate);

/// Exclusive XML canonicalization 1.0 without comments of `node`'s subtree. Returns the length and sets `*out`
/// (free with warden_xml_free), or -1.
int warden_xml_c14n(xmlNodePtr node, xmlChar **out);

/// The document as UTF-8 with an XML declaration, unformatted. Returns the length and sets `*out`, or -1.
int warden_xml_serialize(xmlDocPtr doc, xmlChar **out);

/// xmlFree (a function pointer variable in libxml2).
void warden_xml_free(void *pointer);

/// Loads the public key of an X.509 certificate (PEM when `pem` is non-zero, else DER). NULL when unreadable.
WardenXMLSecKey *warden_xmlsec_key_from_certificate(const unsigned char *bytes, int length, int pem);

/// Loads a private key (PEM: PKCS#8 or traditional) with its certificate (PEM), written into KeyInfo's X509Data
/// when signing. NULL when either is unreadable.
WardenXMLSecKey *warden_xmlsec_signing_key(
    const unsigned char *key, int key_length, const unsigned char *certificate, int certificate_length);

WardenXMLSecKeyKind warden_xmlsec_key_kind(const WardenXMLSecKey *key);

/// A copy of `key` (xmlsec's signature context takes ownership of the key it uses).
WardenXMLSecKey *warden_xmlsec_key_duplicate(const WardenXMLSecKey *key);

void warden_xmlsec_key_destroy(WardenXMLSecKey *key);

/// Verifies `signature` (a ds:Signature element) with `key` only (taken: destroyed here; pass a duplicate) (KeyInfo is never read), enabling only
/// exclusive C14N, enveloped-signature, RSA-SHA256/384/512, ECDSA-SHA256 and SHA-256/384/512 (RSA-SHA1 and SHA-1
/// too when `allow_sha1`), same-document references only, manifests ignored. On WARDEN_XMLSEC_VALID with exactly one
/// Reference, `*signed_bytes` (free with warden_xml_free) and `*signed_length` are that Reference's pre-digest
/// bytes: what was hashed.
WardenXMLSecResult warden_xmlsec_verify(
    xmlNodePtr signature, WardenXMLSecKey *key, int allow_sha1, xmlChar **signed_bytes, int *signed_length);

/// Signs `element` (which has an `ID` attribute registered as an ID) with an enveloped ds:Signature: exclusive
/// C14N, RSA-SHA256 or ECDSA-SHA256 by the key's kind, SHA-256, one Reference to `#ID` with the enveloped-signature
/// and exclusive C14N transforms, and the key's certificate in KeyInfo/X509Data. The Signature is inserted after
/// `after` when not NULL, else as the element's first child. `key` is taken (destroyed here; pass a duplicate).
/// 0 on success.
int warden_xmlsec_sign(xmlNodePtr element, xmlNodePtr after, WardenXMLSecKey *key);

/// The first xmlsec error reported on this thread since the last call of `warden_xmlsec_clear_error`, or "".
const char *warden_xmlsec_last_error(void);

void warden_xmlsec_clear_error(void);

#endif
