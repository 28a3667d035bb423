"""SPEC §8 "Post-login rules", spoken from the outside: `/api/v2/post-login-rules` through the Management API
(scopes, a condition refused naming its position, 404), and real logins through the hosted login page
(pkcelib.hosted_login, plain `requests`): a matching rule ends the login with an `access_denied` error redirect
carrying its `deny_reason` (and `state`), logged `f`; a disabled rule does not deny; an SSO session answering
/authorize is checked too.

The server is shared with the other test modules: every rule made here matches only a user made here, and is
deleted when its test ends.
"""

from __future__ import annotations

import time

import pytest

from pkcelib import authorize_url, create_public_client, create_user, fake_callback, hosted_login, new_verifier
from wardenlib import MANAGEMENT_SCOPES, describe, expect_status, json_of, uid

RULES = "post-login-rules"


@pytest.fixture
def rules(warden):
    """Creates rules (`rules(**body)` → the created rule) and deletes them afterwards."""
    made: list[str] = []

    def create(**body):
        rule = json_of(expect_status(warden.mgmt("POST", RULES, json=body), 201))
        made.append(rule["id"])
        return rule

    yield create
    for rid in made:
        expect_status(warden.mgmt("DELETE", f"{RULES}/{rid}"), 204, 404)


@pytest.fixture
def app(warden):
    """A public client with a fake callback, and a user of the database connection."""
    callback = fake_callback()
    client = create_public_client(warden, [callback])
    return {"client_id": client["client_id"], "callback": callback, "user": create_user(warden)}


def login(warden, app, *, state: str, session=None):
    """The hosted login from /authorize to the redirect to the callback (never fetched)."""
    url = authorize_url(warden, app["client_id"], app["callback"], verifier=new_verifier(), state=state)
    return hosted_login(warden, url, redirect_uri=app["callback"], email=app["user"].email,
                        password=app["user"].password, session=session)


def email_rule(app) -> str:
    """A condition that holds for the app's user only (addresses are stored lower-cased)."""
    return f'event.user.email == "{app["user"].email.lower()}"'


def expect_denied(callback, reason: str, state: str) -> None:
    assert callback.params == {"error": "access_denied", "error_description": reason, "state": state}, \
        "\n".join(callback.steps)


def failures_with(warden, reason: str, user_id: str, timeout: float = 3.0) -> list[dict]:
    """The `f` log events of `user_id` described `reason` (SPEC §10: readable within 1 s)."""
    deadline = time.monotonic() + timeout
    while True:
        events = json_of(expect_status(warden.mgmt("GET", "logs", params={"q": "type:f", "per_page": 100}), 200))
        found = [e for e in events if e.get("user_id") == user_id and e.get("description") == reason]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


