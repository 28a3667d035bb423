"""SPEC §17 "Native API": `/passkey/register`, `/passkey/challenge` and the webauthn grant at `/oauth/token`, driven
by a software authenticator (webauthnlib, on `cryptography`) as an app around the platform's passkey API would.
Each check of §17 has a test that tampers exactly that input and gets `invalid_grant` (400) with nothing stored;
the ID tokens Warden issues are verified with joserfc. The node trusts 127.0.0.1's X-Forwarded-For, so each
sign-up comes from an address of its own (SPEC §15.1's per-IP limit applies to passkey sign-ups too)."""

from __future__ import annotations

import base64
import json
from urllib.parse import quote

import pytest
import requests

from pkcelib import create_user
from test_accounts import new_ip
from test_server import metric
from wardenlib import HTTP_TIMEOUT, describe, expect_status, json_of, uid, verify_jwt
from webauthnlib import BE, BS, UP, UV, Authenticator, b64url, cbor

CONNECTION = "Username-Password-Authentication"
GRANT = "urn:okta:params:oauth:grant-type:webauthn"


def database_connection(node) -> dict:
    return json_of(expect_status(node.mgmt("GET", "connections?name=" + CONNECTION), 200))[0]


@pytest.fixture(scope="module")
def node(proxied_node):
    """The proxied node with passkeys on (the database connection's options restored afterwards)."""
    connection = database_connection(proxied_node)
    before = connection["options"]
    enabled = {**before, "authentication_methods": {"password": {"enabled": True}, "passkey": {"enabled": True}},
               "passkey_options": {"challenge_ui": "both", "progressive_enrollment_enabled": True,
                                   "local_enrollment_enabled": True}}
    expect_status(proxied_node.mgmt("PATCH", f"connections/{connection['id']}", json={"options": enabled}), 200)
    yield proxied_node
    expect_status(proxied_node.mgmt("PATCH", f"connections/{connection['id']}", json={"options": before}), 200)


@pytest.fixture(scope="module")
def app(node) -> dict:
    """A native app allowed the webauthn grant."""
    return node.create_client(app_type="native", token_endpoint_auth_method="none", callbacks=[],
                              grant_types=[GRANT, "refresh_token"], name="Passkey app")


def authenticator(node, alg: str = "ES256", **kwargs) -> Authenticator:
    """The app's platform authenticator: RP ID the issuer's host, the client at the issuer's origin."""
    return Authenticator(rp_id="127.0.0.1", origin=node.issuer.rstrip("/"), alg=alg, **kwargs)


def post(node, path: str, body: dict, ip: str | None = None) -> requests.Response:
    return requests.post(node.url(path), json=body, headers={"X-Forwarded-For": ip or new_ip()},
                         timeout=HTTP_TIMEOUT)


def register_challenge(node, app, email: str | None = None, **extra) -> dict:
    body = {"client_id": app["client_id"], "realm": CONNECTION,
            "user_profile": {"email": email or f"passkey-{uid()}@interop.test", "name": "Pat Passkey"}, **extra}
    return json_of(expect_status(post(node, "passkey/register", body), 200))


def login_challenge(node, app) -> dict:
    return json_of(expect_status(post(node, "passkey/challenge", {"client_id": app["client_id"]}), 200))


def exchange(node, app, session: str, credential: dict, **extra) -> requests.Response:
    """The webauthn grant, as a form with `authn_response` a JSON string (SPEC §17)."""
    return requests.post(node.url("oauth/token"), timeout=HTTP_TIMEOUT, headers={"X-Forwarded-For": new_ip()},
                         data={"grant_type": GRANT, "client_id": app["client_id"], "realm": CONNECTION,
                               "auth_session": session, "authn_response": json.dumps(credential),
                               "scope": "openid profile email offline_access", **extra})


def sign_up(node, app, device: Authenticator, email: str | None = None, **tamper) -> tuple[str, requests.Response]:
    challenge = register_challenge(node, app, email)
    credential = device.create(challenge["authn_params_public_key"], **tamper)
    return challenge["authn_params_public_key"]["user"]["name"], exchange(
        node, app, challenge["auth_session"], credential)


def sign_in(node, app, device: Authenticator, **tamper) -> requests.Response:
    challenge = login_challenge(node, app)
    return exchange(node, app, challenge["auth_session"], device.get(challenge["authn_params_public_key"], **tamper))


def users_with_email(node, email: str) -> list:
    return json_of(expect_status(node.mgmt("GET", "users-by-email", params={"email": email}), 200))


def assert_refused(response: requests.Response, error: str = "invalid_grant", check: str | None = None) -> None:
    assert response.status_code == 400, describe(response)
    body = response.json()
    assert body["error"] == error, body
    if check:
        assert body["error_description"].startswith(check), body


