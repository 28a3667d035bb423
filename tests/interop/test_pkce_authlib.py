"""Authorization Code Flow with PKCE (SPEC §3, §5) driven by authlib's OAuth2Session, the ID token checked by
auth0-python's TokenVerifier (given the RSA keys of the JWKS, see pkcelib.auth0_token_verifier): a public SPA
client, a user created through the Management API, the login through the hosted form (pkcelib.hosted_login, plain
requests), then tokens, refresh, /userinfo and revocation."""

from __future__ import annotations

import time

import pytest
from authlib.common.security import generate_token
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session

from pkcelib import (SCOPE, SESSION_COOKIE, assert_oauth_error, at_hash, auth0_token_verifier, authorize_url,
                     code_exchange, create_public_client, create_user, fake_callback, hosted_login, new_verifier,
                     refresh_form, set_cookie_headers, userinfo)
from wardenlib import HTTP_TIMEOUT, audiences, describe, is_int, json_of, verify_jwt


@pytest.fixture(scope="module")
def spa(warden):
    callback = fake_callback()
    client = create_public_client(warden, [callback], app_type="spa", name="pkce authlib spa")
    user = create_user(warden, name="Alex Authlib")
    return {"client": client, "client_id": client["client_id"], "callback": callback, "user": user}


class Recorder:
    """Keeps the raw responses authlib saw (compliance hooks), so statuses can be asserted exactly."""

    def __init__(self, client: OAuth2Session):
        self.responses = []
        for hook in ("access_token_response", "refresh_token_response"):
            client.register_compliance_hook(hook, self._keep)

    def _keep(self, response):
        self.responses.append(response)
        return response

    @property
    def last(self):
        assert self.responses, "authlib made no token request"
        return self.responses[-1]


def oauth_session(spa) -> OAuth2Session:
    return OAuth2Session(spa["client_id"], redirect_uri=spa["callback"], scope=SCOPE, code_challenge_method="S256",
                         default_timeout=HTTP_TIMEOUT)


def authlib_login(warden, spa):
    """authlib builds the /authorize URL, pkcelib logs in through the hosted form. Returns (client, callback,
    verifier, nonce, state)."""
    client = oauth_session(spa)
    verifier, nonce = generate_token(64), generate_token(24)
    url, state = client.create_authorization_url(warden.url("authorize"), code_verifier=verifier, nonce=nonce)
    callback = hosted_login(warden, url, redirect_uri=spa["callback"], email=spa["user"].email,
                            password=spa["user"].password)
    assert callback.params.get("state") == state, callback.url
    assert "error" not in callback.params, callback.url
    return client, callback, verifier, nonce, state


def test_authlib_code_flow_id_token_refresh_and_userinfo(warden, spa):
    user, client_id = spa["user"], spa["client_id"]
    client, callback, verifier, nonce, state = authlib_login(warden, spa)
    recorder = Recorder(client)
    started = int(time.time())

    token = client.fetch_token(warden.token_endpoint, authorization_response=callback.url, code_verifier=verifier,
                               state=state)
    assert recorder.last.status_code == 200, describe(recorder.last)
    assert "no-store" in recorder.last.headers.get("Cache-Control", ""), recorder.last.headers
    assert token["token_type"] == "Bearer", token
    assert is_int(token["expires_in"]) and token["expires_in"] > 0, token
    assert set(token["scope"].split()) == set(SCOPE.split()), token
    for key in ("access_token", "id_token", "refresh_token"):
        assert isinstance(token.get(key), str) and token[key], f"no {key} in {token}"

    # The ID token, checked by a third party (auth0-python) against the published JWKS.
    claims = auth0_token_verifier(warden, client_id).verify(token["id_token"], nonce=nonce)
    assert claims["sub"] == user.user_id and claims["aud"] == client_id, claims
    assert claims["nonce"] == nonce and claims["email"] == user.email, claims
    assert claims.get("azp") == client_id, claims
    assert is_int(claims["auth_time"]) and started - 120 <= claims["auth_time"] <= int(time.time()) + 5, claims
    assert isinstance(claims.get("sid"), str) and claims["sid"], claims
    assert claims.get("at_hash") == at_hash(token["access_token"]), claims
    assert claims.get("name") == "Alex Authlib", claims  # profile scope

    # The access token: RFC 9068 JWT for {issuer}userinfo.
    header, access = verify_jwt(token["access_token"], warden.jwks(), ["RS256", "ES256", "PS256", "EdDSA"])
    assert header.get("typ") == "at+jwt", header
    assert access["sub"] == user.user_id and access["client_id"] == client_id and access["iss"] == warden.issuer
    assert warden.url("userinfo") in audiences(access), access
    assert set(access["scope"].split()) == set(SCOPE.split()), access

    # /userinfo through authlib's session (Bearer header added by authlib).
    r = client.get(warden.url("userinfo"))
    assert r.status_code == 200, describe(r)
    info = json_of(r)
    assert info["sub"] == user.user_id and info["email"] == user.email, info

    # authlib's refresh_token(): a new access token that works at /userinfo too.
    first_access = token["access_token"]
    refreshed = client.refresh_token(warden.token_endpoint)
    assert recorder.last.status_code == 200, describe(recorder.last)
    assert refreshed["token_type"] == "Bearer" and refreshed["access_token"] != first_access, refreshed
    assert refreshed.get("refresh_token"), refreshed  # authlib keeps the old one when none comes back
    _, again = verify_jwt(refreshed["access_token"], warden.jwks(), ["RS256", "ES256", "PS256", "EdDSA"])
    assert again["sub"] == user.user_id and again["client_id"] == client_id, again
    if refreshed.get("id_token"):
        assert auth0_token_verifier(warden, client_id).verify(refreshed["id_token"])["sub"] == user.user_id
    r = userinfo(warden, refreshed["access_token"])
    assert r.status_code == 200 and json_of(r)["email"] == user.email, describe(r)


