"""SPEC §1 `warden authenticator`, §7: the terminal as an authenticator device, driven through a pseudo-terminal
with pexpect. A user gets an enrolment ticket from the Management API; `warden authenticator enroll TICKET_URL`
enrols a STREAM device in a temp WARDEN_AUTHENTICATOR_HOME; `listen` shows a CIBA request started with
auth0-python (requested_expiry ≤ 300: the push channel, SPEC §6.1) — binding message and money transfer — and
asks `Approve? [y/n]`; the answer decides what the client's poll returns. `code` prints the enrolment's TOTP
code (SPEC §12 `otp`), checked against pyotp."""

from __future__ import annotations

import html
import json
import os
import re
import stat
import subprocess
import time
from urllib.parse import parse_qs, urlsplit

import pexpect
import pyotp
import pytest
import requests
from auth0.authentication.exceptions import Auth0Error

from cibalib import CibaApp, binding_message, check_tokens, ciba_app, transfer_details
from guardianlib import NOTIFICATION_CATEGORY
from terminallib import (TIMEOUT, Device, authenticator, device_env, enrol, expect_request, poll, spawn, start_ciba,
                         ticket_url)
from wardenlib import HTTP_TIMEOUT, default_binary, free_port, uid, wait_until


def answer_once(warden, app, device, details: list[dict], creditor: str, key: str, outcome: str) -> str:
    """`listen --once` in a pseudo-terminal: a request started with auth0-python is shown, `key` answers it, the
    terminal says `outcome` and exits 0. Returns the auth_req_id."""
    message = binding_message()
    listen = spawn(warden, device, "listen", "--once")
    try:
        listen.expect_exact("Listening for requests")
        auth_req_id = start_ciba(warden, app, message, details)
        expect_request(listen, app, message, creditor)
        listen.sendline(key)
        listen.expect_exact(outcome)
        listen.expect(pexpect.EOF)
    finally:
        listen.close(force=True)
    assert listen.exitstatus == 0, listen.before
    return auth_req_id


@pytest.fixture
def app(warden) -> CibaApp:
    return ciba_app(warden)


def test_enroll_prints_the_enrolment_and_keeps_the_key_private(warden, app, tmp_path):
    device = enrol(warden, app, tmp_path)
    out = device.enroll_output
    assert "Enrolled this terminal" in out, out
    assert app.user.user_id in out and warden.issuer in out, out
    assert re.search(r"Device:\s+dev_\S+", out), out
    assert "warden authenticator listen" in out, out
    assert stat.S_IMODE(os.stat(device.home).st_mode) == 0o700
    files = os.listdir(device.home)
    assert {f.rsplit(".", 1)[1] for f in files} == {"json", "pem"}, files
    for name in files:
        assert stat.S_IMODE(os.stat(os.path.join(device.home, name)).st_mode) == 0o600, name

    # the listing shows the enrolment, with nothing pending yet
    listing = authenticator(warden, device, "list").stdout
    assert app.user.user_id in listing and "no pending request" in listing, listing


def test_a_used_ticket_is_one_clear_error_line(warden, app, tmp_path):
    url = ticket_url(warden, app.user.user_id)
    authenticator(warden, str(tmp_path / "first"), "enroll", url)
    again = authenticator(warden, str(tmp_path / "second"), "enroll", url, check=False)
    assert again.returncode != 0
    lines = again.stderr.strip().splitlines()
    assert len(lines) == 1 and "ticket is unknown, used or expired" in lines[0], again.stderr


def test_listen_shows_the_transfer_and_y_approves_it(warden, app, tmp_path):
    device = enrol(warden, app, tmp_path)
    creditor = f"Merchant {uid()[:6]}"
    details = transfer_details(creditor=creditor)
    auth_req_id = answer_once(warden, app, device, details, creditor, "y", "Approved.")
    check_tokens(warden, app, poll(warden, app, auth_req_id), details=details)


def test_listen_n_denies_it(warden, app, tmp_path):
    device = enrol(warden, app, tmp_path)
    creditor = f"Merchant {uid()[:6]}"
    auth_req_id = answer_once(warden, app, device, transfer_details(creditor=creditor), creditor, "n", "Denied.")
    with pytest.raises(Auth0Error) as denied:
        poll(warden, app, auth_req_id)
    assert (denied.value.status_code, denied.value.error_code) == (400, "access_denied"), vars(denied.value)


