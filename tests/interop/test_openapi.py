"""SPEC §9 `GET /api/v2/openapi.json`: the OpenAPI 3.1 description of the Management API and of the Authentication
API's JSON endpoints, "every response and error included".

The document is fetched from the live server (no token), validated as OpenAPI 3.1 with openapi-spec-validator, and
then used as the oracle for real traffic: every request below goes through `Api.call`, which fails when the status
is not documented for that operation, when the body does not validate (JSON Schema 2020-12, `$ref`s resolved in the
document) against the schema documented for that operation and status, when the body carries a property the schema
does not declare, or when a required response header is missing. The authenticator device API (SPEC §7) is
spoken by guardianlib.Device (RSA key, device JWTs, DPoP proofs, challenge responses), whose HTTP session is
watched the same way (`Api.watch`). The last test fails when a documented operation was never exercised. The
document's own checks (valid OpenAPI 3.1, error shapes, scopes) are in test_openapi_document.py.
"""

from __future__ import annotations

import json
import re
import time
import urllib.parse
from typing import Any

import pytest
import requests

from cibalib import CIBA_GRANT, ciba_app, request_form as ciba_request_form, start_request
from guardianlib import Device, device_error, tamper
from pkcelib import (authorize_url, code_exchange, create_public_client, create_user, fake_callback, hosted_login,
                     new_verifier)
import openapi_organizations
from openapilib import (CONNECTION, JSON_MEDIA, api, big_body, escape, media_type, placeholder_ids, poll,  # noqa: F401
                        rsa_public_pem, spec, ticket_for)  # noqa: F401  (api and spec are fixtures)
from federationlib import callback_params, oidc_federation, upstream_warden
from webauthnlib import Authenticator
from wardenlib import MANAGEMENT_SCOPES, describe, expect_status, json_of, uid, verify_jwt


def test_openapi_json_is_served_without_a_token(api, spec):
    response = api.expect(200, "GET", "/api/v2/openapi.json", bearer=False)
    assert response.json() == spec.doc
    assert media_type(response) == JSON_MEDIA
    # a token (even a bad one) changes nothing
    api.expect(200, "GET", "/api/v2/openapi.json", headers={"Authorization": "Bearer nonsense"})


# --------------------------------------------------------------------------------- authentication API
def test_health_discovery_and_jwks(api, warden):
    api.expect(200, "GET", "/healthz")
    api.expect(200, "GET", "/readyz")
    configuration = api.expect(200, "GET", "/.well-known/openid-configuration").json()
    assert configuration["issuer"] == warden.issuer
    keys = api.expect(200, "GET", "/.well-known/jwks.json").json()["keys"]
    # RS256 from the start; ES256, PS256 and EdDSA keys are made on first use (SPEC §2: "as configured")
    algorithms = {key["alg"] for key in keys}
    assert "RS256" in algorithms and algorithms <= {"RS256", "ES256", "PS256", "EdDSA"}, keys


def test_token_endpoint_success_in_form_json_and_basic(api, warden):
    m2m = warden.m2m()
    form = {"grant_type": "client_credentials", "client_id": m2m.client_id, "client_secret": m2m.client_secret,
            "audience": m2m.audience}
    body = api.expect(200, "POST", "/oauth/token", data=form).json()
    assert body["token_type"] == "Bearer" and body["scope"] == "read:things write:things"
    as_json = {**form, "scope": "read:things", "organization": None, "nonce": ""}
    assert api.expect(200, "POST", "/oauth/token", json=as_json).json()["scope"] == "read:things"
    # SPEC §4: HTTP Basic only for a client registered with client_secret_basic
    basic_m2m = warden.m2m(client_fields={"token_endpoint_auth_method": "client_secret_basic"})
    basic = {"grant_type": "client_credentials", "audience": basic_m2m.audience}
    api.expect(200, "POST", "/oauth/token", data=basic,
               headers={"Authorization": requests.auth._basic_auth_str(basic_m2m.client_id, basic_m2m.client_secret)})


