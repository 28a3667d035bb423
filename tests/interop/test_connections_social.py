"""SPEC §15: social connections. `github` through a stand-in speaking GitHub's OAuth web flow and REST API at a
`base_url` (GitHub Enterprise Server's shape; github.com cannot be reached from here): the user id is GitHub's
numeric id, the e-mail the primary verified one, and the connection is a button on the login page."""

from __future__ import annotations

from urllib.parse import parse_qsl, urljoin, urlsplit

import pytest
import requests

from fake_github import FakeGitHub, GitHubAccount
from federationlib import callback_params
from pkcelib import authorize_url, code_exchange, create_public_client, fake_callback, new_verifier, parse_page
from wardenlib import HTTP_TIMEOUT, describe, expect_status, json_of, uid, verify_jwt


@pytest.fixture
def github(warden):
    account = GitHubAccount(id=1234567 + int(uid()[:4], 16), login="octocat", name="The Octocat",
                            emails=[{"email": "octo-secondary@example.com", "primary": False, "verified": True},
                                    {"email": "Octo@Example.com", "primary": True, "verified": True}])
    with FakeGitHub(account, client_id=f"gh-{uid()}", client_secret="gh-secret") as fake:
        name = f"github-{uid()}"[:30]
        connection = json_of(expect_status(warden.mgmt("POST", "connections", json={
            "name": name, "strategy": "github", "display_name": "GitHub",
            "options": {"client_id": fake.client_id, "client_secret": fake.client_secret, "email": True,
                        "base_url": fake.base_url}}), 201))
        redirect_uri = fake_callback()
        client = create_public_client(warden, [redirect_uri], app_type="regular_web")
        expect_status(warden.mgmt("PATCH", f"connections/{connection['id']}/clients",
                                  json=[{"client_id": client["client_id"], "status": True}]), 204)
        yield fake, connection, client["client_id"], redirect_uri
        expect_status(warden.mgmt("DELETE", f"connections/{connection['id']}"), 202)


def github_login(warden, github, session: requests.Session) -> dict:
    fake, connection, client_id, redirect_uri = github
    verifier = new_verifier()
    url = authorize_url(warden, client_id, redirect_uri, verifier=verifier, state=uid())
    page = session.get(url, timeout=HTTP_TIMEOUT)
    form = next(f for f in parse_page(page.text).forms if connection["name"] in f.button_values("connection"))
    r = session.post(urljoin(page.url, form.action), data={**form.hidden(), "connection": connection["name"]},
                     allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 302 and r.headers["Location"].startswith(fake.base_url + "/login/oauth/authorize"), \
        describe(r)
    query = dict(parse_qsl(urlsplit(r.headers["Location"]).query))
    assert query["scope"] == "user:email" and query["redirect_uri"] == warden.url("login/callback")
    at_github = session.get(r.headers["Location"], allow_redirects=False, timeout=HTTP_TIMEOUT)
    back = session.get(at_github.headers["Location"], allow_redirects=False, timeout=HTTP_TIMEOUT)
    params = callback_params(back)
    assert "code" in params, params
    tokens = json_of(expect_status(code_exchange(warden, client_id, params["code"], verifier, redirect_uri), 200))
    return verify_jwt(tokens["id_token"], warden.jwks(), ["RS256"])[1]


def test_a_github_login_makes_a_user_with_the_numeric_id_and_the_primary_verified_email(warden, github):
    fake = github[0]
    claims = github_login(warden, github, requests.Session())
    assert claims["sub"] == f"github|{fake.account.id}"
    user = json_of(expect_status(warden.mgmt("GET", f"users/{requests.utils.quote(claims['sub'], safe='')}"), 200))
    assert user["email"] == "octo@example.com" and user["email_verified"] is True
    assert user["nickname"] == "octocat" and user["name"] == "The Octocat"
    identity, = user["identities"]
    assert identity["user_id"] == fake.account.id and isinstance(identity["user_id"], int)
    assert identity["provider"] == "github" and identity["isSocial"] is True
    assert identity["connection"] == github[1]["name"]
    again = github_login(warden, github, requests.Session())
    assert again["sub"] == claims["sub"]
    assert {"POST /login/oauth/access_token", "GET /api/v3/user", "GET /api/v3/user/emails"} <= set(fake.requests)


def test_a_code_github_refuses_ends_at_the_application_with_access_denied(warden, github):
    fake, connection, client_id, redirect_uri = github
    session = requests.Session()
    url = authorize_url(warden, client_id, redirect_uri, verifier=new_verifier(), state=uid(),
                        connection=connection["name"])
    location = session.get(url, allow_redirects=False, timeout=HTTP_TIMEOUT).headers["Location"]
    state = dict(parse_qsl(urlsplit(location).query))["state"]
    r = session.get(warden.url("login/callback"), params={"state": state, "code": "forged"}, allow_redirects=False,
                    timeout=HTTP_TIMEOUT)
    params = callback_params(r)
    assert params["error"] == "access_denied" and "refused the code" in params["error_description"], params
    q = f'identities.connection:"{connection["name"]}"'
    assert json_of(expect_status(warden.mgmt("GET", "users", params={"q": q}), 200)) == []
