"""MFA at sign-in (SPEC §12) in a real browser: Debian's chromium driven by selenium, phone-sized. Policy
`all-applications`: a new user signs in, gets the enrolment page, whose QR code (decoded by zxing-cpp) the suite's
Python device (guardianlib, SPEC §7) enrols with; the page notices by itself, shows the recovery code once, and
"I have saved it" lands on the callback; the ID token (checked by authlib over the JWKS) says `amr` `pwd`+`mfa`.
The next sign-in (`prompt=login`) gets a sign-in push, which the device approves: the waiting page continues by itself;
one it rejects ends in `access_denied`; a code computed by pyotp, typed into the code page, signs in.

Screenshots of the MFA pages go to docs/screenshots/mfa-*-phone.png when WARDEN_UPDATE_SCREENSHOTS=1.
"""

from __future__ import annotations

import os
import pathlib
import re
import time
from urllib.parse import parse_qs, urlsplit

import pyotp
import pytest
import requests
from authlib.jose import JsonWebKey, jwt

from guardianlib import Device, reported_push_node, wait_for_log
from mfalib import MULTI_FACTOR_ACR, mfa_settings
from pkcelib import authorize_url, code_exchange, create_public_client, create_user, new_verifier
from test_browser_login import PHONE, browser, page_wait  # noqa: F401  (the fixture)
from test_guardian_ticket import decode_qr
from wardenlib import HTTP_TIMEOUT, expect_status, json_of, wait_until

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def node(request, receiver):
    with reported_push_node(request, receiver, mgmt_client_id="mfa-browser") as started:
        yield started


def screenshot(driver, name: str, tmp_path) -> None:
    target = (REPO / "docs" / "screenshots" / f"mfa-{name}-phone.png"
              if os.environ.get("WARDEN_UPDATE_SCREENSHOTS") == "1" else tmp_path / f"mfa-{name}.png")
    target.parent.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(target)) and target.stat().st_size > 5000, target
    width = driver.execute_script("return document.documentElement.scrollWidth")
    assert width <= PHONE[0], f"the {name} page is {width}px wide on a {PHONE[0]}px phone"


def verified_claims(node, token: str) -> dict:
    keys = JsonWebKey.import_key_set(json_of(expect_status(requests.get(node.jwks_uri, timeout=HTTP_TIMEOUT), 200)))
    claims = jwt.decode(token, keys)
    claims.validate()
    return dict(claims)


def landed_code(driver, callback: str) -> str:
    params = {k: v[0] for k, v in parse_qs(urlsplit(driver.current_url).query).items()}
    assert driver.current_url.startswith(callback) and params.get("code"), driver.current_url
    return params["code"]


def test_enrol_by_qr_code_then_approve_a_sign_in_push(browser, node, receiver, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    callback = node.url("demo/callback")
    client = create_public_client(node, [callback], name="Browser MFA App")
    user = create_user(node)
    wait = page_wait(browser)

    def sign_in(**extra: str) -> str:
        verifier = new_verifier()
        browser.get(authorize_url(node, client["client_id"], callback, verifier=verifier, state="s", nonce="n",
                                  **extra))
        wait.until(ec.visibility_of_element_located((By.NAME, "username"))).send_keys(user.email)
        browser.find_element(By.NAME, "password").send_keys(user.password)
        browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        return verifier

    with mfa_settings(node, policy=["all-applications"]):
        verifier = sign_in()
        wait.until(lambda d: urlsplit(d.current_url).path == "/u/mfa/enroll")
        assert browser.find_element(By.ID, "code").get_attribute("autocomplete") == "one-time-code"
        assert browser.find_element(By.CSS_SELECTOR, "label[for=code]").text
        screenshot(browser, "enroll", tmp_path)
        svg = re.search(r"<svg.*?</svg>", browser.page_source, re.S).group(0)
        uri = decode_qr(svg)
        query = {k: v[0] for k, v in parse_qs(urlsplit(uri).query).items()}
        assert query["base_url"] == node.issuer and query["issuer"] == "Warden", query
        device = Device(node)
        device.enroll(query["enrollment_tx_id"], push_credentials={"service": "WEBHOOK", "token": "browser-tok"})
        assert device.enrollment.totp["secret"] == query["secret"]

        # the enrolment page reloads itself and shows the recovery code once
        wait.until(lambda d: "Save your recovery code" in d.page_source)
        code = browser.find_element(By.CSS_SELECTOR, "code.recovery").text.replace(" ", "")
        assert re.fullmatch(r"[A-Z0-9]{24}", code), code
        screenshot(browser, "recovery-code", tmp_path)
        browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: d.current_url.startswith(callback))
        r = code_exchange(node, client["client_id"], landed_code(browser, callback), verifier, callback)
        claims = verified_claims(node, json_of(expect_status(r, 200))["id_token"])
        assert claims["sub"] == user.user_id and "mfa" in claims["amr"] and claims["acr"] == MULTI_FACTOR_ACR, claims
        wait_for_log(node, "gd_enrollment_complete", user.user_id)

        # next sign-in: a push, approved on the device; the waiting page continues by itself
        verifier = sign_in(prompt="login")
        wait.until(lambda d: urlsplit(d.current_url).path == "/u/mfa/push")
        assert "We sent a notification" in browser.page_source
        screenshot(browser, "push", tmp_path)
        push = receiver.wait_for_push(device.id)
        assert push.body["mfa"]["s"]["b"]["n"] == "Chrome" and "txlnkid" not in push.body["mfa"], push.body
        started = time.monotonic()
        assert device.resolve(push.txtkn, push.challenge, True).status_code == 204
        wait.until(lambda d: d.current_url.startswith(callback))
        assert time.monotonic() - started < 10
        r = code_exchange(node, client["client_id"], landed_code(browser, callback), verifier, callback)
        claims = verified_claims(node, json_of(expect_status(r, 200))["id_token"])
        assert claims["amr"] == ["pwd", "mfa"], claims

        # a push rejected on the device: the waiting page ends the sign-in with access_denied
        sign_in(prompt="login")
        wait.until(lambda d: urlsplit(d.current_url).path == "/u/mfa/push")
        push = wait_until(lambda: [p for p in receiver.pushes(device.id) if p.challenge != push.challenge][-1:],
                          what="the second sign-in push")[0]
        assert device.resolve(push.txtkn, push.challenge, False).status_code == 204
        wait.until(lambda d: d.current_url.startswith(callback))
        params = {k: v[0] for k, v in parse_qs(urlsplit(browser.current_url).query).items()}
        assert params == {"error": "access_denied", "error_description": "MFA Authorization rejected.",
                          "state": "s"}, params

        # "Enter a code instead": a pyotp code typed into the code page signs in
        verifier = sign_in(prompt="login")
        wait.until(lambda d: urlsplit(d.current_url).path == "/u/mfa/push")
        browser.find_element(By.LINK_TEXT, "Enter a code instead").click()
        wait.until(lambda d: urlsplit(d.current_url).path == "/u/mfa/otp")
        screenshot(browser, "code", tmp_path)
        browser.find_element(By.ID, "code").send_keys(pyotp.TOTP(query["secret"]).now())
        browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: d.current_url.startswith(callback))
        r = code_exchange(node, client["client_id"], landed_code(browser, callback), verifier, callback)
        assert verified_claims(node, json_of(expect_status(r, 200))["id_token"])["amr"] == ["pwd", "mfa"]
