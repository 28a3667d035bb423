"""Helpers for the Authorization Code Flow with PKCE tests (SPEC §3, §5), spoken from the outside.

- `create_user` / `create_public_client`: setup through the Management API.
- `hosted_login`: what a browser does, with `requests` and the stdlib HTML parser: GET /authorize, follow to the
  hosted login page (/u/login), read its form (action, hidden inputs such as the CSRF token), post `username` and
  `password`, accept a consent page if one comes, and stop at the redirect to the registered callback: that last
  Location is read, never followed (the callback host need not exist).
- `token_form` / `refresh_form`: raw token-endpoint calls, for exact statuses and error codes.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import requests

from wardenlib import HTTP_TIMEOUT, Warden, describe, expect_status, json_of, uid

CONNECTION = "Username-Password-Authentication"
SCOPE = "openid profile email offline_access"
SESSION_COOKIE = "warden_session"


# ------------------------------------------------------------------------------------------------------ PKCE
def new_verifier() -> str:
    """A fresh RFC 7636 code_verifier: 86 characters of [A-Za-z0-9-_] (43–128 allowed)."""
    return secrets.token_urlsafe(64)


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def at_hash(access_token: str) -> str:
    """OIDC Core §3.1.3.6 for RS256/ES256/PS256: base64url of the left half of SHA-256 of the access token."""
    digest = hashlib.sha256(access_token.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest[: len(digest) // 2]).rstrip(b"=").decode()


# ----------------------------------------------------------------------------------------------------- setup
@dataclass
class User:
    user_id: str
    email: str
    password: str
    body: dict


def create_user(warden: Warden, **fields: Any) -> User:
    """POST /api/v2/users {email, password, connection} (plus `fields`); 201 expected."""
    password = fields.pop("password", None) or f"Interop-{secrets.token_urlsafe(12)}-Passw0rd!"
    body = {"email": f"pkce-{uid()}@interop.test", "password": password, "connection": CONNECTION,
            "name": "Pat Interop"}
    body.update(fields)
    created = json_of(expect_status(warden.mgmt("POST", "users", json=body), 201))
    assert created.get("user_id"), f"no user_id in {created}"
    return User(user_id=created["user_id"], email=body["email"], password=password, body=created)


def create_public_client(warden: Warden, callbacks: list[str], *, app_type: str = "spa", **fields: Any) -> dict:
    """A public client (token_endpoint_auth_method none) allowed authorization_code and refresh_token."""
    body = {"app_type": app_type, "grant_types": ["authorization_code", "refresh_token"],
            "token_endpoint_auth_method": "none", "callbacks": callbacks}
    body.update(fields)
    return warden.create_client(**body)


def fake_callback() -> str:
    """A registered callback on a host that does not exist: the flow stops at the redirect to it."""
    return f"https://app-{uid()}.interop.test/callback"


def authorize_url(warden: Warden, client_id: str, redirect_uri: str, *, verifier: str | None, state: str | None = None,
                  nonce: str | None = None, scope: str = SCOPE, **extra: str) -> str:
    params = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "scope": scope}
    if state is not None:
        params["state"] = state
    if nonce is not None:
        params["nonce"] = nonce
    if verifier is not None:
        params.update(code_challenge=s256(verifier), code_challenge_method="S256")
    params.update(extra)
    return warden.url("authorize") + "?" + urlencode(params)


# ------------------------------------------------------------------------------------------------ HTML forms
@dataclass
class Form:
    action: str | None
    method: str
    inputs: list[dict] = field(default_factory=list)  # attributes of every <input>
    buttons: list[dict] = field(default_factory=list)  # attributes of every <button> and submit/image <input>

    def field_names(self) -> set[str]:
        return {i.get("name") for i in self.inputs if i.get("name")}

    def has_password(self) -> bool:
        return any((i.get("type") or "").lower() == "password" or i.get("name") == "password" for i in self.inputs)

    def hidden(self) -> dict[str, str]:
        return {i["name"]: i.get("value") or "" for i in self.inputs
                if i.get("name") and (i.get("type") or "").lower() == "hidden"}

    def button_values(self, name: str) -> list[str]:
        return [b.get("value") or "" for b in self.buttons if b.get("name") == name]


class _FormParser(HTMLParser):
    """Collects forms (action, method, inputs, submit buttons), the <title> and the visible text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.title = ""
        self.text: list[str] = []
        self._in_title = False
        self._skip = 0  # inside <script>/<style>
        self._current: Form | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self._current = Form(action=a.get("action"), method=(a.get("method") or "get").lower())
            self.forms.append(self._current)
        elif tag == "input" and self._current is not None:
            self._current.inputs.append(a)
            if (a.get("type") or "").lower() in ("submit", "image"):
                self._current.buttons.append(a)
        elif tag == "button" and self._current is not None:
            if (a.get("type") or "submit").lower() == "submit":
                self._current.buttons.append(a)
        elif tag == "title":
            self._in_title = True
        elif tag in ("script", "style"):
            self._skip += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._current = None
        elif tag == "title":
            self._in_title = False
        elif tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data
        elif not self._skip and data.strip():
            self.text.append(data.strip())


