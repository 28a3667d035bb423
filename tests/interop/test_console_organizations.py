"""SPEC §14, §19: the console's organizations, driven like a browser with `requests` (the console's forms, its CSRF
token) and checked through the Management API: add an organization (a bad name refused beside its field), edit its
branding, add and remove a member by e-mail, enable a connection, invite someone (the link shown once, the e-mail
in the suite's SMTP sink), delete the invitation and the organization."""

from __future__ import annotations

import re
from html import unescape

from pkcelib import create_user
from test_console import csrf_of, make_admin, page, sign_in
from test_passkeys_native import database_connection
from wardenlib import HTTP_TIMEOUT, Warden, describe, expect_status, json_of, uid


def post(browser, warden: Warden, path: str, data: dict, status: int = 303):
    r = browser.post(warden.url("admin/" + path), data=data, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == status, describe(r)
    return r


def test_the_console_manages_an_organization(warden: Warden, smtp_sink):
    admin = create_user(warden)
    make_admin(warden, admin)
    browser, _ = sign_in(warden, admin)
    listing = page(browser, warden, "admin/organizations").text
    assert "Add an organization" in listing and 'aria-current="page">Organizations' in listing
    csrf = csrf_of(listing)

    refused = post(browser, warden, "organizations", {"csrf": csrf, "name": "Not Valid"}, status=400)
    assert "lowercase letters" in unescape(refused.text) and 'aria-invalid="true"' in refused.text
    name = f"console-{uid()}"
    made = post(browser, warden, "organizations", {
        "csrf": csrf, "name": name, "display_name": "Console Corp", "branding.primary": "#0059d6"})
    path = made.headers["Location"].split("?")[0]
    org_id = path.rsplit("/", 1)[1]
    org = json_of(expect_status(warden.mgmt("GET", f"organizations/{org_id}"), 200))
    assert org["name"] == name and org["branding"] == {"colors": {"primary": "#0059d6"}}, org
    relative = path.split("/admin/", 1)[1]
    post(browser, warden, relative, {"csrf": csrf, "name": name, "display_name": "Console Corporation",
                                     "branding.logo_url": "https://console.example/logo.png",
                                     "branding.primary": "#0059d6"})
    org = json_of(expect_status(warden.mgmt("GET", f"organizations/{org_id}"), 200))
    assert org["display_name"] == "Console Corporation", org
    assert org["branding"]["logo_url"] == "https://console.example/logo.png", org

    member = create_user(warden)
    post(browser, warden, relative + "/members", {"csrf": csrf, "member": member.email})
    members = json_of(expect_status(warden.mgmt("GET", f"organizations/{org_id}/members"), 200))
    assert [m["user_id"] for m in members] == [member.user_id], members
    html = page(browser, warden, "admin/" + relative + "?done=member-added").text
    assert member.email in html and "The member was added." in html
    post(browser, warden, relative + "/members/remove", {"csrf": csrf, "user_id": member.user_id})
    assert json_of(expect_status(warden.mgmt("GET", f"organizations/{org_id}/members"), 200)) == []

    connection_id = database_connection(warden)["id"]
    post(browser, warden, relative + "/connections", {"csrf": csrf, "connection_id": connection_id,
                                                     "assign_membership_on_login": "on"})
    enabled = json_of(expect_status(warden.mgmt("GET", f"organizations/{org_id}/enabled_connections"), 200))
    assert [(c["connection_id"], c["assign_membership_on_login"]) for c in enabled] == [(connection_id, True)]

    client = warden.create_client(app_type="spa", token_endpoint_auth_method="none",
                                  callbacks=[warden.url("demo/callback")], initiate_login_uri="https://app.example/in")
    email = f"console-invitee-{uid()}@interop.test"
    shown = post(browser, warden, relative + "/invitations", {"csrf": csrf, "email": email, "inviter": "Ada",
                                                             "client_id": client["client_id"]}, status=200)
    link = re.search(r"Invitation link \(also e-mailed\): <code>([^<]+)</code>", shown.text)
    assert link and unescape(link.group(1)).startswith("https://app.example/in?invitation="), shown.text[:500]
    assert unescape(link.group(1)) in smtp_sink.wait_for_mail(email).text
    (invitation,) = json_of(expect_status(warden.mgmt("GET", f"organizations/{org_id}/invitations"), 200))
    post(browser, warden, relative + "/invitations/remove", {"csrf": csrf, "invitation_id": invitation["id"]})
    assert json_of(expect_status(warden.mgmt("GET", f"organizations/{org_id}/invitations"), 200)) == []

    forged = browser.post(warden.url(f"admin/{relative}/delete"), data={"csrf": "forged"}, allow_redirects=False,
                          timeout=HTTP_TIMEOUT)
    assert forged.status_code == 403, describe(forged)
    post(browser, warden, relative + "/delete", {"csrf": csrf})
    r = warden.mgmt("GET", f"organizations/{org_id}")
    assert r.status_code == 404 and json_of(r)["errorCode"] == "inexistent_organization", describe(r)
