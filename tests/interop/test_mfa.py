"""MFA at sign-in (SPEC §12) through the hosted pages, spoken like a browser with `requests`: the policies
(`all-applications`, `confidence-score`), `acr_values`, a `require_mfa` rule, enrolment completed by a code,
sign-in pushes answered by the suite's Python device (guardianlib, SPEC §7) and received by the push webhook,
one-time codes computed by **pyotp**, recovery codes, the SSO session remembering MFA, `prompt=none` and
`prompt=login`, and `amr`/`acr` in the tokens checked by **joserfc** over the JWKS. Each test runs on a node of this
module's own with the IP database fixture (127.0.0.1 is AS 64500, 127.0.0.2 AS 64501): the settings are the
tenant's, set for one test and put back after it.
"""

from __future__ import annotations

import pathlib
import time

import pyotp
import pytest
import requests
from joserfc import jwt
from joserfc.jwk import KeySet

from guardianlib import Device, WebhookReceiver, device_error, enrollment_ticket, reported_push_node, wait_for_log
from mfalib import MULTI_FACTOR_ACR, Browser, mfa_settings, otpauth_secret, recovery_code
from pkcelib import create_public_client, create_user, fake_callback
from wardenlib import HTTP_TIMEOUT, describe, expect_status, json_of, wait_until

IP_DATABASE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ip2asn-sample.tsv"


@pytest.fixture(scope="module")
def node(request, receiver):
    """A node of this module's own with the IP database fixture, pushing to `receiver` (conftest)."""
    with reported_push_node(request, receiver, mgmt_client_id="mfa-interop",
                            env={"WARDEN_IP_DATABASE": str(IP_DATABASE)}) as started:
        yield started


@pytest.fixture
def app(node):
    """A public client with a callback that is never fetched, and a user of it."""
    redirect_uri = fake_callback()
    client = create_public_client(node, [redirect_uri], name=f"MFA App {time.monotonic_ns() % 10000}")
    return {"client": client, "client_id": client["client_id"], "redirect_uri": redirect_uri,
            "user": create_user(node)}


def sign_in(browser: Browser, app: dict, **extra: str):
    user = app["user"]
    return browser.sign_in(app["client_id"], app["redirect_uri"], user.email, user.password, **extra)


def claims_of(node, token: str) -> dict:
    """The claims of a JWT whose signature joserfc checked against the JWKS."""
    keys = KeySet.import_key_set(json_of(expect_status(requests.get(node.jwks_uri, timeout=HTTP_TIMEOUT), 200)))
    return jwt.decode(token, keys, algorithms=["RS256", "ES256", "PS256", "EdDSA"]).claims


def expect_mfa_tokens(node, browser: Browser, app: dict, step) -> dict:
    assert step.callback and "code" in step.callback, f"not at the callback: {step.response.url} {step.page}"
    tokens = browser.exchange(app["client_id"], step.callback["code"])
    for token in (tokens["id_token"], tokens["access_token"]):
        claims = claims_of(node, token)
        assert claims["amr"] == ["pwd", "mfa"], claims
        assert claims["acr"] == MULTI_FACTOR_ACR, claims
    return tokens


def enrolled(node, user) -> Device:
    device = Device(node)
    device.enroll(enrollment_ticket(node, user.user_id), push_credentials={"service": "WEBHOOK", "token": "tok"})
    return device


def answer_push(device: Device, receiver: WebhookReceiver, accepted: bool):
    push = receiver.wait_for_push(device.id)
    return push, device.resolve(push.txtkn, push.challenge, accepted)


# ------------------------------------------------------------------------------------------------ enrolment
def test_a_new_user_enrols_with_a_code_sees_a_recovery_code_once_and_gets_mfa_tokens(node, app):
    with mfa_settings(node, policy=["all-applications"]):
        browser = Browser(node)
        step = sign_in(browser, app)
        assert step.path.endswith("/u/mfa/enroll") and step.response.status_code == 200, step.response.url
        assert '<meta http-equiv="refresh"' in step.response.text  # waits for a push device by itself
        assert "<svg" in step.response.text
        secret = otpauth_secret(step.response.text)
        wrong = browser.submit(step, "code", "000000" if pyotp.TOTP(secret).now() != "000000" else "111111")
        assert wrong.response.status_code == 400 and "not right" in wrong.page.text
        shown = browser.submit(wrong, "code", pyotp.TOTP(secret).now())
        assert shown.path.endswith("/u/mfa/recovery-code") or "recovery code" in shown.page.text.lower()
        code = recovery_code(shown.response.text)
        assert len(code) == 24 and code.isalnum() and code.isupper()
        done = browser.submit(shown)
        expect_mfa_tokens(node, browser, app, done)
        user_id = app["user"].user_id
        for kind in ("mfar", "gd_start_enroll", "gd_enrollment_complete", "s"):
            wait_for_log(node, kind, user_id)
        enrolments = json_of(expect_status(node.mgmt("GET", f"users/{user_id}/enrollments"), 200))
        assert [e["type"] for e in enrolments] == ["totp"], enrolments
        # the next sign-in asks for the code, not for an enrolment
        again = sign_in(Browser(node), app)
        assert again.path.endswith("/u/mfa/otp"), again.response.url


