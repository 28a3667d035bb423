"""Apache httpd against Warden (SPEC §2, §4, §5, §5.1): mod_auth_openidc as the relying party of a confidential
web client — the authorization request POSTed (`OIDCProviderAuthRequestMethod POST`, OIDC Core §3.1.2.1),
`client_secret_basic`, PKCE S256, userinfo, refresh and RP-initiated logout — and mod_oauth2 as a resource server
that accepts Warden's access tokens by the JWKS and by introspection (RFC 7662) and refuses tampered ones; then
the chain Apache → Warden → Glewlwyd (SPEC §15): the relying party signs a person in through Warden, who signs in at
Glewlwyd, and only Warden's user id reaches the application.

Apache runs as a throw-away instance (apachelib.Apache) against a Warden of this module's own (a fresh tenant:
RS256 keys only, as Apache's JOSE library expects of a default tenant). Skipped when no Apache binary exists;
`scripts/test` installs `apache2 libapache2-mod-auth-openidc libapache2-mod-oauth2`.
"""

from __future__ import annotations

import contextlib
import json
import secrets
from typing import Iterator
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from apachelib import Apache, RelyingParty, apache_binary, browse, module_dir
from glewlwydlib import glewlwyd_federation
from pkcelib import create_user
from wardenlib import HTTP_TIMEOUT, default_binary, describe, json_of, own_node, uid, wait_until

BINARY = apache_binary()
pytestmark = pytest.mark.skipif(BINARY is None or module_dir() is None,
                                reason="Apache httpd with mod_auth_openidc is not installed")


@pytest.fixture(scope="module")
def tenant():
    with own_node(binary=default_binary(), mgmt_client_id=f"apache-mgmt-{uid()}", prefix="warden-apache-") as node:
        yield node


@contextlib.contextmanager
def relying_party(tenant, directives: str = "") -> Iterator[tuple[Apache, dict]]:
    """Apache on a free port with `directives`, and the confidential client of Warden registered for it; Apache's
    log is printed when the body fails."""
    apache = Apache(BINARY, RelyingParty(tenant.issuer, "", ""), directives=directives)
    client = tenant.create_client(
        name=f"apache {uid()}", app_type="regular_web", grant_types=["authorization_code", "refresh_token"],
        token_endpoint_auth_method="client_secret_basic", callbacks=[apache.redirect_uri],
        allowed_logout_urls=[apache.logged_out])
    apache.rp = RelyingParty(tenant.issuer, client["client_id"], client["client_secret"])
    apache.start()
    try:
        yield apache, client
    except BaseException:
        print(apache.log_tail())
        raise
    finally:
        apache.stop()


@pytest.fixture(scope="module")
def setup(tenant):
    """Apache on a free port, a confidential client registered for it, and a user."""
    with relying_party(tenant) as (apache, client):
        yield apache, client, create_user(tenant)


