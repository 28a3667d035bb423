"""SPEC §19 at `/authorize`: `organization` by id or name, membership, the invitation (sign in with the invited
address, or sign up with it pre-filled and the invitation's metadata applied), the login page offering only the
organization's connections, and `org_id`/`org_name` in the tokens (checked by joserfc)."""

from __future__ import annotations

import pytest

from urllib.parse import urljoin

from mfalib import Browser, Step
from pkcelib import create_public_client, create_user, fake_callback
from test_mfa import claims_of
from wardenlib import HTTP_TIMEOUT, expect_status, json_of, uid

DATABASE_CONNECTION_ID = "con_UsernamePasswordAuthentication"


def make_org(warden, *, database: bool = True, **fields) -> dict:
    """An organization (`fields` more of its body), with the database connection enabled unless `database` is off."""
    created = json_of(expect_status(warden.mgmt("POST", "organizations", json={"name": f"login-{uid()}", **fields}),
                                    201))
    if database:
        expect_status(warden.mgmt("POST", f"organizations/{created['id']}/enabled_connections",
                                  json={"connection_id": DATABASE_CONNECTION_ID}), 201)
    return created


@pytest.fixture
def org(warden):
    created = make_org(warden)
    yield created
    warden.mgmt("DELETE", f"organizations/{created['id']}")


def app(warden, usage: str = "allow") -> dict:
    redirect_uri = fake_callback()
    client = create_public_client(warden, [redirect_uri], organization_usage=usage,
                                  initiate_login_uri="https://app.example/login")
    return {"client_id": client["client_id"], "redirect_uri": redirect_uri}


def sign_in(warden, client: dict, user, **extra):
    browser = Browser(warden)
    return browser, browser.sign_in(client["client_id"], client["redirect_uri"], user.email, user.password, **extra)


def invite(warden, org: dict, client: dict, email: str, **fields) -> dict:
    return json_of(expect_status(warden.mgmt("POST", f"organizations/{org['id']}/invitations", json={
        "inviter": {"name": "Ada"}, "invitee": {"email": email}, "client_id": client["client_id"],
        "send_invitation_email": False, **fields}), 201))


def invited_sign_in(warden, client: dict, user, org: dict, ticket: str) -> tuple[Browser, Step]:
    """The invitation link opens the sign-up page with the invited address; its "sign in" link leads to the login
    form, where `user` signs in."""
    browser = Browser(warden)
    step = browser.authorize(client["client_id"], client["redirect_uri"], organization=org["id"], invitation=ticket)
    assert step.path == "/u/signup", step.response.url
    login = browser.follow(browser.http.get(warden.url("u/login") + "?state=" + step.state, allow_redirects=False,
                                            timeout=HTTP_TIMEOUT))
    form, = [f for f in login.page.forms if f.has_password()]
    data = {"state": step.state, "csrf": form.hidden()["csrf"], "username": user.email, "password": user.password}
    return browser, browser.follow(browser.http.post(urljoin(login.response.url, form.action), data=data,
                                                     allow_redirects=False, timeout=HTTP_TIMEOUT))


@pytest.mark.parametrize("by", ["id", "name"])
def test_a_member_signs_in_and_the_tokens_carry_the_organization(warden, org, by):
    client, user = app(warden), create_user(warden)
    expect_status(warden.mgmt("POST", f"organizations/{org['id']}/members", json={"members": [user.user_id]}), 204)
    browser, step = sign_in(warden, client, user, organization=org[by])
    assert step.callback and "code" in step.callback, step.response.url
    tokens = browser.exchange(client["client_id"], step.callback["code"])
    for token in (tokens["id_token"], tokens["access_token"]):
        claims = claims_of(warden, token)
        assert claims["org_id"] == org["id"] and claims["org_name"] == org["name"], claims


def test_a_non_member_is_refused_naming_the_organization(warden, org):
    client, user = app(warden), create_user(warden)
    _, step = sign_in(warden, client, user, organization=org["id"])
    assert step.callback["error"] == "access_denied", step.callback
    assert org["name"] in step.callback["error_description"], step.callback


def test_organizations_on_a_deny_client_unknown_ones_and_a_lone_invitation(warden, org):
    denying = app(warden, "deny")
    browser = Browser(warden)
    step = browser.authorize(denying["client_id"], denying["redirect_uri"], organization=org["id"])
    assert step.response.status_code == 400 and "Organizations not supported" in step.response.text
    allowing = app(warden)
    step = Browser(warden).authorize(allowing["client_id"], allowing["redirect_uri"], organization="nobody-" + uid())
    assert step.callback["error"] == "invalid_request", step.callback
    step = Browser(warden).authorize(allowing["client_id"], allowing["redirect_uri"], invitation="x")
    assert step.callback["error"] == "invalid_request", step.callback


def test_an_invitation_is_accepted_once_with_the_invited_email(warden, org):
    client = app(warden)
    role = json_of(expect_status(warden.mgmt("POST", "roles", json={"name": f"Invited {uid()}"}), 201))
    user, other = create_user(warden), create_user(warden)
    made = invite(warden, org, client, user.email, roles=[role["id"]])
    _, step = invited_sign_in(warden, client, other, org, made["ticket_id"])
    assert step.callback["error"] == "access_denied" and "another e-mail" in step.callback["error_description"]
    browser, step = invited_sign_in(warden, client, user, org, made["ticket_id"])
    assert step.callback and "code" in step.callback, step.callback
    claims = claims_of(warden, browser.exchange(client["client_id"], step.callback["code"])["id_token"])
    assert claims["org_id"] == org["id"], claims
    roles = json_of(expect_status(warden.mgmt("GET", f"organizations/{org['id']}/members/{user.user_id}/roles"), 200))
    assert [r["id"] for r in roles] == [role["id"]]
    expect_status(warden.mgmt("GET", f"organizations/{org['id']}/invitations/{made['id']}"), 404)
    _, again = invited_sign_in(warden, client, create_user(warden), org, made["ticket_id"])
    assert again.callback["error"] == "access_denied", again.callback


