"""SPEC §15 against real software: Glewlwyd 2.7.5 (Debian's `glewlwyd`) as the upstream OpenID provider of an `oidc`
connection, found by discovery, its login scripted with plain HTTP (glewlwydlib). The broker is the suite's server,
on SQLite or PostgreSQL.

Glewlwyd's plugin instance `oidc` answers without RFC 9207's `iss`; `oidc_iss` sets `oauth-as-iss-id` and adds it to
every answer (2.7.5 does not publish `authorization_response_iss_parameter_supported`, so a missing `iss` cannot be
told from an upstream that never sends one: Warden accepts it from either; one test serves Glewlwyd's document with
that member added, and there a stripped `iss` is refused). Every refused callback ends where SPEC §15
says — the 400 page when the state is not this browser's live one, else `access_denied` at the application with a
description naming the failed check — and creates no user; a verified e-mail shared with an existing user never signs
in as that user."""

from __future__ import annotations

import contextlib
import json
import time
from http.server import BaseHTTPRequestHandler
from typing import Iterator
from urllib.parse import parse_qsl, unquote, urljoin, urlsplit

import pytest
import requests
from joserfc.jwk import RSAKey

from federationlib import PROTOCOL_CLAIMS, Federation, callback_params, federation as connected, user_of
from glewlwydlib import PLUGINS, glewlwyd_federation
from pkcelib import authorize_url, code_exchange, create_user, new_verifier, parse_page
from tokenproxy import TokenProxy, hmac_signed, resign, unsigned
from wardenlib import (HTTP_TIMEOUT, LoopbackServer, describe, expect_status, json_of, uid, verify_jwt, wait_until,
                       write_response)

def assert_refused(federation: Federation, response: requests.Response, error: str, names: str) -> None:
    """The application got `error` with a description naming `names`, the failure is logged (`f` with the
    connection's fields and `details.error.message`), and the connection has no user."""
    params = callback_params(response)
    assert urlsplit(response.headers["Location"]).netloc == urlsplit(federation.redirect_uri).netloc, params
    assert params["error"] == error and names in params["error_description"], params
    assert "code" not in params
    assert federation.users() == []
    query = {"q": f'type:f AND client_id:"{federation.client_id}"'}
    event, = wait_until(lambda: json_of(federation.broker.mgmt("GET", "logs", params=query)), timeout=10,
                        what="the f event")
    details = event["details"]
    assert details["connection"] == federation.name and details["strategy"] == "oidc", event
    assert names in details["error"]["message"], event


def assert_400_page(response: requests.Response) -> None:
    assert response.status_code == 400 and "text/html" in response.headers["Content-Type"], describe(response)


@pytest.mark.parametrize("plugin", list(PLUGINS))
def test_a_first_login_through_glewlwyd_creates_the_user_and_a_second_finds_it(warden, glewlwyd, plugin):
    with glewlwyd_federation(warden, glewlwyd, plugin=plugin) as federation:
        options = federation.connection["options"]  # completed from Glewlwyd's discovery document
        assert options["issuer"] == glewlwyd.issuer(plugin) and options["schema_version"] == "oidc-V4", options
        for endpoint in ("auth", "token", "userinfo", "jwks"):
            assert glewlwyd.endpoint(plugin, endpoint) in options.values(), (endpoint, options)
        assert "client_secret" not in options, "secrets are write-only"
        person = federation.person
        subject = glewlwyd.subject(person, plugin)
        browser = requests.Session()
        verifier = new_verifier()
        answer = federation.upstream_answer(browser, verifier)
        if PLUGINS[plugin]:
            assert answer["iss"] == glewlwyd.issuer(plugin), answer  # RFC 9207, checked by Warden
        else:
            assert "iss" not in answer, answer
        first = federation.finish(browser, verifier, answer)
        assert first["sub"] == f"oidc|{federation.name}|{subject}", first
        user = user_of(warden, first["sub"])
        assert user["user_id"] == first["sub"] and user["logins_count"] == 1, user
        assert user["email"] == person.email and user["email_verified"] is True and user["name"] == person.name
        identity, = user["identities"]
        assert {k: identity[k] for k in ("connection", "provider", "user_id", "isSocial")} == {
            "connection": federation.name, "provider": "oidc", "user_id": f"{federation.name}|{subject}",
            "isSocial": False}, identity
        profile = identity["profileData"]
        assert profile["email"] == person.email and profile["email_verified"] is True, profile
        assert not PROTOCOL_CLAIMS & set(profile), profile
        second = federation.sign_in(requests.Session())
        assert second["sub"] == first["sub"]
        again = user_of(warden, first["sub"])
        assert again["logins_count"] == 2 and again["user_id"] == user["user_id"], again
        assert [u["user_id"] for u in federation.users()] == [first["sub"]]


