"""SPEC §17 "Hosted pages" in a real browser: Debian's chromium with the WebDriver virtual authenticator. The node's
issuer is `http://localhost:PORT/` (an IP address is not a valid RP ID). A passkey made through the native API with
the suite's software authenticator is handed to Chromium's virtual authenticator (its private key and user handle),
then "Sign in with a passkey" on the login page signs the person in with `amr` `phr` and `mfa`; a virtual
authenticator that does not verify the user is refused, and the password form keeps working beside it."""

from __future__ import annotations

import os
import shutil
import tempfile
from urllib.parse import parse_qs, urlsplit

import pytest
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat

from pkcelib import authorize_url, code_exchange, create_public_client, new_verifier
from test_browser_login import browser, page_wait  # noqa: F401  (browser is a fixture)
from test_passkeys_native import CONNECTION, GRANT, sign_up
from wardenlib import Warden, expect_status, free_port, json_of, uid, verify_jwt
from webauthnlib import Authenticator


@pytest.fixture(scope="module")
def localhost_node(warden):
    """A node of its own (SQLite, or the suite's PostgreSQL database) at `http://localhost:PORT/`, passkeys on."""
    workdir = tempfile.mkdtemp(prefix="warden-interop-passkeys-")
    shared = warden.database_url.startswith(("postgres://", "postgresql://"))
    port = free_port()
    node = Warden(binary=warden.binary, workdir=workdir, port=port, issuer=f"http://localhost:{port}/",
                  database_url=warden.database_url if shared else f"sqlite:{workdir}/passkeys.sqlite",
                  mgmt_client_id=warden.mgmt_client_id, mgmt_client_secret=warden.mgmt_client_secret,
                  pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"), env={"WARDEN_TRUSTED_PROXIES": "127.0.0.1/32"})
    node.start()
    connection = None
    try:
        node.wait_ready(timeout=30)
        connection = json_of(expect_status(node.mgmt("GET", "connections?name=" + CONNECTION), 200))[0]
        options = {**connection["options"], "authentication_methods": {"passkey": {"enabled": True}},
                   "passkey_options": {"challenge_ui": "both"}}
        expect_status(node.mgmt("PATCH", f"connections/{connection['id']}", json={"options": options}), 200)
        yield node
    finally:
        if connection is not None:
            node.mgmt("PATCH", f"connections/{connection['id']}", json={"options": connection["options"]})
        node.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def virtual_authenticator(browser, *, user_verified: bool = True, security_key: bool = False):  # noqa: F811
    """Chromium's virtual authenticator: the platform's (internal, discoverable credentials), or a USB security
    key."""
    from selenium.webdriver.common.virtual_authenticator import VirtualAuthenticatorOptions

    options = VirtualAuthenticatorOptions()
    options.protocol = VirtualAuthenticatorOptions.Protocol.CTAP2
    options.transport = (VirtualAuthenticatorOptions.Transport.USB if security_key
                         else VirtualAuthenticatorOptions.Transport.INTERNAL)
    options.has_resident_key = not security_key
    options.has_user_verification = True
    options.is_user_verified = user_verified
    options.is_user_consenting = True
    browser.add_virtual_authenticator(options)


def enrolled_in_chromium(browser, node) -> tuple[str, dict]:  # noqa: F811
    """A passkey signed up through the native API, then put into Chromium's virtual authenticator: its `sub`."""
    from selenium.webdriver.common.virtual_authenticator import Credential

    app = node.create_client(app_type="native", token_endpoint_auth_method="none", callbacks=[],
                             grant_types=[GRANT])
    device = Authenticator(rp_id="localhost", origin=node.issuer.rstrip("/"))
    _, response = sign_up(node, app, device)
    tokens = json_of(expect_status(response, 200))
    sub = verify_jwt(tokens["id_token"], node.jwks(), ["RS256"])[1]["sub"]
    credential = device.credentials[-1]
    key = credential.key.private.private_bytes(Encoding.DER, PrivateFormat.PKCS8, NoEncryption())
    browser.add_credential(Credential.create_resident_credential(
        id=credential.id, rp_id="localhost", user_handle=credential.user_handle,
        private_key=key, sign_count=credential.sign_count))
    return sub


def challenge_ui(node, mode: str) -> None:
    """Sets `passkey_options.challenge_ui` (SPEC §17): how the login page asks."""
    connection = json_of(expect_status(node.mgmt("GET", "connections?name=" + CONNECTION), 200))[0]
    options = {**connection["options"], "passkey_options": {"challenge_ui": mode}}
    expect_status(node.mgmt("PATCH", f"connections/{connection['id']}", json={"options": options}), 200)


def open_login(browser, node) -> tuple[str, str, str, dict]:  # noqa: F811
    callback = node.url("demo/callback").replace("127.0.0.1", "localhost")
    client = create_public_client(node, [callback], name="Passkey web app")
    verifier, state = new_verifier(), f"pk-{uid()}"
    url = authorize_url(node, client["client_id"], callback, verifier=verifier, state=state)
    browser.get(url.replace("127.0.0.1", "localhost"))
    return callback, verifier, state, client


@pytest.mark.parametrize("mode", ["button", "autofill"])
def test_sign_in_with_a_passkey_in_chromium(browser, localhost_node, mode):  # noqa: F811
    """`button`: "Sign in with a passkey" asks for a discoverable credential. `autofill`: no button; the e-mail field
    says `username webauthn` and a conditional request starts on load, which the virtual authenticator answers
    as a person picking the passkey from the field's suggestions would."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    challenge_ui(localhost_node, mode)
    virtual_authenticator(browser)
    sub = enrolled_in_chromium(browser, localhost_node)
    callback, verifier, state, client = open_login(browser, localhost_node)
    wait = page_wait(browser)
    if mode == "button":
        username = wait.until(ec.visibility_of_element_located((By.NAME, "username")))
        assert username.get_attribute("autocomplete") == "username"
        wait.until(ec.element_to_be_clickable((By.ID, "passkey-button"))).click()
    wait.until(lambda d: d.current_url.startswith(callback))
    params = {k: v[0] for k, v in parse_qs(urlsplit(browser.current_url).query).items()}
    assert params.get("state") == state and params.get("code"), browser.current_url
    r = code_exchange(localhost_node, client["client_id"], params["code"], verifier, callback)
    tokens = json_of(expect_status(r, 200))
    claims = verify_jwt(tokens["id_token"], localhost_node.jwks(), ["RS256"])[1]
    assert claims["sub"] == sub and claims["amr"] == ["phr", "mfa"], claims


def test_a_passkey_without_user_verification_signs_no_one_in(browser, localhost_node):  # noqa: F811
    """The options require user verification: an authenticator that cannot verify the user gets no credential from
    Chromium, and the login page stays, its password form working."""
    import time

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    challenge_ui(localhost_node, "button")
    virtual_authenticator(browser, user_verified=False)
    enrolled_in_chromium(browser, localhost_node)
    callback, verifier, state, client = open_login(browser, localhost_node)
    wait = page_wait(browser)
    wait.until(ec.element_to_be_clickable((By.ID, "passkey-button"))).click()
    time.sleep(3)
    assert urlsplit(browser.current_url).path == "/authorize" or "/u/login" in browser.current_url, \
        browser.current_url
    assert not browser.current_url.startswith(callback)
    browser.find_element(By.NAME, "password").is_displayed()


def test_sign_up_with_a_passkey_in_chromium(browser, localhost_node):  # noqa: F811
    """`/u/signup` offers "Create a passkey instead": the address typed, the browser's authenticator makes a
    discoverable, user-verified credential, and the login continues as the new account — no password, `amr` `phr`
    and `mfa`, the passkey listed by the Management API."""
    from urllib.parse import quote

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    virtual_authenticator(browser)
    callback = localhost_node.url("demo/callback").replace("127.0.0.1", "localhost")
    client = create_public_client(localhost_node, [callback], name="Passkey sign-up app")
    verifier, state = new_verifier(), f"ps-{uid()}"
    url = authorize_url(localhost_node, client["client_id"], callback, verifier=verifier, state=state,
                        screen_hint="signup")
    browser.get(url.replace("127.0.0.1", "localhost"))
    wait = page_wait(browser)
    email = f"passkey-signup-{uid()}@interop.test"
    wait.until(ec.visibility_of_element_located((By.ID, "email"))).send_keys(email)
    wait.until(ec.element_to_be_clickable((By.ID, "passkey-create"))).click()
    wait.until(lambda d: d.current_url.startswith(callback))
    params = {k: v[0] for k, v in parse_qs(urlsplit(browser.current_url).query).items()}
    assert params.get("state") == state and params.get("code"), browser.current_url
    r = code_exchange(localhost_node, client["client_id"], params["code"], verifier, callback)
    claims = verify_jwt(json_of(expect_status(r, 200))["id_token"], localhost_node.jwks(), ["RS256"])[1]
    assert claims["amr"] == ["phr", "mfa"], claims
    user = json_of(expect_status(localhost_node.mgmt("GET", f"users/{quote(claims['sub'], safe='')}"), 200))
    assert user["email"] == email and user["email_verified"] is False, user
    methods = json_of(expect_status(localhost_node.mgmt(
        "GET", f"users/{quote(claims['sub'], safe='')}/authentication-methods"), 200))
    assert [m["type"] for m in methods] == ["passkey"] and methods[0]["relying_party_identifier"] == "localhost"


def test_passkey_sign_up_with_an_address_in_use_says_nothing_more(browser, localhost_node):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    from pkcelib import create_user

    virtual_authenticator(browser)
    taken = create_user(localhost_node)
    callback = localhost_node.url("demo/callback").replace("127.0.0.1", "localhost")
    client = create_public_client(localhost_node, [callback])
    url = authorize_url(localhost_node, client["client_id"], callback, verifier=new_verifier(), state=uid(),
                        screen_hint="signup")
    browser.get(url.replace("127.0.0.1", "localhost"))
    wait = page_wait(browser)
    wait.until(ec.visibility_of_element_located((By.ID, "email"))).send_keys(taken.email)
    wait.until(ec.element_to_be_clickable((By.ID, "passkey-create"))).click()
    message = wait.until(ec.visibility_of_element_located((By.ID, "passkey-message")))
    assert message.text == "Something went wrong, please try again later.", message.text
    assert "/u/signup" in browser.current_url


def password_login(browser, node, user, callback: str, client: dict, **extra) -> str:  # noqa: F811
    """Types the password on the login page; returns the PKCE verifier of the authorization request."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    verifier = new_verifier()
    url = authorize_url(node, client["client_id"], callback, verifier=verifier, state=uid(), **extra)
    browser.get(url.replace("127.0.0.1", "localhost"))
    wait = page_wait(browser)
    wait.until(ec.visibility_of_element_located((By.NAME, "username"))).send_keys(user.email)
    browser.find_element(By.NAME, "password").send_keys(user.password)
    browser.find_element(By.CSS_SELECTOR, "form[action$='/u/login'] button[type=submit]").click()
    return verifier


def to_the_offer(browser, node):  # noqa: F811
    """A new user's password login in `browser`, up to the offer of a passkey: the user, the callback, the client."""
    from pkcelib import create_user

    challenge_ui(node, "button")
    user = create_user(node)
    callback = node.url("demo/callback").replace("127.0.0.1", "localhost")
    client = create_public_client(node, [callback])
    password_login(browser, node, user, callback, client)
    page_wait(browser).until(lambda d: "/u/passkey/enroll" in d.current_url)
    return user, callback, client


def test_progressive_enrolment_after_a_password_login_in_chromium(browser, localhost_node):  # noqa: F811
    """After a password login, "Create a passkey" makes one for the account (the login then goes on to the
    application); the passkey then signs in alone."""
    from urllib.parse import quote

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    virtual_authenticator(browser)
    user, callback, client = to_the_offer(browser, localhost_node)
    wait = page_wait(browser)
    wait.until(ec.element_to_be_clickable((By.ID, "passkey-add"))).click()
    wait.until(lambda d: d.current_url.startswith(callback))
    methods = json_of(expect_status(localhost_node.mgmt(
        "GET", f"users/{quote(user.user_id, safe='')}/authentication-methods"), 200))
    assert [m["type"] for m in methods] == ["passkey"], methods
    browser.delete_all_cookies()
    _, _, state, _ = open_login(browser, localhost_node)
    wait.until(ec.element_to_be_clickable((By.ID, "passkey-button"))).click()
    wait.until(lambda d: d.current_url.startswith(callback) and state in d.current_url)


def test_not_now_is_not_asked_again_in_that_browser(browser, localhost_node):  # noqa: F811
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    user, callback, client = to_the_offer(browser, localhost_node)
    wait = page_wait(browser)
    # "Not now" is a plain form: no script needed.
    wait.until(ec.element_to_be_clickable((By.CSS_SELECTOR, "button[value=later]"))).click()
    wait.until(lambda d: d.current_url.startswith(callback))
    password_login(browser, localhost_node, user, callback, client, prompt="login")
    wait.until(lambda d: d.current_url.startswith(callback) or "/u/passkey/enroll" in d.current_url)
    assert browser.current_url.startswith(callback), browser.current_url


def test_a_security_key_as_second_factor_in_chromium(browser, localhost_node):  # noqa: F811
    """SPEC §17 "Second factor": with `webauthn-roaming` on and MFA always asked, a new user's password login shows
    "Add a security key"; the USB key Chromium emulates is added and the login ends with `amr` `pwd`, `mfa`; the
    next login asks "Use a security key", which the same key answers."""
    from urllib.parse import quote

    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec

    from mfalib import mfa_settings
    from pkcelib import create_user

    virtual_authenticator(browser, security_key=True)
    user = create_user(localhost_node)
    callback = localhost_node.url("demo/callback").replace("127.0.0.1", "localhost")
    client = create_public_client(localhost_node, [callback])
    wait = page_wait(browser)
    with mfa_settings(localhost_node, policy=["all-applications"], factors=("webauthn-roaming",)):
        password_login(browser, localhost_node, user, callback, client)
        wait.until(lambda d: "/u/mfa/webauthn-enroll" in d.current_url)
        wait.until(ec.element_to_be_clickable((By.ID, "passkey-add"))).click()
        wait.until(lambda d: d.current_url.startswith(callback))
        methods = json_of(expect_status(localhost_node.mgmt(
            "GET", f"users/{quote(user.user_id, safe='')}/authentication-methods"), 200))
        assert [(m["type"], m["name"]) for m in methods] == [("webauthn-roaming", "Security key")], methods
        assert methods[0]["transports"] == ["usb"], methods

        browser.delete_all_cookies()
        verifier = password_login(browser, localhost_node, user, callback, client)
        wait.until(lambda d: "/u/mfa/webauthn?" in d.current_url)
        wait.until(ec.element_to_be_clickable((By.ID, "passkey-button"))).click()
        wait.until(lambda d: d.current_url.startswith(callback))
        params = {k: v[0] for k, v in parse_qs(urlsplit(browser.current_url).query).items()}
        tokens = json_of(expect_status(
            code_exchange(localhost_node, client["client_id"], params["code"], verifier, callback), 200))
        claims = verify_jwt(tokens["id_token"], localhost_node.jwks(), ["RS256"])[1]
        assert claims["sub"] == user.user_id and claims["amr"] == ["pwd", "mfa"], claims
