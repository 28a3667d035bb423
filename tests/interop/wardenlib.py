"""Helpers shared by the interoperability tests (imported by conftest.py and the test modules).

Everything here talks to a running Warden over HTTP (`requests`) or runs its CLI; nothing imports server code.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterator, Iterable

import requests
from requests.adapters import HTTPAdapter
from joserfc import jwt
from joserfc.jwk import KeySet

HTTP_TIMEOUT = 15  # seconds for every request a test makes
CACHE_TTL = 1  # WARDEN_CACHE_TTL given to the server: seconds between cache refreshes from the database
MANAGEMENT_SCOPES = [
    f"{verb}:{resource}"
    for resource in ("clients", "client_grants", "resource_servers", "users", "roles", "post_login_rules",
                     "connections")
    for verb in ("read", "create", "update", "delete")
] + [
    "read:logs",
    "create:guardian_enrollment_tickets",
    "read:guardian_enrollments",
    "delete:guardian_enrollments",
    "read:signing_keys",
    "create:signing_keys",
    "update:signing_keys",
] + [  # SPEC §19
    f"{verb}:{resource}" for resource in ("organizations", "organization_connections")
    for verb in ("read", "create", "update", "delete")
] + [
    f"{verb}:{resource}" for resource in ("organization_members", "organization_member_roles", "organization_invitations")
    for verb in ("read", "create", "delete")
]
# What a crashed Swift process leaves on stderr (Swift runtime traps, the Linux backtracer, signals).
CRASH_PATTERN = re.compile(
    r"\.swift:\d+: (?:Fatal error|Assertion failed|Precondition failed)|^Fatal error:|💣|Program crashed|"
    r"^Current stack trace:|Thread \d+ crashed:",
    re.MULTILINE,
)
ISO_8601 = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$")


def uid() -> str:
    """A short unique suffix: the PostgreSQL run shares one database between test sessions over time."""
    return uuid.uuid4().hex[:12]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def b64url_sha256(value: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(value.encode()).digest()).rstrip(b"=").decode()


def describe(response: requests.Response) -> str:
    body = response.text
    if len(body) > 2000:
        body = body[:2000] + "…"
    return f"{response.request.method} {response.request.url} -> {response.status_code} {body}"


def expect_status(response: requests.Response, *statuses: int) -> requests.Response:
    assert response.status_code in statuses, f"expected {statuses}: {describe(response)}"
    return response


def json_of(response: requests.Response) -> Any:
    try:
        return response.json()
    except ValueError as error:  # pragma: no cover - the assertion message is the point
        raise AssertionError(f"not JSON: {describe(response)}") from error


def verify_jwt(token: str, jwks: dict, algorithms: Iterable[str]) -> tuple[dict, dict]:
    """Verifies the signature against the published JWKS (key chosen by `kid`); returns (header, claims)."""
    key_set = KeySet.import_key_set(jwks)
    decoded = jwt.decode(token, key_set, algorithms=list(algorithms))
    return dict(decoded.header), dict(decoded.claims)


def unverified_header(token: str) -> dict:
    import json

    head = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))


def audiences(claims: dict) -> list:
    aud = claims.get("aud")
    return aud if isinstance(aud, list) else [aud]


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def assert_iso_times(obj: Any, keys: Iterable[str] = ("created_at", "updated_at", "date", "last_login")) -> None:
    """Management objects and logs carry ISO 8601 times (SPEC conventions): check every such key present."""
    for key in keys:
        if isinstance(obj, dict) and obj.get(key) is not None:
            assert isinstance(obj[key], str) and ISO_8601.match(obj[key]), f"{key} is not ISO 8601: {obj[key]!r}"


class ClientForAPI:
    """A Management API client object (`client`) and API object (`api`): their ids and secret."""

    api: dict
    client: dict

    @property
    def audience(self) -> str:
        return self.api["identifier"]

    @property
    def client_id(self) -> str:
        return self.client["client_id"]

    @property
    def client_secret(self) -> str:
        return self.client["client_secret"]


@dataclass
class M2M(ClientForAPI):
    """An API, a confidential client allowed client_credentials, and the client grant between them."""

    api: dict
    client: dict
    grant: dict


class Warden:
    """One `warden serve` process in a temp working directory, plus helpers to talk to it."""

    def __init__(self, *, binary: str, workdir: str, database_url: str, mgmt_client_id: str,
                 mgmt_client_secret: str, port: int | None = None, pid_dir: str | None = None,
                 issuer: str | None = None, cache_ttl: float | None = None, env: dict[str, str] | None = None):
        self.binary = binary
        self.workdir = workdir
        self.database_url = database_url
        self.mgmt_client_id = mgmt_client_id
        self.mgmt_client_secret = mgmt_client_secret
        self.port = port or free_port()
        self.pid_dir = pid_dir
        self.base_url = f"http://127.0.0.1:{self.port}/"
        self.issuer = issuer or self.base_url
        self.domain = f"127.0.0.1:{self.port}"
        self.token_endpoint = self.base_url + "oauth/token"
        self.jwks_uri = self.base_url + ".well-known/jwks.json"
        self.mgmt_audience = self.base_url + "api/v2/"
        self.mgmt_base = self.base_url + "api/v2"
        self.stdout_path = os.path.join(workdir, "warden.stdout.log")
        self.stderr_path = os.path.join(workdir, "warden.stderr.log")
        self.process: subprocess.Popen | None = None
        self.stopping = False
        self.http = requests.Session()
        self._tokens: dict[tuple, str] = {}
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("WARDEN_")}
        self.env.update({
            "WARDEN_BOOTSTRAP_CLIENT_ID": mgmt_client_id,
            "WARDEN_BOOTSTRAP_CLIENT_SECRET": mgmt_client_secret,
            "WARDEN_CACHE_TTL": str(cache_ttl or CACHE_TTL),
        })
        if issuer:
            self.env["WARDEN_ISSUER"] = issuer
            self.mgmt_audience = issuer + "api/v2/"
        self.env.update(env or {})  # extra settings, e.g. WARDEN_SMTP_URL

    # ------------------------------------------------------------------------------------------- process
    def start(self) -> None:
        argv = [self.binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--database", self.database_url]
        with open(self.stdout_path, "ab") as out, open(self.stderr_path, "ab") as err:
            self.process = subprocess.Popen(argv, cwd=self.workdir, env=self.env, stdin=subprocess.DEVNULL,
                                            stdout=out, stderr=err, start_new_session=True)
        if self.pid_dir:
            with open(os.path.join(self.pid_dir, f"warden-{self.process.pid}"), "w") as f:
                f.write(f"{self.process.pid}\n{self.workdir}\n")

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        last = "no answer"
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"warden exited with status {self.process.returncode} before /readyz answered 200"
                                   f"\n{self.output_tail()}")
            try:
                r = requests.get(self.url("readyz"), timeout=2)
                if r.status_code == 200:
                    return
                last = f"{r.status_code} {r.text[:200]}"
            except requests.RequestException as error:
                last = type(error).__name__
            time.sleep(0.1)
        raise RuntimeError(f"GET /readyz not 200 within {timeout}s (last: {last})\n{self.output_tail()}")

    def stop(self) -> None:
        self.stopping = True
        proc = self.process
        if proc is None or proc.poll() is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)

    def shutdown_warning(self) -> str | None:
        """Not a crash, but worth a line: the server did not end cleanly on SIGTERM."""
        code = self.process.returncode if self.process is not None else None
        if self.stopping and code not in (None, 0, -signal.SIGTERM, 128 + signal.SIGTERM):
            return f"warden ended with status {code} after SIGTERM (killed after 15 s if -9)"
        return None

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def _read(self, path: str) -> str:
        try:
            with open(path, errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def stderr_text(self) -> str:
        return self._read(self.stderr_path)

    def stdout_text(self) -> str:
        return self._read(self.stdout_path)

    def output_tail(self, lines: int = 60) -> str:
        parts = []
        for name, text in (("stderr", self.stderr_text()), ("stdout", self.stdout_text())):
            tail = "\n".join(text.splitlines()[-lines:])
            parts.append(f"----- warden {name} (last {lines} lines) -----\n{tail}")
        return "\n".join(parts)

    def crash_report(self) -> str | None:
        """Why this server counts as crashed, or None: it died on its own, or it logged a trap or a signal."""
        reasons = []
        if self.process is not None and self.process.poll() is not None and not self.stopping:
            reasons.append(f"the server exited on its own with status {self.process.returncode}")
        for name, text in (("stderr", self.stderr_text()), ("stdout", self.stdout_text())):
            match = CRASH_PATTERN.search(text)
            if match:
                start = max(0, text.rfind("\n", 0, match.start()))
                reasons.append(f"{name} shows a crash: {text[start:start + 400].strip()!r}")
        return "; ".join(reasons) or None

    # ------------------------------------------------------------------------------------------------ CLI
    def cli(self, *args: str, check: bool = True, timeout: float = 120) -> subprocess.CompletedProcess:
        """Runs `warden ARGS --database URL` against this server's database (same env, same working dir)."""
        argv = [self.binary, *args, "--database", self.database_url]
        result = subprocess.run(argv, cwd=self.workdir, env=self.env, stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=timeout)
        if check:
            assert result.returncode == 0, (f"{' '.join(argv)} exited {result.returncode}\nstdout:\n{result.stdout}"
                                            f"\nstderr:\n{result.stderr}")
        return result

    # ----------------------------------------------------------------------------------------------- HTTP
    def url(self, path: str) -> str:
        return self.base_url + path.lstrip("/")

    def jwks(self) -> dict:
        r = expect_status(self.http.get(self.jwks_uri, timeout=HTTP_TIMEOUT), 200)
        return json_of(r)

    def jwks_kids(self) -> set:
        return {k.get("kid") for k in self.jwks().get("keys", [])}

    def client_credentials(self, client_id: str, client_secret: str | None, audience: str | None,
                           scope: str | None = None, **extra: str) -> requests.Response:
        form = {"grant_type": "client_credentials", "client_id": client_id}
        if client_secret is not None:
            form["client_secret"] = client_secret
        if audience is not None:
            form["audience"] = audience
        if scope is not None:
            form["scope"] = scope
        form.update(extra)
        return self.http.post(self.token_endpoint, data=form, timeout=HTTP_TIMEOUT)

    def mgmt_token(self, scopes: Iterable[str] | None = None) -> str:
        """A Management API access token for the bootstrap client (client_credentials, audience {issuer}api/v2/)."""
        key = tuple(sorted(scopes)) if scopes is not None else None
        if key not in self._tokens:
            r = self.client_credentials(self.mgmt_client_id, self.mgmt_client_secret, self.mgmt_audience,
                                        scope=" ".join(key) if key is not None else None)
            body = json_of(expect_status(r, 200))
            self._tokens[key] = body["access_token"]
        return self._tokens[key]

    def forget_tokens(self) -> None:
        """Drop cached Management tokens (after a signing key they were signed with is revoked)."""
        self._tokens.clear()

    def mgmt(self, method: str, path: str, *, token: str | None = None, **kwargs: Any) -> requests.Response:
        """A raw Management API call; `path` is relative to {issuer}api/v2/."""
        headers = dict(kwargs.pop("headers", {}) or {})
        headers.setdefault("Authorization", f"Bearer {token or self.mgmt_token()}")
        kwargs.setdefault("timeout", HTTP_TIMEOUT)
        return self.http.request(method, f"{self.mgmt_base}/{path.lstrip('/')}", headers=headers, **kwargs)

    # ------------------------------------------------------------------------------- setup through the API
    def create_api(self, **fields: Any) -> dict:
        body = {"identifier": f"https://api-{uid()}.interop.test/", "name": f"interop api {uid()}",
                "scopes": [{"value": "read:things", "description": "read"},
                           {"value": "write:things", "description": "write"}]}
        body.update(fields)
        return json_of(expect_status(self.mgmt("POST", "resource-servers", json=body), 201))

    def create_client(self, **fields: Any) -> dict:
        body = {"name": f"interop client {uid()}", "app_type": "non_interactive",
                "grant_types": ["client_credentials"], "token_endpoint_auth_method": "client_secret_post"}
        body.update(fields)
        body = {k: v for k, v in body.items() if v is not None}
        return json_of(expect_status(self.mgmt("POST", "clients", json=body), 201))

    def create_client_grant(self, client_id: str, audience: str, scope: list[str]) -> dict:
        body = {"client_id": client_id, "audience": audience, "scope": scope}
        return json_of(expect_status(self.mgmt("POST", "client-grants", json=body), 201))

    def m2m(self, *, scopes: tuple[str, ...] = ("read:things", "write:things"), grant_scopes: list[str] | None = None,
            api_fields: dict | None = None, client_fields: dict | None = None) -> M2M:
        api = self.create_api(scopes=[{"value": s, "description": s} for s in scopes], **(api_fields or {}))
        client = self.create_client(**(client_fields or {}))
        grant = self.create_client_grant(client["client_id"], api["identifier"],
                                         list(scopes) if grant_scopes is None else grant_scopes)
        return M2M(api=api, client=client, grant=grant)

    def m2m_token(self, m2m: M2M, scope: str | None = None) -> str:
        r = self.client_credentials(m2m.client_id, m2m.client_secret, m2m.audience, scope=scope)
        return json_of(expect_status(r, 200))["access_token"]

    def system_api(self) -> dict:
        """The Management API's own resource server (`is_system: true`, identifier {issuer}api/v2/)."""
        page = 0
        while True:
            r = expect_status(self.mgmt("GET", "resource-servers",
                                        params={"page": page, "per_page": 100, "include_totals": "true"}), 200)
            items = json_of(r)["resource_servers"]
            for item in items:
                if item.get("identifier") == self.mgmt_audience:
                    return item
            if not items:
                raise AssertionError(f"no resource server with identifier {self.mgmt_audience}")
            page += 1


