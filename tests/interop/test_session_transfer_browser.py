"""Native-to-Web SSO (SPEC §8) in a real browser: Debian's chromium driven by selenium (the setup of
test_browser_login.py). The native app's part is played over HTTP (a hosted login, then the exchange of its refresh
token for a session transfer token); the token is then put into the browser as a native WebView injects it, as the
cookie `auth0_session_transfer_token` of the issuer's origin (DevTools `Network.setCookie`), and the web app's
/authorize is opened: the browser must land on the web callback with a code, never seeing the login form.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from pkcelib import SESSION_COOKIE, authorize_url, code_exchange, new_verifier
from test_browser_login import WAIT, browser  # noqa: F401  (the chromium fixture)
from test_session_transfer import COOKIE, audience, exchange_logs, make_transfer
from wardenlib import describe, json_of, uid, verify_jwt


def test_an_injected_cookie_signs_the_browser_in_without_a_password(browser, warden):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    callback = warden.url("demo/callback")
    transfer = make_transfer(warden, binding="ip", web_callback=callback)
    token = transfer.token(source="127.0.0.1")

    injected = browser.execute_cdp_cmd("Network.setCookie", {
        "name": COOKIE, "value": token, "url": warden.base_url, "path": "/", "httpOnly": True})
    assert injected.get("success", True), injected

    verifier, state = new_verifier(), f"sso-{uid()}"
    browser.get(authorize_url(warden, transfer.web_id, callback, verifier=verifier, state=state,
                              nonce=f"n-{uid()}"))
    WebDriverWait(browser, WAIT).until(lambda d: d.current_url.startswith(callback))
    assert not browser.find_elements(By.NAME, "password"), "the login form was shown"
    params = {k: v[0] for k, v in parse_qs(urlsplit(browser.current_url).query).items()}
    assert params.get("state") == state and params.get("code") and "error" not in params, browser.current_url
    assert SESSION_COOKIE in {c["name"] for c in browser.get_cookies()}

    r = code_exchange(warden, transfer.web_id, params["code"], verifier, callback)
    assert r.status_code == 200, describe(r)
    _, claims = verify_jwt(json_of(r)["id_token"], warden.jwks(), ["RS256"])
    assert claims["sub"] == transfer.user_id and claims["aud"] == transfer.web_id, claims

    events = exchange_logs(warden, transfer.native_id, 1)
    assert events[0]["type"] == "sertft" and events[0]["audience"] == audience(warden), events
