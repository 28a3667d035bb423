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
from pkcelib import authorize_url, create_public_client, create_user, hosted_login, new_verifier
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

    callback = warden.url("demo/callback")
    client = create_public_client(warden, [callback], app_type="native", name="Phone App")
    user = create_user(warden)
    state = secrets.token_urlsafe(32)  # 43 characters, as the quick start's login sends
    landed = hosted_login(warden, authorize_url(warden, client["client_id"], callback, verifier=new_verifier(),
                                                state=state), redirect_uri=callback, email=user.email,
                          password=user.password)
    browser.get(landed.url)
    text = browser.find_element(By.TAG_NAME, "main").text.replace("\n", "")
    assert state in text and f"client_id={client['client_id']}" in text, text
    assert page_width(browser) <= PHONE[0], f"the callback page is {page_width(browser)}px wide on a phone"
    screenshot(browser, tmp_path, "demo-callback-phone.png")


def approval_in_browser(driver, warden, smtp_sink, app, details: list[dict]):
    """Starts an e-mail CIBA request with `details`, signs its user in, and opens the link in `driver`; returns
    the e-mail and the page's labelled rows."""
    from selenium.webdriver.common.by import By

    _, form = start_request(warden, app, requested_expiry="3600", authorization_details=json.dumps(details))
    mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
    link = mail.link(warden.issuer)
    approval = open_approval_page(warden, link, app.user)  # the session of the signed-in user, for the browser
    driver.get(warden.url("healthz"))
    for cookie in approval.session.cookies:
        driver.add_cookie({"name": cookie.name, "value": cookie.value, "path": cookie.path or "/"})
    driver.get(link)
    rows = {row.find_element(By.TAG_NAME, "dt").text: row.find_element(By.TAG_NAME, "dd").text
            for row in driver.find_elements(By.CSS_SELECTOR, ".detail dl > div")}
    return mail, rows


def test_the_approval_page_shows_the_transfer_as_labelled_lines(browser, warden, smtp_sink, tmp_path):  # noqa: F811
    from selenium.webdriver.common.by import By

    app = ciba_app(warden)
    transfer = {"type": "money_transfer", "instructedAmount": {"amount": 2500, "currency": "USD"},
                "sourceAccount": "DE89370400440532013000", "beneficiary": "Hanna Herwitz",
                "subject": "Invoice 2026-117"}
    _, rows = approval_in_browser(browser, warden, smtp_sink, app, [transfer])
    assert rows == {"Amount": "2500 USD", "From": "DE89370400440532013000", "Beneficiary": "Hanna Herwitz",
                    "Subject": "Invoice 2026-117"}, rows
    assert browser.find_element(By.CSS_SELECTOR, ".detail h2").text == "Money transfer"
    assert page_width(browser) <= PHONE[0], f"the approval page is {page_width(browser)}px wide on a phone"
    buttons = {b.get_attribute("value") for b in browser.find_elements(By.CSS_SELECTOR, "button[name=action]")}
    assert buttons == {"accept", "deny"}, buttons
    font = browser.execute_script("return [getComputedStyle(document.body).fontFamily, "
                                  "getComputedStyle(document.querySelector('button')).fontFamily]")
    assert font[0] == font[1], f"the buttons do not inherit the page's font: {font}"
    screenshot(browser, tmp_path, "ciba-approval-phone.png")


def test_a_hostile_value_stays_on_its_labelled_line(browser, warden, smtp_sink):  # noqa: F811
    """SPEC §11: CR/LF and U+202E in an authorization detail reach neither the page nor the e-mail."""
    app = ciba_app(warden)
    hostile = {"type": "money_transfer", "instructedAmount": {"amount": 1, "currency": "USD"},
               "subject": "ok\n\nApprove at: http://evil.example/approve\u202e"}
    mail, rows = approval_in_browser(browser, warden, smtp_sink, app, [hostile])
    assert rows["Subject"] == "ok Approve at: http://evil.example/approve", rows
    lines = mail.text.splitlines()
    assert "  Subject:  ok Approve at: http://evil.example/approve" in lines, mail.text
    assert not [line for line in lines if line.startswith("Approve at")], mail.text
    assert "\u202e" not in mail.text + mail.html and "\u202e" not in browser.page_source
