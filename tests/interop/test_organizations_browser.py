"""SPEC §19's pages in a real browser (Debian's chromium, headless, phone-sized, as test_browser_login.py): a
`pre_login_prompt` client asks the organization's name, then shows the organization's login page in its colors —
Chromium applies the branding's style sheet only because the page's Content-Security-Policy allows it by hash — and
the member signs in to the callback; and a `post_login_prompt` client's picker of a member of two organizations.
Screenshots as test_accounts_browser.py."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from pkcelib import authorize_url, code_exchange, create_public_client, create_user, new_verifier
from test_accounts_browser import screenshot
from test_browser_login import browser, page_wait  # noqa: F401  (browser is a fixture)
from test_mfa import claims_of
from test_organizations_login import make_org
from wardenlib import describe, expect_status, json_of, uid


def background(driver) -> str:
    return driver.execute_script("return getComputedStyle(document.body).backgroundColor")


def sign_in_at_callback(driver, warden, client: dict, callback: str, verifier: str, user) -> dict:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    wait = page_wait(driver)
    wait.until(ec.visibility_of_element_located((By.NAME, "username"))).send_keys(user.email)
    driver.find_element(By.NAME, "password").send_keys(user.password)
    driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    return finish(driver, warden, client, callback, verifier)


def finish(driver, warden, client: dict, callback: str, verifier: str) -> dict:
    page_wait(driver).until(lambda d: d.current_url.startswith(callback))
    params = {k: v[0] for k, v in parse_qs(urlsplit(driver.current_url).query).items()}
    assert params.get("code"), driver.current_url
    r = code_exchange(warden, client["client_id"], params["code"], verifier, callback)
    assert r.status_code == 200, describe(r)
    return claims_of(warden, r.json()["id_token"])


def test_the_organization_prompt_and_branded_login_in_chromium(browser, warden, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    callback = warden.url("demo/callback")
    client = create_public_client(warden, [callback], name="Business App", organization_usage="require",
                                  organization_require_behavior="pre_login_prompt")
    org = make_org(warden, display_name="Chromium Widgets", branding={"colors": {"page_background": "#203040"}})
    user = create_user(warden)
    expect_status(warden.mgmt("POST", f"organizations/{org['id']}/members", json={"members": [user.user_id]}), 204)
    verifier = new_verifier()
    browser.get(authorize_url(warden, client["client_id"], callback, verifier=verifier, state=f"o-{uid()}"))
    wait = page_wait(browser)
    name = wait.until(ec.visibility_of_element_located((By.NAME, "organization")))
    name.send_keys("not-" + org["name"])
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    alert = wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "p[role=alert]")))
    assert "There is no organization named" in alert.text, alert.text
    screenshot(browser, tmp_path, "organization-prompt-phone.png")
    name = browser.find_element(By.NAME, "organization")
    name.clear()
    name.send_keys(org["name"])
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(ec.visibility_of_element_located((By.NAME, "username")))
    assert "Chromium Widgets" in browser.find_element(By.TAG_NAME, "main").text
    assert background(browser) == "rgb(32, 48, 64)", background(browser)  # the branding's CSS ran under the CSP
    screenshot(browser, tmp_path, "organization-login-phone.png")
    claims = sign_in_at_callback(browser, warden, client, callback, verifier, user)
    assert claims["org_id"] == org["id"], claims
    warden.mgmt("DELETE", f"organizations/{org['id']}")


def test_the_post_login_picker_in_chromium(browser, warden, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    callback = warden.url("demo/callback")
    client = create_public_client(warden, [callback], name="Picker App", organization_usage="require",
                                  organization_require_behavior="post_login_prompt")
    orgs = [make_org(warden, display_name=label) for label in ("North Office", "South Office")]
    user = create_user(warden)
    for org in orgs:
        expect_status(warden.mgmt("POST", f"organizations/{org['id']}/members", json={"members": [user.user_id]}),
                      204)
    verifier = new_verifier()
    browser.get(authorize_url(warden, client["client_id"], callback, verifier=verifier, state=f"p-{uid()}"))
    wait = page_wait(browser)
    wait.until(ec.visibility_of_element_located((By.NAME, "username"))).send_keys(user.email)
    browser.find_element(By.NAME, "password").send_keys(user.password)
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    south = wait.until(ec.element_to_be_clickable((By.XPATH, "//button[normalize-space()='South Office']")))
    assert browser.find_element(By.TAG_NAME, "h1").text == "Choose an organization"
    screenshot(browser, tmp_path, "organization-picker-phone.png")
    south.click()
    claims = finish(browser, warden, client, callback, verifier)
    assert claims["org_id"] == orgs[1]["id"], claims
    assert json_of(expect_status(warden.mgmt("GET", f"users/{user.user_id}/organizations"), 200))
    for org in orgs:
        warden.mgmt("DELETE", f"organizations/{org['id']}")