def info(apache: Apache, session: requests.Session) -> dict:
    """mod_auth_openidc's session info hook (`<redirect_uri>?info=json`)."""
    r = session.get(apache.redirect_uri, params={"info": "json"}, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200, describe(r)
    return json_of(r)


def logs_of(tenant, kind: str, client_id: str) -> list[dict]:
    r = tenant.mgmt("GET", "logs", params={"q": f"type:{kind}", "per_page": 100})
    assert r.status_code == 200, describe(r)
    return [event for event in json_of(r) if event.get("client_id") == client_id]


def tampered(token: str) -> str:
    header, payload, signature = token.split(".")
    flipped = ("A" if signature[10] != "A" else "B")
    return ".".join([header, payload, signature[:10] + flipped + signature[11:]])


@pytest.fixture(scope="module")
def signed_in(setup):
    """A browser session signed in to Apache through Warden, and what the sign-in did."""
    apache, client, user = setup
    session = requests.Session()
    visit = browse(session, apache.url("protected/index.html"), email=user.email, password=user.password)
    assert visit.response.status_code == 200 and "protected page" in visit.response.text, \
        describe(visit.response) + "\n" + "\n".join(visit.steps) + "\n" + apache.log_tail()
    return session, visit


def test_the_authorization_request_is_posted_with_pkce_s256(setup, signed_in):
    apache, client, _ = setup
    _, visit = signed_in
    authorize = [(url, dict(fields)) for url, fields in visit.posted if urlsplit(url).path == "/authorize"]
    assert authorize, "no POST to /authorize:\n" + "\n".join(visit.steps)
    fields = authorize[0][1]
    assert fields["client_id"] == client["client_id"] and fields["redirect_uri"] == apache.redirect_uri, fields
    assert fields["code_challenge_method"] == "S256" and len(fields["code_challenge"]) == 43, fields
    assert fields["response_type"] == "code", fields


def test_login_exchanges_the_code_with_client_secret_basic_and_reads_userinfo(setup, signed_in, tenant):
    apache, client, user = setup
    session, _ = signed_in
    data = info(apache, session)
    assert data["userinfo"]["sub"] == user.user_id and data["userinfo"]["email"] == user.email, data
    assert data["id_token"]["sub"] == user.user_id and data["id_token"]["aud"] == client["client_id"], data
    assert data["refresh_token"], data
    # Warden enforces the registered method (SPEC §4): the exchange succeeded, so it came by HTTP Basic.
    wait_until(lambda: logs_of(tenant, "seacft", client["client_id"]), what="a code exchange (seacft)")


def test_the_access_token_is_refreshed(setup, signed_in, tenant):
    apache, client, user = setup
    session, _ = signed_in
    before = info(apache, session)["access_token"]
    page = session.get(apache.url("protected/index.html"), timeout=HTTP_TIMEOUT)
    assert page.status_code == 200, describe(page)
    after = info(apache, session)["access_token"]
    assert after != before, "mod_auth_openidc did not refresh the access token\n" + apache.log_tail()
    wait_until(lambda: logs_of(tenant, "sertft", client["client_id"]), what="a refresh exchange (sertft)")
    r = requests.get(tenant.url("userinfo"), headers={"Authorization": f"Bearer {after}"}, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200 and json_of(r)["sub"] == user.user_id, describe(r)


@pytest.mark.parametrize("location", ["api", "introspected"])
def test_mod_oauth2_accepts_a_warden_access_token_and_refuses_a_tampered_one(setup, signed_in, location):
    apache, _, _ = setup
    session, _ = signed_in
    token = info(apache, session)["access_token"]
    url = apache.url(f"{location}/index.html")
    accepted = requests.get(url, headers={"Authorization": f"Bearer {token}"}, timeout=HTTP_TIMEOUT)
    assert accepted.status_code == 200 and "resource" in accepted.text, describe(accepted) + apache.log_tail()
    for bad in (tampered(token), "garbage." + secrets.token_urlsafe(16)):
        refused = requests.get(url, headers={"Authorization": f"Bearer {bad}"}, timeout=HTTP_TIMEOUT)
        assert refused.status_code == 401, describe(refused)
    missing = requests.get(url, timeout=HTTP_TIMEOUT)
    assert missing.status_code == 401, describe(missing)


def test_rp_initiated_logout_ends_the_warden_session(setup, signed_in, tenant):
    apache, client, user = setup
    session, _ = signed_in
    r = session.get(apache.redirect_uri, params={"logout": apache.logged_out}, allow_redirects=False,
                    timeout=HTTP_TIMEOUT)
    assert r.status_code in (302, 303), describe(r)
    end_session = r.headers["Location"]
    assert end_session.startswith(tenant.url("oidc/logout")), end_session
    query = parse_qs(urlsplit(end_session).query)
    assert query.get("id_token_hint") and query.get("post_logout_redirect_uri") == [apache.logged_out], query
    back = session.get(end_session, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert back.status_code in (302, 303) and back.headers["Location"].startswith(apache.logged_out), describe(back)
    assert "logged out" in session.get(back.headers["Location"], timeout=HTTP_TIMEOUT).text
    # Both sessions are gone: the next visit goes through Warden's login form again.
    again = browse(session, apache.url("protected/index.html"), email=user.email, password=user.password)
    assert any("/u/login" in step for step in again.steps), "\n".join(again.steps)
    assert again.response.status_code == 200 and "protected page" in again.response.text, describe(again.response)


# ------------------------------------------------------------------------------------- Apache → Warden → Glewlwyd
@pytest.fixture(scope="module")
def chain(tenant, glewlwyd):
    """A second Apache whose Warden client has an OIDC connection to Glewlwyd (SPEC §15), and whose authorization
    requests name it (`OIDCAuthRequestParams connection=…`): mod_auth_openidc is configured with Warden alone."""
    with glewlwyd_federation(tenant, glewlwyd) as federation, \
            relying_party(tenant, f"OIDCAuthRequestParams connection={federation.name}") as (apache, client):
        r = tenant.mgmt("PATCH", f"connections/{federation.connection['id']}/clients",
                        json=[{"client_id": client["client_id"], "status": True}])
        assert r.status_code == 204, describe(r)
        yield apache, client, federation


def test_apache_signs_in_through_warden_through_glewlwyd_without_knowing_it(chain, glewlwyd, tenant):
    apache, client, federation = chain
    subject = glewlwyd.subject(federation.person)
    session = requests.Session()
    sign_in = (glewlwyd.endpoint("oidc", "auth"), lambda s, url: glewlwyd.login(s, url, federation.person))
    visit = browse(session, apache.url("protected/index.html"), upstream=sign_in)
    page = visit.response
    assert page.status_code == 200 and "protected page" in page.text, \
        describe(page) + "\n" + "\n".join(visit.steps) + "\n" + apache.log_tail()
    user_id = f"oidc|{federation.name}|{subject}"
    assert page.headers["X-Oidc-Claim-Sub"] == user_id, page.headers  # OIDC_CLAIM_sub, what the application sees
    authorize = [dict(fields) for url, fields in visit.posted if url.startswith(tenant.url("authorize"))]
    assert authorize and authorize[0]["connection"] == federation.name, visit.posted
    assert any(step.startswith(f"signed in at {glewlwyd.endpoint('oidc', 'auth')}") for step in visit.steps)
    data = info(apache, session)
    assert data["id_token"]["sub"] == user_id and data["id_token"]["iss"] == tenant.issuer, data
    assert data["id_token"]["aud"] == client["client_id"] and data["userinfo"]["sub"] == user_id, data
    assert data["userinfo"]["email"] == federation.person.email, data
    # Nothing the relying party holds names the upstream: Warden's tokens are Warden's alone.
    assert glewlwyd.base not in json.dumps(data) and "amr" not in data["id_token"], data
    again = browse(requests.Session(), apache.url("protected/index.html"), upstream=sign_in)
    assert again.response.headers.get("X-Oidc-Claim-Sub") == user_id, "\n".join(again.steps)
    assert [u["user_id"] for u in federation.users()] == [user_id]
