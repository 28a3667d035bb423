"""SPEC §15 "Users": what an upstream's claims make of the user, with oidc-provider-mock (PyPI; authlib underneath)
as the upstream OpenID provider of an `oidc` connection. Its people are whatever claims a test gives them
(`PUT /users/{sub}`), so the edge cases real providers produce can be made: an e-mail the provider did not verify,
none at all, `email_verified` absent, a profile that changes between logins, claims no standard names. The broker is
the suite's server, on SQLite or PostgreSQL."""

from __future__ import annotations

import threading
import warnings
from typing import Iterator

import pytest
import requests
import werkzeug.serving

from federationlib import PROTOCOL_CLAIMS, Federation, federation, redirect_params, user_of
from wardenlib import HTTP_TIMEOUT, describe, uid

# oidc-provider-mock 0.3 uses authlib's deprecated interfaces; their warnings say nothing about Warden.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class MockProvider:
    """oidc-provider-mock on a free loopback port (issuer `http://127.0.0.1:{port}`), nonce required. Any client id
    and secret are accepted; `sub` is who signs in at the next authorization."""

    def __init__(self) -> None:
        import authlib.deprecate  # installs an "always" filter for its warnings, which the next line overrides

        with warnings.catch_warnings():  # oidc-provider-mock imports authlib's deprecated modules
            warnings.simplefilter("ignore", authlib.deprecate.AuthlibDeprecationWarning)
            import oidc_provider_mock

        self.server = werkzeug.serving.make_server("127.0.0.1", 0, oidc_provider_mock.app(require_nonce=True),
                                                   threaded=True)
        self.base = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
        self.sub = ""

    def person(self, claims: dict) -> str:
        """A new person with these claims; they are the one who signs in next."""
        self.sub = f"mock-{uid()}"
        self.set_claims(claims)
        return self.sub

    def set_claims(self, claims: dict) -> None:
        r = requests.put(f"{self.base}/users/{self.sub}", json=claims, timeout=HTTP_TIMEOUT)
        assert r.status_code == 204, describe(r)

    def sign_in(self, session: requests.Session, location: str) -> dict:
        """The provider's authorization form, submitted for `sub`: its answer to Warden's callback."""
        r = session.post(location, data={"sub": self.sub}, allow_redirects=False, timeout=HTTP_TIMEOUT)
        assert r.status_code == 302, describe(r)
        return redirect_params(r.headers["Location"])


@pytest.fixture(scope="module")
def provider() -> Iterator[MockProvider]:
    made = MockProvider()
    made.thread.start()
    yield made
    made.server.shutdown()
    made.server.server_close()


def connect(warden, provider: MockProvider, **options):
    return federation(warden, {"discovery_url": f"{provider.base}/.well-known/openid-configuration",
                               "client_id": f"warden-{uid()}", "client_secret": "any", **options},
                      authorization_endpoint=f"{provider.base}/oauth2/authorize", sign_in_upstream=provider.sign_in,
                      upstream=provider, prefix="mock")


def user_after_login(made: Federation) -> dict:
    sub = made.sign_in()["sub"]
    assert sub == f"oidc|{made.name}|{made.upstream.sub}", sub
    return user_of(made.broker, sub)


@pytest.mark.parametrize("claims, verified", [
    ({"email": "Unverified@Mock.test", "email_verified": False}, False),
    ({"email": "absent-flag@mock.test"}, False),
    ({"email": "stringly@mock.test", "email_verified": "true"}, True),  # some providers send a string
    ({"email": "verified@mock.test", "email_verified": True}, True),
], ids=["unverified", "email_verified absent", "email_verified string", "verified"])
def test_email_verified_is_true_only_when_the_upstream_says_so(warden, provider, claims, verified):
    with connect(warden, provider) as made:
        provider.person({**claims, "name": "Mo Mock"})
        user = user_after_login(made)
        assert user["email"] == claims["email"].lower() and user["email_verified"] is verified, user
        assert user["identities"][0]["profileData"]["email"] == claims["email"], user


