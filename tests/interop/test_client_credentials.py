"""auth0-python's Authentication API client (`GetToken.client_credentials`) against Warden; tokens checked with joserfc.

SPEC §3 (access token claims, RFC 9068 header), §5 (client_credentials), §9 (APIs and client grants).
"""

from __future__ import annotations

import time

import pytest
from auth0.authentication import GetToken

from wardenlib import audiences, expect_status, is_int, json_of, unverified_header, verify_jwt


def sdk_token(warden, m2m) -> dict:
    client = GetToken(domain=warden.domain, client_id=m2m.client_id, client_secret=m2m.client_secret,
                      protocol="http", timeout=15)
    return client.client_credentials(m2m.audience)


def check_access_token(warden, token: str, m2m, *, alg: str, lifetime: int, scope: set[str]) -> tuple[dict, dict]:
    jwks = warden.jwks()
    header, claims = verify_jwt(token, jwks, [alg])
    assert header["alg"] == alg
    assert header.get("typ") == "at+jwt", header
    published = {k["kid"]: k for k in jwks["keys"]}
    assert header.get("kid") in published, f"kid {header.get('kid')!r} not in the JWKS {sorted(published)}"
    assert published[header["kid"]].get("alg") == alg
    assert claims["iss"] == warden.base_url
    assert audiences(claims) == [m2m.audience], claims["aud"]
    assert claims["sub"] == f"{m2m.client_id}@clients"
    assert claims["azp"] == m2m.client_id
    assert claims["client_id"] == m2m.client_id
    assert isinstance(claims["scope"], str) and set(claims["scope"].split()) == scope, claims["scope"]
    assert is_int(claims["iat"]) and is_int(claims["exp"]), (claims["iat"], claims["exp"])
    assert claims["exp"] - claims["iat"] == lifetime
    assert abs(claims["iat"] - time.time()) < 120, "iat is not now"
    assert isinstance(claims.get("jti"), str) and len(claims["jti"]) >= 16, claims.get("jti")
    return header, claims


def test_sdk_client_credentials_rs256(warden):
    m2m = warden.m2m(api_fields={"token_lifetime": 3600})
    response = sdk_token(warden, m2m)
    assert response["token_type"] == "Bearer"
    assert response["expires_in"] == 3600
    check_access_token(warden, response["access_token"], m2m, alg="RS256", lifetime=3600,
                       scope={"read:things", "write:things"})


def test_sdk_client_credentials_es256_with_default_lifetime(warden):
    m2m = warden.m2m(api_fields={"signing_alg": "ES256"})
    assert m2m.api.get("signing_alg") == "ES256"
    response = sdk_token(warden, m2m)
    assert response["expires_in"] == 86400
    header, _ = check_access_token(warden, response["access_token"], m2m, alg="ES256", lifetime=86400,
                                   scope={"read:things", "write:things"})
    key = next(k for k in warden.jwks()["keys"] if k["kid"] == header["kid"])
    assert key["kty"] == "EC" and key["crv"] == "P-256"


def test_token_verifies_only_with_its_own_key(warden):
    """The signature really is checked: the same token against the JWKS minus its key does not verify."""
    m2m = warden.m2m()
    token = sdk_token(warden, m2m)["access_token"]
    kid = unverified_header(token)["kid"]
    others = {"keys": [k for k in warden.jwks()["keys"] if k["kid"] != kid]}
    with pytest.raises(Exception):
        verify_jwt(token, others, ["RS256"])
    tampered = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    with pytest.raises(Exception):
        verify_jwt(tampered, warden.jwks(), ["RS256"])


def test_scope_subset_and_every_token_unique(warden):
    m2m = warden.m2m(api_fields={"token_lifetime": 600})
    first = json_of(expect_status(warden.client_credentials(m2m.client_id, m2m.client_secret, m2m.audience,
                                                            scope="read:things"), 200))
    assert set(first["scope"].split()) == {"read:things"}
    _, claims = check_access_token(warden, first["access_token"], m2m, alg="RS256", lifetime=600,
                                   scope={"read:things"})
    second = sdk_token(warden, m2m)
    _, claims2 = check_access_token(warden, second["access_token"], m2m, alg="RS256", lifetime=600,
                                    scope={"read:things", "write:things"})
    assert claims["jti"] != claims2["jti"]


def test_token_lifetime_follows_an_api_update(warden):
    m2m = warden.m2m(api_fields={"token_lifetime": 1200})
    expect_status(warden.mgmt("PATCH", f"resource-servers/{m2m.api['id']}", json={"token_lifetime": 300}), 200)
    response = sdk_token(warden, m2m)
    assert response["expires_in"] == 300
    check_access_token(warden, response["access_token"], m2m, alg="RS256", lifetime=300,
                       scope={"read:things", "write:things"})


def test_client_secret_basic_is_accepted(warden):
    m2m = warden.m2m(client_fields={"token_endpoint_auth_method": "client_secret_basic"})
    r = warden.http.post(warden.token_endpoint, auth=(m2m.client_id, m2m.client_secret),
                         data={"grant_type": "client_credentials", "audience": m2m.audience}, timeout=15)
    body = json_of(expect_status(r, 200))
    assert r.headers.get("Cache-Control", "").find("no-store") >= 0, r.headers
    check_access_token(warden, body["access_token"], m2m, alg="RS256", lifetime=86400,
                       scope={"read:things", "write:things"})
