"""Helpers for the MFA-at-sign-in tests (SPEC §12), spoken from the outside like a browser would.

- `mfa_settings`: turns factors on and sets the policy through the Management API, and puts everything back on exit
  (the settings are the tenant's: on PostgreSQL every node of the suite shares them).
- `Browser`: a `requests` session (from a chosen source address) that walks /authorize → /u/login → /u/mfa/* and stops
  at the redirect to the client's callback, reading each hosted page's form.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from typing import Iterator
from urllib.parse import parse_qs, urljoin, urlsplit

import requests

from pkcelib import authorize_url, new_verifier, parse_page, Page, _submit_fields, _same_endpoint
from wardenlib import HTTP_TIMEOUT, Warden, describe, expect_status, from_address, json_of

FACTORS = ("push-notification", "otp", "recovery-code")
#: The WebAuthn second factors of SPEC §17, off unless a test turns them on.
WEBAUTHN_FACTORS = ("webauthn-roaming", "webauthn-platform")
MULTI_FACTOR_ACR = "http://schemas.openid.net/pape/policies/2007/06/multi-factor"


@contextlib.contextmanager
def mfa_settings(warden: Warden, *, policy: list[str], factors: tuple[str, ...] = FACTORS) -> Iterator[None]:
    """PUT guardian/factors/{name} and guardian/policies (SPEC §12) for the body; [] and every factor off after."""
    try:
        for name in FACTORS + WEBAUTHN_FACTORS:
            r = expect_status(warden.mgmt("PUT", f"guardian/factors/{name}", json={"enabled": name in factors}), 200)
            assert json_of(r) == {"enabled": name in factors}, describe(r)
        expect_status(warden.mgmt("PUT", "guardian/policies", json=policy), 200)
        yield
    finally:
        warden.mgmt("PUT", "guardian/policies", json=[])
        for name in FACTORS + WEBAUTHN_FACTORS:
            warden.mgmt("PUT", f"guardian/factors/{name}", json={"enabled": False})


@dataclass
class Step:
    """Where the browser stopped: an MFA page (its path, the parsed page and the response) or the callback."""

    response: requests.Response
    page: Page | None = None
    callback: dict[str, str] | None = None

    @property
    def path(self) -> str:
        return urlsplit(self.response.url).path

    @property
    def state(self) -> str:
        return parse_qs(urlsplit(self.response.url).query).get("state", [""])[0]

    def form(self, field: str = "code"):
        forms = [f for f in (self.page.forms if self.page else []) if field in f.field_names() or not field]
        assert forms, f"no form with {field!r} on {self.path}: {self.page.text if self.page else ''}"
        return forms[0]


class Browser:
    """One browser: its cookies (the SSO session, `warden_device`) live in `http`."""

    def __init__(self, warden: Warden, source_ip: str = "127.0.0.1", user_agent: str | None = None):
        self.warden = warden
        self.http = from_address(source_ip)
        self.http.headers["User-Agent"] = user_agent or (
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36")
        self.redirect_uri = ""
        self.verifier = ""

    def follow(self, r: requests.Response, max_steps: int = 8) -> Step:
        """Follows redirects until a page (200/4xx) or the redirect to the callback."""
        for _ in range(max_steps):
            if r.status_code in (301, 302, 303):
                target = urljoin(r.url, r.headers["Location"])
                if self.redirect_uri and _same_endpoint(target, self.redirect_uri):
                    query = {k: v[0] for k, v in parse_qs(urlsplit(target).query).items()}
                    return Step(response=r, callback=query)
                r = self.http.get(target, allow_redirects=False, timeout=HTTP_TIMEOUT)
                continue
            return Step(response=r, page=parse_page(r.text))
        raise AssertionError(f"too many redirects: {describe(r)}")

    def authorize(self, client_id: str, redirect_uri: str, **extra: str) -> Step:
        """GET /authorize (PKCE S256), following to the login page, an MFA page or the callback."""
        self.redirect_uri, self.verifier = redirect_uri, new_verifier()
        url = authorize_url(self.warden, client_id, redirect_uri, verifier=self.verifier, state="st", nonce="n",
                            **extra)
        return self.follow(self.http.get(url, allow_redirects=False, timeout=HTTP_TIMEOUT))

    def sign_in(self, client_id: str, redirect_uri: str, email: str, password: str, **extra: str) -> Step:
        """/authorize, then the password form when it is shown: stops at the next MFA page or the callback."""
        step = self.authorize(client_id, redirect_uri, **extra)
        if step.page is not None and any(f.has_password() for f in step.page.forms):
            form = [f for f in step.page.forms if f.has_password()][0]
            data = _submit_fields(form, {"username": email, "password": password}, None)
            step = self.follow(self.http.post(urljoin(step.response.url, form.action), data=data,
                                              allow_redirects=False, timeout=HTTP_TIMEOUT))
        return step

    def submit(self, step: Step, field: str = "code", value: str | None = None, *, csrf: str | None = None) -> Step:
        """Posts the page's form (with `field` = `value` when given)."""
        form = step.form(field if value is not None else "")
        values = {field: value} if value is not None else {}
        data = _submit_fields(form, values, None)
        if csrf is not None:
            data = [(k, csrf if k == "csrf" else v) for k, v in data]
        return self.follow(self.http.post(urljoin(step.response.url, form.action), data=data, allow_redirects=False,
                                          timeout=HTTP_TIMEOUT))

    def get(self, step: Step, path: str) -> Step:
        """GET an MFA page of the transaction `step` is on."""
        url = self.warden.url(f"u/mfa/{path}") + "?state=" + step.state
        return self.follow(self.http.get(url, allow_redirects=False, timeout=HTTP_TIMEOUT))

    def reload(self, step: Step) -> Step:
        return self.follow(self.http.get(step.response.url, allow_redirects=False, timeout=HTTP_TIMEOUT))

    def exchange(self, client_id: str, code: str) -> dict:
        r = requests.post(self.warden.token_endpoint, data={
            "grant_type": "authorization_code", "client_id": client_id, "code": code,
            "code_verifier": self.verifier, "redirect_uri": self.redirect_uri}, timeout=HTTP_TIMEOUT)
        return json_of(expect_status(r, 200))


def otpauth_secret(page_html: str) -> str:
    """The base32 secret the enrolment page shows for typing (grouped by four)."""
    match = re.search(r"enter this key in the app: <code>([A-Z2-7 ]+)</code>", page_html, re.IGNORECASE)
    assert match, "no secret on the enrolment page"
    return match.group(1).replace(" ", "")


def recovery_code(page_html: str) -> str:
    match = re.search(r'<code class="recovery"[^>]*>([A-Z0-9 ]+)</code>', page_html)
    assert match, "no recovery code on the page"
    return match.group(1).replace(" ", "")
