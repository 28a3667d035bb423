"""SPEC §17 "Second factor": the `webauthn-roaming` and `webauthn-platform` factors through the hosted pages, spoken
like a browser with `requests` (mfalib) and the suite's software authenticator (webauthnlib) in place of the key:
"Add a security key" at `/u/mfa/enroll` (or `/u/mfa/webauthn-enroll` when no other factor can enrol), "Use a
security key" at `/u/mfa/webauthn`, the factors' settings in the options and in the checks, tokens with `amr`
`["pwd", "mfa"]` checked by joserfc, and one test per tampered input of the assertion. The settings are the
tenant's: each test sets them and puts them back (mfa_settings)."""

from __future__ import annotations

import html
import json
import re
from contextlib import contextmanager
from urllib.parse import urljoin

import pytest
import requests

from mfalib import Browser, Step, mfa_settings
from pkcelib import create_public_client, create_user, fake_callback
from test_mfa import claims_of
from wardenlib import HTTP_TIMEOUT, describe, expect_status, json_of
from guardianlib import wait_for_log
from webauthnlib import UP, Authenticator

ROAMING, PLATFORM = "webauthn-roaming", "webauthn-platform"


@pytest.fixture
def app(warden):
    redirect_uri = fake_callback()
    client = create_public_client(warden, [redirect_uri], name="Security key app")
    return {"client_id": client["client_id"], "redirect_uri": redirect_uri, "user": create_user(warden)}


@contextmanager
def factor_settings(warden, factor: str, **settings):
    """PUT guardian/factors/{factor}/settings for the body; the defaults after."""
    expect_status(warden.mgmt("PUT", f"guardian/factors/{factor}/settings", json=settings), 200)
    try:
        yield
    finally:
        expect_status(warden.mgmt("PUT", f"guardian/factors/{factor}/settings", json={}), 200)


def key(warden) -> Authenticator:
    """A security key for the issuer's host, in a browser at the issuer's origin."""
    return Authenticator(rp_id="127.0.0.1", origin=warden.issuer.rstrip("/"))


def sign_in(browser: Browser, app: dict, user=None) -> Step:
    user = user or app["user"]
    return browser.sign_in(app["client_id"], app["redirect_uri"], user.email, user.password)


def options(browser: Browser, step: Step, form_id: str, csrf: str | None = None) -> requests.Response:
    """What the page's script does first: POST the form's `state` and `csrf` to its `data-options`."""
    match = re.search(rf'<form id="{form_id}" method="post" action="([^"]+)" data-options="([^"]+)"', step.response.text)
    assert match, f"no #{form_id} form on {step.path}: {step.response.text[:400]}"
    hidden = step.form("passkey_session").hidden()
    data = {"state": hidden["state"], "csrf": csrf if csrf is not None else hidden["csrf"]}
    return browser.http.post(urljoin(step.response.url, html.unescape(match.group(2))), data=data,
                             allow_redirects=False, timeout=HTTP_TIMEOUT)


def answer(browser: Browser, step: Step, session: str, credential: dict) -> Step:
    """What the script does last: the credential posted through the page's form."""
    form = step.form("passkey_session")
    data = [(k, v) for k, v in form.hidden().items() if k not in ("passkey_session", "passkey_response")]
    data += [("passkey_session", session), ("passkey_response", json.dumps(credential))]
    return browser.follow(browser.http.post(urljoin(step.response.url, html.unescape(form.action)), data=data,
                                            allow_redirects=False, timeout=HTTP_TIMEOUT))


def enrol(warden, browser: Browser, step: Step, device: Authenticator, factor: str = ROAMING) -> Step:
    """Answers "Add a security key" on `step` with `device`; returns the next step."""
    r = expect_status(options(browser, step, "passkey-enroll"), 200)
    body = json_of(r)
    created = body["authn_params_public_key"]
    selection = created["authenticatorSelection"]
    assert selection["authenticatorAttachment"] == ("platform" if factor == PLATFORM else "cross-platform"), created
    assert selection["residentKey"] == "discouraged", created
    assert [p["alg"] for p in created["pubKeyCredParams"]] == [-8, -7, -257], created
    return answer(browser, step, body["auth_session"], device.create(created))