def id_token_claims(node, app, response: requests.Response) -> dict:
    tokens = json_of(expect_status(response, 200))
    _, claims = verify_jwt(tokens["id_token"], node.jwks(), ["RS256"])
    assert claims["aud"] == app["client_id"] and claims["iss"] == node.issuer, claims
    return claims


# ------------------------------------------------------------------------------------------- the happy paths
def test_the_options_offer_eddsa_es256_rs256_with_user_verification_required(node, app):
    options = register_challenge(node, app)["authn_params_public_key"]
    assert [p["alg"] for p in options["pubKeyCredParams"]] == [-8, -7, -257], options
    assert options["rp"]["id"] == "127.0.0.1" and options["attestation"] == "none", options
    assert options["authenticatorSelection"] == {"residentKey": "required", "userVerification": "required"}
    assert options["timeout"] == 300000 and len(options["challenge"]) >= 43, options
    request = login_challenge(node, app)["authn_params_public_key"]
    assert request["rpId"] == "127.0.0.1" and request["userVerification"] == "required", request


@pytest.mark.parametrize("alg", ["ES256", "EdDSA", "RS256"])
def test_a_passkey_signs_up_then_signs_in(node, app, alg):
    device = authenticator(node, alg)
    email, response = sign_up(node, app, device)
    claims = id_token_claims(node, app, response)
    assert claims["amr"] == ["phr", "mfa"] and claims["acr"], claims
    user, = users_with_email(node, email)
    assert user["user_id"] == claims["sub"] and user["email_verified"] is False, user
    assert [i["provider"] for i in user["identities"]] == ["auth0"], user
    # No password: the account signs in with its passkey.
    again = id_token_claims(node, app, sign_in(node, app, device))
    assert again["sub"] == claims["sub"] and again["amr"] == ["phr", "mfa"], again


def test_a_packed_self_attestation_is_checked_and_kept(node, app):
    device = authenticator(node, aaguid=bytes(range(16)))
    email, response = sign_up(node, app, device, packed=True)
    expect_status(response, 200)
    device_bad = authenticator(node)
    _, refused = sign_up(node, app, device_bad, packed=True, packed_signature=True)
    assert_refused(refused, check="attestation")


# ------------------------------------------------------------------------------------------- policy and input
def test_passkeys_off_are_403_access_denied_on_every_endpoint(proxied_node, app):
    connection = database_connection(proxied_node)
    options = {**connection["options"], "authentication_methods": {"passkey": {"enabled": False}}}
    expect_status(proxied_node.mgmt("PATCH", f"connections/{connection['id']}", json={"options": options}), 200)
    try:
        for path, body in (("passkey/register", {"client_id": app["client_id"],
                                                 "user_profile": {"email": f"off-{uid()}@interop.test"}}),
                           ("passkey/challenge", {"client_id": app["client_id"]})):
            r = post(proxied_node, path, body)
            assert r.status_code == 403 and r.json()["error"] == "access_denied", describe(r)
            assert r.json()["error_description"] == "Passkeys are not enabled"
        r = exchange(proxied_node, app, "any", {"type": "public-key"})
        assert r.status_code == 403 and r.json()["error"] == "access_denied", describe(r)
    finally:
        options["authentication_methods"] = {"passkey": {"enabled": True}}
        expect_status(proxied_node.mgmt("PATCH", f"connections/{connection['id']}", json={"options": options}), 200)


def test_an_email_in_use_is_invalid_signup_saying_no_more(node, app):
    existing = create_user(node)
    r = post(node, "passkey/register", {"client_id": app["client_id"], "user_profile": {"email": existing.email}})
    assert r.status_code == 400 and r.json()["error"] == "invalid_signup", describe(r)
    assert existing.email not in r.text


def test_a_client_without_the_grant_is_unauthorized_client(node):
    plain = node.create_client(app_type="native", token_endpoint_auth_method="none", callbacks=[],
                               grant_types=["refresh_token"])
    challenge = login_challenge(node, plain)
    r = exchange(node, plain, challenge["auth_session"], {"type": "public-key"})
    assert r.status_code == 400 and r.json()["error"] == "unauthorized_client", describe(r)


def test_another_realm_is_invalid_request(node, app):
    r = post(node, "passkey/challenge", {"client_id": app["client_id"], "realm": "acme-oidc"})
    assert r.status_code == 400 and r.json()["error"] == "invalid_request", describe(r)


@pytest.mark.parametrize("authn_response", ["not json", json.dumps({"type": "public-key"}),
                                            json.dumps({"type": "public-key", "rawId": "***", "response": {}})])
def test_a_malformed_authn_response_is_invalid_request(node, app, authn_response):
    challenge = login_challenge(node, app)
    r = requests.post(node.url("oauth/token"), timeout=HTTP_TIMEOUT, data={
        "grant_type": GRANT, "client_id": app["client_id"], "auth_session": challenge["auth_session"],
        "authn_response": authn_response})
    assert_refused(r, "invalid_request")


