"""SPEC §14: the admin console at {issuer}admin/ — who gets in (the `warden:admin` role, through the hosted login with
PKCE as the first-party client `warden-console`), the overview's charts, and signing out. The browser is a
`requests.Session` (cookies, redirects followed by hand); the pages' look is checked in Chromium elsewhere."""

from __future__ import annotations

import re
import subprocess
from html import unescape
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from cibalib import ciba_app, poll, start_request
from pkcelib import User, create_user, hosted_login, parse_page
from wardenlib import HTTP_TIMEOUT, Warden, describe, expect_status, json_of, uid, wait_until

ADMIN_ROLE = "warden:admin"


def admin_role(warden: Warden) -> dict:
    roles = json_of(expect_status(warden.mgmt("GET", "roles", params={"per_page": 100}), 200))
    (role,) = [r for r in roles if r["name"] == ADMIN_ROLE]
    return role


def make_admin(warden: Warden, user: User) -> None:
    expect_status(warden.mgmt("POST", f"users/{user.user_id}/roles", json={"roles": [admin_role(warden)["id"]]}), 201)


def start(warden: Warden, browser: requests.Session) -> str:
    """GET /admin/ without a session: to /admin/login, which answers with the /authorize redirect."""
    r = browser.get(warden.url("admin/"), allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 302 and r.headers["Location"].endswith("/admin/login"), describe(r)
    r = browser.get(warden.url("admin/login"), allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 302, describe(r)
    return r.headers["Location"]


def sign_in(warden: Warden, user: User, browser: requests.Session | None = None) -> tuple[requests.Session, str]:
    """The whole sign-in; returns the browser and the callback URL it was sent to (already used)."""
    browser = browser or requests.Session()
    callback = hosted_login(warden, start(warden, browser), redirect_uri=warden.url("admin/callback"),
                            email=user.email, password=user.password, session=browser)
    r = browser.get(callback.url, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 302 and r.headers["Location"].endswith("/admin/"), describe(r)
    return browser, callback.url


def page(browser: requests.Session, warden: Warden, path: str = "admin/", status: int = 200) -> requests.Response:
    r = browser.get(warden.url(path), allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == status, describe(r)
    return r


def test_bootstrap_makes_the_console_client_and_the_admin_role(warden: Warden):
    client = json_of(expect_status(warden.mgmt("GET", "clients/warden-console"), 200))
    # Nodes sharing a PostgreSQL database (the suite's other Wardens) add their own issuers' callbacks.
    assert warden.url("admin/callback") in client["callbacks"], client
    assert warden.url("admin/") in client["allowed_logout_urls"], client
    assert client["is_first_party"] is True and client["token_endpoint_auth_method"] == "none", client
    assert client["grant_types"] == ["authorization_code"], client
    assert admin_role(warden)["name"] == ADMIN_ROLE


def test_an_admin_signs_in_through_the_hosted_login_and_sees_the_overview(warden: Warden):
    admin = create_user(warden)
    make_admin(warden, admin)
    browser = requests.Session()
    authorize = start(warden, browser)
    query = {k: v[0] for k, v in parse_qs(urlsplit(authorize).query).items()}
    assert authorize.startswith(warden.url("authorize")), authorize
    assert query["client_id"] == "warden-console" and query["code_challenge_method"] == "S256", query
    assert query["redirect_uri"] == warden.url("admin/callback") and query["state"], query
    sign_in(warden, admin, browser)

    def overview_counts() -> dict | None:
        html = page(browser, warden).text
        titles = [unescape(t) for t in re.findall(r"<title id=\"chart-[a-z]+\">([^<]*)</title>", html)]
        return {t.split(",")[0]: t for t in titles} if len(titles) == 3 else None

    r = page(browser, warden)
    assert "<h1>Overview</h1>" in r.text and admin.email in r.text, r.text[:500]
    assert "default-src 'none'" in r.headers["Content-Security-Policy"], r.headers
    assert r.headers["Cache-Control"] == "no-store" and r.headers["X-Frame-Options"] == "DENY"
    # The sign-in chart counts what the event log holds: the `s` events of the last 24 hours (this sign-in's
    # included once it is written: the log is written off the request path, SPEC §10).
    wait_until(lambda: json_of(expect_status(warden.mgmt("GET", "logs", params={
        "q": f'type:s AND user_id:"{admin.user_id}"'}), 200)), timeout=5, what="the admin's sign-in event")
    succeeded = json_of(expect_status(warden.mgmt("GET", "logs", params={"q": "type:s", "include_totals": "true",
                                                                        "per_page": 1}), 200))["total"]
    counts = wait_until(overview_counts, timeout=5, what="three charts")
    assert counts.keys() == {"Sign-ins", "Tokens issued by grant", "CIBA requests"}, counts
    assert f"{succeeded} succeeded" in counts["Sign-ins"], (succeeded, counts)


def test_a_user_without_the_role_gets_the_403_page(warden: Warden):
    user = create_user(warden)
    browser = requests.Session()
    callback = hosted_login(warden, start(warden, browser), redirect_uri=warden.url("admin/callback"),
                            email=user.email, password=user.password, session=browser)
    r = browser.get(callback.url, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 403 and "Not an administrator" in r.text and "warden:admin" in r.text, describe(r)
    assert "warden_console=" not in r.headers.get("Set-Cookie", ""), r.headers
    page(browser, warden, status=302)  # still no console session: sent to sign in


def test_a_used_or_foreign_callback_is_refused(warden: Warden):
    admin = create_user(warden)
    make_admin(warden, admin)
    browser, used = sign_in(warden, admin)
    r = browser.get(used, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 400 and "Sign-in expired" in r.text, describe(r)
    # Another browser (no state cookie) cannot finish a sign-in started here: login CSRF.
    other = requests.Session()
    started = requests.Session()
    callback = hosted_login(warden, start(warden, started), redirect_uri=warden.url("admin/callback"),
                            email=admin.email, password=admin.password, session=started)
    r = other.get(callback.url, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 400 and "Sign-in expired" in r.text, describe(r)


def test_taking_the_role_away_or_blocking_the_user_ends_access_at_once(warden: Warden):
    admin = create_user(warden)
    make_admin(warden, admin)
    browser, _ = sign_in(warden, admin)
    page(browser, warden)
    role = admin_role(warden)
    expect_status(warden.mgmt("DELETE", f"users/{admin.user_id}/roles", json={"roles": [role["id"]]}), 204)
    assert "Not an administrator" in page(browser, warden, status=403).text
    make_admin(warden, admin)
    page(browser, warden)
    expect_status(warden.mgmt("PATCH", f"users/{admin.user_id}", json={"blocked": True}), 200)
    page(browser, warden, status=403)


def test_sign_out_needs_the_csrf_token_and_ends_the_sso_session_too(warden: Warden):
    admin = create_user(warden)
    make_admin(warden, admin)
    browser, _ = sign_in(warden, admin)
    form = parse_page(page(browser, warden).text).forms
    (signout,) = [f for f in form if (f.action or "").endswith("/admin/logout")]
    r = browser.post(warden.url("admin/logout"), data={"csrf": "forged"}, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 403 and "Form expired" in r.text, describe(r)
    page(browser, warden)  # a forged sign-out changed nothing

    r = browser.post(warden.url("admin/logout"), data=signout.hidden(), allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 303 and "/oidc/logout?" in r.headers["Location"], describe(r)
    assert "id_token_hint=" in r.headers["Location"], r.headers["Location"]
    r = browser.get(r.headers["Location"], allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code in (302, 303) and r.headers["Location"] == warden.url("admin/"), describe(r)
    # No console session and no SSO session: the sign-in asks for the password again.
    authorize = start(warden, browser)
    r = browser.get(authorize, allow_redirects=True, timeout=HTTP_TIMEOUT)
    assert 'name="password"' in r.text, describe(r)


@pytest.mark.parametrize("path", ["admin", "admin/"])
def test_the_console_address_without_a_session_leads_to_sign_in(warden: Warden, path: str):
    r = requests.get(warden.url(path), allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 302, describe(r)
    assert r.headers["Location"].endswith("/admin/") or r.headers["Location"].endswith("/admin/login"), r.headers


def test_the_logs_page_filters_newest_first_follows_and_escapes(warden: Warden):
    admin = create_user(warden)
    make_admin(warden, admin)
    target = create_user(warden)
    client = warden.create_client(name='<img src=x onerror=alert(1)> "app"', app_type="non_interactive",
                                  grant_types=["client_credentials"])
    api = warden.create_api(identifier=f"https://console-logs-{client['client_id'][:8]}.test/", name="console logs",
                            scopes=[{"value": "read"}])
    warden.create_client_grant(client["client_id"], api["identifier"], ["read"])
    for _ in range(2):
        expect_status(warden.client_credentials(client["client_id"], "wrong-secret", api["identifier"]), 401)
    expect_status(warden.client_credentials(client["client_id"], client["client_secret"], api["identifier"]), 200)
    browser, _ = sign_in(warden, admin)
    wait_until(lambda: len(json_of(expect_status(warden.mgmt("GET", "logs", params={
        "q": f'client_id:"{client["client_id"]}"'}), 200))) == 3, what="the client's three events")

    r = page(browser, warden, f"admin/logs?client_id={client['client_id']}")
    rows = re.findall(r'<tr><td data-label="Date">([^<]+)</td><td data-label="Type"><code>([^<]+)</code></td>', r.text)
    assert [t for _, t in rows] == ["seccft", "feccft", "feccft"], rows  # newest first
    assert rows[0][0] >= rows[1][0] >= rows[2][0], rows
    assert "<img src=x" not in r.text and "&lt;img src=x" in r.text, "client name not escaped"
    assert 'http-equiv="refresh"' not in r.text

    r = page(browser, warden, f"admin/logs?type=fp&user_id={target.user_id}&follow=1")
    assert "No events match." in r.text and 'http-equiv="refresh" content="5"' in r.text, r.text[-800:]
    assert f'value="{target.user_id}"' in r.text and 'name="follow" type="checkbox" value="1" checked' in r.text


def test_the_keys_page_rotates_and_revokes_with_csrf_and_logs_the_admin(warden: Warden):
    admin = create_user(warden)
    make_admin(warden, admin)
    browser, _ = sign_in(warden, admin)
    before = warden.jwks_kids()
    forms = parse_page(page(browser, warden, "admin/keys").text).forms
    (rotate,) = [f for f in forms if (f.action or "").endswith("/admin/keys/rotate")]
    r = browser.post(warden.url("admin/keys/rotate"), data={"csrf": "forged"}, allow_redirects=False,
                     timeout=HTTP_TIMEOUT)
    assert r.status_code == 403 and "Form expired" in r.text, describe(r)
    assert warden.jwks_kids() == before, "a forged form rotated the keys"

    r = browser.post(warden.url("admin/keys/rotate"), data=rotate.hidden(), allow_redirects=False,
                     timeout=HTTP_TIMEOUT)
    assert r.status_code == 303 and r.headers["Location"].endswith("/admin/keys?done=rotated"), describe(r)
    after = warden.jwks_kids()
    assert before < after, (before, after)  # new current keys; the previous ones still published
    listing = page(browser, warden, "admin/keys?done=rotated").text
    assert "New current keys were made" in listing
    revocable = [f for f in parse_page(listing).forms if (f.action or "").endswith("/revoke")]
    previous = {f.action.rsplit("/", 2)[1] for f in revocable}
    assert previous and previous <= before, (previous, before)

    kid = sorted(previous)[0]
    form = next(f for f in revocable if f.action.endswith(f"/{kid}/revoke"))
    r = browser.post(warden.url(f"admin/keys/{kid}/revoke"), data=form.hidden(), allow_redirects=False,
                     timeout=HTTP_TIMEOUT)
    assert r.status_code == 303, describe(r)
    warden.forget_tokens()  # the cached Management token may have been signed with the revoked key
    assert kid not in warden.jwks_kids()
    current = next(iter(after - before))
    r = browser.post(warden.url(f"admin/keys/{current}/revoke"), data=form.hidden(), allow_redirects=False,
                     timeout=HTTP_TIMEOUT)
    assert r.status_code == 409 and "Rotate the keys first" in r.text, describe(r)

    def admin_events() -> list[dict] | None:
        events = json_of(expect_status(warden.mgmt("GET", "logs", params={
            "q": f'user_id:"{admin.user_id}" AND client_id:"warden-console"'}), 200))
        changes = [e for e in events if e["type"] in ("sapi", "fapi")]
        return changes if len(changes) == 3 else None
    events = wait_until(admin_events, timeout=5, what="three console events")
    assert sorted((e["type"], e["description"]) for e in events) == [
        ("fapi", "Revoke an Application Signing Key"), ("sapi", "Revoke an Application Signing Key"),
        ("sapi", "Rotate the Application Signing Key")], events


def test_cancelling_a_pending_ciba_request_makes_its_poll_access_denied(warden: Warden):
    admin = create_user(warden)
    make_admin(warden, admin)
    app = ciba_app(warden)
    auth_req_id, form = start_request(warden, app)
    browser, _ = sign_in(warden, admin)
    listing = page(browser, warden, "admin/ciba").text
    assert 'http-equiv="refresh" content="10"' in listing
    assert form["binding_message"] in listing and app.user.email in listing, listing[-1500:]
    assert auth_req_id not in listing, "the page shows the auth_req_id"
    forms = [f for f in parse_page(listing).forms if (f.action or "").endswith("/cancel")]
    row = re.search(r'<td data-label="Binding message">' + re.escape(form["binding_message"])
                    + r'</td>.*?action="([^"]+/cancel)"', listing, re.S)
    assert row, "no row for the request"
    (cancel,) = [f for f in forms if f.action == row.group(1)]

    r = browser.post(warden.url(cancel.action), data=cancel.hidden(), allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 303 and r.headers["Location"].endswith("/admin/ciba?done=cancelled"), describe(r)
    polled = poll(warden, app, auth_req_id)
    assert polled.status_code == 400 and json_of(polled)["error"] == "access_denied", describe(polled)
    assert form["binding_message"] not in page(browser, warden, "admin/ciba").text
    r = browser.post(warden.url(cancel.action), data=cancel.hidden(), allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 409 and "Already answered" in r.text, describe(r)


def users_create(warden: Warden, *args: str, password: str) -> subprocess.CompletedProcess:
    argv = [warden.binary, "users", "create", *args, "--database", warden.database_url]
    return subprocess.run(argv, cwd=warden.workdir, env=warden.env, input=password + "\n", capture_output=True,
                          text=True, timeout=120)


def test_warden_users_create_admin_makes_a_console_admin(warden: Warden):
    email = f"ops-{uid()}@interop.test"
    password = "Ops-" + uid() + "-Passw0rd!"
    callbacks = json_of(expect_status(warden.mgmt("GET", "clients/warden-console"), 200))["callbacks"]
    made = users_create(warden, "--email", email.upper(), "--password-stdin", "--admin", password=password)
    assert made.returncode == 0, made.stderr
    assert f"User {email} created" in made.stderr and "sign in to the admin console" in made.stderr, made.stderr
    user_id = re.search(r"user_id (\S+)\)", made.stderr).group(1)
    # The command line does not know the server's issuer: it leaves the console client's callbacks alone.
    client = json_of(expect_status(warden.mgmt("GET", "clients/warden-console"), 200))
    assert client["callbacks"] == callbacks, client
    roles = json_of(expect_status(warden.mgmt("GET", f"users/{user_id}/roles"), 200))
    assert [r["name"] for r in roles] == [ADMIN_ROLE], roles
    browser, _ = sign_in(warden, User(user_id=user_id, email=email, password=password, body={}))
    assert "<h1>Overview</h1>" in page(browser, warden).text

    for args, password, message in [
        (("--email", email, "--password-stdin"), password, "exists already"),
        (("--email", "not-an-address", "--password-stdin"), password, "is not an e-mail address"),
        (("--email", f"short-{uid()}@interop.test", "--password-stdin"), "short", "8 to 72 bytes"),
        (("--email", f"x-{uid()}@interop.test"), password, "--password-stdin is required"),
    ]:
        refused = users_create(warden, *args, password=password)
        assert refused.returncode != 0 and message in refused.stderr, (args, refused.stderr)


def test_the_mfa_page_saves_factors_and_policy_as_the_management_api_reads_them(warden: Warden):
    admin = create_user(warden)
    make_admin(warden, admin)
    browser, _ = sign_in(warden, admin)
    (form,) = [f for f in parse_page(page(browser, warden, "admin/mfa").text).forms
               if (f.action or "").endswith("/admin/mfa")]
    data = {"csrf": form.hidden()["csrf"], "factor-otp": "on", "factor-recovery-code": "on",
            "policy": "confidence-score"}
    r = browser.post(warden.url("admin/mfa"), data=data, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 303 and r.headers["Location"].endswith("/admin/mfa?done=saved"), describe(r)
    factors = {f["name"]: f["enabled"] for f in json_of(expect_status(warden.mgmt("GET", "guardian/factors"), 200))}
    assert factors == {"push-notification": False, "otp": True, "recovery-code": True}, factors
    assert json_of(expect_status(warden.mgmt("GET", "guardian/policies"), 200)) == ["confidence-score"]
    html = page(browser, warden, "admin/mfa?done=saved").text
    assert 'name="factor-otp" type="checkbox" value="on" checked' in html and "were saved" in html

    r = browser.post(warden.url("admin/mfa"), data={**data, "policy": "sometimes"}, allow_redirects=False,
                     timeout=HTTP_TIMEOUT)
    assert r.status_code == 400 and "Settings not saved" in r.text, describe(r)
    data = {"csrf": data["csrf"]}  # nothing checked, "Never"
    expect_status(browser.post(warden.url("admin/mfa"), data=data, allow_redirects=False, timeout=HTTP_TIMEOUT), 303)
    assert json_of(expect_status(warden.mgmt("GET", "guardian/policies"), 200)) == []
    factors = json_of(expect_status(warden.mgmt("GET", "guardian/factors"), 200))
    assert not any(f["enabled"] for f in factors), factors
