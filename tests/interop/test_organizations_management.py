"""SPEC §19 through the vendor's Python SDK (auth0-python v6, its generated Management client): organizations and
both their pagings, enabled connections, members and their roles, invitations with the e-mail the suite's SMTP sink
receives, `/users/{id}/organizations`, and each SPEC error with its HTTP status and `error` code."""

from __future__ import annotations

import re

import pytest
import requests
from auth0.management.errors import BadRequestError, ConflictError, NotFoundError

from pkcelib import create_user
from test_passkeys_native import CONNECTION, database_connection
from wardenlib import HTTP_TIMEOUT, describe, expect_status, json_of, uid


def org_name(prefix: str = "acme") -> str:
    return f"{prefix}-{uid()}".lower()[:50]


@pytest.fixture
def org(sdk):
    created = sdk.organizations.create(
        name=org_name(), display_name="Acme Corporation",
        branding={"logo_url": "https://acme.example/logo.png", "colors": {"primary": "#0059d6",
                                                                           "page_background": "#fff"}},
        metadata={"tier": "gold"})
    yield created
    try:
        sdk.organizations.delete(created.id)
    except NotFoundError:
        pass


def test_an_organization_round_trips_through_the_sdk(sdk, org):
    assert re.fullmatch(r"org_[A-Za-z0-9]{16}", org.id), org.id
    assert org.display_name == "Acme Corporation" and org.metadata == {"tier": "gold"}
    assert org.branding.colors.primary == "#0059d6" and org.branding.logo_url == "https://acme.example/logo.png"
    assert sdk.organizations.get(org.id).name == org.name
    assert sdk.organizations.get_by_name(org.name).id == org.id
    updated = sdk.organizations.update(org.id, display_name="Acme", metadata={"tier": "silver", "region": "eu"})
    assert updated.display_name == "Acme" and updated.metadata == {"tier": "silver", "region": "eu"}
    assert updated.name == org.name, "a PATCH keeps what it does not name"
    sdk.organizations.delete(org.id)
    with pytest.raises(NotFoundError):
        sdk.organizations.get(org.id)


def test_names_are_validated_and_unique(sdk, org, warden):
    with pytest.raises(ConflictError):
        sdk.organizations.create(name=org.name)
    for bad in ["Upper", "with space", "x" * 51, ""]:
        r = warden.mgmt("POST", "organizations", json={"name": bad})
        assert r.status_code == 400 and json_of(r)["errorCode"] == "invalid_body", (bad, describe(r))
    for body in [{"name": org_name(), "branding": {"colors": {"primary": "blue"}}},
                 {"name": org_name(), "branding": {"logo_url": "http://insecure.example/logo.png"}},
                 {"name": org_name(), "metadata": {f"k{i}": "v" for i in range(26)}},
                 {"name": org_name(), "metadata": {"n": 1}}, {"name": org_name(), "plan": "x"}]:
        r = warden.mgmt("POST", "organizations", json=body)
        assert r.status_code == 400 and json_of(r)["errorCode"] == "invalid_body", (body, describe(r))
    for path in ["organizations/org_0000000000000000", "organizations/name/nobody-here"]:
        r = warden.mgmt("GET", path)
        assert r.status_code == 404 and json_of(r)["errorCode"] == "inexistent_organization", describe(r)


def test_both_pagings_list_every_organization_once(sdk, warden):
    made = [sdk.organizations.create(name=org_name("page")).id for _ in range(3)]
    try:
        seen = [o.id for o in sdk.organizations.list(take=2)]  # checkpoint paging: the pager follows `next`
        assert set(made) <= set(seen) and len(seen) == len(set(seen)), seen
        first = json_of(expect_status(warden.mgmt("GET", "organizations?take=1"), 200))
        assert set(first) == {"organizations", "next"} and len(first["organizations"]) == 1, first
        second = json_of(expect_status(warden.mgmt("GET", f"organizations?take=1&from={first['next']}"), 200))
        assert second["organizations"][0]["id"] > first["organizations"][0]["id"], second
        paged = json_of(expect_status(warden.mgmt("GET", "organizations?page=0&per_page=2&include_totals=true"), 200))
        assert paged["limit"] == 2 and paged["total"] >= 3 and len(paged["organizations"]) == 2, paged
    finally:
        for organization_id in made:
            sdk.organizations.delete(organization_id)