def test_login_sets_an_httponly_lax_sso_cookie_and_sso_skips_the_form(warden, spa):
    _, callback, _, _, _ = authlib_login(warden, spa)
    assert callback.login_response is not None, "\n".join(callback.steps)
    cookies = [c for c in set_cookie_headers(callback.login_response) if c.split("=", 1)[0].strip() == SESSION_COOKIE]
    assert len(cookies) == 1, f"Set-Cookie after the login post: {set_cookie_headers(callback.login_response)}"
    attributes = {a.strip().split("=", 1)[0].lower(): (a.strip().split("=", 1) + [""])[1].lower()
                  for a in cookies[0].split(";")[1:]}
    assert "httponly" in attributes and attributes.get("samesite") == "lax", cookies[0]
    assert "secure" not in attributes, f"Secure on a plain-HTTP issuer: {cookies[0]}"

    # Same browser again: the SSO session answers /authorize with a code at once, no login form.
    verifier = new_verifier()
    url = authorize_url(warden, spa["client_id"], spa["callback"], verifier=verifier, state="again")
    again = hosted_login(warden, url, redirect_uri=spa["callback"], session=callback.session)
    assert again.params.get("state") == "again" and again.code, again.url
    assert len(again.steps) == 1 and " -> 302 " in again.steps[0], again.steps  # straight to the callback
    r = code_exchange(warden, spa["client_id"], again.code, verifier, spa["callback"])
    assert r.status_code == 200, describe(r)
    claims = auth0_token_verifier(warden, spa["client_id"]).verify(json_of(r)["id_token"])
    assert claims["sub"] == spa["user"].user_id, claims


def test_reused_code_is_invalid_grant_and_revokes_the_first_refresh_token(warden, spa):
    client, callback, verifier, _, state = authlib_login(warden, spa)
    recorder = Recorder(client)
    token = client.fetch_token(warden.token_endpoint, authorization_response=callback.url, code_verifier=verifier,
                               state=state)
    assert token.get("refresh_token"), token

    second = oauth_session(spa)
    second_recorder = Recorder(second)
    with pytest.raises(OAuthError) as caught:
        second.fetch_token(warden.token_endpoint, authorization_response=callback.url, code_verifier=verifier,
                           state=state)
    assert caught.value.error == "invalid_grant", caught.value
    assert_oauth_error(second_recorder.last, 400, "invalid_grant")

    with pytest.raises(OAuthError) as caught:
        client.refresh_token(warden.token_endpoint, refresh_token=token["refresh_token"])
    assert caught.value.error == "invalid_grant", caught.value
    assert_oauth_error(recorder.last, 400, "invalid_grant")


def test_wrong_verifier_is_invalid_grant(warden, spa):
    client, callback, verifier, _, state = authlib_login(warden, spa)
    recorder = Recorder(client)
    wrong = generate_token(64)
    assert wrong != verifier
    with pytest.raises(OAuthError) as caught:
        client.fetch_token(warden.token_endpoint, authorization_response=callback.url, code_verifier=wrong,
                           state=state)
    assert caught.value.error == "invalid_grant", caught.value
    assert_oauth_error(recorder.last, 400, "invalid_grant")


def test_authlib_revoke_token_ends_the_refresh_token(warden, spa):
    client, callback, verifier, _, state = authlib_login(warden, spa)
    token = client.fetch_token(warden.token_endpoint, authorization_response=callback.url, code_verifier=verifier,
                               state=state)
    refresh_token = token["refresh_token"]
    assert refresh_form(warden, spa["client_id"], refresh_token).status_code == 200

    r = client.revoke_token(warden.url("oauth/revoke"), token=refresh_token, token_type_hint="refresh_token")
    assert r.status_code == 200, describe(r)
    assert_oauth_error(refresh_form(warden, spa["client_id"], refresh_token), 400, "invalid_grant")


def test_form_post_response_mode_delivers_the_code_to_authlib(warden, spa):
    """response_mode=form_post (SPEC §5): an auto-submitting form aimed at the callback carries code and state."""
    client = oauth_session(spa)
    verifier, nonce = generate_token(64), generate_token(24)
    url, state = client.create_authorization_url(warden.url("authorize"), code_verifier=verifier, nonce=nonce,
                                                 response_mode="form_post")
    assert "response_mode=form_post" in url, url
    callback = hosted_login(warden, url, redirect_uri=spa["callback"], email=spa["user"].email,
                            password=spa["user"].password)
    assert " -> 200" in callback.steps[-1], callback.steps  # a page with the form, not a redirect
    assert callback.params.get("state") == state and callback.params.get("code"), callback.params
    token = client.fetch_token(warden.token_endpoint, code=callback.params["code"], code_verifier=verifier,
                               grant_type="authorization_code")
    claims = auth0_token_verifier(warden, spa["client_id"]).verify(token["id_token"], nonce=nonce)
    assert claims["sub"] == spa["user"].user_id, claims
