"""SPEC §19's tokens and RBAC: `org_id`/`org_name` kept through refresh (the organization's current name; none once
the user left it or it is gone), API permissions from the tenant roles plus the member's roles in that organization
(and in no other login), and the `s` log record naming the organization."""

from __future__ import annotations

import requests

from mfalib import Browser
from test_server import metric
from test_mfa import claims_of
from test_organizations_login import app, make_org, sign_in
from pkcelib import create_user
from wardenlib import HTTP_TIMEOUT, expect_status, json_of, uid, wait_until


def refresh(warden, client: dict, token: str) -> requests.Response:
    return requests.post(warden.token_endpoint, data={
        "grant_type": "refresh_token", "client_id": client["client_id"], "refresh_token": token}, timeout=HTTP_TIMEOUT)


def member(warden, org: dict, user) -> None:
    expect_status(warden.mgmt("POST", f"organizations/{org['id']}/members", json={"members": [user.user_id]}), 204)


def org_tokens(warden, client: dict, user, org: dict, **extra) -> dict:
    browser, step = sign_in(warden, client, user, organization=org["id"], **extra)
    assert step.callback and "code" in step.callback, step.callback
    return browser.exchange(client["client_id"], step.callback["code"])


def test_refreshed_tokens_keep_the_organization_until_the_user_leaves_it(warden):
    org, client, user = make_org(warden), app(warden), create_user(warden)
    member(warden, org, user)
    tokens = org_tokens(warden, client, user, org, scope="openid offline_access")
    renamed = f"renamed-{uid()}"
    expect_status(warden.mgmt("PATCH", f"organizations/{org['id']}", json={"name": renamed}), 200)
    refreshed = json_of(expect_status(refresh(warden, client, tokens["refresh_token"]), 200))
    for token in (refreshed["access_token"], refreshed["id_token"]):
        claims = claims_of(warden, token)
        assert claims["org_id"] == org["id"] and claims["org_name"] == renamed, claims
    expect_status(warden.mgmt("DELETE", f"organizations/{org['id']}/members", json={"members": [user.user_id]}), 204)
    left = refresh(warden, client, tokens["refresh_token"])
    assert left.status_code == 400 and left.json()["error"] == "invalid_grant", left.text
    assert renamed in left.json()["error_description"], left.text
    expect_status(warden.mgmt("DELETE", f"organizations/{org['id']}"), 204)
    gone = refresh(warden, client, tokens["refresh_token"])
    assert gone.status_code == 400 and gone.json()["error"] == "invalid_grant", gone.text
    # A token of a login without an organization carries none, before and after refresh.
    plain = Browser(warden)
    step = plain.sign_in(client["client_id"], client["redirect_uri"], user.email, user.password,
                         scope="openid offline_access")
    outside = plain.exchange(client["client_id"], step.callback["code"])
    again = json_of(expect_status(refresh(warden, client, outside["refresh_token"]), 200))
    assert "org_id" not in claims_of(warden, again["access_token"])


def test_organization_roles_grant_permissions_only_in_that_organizations_logins(warden):
    api = f"https://api-{uid()}.interop.test/"
    expect_status(warden.mgmt("POST", "resource-servers", json={
        "identifier": api, "name": f"Org API {uid()}", "enforce_policies": True,
        "scopes": [{"value": "read:reports", "description": "Read"}, {"value": "write:reports", "description": "W"},
                   {"value": "read:profile", "description": "Profile"}]}), 201)

    def role_with(permission: str) -> str:
        role = json_of(expect_status(warden.mgmt("POST", "roles", json={"name": f"{permission} {uid()}"}), 201))
        expect_status(warden.mgmt("POST", f"roles/{role['id']}/permissions", json={"permissions": [
            {"resource_server_identifier": api, "permission_name": permission}]}), 201)
        return role["id"]

    reader, writer, profile = role_with("read:reports"), role_with("write:reports"), role_with("read:profile")
    first, second, client, user = make_org(warden), make_org(warden), app(warden), create_user(warden)
    member(warden, first, user)
    member(warden, second, user)
    expect_status(warden.mgmt("POST", f"organizations/{first['id']}/members/{user.user_id}/roles",
                              json={"roles": [reader, writer]}), 204)
    expect_status(warden.mgmt("POST", f"users/{user.user_id}/roles", json={"roles": [profile]}), 201)
    scope = "openid read:reports write:reports read:profile"

    def granted(**extra) -> set[str]:
        browser = Browser(warden)
        step = browser.sign_in(client["client_id"], client["redirect_uri"], user.email, user.password, scope=scope,
                               audience=api, **extra)
        assert step.callback and "code" in step.callback, step.callback
        token = browser.exchange(client["client_id"], step.callback["code"])["access_token"]
        return set(claims_of(warden, token)["scope"].split())

    assert granted(organization=first["id"]) == {"openid", "read:reports", "write:reports", "read:profile"}
    assert granted(organization=second["id"]) == {"openid", "read:profile"}, "roles of one organization only"
    assert granted() == {"openid", "read:profile"}, "organization roles count nowhere outside it"
    for org in (first, second):
        warden.mgmt("DELETE", f"organizations/{org['id']}")


def test_the_s_log_record_names_the_organization(warden):
    org, client, user = make_org(warden), app(warden), create_user(warden)
    member(warden, org, user)
    org_tokens(warden, client, user, org)
    query = {"q": f'type:s AND user_id:"{user.user_id}"'}
    event, = wait_until(lambda: json_of(warden.mgmt("GET", "logs", params=query)), timeout=10, what="the s event")
    assert event["organization_id"] == org["id"] and event["organization_name"] == org["name"], event
    expect_status(warden.mgmt("DELETE", f"organizations/{org['id']}"), 204)


def test_organization_logins_are_counted_and_a_refusal_logged(warden):
    """Issue 33 item 5: `warden_organization_logins_total{outcome}` counts logins for an organization as they end."""
    def count(outcome: str) -> float:
        text = expect_status(requests.get(warden.url("metrics"), timeout=HTTP_TIMEOUT), 200).text
        return metric(text, "warden_organization_logins_total", outcome=outcome)

    org, client, member_user, outsider = make_org(warden), app(warden), create_user(warden), create_user(warden)
    member(warden, org, member_user)
    admitted, refused = count("admitted"), count("refused")
    org_tokens(warden, client, member_user, org)
    _, step = sign_in(warden, client, outsider, organization=org["id"])
    assert step.callback["error"] == "access_denied", step.callback
    assert (count("admitted"), count("refused")) == (admitted + 1, refused + 1)
    query = {"q": f'type:f AND user_id:"{outsider.user_id}"'}
    event, = wait_until(lambda: json_of(warden.mgmt("GET", "logs", params=query)), timeout=10, what="the f event")
    assert event["organization_id"] == org["id"] and org["name"] in event["description"], event
    expect_status(warden.mgmt("DELETE", f"organizations/{org['id']}"), 204)
