"""SPEC §15.1's hosted pages in a real browser (Debian's chromium driven by selenium, headless, phone-sized, as
test_browser_login.py): the login page's "Sign up" link to a new account signed in at the callback, and "Forgot
password?" to the e-mailed link, a new password and a sign-in with it. Screenshots go to docs/screenshots/ when
WARDEN_UPDATE_SCREENSHOTS=1, otherwise to the test's temp dir."""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qs, urlsplit

from pkcelib import authorize_url, code_exchange, create_public_client, create_user, hosted_login, new_verifier
from test_browser_login import PHONE, REPO, browser, page_wait  # noqa: F401  (browser is a fixture)
from wardenlib import describe, uid

SCREENSHOTS = REPO / "docs" / "screenshots"


def screenshot(driver, tmp_path, name: str) -> None:
    target = SCREENSHOTS / name if os.environ.get("WARDEN_UPDATE_SCREENSHOTS") == "1" else tmp_path / name
    target.parent.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(target)), f"no screenshot written to {target}"
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"{name}: the page is {width}px wide on a {PHONE[0]}px phone"


def test_sign_up_from_the_login_page_in_chromium(browser, warden, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    callback = warden.url("demo/callback")
    client = create_public_client(warden, [callback], name="Sign-up App")
    verifier, state = new_verifier(), f"b-{uid()}"
    browser.get(authorize_url(warden, client["client_id"], callback, verifier=verifier, state=state))
    wait = page_wait(browser)
    wait.until(ec.element_to_be_clickable((By.LINK_TEXT, "Sign up"))).click()
    email = wait.until(ec.visibility_of_element_located((By.NAME, "email")))
    assert urlsplit(browser.current_url).path == "/u/signup", browser.current_url
    address = f"chromium-{uid()}@interop.test"
    email.send_keys(address)
    browser.find_element(By.NAME, "password").send_keys("short")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    rules = wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "ul.rules")))
    assert "At least 8 characters in length" in rules.text, rules.text
    screenshot(browser, tmp_path, "signup-phone.png")
    browser.find_element(By.NAME, "password").send_keys("Chromium-Passw0rd!")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    wait.until(lambda d: d.current_url.startswith(callback))
    params = {k: v[0] for k, v in parse_qs(urlsplit(browser.current_url).query).items()}
    assert params.get("state") == state and params.get("code"), browser.current_url
    r = code_exchange(warden, client["client_id"], params["code"], verifier, callback)
    assert r.status_code == 200, describe(r)


def test_forgot_password_in_chromium(browser, warden, smtp_sink, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    callback = warden.url("demo/callback")
    client = create_public_client(warden, [callback], name="Reset App")
    user = create_user(warden, name="Robin Reset")
    browser.get(authorize_url(warden, client["client_id"], callback, verifier=new_verifier(), state="s"))
    wait = page_wait(browser)
    wait.until(ec.element_to_be_clickable((By.LINK_TEXT, "Forgot password?"))).click()
    email = wait.until(ec.visibility_of_element_located((By.NAME, "email")))
    email.send_keys(user.email)
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    sent = wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, "p[role=status]")))
    assert "If that address has an account, we sent a link" in sent.text, sent.text
    assert browser.find_element(By.LINK_TEXT, "Back to sign in")

    mail = smtp_sink.wait_for_mail(user.email, containing="u/reset-password")
    link = re.search(re.escape(warden.base_url) + r"u/reset-password\?ticket=[A-Za-z0-9_-]+", mail.text).group(0)
    browser.get(link)
    wait.until(ec.visibility_of_element_located((By.NAME, "password"))).send_keys("Chromium-New-Passw0rd!")
    browser.find_element(By.NAME, "password_confirmation").send_keys("Chromium-New-Passw0rd!")
    screenshot(browser, tmp_path, "reset-password-phone.png")
    browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    done = wait.until(ec.visibility_of_element_located((By.TAG_NAME, "h1")))
    assert done.text == "Password changed", browser.page_source[:2000]
    hosted_login(warden, authorize_url(warden, client["client_id"], callback, verifier=new_verifier()),
                 redirect_uri=callback, email=user.email, password="Chromium-New-Passw0rd!")
