"""Token introspection (RFC 7662, SPEC §5.1) and resource indicators (RFC 8707, SPEC §5) driven by authlib's
OAuth2Session — its `introspect_token`, its `private_key_jwt` client authentication (authlib signs the assertion
for the URL it posts to, as iddawc does: SPEC §4), and `resource` in its token and authorization requests — with
assertions signed by joserfc where the exact `aud` matters."""

from __future__ import annotations

import time
import uuid

import pytest
from authlib.common.security import generate_token
from authlib.integrations.base_client import OAuthError
from authlib.integrations.requests_client import OAuth2Session
from authlib.oauth2.rfc7523 import PrivateKeyJWT
from joserfc import jwt
from joserfc.jwk import RSAKey

from pkcelib import SCOPE, create_public_client, create_user, fake_callback, hosted_login
from wardenlib import HTTP_TIMEOUT, audiences, describe, json_of, verify_jwt

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"


@pytest.fixture(scope="module")
def basic(warden):
    """A client_secret_basic client with a grant on an API."""
    return warden.m2m(client_fields={"token_endpoint_auth_method": "client_secret_basic"})


def session_of(m2m, method: str = "client_secret_basic") -> OAuth2Session:
    return OAuth2Session(m2m.client_id, m2m.client_secret, token_endpoint_auth_method=method,
                         revocation_endpoint_auth_method=method, default_timeout=HTTP_TIMEOUT)


def test_authlib_introspects_an_access_token_it_got_with_a_resource_indicator(warden, basic):
    client = session_of(basic)
    token = client.fetch_token(warden.token_endpoint, grant_type="client_credentials", resource=basic.audience)
    _, claims = verify_jwt(token["access_token"], warden.jwks(), ["RS256", "ES256", "PS256", "EdDSA"])
    assert audiences(claims) == [basic.audience], claims
    r = client.introspect_token(warden.url("oauth/introspect"), token=token["access_token"],
                                token_type_hint="access_token")
    assert r.status_code == 200 and "no-store" in r.headers.get("Cache-Control", ""), describe(r)
    body = json_of(r)
    assert body["active"] is True and body["token_type"] == "Bearer", body
    assert body["client_id"] == basic.client_id and body["aud"] == basic.audience, body
    assert body["sub"] == f"{basic.client_id}@clients" and body["scope"] == "read:things write:things", body
    assert isinstance(body["exp"], int) and isinstance(body["iat"], int) and body["iss"] == warden.issuer, body
    garbage = client.introspect_token(warden.url("oauth/introspect"), token="not-a-token")
    assert garbage.status_code == 200 and json_of(garbage) == {"active": False}, describe(garbage)


def test_another_client_learns_nothing_but_the_apis_own_client_does(warden, basic):
    token = session_of(basic).fetch_token(warden.token_endpoint, grant_type="client_credentials",
                                          audience=basic.audience)["access_token"]
    stranger = warden.m2m(client_fields={"token_endpoint_auth_method": "client_secret_basic"})
    r = session_of(stranger).introspect_token(warden.url("oauth/introspect"), token=token)
    assert json_of(r) == {"active": False}, describe(r)
    # a client with a grant for the token's audience (the API itself) may introspect it (RFC 7662 §2.2)
    warden.create_client_grant(stranger.client_id, basic.audience, ["read:things"])
    r = session_of(stranger).introspect_token(warden.url("oauth/introspect"), token=token)
    assert json_of(r)["active"] is True, describe(r)


def test_client_errors(warden, basic):
    wrong_method = session_of(basic, "client_secret_post")  # SPEC §4: the registered method only
    r = wrong_method.introspect_token(warden.url("oauth/introspect"), token="x")
    assert r.status_code == 401 and json_of(r)["error"] == "invalid_client", describe(r)
    r = warden.http.post(warden.url("oauth/introspect"), auth=(basic.client_id, basic.client_secret), data={},
                         timeout=HTTP_TIMEOUT)
    assert r.status_code == 400 and json_of(r)["error"] == "invalid_request", describe(r)
    public = create_public_client(warden, [fake_callback()])
    r = warden.http.post(warden.url("oauth/introspect"), data={"client_id": public["client_id"], "token": "x"},
                         timeout=HTTP_TIMEOUT)
    assert r.status_code == 401 and json_of(r)["error"] == "invalid_client", describe(r)


@pytest.fixture(scope="module")
def keyed(warden):
    key = RSAKey.generate_key(2048)
    api = warden.create_api()
    client = warden.create_client(token_endpoint_auth_method=None, client_authentication_methods={
        "private_key_jwt": {"credentials": [
            {"credential_type": "public_key", "name": "k1", "pem": key.as_pem(private=False).decode()}]}})
    warden.create_client_grant(client["client_id"], api["identifier"], ["read:things"])
    return {"key": key, "client_id": client["client_id"], "audience": api["identifier"]}


