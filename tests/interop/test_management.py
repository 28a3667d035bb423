"""auth0-python 6.8's Management client (Fern-generated, pydantic response models) against Warden's /api/v2 (SPEC §9).

Every call goes through the SDK's response models: a field of the wrong type or a list without the
`include_totals` wrapper fails with the SDK's ParsingError, so "no error" here means the wire shapes match.
"""

from __future__ import annotations

import hashlib
import time

import pytest
from auth0.management.errors import NotFoundError
from auth0.management.types import (
    ClientJwtConfiguration,
    ClientRefreshTokenConfiguration,
    ResourceServerScope,
)

from wardenlib import (
    assert_iso_times,
    b64url_sha256,
    describe,
    expect_status,
    json_of,
    uid,
)

CONNECTION = "Username-Password-Authentication"


def raw_json(http_response) -> dict:
    """The JSON body behind an SDK `with_raw_response` call."""
    return http_response._response.json()


def not_found_code(excinfo) -> str:
    body = excinfo.value.body
    assert isinstance(body, dict), body
    assert body.get("statusCode") == 404, body
    return body.get("errorCode")


def poll(fn, until, timeout=3.0, interval=0.2):
    """Calls fn() until until(result) or timeout; returns the last result."""
    deadline = time.monotonic() + timeout
    while True:
        result = fn()
        if until(result) or time.monotonic() > deadline:
            return result
        time.sleep(interval)


# ---------------------------------------------------------------------------------------------------- clients
def test_clients_crud(sdk, warden):
    name = f"sdk client {uid()}"
    raw = sdk.clients.with_raw_response.create(
        name=name, app_type="regular_web", is_first_party=True,
        grant_types=["authorization_code", "refresh_token", "client_credentials"],
        callbacks=["https://app.interop.test/callback"], allowed_logout_urls=["https://app.interop.test/bye"],
        token_endpoint_auth_method="client_secret_basic",
        jwt_configuration=ClientJwtConfiguration(alg="RS256", lifetime_in_seconds=3600),
        refresh_token=ClientRefreshTokenConfiguration(rotation_type="rotating", expiration_type="non-expiring"),
    )
    assert raw.status_code == 201
    created = raw.data
    assert_iso_times(raw_json(raw))
    cid = created.client_id
    assert cid and created.name == name and created.app_type == "regular_web"
    assert created.client_secret and len(created.client_secret) >= 32
    assert set(created.grant_types) == {"authorization_code", "refresh_token", "client_credentials"}
    assert created.callbacks == ["https://app.interop.test/callback"]
    assert created.token_endpoint_auth_method == "client_secret_basic"

    got_raw = sdk.clients.with_raw_response.get(cid)
    got = got_raw.data
    assert got.client_id == cid and got.name == name and got.is_first_party is True
    assert got.allowed_logout_urls == ["https://app.interop.test/bye"]
    assert got.jwt_configuration.alg == "RS256" and got.jwt_configuration.lifetime_in_seconds == 3600
    assert got.refresh_token.rotation_type == "rotating"
    text = got_raw._response.text
    secret = created.client_secret
    for leaked in (hashlib.sha256(secret.encode()).hexdigest(), b64url_sha256(secret)):
        assert leaked not in text, "GET /clients/{id} returns the secret's hash"
    assert_iso_times(raw_json(got_raw))

    pager = sdk.clients.list(per_page=100)
    assert cid in {c.client_id for c in pager}, "created client not listed"
    assert pager.response.total >= 1 and pager.response.start == 0 and pager.response.limit == 100

    updated = sdk.clients.update(cid, name=name + " renamed",
                                 callbacks=["https://app.interop.test/a", "https://app.interop.test/b"])
    assert updated.name == name + " renamed"
    got = sdk.clients.get(cid)
    assert got.name == name + " renamed"
    assert got.callbacks == ["https://app.interop.test/a", "https://app.interop.test/b"]

    assert sdk.clients.delete(cid) is None
    with pytest.raises(NotFoundError) as excinfo:
        sdk.clients.get(cid)
    assert not_found_code(excinfo) == "inexistent_client"


def test_client_rotate_secret(sdk, warden):
    api = warden.create_api()
    created = sdk.clients.create(name=f"sdk rotate {uid()}", app_type="non_interactive",
                                 grant_types=["client_credentials"], token_endpoint_auth_method="client_secret_post")
    warden.create_client_grant(created.client_id, api["identifier"], ["read:things"])
    old = created.client_secret
    expect_status(warden.client_credentials(created.client_id, old, api["identifier"]), 200)
    rotated = sdk.clients.rotate_secret(created.client_id)
    assert rotated.client_id == created.client_id
    assert rotated.client_secret and rotated.client_secret != old
    expect_status(warden.client_credentials(created.client_id, rotated.client_secret, api["identifier"]), 200)
    r = warden.client_credentials(created.client_id, old, api["identifier"])
    assert r.status_code == 401 and json_of(r)["error"] == "invalid_client", describe(r)


