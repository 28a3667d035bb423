"""Native-to-Web SSO (SPEC §8) from the outside, with real loopback source addresses.

A native (public) client logs a user in and gets a refresh token; it exchanges the refresh token at /oauth/token for
a session transfer token, from 127.0.0.1; a web client's /authorize then presents the token from 127.0.0.1 or from
127.0.0.2 (the client socket is bound to that source address: every 127/8 address is local on Linux, so the
server sees a different peer). A refused token is ignored: /authorize answers with the hosted login page, exactly
as without a token.

ASN binding and the post-login rule run on a node of their own started with the fixture IP database
`tests/fixtures/ip2asn-sample.tsv` (127.0.0.0-127.0.0.1 AS 64500 DE, 127.0.0.2-127.0.0.255 AS 64501 US), so that
the rule cannot touch the logins of other tests.
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from pkcelib import (authorize_url, code_exchange, create_public_client, create_user, fake_callback, hosted_login,
                     new_verifier)
from wardenlib import (HTTP_TIMEOUT, Warden, default_binary, describe, expect_status, from_address, json_of, own_node,
                       uid, wait_until)

TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
REFRESH_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:refresh_token"
STT_TYPE = "urn:auth0:params:oauth:token-type:session_transfer_token"
COOKIE = "auth0_session_transfer_token"
NATIVE_SCOPE = "openid profile email offline_access"
IP_DATABASE = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "ip2asn-sample.tsv"


# ----------------------------------------------------------------------------------------------------- setup
def audience(warden: Warden) -> str:
    """SPEC §8: `urn:{issuer host}:session_transfer`, the host without its port."""
    return f"urn:{urlsplit(warden.issuer).hostname}:session_transfer"


@dataclass
class Transfer:
    """A user, a native client holding a refresh token of theirs, and a web client accepting transfers."""

    warden: Warden
    native: dict
    web: dict
    web_callback: str
    refresh_token: str
    user_id: str

    @property
    def native_id(self) -> str:
        return self.native["client_id"]

    @property
    def web_id(self) -> str:
        return self.web["client_id"]

    def exchange(self, *, source: str = "127.0.0.1", form: str = "sdk", refresh_token: str | None = None,
                 user_agent: str = "NativeApp/1.0 (interop)") -> requests.Response:
        """Asks for a session transfer token in the SDK's form or RFC 8693's, from `source`."""
        token = refresh_token or self.refresh_token
        if form == "sdk":
            data = {"grant_type": "refresh_token", "refresh_token": token}
        else:
            data = {"grant_type": TOKEN_EXCHANGE, "subject_token_type": REFRESH_TOKEN_TYPE, "subject_token": token}
        data.update(client_id=self.native_id, audience=audience(self.warden))
        with from_address(source) as http:
            return http.post(self.warden.token_endpoint, data=data, headers={"User-Agent": user_agent},
                             timeout=HTTP_TIMEOUT)

    def token(self, *, source: str = "127.0.0.1") -> str:
        response = expect_status(self.exchange(source=source), 200)
        return json_of(response)["access_token"]

    def authorize(self, *, source: str = "127.0.0.1", query: str | None = None, cookie: str | None = None,
                  verifier: str | None = None) -> requests.Response:
        """The web client's GET /authorize from `source` with the token as query parameter and/or cookie; the
        redirect is returned, not followed."""
        extra = {"session_transfer_token": query} if query is not None else {}
        url = authorize_url(self.warden, self.web_id, self.web_callback, verifier=verifier or new_verifier(),
                            state=f"st-{uid()}", **extra)
        headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie is not None else {}
        with from_address(source) as http:
            return http.get(url, headers=headers, allow_redirects=False, timeout=HTTP_TIMEOUT)

    def accepted(self, response: requests.Response) -> bool:
        """A redirect to the web callback with a code; a refused (ignored) token shows the login page instead."""
        assert response.status_code == 302, describe(response)
        location = response.headers["Location"]
        if location.startswith(self.web_callback):
            params = parse_qs(urlsplit(location).query)
            assert "code" in params, location
            return True
        assert urlsplit(location).path.endswith("/u/login"), location
        return False


def make_transfer(warden: Warden, *, binding: str = "ip", native_fields: dict | None = None,
                  web_fields: dict | None = None, web_callback: str | None = None) -> Transfer:
    """Clients through the Management API, and a refresh token from a hosted login of the native client."""
    native_callback, web_callback = fake_callback(), web_callback or fake_callback()
    native = create_public_client(
        warden, [native_callback], app_type="native", name=f"native {uid()}",
        grant_types=["authorization_code", "refresh_token", TOKEN_EXCHANGE],
        session_transfer={"can_create_session_transfer_token": True, "enforce_device_binding": binding},
        **(native_fields or {}))
    web = create_public_client(
        warden, [web_callback], app_type="regular_web", name=f"web {uid()}",
        session_transfer={"allowed_authentication_methods": ["cookie", "query"]}, **(web_fields or {}))
    user = create_user(warden)
    verifier = new_verifier()
    url = authorize_url(warden, native["client_id"], native_callback, verifier=verifier, state=uid(),
                        scope=NATIVE_SCOPE)
    code = hosted_login(warden, url, redirect_uri=native_callback, email=user.email, password=user.password).code
    tokens = json_of(expect_status(code_exchange(warden, native["client_id"], code, verifier, native_callback), 200))
    return Transfer(warden=warden, native=native, web=web, web_callback=web_callback,
                    refresh_token=tokens["refresh_token"], user_id=user.user_id)


def exchange_logs(warden: Warden, client_id: str, count: int) -> list[dict]:
    """The `sertft`/`fertft` events of a client once `count` are readable (SPEC §10: within 1 s)."""
    def fetch():
        r = expect_status(warden.mgmt("GET", "logs", params={
            "q": f"type:(sertft OR fertft) AND client_id:{client_id}", "per_page": 100, "sort": "date:1"}), 200)
        events = json_of(r)
        return events if len(events) >= count else None

    return wait_until(fetch, timeout=5, what=f"{count} exchange events of {client_id}")


# ------------------------------------------------------------------------------------------------- exchange
@pytest.mark.parametrize("form", ["sdk", "token-exchange"])
def test_exchange_answers_a_session_transfer_token(warden, form):
    transfer = make_transfer(warden)
    r = expect_status(transfer.exchange(form=form), 200)
    body = json_of(r)
    assert body["issued_token_type"] == STT_TYPE and body["token_type"] == "N_A" and body["expires_in"] == 60, body
    assert body["access_token"] and body["id_token"], body
    assert "refresh_token" not in body, "a non-rotating client keeps its refresh token"
    assert "no-store" in r.headers.get("Cache-Control", "")


def test_a_rotating_client_gets_a_new_refresh_token_and_reuse_is_refused(warden):
    transfer = make_transfer(warden, native_fields={"refresh_token": {"rotation_type": "rotating"}})
    body = json_of(expect_status(transfer.exchange(), 200))
    successor = body["refresh_token"]
    assert successor != transfer.refresh_token
    reused = transfer.exchange()
    assert reused.status_code == 400 and json_of(reused)["error"] == "invalid_grant", describe(reused)
    # reuse revoked the family, the successor included
    revoked = transfer.exchange(refresh_token=successor)
    assert revoked.status_code == 400 and json_of(revoked)["error"] == "invalid_grant", describe(revoked)


def test_a_client_not_allowed_is_unauthorized_and_both_outcomes_are_logged(warden):
    transfer = make_transfer(warden)
    expect_status(transfer.exchange(), 200)
    wrong = transfer.exchange(refresh_token="not-a-refresh-token")
    assert wrong.status_code == 400 and json_of(wrong)["error"] == "invalid_grant", describe(wrong)
    events = exchange_logs(warden, transfer.native_id, 2)
    assert [e["type"] for e in events] == ["sertft", "fertft"], events
    assert all(e["audience"] == audience(warden) for e in events), events
    assert events[0]["user_id"] == transfer.user_id and events[0]["ip"] == "127.0.0.1", events[0]

    expect_status(warden.mgmt("PATCH", f"clients/{transfer.native_id}",
                              json={"session_transfer": {"can_create_session_transfer_token": False}}), 200)

    def refusal():
        r = transfer.exchange()
        return json_of(r) if r.status_code == 400 else None

    assert wait_until(refusal, timeout=5, what="the PATCH to reach the token endpoint")["error"] == \
        "unauthorized_client"
    events = exchange_logs(warden, transfer.native_id, 3)
    assert events[-1]["type"] == "fertft" and events[-1]["audience"] == audience(warden), events


# ---------------------------------------------------------------------------------------------- IP binding
def test_ip_binding_refuses_another_source_address_and_accepts_the_same(warden):
    transfer = make_transfer(warden, binding="ip")
    elsewhere = transfer.token(source="127.0.0.1")
    assert not transfer.accepted(transfer.authorize(source="127.0.0.2", query=elsewhere))
    # the refused presentation used the token up
    assert not transfer.accepted(transfer.authorize(source="127.0.0.1", query=elsewhere))

    same = transfer.token(source="127.0.0.1")
    assert transfer.accepted(transfer.authorize(source="127.0.0.1", cookie=same))


def test_no_binding_accepts_any_source_address_once(warden):
    transfer = make_transfer(warden, binding="none")
    token = transfer.token(source="127.0.0.1")
    assert transfer.accepted(transfer.authorize(source="127.0.0.2", query=token))
    assert not transfer.accepted(transfer.authorize(source="127.0.0.2", query=token))


def test_the_web_session_is_an_sso_session_and_the_code_redeems(warden):
    transfer = make_transfer(warden, binding="ip")
    verifier = new_verifier()
    r = transfer.authorize(query=transfer.token(), verifier=verifier)
    assert transfer.accepted(r)
    assert any(c.startswith("warden_session=") for c in r.raw.headers.getlist("Set-Cookie")), r.headers
    code = parse_qs(urlsplit(r.headers["Location"]).query)["code"][0]
    tokens = json_of(expect_status(code_exchange(warden, transfer.web_id, code, verifier, transfer.web_callback), 200))
    assert tokens["id_token"] and "refresh_token" not in tokens, "allow_refresh_token is false by default"


# ------------------------------------------------------------------------------------- ASN binding and rules
@pytest.fixture(scope="module")
def geo_warden():
    """A node of this module's own with the fixture IP database."""
    if not IP_DATABASE.exists():
        pytest.skip(f"{IP_DATABASE} is not there yet (the IP database fixture)")
    with own_node(binary=default_binary(), mgmt_client_id="session-transfer-geo", prefix="warden-geo-",
                  env={"WARDEN_IP_DATABASE": str(IP_DATABASE)}) as node:
        yield node


