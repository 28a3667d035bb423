"""Helpers of the connection tests (SPEC §15): an upstream Warden of the tests' own, an OIDC connection to it on the
suite's server, and the browser side of a federated login split at Warden's callback so a test can tamper with it."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from typing import Iterator
from urllib.parse import parse_qs, urlsplit

import requests

from pkcelib import Callback, authorize_url, create_public_client, create_user, fake_callback, hosted_login, User
from wardenlib import HTTP_TIMEOUT, Warden, default_binary, describe, expect_status, json_of, uid


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
    """An OIDC connection of `broker` to `upstream`, enabled for a public client of `broker`, and a person at
    `upstream`."""
    broker: Warden
    upstream: Warden
    connection: dict
    client_id: str
    redirect_uri: str
    person: User

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
        assert location.startswith(self.upstream.url("authorize")), location
        return location

    def upstream_answer(self, session: requests.Session, verifier: str, **extra: str) -> Callback:
        """The upstream's answer to Warden's callback, not yet delivered: the person signed in at the upstream."""
        location = self.to_upstream(session, verifier, **extra)
        return hosted_login(self.upstream, location, redirect_uri=self.broker.url("login/callback"),
                            email=self.person.email, password=self.person.password, session=session)

    def deliver(self, session: requests.Session, params: dict) -> requests.Response:
        return session.get(self.broker.url("login/callback"), params=params, allow_redirects=False,
                           timeout=HTTP_TIMEOUT)


def callback_params(response: requests.Response) -> dict:
    """The query of a redirect to the application."""
    assert response.status_code == 302, describe(response)
    return {k: v[0] for k, v in parse_qs(urlsplit(response.headers["Location"]).query).items()}


@contextlib.contextmanager
def oidc_federation(broker: Warden, upstream: Warden, **options) -> Iterator[Federation]:
    """Creates the upstream application, a person there, the connection and the application at the broker; deletes
    the connection on exit (one connection per issuer, SPEC §15)."""
    app = upstream.create_client(app_type="regular_web", grant_types=["authorization_code"],
                                 callbacks=[broker.url("login/callback")])
    person = create_user(upstream, name="Uma Upstream")
    body = {"name": f"acme-{uid()}"[:30], "strategy": "oidc",
            "options": {"discovery_url": upstream.url(".well-known/openid-configuration"),
                        "client_id": app["client_id"], "client_secret": app["client_secret"],
                        "scope": "openid profile email", **options}}
    connection = json_of(expect_status(broker.mgmt("POST", "connections", json=body), 201))
    redirect_uri = fake_callback()
    client = create_public_client(broker, [redirect_uri], app_type="regular_web")
    expect_status(broker.mgmt("PATCH", f"connections/{connection['id']}/clients",
                              json=[{"client_id": client["client_id"], "status": True}]), 204)
    try:
        yield Federation(broker=broker, upstream=upstream, connection=connection, client_id=client["client_id"],
                         redirect_uri=redirect_uri, person=person)
    finally:
        expect_status(broker.mgmt("DELETE", f"connections/{connection['id']}"), 202)