def test_list_wrapper_shape_and_paging(warden):
    """include_totals=true → {start, limit, length, total, clients}; false → a bare array; past the end → empty."""
    for i in range(3):
        warden.create_client(name=f"paging {i} {uid()}")
    r = expect_status(warden.mgmt("GET", "clients", params={"page": 0, "per_page": 2, "include_totals": "true"}),
                      200)
    body = json_of(r)
    assert isinstance(body, dict) and {"start", "limit", "length", "total", "clients"} <= set(body), body.keys()
    assert body["start"] == 0 and body["limit"] == 2 and body["length"] == len(body["clients"]) == 2
    assert body["total"] >= 3
    bare = json_of(expect_status(warden.mgmt("GET", "clients", params={"page": 0, "per_page": 2}), 200))
    assert isinstance(bare, list) and len(bare) == 2
    second = json_of(expect_status(warden.mgmt("GET", "clients", params={"page": 1, "per_page": 2,
                                                                         "include_totals": "true"}), 200))
    assert second["start"] == 2
    assert not {c["client_id"] for c in second["clients"]} & {c["client_id"] for c in body["clients"]}
    past = body["total"] // 2 + 5
    assert json_of(expect_status(warden.mgmt("GET", "clients", params={"page": past, "per_page": 2}), 200)) == []


# ------------------------------------------------------------------------------------------- resource servers
def test_resource_servers_crud(sdk, warden):
    identifier = f"https://rs-{uid()}.interop.test/api"
    raw = sdk.resource_servers.with_raw_response.create(
        identifier=identifier, name=f"sdk api {uid()}", token_lifetime=1200, signing_alg="RS256",
        scopes=[ResourceServerScope(value="read:x", description="Read x"),
                ResourceServerScope(value="write:x", description="Write x")],
        allow_offline_access=True, enforce_policies=False, authorization_details=[{"type": "payment_initiation"}],
    )
    assert raw.status_code == 201
    created = raw.data
    assert created.id and created.identifier == identifier
    assert created.token_lifetime == 1200 and created.signing_alg == "RS256"
    assert [(s.value, s.description) for s in created.scopes] == [("read:x", "Read x"), ("write:x", "Write x")]
    assert created.allow_offline_access is True and created.enforce_policies is False
    assert created.authorization_details == [{"type": "payment_initiation"}]
    assert created.is_system in (None, False)
    assert_iso_times(raw_json(raw))

    assert sdk.resource_servers.get(created.id).identifier == identifier
    # the SDK URL-encodes the identifier into the path (…/resource-servers/https%3A%2F%2Frs-…)
    assert sdk.resource_servers.get(identifier).id == created.id

    listed = {rs.id: rs for rs in sdk.resource_servers.list(per_page=100)}
    assert created.id in listed
    system = [rs for rs in listed.values() if rs.identifier == warden.mgmt_audience]
    assert len(system) == 1 and system[0].is_system is True

    updated = sdk.resource_servers.update(created.id, name="renamed api", token_lifetime=600,
                                          scopes=[ResourceServerScope(value="read:x", description="Read")])
    assert updated.name == "renamed api" and updated.token_lifetime == 600
    got = sdk.resource_servers.get(created.id)
    assert got.token_lifetime == 600 and [s.value for s in got.scopes] == ["read:x"]

    assert sdk.resource_servers.delete(created.id) is None
    with pytest.raises(NotFoundError) as excinfo:
        sdk.resource_servers.get(created.id)
    assert not_found_code(excinfo) == "inexistent_resource_server"


# ------------------------------------------------------------------------------------------------ client grants
def test_client_grants_crud(sdk, warden):
    api = warden.create_api()
    client = warden.create_client()
    grant = sdk.client_grants.create(client_id=client["client_id"], audience=api["identifier"], scope=["read:things"])
    assert grant.id and grant.client_id == client["client_id"] and grant.audience == api["identifier"]
    assert grant.scope == ["read:things"]
    token = json_of(expect_status(warden.client_credentials(client["client_id"], client["client_secret"],
                                                            api["identifier"]), 200))
    assert token["scope"] == "read:things"

    listed = list(sdk.client_grants.list(client_id=client["client_id"]))
    assert [g.id for g in listed] == [grant.id]

    updated = sdk.client_grants.update(grant.id, scope=["read:things", "write:things"])
    assert set(updated.scope) == {"read:things", "write:things"}
    token = json_of(expect_status(warden.client_credentials(client["client_id"], client["client_secret"],
                                                            api["identifier"]), 200))
    assert set(token["scope"].split()) == {"read:things", "write:things"}

    assert sdk.client_grants.delete(grant.id) is None
    assert list(sdk.client_grants.list(client_id=client["client_id"])) == []
    r = warden.client_credentials(client["client_id"], client["client_secret"], api["identifier"])
    assert r.status_code == 403 and json_of(r)["error"] == "access_denied", describe(r)