def test_enabled_connections(sdk, org, warden):
    connection_id = database_connection(warden)["id"]
    assert list(sdk.organizations.enabled_connections.list(org.id)) == [], "a new organization has none"
    added = sdk.organizations.enabled_connections.add(org.id, connection_id=connection_id,
                                                      assign_membership_on_login=True)
    assert added.connection_id == connection_id and added.assign_membership_on_login is True
    assert added.connection.name == CONNECTION
    with pytest.raises(ConflictError):
        sdk.organizations.enabled_connections.add(org.id, connection_id=connection_id)
    with pytest.raises(BadRequestError):
        sdk.organizations.enabled_connections.add(org.id, connection_id="con_doesnotexist0000")
    updated = sdk.organizations.enabled_connections.update(org.id, connection_id, show_as_button=False)
    assert updated.show_as_button is False and updated.assign_membership_on_login is True
    assert sdk.organizations.enabled_connections.get(org.id, connection_id).show_as_button is False
    sdk.organizations.enabled_connections.delete(org.id, connection_id)
    r = warden.mgmt("GET", f"organizations/{org.id}/enabled_connections/{connection_id}")
    assert r.status_code == 404 and json_of(r)["errorCode"] == "inexistent_connection", describe(r)


def test_members_and_their_roles_in_one_organization_only(sdk, org, warden):
    alice, bob = create_user(warden), create_user(warden)
    sdk.organizations.members.create(org.id, members=[alice.user_id, bob.user_id])
    members = {m.user_id: m for m in sdk.organizations.members.list(org.id, take=1)}
    assert set(members) == {alice.user_id, bob.user_id} and members[alice.user_id].email == alice.email
    r = warden.mgmt("POST", f"organizations/{org.id}/members", json={"members": ["auth0|nobody"]})
    assert r.status_code == 404 and json_of(r)["errorCode"] == "inexistent_user", describe(r)
    r = warden.mgmt("POST", f"organizations/{org.id}/members", json={"members": []})
    assert r.status_code == 400 and json_of(r)["errorCode"] == "invalid_body", describe(r)

    role = sdk.roles.create(name=f"Approver {uid()}")
    sdk.organizations.members.roles.assign(org.id, alice.user_id, roles=[role.id])
    assert [r.id for r in sdk.organizations.members.roles.list(org.id, alice.user_id)] == [role.id]
    assert [r.id for r in sdk.users.roles.list(alice.user_id)] == [], "an organization role is not a tenant role"
    r = warden.mgmt("POST", f"organizations/{org.id}/members/{bob.user_id}/roles", json={"roles": ["rol_nope"]})
    assert r.status_code == 404 and json_of(r)["errorCode"] == "inexistent_role", describe(r)
    outsider = create_user(warden)
    r = warden.mgmt("GET", f"organizations/{org.id}/members/{outsider.user_id}/roles")
    assert r.status_code == 404 and json_of(r)["errorCode"] == "inexistent_user", describe(r)
    assert [o.id for o in sdk.users.organizations.list(alice.user_id)] == [org.id]

    sdk.organizations.members.roles.delete(org.id, alice.user_id, roles=[role.id])
    assert list(sdk.organizations.members.roles.list(org.id, alice.user_id)) == []
    sdk.organizations.members.delete(org.id, members=[bob.user_id])
    assert [m.user_id for m in sdk.organizations.members.list(org.id)] == [alice.user_id]
    sdk.organizations.delete(org.id)
    assert list(sdk.users.organizations.list(alice.user_id)) == [], "memberships go with the organization"


def invitation_client(warden) -> dict:
    return warden.create_client(app_type="spa", token_endpoint_auth_method="none",
                                callbacks=[warden.url("demo/callback")],
                                initiate_login_uri="https://app.example/login?source=mail")


def test_an_invitation_is_made_listed_mailed_and_deleted(sdk, org, warden, smtp_sink):
    client = invitation_client(warden)
    role = sdk.roles.create(name=f"Invited {uid()}")
    email = f"invitee-{uid()}@interop.test"
    made = sdk.organizations.invitations.create(
        org.id, inviter={"name": "Ada Admin"}, invitee={"email": email}, client_id=client["client_id"],
        roles=[role.id], ttl_sec=3600, app_metadata={"plan": "pro"})
    assert re.fullmatch(r"uinv_[A-Za-z0-9]{16}", made.id), made.id
    assert made.invitation_url.startswith("https://app.example/login?source=mail&invitation=" + made.ticket_id)
    assert f"&organization={org.id}&organization_name={org.name}" in made.invitation_url
    assert made.roles == [role.id] and made.invitee.email == email
    message = smtp_sink.wait_for_mail(email)
    assert "Ada Admin invited you to join Acme Corporation" in message.subject, message.subject
    assert made.invitation_url in message.text, message.text
    listed = list(sdk.organizations.invitations.list(org.id))
    assert [i.id for i in listed] == [made.id], listed
    got = sdk.organizations.invitations.get(org.id, made.id)
    assert got.expires_at and got.inviter.name == "Ada Admin"
    sdk.organizations.invitations.delete(org.id, made.id)
    with pytest.raises(NotFoundError):
        sdk.organizations.invitations.get(org.id, made.id)