def default_binary() -> str:
    """The server binary the suite runs: `WARDEN_BIN`, else `<repo>/.build/debug/warden`."""
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get("WARDEN_BIN") or os.path.normpath(os.path.join(here, "..", "..", ".build", "debug", "warden"))


@contextlib.contextmanager
def running_nodes(database_url: str, *, count: int = 2, mgmt_client_id: str = "multinode-mgmt",
                  cache_ttl: float = 60, env: dict[str, str] | None = None, binary: str | None = None,
                  prefix: str = "warden-node-") -> Iterator[list[Warden]]:
    """`count` nodes on one database behind one issuer (SPEC §2): each its own process, port and temp working
    directory, refreshing its caches only every `cache_ttl` seconds, so what one node learns from another within
    that time came through LISTEN/NOTIFY. The shared issuer is on a port nobody listens on (no node's base URL is
    the issuer). Stops them and removes their directories on exit."""
    issuer = f"http://127.0.0.1:{free_port()}/"
    secret = secrets.token_urlsafe(36)
    started: list[Warden] = []
    try:
        for _ in range(count):
            workdir = tempfile.mkdtemp(prefix=prefix)
            node = Warden(binary=binary or default_binary(), workdir=workdir, database_url=database_url,
                          mgmt_client_id=mgmt_client_id, mgmt_client_secret=secret, issuer=issuer,
                          cache_ttl=cache_ttl, pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"), env=env)
            node.start()
            started.append(node)
            node.wait_ready(timeout=30)
        yield started
    finally:
        for node in started:
            node.stop()
            shutil.rmtree(node.workdir, ignore_errors=True)


@contextlib.contextmanager
def own_node(*, binary: str, mgmt_client_id: str, prefix: str,
             env: dict[str, str] | None = None) -> Iterator[Warden]:
    """A Warden of a test's own on the suite's database (a fresh SQLite file, or the PostgreSQL database of
    WARDEN_TEST_DATABASE), started and ready; its output is printed when the body fails; stopped and its
    directory removed on exit."""
    choice = os.environ.get("WARDEN_TEST_DATABASE", "sqlite").strip()
    workdir = tempfile.mkdtemp(prefix=prefix)
    database = choice if choice.startswith(("postgres://", "postgresql://")) else f"sqlite:{workdir}/warden.sqlite"
    node = Warden(binary=binary, workdir=workdir, database_url=database, mgmt_client_id=mgmt_client_id,
                  mgmt_client_secret=secrets.token_urlsafe(36), pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"),
                  env=env)
    try:
        node.start()
        node.wait_ready(timeout=30)
        yield node
        assert node.crash_report() is None, node.crash_report()
    except BaseException:
        print(node.output_tail(120))
        raise
    finally:
        node.stop()
        shutil.rmtree(workdir, ignore_errors=True)


class SourceAddressAdapter(HTTPAdapter):
    """Opens every connection from `source_ip` (any port), so the server's socket peer is that address."""

    def __init__(self, source_ip: str):
        self.source_ip = source_ip
        super().__init__()

    def init_poolmanager(self, connections, maxsize, block=False, **pool_kwargs):
        pool_kwargs["source_address"] = (self.source_ip, 0)
        super().init_poolmanager(connections, maxsize, block=block, **pool_kwargs)


def from_address(source_ip: str) -> requests.Session:
    """A `requests` session whose connections come from `source_ip`."""
    session = requests.Session()
    adapter = SourceAddressAdapter(source_ip)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


class LoopbackServer:
    """A test's own HTTP server (`handler`: a `BaseHTTPRequestHandler` class) on a free loopback port, serving from
    a thread while a `with` block runs."""

    def __init__(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


def write_response(handler, status: int, body: bytes, content_type: str = "application/json") -> None:
    """An answer of a test's own HTTP server (an `http.server.BaseHTTPRequestHandler`): status, type, length, body."""
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    handler.wfile.write(body)


def wait_until(condition, timeout: float = 5.0, step: float = 0.05, what: str = "the condition"):
    """Polls `condition()` until it returns something truthy (returned) or `timeout` seconds pass (AssertionError)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what} did not hold within {timeout}s")
        time.sleep(step)
