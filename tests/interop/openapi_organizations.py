"""The organizations of SPEC §19 exercised through test_openapi.py's `Api` (every answer checked against the
OpenAPI document): each documented operation once with success, and its 404 and 409 where it has one. Kept out of
test_openapi.py, which calls it, so that file stays readable."""

from __future__ import annotations

from pkcelib import create_user
from wardenlib import uid


def exercise(api, warden, connection_id: str) -> None:
    name = f"openapi-{uid()}"
    org = api.expect(201, "POST", "/api/v2/organizations", json={
        "name": name, "display_name": "OpenAPI Org", "branding": {"colors": {"primary": "#123456"}},
        "metadata": {"k": "v"}}).json()
    ids = {"id": org["id"]}
    api.error(409, "conflict", "POST", "/api/v2/organizations", json={"name": name})
    api.expect(200, "GET", "/api/v2/organizations", params={"include_totals": "true"})
    api.expect(200, "GET", "/api/v2/organizations", params={"take": "1"})
    api.expect(200, "GET", "/api/v2/organizations/{id}", ids=ids)
    api.expect(200, "GET", "/api/v2/organizations/name/{name}", ids={"name": name})
    api.error(404, "inexistent_organization", "GET", "/api/v2/organizations/name/{name}", ids={"name": "nobody-" + uid()})
    api.expect(200, "PATCH", "/api/v2/organizations/{id}", ids=ids, json={"display_name": None})

    enabled = {**ids, "connection_id": connection_id}
    api.expect(200, "GET", "/api/v2/organizations/{id}/enabled_connections", ids=ids)
    api.expect(201, "POST", "/api/v2/organizations/{id}/enabled_connections", ids=ids,
               json={"connection_id": connection_id, "assign_membership_on_login": True})
    api.expect(200, "GET", "/api/v2/organizations/{id}/enabled_connections/{connection_id}", ids=enabled)
    api.expect(200, "PATCH", "/api/v2/organizations/{id}/enabled_connections/{connection_id}", ids=enabled,
               json={"show_as_button": False})

    user = create_user(warden)
    member = {**ids, "user_id": user.user_id}
    api.expect(204, "POST", "/api/v2/organizations/{id}/members", ids=ids, json={"members": [user.user_id]})
    api.expect(200, "GET", "/api/v2/organizations/{id}/members", ids=ids, params={"take": "10"})
    api.expect(200, "GET", "/api/v2/organizations/{id}/members", ids=ids, params={"include_totals": "true"})
    role = api.expect(201, "POST", "/api/v2/roles", json={"name": f"Org role {uid()}"}).json()
    api.expect(204, "POST", "/api/v2/organizations/{id}/members/{user_id}/roles", ids=member,
               json={"roles": [role["id"]]})
    api.expect(200, "GET", "/api/v2/organizations/{id}/members/{user_id}/roles", ids=member)
    api.error(404, "inexistent_role", "POST", "/api/v2/organizations/{id}/members/{user_id}/roles", ids=member,
              json={"roles": ["rol_" + uid()]})
    api.expect(204, "DELETE", "/api/v2/organizations/{id}/members/{user_id}/roles", ids=member,
               json={"roles": [role["id"]]})
    api.expect(200, "GET", "/api/v2/users/{id}/organizations", ids={"id": user.user_id})

    client = warden.create_client(app_type="spa", token_endpoint_auth_method="none",
                                  callbacks=[warden.url("demo/callback")], initiate_login_uri="https://app.example/")
    invitation = api.expect(201, "POST", "/api/v2/organizations/{id}/invitations", ids=ids, json={
        "inviter": {"name": "Ada"}, "invitee": {"email": f"openapi-{uid()}@interop.test"},
        "client_id": client["client_id"], "send_invitation_email": False}).json()
    invited = {**ids, "invitation_id": invitation["id"]}
    api.expect(200, "GET", "/api/v2/organizations/{id}/invitations", ids=ids, params={"include_totals": "true"})
    api.expect(200, "GET", "/api/v2/organizations/{id}/invitations/{invitation_id}", ids=invited)
    api.expect(204, "DELETE", "/api/v2/organizations/{id}/invitations/{invitation_id}", ids=invited)
    api.error(404, "inexistent_invitation", "GET", "/api/v2/organizations/{id}/invitations/{invitation_id}",
              ids=invited)

    api.expect(204, "DELETE", "/api/v2/organizations/{id}/members", ids=ids, json={"members": [user.user_id]})
    api.expect(204, "DELETE", "/api/v2/organizations/{id}/enabled_connections/{connection_id}", ids=enabled)
    api.expect(204, "DELETE", "/api/v2/organizations/{id}", ids=ids)
    api.error(404, "inexistent_organization", "GET", "/api/v2/organizations/{id}", ids=ids)
