#!/usr/bin/env bash
# Regenerates the fixtures of WardenXMLSecurityTests (run once; the outputs are committed). Needs openssl and the
# xmlsec1 command line (Debian `xmlsec1`, 1.2.37 when these were made). The keys are test keys, nothing else.
#
#   keys:      rsa-key.pem / rsa-cert.pem (+ rsa-cert.der), other-rsa-key.pem / other-rsa-cert.pem,
#              ec-key.pem / ec-cert.pem (P-256)
#   signed by xmlsec1 from response-template.xml (the Assertion signed, enveloped, exc-c14n, with xmlsec1 --sign):
#     xmlsec1-rsa-sha256.xml        RSA-SHA256 / SHA-256: must verify
#     xmlsec1-ecdsa-sha256.xml      ECDSA-SHA256 / SHA-256: must verify
#     xmlsec1-rsa-sha1.xml          RSA-SHA1 / SHA-1: refused unless SHA-1 is allowed
#     xmlsec1-xpath-transform.xml   an XPath transform instead of exc-c14n: refused
#     xmlsec1-two-references.xml    a second Reference (to #_extra): refused
set -euo pipefail
cd "$(dirname "$0")"
if [[ "${1:-}" == --keys ]]; then
    openssl req -x509 -newkey rsa:2048 -nodes -keyout rsa-key.pem -out rsa-cert.pem -days 36500 \
        -subj "/CN=WardenXMLSecurity test RSA"
    openssl x509 -in rsa-cert.pem -outform der -out rsa-cert.der
    openssl req -x509 -newkey rsa:2048 -nodes -keyout other-rsa-key.pem -out other-rsa-cert.pem -days 36500 \
        -subj "/CN=WardenXMLSecurity test other RSA"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ec-key.pem -out ec-cert.pem \
        -days 36500 -subj "/CN=WardenXMLSecurity test EC"
fi
sign() { # key cert template output
    xmlsec1 --sign --privkey-pem "$1,$2" --id-attr:ID urn:oasis:names:tc:SAML:2.0:assertion:Assertion \
        --output "$4" "$3"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sign rsa-key.pem rsa-cert.pem response-template.xml xmlsec1-rsa-sha256.xml
sed 's|xmldsig-more#rsa-sha256|xmldsig-more#ecdsa-sha256|' response-template.xml >"$tmp/ecdsa.xml"
sign ec-key.pem ec-cert.pem "$tmp/ecdsa.xml" xmlsec1-ecdsa-sha256.xml
sed -e 's|http://www.w3.org/2001/04/xmldsig-more#rsa-sha256|http://www.w3.org/2000/09/xmldsig#rsa-sha1|' \
    -e 's|http://www.w3.org/2001/04/xmlenc#sha256|http://www.w3.org/2000/09/xmldsig#sha1|' \
    response-template.xml >"$tmp/sha1.xml"
sign rsa-key.pem rsa-cert.pem "$tmp/sha1.xml" xmlsec1-rsa-sha1.xml
xpath='<ds:Transform Algorithm="http://www.w3.org/TR/1999/REC-xpath-19991116"><ds:XPath>not(ancestor-or-self::ds:Signature)</ds:XPath></ds:Transform>'
sed "s|<ds:Transform Algorithm=\"http://www.w3.org/2000/09/xmldsig#enveloped-signature\"/>|$xpath|" \
    response-template.xml >"$tmp/xpath.xml"
sign rsa-key.pem rsa-cert.pem "$tmp/xpath.xml" xmlsec1-xpath-transform.xml
second='<ds:Reference URI="#_extra"><ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference></ds:SignedInfo>'
sed "s|</ds:SignedInfo>|$second|" response-template.xml >"$tmp/two.xml"
xmlsec1 --sign --privkey-pem rsa-key.pem,rsa-cert.pem --id-attr:ID urn:oasis:names:tc:SAML:2.0:assertion:Assertion \
    --id-attr:ID urn:example:extra:Extra --output xmlsec1-two-references.xml "$tmp/two.xml"
# Each must verify with xmlsec1 itself (the refused ones are refused by Warden's policy, not by their math).
for file in xmlsec1-*.xml; do
    cert=rsa-cert.pem
    [[ $file == *ecdsa* ]] && cert=ec-cert.pem
    xmlsec1 --verify --pubkey-cert-pem "$cert" --id-attr:ID urn:oasis:names:tc:SAML:2.0:assertion:Assertion \
        --id-attr:ID urn:example:extra:Extra --enabled-reference-uris same-doc "$file" >/dev/null 2>&1 \
        || { echo "xmlsec1 does not verify $file" >&2; exit 1; }
done
echo "fixtures written"
