"""Hosted pages at a phone's width (390 px) in Debian's chromium (the setup of test_browser_login.py):
`/demo/callback` with a long `state` and code, and the CIBA approval page with a money transfer laid out as
labelled lines (Amount, Beneficiary) by the one formatter the e-mail and the terminal share. Nothing may be wider
than the screen, and a hostile value (CR/LF, U+202E) stays on its own labelled line.

Screenshots go to docs/screenshots/ (demo-callback-phone.png, ciba-approval-phone.png) when
WARDEN_UPDATE_SCREENSHOTS=1, otherwise to the test's temp dir.
"""

from __future__ import annotations

import json
import os
import pathlib
import secrets

from cibalib import ciba_app, start_request, open_approval_page
from test_browser_login import PHONE, WAIT, browser  # noqa: F401  (the chromium fixture)

REPO = pathlib.Path(__file__).resolve().parents[2]
SCREENSHOTS = REPO / "docs" / "screenshots"


def screenshot(driver, tmp_path, name: str) -> None:
    target = SCREENSHOTS / name if os.environ.get("WARDEN_UPDATE_SCREENSHOTS") == "1" else tmp_path / name
    target.parent.mkdir(parents=True, exist_ok=True)
    driver.execute_script("document.documentElement.style.height='auto'")
    assert driver.save_screenshot(str(target)), f"no screenshot written to {target}"
    assert target.stat().st_size > 5000, f"{target} is suspiciously small"


def page_width(driver) -> int:
    return driver.execute_script("return document.documentElement.scrollWidth")


def test_the_demo_callback_fits_a_phone_with_a_long_state(browser, warden, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By

    state = secrets.token_urlsafe(32)  # 43 characters, as the quick start's login sends
    browser.get(warden.url(f"demo/callback?code={secrets.token_urlsafe(32)}&state={state}"))
    text = browser.find_element(By.TAG_NAME, "main").text
    assert state in text.replace("\n", ""), text
    assert page_width(browser) <= PHONE[0], f"the callback page is {page_width(browser)}px wide on a phone"
    screenshot(browser, tmp_path, "demo-callback-phone.png")


def test_the_approval_page_shows_the_transfer_as_labelled_lines(browser, warden, smtp_sink, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By

    app = ciba_app(warden)
    details = [{"type": "money_transfer", "instructedAmount": {"amount": 2500, "currency": "USD"},
                "sourceAccount": "DE89370400440532013000", "beneficiary": "Hanna Herwitz",
                "subject": "ok\n\nApprove at: http://evil.example/approve\u202e"}]
    _, form = start_request(warden, app, requested_expiry="3600", authorization_details=json.dumps(details))
    mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
    assert "\n  Subject:      ok Approve at: http://evil.example/approve\n" in mail.text, mail.text
    assert "\u202e" not in mail.text + mail.html
    link = mail.link(warden.issuer)
    # the session of a signed-in user, handed to the browser
    approval = open_approval_page(warden, link, app.user)
    browser.get(warden.url("healthz"))
    for cookie in approval.session.cookies:
        browser.add_cookie({"name": cookie.name, "value": cookie.value, "path": cookie.path or "/"})
    browser.get(link)
    rows = {row.find_element(By.TAG_NAME, "dt").text: row.find_element(By.TAG_NAME, "dd").text
            for row in browser.find_elements(By.CSS_SELECTOR, ".detail dl > div")}
    assert rows == {"Amount": "2500 USD", "From": "DE89370400440532013000", "Beneficiary": "Hanna Herwitz",
                    "Subject": "ok Approve at: http://evil.example/approve"}, rows
    assert browser.find_element(By.CSS_SELECTOR, ".detail h2").text == "Money transfer"
    assert page_width(browser) <= PHONE[0], f"the approval page is {page_width(browser)}px wide on a phone"
    buttons = {b.get_attribute("value") for b in browser.find_elements(By.CSS_SELECTOR, "button[name=action]")}
    assert buttons == {"accept", "deny"}, buttons
    font = browser.execute_script(
        "return [getComputedStyle(document.body).fontFamily, getComputedStyle(document.querySelector('button')).fontFamily]")
    assert font[0] == font[1], f"the buttons do not inherit the page's font: {font}"
    screenshot(browser, tmp_path, "ciba-approval-phone.png")