def test_invitation_errors(sdk, org, warden):
    client = invitation_client(warden)
    plain = warden.create_client(app_type="spa", token_endpoint_auth_method="none",
                                 callbacks=[warden.url("demo/callback")])
    good = {"inviter": {"name": "Ada"}, "invitee": {"email": f"e-{uid()}@interop.test"},
            "client_id": client["client_id"], "send_invitation_email": False}
    for change in [{"client_id": plain["client_id"]}, {"client_id": "nope"}, {"ttl_sec": 2592001},
                   {"invitee": {"email": "not an address"}}, {"inviter": None}, {"roles": ["rol_nope"]},
                   {"connection_id": database_connection(warden)["id"]}, {"extra": True}]:
        body = {k: v for k, v in {**good, **change}.items() if v is not None}
        r = warden.mgmt("POST", f"organizations/{org.id}/invitations", json=body)
        assert r.status_code == 400 and json_of(r)["errorCode"] == "invalid_body", (change, describe(r))
    r = warden.mgmt("GET", f"organizations/{org.id}/invitations/uinv_0000000000000000")
    assert r.status_code == 404 and json_of(r)["errorCode"] == "inexistent_invitation", describe(r)


def test_each_endpoint_needs_its_scope(warden, org):
    calls = [("GET", "organizations", "read:organizations"), ("POST", "organizations", "create:organizations"),
             ("PATCH", f"organizations/{org.id}", "update:organizations"),
             ("DELETE", f"organizations/{org.id}", "delete:organizations"),
             ("GET", f"organizations/{org.id}/members", "read:organization_members"),
             ("POST", f"organizations/{org.id}/members", "create:organization_members"),
             ("GET", f"organizations/{org.id}/invitations", "read:organization_invitations"),
             ("GET", f"organizations/{org.id}/enabled_connections", "read:organization_connections")]
    token = warden.mgmt_token(scopes=["read:users"])
    for method, path, scope in calls:
        r = requests.request(method, warden.mgmt_base + "/" + path, json={},
                             headers={"Authorization": f"Bearer {token}"}, timeout=HTTP_TIMEOUT)
        assert r.status_code == 403 and json_of(r)["errorCode"] == "insufficient_scope", (path, describe(r))
        assert scope in json_of(r)["message"], (scope, json_of(r))


def test_a_clients_organization_settings(sdk, warden):
    """SPEC §19 "Clients": `organization_usage` and `organization_require_behavior`, absent until set (read as
    `deny` and `no_prompt`), validated, and reset by `null`."""
    created = sdk.clients.create(name=f"org app {uid()}", app_type="regular_web", organization_usage="require",
                                 organization_require_behavior="post_login_prompt")
    assert created.organization_usage == "require", created
    assert created.organization_require_behavior == "post_login_prompt", created
    updated = sdk.clients.update(created.client_id, organization_usage="allow")
    assert updated.organization_usage == "allow" and updated.organization_require_behavior == "post_login_prompt"
    for body in [{"organization_usage": "sometimes"}, {"organization_require_behavior": "ask"},
                 {"organization_usage": 1}]:
        r = warden.mgmt("PATCH", f"clients/{created.client_id}", json=body)
        assert r.status_code == 400 and json_of(r)["errorCode"] == "invalid_body", (body, describe(r))
    reset = json_of(expect_status(warden.mgmt("PATCH", f"clients/{created.client_id}",
                                              json={"organization_usage": None}), 200))
    assert "organization_usage" not in reset, reset
    plain = json_of(expect_status(warden.mgmt("GET", f"clients/{created.client_id}"), 200))
    assert plain.get("organization_require_behavior") == "post_login_prompt", plain
    sdk.clients.delete(created.client_id)