@pytest.mark.parametrize("plugin", list(PLUGINS))
def test_an_iss_naming_another_issuer_is_refused(warden, glewlwyd, plugin):
    """A mix-up (RFC 9207 §2.4): the answer names the other issuer on the same Glewlwyd. From `oidc_iss` the real
    `iss` is replaced; to `oidc`'s answer, which has none, one is added."""
    other = next(name for name in PLUGINS if name != plugin)
    with glewlwyd_federation(warden, glewlwyd, plugin=plugin) as federation:
        browser = requests.Session()
        answer = federation.upstream_answer(browser, new_verifier())
        assert ("iss" in answer) == PLUGINS[plugin], answer
        refused = federation.deliver(browser, {**answer, "iss": glewlwyd.issuer(other)})
        assert_refused(federation, refused, "access_denied", "iss")


@contextlib.contextmanager
def discovery_saying_iss_is_sent(glewlwyd) -> Iterator[str]:
    """`oidc_iss`'s discovery document as it would be if Glewlwyd published what it does: the same document with
    `authorization_response_iss_parameter_supported: true` (RFC 9207 §3), served from a port of the test's own."""
    document = json_of(expect_status(requests.get(glewlwyd.discovery_url("oidc_iss"), timeout=HTTP_TIMEOUT), 200))
    body = json.dumps({**document, "authorization_response_iss_parameter_supported": True}).encode()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_GET(self):
            write_response(self, 200, body)

    with LoopbackServer(Handler) as server:
        yield f"{server.base_url}/.well-known/openid-configuration"


def test_an_answer_without_iss_is_refused_when_the_upstream_says_it_sends_one(warden, glewlwyd):
    """RFC 9207 §2.4: an upstream whose metadata says `authorization_response_iss_parameter_supported` must send
    `iss`; an answer without it (stripped on the way) is refused, the same answer with it is accepted."""
    with discovery_saying_iss_is_sent(glewlwyd) as discovery_url, \
            glewlwyd_federation(warden, glewlwyd, plugin="oidc_iss", discovery_url=discovery_url) as federation:
        browser = requests.Session()
        verifier = new_verifier()
        answer = federation.upstream_answer(browser, verifier)
        assert answer["iss"] == glewlwyd.issuer("oidc_iss"), answer
        stripped = {k: v for k, v in answer.items() if k != "iss"}
        assert_refused(federation, federation.deliver(browser, stripped), "access_denied", "iss")
        verifier = new_verifier()
        claims = federation.finish(browser, verifier, federation.upstream_answer(browser, verifier))
        assert claims["sub"].startswith(f"oidc|{federation.name}|"), claims


