"""The OpenAPI oracle of test_openapi.py: the served document (`Spec`: navigation, `$ref`s, JSON Schema 2020-12
validation of response bodies and headers, a record of what was exercised) and the HTTP caller that checks every
response against it (`Api`), with the operation tables SPEC §9 implies."""

from __future__ import annotations

import datetime
import json
import re
import time
import urllib.parse
from functools import lru_cache
from typing import Any

import pytest
import requests
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from guardianlib import Device
from wardenlib import HTTP_TIMEOUT, describe, uid

ROOT = "urn:warden:openapi"
JSON_MEDIA = "application/json"
CONNECTION = "Username-Password-Authentication"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")

# Every operation SPEC §2, §5, §7, §9 and §1 (health) name; the document may add more, never fewer.
EXPECTED_OPERATIONS = {
    ("/oauth/token", "post"), ("/.well-known/openid-configuration", "get"), ("/.well-known/jwks.json", "get"),
    ("/bc-authorize", "post"), ("/oauth/revoke", "post"), ("/userinfo", "get"), ("/userinfo", "post"),
    ("/healthz", "get"), ("/readyz", "get"), ("/api/v2/openapi.json", "get"),
    ("/api/v2/clients", "get"), ("/api/v2/clients", "post"), ("/api/v2/clients/{id}", "get"),
    ("/api/v2/clients/{id}", "patch"), ("/api/v2/clients/{id}", "delete"),
    ("/api/v2/clients/{id}/rotate-secret", "post"),
    ("/api/v2/resource-servers", "get"), ("/api/v2/resource-servers", "post"),
    ("/api/v2/resource-servers/{id}", "get"), ("/api/v2/resource-servers/{id}", "patch"),
    ("/api/v2/resource-servers/{id}", "delete"),
    ("/api/v2/client-grants", "get"), ("/api/v2/client-grants", "post"), ("/api/v2/client-grants/{id}", "patch"),
    ("/api/v2/client-grants/{id}", "delete"),
    ("/api/v2/users", "get"), ("/api/v2/users", "post"), ("/api/v2/users/{id}", "get"),
    ("/api/v2/users/{id}", "patch"), ("/api/v2/users/{id}", "delete"), ("/api/v2/users-by-email", "get"),
    ("/api/v2/users/{id}/roles", "get"), ("/api/v2/users/{id}/roles", "post"), ("/api/v2/users/{id}/roles", "delete"),
    ("/api/v2/users/{id}/identities", "post"), ("/api/v2/users/{id}/identities/{provider}/{user_id}", "delete"),
    ("/api/v2/roles", "get"), ("/api/v2/roles", "post"), ("/api/v2/roles/{id}", "get"), ("/api/v2/roles/{id}", "patch"),
    ("/api/v2/roles/{id}", "delete"), ("/api/v2/roles/{id}/permissions", "get"),
    ("/api/v2/roles/{id}/permissions", "post"), ("/api/v2/roles/{id}/permissions", "delete"),
    ("/api/v2/logs", "get"), ("/api/v2/logs/{id}", "get"),
    ("/api/v2/keys/signing", "get"), ("/api/v2/keys/signing/{kid}", "get"), ("/api/v2/keys/signing/rotate", "post"),
    ("/api/v2/keys/signing/{kid}/revoke", "put"),
    ("/api/v2/guardian/enrollments/ticket", "post"), ("/api/v2/users/{id}/enrollments", "get"),
    ("/api/v2/guardian/enrollments/{id}", "get"), ("/api/v2/guardian/enrollments/{id}", "delete"),
    ("/appliance-mfa/api/enroll", "post"), ("/appliance-mfa/api/device-accounts/{id}", "patch"),
    ("/appliance-mfa/api/device-accounts/{id}", "delete"),
    ("/appliance-mfa/api/device-accounts/{id}/transactions", "get"), ("/appliance-mfa/api/resolve-transaction", "post"),
    ("/rich-consents/{id}", "get"),
    ("/api/v2/post-login-rules", "get"), ("/api/v2/post-login-rules", "post"),
    ("/api/v2/post-login-rules/{id}", "get"), ("/api/v2/post-login-rules/{id}", "patch"),
    ("/api/v2/post-login-rules/{id}", "delete"),
    # SPEC §15: connections
    ("/api/v2/connections", "get"), ("/api/v2/connections", "post"), ("/api/v2/connections/{id}", "get"),
    ("/api/v2/connections/{id}", "patch"), ("/api/v2/connections/{id}", "delete"),
    ("/api/v2/connections/{id}/clients", "get"), ("/api/v2/connections/{id}/clients", "patch"),
    ("/api/v2/clients/{id}/connections", "get"),
    # SPEC §15.1: the database connection's accounts
    ("/dbconnections/signup", "post"), ("/dbconnections/change_password", "post"),
    ("/api/v2/tickets/email-verification", "post"), ("/api/v2/tickets/password-change", "post"),
    ("/api/v2/jobs/verification-email", "post"),
    # SPEC §17: passkeys
    ("/passkey/register", "post"), ("/passkey/challenge", "post"),
    ("/api/v2/guardian/factors/{name}/settings", "get"), ("/api/v2/guardian/factors/{name}/settings", "put"),
    # SPEC §19: organizations
    ("/api/v2/organizations", "get"),
    ("/api/v2/organizations", "post"),
    ("/api/v2/organizations/{id}", "get"),
    ("/api/v2/organizations/{id}", "patch"),
    ("/api/v2/organizations/{id}", "delete"),
    ("/api/v2/organizations/name/{name}", "get"),
    ("/api/v2/organizations/{id}/enabled_connections", "get"),
    ("/api/v2/organizations/{id}/enabled_connections", "post"),
    ("/api/v2/organizations/{id}/enabled_connections/{connection_id}", "get"),
    ("/api/v2/organizations/{id}/enabled_connections/{connection_id}", "patch"),
    ("/api/v2/organizations/{id}/enabled_connections/{connection_id}", "delete"),
    ("/api/v2/organizations/{id}/members", "get"),
    ("/api/v2/organizations/{id}/members", "post"),
    ("/api/v2/organizations/{id}/members", "delete"),
    ("/api/v2/organizations/{id}/members/{user_id}/roles", "get"),
    ("/api/v2/organizations/{id}/members/{user_id}/roles", "post"),
    ("/api/v2/organizations/{id}/members/{user_id}/roles", "delete"),
    ("/api/v2/organizations/{id}/invitations", "get"),
    ("/api/v2/organizations/{id}/invitations", "post"),
    ("/api/v2/organizations/{id}/invitations/{invitation_id}", "get"),
    ("/api/v2/organizations/{id}/invitations/{invitation_id}", "delete"),
    ("/api/v2/users/{id}/organizations", "get"),
    ("/api/v2/users/{id}/authentication-methods", "get"),
    ("/api/v2/users/{id}/authentication-methods/{method_id}", "get"),
    ("/api/v2/users/{id}/authentication-methods/{method_id}", "patch"),
    ("/api/v2/users/{id}/authentication-methods/{method_id}", "delete"),
}
# SPEC §9: the scope of the verb and resource, besides these exceptions.
VERB_SCOPES = {"get": "read", "post": "create", "patch": "update", "put": "update", "delete": "delete"}
NDJSON_MEDIA = "application/x-ndjson"
SCOPE_EXCEPTIONS = {
    ("/api/v2/clients/{id}/rotate-secret", "post"): "update:clients",
    ("/api/v2/users-by-email", "get"): "read:users",
    ("/api/v2/users/{id}/roles", "post"): "update:users",
    ("/api/v2/users/{id}/roles", "delete"): "update:users",
    ("/api/v2/users/{id}/roles", "get"): "read:users",
    # SPEC §15 "Linking"
    ("/api/v2/users/{id}/identities", "post"): "update:users",
    ("/api/v2/users/{id}/identities/{provider}/{user_id}", "delete"): "update:users",
    # SPEC §17: a user's authentication methods
    ("/api/v2/users/{id}/authentication-methods", "get"): "read:authentication_methods",
    ("/api/v2/users/{id}/authentication-methods/{method_id}", "get"): "read:authentication_methods",
    ("/api/v2/users/{id}/authentication-methods/{method_id}", "patch"): "update:authentication_methods",
    ("/api/v2/users/{id}/authentication-methods/{method_id}", "delete"): "delete:authentication_methods",
    ("/api/v2/roles/{id}/permissions", "post"): "update:roles",
    ("/api/v2/roles/{id}/permissions", "delete"): "update:roles",
    ("/api/v2/roles/{id}/permissions", "get"): "read:roles",
    ("/api/v2/keys/signing/rotate", "post"): "create:signing_keys",
    ("/api/v2/keys/signing/{kid}/revoke", "put"): "update:signing_keys",
    ("/api/v2/guardian/enrollments/ticket", "post"): "create:guardian_enrollment_tickets",
    ("/api/v2/guardian/enrollments/{id}", "get"): "read:guardian_enrollments",
    ("/api/v2/guardian/enrollments/{id}", "delete"): "delete:guardian_enrollments",
    # SPEC §12: MFA settings and a user's second factors
    ("/api/v2/guardian/factors", "get"): "read:guardian_factors",
    ("/api/v2/guardian/factors/{name}", "put"): "update:guardian_factors",
    ("/api/v2/guardian/factors/{name}/settings", "get"): "read:guardian_factors",
    # SPEC §19: an organization's parts have scopes of their own
    ("/api/v2/organizations/{id}/enabled_connections", "get"): "read:organization_connections",
    ("/api/v2/organizations/{id}/enabled_connections", "post"): "create:organization_connections",
    ("/api/v2/organizations/{id}/enabled_connections/{connection_id}", "get"): "read:organization_connections",
    ("/api/v2/organizations/{id}/enabled_connections/{connection_id}", "patch"): "update:organization_connections",
    ("/api/v2/organizations/{id}/enabled_connections/{connection_id}", "delete"): "delete:organization_connections",
    ("/api/v2/organizations/{id}/members", "get"): "read:organization_members",
    ("/api/v2/organizations/{id}/members", "post"): "create:organization_members",
    ("/api/v2/organizations/{id}/members", "delete"): "delete:organization_members",
    ("/api/v2/organizations/{id}/members/{user_id}/roles", "get"): "read:organization_member_roles",
    ("/api/v2/organizations/{id}/members/{user_id}/roles", "post"): "create:organization_member_roles",
    ("/api/v2/organizations/{id}/members/{user_id}/roles", "delete"): "delete:organization_member_roles",
    ("/api/v2/organizations/{id}/invitations", "get"): "read:organization_invitations",
    ("/api/v2/organizations/{id}/invitations", "post"): "create:organization_invitations",
    ("/api/v2/organizations/{id}/invitations/{invitation_id}", "get"): "read:organization_invitations",
    ("/api/v2/organizations/{id}/invitations/{invitation_id}", "delete"): "delete:organization_invitations",
    ("/api/v2/users/{id}/organizations", "get"): "read:organizations",
    ("/api/v2/guardian/factors/{name}/settings", "put"): "update:guardian_factors",
    ("/api/v2/guardian/policies", "get"): "read:mfa_policies",
    ("/api/v2/guardian/policies", "put"): "update:mfa_policies",
    ("/api/v2/users/{id}/recovery-code-regeneration", "post"): "update:users",
    ("/api/v2/users/{id}/authenticators", "delete"): "delete:guardian_enrollments",
    # SPEC §9 "Bulk users": create:users (imports), read:users (exports and job status)
    ("/api/v2/jobs/users-imports", "post"): "create:users",
    ("/api/v2/jobs/users-exports", "post"): "read:users",
    ("/api/v2/jobs/{id}", "get"): "read:users",
    ("/api/v2/jobs/{id}/errors", "get"): "read:users",
    ("/api/v2/jobs/{id}/download", "get"): "read:users",
    # SPEC §15: a client's connections are read with read:connections
    ("/api/v2/clients/{id}/connections", "get"): "read:connections",
    # SPEC §15.1: tickets need create:user_tickets; a verification e-mail job, update:users
    ("/api/v2/tickets/email-verification", "post"): "create:user_tickets",
    ("/api/v2/tickets/password-change", "post"): "create:user_tickets",
    ("/api/v2/jobs/verification-email", "post"): "update:users",
}
RESOURCE_SCOPES = {"clients": "clients", "resource-servers": "resource_servers", "client-grants": "client_grants",
                   "users": "users", "roles": "roles", "logs": "logs", "keys": "signing_keys",
                   "post-login-rules": "post_login_rules", "connections": "connections",
                   "organizations": "organizations"}


