"""Helpers for the CIBA tests (SPEC §6), spoken from the outside.

- `SmtpSink`: runs `scripts/test-support/smtp-sink.py` (aiosmtpd) on a free port with a temp maildir; `wait_for_mail` reads the
  messages Warden sent to an address with Python's `email` package (decoded parts, the approval link).
- `PingRecorder`: a local HTTP server (http.server in a thread, free port) that records the ping-mode
  notifications Warden POSTs and answers them with configurable statuses.
- `ciba_app` / `bc_authorize` / `start_request` / `poll`: setup through the Management API and raw
  Authentication API calls (form bodies), for exact statuses and error codes.
- `open_approval_page` / `decide`: the browser side of the e-mailed link (hosted login when needed, then the
  Approve / Deny form), with a `requests.Session`.
- `check_tokens`: the approved request's token response, with signatures verified against the JWKS.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import http.server
import json
import os
import re
import selectors
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from html import unescape
from typing import Any, Iterable
from urllib.parse import parse_qs, urljoin, urlsplit

import requests

from pkcelib import Form, Page, User, create_user, hosted_login, parse_page
from wardenlib import HTTP_TIMEOUT, ClientForAPI, Warden, audiences, describe, expect_status, json_of, uid, verify_jwt

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SINK_SCRIPT = os.path.join(REPO, "scripts", "test-support", "smtp-sink.py")
CIBA_GRANT = "urn:openid:params:grant-type:ciba"
EMAIL_EXPIRY = 600  # requested_expiry > 300: the e-mail channel (≤ 300 needs a push-enrolled device)
SCOPE = "openid offline_access transfer:funds"
ALGORITHMS = ("RS256", "ES256", "PS256", "EdDSA")


# -------------------------------------------------------------------------------------------------- SMTP sink
@dataclass
class Mail:
    """One message the sink received."""

    path: str
    envelope_from: str
    envelope_to: list[str]
    message: email.message.EmailMessage
    text: str | None  # the decoded text/plain part
    html: str | None  # the decoded text/html part
    parts: list[tuple[str, str]]  # (content type, Content-Transfer-Encoding) of each leaf part, in order

    @property
    def subject(self) -> str:
        return str(self.message.get("Subject", ""))

    @property
    def from_address(self) -> str:
        return email.utils.parseaddr(str(self.message.get("From", "")))[1]

    @property
    def to_addresses(self) -> list[str]:
        return [address for _, address in email.utils.getaddresses([str(v) for v in self.message.get_all("To", [])])]

    def links(self, issuer: str) -> list[str]:
        """Every `{issuer}u/ciba/…` link in the text part."""
        return re.findall(re.escape(issuer) + r"u/ciba/[^\s\"'<>]+", self.text or "")

    def html_links(self) -> list[str]:
        return [unescape(h) for h in re.findall(r"""href\s*=\s*["']([^"']+)["']""", self.html or "", re.I)]

    def link(self, issuer: str) -> str:
        """The approval link (exactly one in the text part)."""
        found = sorted(set(self.links(issuer)))
        assert len(found) == 1, f"expected one {issuer}u/ciba/… link in the text part, found {found}:\n{self.text}"
        return found[0]

    def html_text(self) -> str:
        """The visible text of the HTML part."""
        return parse_page(self.html or "").text


def parse_mail(path: str) -> Mail:
    with open(path, "rb") as f:
        raw = f.read()
    message = email.message_from_bytes(raw, policy=email.policy.default)
    text = html = None
    parts: list[tuple[str, str]] = []
    for part in message.walk():
        if part.is_multipart():
            continue
        kind = part.get_content_type()
        parts.append((kind, str(part.get("Content-Transfer-Encoding", "")).lower()))
        if kind == "text/plain" and text is None:
            text = part.get_content()
        elif kind == "text/html" and html is None:
            html = part.get_content()
    return Mail(path=path, envelope_from=str(message.get("X-Sink-Mail-From", "")),
                envelope_to=[str(v) for v in message.get_all("X-Sink-Rcpt-To", [])], message=message, text=text,
                html=html, parts=parts)


class SmtpSink:
    """`scripts/test-support/smtp-sink.py --port 0 --maildir DIR --exit-on-stdin-eof`; `url` is what WARDEN_SMTP_URL takes."""

    def __init__(self, maildir: str, script: str = SINK_SCRIPT):
        self.maildir = maildir
        self.script = script
        self.port: int | None = None
        self.process: subprocess.Popen | None = None
        self.log_path = os.path.join(maildir, ".smtp-sink.log")

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> None:
        if not os.path.exists(self.script):
            raise RuntimeError(f"no SMTP sink at {self.script}")
        with open(self.log_path, "ab") as log:
            # stdin stays open as a pipe: the sink exits when it closes, so a killed pytest leaves no sink behind
            self.process = subprocess.Popen([sys.executable, self.script, "--port", "0", "--maildir", self.maildir,
                                             "--exit-on-stdin-eof"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=log, start_new_session=True)
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        line = b""
        while not line.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not selector.select(remaining):
                self.stop()
                raise RuntimeError(f"the SMTP sink did not say 'ready' within {timeout}s: {self.log_tail()}")
            chunk = os.read(self.process.stdout.fileno(), 1)
            if not chunk:
                self.stop()
                raise RuntimeError(f"the SMTP sink exited before it was ready: {self.log_tail()}")
            line += chunk
        selector.close()
        words = line.decode().split()
        if len(words) != 2 or words[0] != "ready" or not words[1].isdigit():
            self.stop()
            raise RuntimeError(f"unexpected first line from the SMTP sink: {line!r}")
        self.port = int(words[1])

    def log_tail(self) -> str:
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()[-2000:]
        except FileNotFoundError:
            return ""

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        proc = self.process
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        finally:
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass

    def mails(self) -> list[Mail]:
        """Every message received so far, oldest first (the sink's file names sort in arrival order)."""
        names = sorted(n for n in os.listdir(self.maildir) if n.endswith(".eml") and not n.startswith("."))
        return [parse_mail(os.path.join(self.maildir, n)) for n in names]

    def mails_to(self, address: str, containing: str | None = None) -> list[Mail]:
        address = address.lower()
        found = [m for m in self.mails() if address in (a.strip("<>").lower() for a in m.envelope_to)]
        if containing is not None:
            found = [m for m in found if containing in (m.text or "")]
        return found

    def wait_for_mail(self, address: str, containing: str | None = None, timeout: float = 15) -> Mail:
        """The first message to `address` (whose text part contains `containing`, when given)."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.mails_to(address, containing)
            if found:
                return found[0]
            if not self.alive():
                raise AssertionError(f"the SMTP sink died: {self.log_tail()}")
            if time.monotonic() > deadline:
                others = [(m.envelope_to, m.subject) for m in self.mails()[-5:]]
                raise AssertionError(f"no mail to {address}" + (f" containing {containing!r}" if containing else "")
                                     + f" within {timeout}s (latest mails: {others})")
            time.sleep(0.05)


# ----------------------------------------------------------------------------------------------- ping recorder
@dataclass
class Ping:
    at: float  # time.monotonic() when received
    path: str
    headers: dict[str, str]
    body: bytes
    status: int  # what the recorder answered

    def json(self) -> Any:
        return json.loads(self.body)


class PingRecorder:
    """A local endpoint for `backchannel_client_notification_endpoint`: records every POST and answers with the
    next of `statuses` (then `default`). Use as a context manager."""

    def __init__(self, statuses: Iterable[int] = (), default: int = 204):
        self.statuses = list(statuses)
        self.default = default
        self.pings: list[Ping] = []
        self._lock = threading.Lock()
        recorder = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with recorder._lock:
                    status = recorder.statuses.pop(0) if recorder.statuses else recorder.default
                    recorder.pings.append(Ping(at=time.monotonic(), path=self.path,
                                               headers={k.lower(): v for k, v in self.headers.items()}, body=body,
                                               status=status))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/ciba/notify-{uid()}"
        self._thread = threading.Thread(target=self.server.serve_forever, name="ping-recorder", daemon=True)

    def __enter__(self) -> "PingRecorder":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def received(self) -> list[Ping]:
        with self._lock:
            return list(self.pings)

    def wait_for(self, count: int = 1, timeout: float = 10) -> list[Ping]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pings = self.received()
            if len(pings) >= count:
                return pings
            time.sleep(0.02)
        raise AssertionError(f"{count} ping(s) expected within {timeout}s, got {len(self.received())}: "
                             f"{[(p.status, p.body) for p in self.received()]}")


# ------------------------------------------------------------------------------------------------------ setup
def transfer_details(amount: str = "42.50", creditor: str = "Merchant A") -> list[dict]:
    """RFC 9396 authorization_details of the registered type `money_transfer`."""
    return [{"type": "money_transfer", "instructedAmount": {"currency": "EUR", "amount": amount},
             "creditorName": creditor, "creditorAccount": {"iban": "DE02100100109307118603"}}]


@dataclass
class CibaApp(ClientForAPI):
    """An API with the RAR type `money_transfer` and offline access, a confidential CIBA client and a user."""

    api: dict
    client: dict
    user: User


def ciba_api(warden: Warden, **fields: Any) -> dict:
    body = {"identifier": f"https://bank-{uid()}.interop.test/", "name": f"CIBA bank {uid()}",
            "scopes": [{"value": "transfer:funds", "description": "Move money"},
                       {"value": "read:balance", "description": "Read the balance"}],
            "authorization_details": [{"type": "money_transfer"}], "allow_offline_access": True}
    body.update(fields)
    return warden.create_api(**body)


def ciba_client(warden: Warden, **fields: Any) -> dict:
    body = {"name": f"CIBA app {uid()}", "app_type": "regular_web", "grant_types": [CIBA_GRANT, "refresh_token"],
            "token_endpoint_auth_method": "client_secret_post", "backchannel_token_delivery_mode": "poll"}
    body.update(fields)
    return warden.create_client(**body)


def ciba_app(warden: Warden, *, api: dict | None = None, user: User | None = None, **client_fields: Any) -> CibaApp:
    return CibaApp(api=api or ciba_api(warden), client=ciba_client(warden, **client_fields),
                   user=user or create_user(warden, email=f"ciba-{uid()}@interop.test", name="Casey Ciba"))


def login_hint(issuer: str, user_id: str) -> str:
    return json.dumps({"format": "iss_sub", "iss": issuer, "sub": user_id})


def binding_message() -> str:
    """A fresh, valid binding message (letters, digits, space and `+-_.,:#`)."""
    return f"Pay EUR 42.50 #{uid()[:8]}"


# ------------------------------------------------------------------------------------------ protocol requests
def bc_authorize(warden: Warden, client_id: str | None, client_secret: str | None, **form: Any) -> requests.Response:
    """POST /bc-authorize, form-encoded, authenticating with client_secret_post (None leaves a field out)."""
    data = {"client_id": client_id, "client_secret": client_secret, **form}
    data = {k: (json.dumps(v) if isinstance(v, (list, dict)) else str(v)) for k, v in data.items() if v is not None}
    return warden.http.post(warden.url("bc-authorize"), data=data, timeout=HTTP_TIMEOUT)


def request_form(warden: Warden, app: CibaApp, **overrides: Any) -> dict:
    """A valid e-mail-channel request for `app`'s user; `overrides` replace fields (None removes one)."""
    form = {"login_hint": login_hint(warden.issuer, app.user.user_id), "scope": SCOPE, "audience": app.audience,
            "binding_message": binding_message(), "authorization_details": transfer_details(),
            "requested_expiry": EMAIL_EXPIRY}
    form.update(overrides)
    return {k: v for k, v in form.items() if v is not None}


def start_request(warden: Warden, app: CibaApp, **overrides: Any) -> tuple[str, dict]:
    """A request that must be accepted: returns (auth_req_id, the form sent)."""
    form = request_form(warden, app, **overrides)
    r = bc_authorize(warden, app.client_id, app.client_secret, **form)
    body = json_of(expect_status(r, 200))
    assert isinstance(body.get("auth_req_id"), str) and body["auth_req_id"], describe(r)
    assert body.get("expires_in") == int(form.get("requested_expiry", 300)), describe(r)
    assert body.get("interval") == 5, describe(r)
    assert "no-store" in r.headers.get("Cache-Control", ""), r.headers
    return body["auth_req_id"], form


def poll(warden: Warden, app: CibaApp, auth_req_id: str, *, client_id: str | None = None,
         client_secret: str | None = None) -> requests.Response:
    """One poll at the token endpoint (form-encoded, client_secret_post)."""
    data = {"grant_type": CIBA_GRANT, "auth_req_id": auth_req_id, "client_id": client_id or app.client_id,
            "client_secret": client_secret or app.client_secret}
    return warden.http.post(warden.token_endpoint, data=data, timeout=HTTP_TIMEOUT)


# ----------------------------------------------------------------------------------------------- approval page
@dataclass
class ApprovalPage:
    session: requests.Session
    response: requests.Response
    page: Page
    form: Form
    steps: list[str] = field(default_factory=list)


def open_approval_page(warden: Warden, link: str, user: User, session: requests.Session | None = None) -> ApprovalPage:
    """GET the link; without a session it redirects (302) to the hosted login, where `user` logs in and is sent
    back (303) to the link. Returns the approval page (200) with its Approve / Deny form."""
    s = session or requests.Session()
    steps = []
    r = s.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT)
    steps.append(f"GET {link} -> {r.status_code} {r.headers.get('Location', '')}")
    if r.status_code == 302:
        location = urljoin(link, r.headers["Location"])
        parts = urlsplit(location)
        assert parts.path.endswith("/u/login") and parse_qs(parts.query).get("state"), \
            f"the link without a session should redirect to /u/login?state=…: {describe(r)}"
        assert urlsplit(link).netloc == parts.netloc, f"the login is on another host: {location}"
        callback = hosted_login(warden, location, redirect_uri=link, email=user.email, password=user.password,
                                session=s)
        steps += callback.steps
        r = s.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT)
        steps.append(f"GET {link} -> {r.status_code}")
    assert r.status_code == 200, f"the approval page: {describe(r)}\n" + "\n".join(steps)
    assert "text/html" in r.headers.get("Content-Type", ""), r.headers
    page = parse_page(r.text)
    # SPEC §5: approval forms submit a button named `action` with value `accept` or `deny`.
    forms = [f for f in page.forms if {"accept", "deny"} <= set(f.button_values("action"))]
    assert forms, f"no form with action=accept and action=deny buttons: {page.title!r} {page.text[:500]}"
    form = forms[0]
    assert form.method == "post", form
    assert form.hidden().get("csrf"), f"no hidden csrf field: {form.inputs}"
    return ApprovalPage(session=s, response=r, page=page, form=form, steps=steps)