def test_deeply_nested_or_oversized_cbor_is_refused_without_a_5xx(node, app):
    for attestation in (b"\x81" * 5000 + b"\x00", cbor({"fmt": "none", "attStmt": {}, "authData": b"\x00" * 70000})):
        challenge = register_challenge(node, app)
        device = authenticator(node)
        credential = device.create(challenge["authn_params_public_key"])
        credential["response"]["attestationObject"] = b64url(attestation)
        r = exchange(node, app, challenge["auth_session"], credential)
        assert r.status_code in (400, 413), describe(r)
        if r.status_code == 400:
            assert r.json()["error"] in ("invalid_grant", "invalid_request"), r.text


# ------------------------------------------------------------------------------- each registration check
REGISTRATION_TAMPERS = [
    ("type", {"type": "webauthn.get"}, "type"),
    ("challenge", {"challenge": b64url(b"\x00" * 32)}, "challenge"),
    ("origin", {"origin": "http://evil.example"}, "origin"),
    ("cross origin", {"cross_origin": True}, "origin"),
    ("rp id hash", {"rp_id_hash": bytes(32)}, "rpIdHash"),
    ("user presence", {"flags": UV | 0x40}, "user presence"),
    ("user verification", {"flags": UP | 0x40}, "user verification"),
    ("backed up without eligible", {"flags": UP | UV | BS | 0x40}, "backup state"),
    ("algorithm not offered", {"alg": -35}, "algorithm"),
    ("credential id too long", {"credential_id": bytes(1024)}, "credential"),
    ("raw id not the credential", {"raw_id": bytes(32)}, "rawId"),
]


@pytest.mark.parametrize("name, tamper, check", REGISTRATION_TAMPERS, ids=[t[0] for t in REGISTRATION_TAMPERS])
def test_each_registration_check_refuses_its_tampered_input(node, app, name, tamper, check):
    email, response = sign_up(node, app, authenticator(node), **tamper)
    assert_refused(response, check=check)
    assert users_with_email(node, email) == [], "a refused sign-up stored a user"


def test_a_credential_registered_already_is_refused(node, app):
    first = authenticator(node)
    expect_status(sign_up(node, app, first)[1], 200)
    email, response = sign_up(node, app, authenticator(node), credential_id=first.credentials[-1].id)
    assert_refused(response, check="credential")
    assert users_with_email(node, email) == []


def test_an_auth_session_is_single_use_and_bound_to_its_client(node, app):
    challenge = register_challenge(node, app)
    device = authenticator(node)
    credential = device.create(challenge["authn_params_public_key"])
    other = node.create_client(app_type="native", token_endpoint_auth_method="none", callbacks=[], grant_types=[GRANT])
    assert_refused(exchange(node, other, challenge["auth_session"], credential))
    # The other client's attempt consumed it: single use whoever tried.
    assert_refused(exchange(node, app, challenge["auth_session"], credential))
    challenge = login_challenge(node, app)
    assert_refused(exchange(node, app, challenge["auth_session"], {"type": "public-key", "rawId": b64url(b"x"),
                                                                   "response": {"clientDataJSON": b64url(b"{}"),
                                                                                "authenticatorData": "",
                                                                                "signature": ""}}))


# ------------------------------------------------------------------------------------ each sign-in check
@pytest.fixture
def enrolled(node, app) -> tuple[Authenticator, str]:
    device = authenticator(node)
    _, response = sign_up(node, app, device)
    return device, id_token_claims(node, app, response)["sub"]


SIGN_IN_TAMPERS = [
    ("type", {"type": "webauthn.create"}, "type"),
    ("challenge", {"challenge": b64url(b"\x01" * 32)}, "challenge"),
    ("origin", {"origin": "http://127.0.0.1:1"}, "origin"),
    ("cross origin", {"cross_origin": True}, "origin"),
    ("rp id hash", {"rp_id_hash": bytes(32)}, "rpIdHash"),
    ("user presence", {"flags": UV}, "user presence"),
    ("user verification", {"flags": UP}, "user verification"),
    ("backed up without eligible", {"flags": UP | UV | BS}, "backup state"),
    ("signature", {"signature": True}, "signature"),
    ("sign count", {"sign_count": 0}, "sign count"),
    ("user handle", {"user_handle": b"auth0|someone-else"}, "userHandle"),
    ("no user handle", {"user_handle": None}, "userHandle"),
    ("unknown credential", {"raw_id": bytes(32)}, "The passkey is not registered"),
]


def failures(node, check: str) -> float:
    """`warden_passkey_failures_total{check}` on the node's /metrics."""
    text = expect_status(requests.get(node.url("metrics"), timeout=HTTP_TIMEOUT), 200).text
    return metric(text, "warden_passkey_failures_total", check=check)