def test_an_invitee_signs_up_with_the_address_filled_in_and_the_invitation_metadata(warden, org):
    client = app(warden)
    role = json_of(expect_status(warden.mgmt("POST", "roles", json={"name": f"Signed up {uid()}"}), 201))
    email = f"invitee-{uid()}@interop.test"
    made = invite(warden, org, client, email, roles=[role["id"]], app_metadata={"plan": "gold"},
                  user_metadata={"team": "blue"})
    browser = Browser(warden)
    step = browser.authorize(client["client_id"], client["redirect_uri"], organization=org["id"],
                             invitation=made["ticket_id"])
    assert step.path == "/u/signup" and "You were invited to join" in step.page.text, step.page.text
    form, = [f for f in step.page.forms if f.has_password()]
    field, = [i for i in form.inputs if i.get("name") == "email"]
    assert field.get("value") == email and "readonly" in field, field
    data = {"state": step.state, "csrf": form.hidden()["csrf"], "email": f"someone-else-{uid()}@interop.test",
            "password": "Invited-Passw0rd-2026!"}  # a changed address is ignored: the invitation's is used
    done = browser.follow(browser.http.post(urljoin(step.response.url, form.action), data=data,
                                            allow_redirects=False, timeout=HTTP_TIMEOUT))
    assert done.callback and "code" in done.callback, done.page.text if done.page else done.callback
    claims = claims_of(warden, browser.exchange(client["client_id"], done.callback["code"])["id_token"])
    assert claims["org_id"] == org["id"] and claims["email"] == email, claims
    user, = json_of(expect_status(warden.mgmt("GET", "users-by-email", params={"email": email}), 200))
    assert user["app_metadata"] == {"plan": "gold"} and user["user_metadata"] == {"team": "blue"}, user
    roles = json_of(expect_status(warden.mgmt("GET", f"organizations/{org['id']}/members/{user['user_id']}/roles"),
                                  200))
    assert [r["id"] for r in roles] == [role["id"]]


def test_the_login_page_offers_only_the_organizations_connections(warden):
    client = app(warden)
    social = json_of(expect_status(warden.mgmt("POST", "connections", json={
        "name": f"gh-{uid()}", "strategy": "github", "options": {"client_id": "x", "client_secret": "y"},
        "enabled_clients": [client["client_id"]]}), 201))
    hidden = json_of(expect_status(warden.mgmt("POST", "connections", json={
        "name": f"gh2-{uid()}", "strategy": "github", "options": {"client_id": "x", "client_secret": "y"},
        "enabled_clients": [client["client_id"]]}), 201))
    organization = make_org(warden, database=False, display_name="Acme Without Passwords")
    try:
        expect_status(warden.mgmt("POST", f"organizations/{organization['id']}/enabled_connections",
                                  json={"connection_id": social["id"], "show_as_button": True}), 201)
        user = create_user(warden)
        expect_status(warden.mgmt("POST", f"organizations/{organization['id']}/members",
                                  json={"members": [user.user_id]}), 204)
        browser = Browser(warden)
        step = browser.authorize(client["client_id"], client["redirect_uri"], organization=organization["id"])
        assert "Acme Without Passwords" in step.page.text, step.page.text
        assert not any(f.has_password() for f in step.page.forms), "no password form without the database connection"
        buttons = [b.get("value") for f in step.page.forms for b in f.buttons if b.get("name") == "connection"]
        assert buttons == [social["name"]], buttons
        # A password posted anyway is refused, and another connection of the client is the 400 page.
        csrf = step.page.forms[0].hidden()["csrf"]
        refused = browser.http.post(warden.url("u/login"), data={
            "state": step.state, "csrf": csrf, "username": user.email, "password": user.password},
            allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert refused.status_code == 200 and "Sign in with one of your organization" in refused.text, refused.text
        other = Browser(warden).authorize(client["client_id"], client["redirect_uri"],
                                          organization=organization["id"], connection=hidden["name"])
        assert other.response.status_code == 400, other.response.text
        plain = Browser(warden).authorize(client["client_id"], client["redirect_uri"])
        assert any(f.has_password() for f in plain.page.forms), "outside the organization the form is back"
    finally:
        warden.mgmt("DELETE", f"organizations/{organization['id']}")
        for made in (social, hidden):
            warden.mgmt("DELETE", f"connections/{made['id']}")


def test_a_require_client_without_organization_is_invalid_request(warden):
    requiring = app(warden, "require")
    step = Browser(warden).authorize(requiring["client_id"], requiring["redirect_uri"])
    assert step.callback["error"] == "invalid_request", step.callback


def test_an_expired_invitation_is_refused(warden, org):
    import time

    client, user = app(warden), create_user(warden)
    made = invite(warden, org, client, user.email, ttl_sec=1)
    time.sleep(1.5)
    _, step = invited_sign_in(warden, client, user, org, made["ticket_id"])
    assert step.callback["error"] == "access_denied", step.callback
    members = json_of(expect_status(warden.mgmt("GET", f"organizations/{org['id']}/members"), 200))
    assert user.user_id not in [m["user_id"] for m in members], members