def use_key(browser: Browser, step: Step, device: Authenticator, **tamper) -> tuple[Step, dict]:
    """Answers "Use a security key" on `step`; returns the next step and the request options."""
    body = json_of(expect_status(options(browser, step, "passkey"), 200))
    request = body["authn_params_public_key"]
    return answer(browser, step, body["auth_session"], device.get(request, **tamper)), request


def enrolled_user(warden, app, device: Authenticator, factor: str = ROAMING) -> None:
    """Signs `app`'s user in once, enrolling `device` as their key (and saving the recovery code when shown)."""
    browser = Browser(warden)
    step = sign_in(browser, app)
    assert step.path.endswith("/u/mfa/webauthn-enroll"), step.response.url
    done = enrol(warden, browser, step, device, factor)
    if done.callback is None:  # with the recovery-code factor on, the new code is shown once first
        assert "recovery code" in done.page.text.lower(), done.response.text[:400]
        done = browser.submit(done)
    assert done.callback and "code" in done.callback, describe(done.response)


def at_the_key_step(warden, app, device: Authenticator) -> tuple[Browser, Step]:
    """Enrols `device` for `app`'s user, then starts a new login, which stops at "Use a security key"."""
    enrolled_user(warden, app, device)
    browser = Browser(warden)
    step = sign_in(browser, app)
    assert step.path.endswith("/u/mfa/webauthn"), step.response.url
    return browser, step


def methods(warden, user_id: str) -> list[dict]:
    return json_of(expect_status(warden.mgmt("GET", f"users/{user_id}/authentication-methods"), 200))


def expect_mfa(warden, browser: Browser, app: dict, step: Step) -> None:
    assert step.callback and "code" in step.callback, f"not at the callback: {step.response.url}"
    tokens = browser.exchange(app["client_id"], step.callback["code"])
    claims = claims_of(warden, tokens["id_token"])
    assert claims["amr"] == ["pwd", "mfa"], claims


# ------------------------------------------------------------------------------------------------ enrolment
def test_a_security_key_is_added_at_sign_in_then_asked_for(warden, app):
    device = key(warden)
    with mfa_settings(warden, policy=["all-applications"], factors=(ROAMING, "recovery-code")):
        enrolled_user(warden, app, device)
        user_id = app["user"].user_id
        listed = methods(warden, user_id)
        assert "recovery-code" in [m["type"] for m in listed], "the recovery code was issued with the key"
        (method,) = [m for m in listed if m["type"] != "recovery-code"]
        assert method["type"] == ROAMING and method["name"] == "Security key", method
        assert method["relying_party_identifier"] == "127.0.0.1", method
        wait_for_log(warden, "gd_enrollment_complete", user_id)

        browser = Browser(warden)
        step = sign_in(browser, app)
        assert step.path.endswith("/u/mfa/webauthn"), step.response.url
        assert "Use a security key" in step.response.text and "<noscript>" in step.response.text
        done, request = use_key(browser, step, device, user_handle=None)
        assert [c["id"] for c in request["allowCredentials"]] == [method["key_id"]], request
        assert request["userVerification"] == "preferred" and request["rpId"] == "127.0.0.1", request
        expect_mfa(warden, browser, app, done)
        (used,) = [m for m in methods(warden, user_id) if m["type"] == ROAMING]
        assert "last_auth_at" in used, used