# -------------------------------------------------------------------------------------------------------- users
@pytest.fixture(scope="module")
def people(warden):
    """Three users tagged with one unique value in user_metadata, so searches can be scoped to this run."""
    from auth0.management.client import Auth0

    sdk = Auth0(base_url=warden.mgmt_base, token=lambda: warden.mgmt_token(), max_retries=0, timeout=30)
    tag = uid()
    specs = {
        "jo": dict(email=f"jo.{tag}@interop.test", name=f"Joanna {tag}", nickname="jo", email_verified=True,
                   given_name="Joanna", family_name=tag,
                   user_metadata={"plan": "gold", "tag": tag}, app_metadata={"tier": 1}),
        "john": dict(email=f"john.{tag}@interop.test", name=f"John {tag}", blocked=True,
                     user_metadata={"plan": "silver", "tag": tag}),
        "zed": dict(email=f"zed.{tag}@interop.test", name=f"Zed {tag}", nickname="zz",
                    user_metadata={"plan": "gold", "tag": tag, "vip": True}),
    }
    users, raws = {}, {}
    for key, spec in specs.items():
        raw = sdk.users.with_raw_response.create(connection=CONNECTION, password=f"Interop-{uid()}-Passw0rd!",
                                                 **spec)
        assert raw.status_code == 201, raw.status_code
        users[key], raws[key] = raw.data, raw_json(raw)
    return {"tag": tag, "specs": specs, "users": users, "raw": raws}


def search(sdk, q, **kw):
    pager = sdk.users.list(q=q, search_engine="v3", per_page=100, **kw)
    return pager, [u.user_id for u in pager]


def test_users_create_and_get(sdk, people):
    for key, spec in people["specs"].items():
        user, raw = people["users"][key], people["raw"][key]
        assert user.user_id.startswith("auth0|"), user.user_id
        assert user.email == spec["email"] and user.name == spec["name"]
        assert user.user_metadata == spec["user_metadata"]
        assert user.blocked in ((True,) if spec.get("blocked") else (False, None))
        if "nickname" in spec:
            assert user.nickname == spec["nickname"]
        for name in ("given_name", "family_name"):
            assert raw.get(name) == spec.get(name), (name, raw)
        assert "password" not in raw and "$2" not in str(raw), "password or its hash returned"
        assert_iso_times(raw)
        got = sdk.users.get(user.user_id)
        assert got.user_id == user.user_id and got.email == spec["email"]
        assert got.user_metadata == spec["user_metadata"]
    assert people["users"]["jo"].email_verified is True
    assert people["users"]["jo"].app_metadata == {"tier": 1}


def test_users_search_v3(sdk, people):
    tag, u = people["tag"], {k: v.user_id for k, v in people["users"].items()}
    scoped = f"user_metadata.tag:{tag}"
    cases = [
        (f'email:"jo.{tag}@interop.test"', {u["jo"]}),
        (f"name:Jo* AND {scoped}", {u["jo"], u["john"]}),
        (f"user_metadata.plan:gold AND {scoped}", {u["jo"], u["zed"]}),
        (f"_exists_:user_metadata.vip AND {scoped}", {u["zed"]}),
        (f"{scoped} AND NOT blocked:true", {u["jo"], u["zed"]}),
        (f'(name:Zed* OR email:"jo.{tag}@interop.test") AND {scoped}', {u["jo"], u["zed"]}),
        (f'name:"John {tag}"', {u["john"]}),
        (f"user_id:\"{u['zed']}\"", {u["zed"]}),
        (f"email_verified:true AND {scoped}", {u["jo"]}),
    ]
    for q, expected in cases:
        pager, found = search(sdk, q)
        assert set(found) == expected, f"q={q!r}: got {found}"
        assert len(found) == len(set(found)), f"q={q!r}: duplicates {found}"
        assert pager.response.total == len(expected), f"q={q!r}: total {pager.response.total}"
    # nickname: whatever the server stores (given, or derived from the e-mail), the search agrees with GET
    with_nickname = {uid_ for uid_ in u.values() if sdk.users.get(uid_).nickname}
    assert {u["jo"], u["zed"]} <= with_nickname
    assert set(search(sdk, f"_exists_:nickname AND {scoped}")[1]) == with_nickname