def test_a_login_without_an_email_makes_a_user_without_one(warden, provider):
    with connect(warden, provider) as made:
        provider.person({"name": "No Mail", "nickname": "nomail"})
        user = user_after_login(made)
        assert user.get("email") is None and user.get("email_verified") in (None, False), user
        assert user["name"] == "No Mail" and user["nickname"] == "nomail", user
        assert "email" not in user["identities"][0]["profileData"], user


@pytest.mark.parametrize("mode, root_follows, profile_follows", [
    ("on_each_login", True, True),
    ("on_first_login", False, True),
    ("never_on_login", False, False),
])
def test_a_changing_profile_is_written_as_set_user_root_attributes_says(warden, provider, mode, root_follows,
                                                                         profile_follows):
    first = {"email": f"first-{uid()}@mock.test", "email_verified": True, "name": "First Name", "picture":
             "https://pictures.mock.test/1.png", "given_name": "First", "family_name": "One", "nickname": "one"}
    second = {"email": f"second-{uid()}@mock.test", "email_verified": False, "name": "Second Name", "picture":
              "https://pictures.mock.test/2.png", "given_name": "Second", "family_name": "Two", "nickname": "two"}
    root_names = ("email", "email_verified", "name", "given_name", "family_name", "nickname", "picture")
    with connect(warden, provider, set_user_root_attributes=mode) as made:
        provider.person(first)
        created = user_after_login(made)
        assert {k: created.get(k) for k in root_names} == {k: first[k] for k in root_names}, created
        provider.set_claims(second)
        user = user_after_login(made)
        assert user["user_id"] == created["user_id"] and user["logins_count"] == 2, user
        root = second if root_follows else first
        assert {k: user.get(k) for k in root_names} == {k: root[k] for k in root_names}, user
        profile = user["identities"][0]["profileData"]
        assert profile["name"] == (second if profile_follows else first)["name"], profile
        assert [u["user_id"] for u in made.users()] == [created["user_id"]]


def test_bind_all_keeps_the_persons_claims_and_drops_the_protocol_ones(warden, provider):
    claims = {"email": f"bind-{uid()}@mock.test", "email_verified": True, "name": "Bea Bind",
              "department": "R&D", "groups": ["admins", "staff"], "employee_number": 4711,
              "address": {"locality": "Lyon", "country": "FR"}}
    with connect(warden, provider, scope="openid profile email address") as made:
        provider.person(claims)
        profile = user_after_login(made)["identities"][0]["profileData"]
        for name in ("department", "groups", "employee_number", "address", "name", "email", "email_verified"):
            assert profile[name] == claims[name], (name, profile)
        assert not PROTOCOL_CLAIMS & set(profile), profile


def test_use_map_keeps_only_the_mapped_attributes(warden, provider):
    claims = {"email": f"map-{uid()}@mock.test", "email_verified": True, "given_name": "Ula", "family_name": "Map",
              "department": "Sales", "org": {"unit": "EMEA"}}
    attribute_map = {"mapping_mode": "use_map", "attributes": {
        "name": "${context.tokenset.given_name} ${context.tokenset.family_name}",
        "email": "${context.userinfo.email}",
        "email_verified": "${context.tokenset.email_verified}",
        "nickname": "mapped-${context.tokenset.org.unit}",
        "team": "${context.tokenset.department}",
        "source": "oidc-provider-mock",
        "level": 3,
    }}
    with connect(warden, provider, attribute_map=attribute_map) as made:
        provider.person(claims)
        user = user_after_login(made)
        profile = user["identities"][0]["profileData"]
        assert profile == {"name": "Ula Map", "email": claims["email"], "email_verified": True,
                           "nickname": "mapped-EMEA", "team": "Sales", "source": "oidc-provider-mock", "level": 3}, \
            profile
        assert user["name"] == "Ula Map" and user["nickname"] == "mapped-EMEA" and user["email_verified"] is True
        assert "department" not in profile and "given_name" not in profile
