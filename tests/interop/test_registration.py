"""Dynamic client registration (RFC 7591, SPEC §13) with third-party code: the endpoint found through RFC 8414
metadata, a client registered as an MCP client would (loopback redirect, no secret), then authlib's OAuth2Session
runs the Authorization Code flow with PKCE through the hosted login; the consent page says the client is not
verified and names its host; the ID token is checked by joserfc. A confidential registration gets a secret that
authenticates at the token endpoint, yet never for client_credentials."""

from __future__ import annotations

import pytest
import requests
from authlib.common.security import generate_token
from authlib.integrations.requests_client import OAuth2Session
from joserfc import jwt
from joserfc.jwk import KeySet

from pkcelib import SCOPE, create_user, hosted_login, parse_page
from wardenlib import HTTP_TIMEOUT, describe, json_of


@pytest.fixture(scope="module")
def node(warden):
    """The suite's server, which runs with WARDEN_REGISTRATION=open."""
    return warden


def register(node, metadata: dict) -> requests.Response:
    discovery = json_of(requests.get(node.url(".well-known/oauth-authorization-server"), timeout=HTTP_TIMEOUT))
    assert discovery["registration_endpoint"] == node.url("oidc/register"), discovery
    return requests.post(discovery["registration_endpoint"], json=metadata, timeout=HTTP_TIMEOUT)


def test_a_registered_public_client_signs_a_user_in_after_an_unverified_consent(node):
    callback = "http://127.0.0.1:33418/callback"
    r = register(node, {"client_name": "Interop Agent", "redirect_uris": [callback],
                        "grant_types": ["authorization_code", "refresh_token"], "token_endpoint_auth_method": "none",
                        "client_uri": "https://agent.interop.test/", "application_type": "native"})
    assert r.status_code == 201, describe(r)
    registered = json_of(r)
    assert "client_secret" not in registered, registered
    client_id = registered["client_id"]
    user = create_user(node, name="Reggie Registered")

    session = OAuth2Session(client_id, redirect_uri=callback, scope=SCOPE, code_challenge_method="S256",
                            default_timeout=HTTP_TIMEOUT)
    verifier, nonce = generate_token(64), generate_token(24)
    url, state = session.create_authorization_url(node.url("authorize"), code_verifier=verifier, nonce=nonce)

    # The first answer after the login is the consent page, which says what no operator checked.
    browser = requests.Session()
    denied = hosted_login(node, url, redirect_uri=callback, email=user.email, password=user.password,
                          session=browser, consent="deny")
    assert denied.params.get("error") == "access_denied", denied.url
    page = browser.get(url, allow_redirects=True, timeout=HTTP_TIMEOUT)
    text = parse_page(page.text).text
    assert "Not verified" in text and "agent.interop.test" in text and "Interop Agent" in text, text

    approved = hosted_login(node, url, redirect_uri=callback, session=browser, consent="accept")
    assert approved.params.get("state") == state and "code" in approved.params, approved.url
    token = session.fetch_token(node.token_endpoint, authorization_response=approved.url, code_verifier=verifier,
                                state=state)
    keys = KeySet.import_key_set(node.jwks())
    claims = jwt.decode(token["id_token"], keys).claims
    assert claims["aud"] == client_id and claims["sub"] == user.user_id and claims["nonce"] == nonce, claims

    shown = json_of(node.mgmt("GET", f"clients/{client_id}"))
    assert shown["is_first_party"] is False and shown["registration"]["method"] == "dynamic", shown


def test_a_confidential_registration_authenticates_but_never_gets_client_credentials(node):
    r = register(node, {"redirect_uris": ["https://app.interop.test/cb"],
                        "token_endpoint_auth_method": "client_secret_basic"})
    assert r.status_code == 201, describe(r)
    registered = json_of(r)
    assert registered["client_secret_expires_at"] == 0, registered
    refused = requests.post(node.token_endpoint, data={"grant_type": "client_credentials",
                                                      "audience": node.mgmt_audience},
                            auth=(registered["client_id"], registered["client_secret"]), timeout=HTTP_TIMEOUT)
    assert refused.status_code == 400 and json_of(refused)["error"] == "unauthorized_client", describe(refused)
    wrong = requests.post(node.token_endpoint, data={"grant_type": "client_credentials",
                                                    "audience": node.mgmt_audience},
                          auth=(registered["client_id"], "not-the-secret"), timeout=HTTP_TIMEOUT)
    assert wrong.status_code == 401 and json_of(wrong)["error"] == "invalid_client", describe(wrong)


def test_an_http_redirect_off_loopback_is_refused(node):
    r = register(node, {"redirect_uris": ["http://agent.interop.test/callback"]})
    assert r.status_code == 400 and json_of(r)["error"] == "invalid_redirect_uri", describe(r)
    assert "no-store" in r.headers.get("Cache-Control", ""), r.headers