@pytest.mark.parametrize("plugin", list(PLUGINS))
def test_a_form_post_answer_is_read_from_the_post_to_the_callback(warden, glewlwyd, plugin):
    """`response_mode=form_post` (OAuth 2.0 Form Post Response Mode, asked through `upstream_params`): Glewlwyd
    answers with a page whose form posts `code` and `state` to Warden's callback, and the browser's binding survives
    the POST. Glewlwyd 2.7.5 writes every value of that form URL-encoded, so `oidc_iss`'s `iss` arrives as
    `http%3A%2F%2F…`, which is not the issuer: Warden refuses it (RFC 9207 §2.4 compares exact strings)."""
    with glewlwyd_federation(warden, glewlwyd, plugin=plugin,
                             upstream_params={"response_mode": {"value": "form_post"}}) as federation:
        browser = requests.Session()
        verifier = new_verifier()
        location = federation.to_upstream(browser, verifier)
        assert dict(parse_qsl(urlsplit(location).query))["response_mode"] == "form_post", location
        page = glewlwyd.answer(browser, location, federation.person)
        assert page.status_code == 200, describe(page)
        form, = parse_page(page.text).forms
        assert form.method == "post" and form.action == warden.url("login/callback"), form
        fields = {i["name"]: i.get("value") or "" for i in form.inputs if i.get("name")}
        r = browser.post(form.action, data=fields, allow_redirects=False, timeout=HTTP_TIMEOUT)
        if PLUGINS[plugin]:
            assert fields["iss"] != glewlwyd.issuer(plugin) and unquote(fields["iss"]) == glewlwyd.issuer(plugin)
            assert_refused(federation, r, "access_denied", "iss")
            return
        assert "iss" not in fields, fields
        params = callback_params(r)
        sub = issued_sub(warden, federation, params["code"], verifier)
        assert [u["user_id"] for u in federation.users()] == [sub]


@contextlib.contextmanager
def front_channel(warden, glewlwyd) -> Iterator[Federation]:
    """An `oidc` connection with `type: front_channel` (SPEC §15) to Glewlwyd's `oidc` instance: a client there
    allowed only `response_type=id_token`, and no secret at Warden."""
    client = glewlwyd.client([warden.url("login/callback")], authorization_type=("id_token",))
    person = glewlwyd.person()

    def sign_in(session: requests.Session, location: str) -> dict:
        page = glewlwyd.answer(session, location, person)
        assert page.status_code == 200, describe(page)
        form, = parse_page(page.text).forms
        assert form.method == "post" and form.action == warden.url("login/callback"), form
        return {i["name"]: i.get("value") or "" for i in form.inputs if i.get("name")}

    with connected(warden, {"discovery_url": glewlwyd.discovery_url("oidc"), "client_id": client.client_id,
                            "type": "front_channel", "scope": "openid profile email"},
                   authorization_endpoint=glewlwyd.endpoint("oidc", "auth"), sign_in_upstream=sign_in,
                   upstream=glewlwyd, person=person, prefix="glewlwyd-fc") as made:
        yield made


def post_answer(federation: Federation, browser: requests.Session, fields: dict) -> requests.Response:
    return browser.post(federation.broker.url("login/callback"), data=fields, allow_redirects=False,
                        timeout=HTTP_TIMEOUT)


def test_the_front_channel_reads_the_id_token_glewlwyd_posts(warden, glewlwyd):
    """`type: front_channel`: Warden asks for `response_type=id_token` with `response_mode=form_post` and a nonce,
    no PKCE; Glewlwyd's page posts the ID token to the callback, which verifies it as OIDC Core §3.2.2.11 says (no
    code, no token endpoint) and signs the person in."""
    with front_channel(warden, glewlwyd) as federation:
        browser, verifier = requests.Session(), new_verifier()
        location = federation.to_upstream(browser, verifier)
        query = dict(parse_qsl(urlsplit(location).query))
        assert (query["response_type"], query["response_mode"]) == ("id_token", "form_post"), query
        assert query["nonce"] and "code_challenge" not in query, query
        fields = federation.sign_in_upstream(browser, location)
        assert "id_token" in fields and "code" not in fields, fields
        params = callback_params(post_answer(federation, browser, fields))
        sub = issued_sub(warden, federation, params["code"], verifier)
        assert sub == f"oidc|{federation.name}|{glewlwyd.subject(federation.person)}"
        user = user_of(warden, sub)
        assert user["email"] == federation.person.email.lower() and user["name"] == federation.person.name, user