def test_the_enrolment_page_offers_a_security_key_beside_the_qr_code(warden, app):
    with mfa_settings(warden, policy=["all-applications"], factors=("otp", ROAMING, PLATFORM)):
        browser = Browser(warden)
        step = sign_in(browser, app)
        assert step.path.endswith("/u/mfa/enroll") and "<svg" in step.response.text, step.response.url
        links = {html.unescape(t): html.unescape(h) for h, t in re.findall(r'<a href="([^"]+)">([^<]+)</a>', step.response.text)}
        assert links["Add a security key"].endswith("&factor=webauthn-roaming"), links
        platform = links["Use this device's fingerprint, face or screen lock"]
        assert platform.endswith("&factor=webauthn-platform"), links
        page = browser.follow(browser.http.get(urljoin(step.response.url, platform), allow_redirects=False,
                                               timeout=HTTP_TIMEOUT))
        assert page.response.status_code == 200 and "Use this device" in page.response.text
        assert "Use an authenticator app instead" in page.response.text
        done = enrol(warden, browser, page, key(warden), PLATFORM)
        assert done.callback, describe(done.response)  # no recovery code factor: the login ends at once
        (method,) = [m for m in methods(warden, app["user"].user_id) if m["type"].startswith("webauthn")]
        assert method["type"] == PLATFORM, method
        # the next sign-in asks for the key
        again = sign_in(Browser(warden), app)
        assert again.path.endswith("/u/mfa/webauthn"), again.response.url


# ------------------------------------------------------------------------------------------------ the checks
TAMPERED = [
    ("challenge", {"challenge": "AAAA"}),
    ("origin", {"origin": "https://evil.example"}),
    ("type", {"type": "webauthn.create"}),
    ("cross_origin", {"cross_origin": True}),
    ("rp_id_hash", {"rp_id_hash": bytes(32)}),
    ("user_present", {"flags": 0}),
    ("signature", {"signature": True}),
    ("sign_count", {"sign_count": 5}),
    ("user_handle", {"user_handle": b"auth0|someone-else"}),
]


@pytest.mark.parametrize("name,tamper", TAMPERED, ids=[t[0] for t in TAMPERED])
def test_each_tampered_assertion_is_refused_and_logged(warden, app, name, tamper):
    device = key(warden)
    with mfa_settings(warden, policy=["all-applications"], factors=(ROAMING,)):
        browser, step = at_the_key_step(warden, app, device)
        if name == "sign_count":  # a stored count of 5 first: a count that does not grow is refused
            device.credentials[-1].sign_count = 4
            expect_mfa(warden, browser, app, use_key(browser, step, device)[0])
            browser = Browser(warden)
            step = sign_in(browser, app)
        refused, _ = use_key(browser, step, device, **tamper)
        assert refused.response.status_code == 400 and refused.callback is None, describe(refused.response)
        assert "security key was not accepted" in refused.page.text, refused.page.text
        wait_for_log(warden, "gd_webauthn_challenge_failed", app["user"].user_id)
        # the page stays usable: the right answer still signs in
        device.credentials[-1].sign_count += 10
        done, _ = use_key(browser, refused, device)
        expect_mfa(warden, browser, app, done)


def test_a_challenge_is_single_use_and_bound_to_its_login(warden, app):
    device = key(warden)
    with mfa_settings(warden, policy=["all-applications"], factors=(ROAMING,)):
        browser, step = at_the_key_step(warden, app, device)
        body = json_of(expect_status(options(browser, step, "passkey"), 200))
        request, session = body["authn_params_public_key"], body["auth_session"]
        # another login (another browser) cannot use this login's challenge
        thief = Browser(warden)
        stolen = answer(thief, sign_in(thief, app), session, device.get(request))
        assert stolen.response.status_code == 400 and stolen.callback is None, describe(stolen.response)
        # the challenge was spent by that attempt: the right answer with it is refused too
        spent = answer(browser, step, session, device.get(request))
        assert spent.response.status_code == 400 and spent.callback is None, describe(spent.response)
        done, _ = use_key(browser, spent, device)
        expect_mfa(warden, browser, app, done)


