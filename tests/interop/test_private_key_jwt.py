"""private_key_jwt client authentication (RFC 7523, SPEC §4): assertions signed with joserfc, and auth0-python's own."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import uuid

import pytest
from auth0.authentication import GetToken
from auth0.authentication.exceptions import Auth0Error
from joserfc import jwt
from joserfc.jwk import RSAKey

from wardenlib import HTTP_TIMEOUT, describe, expect_status, json_of, uid, verify_jwt

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"


@pytest.fixture(scope="module")
def pkj(warden):
    key = RSAKey.generate_key(2048)
    pem = key.as_pem(private=False).decode()
    api = warden.create_api()
    client = warden.create_client(
        token_endpoint_auth_method=None,
        client_authentication_methods={"private_key_jwt": {"credentials": [
            {"credential_type": "public_key", "name": "k1", "pem": pem}]}},
    )
    warden.create_client_grant(client["client_id"], api["identifier"], ["read:things"])
    return {"key": key, "pem": pem, "client": client, "api": api, "client_id": client["client_id"]}


def assertion(pkj, key=None, *, aud=None, exp_in=120, jti=None, alg="RS256", **overrides) -> str:
    now = int(time.time())
    claims = {"iss": pkj["client_id"], "sub": pkj["client_id"], "aud": aud, "iat": now, "exp": now + exp_in,
              "jti": jti or str(uuid.uuid4())}
    claims.update(overrides)
    return jwt.encode({"alg": alg, "typ": "JWT"}, claims, key or pkj["key"], algorithms=[alg])


def post_assertion(warden, pkj, client_assertion, **extra):
    form = {"grant_type": "client_credentials", "client_id": pkj["client_id"], "audience": pkj["api"]["identifier"],
            "client_assertion_type": ASSERTION_TYPE, "client_assertion": client_assertion}
    form.update(extra)
    return warden.http.post(warden.token_endpoint, data=form, timeout=HTTP_TIMEOUT)


def assert_invalid_client(response):
    assert response.status_code == 401, describe(response)
    assert json_of(response)["error"] == "invalid_client", describe(response)
    assert "no-store" in response.headers.get("Cache-Control", "")


def test_credentials_are_returned_with_ids_never_the_pem(warden, pkj):
    for body in (pkj["client"], json_of(expect_status(warden.mgmt("GET", f"clients/{pkj['client_id']}"), 200))):
        creds = body["client_authentication_methods"]["private_key_jwt"]["credentials"]
        assert len(creds) == 1 and creds[0]["id"].startswith("cred_"), creds
        text = str(body)
        assert "BEGIN PUBLIC KEY" not in text and pkj["pem"].splitlines()[1] not in text, "the PEM came back"


def test_assertion_accepted_once_then_replay_rejected(warden, pkj):
    signed = assertion(pkj, aud=warden.token_endpoint)
    r = post_assertion(warden, pkj, signed)
    assert r.status_code == 200, describe(r)
    _, claims = verify_jwt(json_of(r)["access_token"], warden.jwks(), ["RS256"])
    assert claims["sub"] == f"{pkj['client_id']}@clients" and claims["azp"] == pkj["client_id"]
    assert claims["scope"] == "read:things"
    assert_invalid_client(post_assertion(warden, pkj, signed))


def test_client_id_parameter_may_be_omitted(warden, pkj):
    form = {"grant_type": "client_credentials", "audience": pkj["api"]["identifier"],
            "client_assertion_type": ASSERTION_TYPE, "client_assertion": assertion(pkj, aud=warden.token_endpoint)}
    r = warden.http.post(warden.token_endpoint, data=form, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200, describe(r)


@pytest.mark.parametrize("aud_kind", ["issuer", "https_host"])
def test_other_accepted_audiences(warden, pkj, aud_kind):
    aud = warden.issuer if aud_kind == "issuer" else f"https://{warden.domain}/"
    r = post_assertion(warden, pkj, assertion(pkj, aud=aud))
    assert r.status_code == 200, describe(r)


def test_auth0_python_private_key_jwt(warden, pkj):
    """auth0-python signs its own assertion (PyJWT, aud https://{domain}/, 180 s, uuid jti)."""
    client = GetToken(domain=warden.domain, client_id=pkj["client_id"],
                      client_assertion_signing_key=pkj["key"].as_pem(private=True).decode(),
                      client_assertion_signing_alg="RS256", protocol="http", timeout=15)
    response = client.client_credentials(pkj["api"]["identifier"])
    _, claims = verify_jwt(response["access_token"], warden.jwks(), ["RS256"])
    assert claims["sub"] == f"{pkj['client_id']}@clients"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unsigned_claims(pkj, aud: str) -> dict:
    now = int(time.time())
    return {"iss": pkj["client_id"], "sub": pkj["client_id"], "aud": aud, "iat": now, "exp": now + 60,
            "jti": str(uuid.uuid4())}


def hand_made_jwt(header: dict, claims: dict, sign) -> str:
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
    return signing_input + "." + b64url(sign(signing_input.encode()))


@pytest.mark.parametrize("case", [
    "exp_more_than_5_minutes_ahead", "expired", "wrong_key", "wrong_audience", "iss_not_client", "sub_not_client",
    "no_jti", "alg_none", "hs256_keyed_with_the_public_pem",
])
def test_bad_assertions_are_invalid_client(warden, pkj, case):
    aud = warden.token_endpoint
    if case == "exp_more_than_5_minutes_ahead":
        signed = assertion(pkj, aud=aud, exp_in=600)
    elif case == "expired":
        signed = assertion(pkj, aud=aud, exp_in=-60, iat=int(time.time()) - 180)
    elif case == "wrong_key":
        signed = assertion(pkj, RSAKey.generate_key(2048), aud=aud)
    elif case == "wrong_audience":
        signed = assertion(pkj, aud="https://somewhere-else.interop.test/oauth/token")
    elif case == "iss_not_client":
        signed = assertion(pkj, aud=aud, iss=f"other-{uid()}")
    elif case == "sub_not_client":
        signed = assertion(pkj, aud=aud, sub=f"other-{uid()}")
    elif case == "no_jti":
        claims = unsigned_claims(pkj, aud)
        del claims["jti"]
        signed = jwt.encode({"alg": "RS256"}, claims, pkj["key"])
    elif case == "alg_none":
        signed = hand_made_jwt({"alg": "none", "typ": "JWT"}, unsigned_claims(pkj, aud), lambda _: b"")
    else:  # key confusion: HS256 with the registered public key's PEM as the HMAC secret
        secret = pkj["pem"].encode()
        signed = hand_made_jwt({"alg": "HS256", "typ": "JWT"}, unsigned_claims(pkj, aud),
                               lambda data: hmac.new(secret, data, hashlib.sha256).digest())
    assert_invalid_client(post_assertion(warden, pkj, signed))


def test_client_with_only_a_key_cannot_use_a_secret(warden, pkj):
    """Its method is private_key_jwt: a secret (the real one, if the server generated one) is refused."""
    secret = pkj["client"].get("client_secret") or "any-secret"
    assert_invalid_client(warden.client_credentials(pkj["client_id"], secret, pkj["api"]["identifier"]))


def test_auth0_python_makes_a_fresh_assertion_per_call_and_a_foreign_key_is_refused(warden, pkj):
    """Two auth0-python calls carry two jtis: both accepted (no false replay); another key's assertion: 401."""
    client = GetToken(domain=warden.domain, client_id=pkj["client_id"],
                      client_assertion_signing_key=pkj["key"].as_pem(private=True).decode(), protocol="http")
    client.client_credentials(pkj["api"]["identifier"])
    client.client_credentials(pkj["api"]["identifier"])
    with pytest.raises(Auth0Error) as error:
        GetToken(domain=warden.domain, client_id=pkj["client_id"],
                 client_assertion_signing_key=RSAKey.generate_key(2048).as_pem(private=True).decode(),
                 protocol="http").client_credentials(pkj["api"]["identifier"])
    assert error.value.status_code == 401 and error.value.error_code == "invalid_client"
