"""The hosted login page in a real browser (SPEC §5): Debian's chromium + chromium-driver driven by selenium,
headless, phone-sized (390x844). The browser opens /authorize, the user types the credentials into the hosted
form, submits, and lands on the registered callback `{issuer}demo/callback` (a page on Warden itself, so the
browser gets an answer: the demo route shows the code, or it is a 404 when the server runs without --demo; the
code is read from the browser's URL either way) and the code is then exchanged for tokens.

A screenshot of the login page is written to docs/screenshots/login-phone.png when WARDEN_UPDATE_SCREENSHOTS=1,
otherwise to the test's temp dir. Skipped only when chromium or chromedriver is not installed (scripts/test
installs both); with the environment variable CI set, a missing browser is a failure instead.
"""

from __future__ import annotations

import os
import pathlib
import shutil
from urllib.parse import parse_qs, urlsplit

import pytest

from pkcelib import (SESSION_COOKIE, authorize_url, code_exchange, create_public_client, create_user, new_verifier)
from wardenlib import describe, json_of, uid, verify_jwt

REPO = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOT = REPO / "docs" / "screenshots" / "login-phone.png"
PHONE = (390, 844)
WAIT = 20  # seconds


def _browser_paths() -> tuple[str | None, str | None]:
    chromium = next(filter(None, (shutil.which(n) for n in ("chromium", "chromium-browser"))), None)
    driver = shutil.which("chromedriver") or (
        "/usr/lib/chromium/chromedriver" if os.access("/usr/lib/chromium/chromedriver", os.X_OK) else None)
    return chromium, driver


def page_wait(driver):
    """A wait of WAIT seconds across page loads: while a form's answer replaces the page, Chrome may answer a
    lookup on the old page with a generic "Node with given id does not belong to the document" rather than a stale
    element, so every WebDriver error counts as "not yet" (a real failure still ends in a timeout)."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, ignored_exceptions=(WebDriverException,))


@pytest.fixture
def browser(tmp_path):
    chromium, driver_path = _browser_paths()
    if not chromium or not driver_path:
        reason = (f"needs Debian's chromium and chromium-driver (found chromium={chromium}, "
                  f"chromedriver={driver_path}); scripts/test installs them")
        if os.environ.get("CI"):
            pytest.fail(f"CI is set, so the browser test must run: {reason}", pytrace=False)
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={PHONE[0]},{PHONE[1]}", "--hide-scrollbars", "--lang=en-US",
                f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(arg)
    # explicit driver path: no Selenium Manager download
    service = Service(executable_path=driver_path, log_output=str(tmp_path / "chromedriver.log"))
    driver = webdriver.Chrome(service=service, options=options)
    try:
        # a phone: the layout viewport follows <meta name="viewport">, touch, 2x pixels
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 2, "mobile": True})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        driver.set_page_load_timeout(WAIT)
        yield driver
    finally:
        driver.quit()


def test_login_through_the_hosted_page_in_chromium(browser, warden, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    callback = warden.url("demo/callback")
    client = create_public_client(warden, [callback], app_type="spa", name="Example App")
    user = create_user(warden, name="Robin Browser")
    verifier, state = new_verifier(), f"b-{uid()}"
    browser.get(authorize_url(warden, client["client_id"], callback, verifier=verifier, state=state,
                              nonce=f"n-{uid()}"))

    wait = page_wait(browser)
    username = wait.until(ec.visibility_of_element_located((By.NAME, "username")))
    password = browser.find_element(By.NAME, "password")
    assert urlsplit(browser.current_url).path == "/u/login", browser.current_url
    assert password.get_attribute("type") == "password"
    form = password.find_element(By.XPATH, "./ancestor::form")
    assert (form.get_attribute("method") or "").lower() == "post"
    hidden = form.find_elements(By.CSS_SELECTOR, "input[type=hidden]")
    assert any((h.get_attribute("value") or "") for h in hidden), "no hidden (CSRF) field in the login form"

    # Phone layout: nothing wider than the screen, the inputs and the submit button fully visible.
    overflow = browser.execute_script("return document.documentElement.scrollWidth")
    assert overflow <= PHONE[0], f"the login page is {overflow}px wide on a {PHONE[0]}px phone"
    submit = form.find_element(By.CSS_SELECTOR, "button[type=submit], input[type=submit], button:not([type])")
    for element in (username, password, submit):
        box = browser.execute_script("const r = arguments[0].getBoundingClientRect();"
                                     "return [r.left, r.right, r.width, r.height];", element)
        assert box[0] >= 0 and box[1] <= PHONE[0] and box[2] > 0 and box[3] > 0, (element.get_attribute("name"), box)

    target = SCREENSHOT if os.environ.get("WARDEN_UPDATE_SCREENSHOTS") == "1" else tmp_path / "login-phone.png"
    target.parent.mkdir(parents=True, exist_ok=True)
    assert browser.save_screenshot(str(target)), f"no screenshot written to {target}"
    assert target.stat().st_size > 5000, f"{target} is suspiciously small"

    username.send_keys(user.email)
    password.send_keys(user.password)
    submit.click()

    wait.until(lambda d: d.current_url.startswith(callback))
    landed = urlsplit(browser.current_url)
    params = {k: v[0] for k, v in parse_qs(landed.query).items()}
    assert params.get("state") == state and params.get("code"), browser.current_url
    assert "error" not in params, browser.current_url

    cookies = {c["name"]: c for c in browser.get_cookies()}
    assert SESSION_COOKIE in cookies, sorted(cookies)
    assert cookies[SESSION_COOKIE].get("httpOnly") is True, cookies[SESSION_COOKIE]
    assert cookies[SESSION_COOKIE].get("sameSite") == "Lax", cookies[SESSION_COOKIE]

    r = code_exchange(warden, client["client_id"], params["code"], verifier, callback)
    assert r.status_code == 200, describe(r)
    _, claims = verify_jwt(json_of(r)["id_token"], warden.jwks(), ["RS256"])
    assert claims["sub"] == user.user_id and claims["aud"] == client["client_id"], claims
