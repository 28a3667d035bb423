"""SPEC §9 `GET /api/v2/openapi.json`, the document itself: valid OpenAPI 3.1 (openapi-spec-validator) with every
operation SPEC names, every response a JSON schema and every error in its API's shape (the Authentication API's
`{error, error_description}`, the Management API's `{statusCode, error, message, errorCode}`), and every Management
operation declaring the scope SPEC §9 implies. test_openapi.py then uses the document as the oracle of real
traffic."""

from __future__ import annotations

import json
import re

from jsonschema import Draft202012Validator
from openapi_spec_validator import OpenAPIV31SpecValidator, validate as validate_spec

from openapilib import (EXPECTED_OPERATIONS, JSON_MEDIA, NDJSON_MEDIA, RESOURCE_SCOPES, SCOPE_EXCEPTIONS, VERB_SCOPES,
                        escape, spec)  # noqa: F401  (spec is a fixture)
from wardenlib import MANAGEMENT_SCOPES


# ------------------------------------------------------------------------------------------- the document
def test_document_is_valid_openapi_3_1(spec):
    doc = spec.doc
    assert re.fullmatch(r"3\.1\.\d+", doc.get("openapi", "")), doc.get("openapi")
    validate_spec(doc, cls=OpenAPIV31SpecValidator)
    assert doc["servers"][0]["url"] == "/", doc.get("servers")
    for name, schema in doc["components"]["schemas"].items():
        Draft202012Validator.check_schema(schema)
    documented = {(path, method) for path, method, _ in spec.operations()}
    assert not EXPECTED_OPERATIONS - documented, f"undocumented: {sorted(EXPECTED_OPERATIONS - documented)}"
    for name in ("Client", "ClientCreate", "ClientUpdate", "ResourceServer", "ClientGrant", "User", "Role",
                 "Permission", "LogEvent", "SigningKey", "JWK", "ManagementError", "OAuthError", "TokenResponse"):
        assert name in doc["components"]["schemas"], name


# The Authentication API paths in the document: their errors are {error, error_description} (SPEC conventions).
OAUTH_PATHS = ("/oauth/token", "/oauth/introspect", "/bc-authorize", "/oauth/revoke", "/userinfo", "/oidc/register",
               "/passkey/register", "/passkey/challenge")
# RFC 7009 §2.2: a revocation answers 200 with no body.
EMPTY_SUCCESSES = {("/oauth/revoke", "post", "200")}
# SPEC §9 "Bulk users": an export's file, one JSON user a line, as the reference platform writes it.
NDJSON_SUCCESSES = {("/api/v2/jobs/{id}/download", "get", "200")}
# SPEC §15.1: a reset request answers one sentence as text/plain; /dbconnections errors carry both SDK shapes.
TEXT_SUCCESSES = {("/dbconnections/change_password", "post", "200")}
DBCONNECTION_PATHS = ("/dbconnections/signup", "/dbconnections/change_password")


def test_every_response_has_a_json_schema_and_errors_have_the_api_error_shape(spec):
    for path, method, operation in spec.operations():
        for status, _ in operation["responses"].items():
            pointer = spec.follow(f"/paths/{escape(path)}/{method}/responses/{status}")
            content = spec.at(pointer).get("content")
            if status in ("204",) or (status == "201" and not content) or (path, method, status) in EMPTY_SUCCESSES:
                assert not content, f"{method} {path} {status} has content"
                continue
            if (path, method, status) in NDJSON_SUCCESSES:
                assert content and list(content) == [NDJSON_MEDIA], f"{method} {path} {status}: {content}"
                continue
            if (path, method, status) in TEXT_SUCCESSES:
                assert content and list(content) == ["text/plain"], f"{method} {path} {status}: {content}"
                continue
            assert content and list(content) == [JSON_MEDIA], f"{method} {path} {status}: {content}"
            schema = f"{pointer}/content/{escape(JSON_MEDIA)}/schema"
            if int(status) >= 400 and path not in ("/readyz",):
                # The shape (members and types) is the API's: a body of the other API's shape never validates.
                other = ({"statusCode": int(status), "error": "Bad Request", "message": "m", "errorCode": "e"}
                         if path in OAUTH_PATHS + DBCONNECTION_PATHS else {"error": "x", "error_description": "y"})
                assert not spec.is_valid(schema, other), f"{method} {path} {status} accepts the wrong error shape"
                node = json.dumps(spec.at(spec.follow(schema)))
                wanted = ("OAuthError" if path in OAUTH_PATHS
                          else ("DatabaseConnectionError" if int(status) < 500 else "OAuthError")
                          if path in DBCONNECTION_PATHS else "ManagementError")
                assert wanted in node, f"{method} {path} {status} does not use {wanted}"


def test_management_operations_declare_their_scope_and_common_errors(spec):
    scopes = spec.doc["components"]["securitySchemes"]["bearerAuth"]["x-scopes"]
    assert set(MANAGEMENT_SCOPES) <= set(scopes), set(MANAGEMENT_SCOPES) - set(scopes)
    for path, method, operation in spec.management_operations():
        security = operation.get("security")
        assert security and len(security) == 1 and list(security[0]) == ["bearerAuth"], f"{method} {path}"
        (scope,) = security[0]["bearerAuth"]
        resource = path.split("/")[3]
        wanted = SCOPE_EXCEPTIONS.get((path, method)) or f"{VERB_SCOPES[method]}:{RESOURCE_SCOPES[resource]}"
        assert scope == wanted, f"{method.upper()} {path} documents {scope}, SPEC §9 says {wanted}"
        for status in ("401", "403", "500"):
            assert status in operation["responses"], f"{method.upper()} {path} lacks {status}"
        body = operation.get("requestBody")
        if body:
            assert "413" in operation["responses"] and "400" in operation["responses"], f"{method} {path}"
            content = spec.at(spec.follow(f"/paths/{escape(path)}/{method}/requestBody")).get("content", {})
            media = JSON_MEDIA if JSON_MEDIA in content else next(iter(content))  # an import is multipart
            schema = spec.at(spec.follow(f"/paths/{escape(path)}/{method}/requestBody/content/"
                                         f"{escape(media)}/schema"))
            if schema.get("type") != "array":  # an array body (the MFA policies) has no properties to refuse
                assert schema.get("additionalProperties") is False, \
                    f"{method} {path}: unknown properties are refused"
    openapi = spec.doc["paths"]["/api/v2/openapi.json"]["get"]
    assert openapi.get("security") == [], "openapi.json needs no token"


def test_a_server_without_registration_does_not_document_it(tmp_path):
    """Issue 33 (schemathesis): `/oidc/register` was in the served document of a server whose registration is off,
    where it answers 404. Such a server leaves it out; the suite's server (registration open) keeps it."""
    import requests

    from wardenlib import HTTP_TIMEOUT, Warden, default_binary

    server = Warden(binary=default_binary(), workdir=str(tmp_path), database_url=f"sqlite:{tmp_path}/w.sqlite",
                    mgmt_client_id="doc-mgmt", mgmt_client_secret="doc-mgmt-secret-0123456789abcdef")
    server.start()
    try:
        server.wait_ready(timeout=30)
        served = requests.get(server.url("api/v2/openapi.json"), timeout=HTTP_TIMEOUT).json()
        assert "/oidc/register" not in served["paths"], sorted(served["paths"])
        assert "/oauth/token" in served["paths"]
        assert requests.post(server.url("oidc/register"), json={}, timeout=HTTP_TIMEOUT).status_code == 404
    finally:
        server.stop()


def test_the_suites_server_documents_registration(spec):
    assert "/oidc/register" in spec.doc["paths"]
