"""SPEC §19 with a real identity provider of the organization's own: Glewlwyd (Debian's `glewlwyd`) behind an `oidc`
connection enabled for one organization with `assign_membership_on_login`. Its people become members on their first
login through it and get `org_id`; the organization's login page offers that connection only; another organization,
which did not enable it, cannot be signed in to through it. The login is counted by connection and outcome."""

from __future__ import annotations

import requests

from glewlwydlib import glewlwyd_federation
from mfalib import Browser
from pkcelib import new_verifier
from test_organizations_login import make_org
from test_server import metric
from wardenlib import expect_status, json_of


def test_an_organizations_own_provider_signs_its_people_in_as_members(warden, glewlwyd):
    with glewlwyd_federation(warden, glewlwyd) as federation:
        expect_status(warden.mgmt("PATCH", f"clients/{federation.client_id}", json={"organization_usage": "allow"}),
                      200)
        org = make_org(warden, database=False, display_name="Glewlwyd Corp")
        other = make_org(warden)
        try:
            expect_status(warden.mgmt("POST", f"organizations/{org['id']}/enabled_connections", json={
                "connection_id": federation.connection["id"], "assign_membership_on_login": True,
                "show_as_button": True}), 201)
            page = Browser(warden).authorize(federation.client_id, federation.redirect_uri, organization=org["id"])
            buttons = [b.get("value") for f in page.page.forms for b in f.buttons if b.get("name") == "connection"]
            assert buttons == [federation.name] and not any(f.has_password() for f in page.page.forms), page.page.text

            session, verifier = requests.Session(), new_verifier()
            answer = federation.upstream_answer(session, verifier, organization=org["id"])
            claims = federation.finish(session, verifier, answer)
            assert claims["org_id"] == org["id"] and claims["org_name"] == org["name"], claims
            members = json_of(expect_status(warden.mgmt("GET", f"organizations/{org['id']}/members"), 200))
            assert [m["user_id"] for m in members] == [claims["sub"]], members
            # Issue 33 item 5: federated logins by connection and outcome.
            text = expect_status(requests.get(warden.url("metrics"), timeout=30), 200).text
            assert metric(text, "warden_federated_logins_total", connection=federation.name, outcome="success") == 1

            # The other organization did not enable the connection: the 400 page, no login through it.
            r = requests.get(federation.authorize(new_verifier(), organization=other["id"]), allow_redirects=False)
            assert r.status_code == 400 and "text/html" in r.headers["Content-Type"], r.text[:300]
        finally:
            for made in (org, other):
                warden.mgmt("DELETE", f"organizations/{made['id']}")

