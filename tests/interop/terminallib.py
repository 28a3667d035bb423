"""Driving `warden authenticator` (SPEC §1, §7) from tests: the device's store directory, running the command
with or without a pseudo-terminal, tickets, and push-channel CIBA requests started with auth0-python."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from dataclasses import dataclass

import pexpect
from auth0.authentication import GetToken
from auth0.authentication.back_channel_login import BackChannelLogin
from cryptography.hazmat.primitives.serialization import load_pem_private_key

from cibalib import SCOPE, CibaApp, login_hint
from guardianlib import DeviceKey
from wardenlib import HTTP_TIMEOUT, Warden, expect_status, json_of

PUSH_EXPIRY = 300  # ≤ 300: pushed to the user's enrolled devices
PROMPT = "Approve? [y/n]"
TIMEOUT = 30


@dataclass
class Device:
    """One enrolled terminal: its store directory and what `enroll` printed."""

    home: str
    enroll_output: str

    def enrollment(self) -> dict:
        """The stored enrolment record (the SDK's FileKeyStore: `{id}.json` next to `{id}.pem`)."""
        [name] = [f for f in os.listdir(self.home) if f.endswith(".json")]
        with open(os.path.join(self.home, name)) as f:
            return json.load(f)

    def pending(self, warden: Warden) -> list[dict]:
        """SPEC §7.5 with a device-account JWT signed by the stored key, as a push provider would carry them."""
        enrollment = self.enrollment()
        with open(os.path.join(self.home, enrollment["id"] + ".pem"), "rb") as f:
            key = DeviceKey(load_pem_private_key(f.read(), password=None))
        now = int(time.time())
        jwt = key.sign({"iss": enrollment["id"], "sub": enrollment["user_id"], "iat": now, "exp": now + 300,
                        "aud": warden.issuer + "appliance-mfa/api/device-accounts"})
        r = warden.http.get(warden.url(f"appliance-mfa/api/device-accounts/{enrollment['id']}/transactions"),
                            headers={"Authorization": f"Bearer {jwt}"}, timeout=HTTP_TIMEOUT)
        return json_of(expect_status(r, 200))["transactions"]


def device_env(warden: Warden, home: str) -> dict[str, str]:
    return {**warden.env, "WARDEN_AUTHENTICATOR_HOME": home}


def authenticator(warden: Warden, device: Device | str, *args: str, timeout: float = TIMEOUT,
                  check: bool = True) -> subprocess.CompletedProcess:
    """`warden authenticator ARGS` without a terminal, with the device's store."""
    home = device if isinstance(device, str) else device.home
    result = subprocess.run([warden.binary, "authenticator", *args], env=device_env(warden, home),
                            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)
    if check:
        assert result.returncode == 0, \
            f"authenticator {args} exited {result.returncode}\n{result.stdout}{result.stderr}"
    return result


def spawn(warden: Warden, device: Device, *args: str) -> pexpect.spawn:
    """`warden authenticator ARGS` in a pseudo-terminal."""
    return pexpect.spawn(warden.binary, ["authenticator", *args], env=device_env(warden, device.home),
                         encoding="utf-8", timeout=TIMEOUT, dimensions=(60, 200))


def ticket_url(warden: Warden, user_id: str) -> str:
    r = warden.mgmt("POST", "guardian/enrollments/ticket", json={"user_id": user_id})
    return json_of(expect_status(r, 200))["ticket_url"]


def enrol(warden: Warden, app: CibaApp, tmp_path, name: str = "device") -> Device:
    home = str(tmp_path / name / "authenticator")
    result = authenticator(warden, home, "enroll", ticket_url(warden, app.user.user_id), "--name", f"Terminal {name}")
    return Device(home=home, enroll_output=result.stdout)


def start_ciba(warden: Warden, app: CibaApp, message: str, details: list[dict]) -> str:
    """A push-channel CIBA request with auth0-python; returns the auth_req_id."""
    started = BackChannelLogin(warden.domain, app.client_id, client_secret=app.client_secret, protocol="http",
                               timeout=HTTP_TIMEOUT).back_channel_login(
        binding_message=message, login_hint=login_hint(warden.issuer, app.user.user_id), scope=SCOPE,
        audience=app.audience, authorization_details=details, requested_expiry=PUSH_EXPIRY)
    assert started.get("expires_in") == PUSH_EXPIRY, started
    return started["auth_req_id"]


def poll(warden: Warden, app: CibaApp, auth_req_id: str) -> dict:
    return GetToken(warden.domain, app.client_id, client_secret=app.client_secret, protocol="http",
                    timeout=HTTP_TIMEOUT).backchannel_login(auth_req_id)


def expect_request(listen: pexpect.spawn, app: CibaApp, message: str, creditor: str) -> None:
    """The rendered request up to the question: client, binding message, API, scopes, the money transfer."""
    listen.expect(r"Request from [^\r\n]*" + re.escape(app.client["name"]))
    listen.expect_exact(f"Binding message:  {message}")
    listen.expect(r"API:\s+" + re.escape(app.audience))
    listen.expect(r"Scopes:\s+[^\r\n]*transfer:funds")
    listen.expect_exact("Money transfer")
    listen.expect(r"Amount:\s+42\.50 EUR")
    listen.expect(r"To:\s+DE02100100109307118603")
    listen.expect(r"Beneficiary:\s+" + re.escape(creditor))
    listen.expect_exact(PROMPT)
