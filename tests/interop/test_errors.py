"""The error contract (SPEC conventions, §5, §9, §11), spoken with plain `requests`.

Authentication API: `{"error", "error_description"}` + `Cache-Control: no-store`, statuses per RFC 6749 §5.2.
Management API: `{"statusCode", "error", "message", "errorCode"}`.

What stays here is what a real HTTP exchange with the built binary adds to the Swift suites' in-process tests: the
body limits and content types of the HTTP stack, `WWW-Authenticate` on the wire, genuine tokens of other audiences.
Error paths that are pure request logic (wrong secret by POST, repeated parameters, unknown or unauthorized grant
types, missing audience, no client grant, scopes outside the grant, a missing or malformed Management token) are
asserted once, by `Tests/WardenServerTests/Grants/TokenEndpointErrorTests.swift` and
`Tests/WardenServerTests/Management/ManagementAuthTests.swift`.
"""

from __future__ import annotations

import json

import pytest

from wardenlib import HTTP_TIMEOUT, describe, expect_status, json_of, uid

FORM = "application/x-www-form-urlencoded"


@pytest.fixture(scope="module")
def setup(warden):
    """One API; client A with a grant for read:things only; B without the client_credentials grant;
    C with the grant type but no client grant for the API."""
    api = warden.create_api()
    a = warden.create_client()
    warden.create_client_grant(a["client_id"], api["identifier"], ["read:things"])
    b = warden.create_client(app_type="regular_web", grant_types=["authorization_code"],
                             callbacks=["https://app.interop.test/callback"])
    c = warden.create_client()
    return {"api": api, "aud": api["identifier"], "a": a, "b": b, "c": c}


def token_post(warden, *, data=None, json_body=None, auth=None, headers=None):
    return warden.http.post(warden.token_endpoint, data=data, json=json_body, auth=auth, headers=headers,
                            timeout=HTTP_TIMEOUT)


def assert_oauth_error(response, status: int, error: str):
    assert response.status_code == status, describe(response)
    body = json_of(response)
    assert body.get("error") == error, describe(response)
    assert isinstance(body.get("error_description", ""), str)
    assert "no-store" in response.headers.get("Cache-Control", ""), f"Cache-Control: {response.headers}"
    assert response.headers.get("Content-Type", "").startswith("application/json"), response.headers
    return body


def cc_form(client, aud, **extra):
    form = {"grant_type": "client_credentials", "client_id": client["client_id"],
            "client_secret": client["client_secret"], "audience": aud}
    form.update(extra)
    return form


# ------------------------------------------------------------------------------------------------ /oauth/token
def test_wrong_secret_basic_is_invalid_client_with_www_authenticate(warden, setup):
    r = token_post(warden, auth=(setup["a"]["client_id"], "wrong-" + setup["a"]["client_secret"]),
                   data={"grant_type": "client_credentials", "audience": setup["aud"]})
    assert_oauth_error(r, 401, "invalid_client")
    assert r.headers.get("WWW-Authenticate", "").lower().startswith("basic"), r.headers



@pytest.mark.parametrize("registered, sent", [("client_secret_post", "basic"), ("client_secret_basic", "post")])
def test_the_right_secret_by_the_wrong_method_names_the_registered_method(warden, registered, sent):
    """Issue 33: "Wrong client id or secret" sent people looking for a typo; the secret was right and the method was
    not. The answer names the method the client is registered for, never the secret."""
    client = warden.create_client(token_endpoint_auth_method=registered)
    form = {"grant_type": "client_credentials", "audience": "https://nowhere.interop.test/"}
    if sent == "basic":
        r = token_post(warden, auth=(client["client_id"], client["client_secret"]), data=form)
    else:
        r = token_post(warden, data={**form, "client_id": client["client_id"],
                                     "client_secret": client["client_secret"]})
    body = assert_oauth_error(r, 401, "invalid_client")
    assert registered in body["error_description"], body
    assert client["client_secret"] not in r.text
    wrong = token_post(warden, auth=(client["client_id"], "wrong"), data=form) if sent == "post" else token_post(
        warden, data={**form, "client_id": client["client_id"], "client_secret": "wrong"})
    assert assert_oauth_error(wrong, 401, "invalid_client")["error_description"] == "Wrong client id or secret"