def test_a_request_answered_on_another_device_is_skipped_and_ctrl_c_stops(warden, app, tmp_path):
    """Two terminals of one user: the second approves with `approve` while the first still asks; the first's
    answer is then refused (login_transaction_not_found) in one line, and it keeps listening until Ctrl-C."""
    first, second = enrol(warden, app, tmp_path, "first"), enrol(warden, app, tmp_path, "second")
    creditor = f"Merchant {uid()[:6]}"
    details = transfer_details(creditor=creditor)
    message = binding_message()
    listen = spawn(warden, first, "listen")
    try:
        listen.expect_exact("Listening for requests")
        auth_req_id = start_ciba(warden, app, message, details)
        expect_request(listen, app, message, creditor)

        listing = authenticator(warden, second, "list").stdout
        consent_id = re.search(r"\b(cns_\S+)\s+started .*" + re.escape(message), listing)
        assert consent_id, listing
        approved = authenticator(warden, second, "approve", consent_id.group(1)).stdout
        assert message in approved and "Approved." in approved, approved

        listen.sendline("y")
        listen.expect_exact("already answered")
        assert listen.isalive()
        listen.sendintr()
        listen.expect_exact("Stopped listening.")
        listen.expect(pexpect.EOF)
    finally:
        listen.close(force=True)
    assert listen.exitstatus == 0, listen.before

    check_tokens(warden, app, poll(warden, app, auth_req_id), details=details)


def test_deny_answers_the_only_pending_request_with_a_reason(warden, app, tmp_path):
    device = enrol(warden, app, tmp_path)
    message = binding_message()
    auth_req_id = start_ciba(warden, app, message, transfer_details())
    denied = authenticator(warden, device, "deny", "--reason", "not me")
    assert message in denied.stdout and "Denied." in denied.stdout, denied.stdout

    nothing = authenticator(warden, device, "approve", check=False)
    assert nothing.returncode != 0 and nothing.stderr.strip() == "Error: no pending request", nothing.stderr
    with pytest.raises(Auth0Error) as refused:
        poll(warden, app, auth_req_id)
    assert refused.value.error_code == "access_denied", vars(refused.value)


