"""SPEC §15 "Linking", "Upstream tokens", "Logs and logout": Warden never merges users by e-mail on its own. A first
federated login whose verified e-mail an existing account has verified too goes to /u/link, which links only after
the existing account's password or a login through one of its linked connections (and then its second factor);
the Management API links and unlinks; a connection
may keep the upstream's tokens, shown only with `read:user_idp_tokens`; `/oidc/logout?federated` ends the upstream
session too. The upstream is a second Warden; the broker is the suite's server, on SQLite or PostgreSQL."""

from __future__ import annotations

import sqlite3
import subprocess

from urllib.parse import parse_qsl, quote, urljoin, urlsplit

import pytest
import requests

from fake_github import FakeGitHub, GitHubAccount
from federationlib import Federation, callback_params, oidc_federation, upstream_warden
from pkcelib import authorize_url, code_exchange, create_user, new_verifier, parse_page
from wardenlib import HTTP_TIMEOUT, describe, expect_status, json_of, uid, verify_jwt, wait_until


@pytest.fixture(scope="module")
def upstream():
    with upstream_warden() as node:
        yield node


def verified_person(federation: Federation) -> None:
    """The upstream says its person's e-mail is verified."""
    expect_status(federation.upstream.mgmt("PATCH", f"users/{quote(federation.person.user_id, safe='')}",
                                           json={"email_verified": True}), 200)


@pytest.fixture
def federation(warden, upstream):
    with oidc_federation(warden, upstream) as made:
        verified_person(made)
        yield made


def user(warden, user_id: str) -> requests.Response:
    return warden.mgmt("GET", f"users/{quote(user_id, safe='')}")


def existing_account(federation: Federation, *, verified: bool = True):
    """A database user of the broker with the upstream person's e-mail address."""
    return create_user(federation.broker, email=federation.person.email, email_verified=verified)


def to_link_page(federation: Federation, browser: requests.Session, verifier: str) -> str:
    """A federated login up to Warden's answer to the callback: the /u/link page's URL."""
    answer = federation.upstream_answer(browser, verifier)
    r = federation.deliver(browser, answer)
    assert r.status_code == 303, describe(r)
    location = urljoin(r.url, r.headers["Location"])
    assert urlsplit(location).path == "/u/link", location
    return location