# ------------------------------------------------------------------------------------------------------ push
def test_a_sign_in_push_approved_on_the_device_signs_in(node, app, receiver):
    user = app["user"]
    device = enrolled(node, user)
    with mfa_settings(node, policy=["all-applications"]):
        browser = Browser(node)
        step = sign_in(browser, app)
        assert step.path.endswith("/u/mfa/push") and step.response.status_code == 200, step.response.url
        assert '<meta http-equiv="refresh"' in step.response.text and device.name in step.page.text
        push = receiver.wait_for_push(device.id)
        body = push.body
        assert body["aps"]["alert"] == {"title": "Warden: sign in", "body": f"Sign in to {app['client']['name']}"}
        assert "txlnkid" not in body["mfa"], body
        assert body["mfa"]["s"] == {"b": {"n": "Chrome", "v": "131"}, "os": {"n": "Linux"}}, body["mfa"]
        assert body["mfa"]["l"]["n"] in ("Germany", "DE"), body["mfa"]  # 127.0.0.1: AS 64500, DE
        listed = [t for t in device.transactions() if t["c"] == push.challenge]
        assert len(listed) == 1 and "txlnkid" not in listed[0], listed
        assert listed[0]["alert"] == body["aps"]["alert"], listed
        # a sign-in push has no consent behind it
        device_error(device.fetch_consent("cns_none", push.txtkn), 404, "consent_not_found")
        assert sign_in_page_waits(browser, step)
        r = device.resolve(push.txtkn, push.challenge, True)
        assert r.status_code == 204, describe(r)
        device_error(device.resolve(push.txtkn, push.challenge, True), 404, "login_transaction_not_found")
        expect_mfa_tokens(node, browser, app, browser.reload(step))
        for kind in ("mfar", "gd_start_auth", "gd_send_pn", "gd_auth_succeed"):
            wait_for_log(node, kind, user.user_id)


def sign_in_page_waits(browser: Browser, step) -> bool:
    again = browser.reload(step)
    return again.page is not None and again.path.endswith("/u/mfa/push")


def test_a_rejected_sign_in_push_is_access_denied(node, app, receiver):
    device = enrolled(node, app["user"])
    with mfa_settings(node, policy=["all-applications"]):
        browser = Browser(node)
        step = sign_in(browser, app)
        push = receiver.wait_for_push(device.id)
        assert device.resolve(push.txtkn, push.challenge, False, reason="not me").status_code == 204
        answer = browser.reload(step)
        assert answer.callback == {"error": "access_denied", "error_description": "MFA Authorization rejected.",
                                   "state": "st"}, answer.response.headers
        wait_for_log(node, "gd_auth_rejected", app["user"].user_id)
        # the transaction is used up
        assert browser.reload(step).response.status_code == 400


def test_too_many_waiting_sign_in_pushes_send_no_more(node, app, receiver):
    device = enrolled(node, app["user"])
    with mfa_settings(node, policy=["all-applications"]):
        for _ in range(3):
            step = sign_in(Browser(node), app)
            assert "We sent a notification" in step.page.text
        wait_until(lambda: len(device.transactions()) == 3, what="three pending sign-in pushes")
        fourth = sign_in(Browser(node), app)
        assert fourth.path.endswith("/u/mfa/push") and "already waiting" in fourth.page.text, fourth.page.text
        assert len(device.transactions()) == 3


