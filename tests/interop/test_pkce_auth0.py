"""Authorization Code Flow with PKCE (SPEC §3, §5) with auth0-python's Authentication API client, which sends JSON
bodies (its refresh sends `"scope": ""`, which Warden must read as absent); and the flow's negative checks, seen
from the outside: a reused code, a wrong verifier / redirect_uri / client, /authorize errors."""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile

import pytest
from auth0.authentication import GetToken, RevokeToken, Users
from auth0.authentication.exceptions import Auth0Error

from pkcelib import (SCOPE, assert_oauth_error, auth0_token_verifier, authorize_url, code_exchange,
                     create_public_client, create_user, fake_callback, hosted_login, new_verifier, parse_page,
                     refresh_form, userinfo)
from wardenlib import HTTP_TIMEOUT, Warden, describe, json_of, uid


@pytest.fixture(scope="module")
def native(warden):
    """A public native client with two callbacks (a custom scheme and an https one) and a user."""
    callbacks = [f"io.interop.app{uid()}://callback", fake_callback()]
    client = create_public_client(warden, callbacks, app_type="native", name="pkce auth0 native")
    other = create_public_client(warden, callbacks, app_type="native", name="pkce auth0 other")
    user = create_user(warden, name="Sam Sdk")
    return {"client_id": client["client_id"], "other_client_id": other["client_id"], "callbacks": callbacks,
            "callback": callbacks[0], "user": user}


def login(warden, native, *, redirect_uri=None, nonce=None, verifier=None, **extra):
    """A fresh code for `native`: returns (code, verifier, redirect_uri)."""
    redirect_uri = redirect_uri or native["callback"]
    verifier = verifier or new_verifier()
    state = f"st-{uid()}"
    url = authorize_url(warden, native["client_id"], redirect_uri, verifier=verifier, state=state, nonce=nonce,
                        **extra)
    callback = hosted_login(warden, url, redirect_uri=redirect_uri, email=native["user"].email,
                            password=native["user"].password)
    assert callback.params.get("state") == state, callback.url
    return callback.code, verifier, redirect_uri


def get_token(warden, client_id) -> GetToken:
    return GetToken(warden.domain, client_id, protocol="http", timeout=HTTP_TIMEOUT)


def auth0_error(call) -> Auth0Error:
    with pytest.raises(Auth0Error) as caught:
        call()
    return caught.value


# --------------------------------------------------------------------------------------------- the happy path
def test_auth0_authorization_code_pkce_refresh_userinfo_revoke(warden, native):
    user, client_id = native["user"], native["client_id"]
    nonce = f"n-{uid()}"
    code, verifier, redirect_uri = login(warden, native, nonce=nonce)

    token = get_token(warden, client_id).authorization_code_pkce(verifier, code, redirect_uri)
    assert token["token_type"] == "Bearer" and isinstance(token["expires_in"], int), token
    assert set(token["scope"].split()) == set(SCOPE.split()), token
    for key in ("access_token", "id_token", "refresh_token"):
        assert isinstance(token.get(key), str) and token[key], f"no {key} in {token}"

    claims = auth0_token_verifier(warden, client_id).verify(token["id_token"], nonce=nonce)
    assert claims["sub"] == user.user_id and claims["email"] == user.email and claims["nonce"] == nonce, claims

    profile = Users(warden.domain, protocol="http", timeout=HTTP_TIMEOUT).userinfo(token["access_token"])
    assert profile["sub"] == user.user_id and profile["email"] == user.email, profile

    # auth0-python's refresh sends JSON with "scope": "" (absent, per SPEC conventions).
    refreshed = get_token(warden, client_id).refresh_token(token["refresh_token"])
    assert refreshed["token_type"] == "Bearer" and refreshed["access_token"] != token["access_token"], refreshed
    r = userinfo(warden, refreshed["access_token"])
    assert r.status_code == 200 and json_of(r)["sub"] == user.user_id, describe(r)

    RevokeToken(warden.domain, client_id, protocol="http", timeout=HTTP_TIMEOUT).revoke_refresh_token(
        token["refresh_token"])
    error = auth0_error(lambda: get_token(warden, client_id).refresh_token(token["refresh_token"]))
    assert (error.status_code, error.error_code) == (400, "invalid_grant"), vars(error)


