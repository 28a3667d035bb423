"""SPEC §19's prompts of a `require` client without `organization`: `pre_login_prompt` asks the organization's name
before the login (an unknown name: the form says so), `post_login_prompt` lets the user pick one of theirs after it
(one: used; none: `access_denied`), `no_prompt` is `invalid_request`; and the organization's branding on its login
page, allowed by that page's Content-Security-Policy only."""

from __future__ import annotations

from urllib.parse import urljoin

from mfalib import Browser
from pkcelib import create_user
from test_mfa import claims_of
from test_organizations_login import app, make_org
from wardenlib import HTTP_TIMEOUT, expect_status, json_of


def requiring(warden, behavior: str) -> dict:
    client = app(warden, "require")
    expect_status(warden.mgmt("PATCH", f"clients/{client['client_id']}",
                              json={"organization_require_behavior": behavior}), 200)
    return client


def post(browser: Browser, step, form, **fields):
    data = {**form.hidden(), **fields}
    return browser.follow(browser.http.post(urljoin(step.response.url, form.action), data=data,
                                            allow_redirects=False, timeout=HTTP_TIMEOUT))


def test_pre_login_prompt_asks_the_organization_name_first(warden):
    client, org, user = requiring(warden, "pre_login_prompt"), make_org(warden), create_user(warden)
    expect_status(warden.mgmt("POST", f"organizations/{org['id']}/members", json={"members": [user.user_id]}), 204)
    browser = Browser(warden)
    step = browser.authorize(client["client_id"], client["redirect_uri"])
    assert step.path == "/u/organization", step.response.url
    form, = step.page.forms
    unknown = post(browser, step, form, organization="no-such-org")
    assert unknown.response.status_code == 400 and "There is no organization named" in unknown.page.text
    login = post(browser, unknown, unknown.page.forms[0], organization="  " + org["name"].upper() + " ")
    assert login.path == "/u/login" and org["name"] in login.page.text, login.page.text
    password, = [f for f in login.page.forms if f.has_password()]
    done = post(browser, login, password, username=user.email, password=user.password)
    assert done.callback and "code" in done.callback, done.callback
    claims = claims_of(warden, browser.exchange(client["client_id"], done.callback["code"])["id_token"])
    assert claims["org_id"] == org["id"], claims
    # prompt=none cannot show the form.
    silent = Browser(warden).authorize(client["client_id"], client["redirect_uri"], prompt="none")
    assert silent.callback["error"] == "interaction_required", silent.callback
    expect_status(warden.mgmt("DELETE", f"organizations/{org['id']}"), 204)


def test_post_login_prompt_uses_the_only_organization_and_refuses_without_one(warden):
    client, org = requiring(warden, "post_login_prompt"), make_org(warden)
    lonely, one = create_user(warden), create_user(warden)
    expect_status(warden.mgmt("POST", f"organizations/{org['id']}/members", json={"members": [one.user_id]}), 204)
    browser = Browser(warden)
    step = browser.sign_in(client["client_id"], client["redirect_uri"], lonely.email, lonely.password)
    assert step.callback["error"] == "access_denied", step.callback
    browser = Browser(warden)
    step = browser.sign_in(client["client_id"], client["redirect_uri"], one.email, one.password)
    assert step.callback and "code" in step.callback, step.callback
    claims = claims_of(warden, browser.exchange(client["client_id"], step.callback["code"])["id_token"])
    assert claims["org_id"] == org["id"], claims
    expect_status(warden.mgmt("DELETE", f"organizations/{org['id']}"), 204)


def test_post_login_prompt_lets_a_member_of_several_pick_one_of_theirs(warden):
    client, user = requiring(warden, "post_login_prompt"), create_user(warden)
    mine = [make_org(warden, display_name=f"Team {n}") for n in ("Alpha", "Beta")]
    foreign = make_org(warden)
    for org in mine:
        expect_status(warden.mgmt("POST", f"organizations/{org['id']}/members", json={"members": [user.user_id]}),
                      204)
    browser = Browser(warden)
    step = browser.sign_in(client["client_id"], client["redirect_uri"], user.email, user.password)
    assert step.path == "/u/organization/pick" or "Choose an organization" in step.page.title, step.response.url
    form, = step.page.forms
    offered = [b.get("value") for b in form.buttons]
    assert sorted(offered) == sorted(org["id"] for org in mine), offered  # by name: one button per organization
    assert "Team Alpha" in step.page.text and "Team Beta" in step.page.text
    done = post(browser, step, form, organization=mine[1]["id"])
    assert done.callback and "code" in done.callback, done.callback
    claims = claims_of(warden, browser.exchange(client["client_id"], done.callback["code"])["id_token"])
    assert claims["org_id"] == mine[1]["id"], claims
    # A forged pick of an organization the user is not in is refused naming it.
    browser = Browser(warden)
    step = browser.sign_in(client["client_id"], client["redirect_uri"], user.email, user.password)
    forged = post(browser, step, step.page.forms[0], organization=foreign["id"])
    assert forged.callback["error"] == "access_denied" and foreign["name"] in forged.callback["error_description"]
    for org in (*mine, foreign):
        warden.mgmt("DELETE", f"organizations/{org['id']}")


def test_the_login_page_wears_the_organizations_branding(warden):
    client = app(warden)
    org = make_org(warden, display_name="Branded Co", branding={
        "logo_url": "https://cdn.branded.example:8443/logo.png",
        "colors": {"primary": "#aa3300", "page_background": "#102030"}})
    step = Browser(warden).authorize(client["client_id"], client["redirect_uri"], organization=org["id"])
    html, policy = step.response.text, step.response.headers["Content-Security-Policy"]
    assert '<img class="logo" src="https://cdn.branded.example:8443/logo.png"' in html, html[:1500]
    assert "Branded Co" in step.page.text
    assert "background:#aa3300" in html and "body{background:#102030}" in html
    assert "img-src 'self' data: https://cdn.branded.example:8443;" in policy, policy
    assert policy.count("'sha256-") >= 4, policy  # the page's style sheet, the branding's, and the two scripts
    plain = Browser(warden).authorize(client["client_id"], client["redirect_uri"])
    assert "cdn.branded.example" not in plain.response.headers["Content-Security-Policy"]
    assert "cdn.branded.example" not in plain.response.text
    expect_status(warden.mgmt("DELETE", f"organizations/{org['id']}"), 204)


def test_no_prompt_is_invalid_request(warden):
    client = requiring(warden, "no_prompt")
    step = Browser(warden).authorize(client["client_id"], client["redirect_uri"])
    assert step.callback["error"] == "invalid_request", step.callback
    assert json_of(expect_status(warden.mgmt("GET", f"clients/{client['client_id']}"), 200))[
        "organization_require_behavior"] == "no_prompt"
