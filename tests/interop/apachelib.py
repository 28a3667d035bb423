"""A throw-away Apache httpd for the interop suite (test_apache.py): mod_auth_openidc as an OpenID Connect relying
party of Warden, and mod_oauth2 as a resource server that checks Warden's access tokens.

- `apache_binary()`: the `apache2` (Debian) or `httpd` binary, or None (the tests then skip).
- `Apache`: one instance with its own ServerRoot, config, logs and document root in a temp dir, on a free
  loopback port, run in the foreground (`-DFOREGROUND`) and stopped by the fixture. As root it drops to
  `www-data` (or `nobody`), so its files are made world-readable.
- `browse`: what a browser does with `requests`: follows redirects, submits auto-posting forms (mod_auth_openidc's
  `OIDCProviderAuthRequestMethod POST` page), fills the hosted login form, accepts a consent page; returns the
  first page that is none of those, with the steps taken and the forms posted.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable
from urllib.parse import urljoin

import requests

from pkcelib import Form, _submit_fields, parse_page
from wardenlib import HTTP_TIMEOUT, describe, free_port

MODULE_DIRS = ("/usr/lib/apache2/modules", "/usr/lib64/httpd/modules", "/usr/lib/httpd/modules")
MODULES = {  # name -> file; core modules Debian compiles in (unixd, log_config) are loaded only when present
    "mpm_event_module": "mod_mpm_event.so",
    "unixd_module": "mod_unixd.so",
    "authn_core_module": "mod_authn_core.so",
    "authz_core_module": "mod_authz_core.so",
    "authz_user_module": "mod_authz_user.so",
    "headers_module": "mod_headers.so",
    "auth_openidc_module": "mod_auth_openidc.so",
    "oauth2_module": "mod_oauth2.so",
}


def apache_binary() -> str | None:
    for name in ("apache2", "httpd"):
        found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/local/sbin:/sbin")
        if found:
            return found
    return None


def module_dir() -> str | None:
    return next((d for d in MODULE_DIRS if os.path.exists(os.path.join(d, MODULES["auth_openidc_module"]))), None)


@dataclass
class RelyingParty:
    """What Apache needs to know about Warden and the client registered for it."""

    issuer: str
    client_id: str
    client_secret: str


class Apache:
    """One httpd on 127.0.0.1:{port}: `/protected/` behind mod_auth_openidc (redirect URI
    `/protected/redirect_uri`; its answers carry the `sub` claim mod_auth_openidc hands the application as
    `X-Oidc-Claim-Sub`, from `OIDC_CLAIM_sub`), `/api/` behind mod_oauth2 verifying JWTs by Warden's JWKS,
    `/introspected/` behind mod_oauth2 asking Warden's introspection endpoint, and `/loggedout.html` open.
    `directives` are added to the server's configuration (e.g. `OIDCAuthRequestParams`)."""

    def __init__(self, binary: str, rp: RelyingParty, directives: str = "") -> None:
        self.binary = binary
        self.rp = rp
        self.directives = directives
        self.port = free_port()
        self.root = tempfile.mkdtemp(prefix="warden-apache-")
        self.process: subprocess.Popen | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def redirect_uri(self) -> str:
        return self.base + "protected/redirect_uri"

    @property
    def logged_out(self) -> str:
        return self.base + "loggedout.html"

    def url(self, path: str) -> str:
        return self.base + path.lstrip("/")

    def _write(self, relative: str, text: str) -> None:
        path = os.path.join(self.root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o644)

    def config(self) -> str:
        modules = module_dir()
        loads = "\n".join(f"LoadModule {name} {modules}/{file}" for name, file in MODULES.items()
                          if os.path.exists(os.path.join(modules, file)))
        user = ""
        if os.geteuid() == 0:
            account = "www-data" if _has_user("www-data") else "nobody"
            group = "www-data" if account == "www-data" else "nogroup"
            user = f"User {account}\nGroup {group}"
        issuer = self.rp.issuer
        introspect = (f"introspect.auth=client_secret_basic&client_id={self.rp.client_id}"
                      f"&client_secret={self.rp.client_secret}")
        return f"""
ServerRoot "{self.root}"
ServerName 127.0.0.1
Listen 127.0.0.1:{self.port}
PidFile "{self.root}/httpd.pid"
ErrorLog "{self.root}/error.log"
LogLevel warn auth_openidc:info oauth2:info
{loads}
{user}
DocumentRoot "{self.root}/htdocs"
<Directory "{self.root}/htdocs">
    Require all granted
</Directory>

OIDCProviderMetadataURL {issuer}.well-known/openid-configuration
OIDCClientID {self.rp.client_id}
OIDCClientSecret {self.rp.client_secret}
OIDCRedirectURI {self.redirect_uri}
OIDCCryptoPassphrase {os.urandom(16).hex()}
OIDCScope "openid profile email offline_access"
OIDCProviderAuthRequestMethod POST
OIDCProviderTokenEndpointAuth client_secret_basic
OIDCPKCEMethod S256
OIDCRemoteUserClaim sub
OIDCInfoHook iat access_token access_token_expires id_token userinfo refresh_token
# Warden's access tokens live a day: asking for more than that refreshes on every protected request.
OIDCRefreshAccessTokenBeforeExpiry 172800
OIDCSessionInactivityTimeout 3600
{self.directives}

<Location /protected>
    AuthType openid-connect
    Require valid-user
    Header set X-Oidc-Claim-Sub "%{{OIDC_CLAIM_sub}}e"
</Location>

<Location /api>
    AuthType oauth2
    OAuth2TokenVerify jwks_uri {issuer}.well-known/jwks.json jwks_uri.ssl_verify=false
    Require valid-user
</Location>

<Location /introspected>
    AuthType oauth2
    OAuth2TokenVerify introspect {issuer}oauth/introspect {introspect}
    Require valid-user
</Location>
"""

    def start(self) -> None:
        os.chmod(self.root, 0o755)
        self._write("htdocs/protected/index.html", "<html><title>protected</title><body>protected page</body></html>")
        self._write("htdocs/api/index.html", "<html><body>api resource</body></html>")
        self._write("htdocs/introspected/index.html", "<html><body>introspected resource</body></html>")
        self._write("htdocs/loggedout.html", "<html><body>logged out of the app</body></html>")
        os.chmod(os.path.join(self.root, "htdocs"), 0o755)
        for sub in ("protected", "api", "introspected"):
            os.chmod(os.path.join(self.root, "htdocs", sub), 0o755)
        self._write("httpd.conf", self.config())
        conf = os.path.join(self.root, "httpd.conf")
        check = subprocess.run([self.binary, "-d", self.root, "-f", conf, "-t"], capture_output=True, text=True)
        if check.returncode != 0:
            raise RuntimeError(f"apache config test failed: {check.stderr}{check.stdout}")
        with open(os.path.join(self.root, "stderr.log"), "ab") as err:
            self.process = subprocess.Popen([self.binary, "-d", self.root, "-f", conf, "-DFOREGROUND"],
                                            stdin=subprocess.DEVNULL, stdout=err, stderr=err, start_new_session=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"apache exited with {self.process.returncode}\n{self.log_tail()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"apache did not listen on {self.port} within 20 s\n{self.log_tail()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # httpd: stop now (children too)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)
        shutil.rmtree(self.root, ignore_errors=True)

    def log_tail(self, lines: int = 60) -> str:
        out = []
        for name in ("error.log", "stderr.log"):
            try:
                with open(os.path.join(self.root, name), errors="replace") as f:
                    out.append(f"--- apache {name}\n" + "".join(f.readlines()[-lines:]))
            except OSError:
                pass
        return "\n".join(out)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


# ------------------------------------------------------------------------------------------------ the browser
@dataclass
class Visit:
    response: requests.Response
    steps: list[str] = field(default_factory=list)
    posted: list[tuple[str, list[tuple[str, str]]]] = field(default_factory=list)  # (url, fields) of each form post


def browse(session: requests.Session, url: str, *, email: str | None = None, password: str | None = None,
           upstream: tuple[str, Callable[[requests.Session, str], str]] | None = None, max_steps: int = 16) -> Visit:
    """GETs `url` and goes on as a browser would until a page that asks nothing: redirects are followed, a page
    whose only form submits itself (no password field, no decision buttons) is posted, the hosted login form is
    filled with `email`/`password` (once), a consent page is accepted. `upstream` is (an identity provider's
    authorization endpoint, the person's sign-in there): a redirect to that endpoint goes on at the URL the sign-in
    returns (the provider's answer)."""
    visit = Visit(response=None)  # type: ignore[arg-type]
    method, data, logged_in = "GET", None, False
    for _ in range(max_steps):
        if upstream is not None and method == "GET" and url.startswith(upstream[0] + "?"):
            answer = upstream[1](session, url)
            visit.steps.append(f"signed in at {url} -> {answer}")
            url = answer
            continue
        r = session.request(method, url, data=data, allow_redirects=False, timeout=HTTP_TIMEOUT)
        visit.steps.append(f"{method} {url} -> {r.status_code}" + (f" {r.headers['Location']}" if
                                                                    "Location" in r.headers else ""))
        visit.response = r
        if r.status_code in (301, 302, 303, 307, 308) and "Location" in r.headers:
            url, method, data = urljoin(r.url, r.headers["Location"]), "GET", None
            continue
        if r.status_code != 200 or "html" not in r.headers.get("Content-Type", "html"):
            return visit
        page = parse_page(r.text)
        form: Form | None = None
        values: dict[str, str] = {}
        button = None
        login = [f for f in page.forms if f.has_password()]
        decision = [f for f in page.forms if f.button_values("action")]
        if login:
            assert not logged_in, "the login form came back:\n" + "\n".join(visit.steps) + f"\n{page.text[:300]}"
            assert email is not None and password is not None, "a login form, but no credentials:\n" + describe(r)
            form, values, logged_in = login[0], {"username": email, "password": password}, True
        elif decision:
            form, button = decision[0], ("action", "accept")
        elif len(page.forms) == 1 and page.forms[0].method == "post" and page.forms[0].action:
            form = page.forms[0]  # an auto-submitting form (mod_auth_openidc's POST authorization request)
        else:
            return visit
        data = _submit_fields(form, values, button)
        url, method = urljoin(r.url, form.action or ""), form.method.upper()
        visit.posted.append((url, data))
    raise AssertionError("too many steps:\n" + "\n".join(visit.steps))