def test_asn_binding_accepts_the_same_system_and_refuses_another(geo_warden):
    transfer = make_transfer(geo_warden, binding="asn")
    # 127.0.0.2 and 127.0.0.3: two addresses of AS 64501
    token = transfer.token(source="127.0.0.2")
    assert transfer.accepted(transfer.authorize(source="127.0.0.3", query=token))
    # 127.0.0.1 is AS 64500
    token = transfer.token(source="127.0.0.1")
    assert not transfer.accepted(transfer.authorize(source="127.0.0.2", query=token))


def test_a_post_login_rule_denies_a_country_mismatch(geo_warden):
    transfer = make_transfer(geo_warden, binding="none")
    condition = (f'event.client.client_id == "{transfer.web_id}" && event.request.geoip.countryCode != '
                 f'event.session_transfer_token.request.geoip.countryCode')
    rule = json_of(expect_status(geo_warden.mgmt("POST", "post-login-rules", json={
        "name": f"network mismatch {uid()}", "enabled": True, "order": 1, "condition": condition,
        "deny_reason": "Network mismatch detected"}), 201))
    try:
        # created in DE (127.0.0.1), presented from the US (127.0.0.2)
        denied = transfer.authorize(source="127.0.0.2", query=transfer.token(source="127.0.0.1"))
        assert denied.status_code == 302, describe(denied)
        location = denied.headers["Location"]
        assert location.startswith(transfer.web_callback), location
        params = parse_qs(urlsplit(location).query)
        assert params.get("error") == ["access_denied"], location
        assert params.get("error_description") == ["Network mismatch detected"], location

        # both ends in the US
        assert transfer.accepted(transfer.authorize(source="127.0.0.3", query=transfer.token(source="127.0.0.2")))
    finally:
        expect_status(geo_warden.mgmt("DELETE", f"post-login-rules/{rule['id']}"), 204)