@pytest.mark.parametrize("tamper", ["signature", "no id_token"])
def test_a_front_channel_answer_that_does_not_verify_creates_no_user(warden, glewlwyd, tamper):
    with front_channel(warden, glewlwyd) as federation:
        browser, verifier = requests.Session(), new_verifier()
        fields = federation.upstream_answer(browser, verifier)
        if tamper == "signature":
            header, payload, signature = fields["id_token"].split(".")
            fields["id_token"] = ".".join([header, payload, signature[:-4] + ("AAAA" if signature[-4:] != "AAAA"
                                                                             else "BBBB")])
        else:
            del fields["id_token"]
        assert_refused(federation, post_answer(federation, browser, fields), "access_denied",
                       "signature" if tamper == "signature" else "id_token")


def test_a_foreign_or_replayed_state_is_the_400_page_and_creates_no_user(warden, glewlwyd):
    with glewlwyd_federation(warden, glewlwyd) as federation:
        browser = requests.Session()
        answer = federation.upstream_answer(browser, new_verifier())
        assert_400_page(federation.deliver(requests.Session(), answer))  # another browser's state
        assert_400_page(federation.deliver(browser, answer))  # consumed by that attempt
        assert federation.users() == []
        verifier = new_verifier()
        answer = federation.upstream_answer(browser, verifier)
        claims = federation.finish(browser, verifier, answer)
        assert_400_page(federation.deliver(browser, answer))  # replayed
        assert [u["user_id"] for u in federation.users()] == [claims["sub"]]


def test_a_code_injected_into_another_login_fails_the_nonce_check(warden, glewlwyd):
    """Without PKCE the nonce is what binds the code to the login (OIDC Core §15.5.2): a code Glewlwyd issued to one
    authentication request, delivered with the state of another one in the same browser, is refused."""
    with glewlwyd_federation(warden, glewlwyd, connection_settings={"pkce": "disabled"}) as federation:
        browser = requests.Session()
        stolen = federation.upstream_answer(browser, new_verifier())
        location = federation.to_upstream(browser, new_verifier())
        query = dict(parse_qsl(urlsplit(location).query))
        assert "code_challenge" not in query, query
        refused = federation.deliver(browser, {"state": query["state"], "code": stolen["code"]})
        assert_refused(federation, refused, "access_denied", "nonce")


def test_glewlwyd_refusing_the_login_ends_at_the_application_with_access_denied(warden, glewlwyd):
    """Glewlwyd's own refusal (`interaction_required`: `prompt=none`, sent through `upstream_params`, and no session
    there) comes back to the application as `access_denied` naming it."""
    with glewlwyd_federation(warden, glewlwyd, plugin="oidc_iss",
                             upstream_params={"prompt": {"value": "none"}}) as federation:
        browser = requests.Session()
        location = federation.to_upstream(browser, new_verifier())
        answer = browser.get(location, allow_redirects=False)
        assert answer.status_code == 302, describe(answer)
        params = dict(parse_qsl(urlsplit(answer.headers["Location"]).query))
        assert params["error"] == "interaction_required" and params["iss"] == glewlwyd.issuer("oidc_iss"), params
        assert_refused(federation, federation.deliver(browser, params), "access_denied", "interaction_required")


@pytest.fixture(scope="module")
def keys(glewlwyd):
    """Glewlwyd's own signing key (the tests made it) and one of an attacker's."""
    with open(glewlwyd.path("rsa.key")) as f:
        real = RSAKey.import_key(f.read())
    with open(glewlwyd.path("rsa.pub"), "rb") as f:
        public_pem = f.read()
    return real, RSAKey.generate_key(2048), public_pem


def tampering(keys):
    real, rogue, public_pem = keys
    now = int(time.time())
    return {
        "unchanged": lambda t: resign(t, real),  # the control: re-signing alone changes nothing
        "signature": lambda t: resign(t, rogue),  # same kid, another key
        "kid": lambda t: resign(t, rogue, header={"kid": f"rogue-{uid()}"}),
        "alg none": unsigned,
        "alg HS256": lambda t: hmac_signed(t, public_pem),
        "iss": lambda t: resign(t, real, claims={"iss": "http://127.0.0.1:9/elsewhere"}),
        "aud": lambda t: resign(t, real, claims={"aud": "someone-else", "azp": None}),
        "azp": lambda t: resign(t, real, claims={"azp": "someone-else"}),
        "exp": lambda t: resign(t, real, claims={"exp": now - 3600}),
        "iat": lambda t: resign(t, real, claims={"iat": now + 3600}),
        "nonce": lambda t: resign(t, real, claims={"nonce": uid()}),
    }


