"""SPEC §19 at `/authorize` (work in progress on branch org-login): `organization` by id or name, membership, the
invitation, and `org_id`/`org_name` in the tokens (checked by joserfc)."""

from __future__ import annotations

import pytest

from mfalib import Browser
from pkcelib import create_public_client, create_user, fake_callback
from test_mfa import claims_of
from wardenlib import expect_status, json_of, uid


@pytest.fixture
def org(warden):
    created = json_of(expect_status(warden.mgmt("POST", "organizations", json={"name": f"login-{uid()}"}), 201))
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
    made = json_of(expect_status(warden.mgmt("POST", f"organizations/{org['id']}/invitations", json={
        "inviter": {"name": "Ada"}, "invitee": {"email": user.email}, "client_id": client["client_id"],
        "roles": [role["id"]], "send_invitation_email": False}), 201))
    _, step = sign_in(warden, client, other, organization=org["id"], invitation=made["ticket_id"])
    assert step.callback["error"] == "access_denied" and "another e-mail" in step.callback["error_description"]
    _, step = sign_in(warden, client, user, organization=org["id"], invitation=made["ticket_id"])
    assert step.callback and "code" in step.callback, step.callback
    roles = json_of(expect_status(warden.mgmt("GET", f"organizations/{org['id']}/members/{user.user_id}/roles"), 200))
    assert [r["id"] for r in roles] == [role["id"]]
    _, again = sign_in(warden, client, create_user(warden), organization=org["id"], invitation=made["ticket_id"])
    assert again.callback["error"] == "access_denied", again.callback


def test_a_require_client_without_organization_is_invalid_request(warden):
    requiring = app(warden, "require")
    step = Browser(warden).authorize(requiring["client_id"], requiring["redirect_uri"])
    assert step.callback["error"] == "invalid_request", step.callback


def test_an_expired_invitation_is_refused(warden, org):
    import time

    client, user = app(warden), create_user(warden)
    made = json_of(expect_status(warden.mgmt("POST", f"organizations/{org['id']}/invitations", json={
        "inviter": {"name": "Ada"}, "invitee": {"email": user.email}, "client_id": client["client_id"],
        "ttl_sec": 1, "send_invitation_email": False}), 201))
    time.sleep(1.5)
    _, step = sign_in(warden, client, user, organization=org["id"], invitation=made["ticket_id"])
    assert step.callback["error"] == "access_denied", step.callback
    members = json_of(expect_status(warden.mgmt("GET", f"organizations/{org['id']}/members"), 200))
    assert user.user_id not in [m["user_id"] for m in members], members