def link_form(browser: requests.Session, url: str) -> tuple[str, dict]:
    r = browser.get(url, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200 and "Link accounts" in r.text and "Continue with a new account" in r.text, describe(r)
    form, = [f for f in parse_page(r.text).forms if f.has_password()]
    fields = {i["name"]: i.get("value") or "" for i in form.inputs if i.get("name") and i.get("type") != "submit"}
    return urljoin(r.url, form.action), fields


def finish(federation: Federation, response: requests.Response, verifier: str) -> dict:
    """The application's callback → the code → Warden's ID token, verified against its JWKS."""
    params = callback_params(response)
    assert "code" in params, params
    tokens = json_of(expect_status(code_exchange(federation.broker, federation.client_id, params["code"], verifier,
                                                 federation.redirect_uri), 200))
    _, claims = verify_jwt(tokens["id_token"], federation.broker.jwks(), ["RS256"])
    return claims


def federated_sub(federation: Federation) -> str:
    return f"oidc|{federation.name}|{federation.person.user_id}"


def test_a_verified_email_collision_links_only_with_the_password(federation):
    account = existing_account(federation)
    browser, verifier = requests.Session(), new_verifier()
    url = to_link_page(federation, browser, verifier)
    # Nothing was created or linked by the login itself.
    expect_status(user(federation.broker, federated_sub(federation)), 404)
    assert [i["provider"] for i in json_of(user(federation.broker, account.user_id))["identities"]] == ["auth0"]
    action, fields = link_form(browser, url)

    wrong = browser.post(action, data={**fields, "password": "not-the-password", "action": "link"},
                         allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert wrong.status_code == 200 and "Link accounts" in wrong.text and "Wrong" in wrong.text, describe(wrong)
    assert [i["provider"] for i in json_of(user(federation.broker, account.user_id))["identities"]] == ["auth0"]
    wait_until(lambda: json_of(federation.broker.mgmt("GET", "logs", params={
        "q": f'type:fp AND user_id:"{account.user_id}"'})), timeout=10, what="the fp event (it counts toward §11)")

    # The same form posted from another browser (a link page sent to someone else) links nothing.
    stranger = requests.Session()
    foreign = stranger.post(action, data={**fields, "password": account.password, "action": "link"},
                            allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert foreign.status_code == 403, describe(foreign)

    linked = browser.post(action, data={**fields, "password": account.password, "action": "link"},
                          allow_redirects=False, timeout=HTTP_TIMEOUT)
    claims = finish(federation, linked, verifier)
    assert claims["sub"] == account.user_id
    identities = json_of(user(federation.broker, account.user_id))["identities"]
    assert [(i["provider"], i["user_id"]) for i in identities] == [
        ("auth0", account.user_id.split("|", 1)[1]), ("oidc", f"{federation.name}|{federation.person.user_id}")]
    expect_status(user(federation.broker, federated_sub(federation)), 404)
    # The form is single use.
    again = browser.post(action, data={**fields, "password": account.password, "action": "link"},
                         allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert again.status_code == 400, describe(again)

    # From now on the connection signs in as the account, without asking.
    verifier = new_verifier()
    session = requests.Session()
    answer = federation.upstream_answer(session, verifier)
    assert finish(federation, federation.deliver(session, answer), verifier)["sub"] == account.user_id


@pytest.fixture
def github(federation):
    """A GitHub connection of the broker (the suite's stand-in for GitHub) whose account has the upstream person's
    verified e-mail, enabled for the federation's application."""
    account = GitHubAccount(id=7000000 + int(uid()[:4], 16), login="uma", name="Uma on GitHub",
                            emails=[{"email": federation.person.email, "primary": True, "verified": True}])
    broker = federation.broker
    with FakeGitHub(account, client_id=f"gh-{uid()}", client_secret="gh-secret") as fake:
        connection = json_of(expect_status(broker.mgmt("POST", "connections", json={
            "name": f"github-{uid()}"[:30], "strategy": "github", "display_name": "GitHub",
            "options": {"client_id": fake.client_id, "client_secret": fake.client_secret, "email": True,
                        "base_url": fake.base_url}}), 201))
        expect_status(broker.mgmt("PATCH", f"connections/{connection['id']}/clients",
                                  json=[{"client_id": federation.client_id, "status": True}]), 204)
        yield fake, connection
        expect_status(broker.mgmt("DELETE", f"connections/{connection['id']}"), 202)


def through_github(browser: requests.Session, location: str) -> requests.Response:
    """The stand-in approves at once: its redirect back to Warden's callback, followed."""
    at_github = browser.get(location, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert at_github.status_code == 302, describe(at_github)
    return browser.get(at_github.headers["Location"], allow_redirects=False, timeout=HTTP_TIMEOUT)


def account_with_github(federation: Federation, github) -> object:
    """A database account with the person's e-mail that has the GitHub identity linked: the GitHub user made by a
    first login (before the account existed), then linked through the Management API."""
    fake, connection = github
    browser, verifier = requests.Session(), new_verifier()
    r = browser.get(authorize_url(federation.broker, federation.client_id, federation.redirect_uri,
                                  verifier=verifier, state=uid(), connection=connection["name"]),
                    allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 302 and r.headers["Location"].startswith(fake.base_url), describe(r)
    assert finish(federation, through_github(browser, r.headers["Location"]), verifier)["sub"] == \
        f"github|{fake.account.id}"
    account = existing_account(federation)
    linked = federation.broker.mgmt("POST", f"users/{quote(account.user_id, safe='')}/identities",
                                    json={"provider": "github", "user_id": str(fake.account.id)})
    expect_status(linked, 201)
    return account


def proof_button(browser: requests.Session, url: str, connection: dict) -> tuple[str, dict]:
    """The /u/link form's fields and the action of its button for `connection`."""
    r = browser.get(url, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200 and "Link by signing in with" in r.text, describe(r)
    form, = parse_page(r.text).forms
    assert f"connection:{connection['name']}" in form.button_values("action"), form.button_values("action")
    return urljoin(r.url, form.action), {**form.hidden(), "action": f"connection:{connection['name']}"}


def test_a_linked_connection_proves_the_existing_account(federation, github):
    fake, connection = github
    account = account_with_github(federation, github)
    linked_id = fake.account.id
    browser, verifier = requests.Session(), new_verifier()
    action, fields = proof_button(browser, to_link_page(federation, browser, verifier), connection)

    # Someone else's GitHub account proves nothing: the page again, nothing linked, the choice still open.
    fake.account.id = linked_id + 1
    r = browser.post(action, data=fields, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 302 and r.headers["Location"].startswith(fake.base_url), describe(r)
    refused = through_github(browser, r.headers["Location"])
    assert refused.status_code == 200 and "is not the one linked" in refused.text, describe(refused)
    assert [i["provider"] for i in json_of(user(federation.broker, account.user_id))["identities"]] == [
        "auth0", "github"]
    expect_status(user(federation.broker, federated_sub(federation)), 404)

    # The account's own GitHub identity links the new one and signs in as the account.
    fake.account.id = linked_id
    r = browser.post(action, data=fields, allow_redirects=False, timeout=HTTP_TIMEOUT)
    claims = finish(federation, through_github(browser, r.headers["Location"]), verifier)
    assert claims["sub"] == account.user_id
    identities = json_of(user(federation.broker, account.user_id))["identities"]
    assert [(i["provider"], i["user_id"]) for i in identities] == [
        ("auth0", account.user_id.split("|", 1)[1]), ("github", linked_id),
        ("oidc", f"{federation.name}|{federation.person.user_id}")], identities
    expect_status(user(federation.broker, federated_sub(federation)), 404)
    # The link transaction is spent: its form does nothing more.
    again = browser.post(action, data=fields, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert again.status_code == 400, describe(again)


def test_a_proof_started_from_another_browser_is_refused(federation, github):
    _, connection = github
    account_with_github(federation, github)
    browser, verifier = requests.Session(), new_verifier()
    action, fields = proof_button(browser, to_link_page(federation, browser, verifier), connection)
    stranger = requests.Session()
    r = stranger.post(action, data=fields, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 403, describe(r)


def test_continue_with_a_new_account_makes_a_separate_user(federation):
    account = existing_account(federation)
    browser, verifier = requests.Session(), new_verifier()
    action, fields = link_form(browser, to_link_page(federation, browser, verifier))
    r = browser.post(action, data={**fields, "action": "new"}, allow_redirects=False, timeout=HTTP_TIMEOUT)
    claims = finish(federation, r, verifier)
    assert claims["sub"] == federated_sub(federation)
    made = json_of(expect_status(user(federation.broker, claims["sub"]), 200))
    assert made["email"] == federation.person.email.lower() and made["email_verified"] is True
    assert [i["provider"] for i in json_of(user(federation.broker, account.user_id))["identities"]] == ["auth0"]


@pytest.mark.parametrize("who", ["upstream", "account"])
def test_an_unverified_email_on_either_side_never_offers_a_link(federation, who):
    if who == "upstream":
        expect_status(federation.upstream.mgmt("PATCH", f"users/{quote(federation.person.user_id, safe='')}",
                                               json={"email_verified": False}), 200)
    account = existing_account(federation, verified=who != "account")
    verifier = new_verifier()
    session = requests.Session()
    answer = federation.upstream_answer(session, verifier)
    claims = finish(federation, federation.deliver(session, answer), verifier)
    assert claims["sub"] == federated_sub(federation) != account.user_id
    assert [i["provider"] for i in json_of(user(federation.broker, account.user_id))["identities"]] == ["auth0"]


def stored_tokens(warden, user_id: str) -> list[str]:
    """The `tokens` column of the user's identities, read from the database itself."""
    query = f"SELECT tokens FROM user_identities WHERE user_id = '{user_id}'"
    if warden.database_url.startswith("sqlite:"):
        with sqlite3.connect(warden.database_url.removeprefix("sqlite:").split("?")[0]) as db:
            return [row[0] for row in db.execute(query)]
    out = subprocess.run(["psql", "-X", "-At", "-d", warden.database_url, "-c", query], check=True,
                         capture_output=True, text=True).stdout
    return out.splitlines()


def federated_user(federation: Federation) -> str:
    """A first federated login (no account shares the e-mail): the user it made."""
    verifier = new_verifier()
    session = requests.Session()
    answer = federation.upstream_answer(session, verifier)
    return finish(federation, federation.deliver(session, answer), verifier)["sub"]


def test_the_management_api_links_and_unlinks(federation):
    secondary = federated_user(federation)
    primary = create_user(federation.broker)
    identity_id = f"{federation.name}|{federation.person.user_id}"
    path = f"users/{quote(primary.user_id, safe='')}/identities"
    linked = json_of(expect_status(federation.broker.mgmt(
        "POST", path, json={"provider": "oidc", "user_id": identity_id}), 201))
    assert [(i["provider"], i["user_id"]) for i in linked] == [
        ("auth0", primary.user_id.split("|", 1)[1]), ("oidc", identity_id)]
    assert linked[1]["profileData"]["email"] == federation.person.email.lower()
    expect_status(user(federation.broker, secondary), 404)
    # A login through the linked identity signs in as the primary user.
    verifier = new_verifier()
    session = requests.Session()
    answer = federation.upstream_answer(session, verifier)
    assert finish(federation, federation.deliver(session, answer), verifier)["sub"] == primary.user_id
    # identities.connection finds the primary now.
    found = json_of(federation.broker.mgmt("GET", "users", params={"q": f'identities.connection:"{federation.name}"'}))
    assert [u["user_id"] for u in found] == [primary.user_id]

    left = json_of(expect_status(federation.broker.mgmt("DELETE", f"{path}/oidc/{quote(identity_id, safe='')}"), 200))
    assert [i["provider"] for i in left] == ["auth0"]
    again = json_of(expect_status(user(federation.broker, secondary), 200))
    assert again["email"] == federation.person.email.lower()
    assert [(i["provider"], i["user_id"]) for i in again["identities"]] == [("oidc", identity_id)]


@pytest.mark.parametrize("body, names", [
    ({"provider": "oidc", "user_id": "acme|nobody"}, "user_id"),
    ({"provider": "auth0", "user_id": "abc"}, "provider"),
    ({"user_id": "abc"}, "provider"),
    ({"provider": "oidc"}, "user_id"),
    ({"link_with": "eyJ..."}, "link_with"),
])
def test_a_bad_link_body_is_400_naming_the_member(warden, body, names):
    primary = create_user(warden)
    r = warden.mgmt("POST", f"users/{quote(primary.user_id, safe='')}/identities", json=body)
    assert r.status_code == 400 and json_of(r)["errorCode"] == "invalid_body", describe(r)
    assert names in json_of(r)["message"], describe(r)


def test_linking_needs_update_users_and_an_existing_primary(warden):
    primary = create_user(warden)
    path = f"users/{quote(primary.user_id, safe='')}/identities"
    body = {"provider": "oidc", "user_id": "acme|x"}
    r = warden.mgmt("POST", path, json=body, token=warden.mgmt_token(["read:users"]))
    assert r.status_code == 403 and json_of(r)["errorCode"] == "insufficient_scope", describe(r)
    r = warden.mgmt("DELETE", f"{path}/oidc/acme%7Cx", token=warden.mgmt_token(["read:users"]))
    assert r.status_code == 403 and json_of(r)["errorCode"] == "insufficient_scope", describe(r)
    r = warden.mgmt("POST", "users/auth0%7Cnobody/identities", json=body)
    assert r.status_code == 404 and json_of(r)["errorCode"] == "inexistent_user", describe(r)
    # The main identity cannot be unlinked, nor one the user does not have.
    for provider, identity in (("auth0", primary.user_id.split("|", 1)[1]), ("oidc", "acme%7Cx")):
        r = warden.mgmt("DELETE", f"{path}/{provider}/{identity}")
        assert r.status_code == 400 and json_of(r)["errorCode"] == "invalid_body", describe(r)


def test_kept_upstream_tokens_show_only_with_read_user_idp_tokens(warden, upstream):
    with oidc_federation(warden, upstream, federated_connections_access_tokens={"active": True}) as federation:
        sub = federated_user(federation)
        plain = json_of(warden.mgmt("GET", f"users/{quote(sub, safe='')}",
                                    token=warden.mgmt_token(["read:users"])))["identities"][0]
        assert "access_token" not in plain and "refresh_token" not in plain
        allowed = warden.mgmt_token(["read:users", "read:user_idp_tokens"])
        identity = json_of(expect_status(warden.mgmt("GET", f"users/{quote(sub, safe='')}", token=allowed),
                                         200))["identities"][0]
        # The upstream's own access token: its userinfo endpoint accepts it.
        r = requests.get(upstream.url("userinfo"), headers={"Authorization": f"Bearer {identity['access_token']}"},
                         timeout=HTTP_TIMEOUT)
        assert r.status_code == 200 and r.json()["sub"] == federation.person.user_id, describe(r)
        assert isinstance(identity["expires_in"], int)
        # Stored sealed, never in the clear.
        sealed, = stored_tokens(warden, sub)
        assert sealed.startswith("v1.") and identity["access_token"] not in sealed


def test_federated_logout_ends_the_upstream_session(warden, upstream):
    with oidc_federation(warden, upstream) as federation:
        logged_out = "https://app-out.interop.test/bye"
        upstream_app = next(c for c in json_of(upstream.mgmt("GET", "clients"))
                            if c["client_id"] == federation.connection["options"]["client_id"])
        expect_status(upstream.mgmt("PATCH", f"clients/{upstream_app['client_id']}",
                                    json={"allowed_logout_urls": [logged_out]}), 200)
        expect_status(warden.mgmt("PATCH", f"clients/{federation.client_id}",
                                  json={"allowed_logout_urls": [logged_out]}), 200)
        browser, verifier = requests.Session(), new_verifier()
        answer = federation.upstream_answer(browser, verifier)
        r = federation.deliver(browser, answer)
        finish(federation, r, verifier)
        out = browser.get(warden.url("oidc/logout"), params={
            "client_id": federation.client_id, "post_logout_redirect_uri": logged_out, "state": "s1",
            "federated": ""}, allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert out.status_code == 200 and "Sign out" in out.text, describe(out)  # no id_token_hint: confirm first
        form, = parse_page(out.text).forms
        fields = {i["name"]: i.get("value") or "" for i in form.inputs if i.get("name")}
        assert "federated" in fields
        ended = browser.post(urljoin(out.url, form.action), data=fields, allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert ended.status_code == 302, describe(ended)
        location = ended.headers["Location"]
        assert location.startswith(upstream.url("oidc/logout")), location
        query = dict(parse_qsl(urlsplit(location).query))
        assert query["post_logout_redirect_uri"] == logged_out and query["state"] == "s1"
        _, hint = verify_jwt(query["id_token_hint"], upstream.jwks(), ["RS256"])
        assert hint["iss"] == upstream.issuer and hint["sub"] == federation.person.user_id
        done = browser.get(location, allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert done.status_code == 302 and done.headers["Location"].startswith(logged_out), describe(done)
        # The upstream session is over: the next login there asks for the password again.
        again = browser.get(federation.authorize(new_verifier()), allow_redirects=True, timeout=HTTP_TIMEOUT)
        assert again.url.startswith(upstream.url("u/login")), again.url


def test_logout_without_federated_leaves_the_upstream_session(warden, federation):
    browser, verifier = requests.Session(), new_verifier()
    answer = federation.upstream_answer(browser, verifier)
    finish(federation, federation.deliver(browser, answer), verifier)
    out = browser.get(warden.url("oidc/logout"), params={"client_id": federation.client_id},
                      allow_redirects=False, timeout=HTTP_TIMEOUT)
    form, = parse_page(out.text).forms
    fields = {i["name"]: i.get("value") or "" for i in form.inputs if i.get("name")}
    ended = browser.post(urljoin(out.url, form.action), data=fields, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert ended.status_code == 200 and "signed out" in ended.text.lower(), describe(ended)
