// See CXMLSecShim.h. The xmlsec calls follow the library's own examples (examples/sign3.c, verify3.c) with the
// key set on the context instead of a keys manager, so KeyInfo in a message is never used to find a key.
#include "CXMLSecShim.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <xmlsec/crypto.h>

// ------------------------------------------------------------------------------------------------ errors, init

static _Thread_local char last_error[512];

static void record_xmlsec_error(const char *file, int line, const char *func, const char *error_object,
                                const char *error_subject, int reason, const char *msg) {
    (void)file;
    (void)line;
    (void)error_object;
    (void)reason;
    if (last_error[0] != 0) return;
    snprintf(last_error, sizeof(last_error), "%s%s%s: %s", func ? func : "", error_subject ? " " : "",
             error_subject ? error_subject : "", msg ? msg : "");
}

const char *warden_xmlsec_last_error(void) { return last_error; }

void warden_xmlsec_clear_error(void) { last_error[0] = 0; }

static void silent_generic(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static void silent_structured(void *context, xmlErrorPtr error) {
    (void)context;
    (void)error;
}

// libxml2's error handlers are per thread: the defaults for threads that have not used libxml2 yet are set once,
// and every entry point sets the calling thread's own.
static void silence_this_thread(void) {
    xmlSetGenericErrorFunc(NULL, silent_generic);
    xmlSetStructuredErrorFunc(NULL, silent_structured);
}

static pthread_once_t initialize_once = PTHREAD_ONCE_INIT;
static int initialize_status = -1;

static void initialize(void) {
    xmlInitParser();
    xmlThrDefSetGenericErrorFunc(NULL, silent_generic);
    xmlThrDefSetStructuredErrorFunc(NULL, silent_structured);
    silence_this_thread();
    xmlSecErrorsDefaultCallbackEnableOutput(0);
    if (xmlSecInit() < 0) return;
    if (xmlSecCheckVersion() != 1) return;
    if (xmlSecCryptoAppInit(NULL) < 0) return;
    if (xmlSecCryptoInit() < 0) return;
    xmlSecErrorsSetCallback(record_xmlsec_error);
    initialize_status = 0;
}

int warden_xmlsec_initialize(void) {
    pthread_once(&initialize_once, initialize);
    silence_this_thread();
    return initialize_status;
}

void warden_xml_free(void *pointer) { xmlFree(pointer); }

// ------------------------------------------------------------------------------------------------ parsing

typedef struct {
    int max_depth;
    WardenXMLStatus status;
} ParseState;

// The state of the parse running on this thread (the SAX callbacks' context is libxml2's parser context).
static _Thread_local ParseState *parse_state;

static void stop(void *context, WardenXMLStatus status) {
    if (parse_state != NULL && parse_state->status == WARDEN_XML_OK) parse_state->status = status;
    xmlStopParser((xmlParserCtxtPtr)context);
}

// Called on `<!DOCTYPE name ...` before the internal subset is read: no declaration of it is ever processed.
static void reject_internal_subset(void *context, const xmlChar *name, const xmlChar *external_id,
                                   const xmlChar *system_id) {
    (void)name;
    (void)external_id;
    (void)system_id;
    stop(context, WARDEN_XML_DOCTYPE);
}

static void reject_entity(void *context, const xmlChar *name, int type, const xmlChar *public_id,
                          const xmlChar *system_id, xmlChar *content) {
    (void)name;
    (void)type;
    (void)public_id;
    (void)system_id;
    (void)content;
    stop(context, WARDEN_XML_DOCTYPE);
}

static void start_element(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                          int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                          const xmlChar **attributes) {
    xmlParserCtxtPtr parser = (xmlParserCtxtPtr)context;
    // nodeNr is the number of open ancestors: the new element's depth is nodeNr + 1.
    if (parse_state != NULL && parser->nodeNr >= parse_state->max_depth) {
        stop(context, WARDEN_XML_TOO_DEEP);
        return;
    }
    xmlSAX2StartElementNs(context, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes, nb_defaulted,
                          attributes);
}

static int is_utf8_name(const xmlChar *encoding) {
    return encoding == NULL || strcasecmp((const char *)encoding, "UTF-8") == 0
           || strcasecmp((const char *)encoding, "UTF8") == 0;
}

xmlDocPtr warden_xml_parse(const char *bytes, int length, int max_depth, WardenXMLStatus *status) {
    *status = WARDEN_XML_LIBRARY;
    if (warden_xmlsec_initialize() != 0) return NULL;
    *status = WARDEN_XML_MALFORMED;
    if (bytes == NULL || length <= 0) return NULL;
    xmlParserCtxtPtr parser = xmlCreateMemoryParserCtxt(bytes, length);
    if (parser == NULL) {
        *status = WARDEN_XML_LIBRARY;
        return NULL;
    }
    // No XML_PARSE_NOENT (entity substitution), DTDLOAD, DTDATTR, DTDVALID, XINCLUDE or HUGE; NONET for good
    // measure though no DTD is ever read.
    xmlCtxtUseOptions(parser, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA);
    parser->sax->internalSubset = reject_internal_subset;
    parser->sax->externalSubset = reject_internal_subset;
    parser->sax->entityDecl = reject_entity;
    parser->sax->startElementNs = start_element;
    parser->sax->serror = NULL;
    parser->sax->error = silent_generic;
    parser->sax->warning = silent_generic;
    parser->loadsubset = 0;
    parser->replaceEntities = 0;
    parser->validate = 0;

    ParseState state = {.max_depth = max_depth, .status = WARDEN_XML_OK};
    parse_state = &state;
    int result = xmlParseDocument(parser);
    parse_state = NULL;

    xmlDocPtr document = parser->myDoc;
    parser->myDoc = NULL;
    int well_formed = parser->wellFormed && parser->nsWellFormed;
    xmlFreeParserCtxt(parser);

    if (state.status != WARDEN_XML_OK) {
        *status = state.status;
    } else if (result != 0 || !well_formed || document == NULL || xmlDocGetRootElement(document) == NULL) {
        *status = WARDEN_XML_MALFORMED;
    } else if (document->intSubset != NULL || document->extSubset != NULL) {
        *status = WARDEN_XML_DOCTYPE;
    } else if (!is_utf8_name(document->encoding)) {
        *status = WARDEN_XML_NOT_UTF8;
    } else {
        *status = WARDEN_XML_OK;
        return document;
    }
    if (document != NULL) xmlFreeDoc(document);
    return NULL;
}

// ------------------------------------------------------------------------------------------------ IDs

int warden_xml_register_ids(xmlDocPtr doc, xmlChar **duplicate) {
    *duplicate = NULL;
    xmlNodePtr root = xmlDocGetRootElement(doc);
    xmlNodePtr node = root;
    while (node != NULL) {
        if (node->type == XML_ELEMENT_NODE) {
            for (xmlAttrPtr attribute = node->properties; attribute != NULL; attribute = attribute->next) {
                if (attribute->ns != NULL || !xmlStrEqual(attribute->name, BAD_CAST "ID")) continue;
                xmlChar *value = xmlNodeListGetString(doc, attribute->children, 1);
                if (value == NULL || value[0] == 0) {
                    if (value != NULL) xmlFree(value);
                    continue;
                }
                if (xmlGetID(doc, value) != NULL) {
                    *duplicate = value;
                    return 1;
                }
                xmlIDPtr id = xmlAddID(NULL, doc, value, attribute);
                xmlFree(value);
                if (id == NULL) return -1;
            }
            if (node->children != NULL) {
                node = node->children;
                continue;
            }
        }
        while (node != root && node->next == NULL) node = node->parent;
        if (node == root) break;
        node = node->next;
    }
    return 0;
}

// ------------------------------------------------------------------------------------------------ C14N, output

// Visible: the apex element and everything below it (for namespace nodes libxml2 passes the element as parent).
static int in_subtree(void *apex, xmlNodePtr node, xmlNodePtr parent) {
    xmlNodePtr current = (node != NULL && node->type == XML_NAMESPACE_DECL) ? parent : node;
    while (current != NULL) {
        if (current == (xmlNodePtr)apex) return 1;
        current = current->parent;
    }
    return 0;
}

static int copy_out(const xmlChar *bytes, size_t length, xmlChar **out) {
    if (length > (size_t)0x7fffffff) return -1;
    *out = (xmlChar *)xmlMalloc(length + 1);
    if (*out == NULL) return -1;
    if (length > 0) memcpy(*out, bytes, length);
    (*out)[length] = 0;
    return (int)length;
}

int warden_xml_c14n(xmlNodePtr node, xmlChar **out) {
    *out = NULL;
    silence_this_thread();
    if (node == NULL || node->doc == NULL) return -1;
    xmlOutputBufferPtr buffer = xmlAllocOutputBuffer(NULL);
    if (buffer == NULL) return -1;
    int written = xmlC14NExecute(node->doc, in_subtree, node, XML_C14N_EXCLUSIVE_1_0, NULL, 0, buffer);
    int length = -1;
    if (written >= 0) length = copy_out(xmlOutputBufferGetContent(buffer), xmlOutputBufferGetSize(buffer), out);
    xmlOutputBufferClose(buffer);
    return length;
}

int warden_xml_serialize(xmlDocPtr doc, xmlChar **out) {
    *out = NULL;
    silence_this_thread();
    xmlChar *memory = NULL;
    int size = 0;
    xmlDocDumpMemoryEnc(doc, &memory, &size, "UTF-8");
    if (memory == NULL) return -1;
    *out = memory;
    return size;
}

// ------------------------------------------------------------------------------------------------ keys

WardenXMLSecKey *warden_xmlsec_key_from_certificate(const unsigned char *bytes, int length, int pem) {
    if (warden_xmlsec_initialize() != 0 || bytes == NULL || length <= 0) return NULL;
    warden_xmlsec_clear_error();
    xmlSecKeyPtr key = xmlSecCryptoAppKeyLoadMemory(
        bytes, (xmlSecSize)length, pem ? xmlSecKeyDataFormatCertPem : xmlSecKeyDataFormatCertDer, NULL, NULL, NULL);
    return (WardenXMLSecKey *)key;
}

WardenXMLSecKey *warden_xmlsec_signing_key(const unsigned char *key_bytes, int key_length,
                                           const unsigned char *certificate, int certificate_length) {
    if (warden_xmlsec_initialize() != 0 || key_bytes == NULL || key_length <= 0 || certificate == NULL
        || certificate_length <= 0)
        return NULL;
    warden_xmlsec_clear_error();
    xmlSecKeyPtr key =
        xmlSecCryptoAppKeyLoadMemory(key_bytes, (xmlSecSize)key_length, xmlSecKeyDataFormatPem, NULL, NULL, NULL);
    if (key == NULL) return NULL;
    if ((xmlSecKeyGetType(key) & xmlSecKeyDataTypePrivate) == 0
        || xmlSecCryptoAppKeyCertLoadMemory(key, certificate, (xmlSecSize)certificate_length,
                                            xmlSecKeyDataFormatPem)
               < 0) {
        xmlSecKeyDestroy(key);
        return NULL;
    }
    return (WardenXMLSecKey *)key;
}

WardenXMLSecKeyKind warden_xmlsec_key_kind(const WardenXMLSecKey *key) {
    xmlSecKeyDataPtr value = xmlSecKeyGetValue((xmlSecKeyPtr)key);
    if (value == NULL) return WARDEN_XMLSEC_KEY_OTHER;
    if (xmlSecKeyDataCheckId(value, xmlSecKeyDataRsaId)) return WARDEN_XMLSEC_KEY_RSA;
    if (xmlSecKeyDataCheckId(value, xmlSecKeyDataEcdsaId)) return WARDEN_XMLSEC_KEY_EC;
    return WARDEN_XMLSEC_KEY_OTHER;
}

WardenXMLSecKey *warden_xmlsec_key_duplicate(const WardenXMLSecKey *key) {
    return (WardenXMLSecKey *)xmlSecKeyDuplicate((xmlSecKeyPtr)key);
}

void warden_xmlsec_key_destroy(WardenXMLSecKey *key) {
    if (key != NULL) xmlSecKeyDestroy((xmlSecKeyPtr)key);
}

// ------------------------------------------------------------------------------------------------ verify, sign

static int enable(xmlSecDSigCtxPtr context, int reference, xmlSecTransformId id) {
    return reference ? xmlSecDSigCtxEnableReferenceTransform(context, id)
                     : xmlSecDSigCtxEnableSignatureTransform(context, id);
}

static int enable_allowed(xmlSecDSigCtxPtr context, int allow_sha1) {
    int failed = 0;
    // SignedInfo: its canonicalization and the signature methods.
    failed |= enable(context, 0, xmlSecTransformExclC14NId) < 0;
    failed |= enable(context, 0, xmlSecTransformRsaSha256Id) < 0;
    failed |= enable(context, 0, xmlSecTransformRsaSha384Id) < 0;
    failed |= enable(context, 0, xmlSecTransformRsaSha512Id) < 0;
    failed |= enable(context, 0, xmlSecTransformEcdsaSha256Id) < 0;
    // Reference: its transforms and digest methods.
    failed |= enable(context, 1, xmlSecTransformEnvelopedId) < 0;
    failed |= enable(context, 1, xmlSecTransformExclC14NId) < 0;
    failed |= enable(context, 1, xmlSecTransformSha256Id) < 0;
    failed |= enable(context, 1, xmlSecTransformSha384Id) < 0;
    failed |= enable(context, 1, xmlSecTransformSha512Id) < 0;
    if (allow_sha1) {
        failed |= enable(context, 0, xmlSecTransformRsaSha1Id) < 0;
        failed |= enable(context, 1, xmlSecTransformSha1Id) < 0;
    }
    return failed ? -1 : 0;
}

WardenXMLSecResult warden_xmlsec_verify(xmlNodePtr signature, WardenXMLSecKey *key, int allow_sha1,
                                        xmlChar **signed_bytes, int *signed_length) {
    *signed_bytes = NULL;
    *signed_length = 0;
    if (warden_xmlsec_initialize() != 0 || signature == NULL || key == NULL) {
        warden_xmlsec_key_destroy(key);
        return WARDEN_XMLSEC_FAILURE;
    }
    warden_xmlsec_clear_error();
    xmlSecDSigCtxPtr context = xmlSecDSigCtxCreate(NULL);
    if (context == NULL) {
        warden_xmlsec_key_destroy(key);
        return WARDEN_XMLSEC_FAILURE;
    }
    WardenXMLSecResult result = WARDEN_XMLSEC_FAILURE;
    context->flags = XMLSEC_DSIG_FLAGS_STORE_SIGNEDINFO_REFERENCES | XMLSEC_DSIG_FLAGS_IGNORE_MANIFESTS;
    context->enabledReferenceUris = xmlSecTransformUriTypeSameDocument;
    // With the key set and no keys manager, xmlsec never reads KeyInfo for a key (xmldsig.c,
    // xmlSecDSigCtxProcessKeyInfoNode); the context destroys the key with itself.
    context->signKey = (xmlSecKeyPtr)key;
    if (enable_allowed(context, allow_sha1) < 0) goto done;

    if (xmlSecDSigCtxVerify(context, signature) < 0) {
        result = WARDEN_XMLSEC_REFUSED;
        goto done;
    }
    if (context->status != xmlSecDSigStatusSucceeded) {
        result = WARDEN_XMLSEC_INVALID;
        goto done;
    }
    if (xmlSecPtrListGetSize(&context->signedInfoReferences) != 1) {
        result = WARDEN_XMLSEC_REFUSED;
        goto done;
    }
    xmlSecDSigReferenceCtxPtr reference =
        (xmlSecDSigReferenceCtxPtr)xmlSecPtrListGetItem(&context->signedInfoReferences, 0);
    if (reference == NULL || reference->status != xmlSecDSigStatusSucceeded) {
        result = WARDEN_XMLSEC_INVALID;
        goto done;
    }
    xmlSecBufferPtr buffer = xmlSecDSigReferenceCtxGetPreDigestBuffer(reference);
    if (buffer == NULL) goto done;
    int length = copy_out(xmlSecBufferGetData(buffer), xmlSecBufferGetSize(buffer), signed_bytes);
    if (length < 0) goto done;
    *signed_length = length;
    result = WARDEN_XMLSEC_VALID;
done:
    xmlSecDSigCtxDestroy(context);
    return result;
}

static int sign(xmlNodePtr element, xmlNodePtr after, WardenXMLSecKey *key);

int warden_xmlsec_sign(xmlNodePtr element, xmlNodePtr after, WardenXMLSecKey *key) {
    int status = -1;
    if (warden_xmlsec_initialize() == 0 && element != NULL && key != NULL) status = sign(element, after, key);
    warden_xmlsec_key_destroy(key);
    return status;
}

static int sign(xmlNodePtr element, xmlNodePtr after, WardenXMLSecKey *key) {
    warden_xmlsec_clear_error();
    xmlSecTransformId method;
    switch (warden_xmlsec_key_kind(key)) {
    case WARDEN_XMLSEC_KEY_RSA: method = xmlSecTransformRsaSha256Id; break;
    case WARDEN_XMLSEC_KEY_EC: method = xmlSecTransformEcdsaSha256Id; break;
    default: return -1;
    }
    xmlChar *id = xmlGetNoNsProp(element, BAD_CAST "ID");
    if (id == NULL) return -1;
    size_t id_length = strlen((const char *)id);
    xmlChar *uri = (xmlChar *)xmlMalloc(id_length + 2);
    if (uri == NULL) {
        xmlFree(id);
        return -1;
    }
    uri[0] = '#';
    memcpy(uri + 1, id, id_length + 1);
    xmlFree(id);

    int status = -1;
    xmlSecDSigCtxPtr context = NULL;
    xmlNodePtr signature =
        xmlSecTmplSignatureCreateNsPref(element->doc, xmlSecTransformExclC14NId, method, NULL, BAD_CAST "ds");
    if (signature == NULL) goto done;
    xmlNodePtr inserted;
    if (after != NULL) {
        inserted = xmlAddNextSibling(after, signature);
    } else if (element->children != NULL) {
        inserted = xmlAddPrevSibling(element->children, signature);
    } else {
        inserted = xmlAddChild(element, signature);
    }
    if (inserted == NULL) {
        xmlFreeNode(signature);
        goto done;
    }
    xmlNodePtr reference = xmlSecTmplSignatureAddReference(signature, xmlSecTransformSha256Id, NULL, uri, NULL);
    if (reference == NULL || xmlSecTmplReferenceAddTransform(reference, xmlSecTransformEnvelopedId) == NULL
        || xmlSecTmplReferenceAddTransform(reference, xmlSecTransformExclC14NId) == NULL)
        goto done;
    xmlNodePtr key_info = xmlSecTmplSignatureEnsureKeyInfo(signature, NULL);
    xmlNodePtr x509_data = key_info ? xmlSecTmplKeyInfoAddX509Data(key_info) : NULL;
    if (x509_data == NULL || xmlSecTmplX509DataAddCertificate(x509_data) == NULL) goto done;

    context = xmlSecDSigCtxCreate(NULL);
    if (context == NULL) goto done;
    context->signKey = (xmlSecKeyPtr)key;
    int signed_status = xmlSecDSigCtxSign(context, signature);
    context->signKey = NULL;  // the caller destroys the key
    if (signed_status < 0) goto done;
    status = 0;
done:
    if (context != NULL) xmlSecDSigCtxDestroy(context);
    xmlFree(uri);
    return status;
}