def submit_decision(approval: ApprovalPage, link: str, action: str, **override: str) -> requests.Response:
    """POST the page's form as a browser would, with the `action` button pressed ("approve" names the Approve
    button, whose value SPEC §5 makes `accept`)."""
    target = urljoin(link, approval.form.action or link)
    data = {**approval.form.hidden(), "action": "accept" if action == "approve" else action, **override}
    return approval.session.post(target, data=data, allow_redirects=False, timeout=HTTP_TIMEOUT)


def decide(warden: Warden, link: str, user: User, action: str,
           session: requests.Session | None = None) -> tuple[requests.Response, ApprovalPage]:
    """Opens the link (logging in when needed) and presses Approve or Deny; the result page must be 200."""
    approval = open_approval_page(warden, link, user, session)
    r = submit_decision(approval, link, action)
    assert r.status_code == 200, f"{action}: {describe(r)}"
    return r, approval


def on_node(link: str, node: Warden) -> str:
    """The same link path on another node's base URL (the shared issuer of `running_nodes` is not served)."""
    parts = urlsplit(link)
    return node.base_url.rstrip("/") + parts.path + (f"?{parts.query}" if parts.query else "")


# ------------------------------------------------------------------------------------------------------ tokens
def check_tokens(warden: Warden, app: CibaApp, tokens: dict, *, details: list[dict] | None,
                 scope: str = SCOPE) -> tuple[dict, dict]:
    """SPEC §6.2 "approved": the response fields, and both JWTs verified against the JWKS. Returns (access token
    claims, ID token claims)."""
    for key in ("access_token", "id_token", "refresh_token"):
        assert isinstance(tokens.get(key), str) and tokens[key], f"no {key} in {tokens}"
    assert tokens.get("token_type") == "Bearer", tokens
    assert isinstance(tokens.get("expires_in"), int) and tokens["expires_in"] > 0, tokens
    assert set(tokens.get("scope", "").split()) == set(scope.split()), tokens
    if details is None:
        assert "authorization_details" not in tokens, tokens
    else:
        assert tokens.get("authorization_details") == details, tokens
    jwks = warden.jwks()
    _, access = verify_jwt(tokens["access_token"], jwks, ALGORITHMS)
    assert access.get("iss") == warden.issuer, access
    assert access.get("sub") == app.user.user_id, access
    assert app.audience in audiences(access), access
    assert set(scope.split()) - {"openid", "offline_access"} <= set(str(access.get("scope", "")).split()), access
    if details is None:
        assert "authorization_details" not in access, access
    else:
        assert access.get("authorization_details") == details, access
    _, id_claims = verify_jwt(tokens["id_token"], jwks, ALGORITHMS)
    assert id_claims.get("iss") == warden.issuer, id_claims
    assert id_claims.get("sub") == app.user.user_id, id_claims
    assert app.client_id in audiences(id_claims), id_claims
    return access, id_claims

