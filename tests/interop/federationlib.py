"""Helpers of the connection tests (SPEC §15): a connection of the suite's server to an upstream (a second Warden of
the tests' own here, Glewlwyd in glewlwydlib, oidc-provider-mock in test_connections_claims), and the browser side of
a federated login split at Warden's callback so a test can tamper with it."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from typing import Any, Callable, Iterator
from urllib.parse import parse_qs, urlsplit

import requests

from pkcelib import (authorize_url, code_exchange, create_public_client, create_user, fake_callback, hosted_login,
                     new_verifier)
from wardenlib import HTTP_TIMEOUT, Warden, default_binary, describe, expect_status, json_of, uid, verify_jwt

# The claims about the token rather than the person, which `bind_all` never keeps in `profileData` (SPEC §15 "Users").
PROTOCOL_CLAIMS = {"iss", "aud", "exp", "iat", "nbf", "nonce", "at_hash", "c_hash", "azp", "auth_time", "sid", "jti"}


def user_of(warden: Warden, user_id: str) -> dict:
    """GET /api/v2/users/{id}."""
    return json_of(expect_status(warden.mgmt("GET", f"users/{requests.utils.quote(user_id, safe='')}"), 200))


@contextlib.contextmanager
def upstream_warden() -> Iterator[Warden]:
    """A second Warden, on a SQLite file of its own, to be the upstream OpenID provider (Warden federating with
    Warden: regions, subsidiaries)."""
    workdir = tempfile.mkdtemp(prefix="warden-upstream-")
    node = Warden(binary=default_binary(), workdir=workdir, database_url=f"sqlite:{workdir}/upstream.sqlite",
                  mgmt_client_id="upstream-mgmt", mgmt_client_secret=secrets.token_urlsafe(36),
                  pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"))
    try:
        node.start()
        node.wait_ready(timeout=30)
        yield node
    except BaseException:
        print(node.output_tail(80))
        raise
    finally:
        node.stop()
        shutil.rmtree(workdir, ignore_errors=True)


@dataclass
class Federation:
    """A connection of `broker` to an upstream, enabled for a public client of `broker`, and a person at the
    upstream. `sign_in_upstream(session, location)` is what the person does at the upstream with the authorization
    request `location`: it returns the upstream's answer to Warden's callback (its parameters), not yet delivered."""
    broker: Warden
    connection: dict
    client_id: str
    redirect_uri: str
    authorization_endpoint: str
    sign_in_upstream: Callable[[requests.Session, str], dict]
    upstream: Any = None  # the upstream server (a Warden, a Glewlwyd …)
    person: Any = None  # the person's account there

    @property
    def name(self) -> str:
        return self.connection["name"]

    def authorize(self, verifier: str, **extra: str) -> str:
        return authorize_url(self.broker, self.client_id, self.redirect_uri, verifier=verifier,
                             state=uid(), nonce=uid(), connection=self.name, **extra)

    def to_upstream(self, session: requests.Session, verifier: str, **extra: str) -> str:
        """GET /authorize?connection=…: the redirect to the upstream's authorization endpoint."""
        r = session.get(self.authorize(verifier, **extra), allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert r.status_code == 302, describe(r)
        location = r.headers["Location"]
        assert location.startswith(self.authorization_endpoint + "?"), location
        return location

    def upstream_answer(self, session: requests.Session, verifier: str, **extra: str) -> dict:
        """The upstream's answer to Warden's callback, not yet delivered: the person signed in at the upstream."""
        return self.sign_in_upstream(session, self.to_upstream(session, verifier, **extra))

    def deliver(self, session: requests.Session, params: dict) -> requests.Response:
        return session.get(self.broker.url("login/callback"), params=params, allow_redirects=False,
                           timeout=HTTP_TIMEOUT)

    def users(self) -> list:
        """The broker's users of this connection (`identities.connection`, SPEC §15 "Users")."""
        q = f'identities.connection:"{self.name}"'
        return json_of(expect_status(self.broker.mgmt("GET", "users", params={"q": q}), 200))

    def sign_in(self, session: requests.Session | None = None) -> dict:
        """A whole federated login: the claims of the ID token Warden issues to the application, verified with
        joserfc against Warden's JWKS."""
        session = session or requests.Session()
        verifier = new_verifier()
        return self.finish(session, verifier, self.upstream_answer(session, verifier))

    def finish(self, session: requests.Session, verifier: str, answer: dict) -> dict:
        """Delivers the upstream's `answer` and exchanges the code Warden gives the application (PKCE `verifier`):
        the claims of Warden's ID token, verified with joserfc against Warden's JWKS."""
        params = callback_params(self.deliver(session, answer))
        assert "code" in params, params
        tokens = json_of(expect_status(code_exchange(self.broker, self.client_id, params["code"], verifier,
                                                     self.redirect_uri), 200))
        _, claims = verify_jwt(tokens["id_token"], self.broker.jwks(), ["RS256"])
        assert claims["iss"] == self.broker.issuer and claims["aud"] == self.client_id, claims
        return claims


def callback_params(response: requests.Response) -> dict:
    """The query of a redirect to the application."""
    assert response.status_code == 302, describe(response)
    return redirect_params(response.headers["Location"])


def redirect_params(location: str) -> dict:
    """The query of a redirect (an upstream's answer to Warden's callback, or Warden's to the application)."""
    return {k: v[0] for k, v in parse_qs(urlsplit(location).query, keep_blank_values=True).items()}


@contextlib.contextmanager
def federation(broker: Warden, options: dict, *, authorization_endpoint: str,
               sign_in_upstream: Callable[[requests.Session, str], dict], strategy: str = "oidc", upstream: Any = None,
               person: Any = None, prefix: str = "acme") -> Iterator[Federation]:
    """Creates the connection (`options`) and an application at the broker it is enabled for; deletes the
    connection on exit (one connection per issuer, SPEC §15)."""
    body = {"name": f"{prefix}-{uid()}"[:30], "strategy": strategy, "options": options}
    connection = json_of(expect_status(broker.mgmt("POST", "connections", json=body), 201))
    try:
        redirect_uri = fake_callback()
        client = create_public_client(broker, [redirect_uri], app_type="regular_web")
        expect_status(broker.mgmt("PATCH", f"connections/{connection['id']}/clients",
                                  json=[{"client_id": client["client_id"], "status": True}]), 204)
        yield Federation(broker=broker, connection=connection, client_id=client["client_id"],
                         redirect_uri=redirect_uri, authorization_endpoint=authorization_endpoint,
                         sign_in_upstream=sign_in_upstream, upstream=upstream, person=person)
    finally:
        expect_status(broker.mgmt("DELETE", f"connections/{connection['id']}"), 202)


@contextlib.contextmanager
def oidc_federation(broker: Warden, upstream: Warden, *, app: dict | None = None, **options) -> Iterator[Federation]:
    """A federation with a second Warden: the upstream application (`app`: more of its fields), a person there, the
    connection and the application at the broker."""
    made = upstream.create_client(**{"app_type": "regular_web", "grant_types": ["authorization_code"],
                                     "callbacks": [broker.url("login/callback")], **(app or {})})
    person = create_user(upstream, name="Uma Upstream")

    def sign_in(session: requests.Session, location: str, consent: str = "accept") -> dict:
        return hosted_login(upstream, location, redirect_uri=broker.url("login/callback"), email=person.email,
                            password=person.password, session=session, consent=consent).params

    with federation(broker, {"discovery_url": upstream.url(".well-known/openid-configuration"),
                             "client_id": made["client_id"], "client_secret": made["client_secret"],
                             "scope": "openid profile email", **options},
                    authorization_endpoint=upstream.url("authorize"), sign_in_upstream=sign_in, upstream=upstream,
                    person=person) as made_federation:
        yield made_federation