def test_another_users_key_is_refused(warden, app):
    mine, theirs = key(warden), key(warden)
    other = {**app, "user": create_user(warden)}
    with mfa_settings(warden, policy=["all-applications"], factors=(ROAMING,)):
        enrolled_user(warden, app, mine)
        enrolled_user(warden, other, theirs)
        browser = Browser(warden)
        step = sign_in(browser, app)
        refused, _ = use_key(browser, step, theirs, user_handle=None)
        assert refused.response.status_code == 400 and refused.callback is None, describe(refused.response)


def test_user_verification_required_by_the_settings_refuses_a_key_without_it(warden, app):
    device = key(warden)
    with mfa_settings(warden, policy=["all-applications"], factors=(ROAMING,)):
        enrolled_user(warden, app, device)
        with factor_settings(warden, ROAMING, userVerification="required"):
            browser = Browser(warden)
            step = sign_in(browser, app)
            refused, request = use_key(browser, step, device, flags=UP)
            assert request["userVerification"] == "required", request
            assert refused.response.status_code == 400, describe(refused.response)
        # preferred (the default) takes the same key without UV
        browser = Browser(warden)
        done, request = use_key(browser, sign_in(browser, app), device, flags=UP)
        assert request["userVerification"] == "preferred", request
        expect_mfa(warden, browser, app, done)


def test_a_password_alone_cannot_add_a_key_to_an_account_with_a_factor(warden, app):
    """An attacker with the password only, at the security key step of an enrolled user, may not enrol their own."""
    device = key(warden)
    with mfa_settings(warden, policy=["all-applications"], factors=(ROAMING,)):
        browser, step = at_the_key_step(warden, app, device)
        url = warden.url("u/mfa/webauthn-enroll") + "?state=" + step.state
        page = browser.http.get(url, allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert page.status_code == 400, describe(page)
        csrf = step.form("passkey_session").hidden()["csrf"]
        r = browser.http.post(warden.url("u/mfa/webauthn-enroll-options"), data={"state": step.state, "csrf": csrf},
                              allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert r.status_code == 400 and "authn_params_public_key" not in r.text, describe(r)
        assert len([m for m in methods(warden, app["user"].user_id) if m["type"] == ROAMING]) == 1


def test_the_options_need_the_csrf_token(warden, app):
    with mfa_settings(warden, policy=["all-applications"], factors=(ROAMING,)):
        browser = Browser(warden)
        step = sign_in(browser, app)
        r = options(browser, step, "passkey-enroll", csrf="forged")
        assert r.status_code == 403 and "authn_params_public_key" not in r.text, describe(r)


def test_resetting_authenticators_removes_security_keys_not_passkeys(warden, app):
    device = key(warden)
    with mfa_settings(warden, policy=["all-applications"], factors=(ROAMING,)):
        enrolled_user(warden, app, device)
        user_id = app["user"].user_id
        expect_status(warden.mgmt("DELETE", f"users/{user_id}/authenticators"), 204)
        assert not [m for m in methods(warden, user_id) if m["type"] == ROAMING]
        # with no key left the next sign-in enrols again
        step = sign_in(Browser(warden), app)
        assert step.path.endswith("/u/mfa/webauthn-enroll"), step.response.url


def test_a_turned_off_factor_is_not_asked(warden, app):
    device = key(warden)
    with mfa_settings(warden, policy=["all-applications"], factors=(ROAMING,)):
        enrolled_user(warden, app, device)
    with mfa_settings(warden, policy=["all-applications"], factors=("otp",)):
        browser = Browser(warden)
        step = sign_in(browser, app)
        assert step.path.endswith("/u/mfa/enroll"), step.response.url
        assert "Add a security key" not in step.response.text
        key_page = browser.get(step, "webauthn")
        assert key_page.path.endswith("/u/mfa/otp"), key_page.response.url
