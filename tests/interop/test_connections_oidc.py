"""SPEC §15: signing in through an OIDC connection. The upstream is a second Warden (Warden federating with
Warden); the broker is the suite's server, on SQLite or PostgreSQL. Every refused callback ends where SPEC §15
says — the 400 page when there is no login to return to, else `access_denied` at the application — and creates
no user."""

from __future__ import annotations

import pytest
import requests
from joserfc.jwk import RSAKey
from urllib.parse import parse_qsl, urljoin

from test_console import signed_in_admin
from federationlib import Federation, callback_params, oidc_federation, upstream_warden
from pkcelib import authorize_url, hosted_login, new_verifier, parse_page
from wardenlib import HTTP_TIMEOUT, describe, expect_status, json_of, uid, wait_until


@pytest.fixture(scope="module")
def upstream():
    with upstream_warden() as node:
        yield node


@pytest.fixture
def federation(warden, upstream):
    with oidc_federation(warden, upstream) as made:
        yield made


def test_a_first_login_creates_the_user_and_a_second_finds_it(federation):
    first = federation.sign_in()
    upstream_id = federation.person.user_id
    assert first["sub"] == f"oidc|{federation.name}|{upstream_id}"
    assert "amr" not in first or "pwd" not in first["amr"], "no amr of the upstream's (SPEC §15)"
    user = json_of(expect_status(federation.broker.mgmt("GET", f"users/{requests.utils.quote(first['sub'], safe='')}"),
                                 200))
    assert user["email"] == federation.person.email.lower()
    assert user["name"] == "Uma Upstream"
    identity, = user["identities"]
    assert identity["connection"] == federation.name and identity["provider"] == "oidc"
    assert identity["user_id"] == f"{federation.name}|{upstream_id}" and identity["isSocial"] is False
    assert identity["profileData"]["email"] == federation.person.email.lower()
    assert "iss" not in identity["profileData"] and "nonce" not in identity["profileData"]
    second = federation.sign_in()
    assert second["sub"] == first["sub"]
    assert [u["user_id"] for u in federation.users()] == [first["sub"]]
    events = wait_until(lambda: [e for e in json_of(federation.broker.mgmt(
        "GET", "logs", params={"q": f'type:s AND user_id:"{first["sub"]}"'})) if e.get("details")], timeout=10,
        what="the s events")
    details = events[0]["details"]
    assert details["connection"] == federation.name and details["strategy"] == "oidc"
    assert details["strategy_type"] == "enterprise" and details["connection_id"] == federation.connection["id"]
    assert details["identity_user_id"] == upstream_id


def test_the_state_is_single_use_and_bound_to_the_browser(federation):
    browser = requests.Session()
    answer = federation.upstream_answer(browser, new_verifier())
    stranger = requests.Session()
    foreign = federation.deliver(stranger, answer)
    assert foreign.status_code == 400 and "text/html" in foreign.headers["Content-Type"], describe(foreign)
    # The foreign attempt consumed the state: the person's own browser cannot use it either.
    assert federation.deliver(browser, answer).status_code == 400
    answer = federation.upstream_answer(browser, new_verifier())
    assert "code" in callback_params(federation.deliver(browser, answer))
    replay = federation.deliver(browser, answer)
    assert replay.status_code == 400, describe(replay)
    unknown = federation.deliver(browser, {"state": uid(), "code": "x"})
    assert unknown.status_code == 400
    assert [u["user_id"] for u in federation.users()] == [f"oidc|{federation.name}|{federation.person.user_id}"]


@pytest.mark.parametrize("tamper, error, names", [
    ({"error": "access_denied", "error_description": "the person said no"}, "access_denied", "access_denied"),
    ({"error": "temporarily_unavailable"}, "temporarily_unavailable", "temporarily_unavailable"),
    ({"iss": "https://attacker.example/"}, "access_denied", "iss"),
    ({"code": "not-a-code-the-upstream-issued"}, "access_denied", "refused the code"),
])
def test_a_refused_callback_ends_at_the_application_and_creates_no_user(federation, tamper, error, names):
    browser = requests.Session()
    location = federation.to_upstream(browser, new_verifier())
    state = dict(parse_qsl(location.split("?", 1)[1]))["state"]
    params = {"state": state, "code": "unused", **tamper}
    if "error" in tamper:
        params.pop("code")
    answer = callback_params(federation.deliver(browser, params))
    assert answer["error"] == error, answer
    assert names in answer["error_description"], answer
    assert federation.users() == []