class ShortLivedPrivateKeyJWT(PrivateKeyJWT):
    """authlib's private_key_jwt, `aud` the URL of each request, with `exp` inside SPEC §4's 5 minutes (authlib's
    default is an hour). Fresh claims per assertion: authlib stores the generated `jti` in the claims it is given."""

    def sign(self, auth, token_endpoint):
        self.claims = {"exp": int(time.time()) + 120}
        return super().sign(auth, token_endpoint)


def test_authlib_private_key_jwt_signs_for_the_introspection_endpoint(warden, keyed):
    pem = keyed["key"].as_pem(private=True).decode()
    client = OAuth2Session(keyed["client_id"], pem, token_endpoint_auth_method="private_key_jwt",
                           revocation_endpoint_auth_method="private_key_jwt", default_timeout=HTTP_TIMEOUT)
    client.register_client_auth_method(ShortLivedPrivateKeyJWT())
    token = client.fetch_token(warden.token_endpoint, grant_type="client_credentials", resource=keyed["audience"])
    r = client.introspect_token(warden.url("oauth/introspect"), token=token["access_token"])
    assert r.status_code == 200 and json_of(r)["active"] is True, describe(r)
    assert r.request.body and "client_assertion=" in r.request.body, r.request.body


def signed(keyed, aud: str) -> str:
    now = int(time.time())
    claims = {"iss": keyed["client_id"], "sub": keyed["client_id"], "aud": aud, "iat": now, "exp": now + 120,
              "jti": str(uuid.uuid4())}
    return jwt.encode({"alg": "RS256"}, claims, keyed["key"], algorithms=["RS256"])


@pytest.mark.parametrize("endpoint", ["oauth/introspect", "oauth/revoke"])
def test_an_assertion_for_an_endpoint_is_accepted_there_and_not_elsewhere(warden, keyed, endpoint):
    own = warden.http.post(warden.url(endpoint), timeout=HTTP_TIMEOUT, data={
        "token": "x", "client_assertion_type": ASSERTION_TYPE, "client_assertion": signed(keyed, warden.url(endpoint))})
    assert own.status_code == 200, describe(own)
    other = "oauth/revoke" if endpoint == "oauth/introspect" else "oauth/introspect"
    refused = warden.http.post(warden.url(endpoint), timeout=HTTP_TIMEOUT, data={
        "token": "x", "client_assertion_type": ASSERTION_TYPE, "client_assertion": signed(keyed, warden.url(other))})
    assert refused.status_code == 401 and json_of(refused)["error"] == "invalid_client", describe(refused)


@pytest.mark.parametrize("resource", ["unknown", "repeated", "conflict"])
def test_resource_errors_are_invalid_target_at_the_token_endpoint(warden, basic, resource):
    other = warden.create_api()["identifier"]
    extra = {"unknown": [("resource", "https://nowhere.interop.test/")],
             "repeated": [("resource", basic.audience), ("resource", other)],
             "conflict": [("resource", basic.audience), ("audience", other)]}[resource]
    r = warden.http.post(warden.token_endpoint, auth=(basic.client_id, basic.client_secret), timeout=HTTP_TIMEOUT,
                         data=[("grant_type", "client_credentials")] + extra)
    assert r.status_code == 400 and json_of(r)["error"] == "invalid_target", describe(r)
    with pytest.raises(OAuthError) as raised:
        session_of(basic).fetch_token(warden.token_endpoint, grant_type="client_credentials",
                                      resource="https://nowhere.interop.test/")
    assert raised.value.error == "invalid_target"


def test_authlib_authorization_request_with_a_resource(warden):
    api = warden.create_api(allow_offline_access=True)
    callback = fake_callback()
    spa = create_public_client(warden, [callback])
    user = create_user(warden)
    client = OAuth2Session(spa["client_id"], redirect_uri=callback, scope=SCOPE + " read:things",
                           code_challenge_method="S256", default_timeout=HTTP_TIMEOUT)
    verifier = generate_token(64)
    url, state = client.create_authorization_url(warden.url("authorize"), code_verifier=verifier,
                                                 resource=api["identifier"])
    done = hosted_login(warden, url, redirect_uri=callback, email=user.email, password=user.password)
    token = client.fetch_token(warden.token_endpoint, code=done.code, code_verifier=verifier)
    _, claims = verify_jwt(token["access_token"], warden.jwks(), ["RS256", "ES256", "PS256", "EdDSA"])
    assert api["identifier"] in audiences(claims), claims
    # and an unknown resource is an error redirect (SPEC §5), carrying state
    bad, bad_state = client.create_authorization_url(warden.url("authorize"), code_verifier=verifier,
                                                     resource="https://nowhere.interop.test/")
    refused = hosted_login(warden, bad, redirect_uri=callback, session=done.session)
    assert refused.params.get("error") == "invalid_target" and refused.params.get("state") == bad_state, refused.url
