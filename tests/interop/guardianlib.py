"""An authenticator device (SPEC §7) and a push webhook receiver (SPEC §6.3), spoken from the outside.

Written from the SPEC alone, the way the vendor's Guardian SDKs talk to the server (no Warden code):

- `DeviceKey`: the device's RSA-2048 key; its public JWK (`n` optionally with the leading zero byte the vendor's
  iOS SDK sends) and compact RS256 JWS signing with any header and claims (fractional times, no `kid`, …).
- `Device`: enrolment with a ticket (`Authorization: Ticket id="…"`), the device-account JWT, PATCH / DELETE of
  the device account, its pending transactions, the consent fetch with an `MFA-DPoP` proof, and allow / reject
  with a `challenge_response` JWT. Every call returns the raw `requests.Response`, so tests check exact statuses.
- `WebhookReceiver`: the local endpoint of `WARDEN_PUSH_WEBHOOK_URL` (cibalib's PingRecorder: http.server in a
  thread on a free loopback port) whose records are read as notifications, each with its
  `X-Warden-Signature: sha256=HEX(HMAC-SHA256(secret, body))` checked.
- `push_node`: a Warden of the test module's own, started with the webhook settings, on the suite's database.
- `device_error` / `enrollment_ticket` / `logs_of`: small checks and setup through the Management API.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import secrets
import sys
import time
import uuid
from dataclasses import dataclass
from typing import Any, Callable, Iterator

import requests
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from cibalib import Ping, PingRecorder
from wardenlib import (HTTP_TIMEOUT, Warden, b64url_sha256, default_binary, describe, expect_status, json_of, own_node,
                       uid, wait_until)

NOTIFICATION_CATEGORY = "com.auth0.notification.authentication"
DEVICE_JWT_LIFETIME = 2 * 60 * 60  # what the vendor's SDKs give the device-account JWT (SPEC §7.1: exp ≤ 2 h)
CHALLENGE_RESPONSE_LIFETIME = 30  # seconds; SPEC §7.4 allows up to 60


def b64url(data: bytes) -> str:
    """base64url without padding (RFC 7515 §2)."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_json(value: Any) -> str:
    return b64url(json.dumps(value, separators=(",", ":")).encode())


def jws_parts(token: str) -> tuple[dict, dict]:
    """(header, claims) of a compact JWS, unverified."""
    head, body, _ = token.split(".")
    decode = lambda part: json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))  # noqa: E731
    return decode(head), decode(body)


def tamper(token: str) -> str:
    """The same JWS with one signature character changed in the middle (never only the padding bits of the last
    character, which a lenient decoder would ignore)."""
    head, body, signature = token.split(".")
    middle = len(signature) // 2
    swapped = "A" if signature[middle] != "A" else "B"
    return f"{head}.{body}.{signature[:middle]}{swapped}{signature[middle + 1:]}"