def test_unknown_client_is_invalid_client(warden, setup):
    r = token_post(warden, data=cc_form(setup["a"], setup["aud"], client_id=f"no-such-client-{uid()}"))
    assert_oauth_error(r, 401, "invalid_client")


def test_body_over_64_kib_is_413(warden, setup):
    form = cc_form(setup["a"], setup["aud"], padding="x" * (65 * 1024))
    r = token_post(warden, data=form)
    assert_oauth_error(r, 413, "invalid_request")


def test_body_just_under_64_kib_is_fine(warden, setup):
    form = cc_form(setup["a"], setup["aud"])
    base = len("&".join(f"{k}={v}" for k, v in form.items()).encode())  # all values are URL-safe already
    form["padding"] = "x" * (64 * 1024 - base - len("&padding=") - 16)
    r = token_post(warden, data=form)
    assert r.status_code == 200, describe(r)


def test_wrong_content_type_is_invalid_request(warden, setup):
    body = "&".join(f"{k}={v}" for k, v in cc_form(setup["a"], setup["aud"]).items())
    r = token_post(warden, data=body, headers={"Content-Type": "text/plain"})
    assert_oauth_error(r, 400, "invalid_request")














def test_json_body_null_and_empty_values_are_absent(warden, setup):
    a = setup["a"]
    body = {"grant_type": "client_credentials", "client_id": a["client_id"], "client_secret": a["client_secret"],
            "audience": setup["aud"], "scope": None, "organization": None, "realm": ""}
    r = token_post(warden, json_body=body)
    assert r.status_code == 200, describe(r)
    assert set(json_of(r)["scope"].split()) == {"read:things"}
    body["scope"] = ""
    r = token_post(warden, json_body=body)
    assert r.status_code == 200, describe(r)
    assert set(json_of(r)["scope"].split()) == {"read:things"}
    # and a required parameter sent as null or "" is missing
    for missing in (None, ""):
        body = {"grant_type": "client_credentials", "client_id": a["client_id"], "client_secret": a["client_secret"],
                "audience": missing}
        assert_oauth_error(token_post(warden, json_body=body), 400, "invalid_request")


def test_malformed_json_body_is_invalid_request(warden, setup):
    r = token_post(warden, data='{"grant_type": "client_credentials",', headers={"Content-Type": "application/json"})
    assert_oauth_error(r, 400, "invalid_request")


# ------------------------------------------------------------------------------------------- Management API
def assert_mgmt_error(response, status: int, reason: str, code: str):
    assert response.status_code == status, describe(response)
    body = json_of(response)
    assert set(body) >= {"statusCode", "error", "message", "errorCode"}, describe(response)
    assert body["statusCode"] == status, body
    assert body["error"] == reason, body
    assert body["errorCode"] == code, body
    assert isinstance(body["message"], str) and body["message"], body
    return body






def test_management_with_another_apis_token_is_401(warden, setup):
    """A genuine Warden token whose audience is not {issuer}api/v2/."""
    token = json_of(expect_status(token_post(warden, data=cc_form(setup["a"], setup["aud"])), 200))["access_token"]
    assert_mgmt_error(warden.mgmt("GET", "clients", token=token), 401, "Unauthorized", "invalid_token")