def test_the_person_refusing_consent_at_the_upstream_ends_at_the_application_with_access_denied(warden, upstream):
    """A real upstream's `access_denied`: the upstream application is a third party there, so the upstream Warden
    shows its consent page, and the person refuses."""
    with oidc_federation(warden, upstream, app={"is_first_party": False}) as federation:
        browser = requests.Session()
        location = federation.to_upstream(browser, new_verifier())
        answer = federation.sign_in_upstream(browser, location, consent="deny")
        assert answer["error"] == "access_denied" and answer["state"], answer
        params = callback_params(federation.deliver(browser, answer))
        assert params["error"] == "access_denied" and "access_denied" in params["error_description"], params
        assert "code" not in params
        assert federation.users() == []


def test_unknown_and_disabled_connections_are_the_400_page(warden, federation):
    session = requests.Session()
    for name in (f"nothing-{uid()}", "Username-Password-Authentication"):
        url = federation.authorize(new_verifier()).replace(federation.name, name)
        r = session.get(url, allow_redirects=False, timeout=HTTP_TIMEOUT)
        if name.startswith("nothing"):
            assert r.status_code == 400 and "not available" in r.text, describe(r)
        else:
            assert r.status_code == 302 and "/u/login" in r.headers["Location"], describe(r)
    expect_status(warden.mgmt("PATCH", f"connections/{federation.connection['id']}/clients",
                              json=[{"client_id": federation.client_id, "status": False}]), 204)
    r = session.get(federation.authorize(new_verifier()), allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 400 and "not available" in r.text, describe(r)


def test_connection_scope_login_hint_and_pkce_reach_the_upstream(federation):
    session = requests.Session()
    location = federation.to_upstream(session, new_verifier(), connection_scope="phone,address",
                                      login_hint="uma@example.com", prompt="login")
    query = dict(parse_qsl(location.split("?", 1)[1]))
    assert query["scope"].split() == ["openid", "profile", "email", "phone", "address"]
    assert query["login_hint"] == "uma@example.com" and query["prompt"] == "login"
    assert query["code_challenge_method"] == "S256" and len(query["code_challenge"]) == 43
    assert query["redirect_uri"] == federation.broker.url("login/callback")
    assert len(query["nonce"]) >= 32 and len(query["state"]) >= 32


def login_page(federation: Federation, session: requests.Session):
    r = session.get(authorize_url(federation.broker, federation.client_id, federation.redirect_uri,
                                  verifier=new_verifier(), state=uid()), timeout=HTTP_TIMEOUT)
    assert r.status_code == 200 and "/u/login" in r.url, describe(r)
    return r, parse_page(r.text)


def test_a_button_on_the_login_page_signs_in_through_the_connection(federation):
    expect_status(federation.broker.mgmt("PATCH", f"connections/{federation.connection['id']}",
                                         json={"show_as_button": True, "display_name": "Acme Corp"}), 200)
    session = requests.Session()
    r, page = login_page(federation, session)
    buttons = [f for f in page.forms if federation.name in f.button_values("connection")]
    assert len(buttons) == 1 and "Acme Corp" in page.text, page.text
    form = buttons[0]
    data = {**form.hidden(), "connection": federation.name}
    to_upstream = session.post(urljoin(r.url, form.action), data=data, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert to_upstream.status_code == 302, describe(to_upstream)
    assert to_upstream.headers["Location"].startswith(federation.authorization_endpoint)
    answer = federation.sign_in_upstream(session, to_upstream.headers["Location"])
    assert "code" in callback_params(federation.deliver(session, answer))


def test_identifier_first_sends_an_aliased_domain_to_its_connection(federation):
    options = {k: v for k, v in federation.connection["options"].items()
               if k not in ("schema_version", "oidc_metadata", "issuer", "authorization_endpoint", "token_endpoint",
                            "userinfo_endpoint", "jwks_uri")}
    expect_status(federation.broker.mgmt("PATCH", f"connections/{federation.connection['id']}",
                                         json={"options": {**options, "domain_aliases": ["Acme-HRD.test"]}}), 200)
    session = requests.Session()
    r, page = login_page(federation, session)
    form = next(f for f in page.forms if "username" in f.field_names())
    assert not form.has_password(), "identifier-first: the first step asks the e-mail address only"
    aliased = session.post(urljoin(r.url, form.action), data={**form.hidden(), "username": "pat@acme-hrd.TEST"},
                           allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert aliased.status_code == 302, describe(aliased)
    assert aliased.headers["Location"].startswith(federation.authorization_endpoint)
    r, page = login_page(federation, session)
    form = next(f for f in page.forms if "username" in f.field_names())
    other = session.post(urljoin(r.url, form.action), data={**form.hidden(), "username": "pat@elsewhere.test"},
                         timeout=HTTP_TIMEOUT)
    assert other.status_code == 200 and parse_page(other.text).forms[0].has_password(), describe(other)


@pytest.mark.parametrize("aud_format", ["issuer", "token_endpoint"])
def test_private_key_jwt_authenticates_warden_with_its_own_key(warden, upstream, aud_format):
    """SPEC §15 `token_endpoint_auth_method: private_key_jwt`: Warden signs its client assertion with its own key
    (published at its JWKS), `aud` as `token_endpoint_jwtca_aud_format` says; the upstream knows no secret."""
    pems = [RSAKey.import_key(k).as_pem(private=False).decode() for k in warden.jwks()["keys"] if k["kty"] == "RSA"]
    with oidc_federation(warden, upstream, token_endpoint_auth_method="private_key_jwt",
                         token_endpoint_jwtca_aud_format=aud_format) as federation:
        app_id = federation.connection["options"]["client_id"]
        expect_status(upstream.mgmt("PATCH", f"clients/{app_id}", json={
            "token_endpoint_auth_method": None, "client_authentication_methods": {"private_key_jwt": {"credentials": [
                {"credential_type": "public_key", "name": f"broker-{i}", "pem": pem} for i, pem in enumerate(pems)]}}}),
            200)
        assert "client_secret" not in federation.connection["options"]
        claims = federation.sign_in()
        assert claims["sub"] == f"oidc|{federation.name}|{federation.person.user_id}"


def test_the_console_try_shows_the_profile_and_signs_no_one_in(warden, federation):
    """SPEC §15 "Console": "Try" runs a login through the connection in the admin's browser and shows the profile
    Warden would store; no user is made and the admin's session stays theirs."""
    browser, admin, csrf = signed_in_admin(warden)
    path = f"admin/connections/{federation.connection['id']}"
    r = browser.post(warden.url(path + "/try"), data={"csrf": "forged"}, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 403, describe(r)
    r = browser.post(warden.url(path + "/try"), data={"csrf": csrf}, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 302 and r.headers["Location"].startswith(federation.upstream.url("authorize")), describe(r)
    answer = hosted_login(federation.upstream, r.headers["Location"], redirect_uri=warden.url("login/callback"),
                          email=federation.person.email, password=federation.person.password, session=browser)
    back = federation.deliver(browser, answer.params)
    assert back.status_code == 303 and f"/{path}/try?result=" in back.headers["Location"], describe(back)
    shown = browser.get(urljoin(back.url, back.headers["Location"]), timeout=HTTP_TIMEOUT)
    assert shown.status_code == 200, describe(shown)
    assert f"oidc|{federation.name}|{federation.person.user_id}" in shown.text
    assert "profileData.email" in shown.text and federation.person.email.lower() in shown.text
    assert federation.users() == [], "a try makes no user"
    # Another admin's browser cannot read the result without a console session.
    stranger = requests.get(urljoin(back.url, back.headers["Location"]), allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert stranger.status_code in (302, 303) and "text/html" in stranger.headers.get("Content-Type", "text/html")
