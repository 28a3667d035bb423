"""Glewlwyd 2.7.5 (Debian `glewlwyd`) as a real upstream OpenID provider of Warden's connections (SPEC §15).

- `Glewlwyd`: one server on a free loopback port with its own SQLite database, made from the SQL the package ships
  (`/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz`) with a user property `email_verified` added, its own
  RSA key, and a loopback-only config; started in the background, stopped by its PID only. `provision()` sets it up
  through the admin REST API (logged in as the shipped `admin`/`password`, a cookie session that lasts 10 minutes,
  so each admin call logs in again when told 401): scopes `profile` and `email` and two OpenID Connect plugin
  instances, `oidc` (answers without RFC 9207's `iss`) and `oidc_iss` (`oauth-as-iss-id`: adds `iss` to every
  authorization response). Glewlwyd 2.7.5 sends `iss` but does not publish
  `authorization_response_iss_parameter_supported` in its discovery document.
- `person()` / `client()`: a user (`email_verified` "1"/"0") and a confidential client (`client_secret_post`).
- `login()`: Glewlwyd's login scripted with plain HTTP, as its web UI does it: `POST /api/auth/` (the user/password
  scheme, a session cookie), `PUT /api/auth/grant/{client_id}` (the consent), then the authorization URL again with
  `g_continue`, whose 302 `Location` is the answer to the relying party (read, never followed).

One Glewlwyd serves a whole test run: `scripts/test` starts it with `python3 glewlwydlib.py start DIR` (`stop DIR`
stops it; scripts/test's cleanup stops it by the PID it records), handing DIR to the suite as `WARDEN_TEST_GLEWLWYD`;
without it the session fixture `glewlwyd` (conftest.py) starts one of its own. The benchmark
(scripts/bench/federated-login --upstream glewlwyd) uses it too.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from typing import Iterator
from urllib.parse import urlencode

import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from federationlib import Federation, federation, redirect_params  # noqa: E402
from wardenlib import HTTP_TIMEOUT, Warden, describe, free_port, uid, verify_jwt  # noqa: E402

INIT_SQL = "/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz"
MODULES = "/usr/lib/glewlwyd"
ADMIN = ("admin", "password")  # what the package's init SQL creates
PLUGINS = {"oidc": False, "oidc_iss": True}  # plugin instance -> oauth-as-iss-id (RFC 9207 `iss` in the answer)
SCOPES = ("openid", "profile", "email")


def glewlwyd_binary() -> str | None:
    return shutil.which("glewlwyd") or shutil.which("glewlwyd", path="/usr/bin:/usr/sbin:/usr/local/bin")


def installed() -> bool:
    return glewlwyd_binary() is not None and os.path.exists(INIT_SQL)


class EarlyExit(RuntimeError):
    """Glewlwyd exited before it answered."""


@dataclass
class Person:
    username: str
    password: str
    email: str
    name: str


@dataclass
class GlewlwydClient:
    client_id: str
    client_secret: str


class Glewlwyd:
    """One Glewlwyd in `root` (config, database, key, logs, `state.json` with its URL and PID)."""

    def __init__(self, root: str, port: int | None = None) -> None:
        self.root = root
        self.port = port or free_port()
        self.pid: int | None = None
        self.admin_session = requests.Session()
        self._probe: GlewlwydClient | None = None

    # ------------------------------------------------------------------------------------------ lifecycle
    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def path(self, name: str) -> str:
        return os.path.join(self.root, name)

    def issuer(self, plugin: str = "oidc") -> str:
        return f"{self.base}/api/{plugin}"

    def endpoint(self, plugin: str, name: str) -> str:
        """`auth`, `token`, `userinfo`, `jwks` of a plugin instance."""
        return f"{self.issuer(plugin)}/{name}"

    def discovery_url(self, plugin: str = "oidc") -> str:
        return f"{self.issuer(plugin)}/.well-known/openid-configuration"

    def setup(self) -> None:
        """Key, config and a fresh database from the package's SQL (journal in WAL mode)."""
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa

        os.makedirs(self.root, exist_ok=True)
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        with open(self.path("rsa.key"), "wb") as f:  # PKCS#1 ("BEGIN RSA PRIVATE KEY"), what gnutls reads best
            f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                      serialization.NoEncryption()))
        with open(self.path("rsa.pub"), "wb") as f:
            f.write(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                  serialization.PublicFormat.SubjectPublicKeyInfo))
        # `use_secure_connection` must be absent (even `false` makes 2.7.5 ask for certificate files).
        with open(self.path("glewlwyd.conf"), "w") as f:
            f.write(f"""port={self.port}
bind_address="127.0.0.1"
external_url="{self.base}"
login_url="login.html"
api_prefix="api"
allow_origin="*"
log_mode="file"
log_level="WARNING"
log_file="{self.path('glewlwyd.log')}"
cookie_secure=0
cookie_same_site="empty"
session_expiration=2419200
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
add_x_frame_option_header_deny=true
max_post_size=16778240
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="{MODULES}/user"
client_module_path="{MODULES}/client"
user_auth_scheme_module_path="{MODULES}/scheme"
plugin_module_path="{MODULES}/plugin"
hash_algorithm="SHA512"
database = {{ type = "sqlite3"; path = "{self.path('glewlwyd.db')}" }};
""")
        database = self.path("glewlwyd.db")
        if os.path.exists(database):
            os.remove(database)
        with gzip.open(INIT_SQL, "rt") as sql, contextlib.closing(sqlite3.connect(database)) as db, db:
            db.executescript(sql.read())
            db.execute("PRAGMA journal_mode=wal")
            # The user property `email_verified` ("1" or "0"), which the plugins send as the boolean claim. Set here:
            # changing the module through the API needs it disabled and enabled again, which logs the admin out.
            (parameters,) = db.execute("SELECT gumi_parameters FROM g_user_module_instance WHERE gumi_name = 'database'"
                                       ).fetchone()
            parameters = json.loads(parameters)
            parameters["data-format"]["email_verified"] = {"multiple": False, "read": True, "write": True,
                                                           "profile-read": True, "profile-write": False}
            db.execute("UPDATE g_user_module_instance SET gumi_parameters = ? WHERE gumi_name = 'database'",
                       (json.dumps(parameters),))

    def start(self, timeout: float = 20, attempts: int = 3) -> None:
        """Starts Glewlwyd and waits until `GET /config` answers. On a busy machine 2.7.5 sometimes exits at once
        ("Error loading user modules instances": a query of its start-up failed), so an early exit is tried again."""
        for attempt in range(1, attempts + 1):
            try:
                return self._start(timeout)
            except EarlyExit:
                if attempt == attempts:
                    raise
                time.sleep(0.5)

    def _start(self, timeout: float) -> None:
        binary = glewlwyd_binary()
        if binary is None:
            raise RuntimeError("glewlwyd is not installed (apt-get install glewlwyd)")
        with open(self.path("stdout.log"), "ab") as out:
            process = subprocess.Popen(
                [binary, "-c", self.path("glewlwyd.conf"), "-m", "file", "-l", "WARNING", "-f",
                 self.path("glewlwyd.log")], stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                start_new_session=True)
        self.pid = process.pid
        self.save()
        pid_dir = os.environ.get("WARDEN_TEST_PIDDIR")
        if pid_dir:  # scripts/test stops it even when pytest is killed
            with open(os.path.join(pid_dir, f"glewlwyd-{self.pid}"), "w") as f:
                f.write(f"{self.pid}\n{self.root}\n")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise EarlyExit(f"glewlwyd exited with {process.returncode}\n{self.log_tail()}")
            try:
                if requests.get(f"{self.base}/config", timeout=1).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"glewlwyd did not answer GET /config within {timeout} s\n{self.log_tail()}")

    def save(self) -> None:
        with open(self.path("state.json"), "w") as f:
            json.dump({"port": self.port, "pid": self.pid}, f)

    @classmethod
    def attach(cls, root: str) -> "Glewlwyd":
        """The Glewlwyd another process started in `root`."""
        with open(os.path.join(root, "state.json")) as f:
            state = json.load(f)
        server = cls(root, port=state["port"])
        server.pid = state["pid"]
        return server

    def alive(self) -> bool:
        """Whether the PID recorded is still this Glewlwyd (never another process that got the number)."""
        try:
            with open(f"/proc/{self.pid}/comm") as f:
                return f.read().strip() == "glewlwyd"
        except (OSError, TypeError):
            return False

    def stop(self) -> None:
        if not self.alive():
            return
        os.kill(self.pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        if self.alive():
            os.kill(self.pid, signal.SIGKILL)
        try:  # our own child: reap it
            os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            pass

    def log_tail(self, lines: int = 40) -> str:
        out = []
        for name in ("glewlwyd.log", "stdout.log"):
            try:
                with open(self.path(name), errors="replace") as f:
                    out.append(f"--- glewlwyd {name}\n" + "".join(f.readlines()[-lines:]))
            except OSError:
                pass
        return "\n".join(out)

    # ------------------------------------------------------------------------------------------ admin API
    def admin(self, method: str, path: str, **kwargs) -> requests.Response:
        """An admin API call (`/api/...`), logging in as the shipped admin first and again when told 401."""
        kwargs.setdefault("timeout", HTTP_TIMEOUT)
        for attempt in range(2):
            r = self.admin_session.request(method, self.base + path, **kwargs)
            if r.status_code != 401 or attempt:
                return r
            login = self.admin_session.post(f"{self.base}/api/auth/",
                                            json={"username": ADMIN[0], "password": ADMIN[1]}, timeout=HTTP_TIMEOUT)
            assert login.status_code == 200, describe(login)
        return r

    def upsert(self, collection: str, key: str, body: dict) -> None:
        exists = self.admin("GET", collection + key).status_code == 200
        r = self.admin("PUT" if exists else "POST", collection + ("" if not exists else key), json=body)
        assert r.status_code == 200, describe(r)

    def provision(self) -> None:
        """The scopes `profile` and `email` and the two OIDC plugin instances."""
        for scope in ("profile", "email"):
            self.upsert("/api/scope/", scope, {"name": scope, "display_name": scope, "description": scope,
                                               "password_required": False, "password_max_age": 0, "scheme": {}})
        with open(self.path("rsa.key")) as f:
            key = f.read()
        with open(self.path("rsa.pub")) as f:
            cert = f.read()
        for name, iss_parameter in PLUGINS.items():
            self.upsert("/api/mod/plugin/", name, {
                "module": "oidc", "name": name, "display_name": f"OpenID Connect {name}",
                "parameters": self.plugin_parameters(name, key, cert, iss_parameter)})
            r = requests.get(self.discovery_url(name), timeout=HTTP_TIMEOUT)
            assert r.status_code == 200 and r.json()["issuer"] == self.issuer(name), describe(r)

    def plugin_parameters(self, name: str, key: str, cert: str, iss_parameter: bool) -> dict:
        """An OpenID provider of the code flow (RS256, PKCE S256) and of `response_type=id_token` for the clients
        allowed it (a connection's front channel), `name`, `email` and `email_verified` in every ID token and
        userinfo answer whatever the scope, and `oauth-as-iss-id` as asked."""
        return {
            "iss": self.issuer(name), "jwt-type": "rsa", "jwt-key-size": "256", "key": key, "cert": cert,
            "jwks-show": True, "subject-type": "public", "allowed-scope": list(SCOPES),
            "access-token-duration": 3600, "refresh-token-duration": 1209600, "code-duration": 600,
            "refresh-token-rolling": False, "allow-non-oidc": False,
            "auth-type-code-enabled": True, "auth-type-code-revoke-replayed": True,
            "auth-type-token-enabled": False, "auth-type-id-token-enabled": True, "auth-type-none-enabled": False,
            "auth-type-password-enabled": False, "auth-type-client-enabled": False,
            "auth-type-refresh-enabled": True, "auth-type-device-enabled": False,
            "pkce-allowed": True, "pkce-method-plain-allowed": False,
            "name-claim": "mandatory", "email-claim": "mandatory",
            "claims": [{"name": "email_verified", "user-property": "email_verified", "type": "boolean",
                        "boolean-value-true": "1", "boolean-value-false": "0", "mandatory": True}],
            "oauth-as-iss-id": iss_parameter,
        }

    def person(self, *, email: str | None = None, verified: bool = True, name: str = "Gwen Glewlwyd",
               scopes: tuple[str, ...] = SCOPES) -> Person:
        username = f"gw-{uid()}"
        person = Person(username=username, password=f"Gw-{uid()}-pass", email=email or f"{username}@glewlwyd.test",
                        name=name)
        r = self.admin("POST", "/api/user/", json={
            "username": username, "password": person.password, "name": name, "email": person.email,
            "enabled": True, "scope": list(scopes), "email_verified": "1" if verified else "0"})
        assert r.status_code == 200, describe(r)
        return person

    def client(self, redirect_uris: list[str], authorization_type: tuple[str, ...] = ("code", "refresh_token")) \
            -> GlewlwydClient:
        made = GlewlwydClient(client_id=f"warden-{uid()}", client_secret=f"secret-{uid()}{uid()}")
        r = self.admin("POST", "/api/client/", json={
            "client_id": made.client_id, "name": "Warden", "enabled": True, "confidential": True,
            "client_secret": made.client_secret, "redirect_uri": redirect_uris,
            "authorization_type": list(authorization_type),
            "token_endpoint_auth_method": ["client_secret_post", "client_secret_basic"], "scope": []})
        assert r.status_code == 200, describe(r)
        return made

    # ------------------------------------------------------------------------------------------ the login
    def answer(self, session: requests.Session, location: str, person: Person) -> requests.Response:
        """Signs `person` in at Glewlwyd in `session` (a browser) for the authorization request `location`, and
        returns Glewlwyd's answer to the relying party, not acted on: a redirect, or with `response_mode=form_post`
        a page whose form posts itself."""
        query = redirect_params(location)
        first = session.get(location, allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert first.status_code in (200, 302), describe(first)
        if "login.html" in first.headers.get("Location", ""):  # no session for that scope yet: the UI's two calls
            r = session.post(f"{self.base}/api/auth/", json={"username": person.username, "password": person.password},
                             timeout=HTTP_TIMEOUT)
            assert r.status_code == 200, describe(r)
            r = session.put(f"{self.base}/api/auth/grant/{query['client_id']}", json={"scope": query["scope"]},
                            timeout=HTTP_TIMEOUT)
            assert r.status_code == 200, describe(r)
            first = session.get(location + "&g_continue", allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert "login.html" not in first.headers.get("Location", ""), describe(first)
        return first

    def login(self, session: requests.Session, location: str, person: Person) -> str:
        """`answer()` when it is a redirect: its `Location` (never followed)."""
        first = self.answer(session, location, person)
        assert first.status_code == 302, describe(first)
        return first.headers["Location"]

    def subject(self, person: Person, plugin: str = "oidc") -> str:
        """`person`'s `sub` at `plugin`, read from an ID token Glewlwyd issues to a client of the tests' own (and
        verified against its JWKS): what Warden must make the user id of (SPEC §15 "Users")."""
        redirect_uri = "http://127.0.0.1:9/probe"
        if self._probe is None:
            self._probe = self.client([redirect_uri])
        query = {"response_type": "code", "client_id": self._probe.client_id, "redirect_uri": redirect_uri,
                 "scope": "openid", "state": uid(), "nonce": uid()}
        answer = self.login(requests.Session(), f"{self.endpoint(plugin, 'auth')}?{urlencode(query)}", person)
        code = redirect_params(answer)["code"]
        tokens = requests.post(self.endpoint(plugin, "token"), timeout=HTTP_TIMEOUT, data={
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
            "client_id": self._probe.client_id, "client_secret": self._probe.client_secret})
        assert tokens.status_code == 200, describe(tokens)
        jwks = requests.get(self.endpoint(plugin, "jwks"), timeout=HTTP_TIMEOUT).json()
        _, claims = verify_jwt(tokens.json()["id_token"], jwks, ["RS256"])
        assert claims["iss"] == self.issuer(plugin) and claims["nonce"] == query["nonce"], claims
        return claims["sub"]


@contextlib.contextmanager
def glewlwyd_federation(broker: Warden, glewlwyd: Glewlwyd, *, plugin: str = "oidc", person: Person | None = None,
                        **options) -> Iterator[Federation]:
    """An OIDC connection of `broker` to the Glewlwyd plugin instance `plugin` (a confidential client there whose
    redirect URI is Warden's `{issuer}login/callback`, found by discovery), an application at the broker it is enabled
    for, and a person at Glewlwyd (`federation.person`, which a test may change before a login)."""
    client = glewlwyd.client([broker.url("login/callback")])
    made: list[Federation] = []

    def sign_in(session: requests.Session, location: str) -> dict:
        return redirect_params(glewlwyd.login(session, location, made[0].person))

    with federation(broker, {"discovery_url": glewlwyd.discovery_url(plugin), "client_id": client.client_id,
                             "client_secret": client.client_secret, "scope": "openid profile email", **options},
                    authorization_endpoint=glewlwyd.endpoint(plugin, "auth"), sign_in_upstream=sign_in,
                    upstream=glewlwyd, person=person or glewlwyd.person(), prefix="glewlwyd") as connected:
        made.append(connected)
        yield connected


def main(argv: list[str]) -> int:
    """`start DIR`: a provisioned Glewlwyd in DIR (prints its URL); `stop DIR`: stops it."""
    if len(argv) != 3 or argv[1] not in ("start", "stop"):
        print("usage: glewlwydlib.py start|stop DIR", file=sys.stderr)
        return 2
    root = os.path.abspath(argv[2])
    if argv[1] == "stop":
        if os.path.exists(os.path.join(root, "state.json")):
            Glewlwyd.attach(root).stop()
        return 0
    server = Glewlwyd(root)
    server.setup()
    server.start()
    try:
        server.provision()
    except BaseException:
        print(server.log_tail(), file=sys.stderr)
        server.stop()
        raise
    print(server.base)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