# ------------------------------------------------------------------------------------------ one-time codes
def test_one_time_codes_valid_replayed_wrong_and_locked(node, app):
    user = app["user"]
    device = enrolled(node, user)
    totp = pyotp.TOTP(device.enrollment.totp["secret"])
    with mfa_settings(node, policy=["all-applications"]):
        browser = Browser(node)
        step = browser.get(sign_in(browser, app), "otp")
        assert step.path.endswith("/u/mfa/otp") and step.response.status_code == 200
        code = totp.now()
        expect_mfa_tokens(node, browser, app, browser.submit(step, "code", code))
        # the same code again, in another sign-in: refused as used
        other = Browser(node)
        step = other.get(sign_in(other, app), "otp")
        replayed = other.submit(step, "code", code)
        assert replayed.response.status_code == 400 and "used already" in replayed.page.text
        wrong = str((int(totp.now()) + 500_000) % 1_000_000).zfill(6)
        for attempt in range(1, 11):
            answer = other.submit(step, "code", wrong)
            expected = 429 if attempt == 10 else 400
            assert answer.response.status_code == expected, (attempt, answer.page.text)
        locked = other.submit(step, "code", totp.now())
        assert locked.response.status_code == 429 and "Too many wrong codes" in locked.page.text
        wait_for_log(node, "gd_auth_failed", user.user_id, count=10)
        wait_for_log(node, "gd_otp_rate_limit_exceed", user.user_id, count=2)


def test_a_recovery_code_works_once_and_is_replaced(node, app):
    user = app["user"]
    enrolled(node, user)
    code = json_of(expect_status(node.mgmt("POST", f"users/{user.user_id}/recovery-code-regeneration"), 200))[
        "recovery_code"]
    with mfa_settings(node, policy=["all-applications"]):
        browser = Browser(node)
        step = browser.get(sign_in(browser, app), "recovery")
        assert step.response.status_code == 200 and "recovery code" in step.page.text.lower()
        shown = browser.submit(step, "code", code.lower())
        new_code = recovery_code(shown.response.text)
        assert new_code != code
        expect_mfa_tokens(node, browser, app, browser.submit(shown))
        other = Browser(node)
        step = other.get(sign_in(other, app), "recovery")
        refused = other.submit(step, "code", code)
        assert refused.response.status_code == 400 and "not right" in refused.page.text
        wait_for_log(node, "gd_recovery_succeed", user.user_id)
        wait_for_log(node, "gd_recovery_failed", user.user_id)


# ---------------------------------------------------------------------------------------- session and prompt
def test_the_sso_session_remembers_mfa_and_prompt_login_and_max_age_ask_again(node, app):
    device = enrolled(node, app["user"])
    totp = pyotp.TOTP(device.enrollment.totp["secret"])
    with mfa_settings(node, policy=["all-applications"]):
        browser = Browser(node)
        step = browser.get(sign_in(browser, app), "otp")
        expect_mfa_tokens(node, browser, app, browser.submit(step, "code", totp.now()))
        silent = browser.authorize(app["client_id"], app["redirect_uri"], prompt="none")
        expect_mfa_tokens(node, browser, app, silent)
        forced = sign_in(browser, app, prompt="login")
        assert forced.path.endswith("/u/mfa/push"), forced.response.url
        # max_age=0: the session is too old for the request, so a new first factor — and the second — are asked
        # (a recovery code this time: the step's one-time code is used up)
        recovery = json_of(expect_status(
            node.mgmt("POST", f"users/{app['user'].user_id}/recovery-code-regeneration"), 200))["recovery_code"]
        shown = browser.submit(browser.get(forced, "recovery"), "code", recovery)
        expect_mfa_tokens(node, browser, app, browser.submit(shown))
        time.sleep(1.1)  # auth_time has whole seconds
        aged = sign_in(browser, app, max_age="0")
        assert aged.path.endswith("/u/mfa/push"), aged.response.url


def test_prompt_none_when_mfa_would_be_asked_is_interaction_required(node, app):
    enrolled(node, app["user"])
    browser = Browser(node)
    first = sign_in(browser, app)
    assert first.callback and "code" in first.callback  # no policy yet: no MFA
    tokens = browser.exchange(app["client_id"], first.callback["code"])
    assert claims_of(node, tokens["id_token"])["amr"] == ["pwd"]
    assert "acr" not in claims_of(node, tokens["id_token"])
    with mfa_settings(node, policy=["all-applications"]):
        silent = browser.authorize(app["client_id"], app["redirect_uri"], prompt="none")
        assert silent.callback == {"error": "interaction_required",
                                   "error_description": "Multi-factor authentication is required",
                                   "state": "st"}, silent.callback
        # without prompt=none the same session is sent to the second factor
        assert browser.authorize(app["client_id"], app["redirect_uri"]).path.endswith("/u/mfa/push")