# ---------------------------------------------------------------------------------------- management API
def test_crud_by_order_with_scopes_and_errors(warden, rules):
    nobody = f'event.user.email == "nobody-{uid()}@interop.test"'
    first = rules(name="first", condition=nobody, deny_reason="no", order=10)
    assert first["id"].startswith("plr_") and first["enabled"] is True and first["order"] == 10, first
    earlier = rules(name="earlier", condition="exists(event.session_transfer_token) && " + nobody,
                    deny_reason="no", order=9, enabled=False)
    ids = [r["id"] for r in json_of(expect_status(warden.mgmt("GET", RULES), 200))]
    assert ids.index(earlier["id"]) < ids.index(first["id"]), "listed by order"
    page = json_of(expect_status(warden.mgmt("GET", RULES, params={"include_totals": "true"}), 200))
    assert {"start", "limit", "length", "total", "post_login_rules"} <= set(page), page

    assert json_of(expect_status(warden.mgmt("GET", f"{RULES}/{first['id']}"), 200)) == first
    patched = json_of(expect_status(warden.mgmt("PATCH", f"{RULES}/{first['id']}",
                                                json={"enabled": False, "name": "renamed"}), 200))
    assert patched == {**first, "enabled": False, "name": "renamed"}, patched

    # a condition that does not parse: 400 invalid_body naming the position, at create and PATCH
    body = {"name": "bad", "condition": 'event.user.email == "x" &&', "deny_reason": "no"}
    bad = expect_status(warden.mgmt("POST", RULES, json=body), 400)
    assert json_of(bad)["errorCode"] == "invalid_body", describe(bad)
    assert "expected a literal, a path, '!', '(' or 'exists' at position 27" in json_of(bad)["message"], describe(bad)
    for condition, where in (('(event.user.email == "x"', "expected ')' at position 25"),
                             ("event.user.nmae == 1", "unknown path 'event.user.nmae' at position 1"),
                             ('event.user.email = "x"', "expected '==' at position 18")):
        refused = expect_status(warden.mgmt("PATCH", f"{RULES}/{first['id']}", json={"condition": condition}), 400)
        assert where in json_of(refused)["message"], describe(refused)
    unknown = expect_status(warden.mgmt("POST", RULES, json={**body, "condition": "true", "script": "x"}), 400)
    assert "script" in json_of(unknown)["message"], describe(unknown)

    # scopes (SPEC §9): each verb needs its own
    reader = warden.mgmt_token(["read:post_login_rules"])
    expect_status(warden.mgmt("GET", RULES, token=reader), 200)
    for method, path, json in (("POST", RULES, {"name": "x", "condition": "false", "deny_reason": "no"}),
                               ("PATCH", f"{RULES}/{first['id']}", {"enabled": True}),
                               ("DELETE", f"{RULES}/{first['id']}", None)):
        forbidden = expect_status(warden.mgmt(method, path, token=reader, json=json), 403)
        assert json_of(forbidden)["errorCode"] == "insufficient_scope", describe(forbidden)
    others = warden.mgmt_token([s for s in MANAGEMENT_SCOPES if s != "read:post_login_rules"])
    expect_status(warden.mgmt("GET", f"{RULES}/{first['id']}", token=others), 403)
    expect_status(warden.mgmt("GET", RULES, token="not.a.jwt"), 401)

    expect_status(warden.mgmt("DELETE", f"{RULES}/{first['id']}"), 204)
    for method in ("GET", "PATCH", "DELETE"):
        gone = expect_status(warden.mgmt(method, f"{RULES}/{first['id']}",
                                         json={"enabled": True} if method == "PATCH" else None), 404)
        assert json_of(gone)["errorCode"] == "inexistent_post_login_rule", describe(gone)


# --------------------------------------------------------------------------------------------- logins
def test_a_matching_rule_denies_a_real_login_with_its_reason(warden, rules, app):
    reason = f"Holiday for {app['user'].email}"
    rules(name="deny the user", condition=email_rule(app), deny_reason=reason)
    state = f"s-{uid()}"
    callback = login(warden, app, state=state)
    expect_denied(callback, reason, state)
    assert "code" not in callback.params
    assert failures_with(warden, reason, app["user"].user_id), "a denied login is logged f with its reason"


def test_a_disabled_rule_does_not_deny_and_an_sso_session_is_checked(warden, rules, app):
    reason = f"Session refused {uid()}"
    rule = rules(name="later", condition=email_rule(app), deny_reason=reason, enabled=False)
    first = login(warden, app, state="one")
    assert "code" in first.params, "\n".join(first.steps)

    expect_status(warden.mgmt("PATCH", f"{RULES}/{rule['id']}", json={"enabled": True}), 200)
    # the browser's SSO session answers /authorize without the login form: the rule runs there too
    again = login(warden, app, state="two", session=first.session)
    assert not any("/u/login" in step for step in again.steps), "\n".join(again.steps)
    expect_denied(again, reason, "two")

    expect_status(warden.mgmt("PATCH", f"{RULES}/{rule['id']}", json={"enabled": False}), 200)
    assert "code" in login(warden, app, state="three", session=first.session).params


def test_rules_run_in_order_and_a_country_mismatch_needs_a_session_transfer(warden, rules, app):
    # Without a session transfer token there is nothing to compare: the rule never denies a password login.
    rules(name="country mismatch", order=1, deny_reason="Country changed",
          condition="event.request.geoip.countryCode != event.session_transfer_token.request.geoip.countryCode")
    rules(name="third", order=3, condition=email_rule(app), deny_reason="third")
    rules(name="second", order=2, condition=f'{email_rule(app)} && !exists(event.session_transfer_token)',
          deny_reason="second")
    expect_denied(login(warden, app, state="ordered"), "second", "ordered")
