"""SPEC §2: the discovery document and the JWKS."""

from __future__ import annotations

import pytest
from joserfc.jwk import KeySet

from wardenlib import HTTP_TIMEOUT, expect_status, json_of

PRIVATE_MEMBERS = {"d", "p", "q", "dp", "dq", "qi", "oth", "k"}


@pytest.fixture(scope="module")
def discovery(warden) -> dict:
    r = expect_status(warden.http.get(warden.url(".well-known/openid-configuration"), timeout=HTTP_TIMEOUT), 200)
    assert r.headers.get("Content-Type", "").startswith("application/json"), r.headers
    return json_of(r)


@pytest.fixture(scope="module")
def jwks(warden) -> dict:
    r = expect_status(warden.http.get(warden.jwks_uri, timeout=HTTP_TIMEOUT), 200)
    assert r.headers.get("Content-Type", "").startswith(("application/json", "application/jwk-set+json")), r.headers
    return json_of(r)


def test_issuer_is_the_base_url_with_trailing_slash(warden, discovery):
    assert discovery["issuer"] == warden.base_url
    assert discovery["issuer"].endswith("/")


# The document lists the endpoints this build serves (later features add theirs); a listed endpoint must
# be the SPEC §2 URL under the issuer and must answer.
ENDPOINTS = {
    "authorization_endpoint": "authorize",
    "token_endpoint": "oauth/token",
    "userinfo_endpoint": "userinfo",
    "jwks_uri": ".well-known/jwks.json",
    "revocation_endpoint": "oauth/revoke",
    "end_session_endpoint": "oidc/logout",
    "backchannel_authentication_endpoint": "bc-authorize",
}
POST_ONLY = {"token_endpoint", "revocation_endpoint", "backchannel_authentication_endpoint"}


def probe(warden, field, url):
    """The endpoint's answer to the method it serves (an empty POST, or a GET)."""
    method = "POST" if field in POST_ONLY else "GET"
    return warden.http.request(method, url, data={} if method == "POST" else None, timeout=HTTP_TIMEOUT,
                               allow_redirects=False)


@pytest.mark.parametrize("field", ["token_endpoint", "jwks_uri"])
def test_served_endpoints_are_listed(warden, discovery, field):
    assert discovery[field] == warden.issuer + ENDPOINTS[field]


def test_listed_endpoints_are_under_the_issuer_and_answer(warden, discovery):
    listed = {field: discovery[field] for field in ENDPOINTS if field in discovery}
    for field, url in listed.items():
        assert url == warden.issuer + ENDPOINTS[field], field
        r = probe(warden, field, url)
        assert r.status_code != 404, f"{field} {url} is listed but answers 404"


def test_unserved_endpoints_are_not_listed(warden, discovery):
    for field, path in ENDPOINTS.items():
        r = probe(warden, field, warden.issuer + path)
        if r.status_code == 404:
            assert field not in discovery, f"{field} is listed but {path} answers 404"


def test_fixed_values(discovery):
    assert discovery["response_types_supported"] == ["code"]
    assert discovery["subject_types_supported"] == ["public"]
    assert set(discovery["token_endpoint_auth_methods_supported"]) == {
        "client_secret_basic", "client_secret_post", "private_key_jwt", "none"}
    # values of features that may not be served yet: when present, exactly SPEC §2
    if "backchannel_token_delivery_modes_supported" in discovery:
        assert set(discovery["backchannel_token_delivery_modes_supported"]) == {"poll", "ping"}
        assert discovery["backchannel_user_code_parameter_supported"] is False
    if "code_challenge_methods_supported" in discovery:
        assert discovery["code_challenge_methods_supported"] == ["S256"]


def test_supported_lists(discovery):
    assert "client_credentials" in discovery["grant_types_supported"]
    assert {"openid", "profile", "email", "offline_access"} <= set(discovery["scopes_supported"])
    assert {"sub", "iss", "aud", "exp", "iat", "email", "email_verified", "name", "nickname",
            "picture"} <= set(discovery["claims_supported"])
    if "authorization_details_types_supported" in discovery:
        assert all(isinstance(t, str) for t in discovery["authorization_details_types_supported"])
    assert set(discovery["id_token_signing_alg_values_supported"]) == {"RS256", "ES256", "PS256", "EdDSA"}


def test_advertised_endpoints_answer(warden, discovery):
    jwks = expect_status(warden.http.get(discovery["jwks_uri"], timeout=HTTP_TIMEOUT), 200)
    assert json_of(jwks)["keys"]
    # An empty token request is a client error in the OAuth shape, not a 404 or a 5xx.
    token = warden.http.post(discovery["token_endpoint"], data={}, timeout=HTTP_TIMEOUT)
    assert token.status_code in (400, 401), token.text
    assert "error" in json_of(token)


def test_jwks_keys_are_public_signing_keys(jwks):
    keys = jwks["keys"]
    assert keys, "the JWKS is empty"
    kids = [k.get("kid") for k in keys]
    assert all(isinstance(kid, str) and kid for kid in kids), kids
    assert len(set(kids)) == len(kids), f"duplicate kids: {kids}"
    for key in keys:
        assert key.get("use") == "sig", key
        assert key.get("kty") in ("RSA", "EC", "OKP"), key
        assert key.get("alg") in ("RS256", "ES256", "PS256", "EdDSA"), key
        assert not PRIVATE_MEMBERS & set(key), f"private key material published: {sorted(PRIVATE_MEMBERS & set(key))}"
        if key["alg"] in ("RS256", "PS256"):
            assert key["kty"] == "RSA" and key.get("n") and key.get("e"), key
        elif key["alg"] == "ES256":
            assert key["kty"] == "EC" and key.get("crv") == "P-256" and key.get("x") and key.get("y"), key
        else:
            assert key["kty"] == "OKP" and key.get("crv") == "Ed25519" and key.get("x"), key
    # every key imports into a third-party JOSE library
    KeySet.import_key_set(jwks)


def test_bootstrap_published_an_rs256_2048_key(jwks):
    # ES256, PS256 and EdDSA keys appear once an API or client uses them (a fresh tenant publishes RSA only:
    # test_pkce_auth0.test_auth0_python_token_verifier_unchanged_on_a_fresh_tenant)
    algs = {k.get("alg") for k in jwks["keys"]}
    assert "RS256" in algs, algs
    rsa = [k for k in jwks["keys"] if k.get("alg") == "RS256"]
    # 2048-bit modulus: 256 bytes, 342 or 343 base64url characters
    assert any(len(k["n"]) in (342, 343) for k in rsa), [len(k["n"]) for k in rsa]
