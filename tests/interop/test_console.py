"""SPEC §14: the admin console at {issuer}admin/ — who gets in (the `warden:admin` role, through the hosted login with
PKCE as the first-party client `warden-console`), the overview's charts, and signing out. The browser is a
`requests.Session` (cookies, redirects followed by hand); the pages' look is checked in Chromium elsewhere."""

from __future__ import annotations

import re
import subprocess
from html import unescape
from urllib.parse import parse_qs, quote, urlsplit

import pytest
import requests

from cibalib import ciba_app, poll, start_request
from guardianlib import enrolled_device
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


@pytest.mark.parametrize("path", ["admin", "admin/", "admin/users", "admin/applications", "admin/apis",
                                  "admin/rules", "admin/users/auth0%7Cnobody", "admin/applications/nobody"])
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
    # Paged by page/per_page with Previous/Next links that keep the filter.
    r = page(browser, warden, f"admin/logs?client_id={client['client_id']}&per_page=2")
    assert r.text.count('<td data-label="Date">') == 2 and 'rel="prev"' not in r.text
    nxt = unescape(re.search(r'<a href="([^"]+)" rel="next">Next', r.text).group(1))
    assert f"client_id={client['client_id']}" in nxt and "page=1" in nxt and "per_page=2" in nxt, nxt
    r = page(browser, warden, nxt.lstrip("/"))
    assert r.text.count('<td data-label="Date">') == 1 and 'rel="prev">← Previous' in r.text

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
            "policy": "confidence-score", "uv-webauthn-roaming": "required"}
    r = browser.post(warden.url("admin/mfa"), data=data, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 303 and r.headers["Location"].endswith("/admin/mfa?done=saved"), describe(r)
    factors = {f["name"]: f["enabled"] for f in json_of(expect_status(warden.mgmt("GET", "guardian/factors"), 200))}
    assert factors == {"push-notification": False, "otp": True, "recovery-code": True, "webauthn-roaming": False,
                       "webauthn-platform": False}, factors
    assert json_of(expect_status(warden.mgmt("GET", "guardian/policies"), 200)) == ["confidence-score"]
    settings = json_of(expect_status(warden.mgmt("GET", "guardian/factors/webauthn-roaming/settings"), 200))
    assert settings["userVerification"] == "required", settings
    html = page(browser, warden, "admin/mfa?done=saved").text
    assert 'name="factor-otp" type="checkbox" value="on" checked' in html and "were saved" in html
    assert '<option value="required" selected>' in html, "the security key's user verification is shown"

    r = browser.post(warden.url("admin/mfa"), data={**data, "uv-webauthn-platform": "always"}, allow_redirects=False,
                     timeout=HTTP_TIMEOUT)
    assert r.status_code == 400 and "Settings not saved" in r.text, describe(r)
    expect_status(warden.mgmt("PUT", "guardian/factors/webauthn-roaming/settings", json={}), 200)

    r = browser.post(warden.url("admin/mfa"), data={**data, "policy": "sometimes"}, allow_redirects=False,
                     timeout=HTTP_TIMEOUT)
    assert r.status_code == 400 and "Settings not saved" in r.text, describe(r)
    data = {"csrf": data["csrf"]}  # nothing checked, "Never"
    expect_status(browser.post(warden.url("admin/mfa"), data=data, allow_redirects=False, timeout=HTTP_TIMEOUT), 303)
    assert json_of(expect_status(warden.mgmt("GET", "guardian/policies"), 200)) == []
    factors = json_of(expect_status(warden.mgmt("GET", "guardian/factors"), 200))
    assert not any(f["enabled"] for f in factors), factors


# ------------------------------------------------------------------ users, applications, APIs, rules (SPEC §14)
def csrf_of(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def submit(browser: requests.Session, warden: Warden, path: str, data: dict) -> requests.Response:
    return browser.post(warden.url(path), data=data, allow_redirects=False, timeout=HTTP_TIMEOUT)


def field_error(html: str, field_id: str) -> str:
    """The error shown under the field `field_id` (`f-email`), unescaped; the input points at it."""
    found = re.search(rf'<p id="{field_id}-error" class="field-error">([^<]*)</p>', html)
    assert found, f"no error next to {field_id}"
    assert re.search(rf'id="{field_id}"[^>]*aria-describedby="[^"]*{field_id}-error', html), "error not tied to input"
    return unescape(found.group(1))


def signed_in_admin(warden: Warden) -> tuple[requests.Session, User, str]:
    admin = create_user(warden)
    make_admin(warden, admin)
    browser, _ = sign_in(warden, admin)
    return browser, admin, csrf_of(page(browser, warden).text)


def console_changes(warden: Warden, admin: User, count: int) -> list[tuple[str, str]]:
    def found() -> list[tuple[str, str]] | None:
        events = json_of(expect_status(warden.mgmt("GET", "logs", params={
            "q": f'user_id:"{admin.user_id}" AND client_id:"warden-console"', "per_page": 100}), 200))
        changes = sorted((e["type"], e["description"]) for e in events if e["type"] in ("sapi", "fapi"))
        return changes if len(changes) >= count else None
    return wait_until(found, timeout=5, what=f"{count} console events")


@pytest.mark.parametrize("path", ["admin/users", "admin/applications", "admin/apis", "admin/rules"])
def test_a_new_page_refuses_a_form_without_the_sessions_csrf_token(warden: Warden, path: str):
    browser, _, _ = signed_in_admin(warden)
    name = f"forged-{uid()}"
    data = {"email": f"{name}@interop.test", "password": "Forged-Passw0rd!", "name": name, "identifier":
            f"https://{name}.test/", "condition": "true", "deny_reason": "no", "action": "deny"}
    for forged in ({}, {"csrf": "forged"}):
        r = submit(browser, warden, path, {**data, **forged})
        assert r.status_code == 403 and "Form expired" in r.text, describe(r)
    assert name not in page(browser, warden, path).text, "a forged form changed something"


def test_the_users_page_searches_pages_creates_blocks_assigns_roles_and_resets_mfa(warden: Warden):
    browser, admin, csrf = signed_in_admin(warden)
    tag = uid()
    people = [create_user(warden, name=f"pager{tag} {i}") for i in range(3)]
    html = page(browser, warden, f'admin/users?q=name:pager{tag}*&per_page=2').text
    assert html.count('<td data-label="E-mail">') == 2 and "3 found" in html, html[-2000:]
    nxt = unescape(re.search(r'<a href="([^"]+)" rel="next">Next', html).group(1))
    html = page(browser, warden, nxt.lstrip("/")).text
    assert html.count('<td data-label="E-mail">') == 1 and 'rel="prev">← Previous' in html and 'rel="next"' not in html
    html = page(browser, warden, f'admin/users?q=email:"{people[1].email}"').text
    assert people[1].email in html and people[0].email not in html and "1 found" in html
    # A query the v3 parser refuses: its message next to the box, the text kept.
    html = page(browser, warden, 'admin/users?q=email:"open').text
    assert "position" in field_error(html, "q") and 'value="email:&quot;open"' in html, html[-2000:]

    email = f"made-{tag}@interop.test"
    r = submit(browser, warden, "admin/users", {"csrf": csrf, "email": "not-an-address", "password": "short",
                                                 "name": "Typed Name", "connection": "Username-Password-Authentication"})
    assert r.status_code == 400 and field_error(r.text, "f-email") == "Not an e-mail address", describe(r)
    assert 'value="not-an-address"' in r.text and 'value="Typed Name"' in r.text and 'value="short"' not in r.text
    r = submit(browser, warden, "admin/users", {"csrf": csrf, "email": email, "password": "short",
                                                 "connection": "Username-Password-Authentication"})
    assert r.status_code == 400 and field_error(r.text, "f-password") == "PasswordStrengthError: Password is too weak", describe(r)
    r = submit(browser, warden, "admin/users", {"csrf": csrf, "email": email, "password": "Made-Passw0rd!",
                                                 "connection": "another-db"})
    assert r.status_code == 400 and "Username-Password-Authentication" in field_error(r.text, "f-connection")
    r = submit(browser, warden, "admin/users", {"csrf": csrf, "email": email, "password": "Made-Passw0rd!",
                                                 "connection": "Username-Password-Authentication"})
    assert r.status_code == 303 and "/admin/users/auth0%7C" in r.headers["Location"], describe(r)
    (made,) = json_of(expect_status(warden.mgmt("GET", "users-by-email", params={"email": email}), 200))
    r = submit(browser, warden, "admin/users", {"csrf": csrf, "email": email, "password": "Made-Passw0rd!",
                                                 "connection": "Username-Password-Authentication"})
    assert r.status_code == 409 and "already exists" in r.text, describe(r)

    user_path = "admin/users/" + made["user_id"].replace("|", "%7C")
    html = page(browser, warden, user_path).text
    assert email in html and "No enrolment." in html and ">Block</button>" in html
    expect_status(submit(browser, warden, f"{user_path}/blocked", {"csrf": csrf, "blocked": "true"}), 303)
    assert json_of(warden.mgmt("GET", f"users/{made['user_id']}"))["blocked"] is True
    assert ">Unblock</button>" in page(browser, warden, user_path).text
    expect_status(submit(browser, warden, f"{user_path}/blocked", {"csrf": csrf, "blocked": "false"}), 303)
    assert json_of(warden.mgmt("GET", f"users/{made['user_id']}"))["blocked"] is False

    role = json_of(expect_status(warden.mgmt("POST", "roles", json={"name": f"console-{tag}"}), 200, 201))
    expect_status(submit(browser, warden, f"{user_path}/roles", {"csrf": csrf, "role": role["id"]}), 303)
    held = json_of(warden.mgmt("GET", f"users/{made['user_id']}/roles"))
    assert [r["id"] for r in held] == [role["id"]], held
    r = submit(browser, warden, f"{user_path}/roles", {"csrf": csrf, "role": "rol_nothing"})
    assert r.status_code == 400, describe(r)
    expect_status(submit(browser, warden, f"{user_path}/roles/{role['id']}/remove", {"csrf": csrf}), 303)
    assert json_of(warden.mgmt("GET", f"users/{made['user_id']}/roles")) == []

    # Enrolments: the page lists what GET /users/{id}/enrollments answers; "Reset MFA" deletes them as
    # DELETE /users/{id}/authenticators does.
    enrolled_device(warden, made["user_id"], push_token="", name="Console phone")
    listed = json_of(expect_status(warden.mgmt("GET", f"users/{made['user_id']}/enrollments"), 200))
    html = page(browser, warden, user_path).text
    shown = re.findall(r'<td data-label="Id"><code>([^<]+)</code>', html)
    assert shown == [e["id"] for e in listed] and len(shown) == 1 and "Console phone" in html, (shown, listed)
    r = submit(browser, warden, f"{user_path}/reset-mfa", {"csrf": csrf})
    assert r.status_code == 303 and r.headers["Location"].endswith("?done=reset"), describe(r)
    html = page(browser, warden, user_path + "?done=reset").text
    assert "Every authenticator and the recovery code" in html and "No enrolment." in html
    assert json_of(warden.mgmt("GET", f"users/{made['user_id']}/enrollments")) == []
    unenrolled = wait_until(lambda: json_of(warden.mgmt("GET", "logs", params={
        "q": f'type:gd_unenroll AND user_id:"{made["user_id"]}"'})), timeout=5, what="the gd_unenroll event")
    assert unenrolled[0]["client_id"] == "warden-console" and "admin console" in unenrolled[0]["description"]
    assert ("sapi", "Delete a user's authenticators") in console_changes(warden, admin, 11)
    changes = console_changes(warden, admin, 11)
    assert ("fapi", "Create a User") in changes and ("sapi", "Create a User") in changes, changes
    assert ("fapi", "Assign roles to a user") in changes and ("sapi", "Remove roles from a user") in changes


def test_the_applications_page_creates_edits_grants_and_shows_a_rotated_secret_once(warden: Warden):
    browser, admin, csrf = signed_in_admin(warden)
    tag = uid()
    api = warden.create_api(identifier=f"https://console-{tag}.test/", name=f"API {tag}",
                            scopes=[{"value": "read:things"}, {"value": "write:things"}])
    r = submit(browser, warden, "admin/applications", {"csrf": csrf, "name": "  ", "app_type": "regular_web"})
    assert r.status_code == 400 and "Missing required property" in field_error(r.text, "f-name"), describe(r)
    assert '<option value="regular_web" selected>' in r.text
    r = submit(browser, warden, "admin/applications", {"csrf": csrf, "name": f"App {tag}",
                                                        "app_type": "non_interactive"})
    assert r.status_code == 200, describe(r)
    secret = unescape(re.search(r'<code id="client-secret">([^<]+)</code>', r.text).group(1))
    client_id = re.search(r'<code id="client-id">([^<]+)</code>', r.text).group(1)
    client = json_of(expect_status(warden.mgmt("GET", f"clients/{client_id}"), 200))
    assert client["name"] == f"App {tag}" and client["app_type"] == "non_interactive", client
    app_path = f"admin/applications/{client_id}"
    assert secret not in page(browser, warden, app_path).text, "the secret is shown again"

    form = {"csrf": csrf, "name": f"App {tag}", "app_type": "regular_web", "is_first_party": "on",
            "grant_types:client_credentials": "on", "grant_types:authorization_code": "on",
            "token_endpoint_auth_method": "client_secret_post",
            "callbacks": "https://app.test/cb\nhttps://app.test/other", "allowed_logout_urls": "https://app.test/",
            "jwt_configuration.alg": "RS256", "jwt_configuration.lifetime_in_seconds": "600",
            "refresh_token.rotation_type": "rotating", "backchannel_token_delivery_mode": "ping",
            "backchannel_client_notification_endpoint": "", "session_transfer.can_create_session_transfer_token": "on",
            "session_transfer.enforce_device_binding": "asn"}
    r = submit(browser, warden, app_path, form)
    assert r.status_code == 400, describe(r)
    assert "ping" in field_error(r.text, "f-backchannel_client_notification_endpoint"), r.text[-3000:]
    assert "https://app.test/cb\nhttps://app.test/other</textarea>" in r.text, "the typed callbacks are lost"
    r = submit(browser, warden, app_path, {**form, "callbacks": "not a url"})
    assert r.status_code == 400 and "absolute URL" in field_error(r.text, "f-callbacks"), describe(r)
    form["backchannel_client_notification_endpoint"] = "https://app.test/ciba"
    r = submit(browser, warden, app_path, form)
    assert r.status_code == 303 and r.headers["Location"].endswith("?done=saved"), describe(r)
    client = json_of(expect_status(warden.mgmt("GET", f"clients/{client_id}"), 200))
    assert client["callbacks"] == ["https://app.test/cb", "https://app.test/other"], client
    assert client["grant_types"] == ["client_credentials", "authorization_code"], client
    assert client["backchannel_token_delivery_mode"] == "ping", client
    assert client["jwt_configuration"]["lifetime_in_seconds"] == 600, client
    assert client["session_transfer"]["can_create_session_transfer_token"] is True, client
    assert client["session_transfer"]["enforce_device_binding"] == "asn", client
    html = page(browser, warden, app_path).text
    assert '<option value="ping" selected>' in html and 'value="https://app.test/ciba"' in html

    r = submit(browser, warden, f"{app_path}/grants", {"csrf": csrf, "audience": api["identifier"],
                                                        "scope": "read:things delete:things"})
    assert r.status_code == 400 and "delete:things" in field_error(r.text, "f-scope"), describe(r)
    r = submit(browser, warden, f"{app_path}/grants", {"csrf": csrf, "audience": api["identifier"],
                                                        "scope": "read:things"})
    assert r.status_code == 303, describe(r)
    grants = json_of(warden.mgmt("GET", "client-grants", params={"client_id": client_id}))
    assert [(g["audience"], g["scope"]) for g in grants] == [(api["identifier"], ["read:things"])], grants
    expect_status(warden.client_credentials(client_id, secret, api["identifier"]), 200)

    r = submit(browser, warden, f"{app_path}/rotate-secret", {"csrf": csrf})
    assert r.status_code == 200 and "shown this once" in r.text, describe(r)
    rotated = unescape(re.search(r'<code id="client-secret">([^<]+)</code>', r.text).group(1))
    assert rotated != secret
    expect_status(warden.client_credentials(client_id, secret, api["identifier"]), 401)
    expect_status(warden.client_credentials(client_id, rotated, api["identifier"]), 200)

    (grant,) = grants
    expect_status(submit(browser, warden, f"{app_path}/grants/{grant['id']}/delete", {"csrf": csrf}), 303)
    assert json_of(warden.mgmt("GET", "client-grants", params={"client_id": client_id})) == []
    html = page(browser, warden, "admin/applications?per_page=1&page=0").text
    assert html.count('<td data-label="Name">') == 1 and 'rel="next">Next' in html
    changes = console_changes(warden, admin, 9)
    assert ("sapi", "Rotate a client secret") in changes and ("fapi", "Update a client") in changes, changes


def test_the_apis_page_creates_and_edits_scopes_rar_types_signing_and_rbac(warden: Warden):
    browser, _, csrf = signed_in_admin(warden)
    identifier = f"https://console-api-{uid()}.test/"
    r = submit(browser, warden, "admin/apis", {"csrf": csrf, "identifier": identifier, "name": "Console API"})
    assert r.status_code == 303 and "/admin/apis/" in r.headers["Location"], describe(r)
    api_path = urlsplit(r.headers["Location"]).path.lstrip("/")
    r = submit(browser, warden, "admin/apis", {"csrf": csrf, "identifier": identifier, "name": "Again"})
    assert r.status_code == 409 and "already exists" in r.text and f'value="{identifier}"' in r.text, describe(r)

    form = {"csrf": csrf, "name": "Console API", "scopes": "read:items Read the items\nwrite:items",
            "authorization_details": "payment_initiation\naccount_information", "signing_alg": "PS256",
            "token_lifetime": "0", "enforce_policies": "on", "allow_offline_access": "on"}
    r = submit(browser, warden, api_path, form)
    assert r.status_code == 400 and "between 1 and" in field_error(r.text, "f-token_lifetime"), describe(r)
    assert 'value="0"' in r.text and "read:items Read the items" in r.text
    r = submit(browser, warden, api_path, {**form, "token_lifetime": "600"})
    assert r.status_code == 303, describe(r)
    api = json_of(expect_status(warden.mgmt("GET", "resource-servers/" + quote(identifier, safe="")), 200))
    assert api["scopes"] == [{"value": "read:items", "description": "Read the items"}, {"value": "write:items"}], api
    assert [d["type"] for d in api["authorization_details"]] == ["payment_initiation", "account_information"], api
    assert api["signing_alg"] == "PS256" and api["token_lifetime"] == 600, api
    assert api["enforce_policies"] is True and api["allow_offline_access"] is True, api
    html = page(browser, warden, api_path).text
    assert '<option value="PS256" selected>' in html and 'name="enforce_policies" type="checkbox" value="on" checked' in html
    system = warden.system_api()
    assert system["identifier"] in page(browser, warden, "admin/apis").text
    r = page(browser, warden, "admin/apis/" + system["id"], status=403)
    assert "cannot be changed" in r.text


def test_the_rules_page_shows_a_syntax_error_at_its_position_and_keeps_the_text(warden: Warden):
    browser, admin, csrf = signed_in_admin(warden)
    name = f"console-rule-{uid()}"
    broken = 'event.user.email = "x@interop.test"'
    api = warden.mgmt("POST", "post-login-rules", json={"name": name, "condition": broken, "deny_reason": "no"})
    api_message = json_of(expect_status(api, 400))["message"]
    rule = {"csrf": csrf, "name": name, "condition": broken, "action": "deny", "deny_reason": "Not today",
            "enabled": "on"}
    r = submit(browser, warden, "admin/rules", rule)
    assert r.status_code == 400, describe(r)
    error = field_error(r.text, "f-condition")
    assert error == "expected '==' at position 18" and error in api_message, (error, api_message)
    typed = re.search(r'<textarea id="f-condition"[^>]*>\n(.*?)</textarea>', r.text, re.S)
    assert typed and unescape(typed.group(1)) == broken, "the typed condition is lost"
    assert 'value="Not today"' in r.text
    r = submit(browser, warden, "admin/rules", {**rule, "condition": broken.replace(" = ", " == ")})
    assert r.status_code == 303, describe(r)
    (made,) = [x for x in json_of(warden.mgmt("GET", "post-login-rules")) if x["name"] == name]
    assert made["enabled"] is True and made["deny_reason"] == "Not today", made
    r = submit(browser, warden, "admin/rules", {**rule, "name": name + "-mfa", "action": "require_mfa",
                                                 "deny_reason": "", "condition": "true", "enabled": ""})
    assert r.status_code == 303, describe(r)

    rule_path = f"admin/rules/{made['id']}"
    expect_status(submit(browser, warden, f"{rule_path}/enabled", {"csrf": csrf, "enabled": "false"}), 303)
    assert json_of(warden.mgmt("GET", f"post-login-rules/{made['id']}"))["enabled"] is False
    assert 'aria-label="Enable ' + name + '"' in page(browser, warden, "admin/rules").text
    r = submit(browser, warden, rule_path, {**rule, "condition": "(true", "order": "5"})
    assert r.status_code == 400 and "position 6" in field_error(r.text, "f-condition"), describe(r)
    r = submit(browser, warden, rule_path, {**rule, "condition": "false", "order": "5"})
    assert r.status_code == 303, describe(r)
    saved = json_of(warden.mgmt("GET", f"post-login-rules/{made['id']}"))
    assert saved["condition"] == "false" and saved["order"] == 5 and saved["enabled"] is True, saved
    expect_status(submit(browser, warden, f"{rule_path}/delete", {"csrf": csrf}), 303)
    expect_status(warden.mgmt("GET", f"post-login-rules/{made['id']}"), 404)
    changes = console_changes(warden, admin, 7)
    assert ("fapi", "Create a post-login rule") in changes and ("sapi", "Delete a post-login rule") in changes