def test_token_endpoint_errors(api, warden):
    m2m = warden.m2m()
    other = warden.create_api()
    base = {"grant_type": "client_credentials", "client_id": m2m.client_id, "client_secret": m2m.client_secret,
            "audience": m2m.audience}
    api.oauth_error(400, "invalid_request", data={k: v for k, v in base.items() if k != "grant_type"})
    api.oauth_error(400, "unsupported_grant_type", data={**base, "grant_type": "urn:example:nothing"})
    api.oauth_error(400, "invalid_request", data=json.dumps(base), headers={"Content-Type": "text/plain"})
    api.oauth_error(400, "invalid_request", data=urllib.parse.urlencode(base) + "&audience=again",
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    api.oauth_error(400, "invalid_request", data={k: v for k, v in base.items() if k != "audience"})
    api.oauth_error(400, "invalid_scope", data={**base, "scope": "read:things delete:everything"})
    api.oauth_error(400, "invalid_request", data="{not json", headers={"Content-Type": "application/json"})
    no_grant_type = warden.create_client(grant_types=[])
    api.oauth_error(400, "unauthorized_client", data={**base, "client_id": no_grant_type["client_id"],
                                                      "client_secret": no_grant_type["client_secret"]})
    api.oauth_error(401, "invalid_client", data={**base, "client_secret": "wrong" * 8})
    api.oauth_error(401, "invalid_client", data={**base, "client_id": "no-such-client-" + uid()})
    basic = api.oauth_error(401, "invalid_client", data={"grant_type": "client_credentials",
                                                         "audience": m2m.audience},
                            headers={"Authorization": requests.auth._basic_auth_str(m2m.client_id, "wrong" * 8)})
    assert basic.headers.get("WWW-Authenticate", "").lower().startswith("basic"), describe(basic)
    api.oauth_error(403, "access_denied", data={**base, "audience": other["identifier"]})
    api.oauth_error(413, "invalid_request", data={**base, "padding": "x" * (70 * 1024)})


def test_introspection_and_authorization_server_metadata(api, warden):
    """RFC 7662 and RFC 8414 through the document (SPEC §2, §5.1)."""
    assert api.expect(200, "GET", "/.well-known/oauth-authorization-server").json()["issuer"] == warden.issuer
    m2m = warden.m2m()
    token = warden.m2m_token(m2m)
    creds = {"client_id": m2m.client_id, "client_secret": m2m.client_secret}
    active = api.expect(200, "POST", "/oauth/introspect", data={**creds, "token": token}).json()
    assert active["active"] is True and active["client_id"] == m2m.client_id, active
    assert api.expect(200, "POST", "/oauth/introspect", json={**creds, "token": "garbage"}).json() == {"active": False}
    missing = api.expect(400, "POST", "/oauth/introspect", data=creds).json()
    assert missing["error"] == "invalid_request", missing
    wrong = api.expect(401, "POST", "/oauth/introspect", data={**creds, "client_secret": "wrong" * 8, "token": token})
    assert wrong.json()["error"] == "invalid_client", describe(wrong)


def test_dynamic_client_registration(api):
    """RFC 7591 through the document (SPEC §13; the suite's server runs with WARDEN_REGISTRATION=open)."""
    created = api.expect(201, "POST", "/oidc/register", json={
        "client_name": "OpenAPI agent", "redirect_uris": ["http://127.0.0.1:9/callback"],
        "token_endpoint_auth_method": "client_secret_post"}).json()
    assert created["client_secret_expires_at"] == 0 and created["client_secret"], created
    refused = api.expect(400, "POST", "/oidc/register", json={"redirect_uris": ["http://agent.test/callback"]})
    assert refused.json()["error"] == "invalid_redirect_uri", describe(refused)
    metadata = api.expect(400, "POST", "/oidc/register", json={"redirect_uris": ["https://agent.test/cb"],
                                                                "grant_types": ["client_credentials"]})
    assert metadata.json()["error"] == "invalid_client_metadata", describe(metadata)
    api.expect(413, "POST", "/oidc/register", json={"redirect_uris": ["https://agent.test/cb"],
                                                    "software_id": "x" * (70 * 1024)})


def test_backchannel_authorize_revoke_and_userinfo(api, warden):
    """The other JSON endpoints of the Authentication API (SPEC §3, §6.1, RFC 7009, OIDC Core §5.3), each success
    and error checked against the document."""
    app = ciba_app(warden)

    def request_form(**overrides: Any) -> dict:  # client_secret_post, the CIBA app's method
        form = {"client_id": app.client_id, "client_secret": app.client_secret,
                **ciba_request_form(warden, app, **overrides)}
        return {k: json.dumps(v) if isinstance(v, list) else v for k, v in form.items()}

    started = api.expect(200, "POST", "/bc-authorize", data=request_form()).json()
    assert started["interval"] == 5 and started["auth_req_id"], started
    missing = api.expect(400, "POST", "/bc-authorize", data=request_form(login_hint=None))
    assert missing.json()["error"] == "invalid_request", describe(missing)
    unbound = api.expect(400, "POST", "/bc-authorize", json={**request_form(), "binding_message": "<>"})
    assert unbound.json()["error"] == "invalid_binding_message", describe(unbound)
    assert api.expect(401, "POST", "/bc-authorize",
                      data={**request_form(), "client_secret": "wrong" * 8}).json()["error"] == "invalid_client"
    api.expect(413, "POST", "/bc-authorize", data={**request_form(), "padding": "x" * (70 * 1024)})

    callback = fake_callback()
    client = create_public_client(warden, [callback])
    user = create_user(warden)
    verifier = new_verifier()
    code = hosted_login(warden, authorize_url(warden, client["client_id"], callback, verifier=verifier,
                                              scope="openid profile email offline_access"),
                        redirect_uri=callback, email=user.email, password=user.password).code
    tokens = json_of(expect_status(code_exchange(warden, client["client_id"], code, verifier, callback), 200))
    bearer = {"Authorization": f"Bearer {tokens['access_token']}"}
    assert api.expect(200, "GET", "/userinfo", headers=bearer).json()["sub"] == user.user_id
    assert api.expect(200, "POST", "/userinfo", headers=bearer).json()["email"] == user.email
    assert api.expect(401, "GET", "/userinfo").json()["error"] == "invalid_token"
    api.expect(401, "POST", "/userinfo", headers={"Authorization": "Bearer not-a-token"})

    revoke = {"client_id": client["client_id"], "token": tokens["refresh_token"]}
    assert api.expect(200, "POST", "/oauth/revoke", data=revoke).content == b""
    api.expect(200, "POST", "/oauth/revoke", json={**revoke, "token": "never-issued"})
    assert api.expect(400, "POST", "/oauth/revoke", data={"client_id": client["client_id"]}).json()["error"] == \
        "invalid_request"
    assert api.expect(401, "POST", "/oauth/revoke", data={**revoke, "client_id": "nobody-" + uid()}).json()[
        "error"] == "invalid_client"


# ----------------------------------------------------------------------------------- management: auth
def test_every_management_operation_refuses_missing_and_bad_tokens(api, spec, warden):
    other = warden.m2m()
    foreign = warden.m2m_token(other)  # signed by Warden, but for another audience
    for path, method, _ in spec.management_operations():
        ids = placeholder_ids(path)
        api.error(401, "invalid_token", method.upper(), path, ids=ids, bearer=False)
        api.error(401, "invalid_token", method.upper(), path, ids=ids, token="not.a.jwt")
        api.error(401, "invalid_token", method.upper(), path, ids=ids, token=foreign)


def test_every_management_operation_needs_its_documented_scope(api, spec, warden):
    for path, method, operation in spec.management_operations():
        (scope,) = operation["security"][0]["bearerAuth"]
        token = warden.mgmt_token([s for s in MANAGEMENT_SCOPES if s != scope])
        body = api.error(403, "insufficient_scope", method.upper(), path, ids=placeholder_ids(path), token=token,
                         json={} if "requestBody" in operation else None)
        assert scope in body["message"], body


def test_unknown_ids_are_404_with_the_resource_code(api, spec):
    for path, method, operation in spec.management_operations():
        if "{" not in path:
            continue
        body = {}
        if "requestBody" in operation:
            body = {"json": {"permissions": [{"resource_server_identifier": "x", "permission_name": "y"}]}
                    if path.endswith("/permissions") else {"roles": ["rol_nothing"]}
                    if path.endswith("/roles") else {}}
        api.expect(404, method.upper(), path, ids=placeholder_ids(path), **body)


# -------------------------------------------------------------------------------- management: clients
def test_clients(api, warden):
    name = f"openapi client {uid()}"
    created = api.expect(201, "POST", "/api/v2/clients", json={
        "name": name, "description": "for the OpenAPI test", "app_type": "regular_web", "is_first_party": False,
        "grant_types": ["authorization_code", "refresh_token", "client_credentials"],
        "callbacks": ["https://app.openapi.test/callback", "com.example.app://callback"],
        "allowed_logout_urls": ["https://app.openapi.test/bye"], "allowed_origins": ["https://app.openapi.test"],
        "web_origins": ["https://app.openapi.test"], "initiate_login_uri": "https://app.openapi.test/login",
        "token_endpoint_auth_method": "client_secret_basic",
        "jwt_configuration": {"alg": "ES256", "lifetime_in_seconds": 3600},
        "refresh_token": {"rotation_type": "rotating", "expiration_type": "expiring", "token_lifetime": 86400,
                          "leeway": 0},
        "session_transfer": {"can_create_session_transfer_token": True,
                             "allowed_authentication_methods": ["cookie", "query"],
                             "enforce_device_binding": "asn", "allow_refresh_token": True,
                             "enforce_cascade_revocation": False},
        "backchannel_token_delivery_mode": "ping",
        "backchannel_client_notification_endpoint": "https://app.openapi.test/ciba",
        "client_metadata": {"team": "openapi"},
    }).json()
    cid = created["client_id"]
    assert created["client_secret"] and created["name"] == name
    public = api.expect(201, "POST", "/api/v2/clients", json={
        "name": f"public {uid()}", "app_type": "spa", "token_endpoint_auth_method": "none",
        "grant_types": ["authorization_code"], "callbacks": ["https://spa.openapi.test/cb"],
        "description": None}).json()
    assert "client_secret" not in public and public["token_endpoint_auth_method"] == "none"
    keyed = api.expect(201, "POST", "/api/v2/clients", json={
        "name": f"keyed {uid()}", "app_type": "non_interactive", "grant_types": ["client_credentials"],
        "client_authentication_methods": {"private_key_jwt": {"credentials": [
            {"credential_type": "public_key", "name": "k1", "pem": rsa_public_pem(), "alg": "RS256"}]}}}).json()
    assert "client_secret" not in keyed and "token_endpoint_auth_method" not in keyed
    credential = keyed["client_authentication_methods"]["private_key_jwt"]["credentials"][0]
    assert credential["id"].startswith("cred_") and "pem" not in credential

    got = api.expect(200, "GET", "/api/v2/clients/{id}", ids={"id": cid}).json()
    assert got["session_transfer"]["enforce_device_binding"] == "asn" and "client_secret" not in got
    listed = api.expect(200, "GET", "/api/v2/clients", params={"per_page": 100}).json()
    assert isinstance(listed, list)
    page = api.expect(200, "GET", "/api/v2/clients", params={"include_totals": "true", "per_page": 2,
                                                             "page": 1}).json()
    assert page["start"] == 2 and page["limit"] == 2 and page["length"] == len(page["clients"])
    assert api.expect(200, "GET", "/api/v2/clients", params={"page": 100000}).json() == []
    api.error(400, "invalid_query_string", "GET", "/api/v2/clients", params={"per_page": 101})
    api.error(400, "invalid_query_string", "GET", "/api/v2/clients", params={"page": -1})

    patched = api.expect(200, "PATCH", "/api/v2/clients/{id}", ids={"id": cid}, json={
        "name": name + " (renamed)", "session_transfer": None, "backchannel_token_delivery_mode": "poll",
        "jwt_configuration": None}).json()
    assert "session_transfer" not in patched and patched["jwt_configuration"]["alg"] == "RS256"
    keyed_patch = api.expect(200, "PATCH", "/api/v2/clients/{id}", ids={"id": keyed["client_id"]}, json={
        "client_authentication_methods": {"private_key_jwt": {"credentials": [{"id": credential["id"]}]}}}).json()
    assert keyed_patch["client_authentication_methods"]["private_key_jwt"]["credentials"][0]["id"] == credential["id"]
    rotated = api.expect(200, "POST", "/api/v2/clients/{id}/rotate-secret", ids={"id": cid}).json()
    assert rotated["client_secret"] != created["client_secret"]
    # Issue 33: a client without a secret has none to rotate, a documented 400.
    api.error(400, "invalid_body", "POST", "/api/v2/clients/{id}/rotate-secret", ids={"id": public["client_id"]})

    api.error(400, "invalid_body", "POST", "/api/v2/clients", json={"name": "x", "colour": "blue"})
    api.error(400, "invalid_body", "POST", "/api/v2/clients", json={"app_type": "spa"})
    api.error(400, "invalid_body", "POST", "/api/v2/clients", json={"name": "x", "app_type": "mainframe"})
    api.error(400, "invalid_body", "POST", "/api/v2/clients", data="{nope",
              headers={"Content-Type": "application/json"})
    api.error(400, "invalid_body", "PATCH", "/api/v2/clients/{id}", ids={"id": cid},
              json={"session_transfer": {"enforce_device_binding": "moon"}})
    api.error(413, "payload_too_large", "POST", "/api/v2/clients", data=big_body(),
              headers={"Content-Type": "application/json"})
    api.error(413, "payload_too_large", "PATCH", "/api/v2/clients/{id}", ids={"id": cid}, data=big_body(),
              headers={"Content-Type": "application/json"})

    for client in (created, public, keyed):
        api.expect(204, "DELETE", "/api/v2/clients/{id}", ids={"id": client["client_id"]})
    api.error(404, "inexistent_client", "GET", "/api/v2/clients/{id}", ids={"id": cid})
    api.error(404, "inexistent_client", "DELETE", "/api/v2/clients/{id}", ids={"id": cid})
    api.error(404, "inexistent_client", "POST", "/api/v2/clients/{id}/rotate-secret", ids={"id": cid})
    api.error(404, "inexistent_client", "PATCH", "/api/v2/clients/{id}", ids={"id": cid}, json={"name": "x"})


# ------------------------------------------------------------------------------- management: APIs
def test_resource_servers(api, warden):
    identifier = f"https://openapi-{uid()}.interop.test/"
    created = api.expect(201, "POST", "/api/v2/resource-servers", json={
        "identifier": identifier, "name": "openapi api",
        "scopes": [{"value": "read:things", "description": "Read things"}, {"value": "write:things"}],
        "token_lifetime": 600, "signing_alg": "ES256", "authorization_details": [{"type": "money_transfer"}],
        "enforce_policies": True, "allow_offline_access": True,
        "skip_consent_for_verifiable_first_party_clients": False}).json()
    rid = created["id"]
    api.error(409, "conflict", "POST", "/api/v2/resource-servers", json={"identifier": identifier})
    api.expect(200, "GET", "/api/v2/resource-servers/{id}", ids={"id": rid})
    by_identifier = api.expect(200, "GET", "/api/v2/resource-servers/{id}", ids={"id": identifier}).json()
    assert by_identifier["id"] == rid
    assert isinstance(api.expect(200, "GET", "/api/v2/resource-servers").json(), list)
    page = api.expect(200, "GET", "/api/v2/resource-servers", params={"include_totals": "true"}).json()
    assert page["total"] >= 2
    patched = api.expect(200, "PATCH", "/api/v2/resource-servers/{id}", ids={"id": rid}, json={
        "name": "renamed", "signing_alg": None, "token_lifetime": None, "scopes": [{"value": "only:this"}]}).json()
    assert patched["signing_alg"] == "RS256" and patched["token_lifetime"] == 86400
    api.error(400, "invalid_body", "PATCH", "/api/v2/resource-servers/{id}", ids={"id": rid},
              json={"identifier": "https://changed.example/"})
    api.error(400, "invalid_body", "POST", "/api/v2/resource-servers", json={"name": "no identifier"})
    api.error(400, "invalid_body", "POST", "/api/v2/resource-servers",
              json={"identifier": f"https://{uid()}.test/", "scopes": [{"value": "has space"}]})
    api.error(413, "payload_too_large", "POST", "/api/v2/resource-servers", data=big_body(),
              headers={"Content-Type": "application/json"})
    api.error(413, "payload_too_large", "PATCH", "/api/v2/resource-servers/{id}", ids={"id": rid},
              data=big_body(), headers={"Content-Type": "application/json"})

    system = warden.system_api()
    api.error(403, "operation_not_allowed", "PATCH", "/api/v2/resource-servers/{id}", ids={"id": system["id"]},
              json={"name": "mine now"})
    api.error(403, "operation_not_allowed", "DELETE", "/api/v2/resource-servers/{id}", ids={"id": system["id"]})
    assert api.expect(200, "GET", "/api/v2/resource-servers/{id}", ids={"id": system["id"]}).json()["is_system"]

    api.expect(204, "DELETE", "/api/v2/resource-servers/{id}", ids={"id": rid})
    api.error(404, "inexistent_resource_server", "GET", "/api/v2/resource-servers/{id}", ids={"id": rid})
    api.error(404, "inexistent_resource_server", "DELETE", "/api/v2/resource-servers/{id}", ids={"id": rid})
    api.error(404, "inexistent_resource_server", "PATCH", "/api/v2/resource-servers/{id}", ids={"id": rid},
              json={"name": "x"})


# ------------------------------------------------------------------------------ management: connections
def test_connections(api, warden):
    """SPEC §15 "Management": every connection operation, its statuses and shapes."""
    client_id = warden.create_client()["client_id"]
    name = f"gh-{uid()}"[:40]
    created = api.expect(201, "POST", "/api/v2/connections", json={
        "name": name, "strategy": "github", "enabled_clients": [client_id], "metadata": {"team": "openapi"},
        "options": {"client_id": "gh", "client_secret": "gh-secret", "email": True}}).json()
    cid = created["id"]
    assert "client_secret" not in created["options"] and created["options"]["scope"] == ["user:email"]
    api.error(409, "conflict", "POST", "/api/v2/connections", json={"name": name, "strategy": "github",
                                                                    "options": {"client_id": "a", "client_secret": "b"}})
    api.error(400, "invalid_body", "POST", "/api/v2/connections", json={"name": "bad name", "strategy": "github"})
    api.error(413, "payload_too_large", "POST", "/api/v2/connections", data=big_body(),
              headers={"Content-Type": "application/json"})
    assert isinstance(api.expect(200, "GET", "/api/v2/connections").json(), list)
    page = api.expect(200, "GET", "/api/v2/connections", params={"include_totals": "true", "strategy": "github"}).json()
    assert all(c["strategy"] == "github" for c in page["connections"]) and page["total"] >= 1
    checkpoint = api.expect(200, "GET", "/api/v2/connections", params={"take": 1}).json()
    assert len(checkpoint["connections"]) == 1
    api.error(400, "invalid_query_string", "GET", "/api/v2/connections", params={"take": 0})
    assert api.expect(200, "GET", "/api/v2/connections/{id}", ids={"id": cid}).json()["name"] == name
    patched = api.expect(200, "PATCH", "/api/v2/connections/{id}", ids={"id": cid},
                         json={"display_name": "GitHub", "show_as_button": True}).json()
    assert patched["display_name"] == "GitHub" and patched["options"] == created["options"]
    api.error(400, "invalid_body", "PATCH", "/api/v2/connections/{id}", ids={"id": cid}, json={"name": "renamed"})
    clients = api.expect(200, "GET", "/api/v2/connections/{id}/clients", ids={"id": cid}).json()
    assert clients["clients"] == [{"client_id": client_id}]
    api.error(400, "invalid_query_string", "GET", "/api/v2/connections/{id}/clients", ids={"id": cid},
              params={"take": 101})
    api.expect(204, "PATCH", "/api/v2/connections/{id}/clients", ids={"id": cid},
               json=[{"client_id": client_id, "status": False}])
    api.error(400, "invalid_body", "PATCH", "/api/v2/connections/{id}/clients", ids={"id": cid},
              json=[{"client_id": client_id}])
    api.error(404, "inexistent_client", "PATCH", "/api/v2/connections/{id}/clients", ids={"id": cid},
              json=[{"client_id": f"nobody-{uid()}", "status": True}])
    ofclient = api.expect(200, "GET", "/api/v2/clients/{id}/connections", ids={"id": client_id}).json()
    assert [c["name"] for c in ofclient["connections"]] == [CONNECTION]

    database = api.expect(200, "GET", "/api/v2/connections", params={"name": CONNECTION}).json()[0]
    api.error(403, "operation_not_allowed", "DELETE", "/api/v2/connections/{id}", ids={"id": database["id"]})
    deleted = api.expect(202, "DELETE", "/api/v2/connections/{id}", ids={"id": cid}).json()
    assert deleted["deleted_at"].endswith("Z")
    api.expect(204, "DELETE", "/api/v2/connections/{id}", ids={"id": cid})
    api.error(404, "inexistent_connection", "GET", "/api/v2/connections/{id}", ids={"id": cid})


# ------------------------------------------------------------------------------ management: grants
def test_client_grants(api, warden):
    resource = warden.create_api()
    client = warden.create_client()
    created = api.expect(201, "POST", "/api/v2/client-grants", json={
        "client_id": client["client_id"], "audience": resource["identifier"], "scope": ["read:things"]}).json()
    gid = created["id"]
    api.error(409, "conflict", "POST", "/api/v2/client-grants", json={
        "client_id": client["client_id"], "audience": resource["identifier"], "scope": []})
    api.error(400, "invalid_body", "POST", "/api/v2/client-grants", json={
        "client_id": "nobody-" + uid(), "audience": resource["identifier"], "scope": []})
    api.error(400, "invalid_body", "POST", "/api/v2/client-grants", json={
        "client_id": client["client_id"], "audience": resource["identifier"], "scope": ["undefined:scope"]})
    api.error(400, "invalid_body", "POST", "/api/v2/client-grants", json={
        "client_id": client["client_id"], "audience": resource["identifier"]})
    second = warden.create_client()
    api.expect(201, "POST", "/api/v2/client-grants", json={
        "client_id": second["client_id"], "audience": resource["identifier"], "scope": []})

    assert api.expect(200, "GET", "/api/v2/client-grants/{id}", ids={"id": gid}).json() == created
    mine = api.expect(200, "GET", "/api/v2/client-grants", params={"client_id": client["client_id"]}).json()
    assert [grant["id"] for grant in mine] == [gid]
    page = api.expect(200, "GET", "/api/v2/client-grants", params={
        "audience": resource["identifier"], "include_totals": "true", "take": 1}).json()
    assert page["total"] == 2 and page["length"] == 1 and page.get("next"), page
    rest = api.expect(200, "GET", "/api/v2/client-grants", params={
        "audience": resource["identifier"], "take": 1, "from": page["next"]}).json()
    assert len(rest) == 1 and rest[0]["id"] != page["client_grants"][0]["id"]
    api.error(400, "invalid_query_string", "GET", "/api/v2/client-grants", params={"take": 0})

    patched = api.expect(200, "PATCH", "/api/v2/client-grants/{id}", ids={"id": gid},
                         json={"scope": ["read:things", "write:things"]}).json()
    assert patched["scope"] == ["read:things", "write:things"]
    api.error(400, "invalid_body", "PATCH", "/api/v2/client-grants/{id}", ids={"id": gid},
              json={"audience": "https://elsewhere.test/"})
    api.error(413, "payload_too_large", "PATCH", "/api/v2/client-grants/{id}", ids={"id": gid}, data=big_body(),
              headers={"Content-Type": "application/json"})
    api.error(413, "payload_too_large", "POST", "/api/v2/client-grants", data=big_body(),
              headers={"Content-Type": "application/json"})
    api.expect(204, "DELETE", "/api/v2/client-grants/{id}", ids={"id": gid})
    api.error(404, "inexistent_client_grant", "GET", "/api/v2/client-grants/{id}", ids={"id": gid})
    api.error(404, "inexistent_client_grant", "PATCH", "/api/v2/client-grants/{id}", ids={"id": gid},
              json={"scope": []})
    api.error(404, "inexistent_client_grant", "DELETE", "/api/v2/client-grants/{id}", ids={"id": gid})


# ------------------------------------------------------------------------------- management: users
def test_users_and_their_roles(api, warden):
    tag = uid()
    email = f"openapi-{tag}@example.com"
    user = api.expect(201, "POST", "/api/v2/users", json={
        "user_id": f"openapi{tag}", "email": email.upper(), "email_verified": True,
        "password": "Correct horse battery staple", "name": "Open Api", "nickname": "oa",
        "picture": "https://pics.openapi.test/oa.png", "user_metadata": {"lang": "en", "n": 1},
        "app_metadata": {"plan": {"tier": "gold"}}, "blocked": False, "connection": CONNECTION}).json()
    uid_ = user["user_id"]
    assert uid_ == f"auth0|openapi{tag}" and user["email"] == email
    plain = api.expect(201, "POST", "/api/v2/users", json={"email": f"plain-{tag}@example.com"}).json()
    api.error(409, "conflict", "POST", "/api/v2/users", json={"email": email})
    api.error(400, "invalid_body", "POST", "/api/v2/users", json={"email": f"x-{tag}@example.com", "age": 3})
    api.error(400, "invalid_body", "POST", "/api/v2/users", json={"email": f"y-{tag}@example.com",
                                                                   "connection": "google-oauth2"})
    api.error(400, "invalid_body", "POST", "/api/v2/users", json={"email": "not-an-address"})
    api.error(400, "invalid_body", "POST", "/api/v2/users", json={"email": f"z-{tag}@example.com", "password": "short"})
    api.error(413, "payload_too_large", "POST", "/api/v2/users", data=big_body(),
              headers={"Content-Type": "application/json"})

    assert api.expect(200, "GET", "/api/v2/users/{id}", ids={"id": uid_}).json()["user_metadata"] == {"lang": "en",
                                                                                                      "n": 1}
    found = api.expect(200, "GET", "/api/v2/users", params={"q": f'email:"{email}"', "search_engine": "v3"}).json()
    assert [u["user_id"] for u in found] == [uid_]
    page = api.expect(200, "GET", "/api/v2/users", params={
        "q": f"email:plain-{tag}* OR email:openapi-{tag}*", "include_totals": "true", "sort": "email:1",
        "per_page": 1}).json()
    assert page["limit"] == 1 and page["length"] == 1 and page["total"] == 2
    assert page["users"][0]["user_id"] == uid_  # openapi-… sorts before plain-…
    api.error(400, "invalid_query_string", "GET", "/api/v2/users", params={"q": "email:(unclosed"})
    api.error(400, "invalid_query_string", "GET", "/api/v2/users", params={"sort": "password:1"})
    api.error(400, "invalid_query_string", "GET", "/api/v2/users", params={"search_engine": "v1"})
    by_email = api.expect(200, "GET", "/api/v2/users-by-email", params={"email": email}).json()
    assert [u["user_id"] for u in by_email] == [uid_]
    assert api.expect(200, "GET", "/api/v2/users-by-email", params={"email": f"none-{tag}@example.com"}).json() == []
    api.error(400, "invalid_query_string", "GET", "/api/v2/users-by-email")

    patched = api.expect(200, "PATCH", "/api/v2/users/{id}", ids={"id": uid_}, json={
        "name": None, "blocked": True, "user_metadata": {"n": None, "theme": "dark"}, "password": "Another password"
    }).json()
    assert "name" not in patched and patched["blocked"] is True
    assert patched["user_metadata"] == {"lang": "en", "theme": "dark"}
    api.error(409, "conflict", "PATCH", "/api/v2/users/{id}", ids={"id": uid_}, json={"email": plain["email"]})
    api.error(400, "invalid_body", "PATCH", "/api/v2/users/{id}", ids={"id": uid_}, json={"user_id": "other"})
    api.error(413, "payload_too_large", "PATCH", "/api/v2/users/{id}", ids={"id": uid_}, data=big_body(),
              headers={"Content-Type": "application/json"})

    role = api.expect(201, "POST", "/api/v2/roles", json={"name": f"openapi user role {tag}"}).json()
    api.expect(201, "POST", "/api/v2/users/{id}/roles", ids={"id": uid_}, json={"roles": [role["id"]]})
    roles = api.expect(200, "GET", "/api/v2/users/{id}/roles", ids={"id": uid_}).json()
    assert [r["id"] for r in roles] == [role["id"]]
    wrapped = api.expect(200, "GET", "/api/v2/users/{id}/roles", ids={"id": uid_},
                         params={"include_totals": "true"}).json()
    assert wrapped["total"] == 1 and wrapped["roles"][0]["id"] == role["id"]
    api.error(400, "invalid_query_string", "GET", "/api/v2/users/{id}/roles", ids={"id": uid_},
              params={"per_page": "many"})
    api.error(400, "invalid_body", "POST", "/api/v2/users/{id}/roles", ids={"id": uid_},
              json={"roles": ["rol_nothing" + tag]})
    api.error(400, "invalid_body", "POST", "/api/v2/users/{id}/roles", ids={"id": uid_}, json={"roles": []})
    api.error(413, "payload_too_large", "POST", "/api/v2/users/{id}/roles", ids={"id": uid_}, data=big_body(),
              headers={"Content-Type": "application/json"})
    api.error(400, "invalid_body", "DELETE", "/api/v2/users/{id}/roles", ids={"id": uid_}, json={"role": []})
    api.error(413, "payload_too_large", "DELETE", "/api/v2/users/{id}/roles", ids={"id": uid_}, data=big_body(),
              headers={"Content-Type": "application/json"})
    api.expect(204, "DELETE", "/api/v2/users/{id}/roles", ids={"id": uid_}, json={"roles": [role["id"]]})
    assert api.expect(200, "GET", "/api/v2/users/{id}/roles", ids={"id": uid_}).json() == []

    for gone in (uid_, plain["user_id"]):
        api.expect(204, "DELETE", "/api/v2/users/{id}", ids={"id": gone})
    api.error(404, "inexistent_user", "GET", "/api/v2/users/{id}", ids={"id": uid_})
    api.error(404, "inexistent_user", "PATCH", "/api/v2/users/{id}", ids={"id": uid_}, json={"name": "x"})
    api.error(404, "inexistent_user", "DELETE", "/api/v2/users/{id}", ids={"id": uid_})
    api.error(404, "inexistent_user", "GET", "/api/v2/users/{id}/roles", ids={"id": uid_})
    api.error(404, "inexistent_user", "POST", "/api/v2/users/{id}/roles", ids={"id": uid_},
              json={"roles": [role["id"]]})
    api.expect(204, "DELETE", "/api/v2/roles/{id}", ids={"id": role["id"]})


# ------------------------------------------------------------------------------- management: roles
def test_roles_and_permissions(api, warden):
    tag = uid()
    resource = warden.create_api()
    role = api.expect(201, "POST", "/api/v2/roles", json={"name": f"openapi role {tag}",
                                                          "description": "can read"}).json()
    rid = role["id"]
    other = api.expect(201, "POST", "/api/v2/roles", json={"name": f"openapi other {tag}"}).json()
    api.error(409, "conflict", "POST", "/api/v2/roles", json={"name": f"openapi role {tag}"})
    api.error(400, "invalid_body", "POST", "/api/v2/roles", json={"description": "nameless"})
    api.error(400, "invalid_body", "POST", "/api/v2/roles", json={"name": "x", "permissions": []})
    api.error(413, "payload_too_large", "POST", "/api/v2/roles", data=big_body(),
              headers={"Content-Type": "application/json"})
    assert api.expect(200, "GET", "/api/v2/roles/{id}", ids={"id": rid}).json() == role
    assert {r["id"] for r in api.expect(200, "GET", "/api/v2/roles", params={"name_filter": tag}).json()} == \
        {rid, other["id"]}
    page = api.expect(200, "GET", "/api/v2/roles", params={"name_filter": tag, "include_totals": "true",
                                                           "per_page": 1}).json()
    assert page["total"] == 2 and page["length"] == 1
    api.expect(200, "GET", "/api/v2/roles", params={"include_totals": "true"})
    api.error(400, "invalid_query_string", "GET", "/api/v2/roles", params={"page": "first"})
    patched = api.expect(200, "PATCH", "/api/v2/roles/{id}", ids={"id": rid}, json={"description": None}).json()
    assert "description" not in patched
    api.error(409, "conflict", "PATCH", "/api/v2/roles/{id}", ids={"id": rid}, json={"name": other["name"]})
    api.error(400, "invalid_body", "PATCH", "/api/v2/roles/{id}", ids={"id": rid}, json={"name": None})
    api.error(413, "payload_too_large", "PATCH", "/api/v2/roles/{id}", ids={"id": rid}, data=big_body(),
              headers={"Content-Type": "application/json"})

    permissions = {"permissions": [
        {"resource_server_identifier": resource["identifier"], "permission_name": "read:things"},
        {"resource_server_identifier": resource["identifier"], "permission_name": "write:things"}]}
    api.expect(201, "POST", "/api/v2/roles/{id}/permissions", ids={"id": rid}, json=permissions)
    held = api.expect(200, "GET", "/api/v2/roles/{id}/permissions", ids={"id": rid}).json()
    assert {p["permission_name"] for p in held} == {"read:things", "write:things"}
    assert all(p["resource_server_name"] == resource["name"] for p in held)
    wrapped = api.expect(200, "GET", "/api/v2/roles/{id}/permissions", ids={"id": rid},
                         params={"include_totals": "true", "per_page": 1}).json()
    assert wrapped["total"] == 2 and wrapped["length"] == 1
    api.error(400, "invalid_query_string", "GET", "/api/v2/roles/{id}/permissions", ids={"id": rid},
              params={"per_page": 0})
    api.error(400, "invalid_body", "POST", "/api/v2/roles/{id}/permissions", ids={"id": rid}, json={
        "permissions": [{"resource_server_identifier": resource["identifier"], "permission_name": "fly"}]})
    api.error(400, "invalid_body", "POST", "/api/v2/roles/{id}/permissions", ids={"id": rid}, json={
        "permissions": []})
    api.error(413, "payload_too_large", "POST", "/api/v2/roles/{id}/permissions", ids={"id": rid},
              data=big_body(), headers={"Content-Type": "application/json"})
    api.error(400, "invalid_body", "DELETE", "/api/v2/roles/{id}/permissions", ids={"id": rid},
              json={"permissions": [{"permission_name": "read:things"}]})
    api.error(413, "payload_too_large", "DELETE", "/api/v2/roles/{id}/permissions", ids={"id": rid},
              data=big_body(), headers={"Content-Type": "application/json"})
    api.expect(204, "DELETE", "/api/v2/roles/{id}/permissions", ids={"id": rid},
               json={"permissions": permissions["permissions"][:1]})
    held = api.expect(200, "GET", "/api/v2/roles/{id}/permissions", ids={"id": rid}).json()
    assert [p["permission_name"] for p in held] == ["write:things"]

    for gone in (rid, other["id"]):
        api.expect(204, "DELETE", "/api/v2/roles/{id}", ids={"id": gone})
    api.error(404, "inexistent_role", "GET", "/api/v2/roles/{id}", ids={"id": rid})
    api.error(404, "inexistent_role", "PATCH", "/api/v2/roles/{id}", ids={"id": rid}, json={"name": "x"})
    api.error(404, "inexistent_role", "DELETE", "/api/v2/roles/{id}", ids={"id": rid})
    api.error(404, "inexistent_role", "GET", "/api/v2/roles/{id}/permissions", ids={"id": rid})
    api.error(404, "inexistent_role", "POST", "/api/v2/roles/{id}/permissions", ids={"id": rid}, json=permissions)
    api.error(404, "inexistent_role", "DELETE", "/api/v2/roles/{id}/permissions", ids={"id": rid},
              json=permissions)


# ------------------------------------------------------------------- management: post-login rules
def test_post_login_rules(api, warden):
    """SPEC §8: CRUD, a condition that does not parse refused naming the position, 404 after delete. The rules
    made here never match (a user that does not exist), so the session's other logins go on."""
    nobody = f"nobody-{uid()}@interop.test"
    body = {"name": f"openapi rule {uid()}", "condition": f'event.user.email == "{nobody}"',
            "deny_reason": "Not this one"}
    created = api.expect(201, "POST", "/api/v2/post-login-rules", json=body).json()
    rid = created["id"]
    assert created == {**body, "id": rid, "enabled": True, "order": created["order"], "action": "deny"}, created
    later = api.expect(201, "POST", "/api/v2/post-login-rules",
                       json={**body, "order": created["order"] + 1, "enabled": False}).json()
    assert api.expect(200, "GET", "/api/v2/post-login-rules/{id}", ids={"id": rid}).json() == created
    listed = [r["id"] for r in api.expect(200, "GET", "/api/v2/post-login-rules").json()]
    assert listed.index(rid) < listed.index(later["id"]), listed
    page = api.expect(200, "GET", "/api/v2/post-login-rules", params={"include_totals": "true", "per_page": 1}).json()
    assert page["length"] == 1 and page["total"] >= 2, page
    api.error(400, "invalid_query_string", "GET", "/api/v2/post-login-rules", params={"per_page": 0})
    refused = api.error(400, "invalid_body", "POST", "/api/v2/post-login-rules",
                        json={**body, "condition": '(event.user.email == "x"'})
    assert "expected ')' at position 25" in refused["message"], refused
    api.error(400, "invalid_body", "POST", "/api/v2/post-login-rules", json={**body, "script": "x"})
    api.error(413, "payload_too_large", "POST", "/api/v2/post-login-rules", data=big_body(),
              headers={"Content-Type": "application/json"})

    patched = api.expect(200, "PATCH", "/api/v2/post-login-rules/{id}", ids={"id": rid},
                         json={"enabled": False, "deny_reason": "Still not"}).json()
    assert patched == {**created, "enabled": False, "deny_reason": "Still not"}, patched
    api.error(400, "invalid_body", "PATCH", "/api/v2/post-login-rules/{id}", ids={"id": rid},
              json={"condition": "event.user.email =="})
    api.error(413, "payload_too_large", "PATCH", "/api/v2/post-login-rules/{id}", ids={"id": rid}, data=big_body(),
              headers={"Content-Type": "application/json"})
    for gone in (rid, later["id"]):
        api.expect(204, "DELETE", "/api/v2/post-login-rules/{id}", ids={"id": gone})
    api.error(404, "inexistent_post_login_rule", "GET", "/api/v2/post-login-rules/{id}", ids={"id": rid})
    api.error(404, "inexistent_post_login_rule", "PATCH", "/api/v2/post-login-rules/{id}", ids={"id": rid},
              json={"enabled": True})
    api.error(404, "inexistent_post_login_rule", "DELETE", "/api/v2/post-login-rules/{id}", ids={"id": rid})


# -------------------------------------------------------------------------------- management: logs
def test_logs(api, warden):
    name = f"logged {uid()}"
    client = warden.create_client(name=name)
    warden.client_credentials(client["client_id"], client["client_secret"], "https://nothing.test/")

    def recent():
        return api.expect(200, "GET", "/api/v2/logs", params={"q": "type:(sapi OR feccft)", "per_page": 100}).json()

    events = poll(recent, lambda evs: any(e.get("type") == "feccft" and e.get("client_id") == client["client_id"]
                                          for e in evs) and any(e.get("type") == "sapi" for e in evs))
    assert {e["type"] for e in events} == {"sapi", "feccft"}, events[:3]
    event = events[0]
    assert api.expect(200, "GET", "/api/v2/logs/{id}", ids={"id": event["log_id"]}).json() == event
    api.error(404, "inexistent_log", "GET", "/api/v2/logs/{id}", ids={"id": "no-such-log-" + uid()})
    page = api.expect(200, "GET", "/api/v2/logs", params={"search": "type:sapi", "include_totals": "true",
                                                          "sort": "date:1", "per_page": 5}).json()
    assert page["length"] <= 5 and all(e["type"] == "sapi" for e in page["logs"])
    forward = api.expect(200, "GET", "/api/v2/logs", params={"from": page["logs"][0]["log_id"], "take": 3}).json()
    assert isinstance(forward, list) and len(forward) <= 3
    api.expect(200, "GET", "/api/v2/logs")
    api.error(400, "invalid_query_string", "GET", "/api/v2/logs", params={"q": "colour:blue"})
    api.error(400, "invalid_query_string", "GET", "/api/v2/logs", params={"sort": "type:1"})
    api.error(400, "invalid_query_string", "GET", "/api/v2/logs", params={"take": 1000})


# --------------------------------------------------------------------------------- management: keys
def test_signing_keys(api, warden):
    keys = api.expect(200, "GET", "/api/v2/keys/signing").json()
    current = {key["alg"]: key for key in keys if key["current"]}
    assert {"RS256", "ES256"} <= set(current)
    assert api.expect(200, "GET", "/api/v2/keys/signing/{kid}", ids={"kid": current["ES256"]["kid"]}).json()["current"]
    api.error(404, "inexistent_key", "GET", "/api/v2/keys/signing/{kid}", ids={"kid": "no-such-kid"})
    api.error(404, "inexistent_key", "PUT", "/api/v2/keys/signing/{kid}/revoke", ids={"kid": "no-such-kid"})
    api.error(409, "conflict", "PUT", "/api/v2/keys/signing/{kid}/revoke", ids={"kid": current["ES256"]["kid"]})

    rotation = api.expect(201, "POST", "/api/v2/keys/signing/rotate").json()
    made = {key["alg"]: key for key in rotation["keys"]}
    assert rotation["alg"] == "RS256" and rotation["kid"] == made["RS256"]["kid"]
    assert made["ES256"]["kid"] != current["ES256"]["kid"]
    # Revoke the previous ES256 key only: the Management token in use is RS256-signed and must keep working.
    revoked = api.expect(200, "PUT", "/api/v2/keys/signing/{kid}/revoke", ids={"kid": current["ES256"]["kid"]}).json()
    assert revoked["revoked"] is True and revoked["previous"] is False and revoked.get("revoked_at")
    after = api.expect(200, "GET", "/api/v2/keys/signing/{kid}", ids={"kid": current["RS256"]["kid"]}).json()
    assert after["previous"] is True and after["current"] is False
    kids = {key["kid"] for key in api.expect(200, "GET", "/.well-known/jwks.json").json()["keys"]}
    assert current["ES256"]["kid"] not in kids and current["RS256"]["kid"] in kids


# ------------------------------------------------------------------------------- management: guardian
def test_guardian_enrollment_ticket(api, warden):
    user = api.expect(201, "POST", "/api/v2/users",
                      json={"email": f"ticket-{uid()}@openapi.test", "connection": CONNECTION}).json()
    ticket = api.expect(200, "POST", "/api/v2/guardian/enrollments/ticket", json={"user_id": user["user_id"]}).json()
    assert ticket["ticket_url"].startswith(warden.base_url + "u/guardian/enroll?ticket=")
    api.error(404, "inexistent_user", "POST", "/api/v2/guardian/enrollments/ticket", json={"user_id": "auth0|none"})
    api.error(400, "invalid_body", "POST", "/api/v2/guardian/enrollments/ticket", json={"user": "x"})


# ------------------------------------------------------------------- guardian enrolments and the device API
PUSH_EXPIRY = 300  # requested_expiry ≤ 300: the push channel (SPEC §6.1)
BIG = "x" * (70 * 1024)


def test_device_enrolment_and_guardian_enrollments(api, warden):
    """SPEC §7.1 enrolment and the device account, §9 the Management side: every status the device can reach."""
    user_id = api.expect(201, "POST", "/api/v2/users", json={"email": f"device-{uid()}@openapi.test",
                                                              "connection": CONNECTION}).json()["user_id"]
    push = {"service": "STREAM", "token": f"tok-{uid()}"}
    phone = api.watch(Device(warden))
    ticket = ticket_for(api, user_id)
    device_error(phone.enroll_request(None, push_credentials=push), 401, "invalid_token")
    device_error(phone.enroll_request(None, push_credentials=push, authorization=f"Bearer {ticket}"), 401,
                 "invalid_token")
    device_error(phone.enroll_request("unknown-" + uid(), push_credentials=push), 404,
                 "enrollment_transaction_not_found")
    device_error(phone.enroll_request(ticket, push_credentials=push, drop=("public_key",)), 400, "invalid_body")
    device_error(phone.enroll_request(ticket, push_credentials={"service": "PIGEON", "token": "t"}), 400,
                 "invalid_body")
    device_error(phone.enroll_request(ticket, push_credentials=push, name=BIG), 413, "payload_too_large")
    enrollment = phone.enroll(ticket, push_credentials=push)  # the refused requests left the ticket usable
    assert (enrollment.user_id, enrollment.url) == (user_id, warden.issuer + "appliance-mfa"), enrollment.body
    device_error(api.watch(Device(warden)).enroll_request(ticket, push_credentials=push), 404,
                 "enrollment_transaction_not_found")
    twin = api.watch(Device(warden, identifier=phone.identifier))
    device_error(twin.enroll_request(ticket_for(api, user_id), push_credentials=push), 409, "already_enrolled")
    tablet = api.watch(Device(warden))
    tablet.enroll(ticket_for(api, user_id))  # no push_credentials: a TOTP-only enrolment

    listed = {e["id"]: e for e in api.expect(200, "GET", "/api/v2/users/{id}/enrollments", ids={"id": user_id}).json()}
    assert set(listed) == {phone.id, tablet.id}, listed
    assert (listed[phone.id]["type"], listed[phone.id]["push_service"], listed[phone.id]["push_disabled"]) == \
        ("pn", "STREAM", False), listed
    assert listed[tablet.id]["type"] == "totp" and "push_service" not in listed[tablet.id], listed
    assert api.expect(200, "GET", "/api/v2/guardian/enrollments/{id}", ids={"id": phone.id}).json() == listed[phone.id]
    api.error(404, "inexistent_user", "GET", "/api/v2/users/{id}/enrollments", ids={"id": "auth0|none-" + uid()})

    renamed = json_of(expect_status(phone.update("token", name="Renamed phone"), 200))
    assert renamed == {"id": phone.id, "identifier": phone.identifier, "name": "Renamed phone",
                       "push_credentials": push}, renamed
    assert json_of(expect_status(tablet.update("jwt", push_credentials=None), 200))["push_credentials"] is None
    device_error(phone.update("jwt", name=7), 400, "invalid_body")
    device_error(phone.update("jwt", colour="blue"), 400, "invalid_body")
    device_error(phone.update("jwt", name=BIG), 413, "payload_too_large")
    device_error(tablet.update("jwt", identifier=phone.identifier), 409, "already_enrolled")
    for refused in ("none", tamper(phone.account_jwt()), tablet.account_jwt(), tablet.enrollment.token):
        device_error(phone.update(refused, name="Hijacked"), 401, "invalid_token")
        device_error(phone.delete(refused), 401, "invalid_token")

    assert expect_status(tablet.delete("jwt"), 204).content == b""
    device_error(tablet.delete("token"), 404, "device_account_not_found")
    device_error(tablet.update("token", name="Gone"), 404, "device_account_not_found")
    device_error(tablet.transactions_request("token"), 404, "device_account_not_found")

    api.expect(204, "DELETE", "/api/v2/guardian/enrollments/{id}", ids={"id": phone.id})
    api.error(404, "inexistent_enrollment", "GET", "/api/v2/guardian/enrollments/{id}", ids={"id": phone.id})
    api.error(404, "inexistent_enrollment", "DELETE", "/api/v2/guardian/enrollments/{id}", ids={"id": phone.id})
    device_error(phone.update("jwt", name="Gone"), 404, "device_account_not_found")
    assert api.expect(200, "GET", "/api/v2/users/{id}/enrollments", ids={"id": user_id}).json() == []


def test_device_transactions_consent_and_answers(api, warden):
    """SPEC §7.2–§7.5 with a push-channel CIBA request: the pending list, the consent (DPoP proof), the answer,
    and what comes after an answer or the request's expiry."""
    app = ciba_app(warden)
    phone = api.watch(Device(warden))
    phone.enroll(ticket_for(api, app.user.user_id), push_credentials={"service": "STREAM", "token": f"tok-{uid()}"})
    assert phone.transactions() == []
    device_error(phone.transactions_request("none"), 401, "invalid_token")
    device_error(phone.transactions_request("not-the-token"), 401, "invalid_token")

    auth_req_id, form = start_request(warden, app, requested_expiry=PUSH_EXPIRY)
    (transaction,) = phone.transactions()
    assert transaction["dai"] == phone.id, transaction
    txtkn, challenge, consent_id = transaction["txtkn"], transaction["c"], transaction["txlnkid"]

    consent = json_of(expect_status(phone.fetch_consent(consent_id, txtkn), 200))
    details = consent["requested_details"]
    assert consent["id"] == consent_id and details["binding_message"] == form["binding_message"], consent
    assert details["audience"] == app.audience and details["authorization_details"] == form["authorization_details"]
    device_error(phone.fetch_consent(consent_id, txtkn, proof=""), 401, "invalid_token")
    device_error(phone.fetch_consent(consent_id, "not-a-transaction-token"), 401, "invalid_token")
    device_error(phone.fetch_consent("cns_unknown" + uid(), txtkn), 404, "consent_not_found")

    forged = tamper(phone.challenge_response(challenge, True))
    device_error(phone.resolve(txtkn, challenge, True, challenge_response=forged), 401, "invalid_token")
    device_error(phone.resolve("not-a-transaction-token", challenge, True), 401, "invalid_token")
    device_error(phone.resolve(txtkn, challenge, True, challenge_response=12345), 400, "invalid_body")
    device_error(phone.resolve(txtkn, challenge, True, challenge_response=BIG), 413, "payload_too_large")
    assert expect_status(phone.resolve(txtkn, challenge, True), 204).content == b""
    device_error(phone.resolve(txtkn, challenge, False), 404, "login_transaction_not_found")
    device_error(phone.fetch_consent(consent_id, txtkn), 404, "login_transaction_not_found")
    tokens = api.expect(200, "POST", "/oauth/token", data={
        "grant_type": CIBA_GRANT, "auth_req_id": auth_req_id, "client_id": app.client_id,
        "client_secret": app.client_secret}).json()
    assert tokens["authorization_details"] == form["authorization_details"], tokens

    start_request(warden, app, requested_expiry=2)
    (late,) = phone.transactions()
    time.sleep(3)
    device_error(phone.fetch_consent(late["txlnkid"], late["txtkn"]), 410, "transaction_expired")
    device_error(phone.resolve(late["txtkn"], late["c"], True), 410, "transaction_expired")
    assert phone.transactions() == []


# ------------------------------------------------------------------------------------------ coverage
# --------------------------------------------------------------------- management: MFA settings, bulk users
def test_linking_user_identities(api, warden):
    """SPEC §15 "Linking": a federated user (a login through a second Warden) linked to a database user and
    unlinked again, with the error statuses."""
    with upstream_warden() as upstream, oidc_federation(warden, upstream) as federation:
        verifier = new_verifier()
        session = requests.Session()
        answer = federation.upstream_answer(session, verifier)
        params = callback_params(federation.deliver(session, answer))
        tokens = json_of(expect_status(code_exchange(warden, federation.client_id, params["code"], verifier,
                                                     federation.redirect_uri), 200))
        secondary = verify_jwt(tokens["id_token"], warden.jwks(), ["RS256"])[1]["sub"]
        primary = create_user(warden).user_id
        identity = secondary.split("|", 1)[1]
        api.error(400, "invalid_body", "POST", "/api/v2/users/{id}/identities", ids={"id": primary},
                  json={"provider": "oidc", "user_id": identity + "-nobody"})
        api.error(404, "inexistent_user", "POST", "/api/v2/users/{id}/identities", ids={"id": primary + "x"},
                  json={"provider": "oidc", "user_id": identity})
        linked = api.expect(201, "POST", "/api/v2/users/{id}/identities", ids={"id": primary},
                            json={"provider": "oidc", "user_id": identity}).json()
        assert [i["provider"] for i in linked] == ["auth0", "oidc"]
        path = "/api/v2/users/{id}/identities/{provider}/{user_id}"
        api.error(400, "invalid_body", "DELETE", path,
                  ids={"id": primary, "provider": "auth0", "user_id": primary.split("|", 1)[1]})
        left = api.expect(200, "DELETE", path, ids={"id": primary, "provider": "oidc", "user_id": identity}).json()
        assert [i["provider"] for i in left] == ["auth0"]
        api.error(404, "inexistent_user", "DELETE", path, ids={"id": primary + "x", "provider": "oidc",
                                                                "user_id": identity})


def test_mfa_settings_and_a_users_second_factors(api, warden):
    """SPEC §12: the factors and policies (restored at the end: sign-in is the other tests'), a recovery code, the
    removal of every authenticator."""
    factors = api.expect(200, "GET", "/api/v2/guardian/factors").json()
    assert [f["name"] for f in factors] == ["push-notification", "otp", "recovery-code", "webauthn-roaming",
                                            "webauthn-platform"], factors
    before = {f["name"]: f["enabled"] for f in factors}
    assert api.expect(200, "PUT", "/api/v2/guardian/factors/{name}", ids={"name": "otp"},
                      json={"enabled": True}).json() == {"enabled": True}
    api.expect(200, "PUT", "/api/v2/guardian/factors/{name}", ids={"name": "otp"}, json={"enabled": before["otp"]})
    api.error(404, "inexistent_factor", "PUT", "/api/v2/guardian/factors/{name}", ids={"name": "sms"},
              json={"enabled": True})
    settings = api.expect(200, "GET", "/api/v2/guardian/factors/{name}/settings", ids={"name": "webauthn-roaming"}).json()
    assert api.expect(200, "PUT", "/api/v2/guardian/factors/{name}/settings", ids={"name": "webauthn-roaming"},
                      json={**settings, "userVerification": "required"}).json()["userVerification"] == "required"
    api.expect(200, "PUT", "/api/v2/guardian/factors/{name}/settings", ids={"name": "webauthn-roaming"}, json=settings)
    api.error(400, "invalid_body", "PUT", "/api/v2/guardian/factors/{name}/settings", ids={"name": "webauthn-platform"},
              json={"overrideRelyingParty": True})
    api.error(404, "inexistent_factor", "GET", "/api/v2/guardian/factors/{name}/settings", ids={"name": "otp"})
    policies = api.expect(200, "GET", "/api/v2/guardian/policies").json()
    assert api.expect(200, "PUT", "/api/v2/guardian/policies", json=["confidence-score"]).json() == ["confidence-score"]
    api.expect(200, "PUT", "/api/v2/guardian/policies", json=policies)
    user = api.expect(201, "POST", "/api/v2/users", json={"email": f"mfa-{uid()}@interop.test", "connection": CONNECTION,
                                                           "password": "Openapi-" + uid()}).json()
    code = api.expect(200, "POST", "/api/v2/users/{id}/recovery-code-regeneration", ids={"id": user["user_id"]}).json()
    assert len(code["recovery_code"]) == 24 and code["recovery_code"].isalnum(), code
    api.expect(204, "DELETE", "/api/v2/users/{id}/authenticators", ids={"id": user["user_id"]})


def test_bulk_user_jobs(api, warden):
    """SPEC §9 "Bulk users": an import (one good entry, one malformed), its status and errors, an export and its
    file."""
    email = f"bulk-{uid()}@interop.test"
    entries = [{"email": email, "name": "Bulk One"}, {"email": "not an address"}]
    job = api.expect(201, "POST", "/api/v2/jobs/users-imports",
                     files={"users": ("users.json", json.dumps(entries), "application/json")}).json()
    done = poll(lambda: api.expect(200, "GET", "/api/v2/jobs/{id}", ids={"id": job["id"]}).json(),
                lambda j: j["status"] in ("completed", "failed"), timeout=30)
    assert done["status"] == "completed" and done["summary"]["inserted"] == 1, done
    errors = api.expect(200, "GET", "/api/v2/jobs/{id}/errors", ids={"id": job["id"]}).json()
    assert [e["index"] for e in errors] == [1], errors
    export = api.expect(201, "POST", "/api/v2/jobs/users-exports", json={"format": "json"}).json()
    poll(lambda: api.expect(200, "GET", "/api/v2/jobs/{id}", ids={"id": export["id"]}).json(),
         lambda j: j["status"] == "completed", timeout=60)
    file = api.expect(200, "GET", "/api/v2/jobs/{id}/download", ids={"id": export["id"]})
    assert email in file.text, file.text[:300]


def test_accounts(api, warden):
    """SPEC §15.1: sign-up and its refusals, a reset request, the Management tickets and the verification job."""
    client = create_public_client(warden, [fake_callback()])
    email = f"openapi-signup-{uid()}@interop.test"
    form = {"client_id": client["client_id"], "email": email, "password": "Signup-Passw0rd!",
            "connection": CONNECTION}
    made = api.expect(200, "POST", "/dbconnections/signup", json=form).json()
    assert made["email"] == email and made["email_verified"] is False, made
    body = api.expect(400, "POST", "/dbconnections/signup", json=dict(form, password="weak")).json()
    assert body["error"] == "invalid_password" and body["name"] == "PasswordStrengthError", body
    body = api.expect(400, "POST", "/dbconnections/signup", json=form).json()
    assert body["error"] == "invalid_signup", body
    api.expect(400, "POST", "/dbconnections/signup", json=dict(form, connection="nothing"))
    api.expect(413, "POST", "/dbconnections/signup", data=big_body(), headers={"Content-Type": "application/json"})
    reset = api.expect(200, "POST", "/dbconnections/change_password",
                       json={"client_id": client["client_id"], "email": email, "connection": CONNECTION})
    assert reset.text, describe(reset)
    api.expect(400, "POST", "/dbconnections/change_password", json={"client_id": client["client_id"]})
    user_id = "auth0|" + made["_id"]
    ticket = api.expect(201, "POST", "/api/v2/tickets/email-verification", json={"user_id": user_id}).json()
    assert "/u/email-verification?ticket=" in ticket["ticket"], ticket
    ticket = api.expect(201, "POST", "/api/v2/tickets/password-change", json={"user_id": user_id}).json()
    assert "/u/reset-password?ticket=" in ticket["ticket"], ticket
    api.error(400, "invalid_body", "POST", "/api/v2/tickets/password-change",
              json={"user_id": user_id, "email": email, "connection_id": "con_UsernamePasswordAuthentication"})
    api.error(404, "inexistent_user", "POST", "/api/v2/tickets/email-verification", json={"user_id": "auth0|none"})
    job = api.expect(201, "POST", "/api/v2/jobs/verification-email", json={"user_id": user_id}).json()
    assert job["type"] == "verification_email" and job["status"] == "pending", job
    done = poll(lambda: api.expect(200, "GET", "/api/v2/jobs/{id}", ids={"id": job["id"]}).json(),
                lambda j: j["status"] == "completed")
    assert done["status"] == "completed", done


def test_organizations(api, warden):
    """SPEC §19 (openapi_organizations.py)."""
    database = api.expect(200, "GET", "/api/v2/connections", params={"name": CONNECTION}).json()[0]
    openapi_organizations.exercise(api, warden, database["id"])


def test_passkeys(api, warden):
    """SPEC §17: the native API's challenges and the webauthn grant (a software authenticator answers), a user's
    authentication methods, and the endpoints while passkeys are off."""
    connection = json_of(expect_status(warden.mgmt("GET", "connections?name=" + CONNECTION), 200))[0]
    before = connection["options"]
    on = {**before, "authentication_methods": {"passkey": {"enabled": True}}}
    api.expect(200, "PATCH", "/api/v2/connections/{id}", ids={"id": connection["id"]}, json={"options": on})
    try:
        app = warden.create_client(app_type="native", token_endpoint_auth_method="none", callbacks=[],
                                   grant_types=["urn:okta:params:oauth:grant-type:webauthn"])
        device = Authenticator(rp_id="127.0.0.1", origin=warden.issuer.rstrip("/"))
        email = f"openapi-passkey-{uid()}@interop.test"
        made = api.expect(200, "POST", "/passkey/register", json={
            "client_id": app["client_id"], "user_profile": {"email": email}}).json()
        api.expect(400, "POST", "/passkey/register", json={"client_id": app["client_id"]})
        api.expect(401, "POST", "/passkey/register", json={"client_id": "nothing", "user_profile": {"email": email}})
        credential = device.create(made["authn_params_public_key"])
        tokens = api.expect(200, "POST", "/oauth/token", data={
            "grant_type": "urn:okta:params:oauth:grant-type:webauthn", "client_id": app["client_id"],
            "auth_session": made["auth_session"], "authn_response": json.dumps(credential)}).json()
        user_id = verify_jwt(tokens["id_token"], warden.jwks(), ["RS256"])[1]["sub"]
        challenge = api.expect(200, "POST", "/passkey/challenge", json={"client_id": app["client_id"]}).json()
        assert challenge["authn_params_public_key"]["rpId"] == "127.0.0.1", challenge
        api.expect(400, "POST", "/passkey/challenge", json={"client_id": app["client_id"], "realm": "other"})
        api.expect(401, "POST", "/passkey/challenge", json={"client_id": "nothing"})

        methods = api.expect(200, "GET", "/api/v2/users/{id}/authentication-methods", ids={"id": user_id}).json()
        ids = {"id": user_id, "method_id": methods[0]["id"]}
        path = "/api/v2/users/{id}/authentication-methods/{method_id}"
        api.expect(200, "GET", path, ids=ids)
        api.expect(200, "PATCH", path, ids=ids, json={"name": "Phone"})
        api.error(400, "invalid_body", "PATCH", path, ids=ids, json={"name": ""})
        api.expect(204, "DELETE", path, ids=ids)
        api.error(404, "inexistent_authentication_method", "GET", path, ids=ids)
        api.error(404, "inexistent_user", "GET", "/api/v2/users/{id}/authentication-methods",
                  ids={"id": "auth0|nobody"})
    finally:
        api.expect(200, "PATCH", "/api/v2/connections/{id}", ids={"id": connection["id"]}, json={"options": before})
    body = api.expect(403, "POST", "/passkey/challenge", json={"client_id": app["client_id"]}).json()
    assert body["error"] == "access_denied", body
    api.expect(403, "POST", "/passkey/register", json={"client_id": app["client_id"], "user_profile": {"email": email}})


def test_every_documented_operation_was_exercised(spec):
    """Runs last (file order): each documented operation answered at least once, and the error statuses the
    brief names were all produced and matched the document."""
    if not spec.seen:
        pytest.skip("run the whole module: this test checks what the other tests exercised")
    exercised = {(path, method) for path, method, _ in spec.seen}
    missing = sorted({(p, m) for p, m, _ in spec.operations()} - exercised)
    assert not missing, f"documented but never exercised: {missing}"
    for path, method, _ in spec.operations():
        successes = {s for p, m, s in spec.seen if (p, m) == (path, method) and s < 300}
        if path != "/readyz":
            assert successes, f"{method.upper()} {path}: no successful call was checked"
    management = {s for p, _, s in spec.seen if p.startswith("/api/v2/")}
    assert {400, 401, 403, 404, 409, 413} <= management, sorted(management)
    device = {s for p, _, s in spec.seen if p.startswith(("/appliance-mfa/", "/rich-consents/"))}
    assert {400, 401, 404, 409, 410, 413} <= device, sorted(device)
    token = {s for p, _, s in spec.seen if p == "/oauth/token"}
    assert {200, 400, 401, 403, 413} <= token, sorted(token)