def test_users_paging_and_sort(sdk, warden, people):
    tag, u = people["tag"], {k: v.user_id for k, v in people["users"].items()}
    q = f"user_metadata.tag:{tag}"
    ascending = [u["jo"], u["john"], u["zed"]]  # "jo." < "john." < "zed."
    page0 = sdk.users.list(q=q, search_engine="v3", page=0, per_page=2, sort="email:1")
    assert [x.user_id for x in page0.items] == ascending[:2]
    assert page0.response.total == 3 and page0.response.start == 0 and page0.response.limit == 2
    assert page0.response.length == 2
    page1 = sdk.users.list(q=q, search_engine="v3", page=1, per_page=2, sort="email:1")
    assert [x.user_id for x in page1.items] == ascending[2:]
    desc = sdk.users.list(q=q, search_engine="v3", per_page=10, sort="email:-1")
    assert [x.user_id for x in desc.items] == ascending[::-1]
    bare = json_of(expect_status(warden.mgmt("GET", "users", params={"q": q, "search_engine": "v3"}), 200))
    assert isinstance(bare, list) and {x["user_id"] for x in bare} == set(ascending)


def test_users_by_email(sdk, people):
    found = sdk.users.list_users_by_email(email=people["specs"]["zed"]["email"])
    assert [x.user_id for x in found] == [people["users"]["zed"].user_id]
    assert sdk.users.list_users_by_email(email=f"nobody-{uid()}@interop.test") == []


def test_users_update_and_delete(sdk, warden):
    tag = uid()
    user = sdk.users.create(connection=CONNECTION, email=f"upd.{tag}@interop.test", password=f"Pw-{uid()}-x9!",
                            user_metadata={"plan": "gold", "tag": tag})
    updated = sdk.users.update(user.user_id, nickname="newnick", user_metadata={"plan": "platinum", "tag": tag},
                               blocked=True, given_name="Una", family_name="Dated")
    assert updated.nickname == "newnick" and updated.user_metadata["plan"] == "platinum" and updated.blocked is True
    assert (updated.given_name, updated.family_name) == ("Una", "Dated")
    got = sdk.users.get(user.user_id)
    assert got.nickname == "newnick" and got.user_metadata == {"plan": "platinum", "tag": tag}
    assert (got.given_name, got.family_name) == ("Una", "Dated")
    assert search(sdk, f"user_metadata.plan:platinum AND user_metadata.tag:{tag}")[1] == [user.user_id]
    assert search(sdk, f"user_metadata.plan:gold AND user_metadata.tag:{tag}")[1] == []
    assert search(sdk, f"blocked:true AND user_metadata.tag:{tag}")[1] == [user.user_id]

    assert sdk.users.delete(user.user_id) is None
    with pytest.raises(NotFoundError) as excinfo:
        sdk.users.get(user.user_id)
    assert not_found_code(excinfo) == "inexistent_user"
    assert search(sdk, f"user_metadata.tag:{tag}")[1] == []


# --------------------------------------------------------------------------------------------------------- logs
def test_logs_of_management_operations(sdk, warden):
    marker = sdk.clients.create(name=f"log marker {uid()}", app_type="non_interactive")

    def newest_sapi():
        return sdk.logs.list(search="type:sapi", sort="date:-1", per_page=100)

    pager = poll(newest_sapi, lambda p: bool(p.items))
    logs = pager.items
    assert logs, "no sapi log within 3 s of a management operation"
    assert pager.response.total >= len(logs)
    for entry in logs:
        assert entry.type == "sapi" and entry.log_id and entry.client_id, entry
    # the newest management write is the marker client made just now by the bootstrap client
    assert logs[0].client_id == warden.mgmt_client_id, logs[0]
    dates = [entry.date for entry in logs]
    assert dates == sorted(dates, reverse=True), "sort=date:-1 is not newest first"

    raw = expect_status(warden.mgmt("GET", "logs", params={"q": "type:sapi", "sort": "date:-1", "per_page": 100,
                                                           "include_totals": "true"}), 200)
    body = json_of(raw)
    assert {"start", "limit", "length", "total", "logs"} <= set(body)
    for entry in body["logs"]:
        assert entry["type"] == "sapi"
        assert_iso_times(entry)
    one = sdk.logs.get(logs[0].log_id)
    assert one.log_id == logs[0].log_id and one.type == "sapi" and one.date == logs[0].date
    sdk.clients.delete(marker.client_id)