@pytest.fixture(scope="module")
def fresh_tenant(warden):
    """A second server on a new database: a tenant whose APIs and clients use the default RS256, as an
    application written for the vendor's platform has. (The session's server also serves ES256 APIs, and the
    vendor SDK's JWKS fetcher cannot read a non-RSA key — see auth0_token_verifier.)"""
    workdir = tempfile.mkdtemp(prefix="warden-fresh-")
    node = Warden(binary=warden.binary, workdir=workdir, database_url=f"sqlite:{workdir}/fresh.sqlite",
                  mgmt_client_id="fresh-mgmt", mgmt_client_secret=secrets.token_urlsafe(36),
                  pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"))
    node.start()
    try:
        node.wait_ready(timeout=30)
        callbacks = [fake_callback()]
        client = create_public_client(node, callbacks, app_type="native", name="fresh native")
        user = create_user(node, name="Fresh User")
        yield node, {"client_id": client["client_id"], "callback": callbacks[0], "user": user}
    finally:
        node.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def test_auth0_python_token_verifier_unchanged_on_a_fresh_tenant(fresh_tenant):
    """SPEC §3: ID tokens validate with third-party OIDC libraries — here auth0-python's TokenVerifier exactly as
    shipped, `TokenVerifier(AsymmetricSignatureVerifier(jwks_url), issuer, client_id).verify(id_token, nonce=…)`.
    It parses every JWKS key as RSA, which holds because Warden makes ES256/PS256/EdDSA keys only when an API or
    client first uses them."""
    from auth0.authentication.token_verifier import AsymmetricSignatureVerifier, TokenVerifier

    node, app = fresh_tenant
    assert {k["kty"] for k in node.jwks()["keys"]} == {"RSA"}
    nonce = f"n-{uid()}"
    code, verifier, redirect_uri = login(node, app, nonce=nonce)
    token = get_token(node, app["client_id"]).authorization_code_pkce(verifier, code, redirect_uri)
    verifier_ = TokenVerifier(signature_verifier=AsymmetricSignatureVerifier(node.jwks_uri), issuer=node.issuer,
                              audience=app["client_id"])
    claims = verifier_.verify(token["id_token"], nonce=nonce)
    assert claims["sub"] == app["user"].user_id, claims
    assert claims["nonce"] == nonce


# ------------------------------------------------------------------------------------------- code exchange errors
def test_reused_code_is_invalid_grant_and_the_first_refresh_token_stops_working(warden, native):
    code, verifier, redirect_uri = login(warden, native)
    first = get_token(warden, native["client_id"]).authorization_code_pkce(verifier, code, redirect_uri)
    assert first.get("refresh_token"), first
    assert refresh_form(warden, native["client_id"], first["refresh_token"]).status_code == 200

    error = auth0_error(lambda: get_token(warden, native["client_id"]).authorization_code_pkce(
        verifier, code, redirect_uri))
    assert (error.status_code, error.error_code) == (400, "invalid_grant"), vars(error)
    # the same replay, form-encoded: still invalid_grant
    assert_oauth_error(code_exchange(warden, native["client_id"], code, verifier, redirect_uri), 400, "invalid_grant")

    assert_oauth_error(refresh_form(warden, native["client_id"], first["refresh_token"]), 400, "invalid_grant")


@pytest.mark.parametrize("mismatch", ["verifier", "redirect_uri", "client"])
def test_mismatched_exchange_is_invalid_grant(warden, native, mismatch):
    code, verifier, redirect_uri = login(warden, native)
    client_id = native["client_id"]
    if mismatch == "verifier":
        verifier = new_verifier()
    elif mismatch == "redirect_uri":
        redirect_uri = native["callbacks"][1]  # registered too, but not the one sent to /authorize
    else:
        client_id = native["other_client_id"]  # same callbacks, not the client the code was issued to
    error = auth0_error(lambda: get_token(warden, client_id).authorization_code_pkce(verifier, code, redirect_uri))
    assert (error.status_code, error.error_code) == (400, "invalid_grant"), vars(error)


@pytest.mark.parametrize("verifier", ["a" * 42, "a" * 129, "a" * 42 + "!"], ids=["42-chars", "129-chars", "bad-char"])
def test_malformed_verifier_is_invalid_request(warden, native, verifier):
    code, _, redirect_uri = login(warden, native)
    assert_oauth_error(code_exchange(warden, native["client_id"], code, verifier, redirect_uri), 400, "invalid_request")


# ------------------------------------------------------------------------------------------- /authorize errors
@pytest.mark.parametrize("case", ["unregistered-redirect", "unknown-client"])
def test_authorize_error_page_never_redirects(warden, native, case):
    client_id, redirect_uri = native["client_id"], "https://evil.interop.test/callback"
    if case == "unknown-client":
        client_id, redirect_uri = f"no-such-client-{uid()}", native["callback"]
    url = authorize_url(warden, client_id, redirect_uri, verifier=new_verifier(), state="s")
    r = warden.http.get(url, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 400, describe(r)
    assert "Location" not in r.headers, r.headers
    assert r.headers.get("Content-Type", "").startswith("text/html"), r.headers
    assert "evil.interop.test" not in (r.headers.get("Refresh") or ""), r.headers
    page = parse_page(r.text)
    assert not [f for f in page.forms if f.action and "evil" in f.action], "a form aimed at the unregistered URI"


@pytest.mark.parametrize("case", ["plain-method", "challenge-without-method", "public-client-without-pkce"])
def test_authorize_pkce_errors_redirect_with_invalid_request(warden, native, case):
    verifier = new_verifier()
    extra = {"plain-method": {"code_challenge": verifier, "code_challenge_method": "plain"},
             "challenge-without-method": {"code_challenge": verifier[:43]},
             "public-client-without-pkce": {}}[case]
    url = authorize_url(warden, native["client_id"], native["callback"], verifier=None, state="pk", **extra)
    callback = hosted_login(warden, url, redirect_uri=native["callback"], email=native["user"].email,
                            password=native["user"].password)
    assert callback.params.get("error") == "invalid_request", callback.url
    assert callback.params.get("state") == "pk" and "code" not in callback.params, callback.url