# ---------------------------------------------------------------------------------------------------- device key
class DeviceKey:
    """An RSA-2048 key pair as a Guardian device makes one, signing RS256 compact JWS itself (with cryptography),
    so the header and the claims are exactly what a test asks for."""

    def __init__(self, private_key: rsa.RSAPrivateKey | None = None):
        self.private_key = private_key or rsa.generate_private_key(public_exponent=65537, key_size=2048)

    def jwk(self, *, leading_zero: bool = False) -> dict:
        """The public JWK of SPEC §7.1. With `leading_zero`, `n` carries the 0x00 byte of its ASN.1 INTEGER form
        (the modulus' top bit is set), as the vendor's iOS SDK sends it."""
        numbers = self.private_key.public_key().public_numbers()
        n = numbers.n.to_bytes(256, "big")
        e = numbers.e.to_bytes((numbers.e.bit_length() + 7) // 8, "big")
        if leading_zero:
            assert n[0] & 0x80, "a 2048-bit modulus has its top bit set"
            n = b"\x00" + n
        return {"kty": "RSA", "use": "sig", "alg": "RS256", "n": b64url(n), "e": b64url(e)}

    def sign(self, claims: dict, header: dict | None = None) -> str:
        """A compact RS256 JWS of `claims`; the header is `{"alg": "RS256", "typ": "JWT"}` unless given."""
        head = header if header is not None else {"alg": "RS256", "typ": "JWT"}
        signing_input = f"{b64url_json(head)}.{b64url_json(claims)}"
        signature = self.private_key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
        return f"{signing_input}.{b64url(signature)}"


# -------------------------------------------------------------------------------------------------------- device
@dataclass
class Enrollment:
    """What the server answered to the enrolment (SPEC §7.1)."""

    id: str
    url: str
    issuer: str
    user_id: str
    token: str
    totp: dict
    body: dict


class Device:
    """One authenticator device of SPEC §7 against `warden` (requests go to its base URL; the claims name its
    issuer, which is the same URL unless WARDEN_ISSUER says otherwise)."""

    def __init__(self, warden: Warden, *, identifier: str | None = None, name: str | None = None,
                 key: DeviceKey | None = None, leading_zero: bool = False):
        self.warden = warden
        self.identifier = identifier or f"device-{uuid.uuid4()}"
        self.name = name or f"Interop phone {uid()[:6]}"
        self.key = key or DeviceKey()
        self.leading_zero = leading_zero
        self.enrollment: Enrollment | None = None
        self.push_credentials: dict | None = None  # as enrolled
        self.http = requests.Session()

    # ------------------------------------------------------------------------------------------------- URLs
    def api_url(self, path: str = "") -> str:
        """`{base}appliance-mfa/api/{path}`."""
        return self.warden.url("appliance-mfa/api/" + path.lstrip("/"))

    def account_url(self, enrollment_id: str | None = None, suffix: str = "") -> str:
        return self.api_url(f"device-accounts/{enrollment_id or self.id}{suffix}")

    def consent_url(self, consent_id: str) -> str:
        return self.warden.url(f"rich-consents/{consent_id}")

    @property
    def id(self) -> str:
        assert self.enrollment is not None, "the device is not enrolled"
        return self.enrollment.id

    @property
    def jwk(self) -> dict:
        return self.key.jwk(leading_zero=self.leading_zero)

    # -------------------------------------------------------------------------------------------- enrolment
    def enroll_request(self, ticket_id: str | None, *, push_credentials: dict | None = None,
                       authorization: str | None = None, drop: tuple[str, ...] = (),
                       **fields: Any) -> requests.Response:
        """POST /appliance-mfa/api/enroll, raw: `Authorization: Ticket id="{ticket_id}"` (or `authorization`
        as given; ticket None and no `authorization`: no header), body identifier/name/push_credentials/
        public_key; `fields` override body fields, `drop` leaves some out."""
        body: dict[str, Any] = {"identifier": self.identifier, "name": self.name, "public_key": self.jwk}
        if push_credentials is not None:
            body["push_credentials"] = push_credentials
        body.update(fields)
        for key in drop:
            body.pop(key, None)
        headers = {}
        if authorization is not None:
            headers["Authorization"] = authorization
        elif ticket_id is not None:
            headers["Authorization"] = f'Ticket id="{ticket_id}"'
        return self.http.post(self.api_url("enroll"), json=body, headers=headers, timeout=HTTP_TIMEOUT)

    def enroll(self, ticket_id: str, push_credentials: dict | None = None) -> Enrollment:
        """Enrols (200 expected) and remembers the enrollment."""
        r = expect_status(self.enroll_request(ticket_id, push_credentials=push_credentials), 200)
        assert r.headers.get("Content-Type", "").startswith("application/json"), describe(r)
        body = json_of(r)
        for key in ("id", "url", "issuer", "user_id", "token", "totp"):
            assert key in body, f"no {key} in the enrolment response: {describe(r)}"
        self.push_credentials = push_credentials
        self.enrollment = Enrollment(id=body["id"], url=body["url"], issuer=body["issuer"], user_id=body["user_id"],
                                     token=body["token"], totp=body["totp"], body=body)
        return self.enrollment

    # ------------------------------------------------------------------------------------ device account API
    def account_jwt(self, **overrides: Any) -> str:
        """The device-account JWT of SPEC §7.1 (as the vendor's SDKs make it: iss = enrollment id, sub = user id,
        aud = {issuer}appliance-mfa/api/device-accounts, exp 2 h after iat); `overrides` replace claims (None
        removes one)."""
        now = time.time()
        claims = {"iss": self.id, "sub": self.enrollment.user_id,
                  "aud": self.warden.issuer + "appliance-mfa/api/device-accounts", "iat": now,
                  "exp": now + DEVICE_JWT_LIFETIME}
        claims.update(overrides)
        return self.key.sign({k: v for k, v in claims.items() if v is not None})

    def bearer(self, auth: str) -> dict:
        """Headers for the device-account API: `auth` is "token" (the enrolment's device-account token), "jwt"
        (a fresh device JWT), "none", or a raw bearer value."""
        if auth == "none":
            return {}
        value = self.enrollment.token if auth == "token" else self.account_jwt() if auth == "jwt" else auth
        return {"Authorization": f"Bearer {value}"}

    def update(self, auth: str = "jwt", enrollment_id: str | None = None, **fields: Any) -> requests.Response:
        """PATCH /appliance-mfa/api/device-accounts/{id} with identifier / name / push_credentials."""
        return self.http.patch(self.account_url(enrollment_id), json=fields, headers=self.bearer(auth),
                               timeout=HTTP_TIMEOUT)

    def delete(self, auth: str = "jwt", enrollment_id: str | None = None) -> requests.Response:
        """DELETE /appliance-mfa/api/device-accounts/{id}."""
        return self.http.delete(self.account_url(enrollment_id), headers=self.bearer(auth), timeout=HTTP_TIMEOUT)

    def transactions_request(self, auth: str = "jwt") -> requests.Response:
        """GET /appliance-mfa/api/device-accounts/{id}/transactions (SPEC §7.5)."""
        return self.http.get(self.account_url(suffix="/transactions"), headers=self.bearer(auth),
                             timeout=HTTP_TIMEOUT)

    def transactions(self) -> list[dict]:
        """The pending transactions (200 expected)."""
        body = json_of(expect_status(self.transactions_request(), 200))
        assert isinstance(body.get("transactions"), list), body
        return body["transactions"]

    # ------------------------------------------------------------------------------------------ consent fetch
    def dpop_proof(self, url: str, txtkn: str, *, key: DeviceKey | None = None, jwk: dict | None = None,
                   header: dict | None = None, **overrides: Any) -> str:
        """The `MFA-DPoP` proof of SPEC §7.3: header {alg RS256, typ dpop+jwt, jwk}, claims htu, htm GET,
        ath = b64url(SHA-256(txtkn)), a fresh jti, fractional iat. `key` signs (default this device's) and its
        JWK goes in the header unless `jwk` is given; `overrides` replace claims (None removes one)."""
        signer = key or self.key
        head = header or {"alg": "RS256", "typ": "dpop+jwt",
                          "jwk": jwk or signer.jwk(leading_zero=self.leading_zero and key is None)}
        claims = {"htu": url, "htm": "GET", "ath": b64url_sha256(txtkn),
                  "jti": str(uuid.uuid4()), "iat": time.time()}
        claims.update(overrides)
        return signer.sign({k: v for k, v in claims.items() if v is not None}, head)

    def fetch_consent(self, txlnkid: str, txtkn: str, *, proof: str | None = None,
                      authorization: str | None = None, **proof_overrides: Any) -> requests.Response:
        """GET {issuer}rich-consents/{txlnkid} with `Authorization: MFA-DPoP {txtkn}` and the `MFA-DPoP` proof
        (made here unless `proof` is given; `proof=""` sends no proof header)."""
        url = self.consent_url(txlnkid)
        if proof is None:
            proof = self.dpop_proof(url, txtkn, **proof_overrides)
        headers = {"Authorization": authorization if authorization is not None else f"MFA-DPoP {txtkn}"}
        if proof:
            headers["MFA-DPoP"] = proof
        return self.http.get(url, headers=headers, timeout=HTTP_TIMEOUT)

    # --------------------------------------------------------------------------------------- allow / reject
    def challenge_response(self, challenge: str, accepted: bool, reason: str | None = None, *,
                           key: DeviceKey | None = None, header: dict | None = None, **overrides: Any) -> str:
        """The `challenge_response` JWT of SPEC §7.4: RS256 with the device key and no `kid`; iss = device
        identifier, sub = challenge, aud = {issuer}appliance-mfa/api/resolve-transaction, fractional iat / exp
        (30 s apart), auth0_guardian_method "push", auth0_guardian_accepted, auth0_guardian_reason when given."""
        now = time.time()
        claims = {"iat": now, "exp": now + CHALLENGE_RESPONSE_LIFETIME,
                  "aud": self.warden.issuer + "appliance-mfa/api/resolve-transaction", "iss": self.identifier,
                  "sub": challenge, "auth0_guardian_method": "push", "auth0_guardian_accepted": accepted}
        if reason is not None:
            claims["auth0_guardian_reason"] = reason
        claims.update(overrides)
        return (key or self.key).sign({k: v for k, v in claims.items() if v is not None}, header)

    def resolve(self, txtkn: str, challenge: str, accepted: bool, reason: str | None = None, *,
                challenge_response: str | None = None, **overrides: Any) -> requests.Response:
        """POST /appliance-mfa/api/resolve-transaction, `Authorization: Bearer {txtkn}`, body
        {"challenge_response": JWT} (made here unless given)."""
        jwt_ = challenge_response or self.challenge_response(challenge, accepted, reason, **overrides)
        return self.http.post(self.api_url("resolve-transaction"), json={"challenge_response": jwt_},
                              headers={"Authorization": f"Bearer {txtkn}"}, timeout=HTTP_TIMEOUT)

    def allow(self, notification: "Push") -> requests.Response:
        return self.resolve(notification.txtkn, notification.challenge, True)

    def reject(self, notification: "Push", reason: str | None = None) -> requests.Response:
        return self.resolve(notification.txtkn, notification.challenge, False, reason)


# ---------------------------------------------------------------------------------------------- webhook receiver
@dataclass
class Push:
    """One webhook notification: what the receiver recorded, and whether its signature verified."""

    ping: Ping
    signature_valid: bool

    @property
    def headers(self) -> dict[str, str]:
        return self.ping.headers

    @property
    def raw(self) -> bytes:
        return self.ping.body

    @property
    def body(self) -> dict:
        return json.loads(self.raw)

    @property
    def mfa(self) -> dict:
        return self.body["mfa"]

    @property
    def device_id(self) -> str | None:
        body = self.body
        return (body.get("device") or {}).get("id") or (body.get("mfa") or {}).get("dai")

    @property
    def txtkn(self) -> str:
        return self.mfa["txtkn"]

    @property
    def challenge(self) -> str:
        return self.mfa["c"]

    @property
    def txlnkid(self) -> str:
        return self.mfa["txlnkid"]


class WebhookReceiver(PingRecorder):
    """The endpoint of `WARDEN_PUSH_WEBHOOK_URL`: cibalib's recorder (every POST recorded, answered 200), whose
    records are read as notifications signed with `secret`. Use as a context manager."""

    def __init__(self, secret: str | None = None):
        super().__init__(default=200)
        self.secret = secret or secrets.token_urlsafe(32)

    def signature(self, raw: bytes) -> str:
        """`sha256=HEX(HMAC-SHA256(secret, body))` (SPEC §6.3)."""
        return "sha256=" + hmac.new(self.secret.encode(), raw, hashlib.sha256).hexdigest()

    def verify(self, raw: bytes, header: str | None) -> bool:
        return header is not None and hmac.compare_digest(header.strip(), self.signature(raw))

    def pushes(self, device_id: str | None = None) -> list[Push]:
        """Every notification so far (for one device, when given), oldest first."""
        pushes = [Push(ping=p, signature_valid=self.verify(p.body, p.headers.get("x-warden-signature")))
                  for p in self.received()]
        return [p for p in pushes if device_id is None or p.device_id == device_id]

    def wait_for_push(self, device_id: str, match: Callable[[Push], bool] = lambda p: True,
                      timeout: float = 10) -> Push:
        """The first notification for `device_id` that `match`es, within `timeout` seconds."""
        return wait_until(lambda: next((p for p in self.pushes(device_id) if match(p)), None), timeout=timeout,
                          what=f"a webhook notification for {device_id}")


@contextlib.contextmanager
def push_node(receiver: WebhookReceiver, *, binary: str, mgmt_client_id: str = "push-device-mgmt",
              env: dict[str, str] | None = None) -> Iterator[Warden]:
    """A Warden of its own whose push webhook points at `receiver` (env WARDEN_PUSH_WEBHOOK_URL / _SECRET), on
    the suite's database (a fresh SQLite file, or the PostgreSQL database of WARDEN_TEST_DATABASE); `env` adds
    settings (e.g. the APNs and FCM ones)."""
    with own_node(binary=binary, mgmt_client_id=mgmt_client_id, prefix="warden-interop-push-",
                  env={"WARDEN_PUSH_WEBHOOK_URL": receiver.url, "WARDEN_PUSH_WEBHOOK_SECRET": receiver.secret,
                       **(env or {})}) as node:
        yield node
        assert node.alive(), node.output_tail(120)


@contextlib.contextmanager
def reported_push_node(request, receiver: WebhookReceiver, **kwargs: Any) -> Iterator[Warden]:
    """`push_node` for a module-scoped fixture: the node's output is written out when a test of the module failed."""
    with push_node(receiver, binary=kwargs.pop("binary", None) or default_binary(), **kwargs) as started:
        failed_before = request.session.testsfailed
        yield started
        if request.session.testsfailed > failed_before:
            sys.stderr.write(f"\n{started.output_tail(120)}\n")


# ------------------------------------------------------------------------------------------- checks and setup
def device_error(response: requests.Response, status: int, error_code: str) -> dict:
    """SPEC §7: device API and /rich-consents errors have the Management shape
    `{statusCode, error, message, errorCode}`; checks the status, the code and that shape."""
    assert response.status_code == status, f"expected {status} {error_code}: {describe(response)}"
    body = json_of(response)
    assert body.get("errorCode") == error_code, f"expected errorCode {error_code}: {describe(response)}"
    assert body.get("statusCode") == status, describe(response)
    assert isinstance(body.get("error"), str) and body["error"], describe(response)
    assert isinstance(body.get("message"), str) and body["message"], describe(response)
    return body


def enrollment_ticket(warden: Warden, user_id: str) -> str:
    """POST /api/v2/guardian/enrollments/ticket {"user_id"} (200): the ticket id."""
    r = expect_status(warden.mgmt("POST", "guardian/enrollments/ticket", json={"user_id": user_id}), 200)
    return json_of(r)["ticket_id"]


def enrolled_device(warden: Warden, user_id: str, *, push_token: str | None = None,
                    service: str = "WEBHOOK", **device: Any) -> Device:
    """A new device enrolled for `user_id` with a fresh ticket and push_credentials {service, token}
    (`push_token=""`: enrolled without push_credentials)."""
    d = Device(warden, **device)
    credentials = None if push_token == "" else {"service": service, "token": push_token or f"tok-{uid()}"}
    d.enroll(enrollment_ticket(warden, user_id), push_credentials=credentials)
    return d


def logs_of(warden: Warden, kind: str, user_id: str | None = None) -> list[dict]:
    """The latest (≤ 100) log events of type `kind`, newest first, those of `user_id` only when given."""
    r = expect_status(warden.mgmt("GET", "logs", params={"q": f"type:{kind}", "sort": "date:-1", "per_page": 100}),
                      200)
    return [e for e in json_of(r) if user_id is None or e.get("user_id") == user_id]


def wait_for_log(warden: Warden, kind: str, user_id: str, count: int = 1, timeout: float = 3) -> list[dict]:
    """At least `count` events of type `kind` for `user_id` (SPEC §10: readable within 1 s)."""
    def enough() -> list[dict] | None:
        found = logs_of(warden, kind, user_id)
        return found if len(found) >= count else None

    return wait_until(enough, timeout=timeout, step=0.2, what=f"{count} {kind} log event(s) for {user_id}")
