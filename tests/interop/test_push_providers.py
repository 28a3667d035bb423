"""SPEC §6.3, §7.2 end to end through APNs and FCM: the Warden node under test sends to WardenPushFake (an
HTTP/2-over-TLS APNs stand-in and an HTTPS FCM stand-in that check what those services require, trusted through
`--apns-ca-file` / `--fcm-ca-file`). auth0-python starts a CIBA request with a `money_transfer` detail; the push
the fake received is handed as it came to `warden authenticator approve --notification` — the WardenAuthenticator
SDK parses it, fetches the consent, decodes the typed MoneyTransfer and allows — and the client's poll returns
tokens carrying the same authorization_details. A token the provider calls dead disables that device's push; the
device still lists and answers the request."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import tempfile
from dataclasses import dataclass
from typing import Iterator

import pytest
import requests

from cibalib import binding_message, check_tokens, ciba_app, transfer_details
from guardianlib import WebhookReceiver, logs_of, push_node, wait_for_log
from mfalib import Browser, mfa_settings
from pkcelib import create_public_client, fake_callback
from terminallib import Device, authenticator, poll, start_ciba, ticket_url
from wardenlib import HTTP_TIMEOUT, default_binary, expect_status, free_port, json_of, uid, wait_until

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
APNS_KEY_ID, APNS_TEAM_ID, APNS_TOPIC = "KEY1234567", "TEAM123456", "com.example.warden-bank"
DEAD_APNS_TOKEN = "deadbeef" * 8


@dataclass
class Fakes:
    """The running WardenPushFake: its control API and the settings Warden needs to reach it."""

    control: str
    env: dict[str, str]

    def received(self, token: str) -> dict | None:
        """The first request the fake accepted for device `token`."""
        records = json_of(expect_status(requests.get(self.control + "received", timeout=HTTP_TIMEOUT), 200))
        return next((r for r in records if r["token"] == token), None)

    def rejected(self) -> list[dict]:
        return json_of(expect_status(requests.get(self.control + "rejected", timeout=HTTP_TIMEOUT), 200))


@pytest.fixture(scope="module")
def fakes() -> Iterator[Fakes]:
    directory = tempfile.mkdtemp(prefix="warden-push-fakes-")
    apns, fcm, control = free_port(), free_port(), free_port()
    subprocess.run([os.path.join(ROOT, "scripts", "test-support", "push-fake-certs"), directory, str(fcm)], check=True,
                   capture_output=True)
    path = lambda name: os.path.join(directory, name)  # noqa: E731
    binary = os.path.join(os.path.dirname(default_binary()), "WardenPushFake")
    process = subprocess.Popen(
        [binary, "--control-port", str(control), "--cert", path("server.pem"), "--key", path("server-key.pem"),
         "--apns-port", str(apns), "--apns-key-file", path("apns-key.p8"), "--apns-key-id", APNS_KEY_ID,
         "--apns-team-id", APNS_TEAM_ID, "--apns-topic", APNS_TOPIC, "--apns-unregistered", DEAD_APNS_TOKEN,
         "--fcm-port", str(fcm), "--fcm-service-account", path("fcm-service-account.json"), "--exit-on-stdin-eof"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout.readline().strip() == "ready"
        yield Fakes(control=f"http://127.0.0.1:{control}/", env={
            "WARDEN_APNS_KEY_FILE": path("apns-key.p8"), "WARDEN_APNS_KEY_ID": APNS_KEY_ID,
            "WARDEN_APNS_TEAM_ID": APNS_TEAM_ID, "WARDEN_APNS_TOPIC": APNS_TOPIC,
            "WARDEN_APNS_ENDPOINT": f"https://127.0.0.1:{apns}", "WARDEN_APNS_CA_FILE": path("ca.pem"),
            "WARDEN_FCM_SERVICE_ACCOUNT": path("fcm-service-account.json"),
            "WARDEN_FCM_ENDPOINT": f"https://127.0.0.1:{fcm}", "WARDEN_FCM_CA_FILE": path("ca.pem")})
    finally:
        process.stdin.close()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def node(fakes):
    with WebhookReceiver() as receiver, push_node(receiver, binary=default_binary(), mgmt_client_id="push-fakes-mgmt",
                                                   env=fakes.env) as started:
        yield started


def enrol(node, app, tmp_path, service: str, token: str) -> Device:
    """`warden authenticator enroll` registering the terminal as a device reached through `service`."""
    home = str(tmp_path / f"{service.lower()}-device")
    result = authenticator(node, home, "enroll", ticket_url(node, app.user.user_id), "--push-service", service,
                           "--push-token", token)
    return Device(home=home, enroll_output=result.stdout)


@pytest.mark.parametrize("service", ["APNS", "FCM"])
def test_a_push_through_the_provider_is_approved_with_the_sdk(node, fakes, tmp_path, service):
    app = ciba_app(node)
    token = secrets.token_hex(32)  # APNs device tokens are 32 bytes in hex
    device = enrol(node, app, tmp_path, service, token)
    creditor = f"Merchant {uid()[:6]}"
    details = transfer_details(amount="2500.00", creditor=creditor)
    message = binding_message()
    auth_req_id = start_ciba(node, app, message, details)

    record = wait_until(lambda: fakes.received(token), timeout=10, what=f"the {service} push")
    assert not [r for r in fakes.rejected() if token in json.dumps(r)], fakes.rejected()
    headers, body = record["headers"], record["body"]
    if service == "APNS":
        assert headers["apns-topic"] == APNS_TOPIC and headers["apns-push-type"] == "alert", headers
        assert headers["apns-priority"] == "10" and headers["authorization"].startswith("bearer "), headers
        assert body["aps"]["alert"]["body"] == message, body
        assert body["aps"]["category"] == "com.auth0.notification.authentication", body
        payload = body  # the userInfo an iOS app receives
        fields = body["mfa"]
    else:
        assert headers["authorization"].startswith("Bearer "), headers
        data = body["message"]["data"]
        assert all(isinstance(value, str) for value in data.values()), data
        payload = data  # the data map an Android app receives
        fields = data
    enrollment_id = device.enrollment()["id"]
    assert fields["dai"] == enrollment_id and fields["txlnkid"].startswith("cns_"), fields

    approved = authenticator(node, device, "approve", "--notification", json.dumps(payload)).stdout
    assert message in approved and "Approved." in approved, approved
    assert "2500.00 EUR" in approved and creditor in approved, approved  # the typed MoneyTransfer, rendered
    check_tokens(node, app, poll(node, app, auth_req_id), details=details)
    wait_for_log(node, "gd_send_pn", app.user.user_id)


def test_a_dead_apns_token_disables_push_but_the_device_still_answers(node, fakes, tmp_path):
    app = ciba_app(node)
    device = enrol(node, app, tmp_path, "APNS", DEAD_APNS_TOKEN)
    details = transfer_details()
    message = binding_message()
    auth_req_id = start_ciba(node, app, message, details)

    failure = wait_for_log(node, "gd_send_pn_failure", app.user.user_id, timeout=10)[0]
    assert "Unregistered" in failure["description"], failure
    enrollment_id = device.enrollment()["id"]

    def disabled() -> bool:
        r = node.mgmt("GET", f"users/{requests.utils.quote(app.user.user_id, safe='')}/enrollments")
        [enrollment] = [e for e in json_of(expect_status(r, 200)) if e["id"] == enrollment_id]
        return enrollment["push_disabled"] is True

    wait_until(disabled, timeout=5, what="push disabled for the dead token")
    approved = authenticator(node, device, "approve").stdout  # the only pending request, listed (SPEC §7.5)
    assert message in approved and "Approved." in approved, approved
    check_tokens(node, app, poll(node, app, auth_req_id), details=details)
    assert not logs_of(node, "gd_send_pn", app.user.user_id)


@pytest.mark.parametrize("service", ["APNS", "FCM"])
def test_a_sign_in_push_through_the_provider_is_approved_with_the_sdk(node, fakes, tmp_path, service):
    """SPEC §12: the sign-in push goes out through APNs and FCM too — no `txlnkid`, the browser as `s` (a JSON
    string in FCM's data), APNs alert "Warden: sign in" / "Sign in to {client}" — and the SDK approves it from the
    payload as the provider delivered it, without a consent; the waiting page then continues to the client."""
    app = ciba_app(node)
    token = secrets.token_hex(32)
    device = enrol(node, app, tmp_path, service, token)
    redirect_uri = fake_callback()
    client = create_public_client(node, [redirect_uri], name=f"Sign-in {service} app")
    with mfa_settings(node, policy=["all-applications"], factors=("push-notification",)):
        browser = Browser(node)
        step = browser.sign_in(client["client_id"], redirect_uri, app.user.email, app.user.password)
        assert step.path.endswith("/u/mfa/push"), step.response.url
        record = wait_until(lambda: fakes.received(token), timeout=10, what=f"the {service} sign-in push")
        body = record["body"]
        if service == "APNS":
            assert body["aps"]["alert"] == {"title": "Warden: sign in", "body": f"Sign in to {client['name']}"}, body
            payload, fields, source = body, body["mfa"], body["mfa"]["s"]
        else:
            payload = fields = body["message"]["data"]
            source = json.loads(fields["s"])
        assert "txlnkid" not in fields and source["b"]["n"] == "Chrome", fields
        approved = authenticator(node, device, "approve", "--notification", json.dumps(payload)).stdout
        assert "Approved." in approved, approved
        done = browser.reload(step)
        assert done.callback and "code" in done.callback, done.response.url