def test_management_token_lacking_a_scope_is_403(warden):
    limited = warden.create_client()
    warden.create_client_grant(limited["client_id"], warden.mgmt_audience, ["read:clients"])
    r = warden.client_credentials(limited["client_id"], limited["client_secret"], warden.mgmt_audience)
    token = json_of(expect_status(r, 200))["access_token"]
    expect_status(warden.mgmt("GET", "clients", token=token, params={"per_page": 1}), 200)
    assert_mgmt_error(warden.mgmt("POST", "clients", token=token, json={"name": f"nope {uid()}"}),
                      403, "Forbidden", "insufficient_scope")
    assert_mgmt_error(warden.mgmt("GET", "users", token=token), 403, "Forbidden", "insufficient_scope")
    assert_mgmt_error(warden.mgmt("DELETE", f"clients/{limited['client_id']}", token=token),
                      403, "Forbidden", "insufficient_scope")


def test_management_unknown_property_is_invalid_body(warden):
    r = warden.mgmt("POST", "clients", json={"name": f"x {uid()}", "bogus_property": 1})
    body = assert_mgmt_error(r, 400, "Bad Request", "invalid_body")
    assert "bogus_property" in body["message"], body
    user = json_of(expect_status(warden.mgmt("POST", "users", json={
        "connection": "Username-Password-Authentication", "email": f"unknown-prop-{uid()}@interop.test",
        "password": "Interop-Passw0rd!"}), 201))
    r = warden.mgmt("PATCH", f"users/{user['user_id']}", json={"nickname": "n", "favourite_colour": "blue"})
    body = assert_mgmt_error(r, 400, "Bad Request", "invalid_body")
    assert "favourite_colour" in body["message"], body


def test_management_bad_connection_is_invalid_body(warden):
    r = warden.mgmt("POST", "users", json={"connection": "google-oauth2", "email": f"c-{uid()}@interop.test",
                                           "password": "Interop-Passw0rd!"})
    assert_mgmt_error(r, 400, "Bad Request", "invalid_body")


def test_management_malformed_json_is_invalid_body(warden):
    r = warden.mgmt("POST", "clients", data='{"name": "broken",', headers={"Content-Type": "application/json"})
    assert_mgmt_error(r, 400, "Bad Request", "invalid_body")


def test_management_unknown_user_is_404(warden):
    r = warden.mgmt("GET", f"users/auth0|no-such-user-{uid()}")
    assert_mgmt_error(r, 404, "Not Found", "inexistent_user")


def test_management_unknown_client_is_404(warden):
    assert_mgmt_error(warden.mgmt("GET", f"clients/no-such-client-{uid()}"), 404, "Not Found", "inexistent_client")


def test_system_api_cannot_be_changed_or_deleted(warden):
    system = warden.system_api()
    assert system["is_system"] is True
    r = warden.mgmt("PATCH", f"resource-servers/{system['id']}", json={"name": "renamed"})
    assert_mgmt_error(r, 403, "Forbidden", "operation_not_allowed")
    r = warden.mgmt("DELETE", f"resource-servers/{system['id']}")
    assert_mgmt_error(r, 403, "Forbidden", "operation_not_allowed")
    # still there, unchanged, and the Management API still works
    again = json_of(expect_status(warden.mgmt("GET", f"resource-servers/{system['id']}"), 200))
    assert again["name"] == system["name"] and again["is_system"] is True


def test_management_error_bodies_are_json_not_stack_traces(warden):
    for method, path, kwargs in [("POST", "clients", {"data": "[1, 2", "headers": {"Content-Type": "application/json"}}),
                                 ("POST", "clients", {"data": json.dumps([1, 2]),
                                                      "headers": {"Content-Type": "application/json"}}),
                                 ("POST", "users", {"json": {"connection": 5}}),
                                 ("GET", "users", {"params": {"q": "email:(unbalanced", "search_engine": "v3"}})]:
        r = warden.mgmt(method, path, **kwargs)
        assert r.status_code == 400, describe(r)
        body = json_of(r)
        assert body["statusCode"] == 400 and body["errorCode"] in ("invalid_body", "invalid_query_string"), body