# ------------------------------------------------------------------------------- what makes MFA asked
def test_confidence_score_asks_a_new_browser_on_a_new_network_only(node, app):
    device = enrolled(node, app["user"])
    totp = pyotp.TOTP(device.enrollment.totp["secret"])
    with mfa_settings(node, policy=["confidence-score"]):
        home = Browser(node, "127.0.0.1")
        first = sign_in(home, app)
        assert first.path.endswith("/u/mfa/push"), "a user's first login is low-confidence"
        expect_mfa_tokens(node, home, app, home.submit(home.get(first, "otp"), "code", totp.now()))
        again = sign_in(home, app, prompt="login")
        assert again.callback and "code" in again.callback, "the same browser is not asked again"
        same_network = sign_in(Browser(node, "127.0.0.1"), app)
        assert same_network.callback and "code" in same_network.callback, "a known network is not asked"
        elsewhere = sign_in(Browser(node, "127.0.0.2"), app)
        assert elsewhere.path.endswith("/u/mfa/push"), "another browser on another network (AS 64501) is asked"


def test_acr_values_ask_for_mfa(node, app):
    enrolled(node, app["user"])
    with mfa_settings(node, policy=[]):
        plain = sign_in(Browser(node), app)
        assert plain.callback and "code" in plain.callback
        asked = sign_in(Browser(node), app, acr_values=MULTI_FACTOR_ACR)
        assert asked.path.endswith("/u/mfa/push"), asked.response.url
        wait_for_log(node, "mfar", app["user"].user_id)


def test_a_require_mfa_rule_asks_for_mfa(node, app):
    enrolled(node, app["user"])
    rule = json_of(expect_status(node.mgmt("POST", "post-login-rules", json={
        "name": f"mfa for {app['user'].email}", "condition": f'event.user.email == "{app["user"].email.lower()}"',
        "action": "require_mfa", "enabled": True}), 201))
    try:
        with mfa_settings(node, policy=[]):
            asked = sign_in(Browser(node), app)
            assert asked.path.endswith("/u/mfa/push"), asked.response.url
    finally:
        node.mgmt("DELETE", f"post-login-rules/{rule['id']}")


def test_a_turned_off_factor_is_refused_on_its_page(node, app):
    device = enrolled(node, app["user"])
    totp = pyotp.TOTP(device.enrollment.totp["secret"])
    code = json_of(expect_status(node.mgmt("POST", f"users/{app['user'].user_id}/recovery-code-regeneration"), 200))[
        "recovery_code"]
    with mfa_settings(node, policy=["all-applications"], factors=("push-notification",)):
        browser = Browser(node)
        push = sign_in(browser, app)
        assert "Enter a code instead" not in push.page.text and "Use a recovery code" not in push.page.text
        otp = browser.get(push, "otp")
        refused = browser.submit(otp, "code", totp.now())
        assert refused.response.status_code == 403 and "turned off" in refused.page.text
        recovery = browser.submit(browser.get(push, "recovery"), "code", code)
        assert recovery.response.status_code == 403 and "turned off" in recovery.page.text


def test_no_enabled_factor_asks_nothing(node, app):
    enrolled(node, app["user"])
    with mfa_settings(node, policy=["all-applications"], factors=("recovery-code",)):
        plain = sign_in(Browser(node), app)
        assert plain.callback and "code" in plain.callback


# ------------------------------------------------------------------------------------------ refused forms
def test_mfa_forms_need_the_csrf_token_and_a_live_state(node, app):
    device = enrolled(node, app["user"])
    totp = pyotp.TOTP(device.enrollment.totp["secret"])
    with mfa_settings(node, policy=["all-applications"]):
        browser = Browser(node)
        step = browser.get(sign_in(browser, app), "otp")
        forged = browser.submit(step, "code", totp.now(), csrf="forged")
        assert forged.response.status_code == 403, forged.response.status_code
        r = browser.http.get(node.url("u/mfa/otp") + "?state=unknown", allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert r.status_code == 400 and "expired" in r.text
        # another browser (without the session) cannot use the state
        stranger = Browser(node)
        r = stranger.http.get(step.response.url, allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert r.status_code == 400
        expect_mfa_tokens(node, browser, app, browser.submit(step, "code", totp.now()))
