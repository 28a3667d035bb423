"""The terminal authenticator as the second factor of the hosted login (SPEC §12 "Devices"), in a pseudo-terminal:
`warden authenticator listen` shows a sign-in push as "Sign in to {client} from {browser} on {os}…?" and `y`
approves it, so the waiting page continues and the tokens carry `amr` `pwd`+`mfa`; `n` ends the sign-in with
`access_denied`; `warden authenticator code` prints a code that the login's code page accepts.
"""

from __future__ import annotations

import re
import sys

import pexpect
import pytest

from mfalib import Browser, mfa_settings
from pkcelib import create_public_client, create_user, fake_callback
from terminallib import PROMPT, Device, authenticator, spawn, ticket_url
from test_mfa import claims_of
from wardenlib import default_binary, own_node


@pytest.fixture(scope="module")
def node(request):
    with own_node(binary=default_binary(), mgmt_client_id="mfa-terminal", prefix="warden-mfa-terminal-") as started:
        failed_before = request.session.testsfailed
        yield started
        if request.session.testsfailed > failed_before:
            sys.stderr.write(f"\n{started.output_tail(120)}\n")


@pytest.fixture
def setup(node, tmp_path):
    redirect_uri = fake_callback()
    client = create_public_client(node, [redirect_uri], name="Terminal MFA App")
    user = create_user(node)
    home = str(tmp_path / "authenticator")
    device = Device(home=home, enroll_output=authenticator(node, home, "enroll", ticket_url(node, user.user_id)).stdout)
    return client, redirect_uri, user, device


def sign_in(node, client, redirect_uri, user):
    browser = Browser(node)
    return browser, browser.sign_in(client["client_id"], redirect_uri, user.email, user.password)


@pytest.mark.parametrize("key, outcome", [("y", "Approved."), ("n", "Denied.")])
def test_listen_answers_a_sign_in_push(node, setup, key, outcome):
    client, redirect_uri, user, device = setup
    with mfa_settings(node, policy=["all-applications"]):
        browser, step = sign_in(node, client, redirect_uri, user)
        assert step.path.endswith("/u/mfa/push"), step.response.url
        listen = spawn(node, device, "listen", "--once")
        try:
            listen.expect(r"Sign in to " + re.escape(client["name"]) + r" from Chrome on Linux\?")
            listen.expect_exact(PROMPT)
            listen.sendline(key)
            listen.expect_exact(outcome)
            listen.expect(pexpect.EOF)
        finally:
            listen.close(force=True)
        answer = browser.reload(step)
        if key == "y":
            assert answer.callback and "code" in answer.callback, answer.response.url
            tokens = browser.exchange(client["client_id"], answer.callback["code"])
            assert claims_of(node, tokens["id_token"])["amr"] == ["pwd", "mfa"]
        else:
            assert answer.callback == {"error": "access_denied", "error_description": "MFA Authorization rejected.",
                                       "state": "st"}, answer.callback


def test_the_code_it_prints_is_accepted_by_the_login_page(node, setup):
    client, redirect_uri, user, device = setup
    with mfa_settings(node, policy=["all-applications"]):
        browser, step = sign_in(node, client, redirect_uri, user)
        code_page = browser.get(step, "otp")
        code = authenticator(node, device, "code", "--account", user.user_id, "--plain").stdout.strip()
        assert re.fullmatch(r"\d{6}", code), code
        done = browser.submit(code_page, "code", code)
        assert done.callback and "code" in done.callback, (done.response.status_code, done.page.text)
        tokens = browser.exchange(client["client_id"], done.callback["code"])
        assert claims_of(node, tokens["access_token"])["amr"] == ["pwd", "mfa"]