@dataclass
class Page:
    forms: list[Form]
    title: str
    text: str


def parse_page(html: str) -> Page:
    parser = _FormParser()
    parser.feed(html)
    parser.close()
    return Page(forms=parser.forms, title=parser.title.strip(), text=" ".join(parser.text))


# ------------------------------------------------------------------------------------------- hosted login
class LoginFailed(AssertionError):
    """The hosted login page came back with its form again (wrong credentials, locked user, CSRF refusal…)."""


@dataclass
class Callback:
    url: str  # the full redirect to the registered callback (the Location, made absolute), never fetched
    params: dict[str, str]  # its query parameters (or the form_post fields)
    session: requests.Session  # carries the cookies: the SSO session after a login
    steps: list[str]  # what happened, for assertion messages
    login_response: requests.Response | None  # the answer to the credentials post (has the Set-Cookie)

    @property
    def code(self) -> str:
        assert "code" in self.params, f"no code in the callback {self.url}\n" + "\n".join(self.steps)
        return self.params["code"]


def _same_endpoint(url: str, redirect_uri: str) -> bool:
    a, b = urlsplit(url), urlsplit(redirect_uri)
    return (a.scheme, a.netloc.lower(), a.path) == (b.scheme, b.netloc.lower(), b.path)


def _step(r: requests.Response) -> str:
    where = r.headers.get("Location")
    return f"{r.request.method} {r.request.url} -> {r.status_code}" + (f" Location: {where}" if where else "")


