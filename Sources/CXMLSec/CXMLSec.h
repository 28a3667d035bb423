// The headers of libxmlsec1 (OpenSSL back end) and libxml2 that WardenXMLSecurity's C shim uses.
//
// `pkg-config --cflags xmlsec1-openssl` prints, besides include paths, defines that select the crypto back end and
// fix the size of `xmlSecSize` (and so the layout of xmlsec's structs). SwiftPM drops `-D` flags from pkg-config
// ("prohibited flag(s)"), so they are repeated here, where both the C shim and Swift's importer see them. These are
// Debian 12's xmlsec1 1.2.37 defines (1.2's default build has a 32-bit xmlSecSize, 1.3's a size_t); on another build
// of the library compare them with its pkg-config output.
#ifndef WARDEN_CXMLSEC_H
#define WARDEN_CXMLSEC_H

#include <xmlsec/version.h>

#ifndef XMLSEC_CRYPTO_OPENSSL
#define XMLSEC_CRYPTO_OPENSSL 1
#endif
#if XMLSEC_VERSION_MAJOR == 1 && XMLSEC_VERSION_MINOR < 3 && !defined(XMLSEC_NO_SIZE_T)
#define XMLSEC_NO_SIZE_T
#endif
#ifndef XMLSEC_NO_GOST
#define XMLSEC_NO_GOST 1
#endif
#ifndef XMLSEC_NO_GOST2012
#define XMLSEC_NO_GOST2012 1
#endif
#ifndef XMLSEC_NO_CRYPTO_DYNAMIC_LOADING
#define XMLSEC_NO_CRYPTO_DYNAMIC_LOADING 1
#endif
#ifndef __XMLSEC_FUNCTION__
#define __XMLSEC_FUNCTION__ __func__
#endif

#include <libxml/tree.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/valid.h>
#include <libxml/c14n.h>
#include <libxml/xmlerror.h>

#include <xmlsec/xmlsec.h>
#include <xmlsec/xmltree.h>
#include <xmlsec/xmldsig.h>
#include <xmlsec/templates.h>
#include <xmlsec/errors.h>

#endif