def escape(token: str) -> str:
    """A JSON Pointer reference token (RFC 6901)."""
    return token.replace("~", "~0").replace("/", "~1")


def media_type(response: requests.Response) -> str:
    return (response.headers.get("Content-Type") or "").split(";")[0].strip().lower()


def _date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})", value):
        return False
    datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    return True


FORMATS = FormatChecker(formats=())
FORMATS.checks("date-time", raises=ValueError)(_date_time)
FORMATS.checks("uri")(lambda v: not isinstance(v, str) or re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$", v) is not None)
FORMATS.checks("email")(lambda v: not isinstance(v, str) or re.fullmatch(r"[^@\s]+@[^@\s]+", v) is not None)


class Spec:
    """The served document, with response checking and a record of which (path, method, status) were seen."""

    def __init__(self, document: dict):
        self.doc = document
        self.registry = Registry().with_resource(
            ROOT, Resource.from_contents(document, default_specification=DRAFT202012))
        self.seen: set[tuple[str, str, int]] = set()

    # ------------------------------------------------------------------------------------------ navigation
    def at(self, pointer: str) -> Any:
        node: Any = self.doc
        for token in pointer.lstrip("/").split("/") if pointer.strip("/") else []:
            token = token.replace("~1", "/").replace("~0", "~")
            node = node[int(token)] if isinstance(node, list) else node[token]
        return node

    def follow(self, pointer: str) -> str:
        """The pointer after following Reference Objects (`{"$ref": "#/…"}`) of the OpenAPI document."""
        for _ in range(20):
            node = self.at(pointer)
            if not (isinstance(node, dict) and "$ref" in node):
                return pointer
            ref = node["$ref"]
            assert ref.startswith("#/"), f"only local references are expected, found {ref}"
            pointer = ref[1:]
        raise AssertionError(f"reference loop at {pointer}")

    def template(self, path: str) -> str | None:
        """The documented path (template) a concrete URL path falls under, an exact one first."""
        if path in self.doc["paths"]:
            return path
        segments = path.split("/")
        for template in self.doc["paths"]:
            parts = template.split("/")
            if len(parts) == len(segments) and all(
                    part == segment or (re.fullmatch(r"\{\w+\}", part) and segment)
                    for part, segment in zip(parts, segments)):
                return template
        return None

    def operations(self) -> list[tuple[str, str, dict]]:
        return [(path, method, item[method]) for path, item in self.doc["paths"].items()
                for method in METHODS if method in item]

    def management_operations(self) -> list[tuple[str, str, dict]]:
        return [(p, m, o) for p, m, o in self.operations() if p.startswith("/api/v2/") and p != "/api/v2/openapi.json"]

    # ---------------------------------------------------------------------------------------- validation
    @lru_cache(maxsize=None)
    def validator(self, pointer: str) -> Draft202012Validator:
        return Draft202012Validator({"$ref": f"{ROOT}#{pointer}"}, registry=self.registry, format_checker=FORMATS)

    def is_valid(self, pointer: str, instance: Any) -> bool:
        return self.validator(pointer).is_valid(instance)

    def schema_errors(self, pointer: str, instance: Any) -> str | None:
        error = best_match(self.validator(pointer).iter_errors(instance))
        if error is None:
            return None
        return f"{error.message} at {error.json_path} (schema {pointer}{'/' if error.schema_path else ''}" \
               f"{'/'.join(str(p) for p in error.schema_path)})"

    def _declared(self, pointer: str, instance: dict, found: dict[str, list[str]], state: dict) -> None:
        """Collects the property schemas (by pointer) an object schema declares, through $ref, allOf, the
        oneOf/anyOf branches the instance matches, and if/then."""
        node = self.at(pointer)
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            ref = node["$ref"]
            self._declared(ref.split("#", 1)[1], instance, found, state)
        for key in node.get("properties", {}):
            found.setdefault(key, []).append(f"{pointer}/properties/{escape(key)}")
            state["strict"] = state.get("strict", True)
        extra = node.get("additionalProperties")
        if extra is not None and extra is not False:
            state["free"] = True
            if isinstance(extra, dict):
                state.setdefault("extra", []).append(f"{pointer}/additionalProperties")
        for index, _ in enumerate(node.get("allOf", [])):
            self._declared(f"{pointer}/allOf/{index}", instance, found, state)
        for keyword in ("oneOf", "anyOf"):
            for index, _ in enumerate(node.get(keyword, [])):
                if self.is_valid(f"{pointer}/{keyword}/{index}", instance):
                    self._declared(f"{pointer}/{keyword}/{index}", instance, found, state)
        if "if" in node and "then" in node and self.is_valid(f"{pointer}/if", instance):
            self._declared(f"{pointer}/then", instance, found, state)

    def _items(self, pointer: str, instance: list, found: list[str]) -> None:
        node = self.at(pointer)
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            self._items(node["$ref"].split("#", 1)[1], instance, found)
        if isinstance(node.get("items"), dict):
            found.append(f"{pointer}/items")
        for index, _ in enumerate(node.get("allOf", [])):
            self._items(f"{pointer}/allOf/{index}", instance, found)
        for keyword in ("oneOf", "anyOf"):
            for index, _ in enumerate(node.get(keyword, [])):
                if self.is_valid(f"{pointer}/{keyword}/{index}", instance):
                    self._items(f"{pointer}/{keyword}/{index}", instance, found)

    def undeclared(self, pointer: str, instance: Any, where: str = "$") -> list[str]:
        """Members of the body that the schema does not declare (objects whose schema lists `properties` and no
        `additionalProperties`), so the document cannot silently miss a field the server sends."""
        problems: list[str] = []
        if isinstance(instance, dict):
            found: dict[str, list[str]] = {}
            state: dict = {}
            self._declared(pointer, instance, found, state)
            strict = state.get("strict", False) and not state.get("free", False)
            for key, value in instance.items():
                if key in found:
                    for sub in found[key]:
                        problems += self.undeclared(sub, value, f"{where}.{key}")
                elif strict:
                    problems.append(f"{where}.{key}")
                else:
                    for sub in state.get("extra", []):
                        problems += self.undeclared(sub, value, f"{where}.{key}")
        elif isinstance(instance, list):
            items: list[str] = []
            self._items(pointer, instance, items)
            for index, value in enumerate(instance):
                for sub in items:
                    problems += self.undeclared(sub, value, f"{where}[{index}]")
        return sorted(set(problems))

    def check(self, response: requests.Response, path: str, method: str) -> None:
        """Fails unless `response` is one the document declares for `method path`."""
        method = method.lower()
        item = self.doc["paths"].get(path)
        assert item is not None and method in item, f"{method.upper()} {path} is not in the document"
        status = str(response.status_code)
        responses = item[method]["responses"]
        assert status in responses, \
            f"status {status} is not documented for {method.upper()} {path} (documented: " \
            f"{sorted(responses)}): {describe(response)}"
        self.seen.add((path, method, response.status_code))
        pointer = self.follow(f"/paths/{escape(path)}/{method}/responses/{status}")
        declared = self.at(pointer)
        for name, header in (declared.get("headers") or {}).items():
            header = self.at(self.follow(f"{pointer}/headers/{escape(name)}"))
            value = response.headers.get(name)
            if header.get("required"):
                assert value is not None, f"header {name} missing: {describe(response)}"
            constant = (header.get("schema") or {}).get("const")
            if value is not None and constant is not None:
                assert value == constant, f"header {name}: {value!r} != {constant!r}: {describe(response)}"
        content = declared.get("content")
        if not content:
            assert response.content == b"", f"documented without a body, got one: {describe(response)}"
            return
        kind = media_type(response)
        assert kind in content, f"Content-Type {kind!r} is not documented {sorted(content)}: {describe(response)}"
        if kind == "text/plain":  # /dbconnections/change_password's sentence (SPEC §15.1)
            assert response.text, f"an empty text body: {describe(response)}"
            return
        if kind == NDJSON_MEDIA:  # a users export (SPEC §9): one JSON object a line
            for line in response.text.splitlines():
                assert isinstance(json.loads(line), dict), f"not a JSON object a line: {describe(response)}"
            return
        try:
            body = response.json()
        except ValueError as error:
            raise AssertionError(f"not JSON: {describe(response)}") from error
        schema = f"{pointer}/content/{escape(kind)}/schema"
        problem = self.schema_errors(schema, body)
        assert problem is None, f"{method.upper()} {path} {status}: {problem}\n{describe(response)}"
        extra = self.undeclared(schema, body)
        assert not extra, f"{method.upper()} {path} {status}: undocumented members {extra}\n{describe(response)}"


class Api:
    """Requests whose every response is checked against the document."""

    def __init__(self, warden, spec: Spec):
        self.warden = warden
        self.spec = spec

    def call(self, method: str, path: str, *, ids: dict | None = None, token: str | None = None,
             bearer: bool = True, headers: dict | None = None, **kwargs: Any) -> requests.Response:
        """`method path` with `{name}` placeholders filled from `ids` (URL-encoded); Management paths get the
        bootstrap client's token unless `token` is given or `bearer` is False."""
        concrete = path
        for name, value in (ids or {}).items():
            concrete = concrete.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        headers = dict(headers or {})
        management = path.startswith("/api/v2/") and path != "/api/v2/openapi.json"
        if management and bearer:
            headers.setdefault("Authorization", f"Bearer {token or self.warden.mgmt_token()}")
        kwargs.setdefault("timeout", HTTP_TIMEOUT)
        response = self.warden.http.request(method, self.warden.base_url + concrete.lstrip("/"), headers=headers,
                                            **kwargs)
        self.spec.check(response, path, method)
        return response

    def watch(self, device: Device) -> Device:
        """Has every response `device` (a guardianlib.Device) receives checked against the document, as `call`
        does (a response hook on its HTTP session)."""
        def check(response: requests.Response, *args: Any, **kwargs: Any) -> None:
            path = urllib.parse.urlsplit(response.url).path
            template = self.spec.template(path)
            assert template is not None, f"{response.request.method} {path} is not in the document"
            self.spec.check(response, template, response.request.method)

        device.http.hooks["response"].append(check)
        return device

    def expect(self, status: int, method: str, path: str, **kwargs: Any) -> requests.Response:
        response = self.call(method, path, **kwargs)
        assert response.status_code == status, f"expected {status}: {describe(response)}"
        return response

    def error(self, status: int, code: str, method: str, path: str, **kwargs: Any) -> dict:
        """A Management error with this status and errorCode (the body already matched the document)."""
        body = self.expect(status, method, path, **kwargs).json()
        assert body["errorCode"] == code, f"expected errorCode {code}: {body}"
        return body

    def oauth_error(self, status: int, code: str, **kwargs: Any) -> requests.Response:
        response = self.expect(status, "POST", "/oauth/token", **kwargs)
        assert response.json()["error"] == code, describe(response)
        return response


# -------------------------------------------------------------------- fixtures and helpers of test_openapi.py
@pytest.fixture(scope="module")
def spec(warden) -> "Spec":
    response = requests.get(warden.url("api/v2/openapi.json"), timeout=HTTP_TIMEOUT)
    assert response.status_code == 200, describe(response)
    assert media_type(response) == JSON_MEDIA, describe(response)
    return Spec(response.json())


@pytest.fixture(scope="module")
def api(warden, spec) -> "Api":
    return Api(warden, spec)


def big_body(size: int = 70 * 1024) -> str:
    return json.dumps({"name": "x" * size})


def poll(fn, until, timeout: float = 3.0):
    deadline = time.monotonic() + timeout
    while True:
        result = fn()
        if until(result) or time.monotonic() > deadline:
            return result
        time.sleep(0.2)


def rsa_public_pem() -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.public_key().public_bytes(serialization.Encoding.PEM,
                                         serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def placeholder_ids(path: str) -> dict:
    return {name: f"nothing-{uid()}" for name in re.findall(r"{(\w+)}", path)}


def ticket_for(api: Api, user_id: str) -> str:
    return api.expect(200, "POST", "/api/v2/guardian/enrollments/ticket", json={"user_id": user_id}).json()["ticket_id"]