@pytest.mark.parametrize("name, tamper, check", SIGN_IN_TAMPERS, ids=[t[0] for t in SIGN_IN_TAMPERS])
def test_each_sign_in_check_refuses_its_tampered_input(node, app, enrolled, name, tamper, check):
    device, sub = enrolled
    expect_status(sign_in(node, app, device), 200)  # counter 1 stored
    counted = "credential" if check.startswith("The ") else check  # the metric's label (issue 33)
    before = failures(node, counted)
    assert_refused(sign_in(node, app, device, **tamper), check=check)
    assert failures(node, counted) == before + 1, check
    # The passkey still works: nothing of the refused attempt was stored.
    assert id_token_claims(node, app, sign_in(node, app, device))["sub"] == sub


def test_a_synced_passkey_may_not_lose_backup_eligibility(node, app):
    device = authenticator(node, backup_eligible=True)
    _, response = sign_up(node, app, device)
    expect_status(response, 200)
    assert_refused(sign_in(node, app, device, flags=UP | UV), check="backup state")
    expect_status(sign_in(node, app, device, flags=UP | UV | BE | BS), 200)


def test_a_blocked_user_cannot_sign_in_with_a_passkey(node, app, enrolled):
    device, sub = enrolled
    expect_status(node.mgmt("PATCH", f"users/{quote(sub, safe='')}", json={"blocked": True}), 200)
    assert_refused(sign_in(node, app, device))


# ------------------------------------------------------------------------------------- the Management API
def methods_url(sub: str, method: str | None = None) -> str:
    path = f"users/{quote(sub, safe='')}/authentication-methods"
    return path + (f"/{quote(method, safe='')}" if method else "")


def test_the_management_api_lists_renames_and_deletes_a_passkey(node, app):
    device = authenticator(node, aaguid=bytes(range(16)))
    _, response = sign_up(node, app, device)
    sub = id_token_claims(node, app, response)["sub"]
    expect_status(sign_in(node, app, device), 200)
    listed = json_of(expect_status(node.mgmt("GET", methods_url(sub)), 200))
    passkey, = listed
    credential = device.credentials[-1]
    assert passkey["id"].startswith("passkey|dev_") and passkey["type"] == "passkey", passkey
    assert passkey["key_id"] == b64url(credential.id) and passkey["credential_device_type"] == "single_device"
    assert passkey["credential_backed_up"] is False and passkey["transports"] == ["internal", "hybrid"], passkey
    assert passkey["aaguid"] == "00010203-0405-0607-0809-0a0b0c0d0e0f", passkey
    assert passkey["relying_party_identifier"] == "127.0.0.1", passkey
    assert passkey["identity_user_id"] == sub.split("|", 1)[1] and passkey["last_auth_at"], passkey
    assert base64.b64decode(passkey["public_key"]) == cbor(credential.key.cose()), "the stored COSE key"
    wrapped = json_of(expect_status(node.mgmt("GET", methods_url(sub), params={"include_totals": "true"}), 200))
    assert wrapped["total"] == 1 and wrapped["authenticators"] == listed and wrapped["start"] == 0, wrapped

    renamed = json_of(expect_status(node.mgmt("PATCH", methods_url(sub, passkey["id"]),
                                              json={"name": "Work laptop"}), 200))
    assert renamed["name"] == "Work laptop"
    assert json_of(node.mgmt("GET", methods_url(sub, passkey["id"])))["name"] == "Work laptop"
    r = node.mgmt("PATCH", methods_url(sub, passkey["id"]), json={"name": "x", "key_id": "y"})
    assert r.status_code == 400 and r.json()["errorCode"] == "invalid_body", describe(r)

    expect_status(node.mgmt("DELETE", methods_url(sub, passkey["id"])), 204)
    assert json_of(node.mgmt("GET", methods_url(sub))) == []
    assert_refused(sign_in(node, app, device), check="The passkey is not registered")


def test_management_errors_name_the_method_and_the_scope(node, app):
    _, response = sign_up(node, app, authenticator(node))
    sub = id_token_claims(node, app, response)["sub"]
    for method in ("GET", "PATCH", "DELETE"):
        r = node.mgmt(method, methods_url(sub, "passkey|dev_nothing"), json={"name": "n"} if method == "PATCH" else None)
        assert r.status_code == 404 and r.json()["errorCode"] == "inexistent_authentication_method", describe(r)
    r = node.mgmt("GET", methods_url("auth0|nobody"))
    assert r.status_code == 404 and r.json()["errorCode"] == "inexistent_user", describe(r)
    r = node.mgmt("GET", methods_url(sub), token=node.mgmt_token(["read:users"]))
    assert r.status_code == 403 and r.json()["errorCode"] == "insufficient_scope", describe(r)