def _submit_fields(form: Form, values: dict[str, str], button: tuple[str, str] | None) -> list[tuple[str, str]]:
    """What a browser posts: every named input (hidden ones with their values) with `values` filled in, and the
    clicked button."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for i in form.inputs:
        name, kind = i.get("name"), (i.get("type") or "text").lower()
        if not name or kind in ("submit", "image", "button", "reset", "file"):
            continue
        if kind in ("checkbox", "radio") and "checked" not in i:
            continue
        out.append((name, values[name] if name in values else (i.get("value") or "")))
        seen.add(name)
    out.extend((k, v) for k, v in values.items() if k not in seen)
    if button is not None:
        out.append(button)
    return out


def hosted_login(warden: Warden, url: str, *, redirect_uri: str, email: str | None = None,
                 password: str | None = None, session: requests.Session | None = None, consent: str = "accept",
                 max_steps: int = 12) -> Callback:
    """Runs the browser side of the flow from `url` (an /authorize URL) until a redirect to `redirect_uri`.

    Logs in through the hosted form when it is shown (needs `email`/`password`), answers a consent page with
    `action=consent`, and returns the callback without fetching it. With an existing SSO session in `session` the
    login form may not appear at all. Raises LoginFailed when the login form comes back after the credentials."""
    s = session or requests.Session()
    steps: list[str] = []
    method, data, login_response = "GET", None, None
    posted_login = False
    for _ in range(max_steps):
        r = s.request(method, url, data=data, allow_redirects=False, timeout=HTTP_TIMEOUT)
        steps.append(_step(r))
        if posted_login and login_response is None:
            login_response = r
        if r.status_code in (301, 302, 303, 307, 308):
            assert r.headers.get("Location"), f"redirect without Location: {describe(r)}"
            target = urljoin(r.url, r.headers["Location"])
            if _same_endpoint(target, redirect_uri):
                query = {k: v[0] for k, v in parse_qs(urlsplit(target).query, keep_blank_values=True).items()}
                return Callback(url=target, params=query, session=s, steps=steps, login_response=login_response)
            if r.status_code in (307, 308) and method == "POST":
                url = target
            else:
                url, method, data = target, "GET", None
            continue
        assert r.status_code == 200, f"unexpected answer in the login flow: {describe(r)}\n" + "\n".join(steps)
        page = parse_page(r.text)
        # response_mode=form_post: an auto-submitting form aimed at the callback
        to_callback = [f for f in page.forms if f.action and _same_endpoint(urljoin(r.url, f.action), redirect_uri)]
        if to_callback:
            form = to_callback[0]
            params = {i["name"]: i.get("value") or "" for i in form.inputs if i.get("name")}
            return Callback(url=urljoin(r.url, form.action), params=params, session=s, steps=steps,
                            login_response=login_response)
        login = [f for f in page.forms if f.has_password()]
        decision = [f for f in page.forms if f.button_values("action")]
        if login:
            if posted_login:
                raise LoginFailed(f"the login form came back after posting the credentials: {page.title!r}: "
                                  f"{page.text[:500]}\n" + "\n".join(steps))
            assert email is not None and password is not None, "the login form was shown but no credentials given"
            form = login[0]
            assert {"username", "password"} <= form.field_names(), f"login form fields: {form.field_names()}"
            assert form.method == "post", f"the login form method is {form.method!r}"
            named = [b for b in form.buttons if b.get("name")]
            button = (named[0]["name"], named[0].get("value") or "") if named else None
            data = _submit_fields(form, {"username": email, "password": password}, button)
            url, method, posted_login = urljoin(r.url, form.action or ""), "POST", True
            login_response = None
            continue
        if decision:
            form = decision[0]
            assert consent in form.button_values("action"), f"no action={consent} button: {form.buttons}"
            data = _submit_fields(form, {}, ("action", consent))
            url, method = urljoin(r.url, form.action or ""), form.method.upper()
            continue
        raise AssertionError(f"a page without a login, consent or callback form: {describe(r)}\n" + "\n".join(steps))
    raise AssertionError("too many steps in the login flow:\n" + "\n".join(steps))


# ------------------------------------------------------------------------------------ ID tokens (auth0-python)
def auth0_token_verifier(warden: Warden, client_id: str):
    """auth0-python's TokenVerifier (issuer, audience, exp/iat, nonce, azp, auth_time checks) over the JWKS.

    auth0-python's JwksFetcher reads every JWKS key as RSA (`RSAAlgorithm.from_jwk`) and raises "Not an RSA key"
    once the tenant also publishes an EC or OKP key (ES256, EdDSA), as the session's shared server does (its
    other tests configure ES256 APIs). Here the fetcher is given the RSA keys only, which is what an application
    using that SDK must do on such a tenant; a default tenant publishes RSA keys
    only and the SDK works unchanged (test_pkce_auth0.test_auth0_python_token_verifier_unchanged_on_a_fresh_tenant)."""
    from auth0.authentication.token_verifier import AsymmetricSignatureVerifier, JwksFetcher, TokenVerifier

    class RSAKeysOnly(JwksFetcher):
        @staticmethod
        def _parse_jwks(jwks: dict) -> dict:
            return JwksFetcher._parse_jwks({"keys": [k for k in jwks.get("keys", []) if k.get("kty") == "RSA"]})

    signature = AsymmetricSignatureVerifier(warden.jwks_uri)
    signature._fetcher = RSAKeysOnly(warden.jwks_uri)
    return TokenVerifier(signature_verifier=signature, issuer=warden.issuer, audience=client_id)


# ---------------------------------------------------------------------------------------------- token calls
def token_form(warden: Warden, **form: str) -> requests.Response:
    return warden.http.post(warden.token_endpoint, data=form, timeout=HTTP_TIMEOUT)


def code_exchange(warden: Warden, client_id: str, code: str, verifier: str, redirect_uri: str) -> requests.Response:
    return token_form(warden, grant_type="authorization_code", client_id=client_id, code=code,
                      code_verifier=verifier, redirect_uri=redirect_uri)


def refresh_form(warden: Warden, client_id: str, refresh_token: str, **extra: str) -> requests.Response:
    return token_form(warden, grant_type="refresh_token", client_id=client_id, refresh_token=refresh_token, **extra)


def userinfo(warden: Warden, access_token: str) -> requests.Response:
    return warden.http.get(warden.url("userinfo"), headers={"Authorization": f"Bearer {access_token}"},
                           timeout=HTTP_TIMEOUT)


def assert_oauth_error(response: requests.Response, status: int, error: str) -> dict:
    """The Authentication API error shape (SPEC conventions) with exactly this status and code."""
    assert response.status_code == status, describe(response)
    body = json_of(response)
    assert body.get("error") == error, describe(response)
    assert isinstance(body.get("error_description", ""), str), describe(response)
    assert "no-store" in response.headers.get("Cache-Control", ""), f"Cache-Control: {response.headers}"
    return body


def set_cookie_headers(response: requests.Response) -> list[str]:
    """Every Set-Cookie header of a response, unmerged."""
    raw = getattr(response.raw, "headers", None)
    if raw is not None and hasattr(raw, "getlist"):
        return list(raw.getlist("Set-Cookie"))
    value = response.headers.get("Set-Cookie")
    return [value] if value else []