@pytest.mark.parametrize("case", ["unchanged", "signature", "kid", "alg none", "alg HS256", "iss", "aud", "azp",
                                  "exp", "iat", "nonce"])
def test_an_id_token_failing_a_check_is_refused(warden, glewlwyd, keys, case):
    """Glewlwyd's ID token, changed on its way to Warden by a token endpoint in front of Glewlwyd's (tokenproxy)."""
    with TokenProxy(glewlwyd.endpoint("oidc", "token")) as proxy, \
            glewlwyd_federation(warden, glewlwyd, token_endpoint=proxy.url) as federation:
        proxy.rewrite = tampering(keys)[case]
        browser = requests.Session()
        verifier = new_verifier()
        answer = federation.upstream_answer(browser, verifier)
        if case == "unchanged":
            claims = federation.finish(browser, verifier, answer)
            assert claims["sub"].startswith(f"oidc|{federation.name}|") and len(proxy.seen) == 1
            return
        check = case.split()[0]
        assert_refused(federation, federation.deliver(browser, answer), "access_denied", f"the {check} check")
        assert len(proxy.seen) == 1, "Glewlwyd issued the token that was changed"


def issued_sub(warden, federation: Federation, code: str, verifier: str) -> str:
    """The `sub` of the ID token Warden issues for `code`."""
    tokens = json_of(expect_status(code_exchange(warden, federation.client_id, code, verifier,
                                                 federation.redirect_uri), 200))
    return verify_jwt(tokens["id_token"], warden.jwks(), ["RS256"])[1]["sub"]


@pytest.mark.parametrize("upstream_verified", [True, False], ids=["verified upstream", "unverified upstream"])
def test_an_email_of_an_existing_user_never_signs_in_as_that_user(warden, glewlwyd, upstream_verified):
    """No merge by e-mail (SPEC §15 "Linking"; the nOAuth class): Glewlwyd sends the address of a database user of
    Warden who has verified it. Verified at Glewlwyd too, the login either makes a user of its own or asks for proof
    at /u/link; unverified there, it makes a user of its own with `email_verified` false (nothing to link). It never
    signs in as the existing user, whose identities stay as they were."""
    email = f"shared-{uid()}@interop.test"
    existing = create_user(warden, email=email, email_verified=True)
    before = user_of(warden, existing.user_id)
    person = glewlwyd.person(email=email, verified=upstream_verified)
    with glewlwyd_federation(warden, glewlwyd, person=person) as federation:
        browser = requests.Session()
        verifier = new_verifier()
        r = federation.deliver(browser, federation.upstream_answer(browser, verifier))
        assert r.status_code in (302, 303), describe(r)
        target = urljoin(r.url, r.headers["Location"])
        assert upstream_verified or target.startswith(federation.redirect_uri), f"nothing to link: {target}"
        if target.startswith(federation.redirect_uri):
            sub = issued_sub(warden, federation, callback_params(r)["code"], verifier)
            assert sub != existing.user_id and sub.startswith(f"oidc|{federation.name}|"), sub
            assert user_of(warden, sub)["email_verified"] is upstream_verified
        else:
            assert urlsplit(target).path.endswith("/u/link"), target  # the proof step comes first
        assert user_of(warden, existing.user_id)["identities"] == before["identities"]
        # The browser's session at Warden is not the existing user's: a silent authorization does not sign them in.
        silent_verifier = new_verifier()
        silent = browser.get(authorize_url(warden, federation.client_id, federation.redirect_uri,
                                           verifier=silent_verifier, state=uid(), prompt="none"),
                             allow_redirects=False)
        params = callback_params(silent)
        if "code" in params:
            assert issued_sub(warden, federation, params["code"], silent_verifier) != existing.user_id
        else:
            assert params["error"] in ("login_required", "interaction_required"), params