def test_logs_checkpoint_paging(sdk, warden):
    sdk.clients.create(name=f"checkpoint first {uid()}", app_type="non_interactive")
    first = poll(lambda: sdk.logs.list(search="type:sapi", sort="date:-1", per_page=1).items, bool)
    assert first, "no sapi log"
    anchor = first[0]
    for i in range(3):
        sdk.clients.create(name=f"checkpoint {i} {uid()}", app_type="non_interactive")

    def after_anchor():
        r = expect_status(warden.mgmt("GET", "logs", params={"from": anchor.log_id, "take": 3}), 200)
        return json_of(r)

    newer = poll(after_anchor, lambda body: isinstance(body, list) and len(body) >= 3)
    assert isinstance(newer, list), newer
    assert len(newer) == 3, [e.get("log_id") for e in newer]
    ids = [e["log_id"] for e in newer]
    assert anchor.log_id not in ids and len(set(ids)) == 3
    dates = [e["date"] for e in newer]
    assert dates == sorted(dates), "checkpoint paging must be oldest first"
    assert all(d >= anchor.date for d in dates)
    for entry in newer:
        assert_iso_times(entry)
    # take is capped at 100; the next checkpoint continues after the last one seen
    more = json_of(expect_status(warden.mgmt("GET", "logs", params={"from": ids[-1], "take": 100}), 200))
    assert ids[-1] not in [e["log_id"] for e in more]


def recent_logs_of(warden, kind: str, client_id: str) -> list[dict]:
    r = expect_status(warden.mgmt("GET", "logs", params={"q": f"type:{kind}", "sort": "date:-1", "per_page": 100}),
                      200)
    return [e for e in json_of(r) if e.get("client_id") == client_id]


def test_client_credentials_exchanges_are_logged(warden):
    m2m = warden.m2m()
    expect_status(warden.client_credentials(m2m.client_id, m2m.client_secret, m2m.audience), 200)
    ok = poll(lambda: recent_logs_of(warden, "seccft", m2m.client_id), bool)
    assert ok, "no seccft log within 3 s of a successful client_credentials exchange"
    assert ok[0]["type"] == "seccft" and ok[0].get("audience") == m2m.audience
    assert_iso_times(ok[0])
    other = warden.create_api()
    r = warden.client_credentials(m2m.client_id, m2m.client_secret, other["identifier"])
    assert r.status_code == 403
    failed = poll(lambda: recent_logs_of(warden, "feccft", m2m.client_id), bool)
    assert failed, "no feccft log for a client_credentials exchange refused with access_denied"
    assert failed[0].get("audience") == other["identifier"]


def test_failed_client_authentication_is_logged_as_feccft(warden):
    """A client_credentials request with a wrong secret is a failed exchange too (feccft, as the reference
    vendor logs it, with that client's id)."""
    m2m = warden.m2m()
    assert warden.client_credentials(m2m.client_id, "wrong-secret", m2m.audience).status_code == 401
    failed = poll(lambda: recent_logs_of(warden, "feccft", m2m.client_id), bool)
    assert failed, "no feccft log for a client_credentials request with a wrong client secret"


def test_logs_search_synonym(warden):
    a = json_of(expect_status(warden.mgmt("GET", "logs", params={"q": "type:sapi", "per_page": 5,
                                                                 "sort": "date:-1"}), 200))
    b = json_of(expect_status(warden.mgmt("GET", "logs", params={"search": "type:sapi", "per_page": 5,
                                                                 "sort": "date:-1"}), 200))
    assert [e["log_id"] for e in a] == [e["log_id"] for e in b]
    assert a, "no sapi logs at all"


def test_empty_search_and_from_are_absent(warden):
    """Issue 33 (schemathesis): `search=` and `from=` given empty were taken as given, so `q` and the totals page
    were ignored; empty query values are absent (SPEC §9 conventions)."""
    m2m = warden.m2m()
    expect_status(warden.client_credentials(m2m.client_id, m2m.client_secret, m2m.audience), 200)
    poll(lambda: recent_logs_of(warden, "seccft", m2m.client_id), bool)
    r = warden.mgmt("GET", "logs?q=type:seccft&search=&from=&include_totals=true&per_page=5")
    body = json_of(expect_status(r, 200))
    assert isinstance(body, dict) and {"logs", "start", "limit", "total"} <= set(body), body
    assert body["logs"] and {e["type"] for e in body["logs"]} == {"seccft"}, body["logs"]