def test_approve_and_deny_take_the_transaction_from_a_push_payload(warden, app, tmp_path):
    """`--notification` accepts what each push channel delivers (SPEC §7.2): an APNs userInfo (from a file), an
    FCM data map (string values, on the command line) and a webhook/stream body (on standard input)."""
    device = enrol(warden, app, tmp_path)
    messages = {shape: binding_message() for shape in ("apns", "fcm", "webhook")}
    auth_req_ids = {shape: start_ciba(warden, app, message, transfer_details()) for shape, message in messages.items()}
    pending = {t["txlnkid"]: t for t in device.pending(warden)}
    listing = authenticator(warden, device, "list").stdout
    fields = {}
    for shape, message in messages.items():
        listed = re.search(r"\b(cns_\S+)\s+started .*" + re.escape(message), listing)
        assert listed and listed.group(1) in pending, listing
        fields[shape] = pending[listed.group(1)]

    def aps(shape: str) -> dict:
        return {"alert": {"title": app.client["name"], "body": messages[shape]}, "category": NOTIFICATION_CATEGORY,
                "sound": "default"}

    apns = tmp_path / "apns.json"
    apns.write_text(json.dumps({"aps": aps("apns"), "mfa": fields["apns"]}))
    approved = authenticator(warden, device, "approve", "--notification", f"@{apns}").stdout
    assert f"Request from {app.client['name']}" in approved and messages["apns"] in approved, approved
    assert approved.rstrip().endswith("Approved."), approved
    check_tokens(warden, app, poll(warden, app, auth_req_ids["apns"]), details=transfer_details())

    data = {k: v if isinstance(v, str) else json.dumps(v) for k, v in fields["fcm"].items()}
    denied = authenticator(warden, device, "deny", "--reason", "not me", "--notification", json.dumps(data)).stdout
    assert messages["fcm"] in denied and denied.rstrip().endswith("Denied."), denied
    with pytest.raises(Auth0Error) as refused:
        poll(warden, app, auth_req_ids["fcm"])
    assert refused.value.error_code == "access_denied", vars(refused.value)

    enrollment = device.enrollment()
    body = {"aps": aps("webhook"), "mfa": fields["webhook"],
            "device": {"id": enrollment["id"], **enrollment["push_credentials"]}}
    result = subprocess.run([warden.binary, "authenticator", "approve", "--notification", "-"], input=json.dumps(body),
                            env=device_env(warden, device.home), capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 0 and result.stdout.rstrip().endswith("Approved."), result
    check_tokens(warden, app, poll(warden, app, auth_req_ids["webhook"]), details=transfer_details())

    # answered once: the same payload again is one error line
    again = authenticator(warden, device, "approve", "--notification", f"@{apns}", check=False)
    assert again.returncode != 0, again
    assert again.stderr.strip().splitlines() == \
        [f"Error: Request {fields['apns']['txlnkid']}: already answered (on this or another device)"], again.stderr


def otpauth_secret(url: str) -> str:
    """The TOTP secret of a ticket, as an authenticator app scans it: from the `otpauth://` URI its page shows under
    the QR code (SPEC §7.1)."""
    page = requests.get(url, timeout=HTTP_TIMEOUT)
    assert page.status_code == 200, page.text
    uri = html.unescape(re.search(r"<code>(otpauth://[^<]+)</code>", page.text).group(1))
    return parse_qs(urlsplit(uri).query)["secret"][0]


def test_code_prints_the_current_totp_of_the_enrolment_as_pyotp_computes_it(warden, app, tmp_path):
    """SPEC §12 `otp`: the enrolment keeps the §7.1 response's `totp`; `code` prints its current RFC 6238 code —
    the one pyotp computes from the ticket page's otpauth URI — in a terminal as `account (issuer)  123 456  (N s
    left)`, and with `--account ID --plain` as the bare digits."""
    url = ticket_url(warden, app.user.user_id)
    secret = otpauth_secret(url)
    home = str(tmp_path / "device" / "authenticator")
    device = Device(home=home, enroll_output=authenticator(warden, home, "enroll", url).stdout)
    stored = device.enrollment()
    assert stored["totp"] == {"secret": secret, "algorithm": "sha1", "digits": 6, "period": 30}, stored
    totp = pyotp.TOTP(secret)

    before = time.time()
    plain = authenticator(warden, device, "code", "--account", stored["id"], "--plain").stdout
    assert re.fullmatch(r"\d{6}\n", plain), plain
    assert plain.strip() in {totp.at(before), totp.at(time.time())}, plain

    before = time.time()
    shown = spawn(warden, device, "code")
    try:
        shown.expect(r"(\S+) \(Warden\)  (\d{3}) (\d{3})  \((\d+) s left\)")
        account, first, second, left = shown.match.groups()
        after = time.time()
        shown.expect(pexpect.EOF)
    finally:
        shown.close(force=True)
    assert shown.exitstatus == 0, shown.before
    assert account == app.user.user_id  # a ticket URL names no e-mail; the user id stands in
    assert first + second in {totp.at(before), totp.at(after)}
    assert 1 <= int(left) <= 30


def test_the_demo_prints_a_one_command_enrolment_for_alice(tmp_path):
    """SPEC §1 / issue: `serve --demo` enrols nothing itself but prints the command that enrols the terminal for
    alice; running it enrols a device of alice's."""
    port = free_port()
    stderr_path = tmp_path / "demo.stderr"
    with open(stderr_path, "wb") as err:
        server = subprocess.Popen([default_binary(), "serve", "--demo", "--port", str(port), "--database",
                                   f"sqlite:{tmp_path}/demo.sqlite"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
    try:
        line = wait_until(lambda: re.search(r"warden authenticator enroll '([^']+)'", stderr_path.read_text()),
                          timeout=30, what="the enrolment command in the quick start")
        alice = re.search(r"alice@example\.com / .*\(user_id (\S+)\)", stderr_path.read_text()).group(1)
        home = str(tmp_path / "alice-terminal")
        enrolled = subprocess.run([default_binary(), "authenticator", "enroll", line.group(1)], capture_output=True,
                                  text=True, timeout=TIMEOUT, env={**os.environ, "WARDEN_AUTHENTICATOR_HOME": home})
        assert enrolled.returncode == 0, enrolled.stderr
        assert alice in enrolled.stdout and "warden authenticator listen" in enrolled.stdout, enrolled.stdout
        assert "requested_expiry=300" in stderr_path.read_text()
    finally:
        server.terminate()
        server.wait(timeout=10)
