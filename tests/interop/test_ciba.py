"""CIBA with Rich Authorization Requests (SPEC §6), end to end from the outside.

Requests use `requested_expiry` > 300, the e-mail channel (§6.4): the session server sends real SMTP to
scripts/test-support/smtp-sink.py (conftest `smtp_sink`); the tests read the message, follow its link to the hosted approval
page, log in and press Approve or Deny, then poll (§6.2) — with auth0-python's BackChannelLogin / GetToken and with
raw form posts for exact statuses, error codes and headers. Ping mode (§6.2) is checked against a local HTTP
recorder; durability (§6.2 "State is durable") with a server of the test's own that is restarted mid-flow.
"""

from __future__ import annotations

import json
import secrets
import time
from urllib.parse import parse_qs, urljoin, urlsplit

import pytest
import requests
from auth0.authentication import GetToken
from auth0.authentication.back_channel_login import BackChannelLogin
from auth0.authentication.exceptions import Auth0Error

from cibalib import (EMAIL_EXPIRY, SCOPE, PingRecorder, bc_authorize, binding_message, check_tokens, ciba_api,
                     ciba_app, ciba_client, decide, login_hint, open_approval_page, poll, request_form,
                     start_request, submit_decision, transfer_details)
from pkcelib import assert_oauth_error, auth0_token_verifier, create_user, hosted_login, parse_page
from wardenlib import HTTP_TIMEOUT, Warden, describe, json_of, own_node, uid, verify_jwt

PENDING = "The end-user authorization is pending"
DENIED = "The end-user denied the authorization request or it has been expired"


def auth0_error(call) -> Auth0Error:
    with pytest.raises(Auth0Error) as caught:
        call()
    return caught.value


def slow_down(response: requests.Response, interval: int) -> None:
    """SPEC §6.2: 400 slow_down, the raised `interval` in the body and a matching Retry-After header."""
    body = assert_oauth_error(response, 400, "slow_down")
    assert body.get("interval") == interval, describe(response)
    assert response.headers.get("Retry-After") == str(interval), response.headers
    assert body.get("error_description") == \
        f"You are polling faster than allowed. Try again in {interval} seconds.", describe(response)


# ------------------------------------------------------------------------------------- 1. auth0-python, approved
def test_auth0_python_backchannel_login_approved_through_the_email(warden, smtp_sink):
    app = ciba_app(warden)
    details = transfer_details()
    message = binding_message()
    started = BackChannelLogin(warden.domain, app.client_id, client_secret=app.client_secret, protocol="http",
                               timeout=HTTP_TIMEOUT).back_channel_login(
        binding_message=message, login_hint=login_hint(warden.issuer, app.user.user_id), scope=SCOPE,
        audience=app.audience, authorization_details=details, requested_expiry=EMAIL_EXPIRY)
    assert isinstance(started.get("auth_req_id"), str) and started["auth_req_id"], started
    assert (started.get("expires_in"), started.get("interval")) == (EMAIL_EXPIRY, 5), started
    auth_req_id = started["auth_req_id"]

    token = GetToken(warden.domain, app.client_id, client_secret=app.client_secret, protocol="http",
                     timeout=HTTP_TIMEOUT)
    pending = auth0_error(lambda: token.backchannel_login(auth_req_id))
    assert (pending.status_code, pending.error_code, pending.message) == (400, "authorization_pending", PENDING), \
        vars(pending)

    mail = smtp_sink.wait_for_mail(app.user.email, containing=message)
    decide(warden, mail.link(warden.issuer), app.user, "approve")

    # approved: no pacing any more (CIBA Core §11: slow_down is a variant of a pending answer)
    tokens = token.backchannel_login(auth_req_id)
    access, id_claims = check_tokens(warden, app, tokens, details=details)
    assert id_claims["sub"] == app.user.user_id
    claims = auth0_token_verifier(warden, app.client_id).verify(tokens["id_token"])
    assert claims["sub"] == app.user.user_id and claims["iss"] == warden.issuer, claims
    assert access["sub"] == app.user.user_id

    again = auth0_error(lambda: token.backchannel_login(auth_req_id))
    assert (again.status_code, again.error_code) == (400, "invalid_grant"), vars(again)
    assert_oauth_error(poll(warden, app, auth_req_id), 400, "invalid_grant")

    # the refresh token works, and the new access token keeps the authorization details (RFC 9396 §7)
    refreshed = token.refresh_token(tokens["refresh_token"])
    _, refreshed_claims = verify_jwt(refreshed["access_token"], warden.jwks(), ("RS256", "ES256", "PS256", "EdDSA"))
    assert refreshed_claims["sub"] == app.user.user_id, refreshed_claims
    assert refreshed_claims.get("authorization_details") == details, refreshed_claims


# -------------------------------------------------------------------------------- 2. pacing, denial on the page
def test_polling_pace_then_denied_on_the_page(warden, smtp_sink):
    app = ciba_app(warden)
    auth_req_id, form = start_request(warden, app)
    body = assert_oauth_error(poll(warden, app, auth_req_id), 400, "authorization_pending")
    assert body["error_description"] == PENDING
    first_poll = time.monotonic()

    mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
    link = mail.link(warden.issuer)
    approval = open_approval_page(warden, link, app.user)  # logs in while the interval runs

    time.sleep(max(0.0, first_poll + 5.3 - time.monotonic()))
    assert_oauth_error(poll(warden, app, auth_req_id), 400, "authorization_pending")  # one interval later: fine
    slow_down(poll(warden, app, auth_req_id), 10)  # at once: too fast, interval raised by 5 s
    slow_down(poll(warden, app, auth_req_id), 15)  # a rejected poll counts too, the raised interval stays

    r = submit_decision(approval, link, "deny")
    assert r.status_code == 200, describe(r)
    for _ in range(2):
        body = assert_oauth_error(poll(warden, app, auth_req_id), 400, "access_denied")
        assert body["error_description"] == DENIED, body
    assert requests.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT).status_code == 409


def test_unknown_and_foreign_auth_req_ids(warden, smtp_sink):
    app = ciba_app(warden)
    other = ciba_app(warden, api=app.api, user=app.user)
    auth_req_id, _ = start_request(warden, app)
    # another client's request, an unknown id: invalid_grant, and the owner's request is untouched
    assert_oauth_error(poll(warden, other, auth_req_id), 400, "invalid_grant")
    assert_oauth_error(poll(warden, app, secrets.token_urlsafe(32)), 400, "invalid_grant")
    assert_oauth_error(poll(warden, app, auth_req_id), 400, "authorization_pending")
    # a client without the CIBA grant
    plain = warden.create_client(grant_types=["client_credentials"])
    assert_oauth_error(poll(warden, app, auth_req_id, client_id=plain["client_id"],
                            client_secret=plain["client_secret"]), 400, "unauthorized_client")
    # the owner with a wrong secret
    assert_oauth_error(poll(warden, app, auth_req_id, client_secret="wrong-" + uid()), 401, "invalid_client")
    r = warden.http.post(warden.token_endpoint, data={"grant_type": "urn:openid:params:grant-type:ciba",
                                                      "client_id": app.client_id,
                                                      "client_secret": app.client_secret}, timeout=HTTP_TIMEOUT)
    assert_oauth_error(r, 400, "invalid_request")  # no auth_req_id


# -------------------------------------------------------------------------------------- 3. the e-mail and link
def test_the_approval_email_and_its_link(warden, smtp_sink):
    app = ciba_app(warden, name=f"Savings App {uid()}")
    message = f"Pay 99.99 EUR, ref #A-{uid()[:6]}_x+1:ok"  # every allowed punctuation mark
    creditor = f"Creditor {uid()[:6]}"
    details = transfer_details(amount="99.99", creditor=creditor)
    auth_req_id, _ = start_request(warden, app, binding_message=message, authorization_details=details)
    client_name = app.client["name"]

    mail = smtp_sink.wait_for_mail(app.user.email, containing=message)
    sender = f"no-reply@{urlsplit(warden.issuer).hostname}"  # SPEC §1 default of --mail-from
    assert mail.from_address == sender and mail.envelope_from == sender, (mail.message["From"], mail.envelope_from)
    assert mail.to_addresses == [app.user.email] and mail.envelope_to == [app.user.email], \
        (mail.message["To"], mail.envelope_to)
    assert mail.subject.strip() and client_name in mail.subject, mail.subject
    assert mail.message["Date"] and mail.message["Message-ID"], dict(mail.message.items())
    assert mail.message.get_content_type() == "multipart/alternative", mail.message["Content-Type"]
    assert mail.parts == [("text/plain", "quoted-printable"), ("text/html", "quoted-printable")], mail.parts

    link = mail.link(warden.issuer)
    assert link in mail.html_links(), (link, mail.html_links())
    html_text = mail.html_text()
    for part, text in (("text", mail.text), ("html", html_text)):
        for expected in (client_name, message, "Money transfer", "99.99 EUR", creditor):
            assert expected in text, f"{expected!r} not in the {part} part:\n{text}"

    # the link: a person who is not signed in goes to the hosted login first
    r = requests.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 302, describe(r)
    location = urlsplit(r.headers["Location"])
    assert location.path == "/u/login" and parse_qs(location.query).get("state"), r.headers["Location"]
    assert requests.get(warden.url("u/ciba/" + secrets.token_urlsafe(32)), allow_redirects=False,
                        timeout=HTTP_TIMEOUT).status_code == 404

    # another user who signs in does not get the page
    stranger = create_user(warden, email=f"stranger-{uid()}@interop.test")
    session = requests.Session()  # a browser: opening the link sends it to the login, and back to the link after
    to_login = session.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT)
    hosted_login(warden, urljoin(link, to_login.headers["Location"]), redirect_uri=link, email=stranger.email,
                 password=stranger.password, session=session)
    r = session.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert r.status_code == 302 and urlsplit(r.headers["Location"]).path == "/u/login", describe(r)

    approval = open_approval_page(warden, link, app.user)
    shown = approval.page.text
    for expected in (client_name, message, "Money transfer", "99.99 EUR", creditor):
        assert expected in shown, f"{expected!r} not on the approval page: {shown}"
    # a second view still shows it (viewing does not use the link up)
    again = approval.session.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert again.status_code == 200 and message in parse_page(again.text).text, describe(again)

    # a forged form is refused and decides nothing
    forged = submit_decision(approval, link, "approve", csrf="forged-" + uid())
    assert forged.status_code == 403, describe(forged)
    assert_oauth_error(poll(warden, app, auth_req_id), 400, "authorization_pending")

    result = submit_decision(approval, link, "approve")
    assert result.status_code == 200, describe(result)
    assert client_name in parse_page(result.text).text, result.text

    # decided: the link answers 409, to a view and to a second decision
    assert approval.session.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT).status_code == 409
    assert submit_decision(approval, link, "deny").status_code == 409
    assert requests.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT).status_code == 409

    r = poll(warden, app, auth_req_id)
    assert r.status_code == 200, describe(r)
    check_tokens(warden, app, json_of(r), details=details)
    assert approval.session.get(link, allow_redirects=False, timeout=HTTP_TIMEOUT).status_code == 409


# -------------------------------------------------------------------------------------- 4. §6.1 errors
def _hint(**fields):
    return lambda warden, app: {"login_hint": json.dumps({"format": "iss_sub", "iss": warden.issuer,
                                                          "sub": app.user.user_id, **fields})}


ERROR_CASES = [
    # (id, overrides(warden, app) -> dict, status, error, description fragment)
    ("binding_message missing", lambda w, a: {"binding_message": None}, 400, "invalid_binding_message", None),
    ("binding_message empty", lambda w, a: {"binding_message": ""}, 400, "invalid_binding_message", None),
    ("binding_message 65 characters", lambda w, a: {"binding_message": "x" * 65}, 400, "invalid_binding_message",
     None),
    ("binding_message with <>", lambda w, a: {"binding_message": "Pay <b>now</b>"}, 400, "invalid_binding_message",
     None),
    ("binding_message with !", lambda w, a: {"binding_message": "Pay now!"}, 400, "invalid_binding_message", None),
    ("login_hint missing", lambda w, a: {"login_hint": None}, 400, "invalid_request", None),
    ("login_hint not JSON", lambda w, a: {"login_hint": "user@example.com"}, 400, "invalid_request", None),
    ("login_hint other format", _hint(format="email"), 400, "invalid_request", None),
    ("login_hint other issuer", _hint(iss="https://elsewhere.interop.test/"), 400, "invalid_request", None),
    ("login_hint without sub", lambda w, a: {"login_hint": json.dumps({"format": "iss_sub", "iss": w.issuer})},
     400, "invalid_request", None),
    ("login_hint unknown user", _hint(sub="auth0|" + "0" * 24), 400, "unknown_user_id", None),
    ("requested_expiry 0", lambda w, a: {"requested_expiry": 0}, 400, "invalid_request", None),
    ("requested_expiry 259201", lambda w, a: {"requested_expiry": 259201}, 400, "invalid_request", None),
    ("requested_expiry not a number", lambda w, a: {"requested_expiry": "ten"}, 400, "invalid_request", None),
    ("requested_expiry 300 without a device", lambda w, a: {"requested_expiry": 300}, 400, "invalid_request",
     "user has no push-enrolled device"),
    ("requested_expiry default without a device", lambda w, a: {"requested_expiry": None}, 400, "invalid_request",
     "user has no push-enrolled device"),
    ("no openid and no audience", lambda w, a: {"scope": "offline_access", "audience": None,
                                                "authorization_details": None}, 400, "invalid_request",
     "openid scope must be requested"),
    ("unknown scope", lambda w, a: {"scope": "openid delete:everything"}, 400, "invalid_scope", None),
    ("API scope without the API", lambda w, a: {"scope": "openid transfer:funds", "audience": None,
                                                "authorization_details": None}, 400, "invalid_scope", None),
    ("unknown audience", lambda w, a: {"audience": f"https://nowhere-{uid()}.interop.test/"}, 400,
     "invalid_request", None),
    ("the Management API as audience", lambda w, a: {"audience": w.mgmt_audience, "scope": "openid",
                                                     "authorization_details": None}, 400, "invalid_request", None),
    ("details of an unregistered type", lambda w, a: {"authorization_details": [{"type": "payment_initiation"}]},
     400, "invalid_authorization_details", None),
    ("details not JSON", lambda w, a: {"authorization_details": "money_transfer"}, 400,
     "invalid_authorization_details", None),
    ("details an object", lambda w, a: {"authorization_details": {"type": "money_transfer"}}, 400,
     "invalid_authorization_details", None),
    ("details entry without type", lambda w, a: {"authorization_details": [{"amount": "1.00"}]}, 400,
     "invalid_authorization_details", None),
    ("details type not a string", lambda w, a: {"authorization_details": [{"type": 7}]}, 400,
     "invalid_authorization_details", None),
    ("details entry not an object", lambda w, a: {"authorization_details": ["money_transfer"]}, 400,
     "invalid_authorization_details", None),
    ("details without audience", lambda w, a: {"audience": None, "scope": "openid"}, 400,
     "invalid_authorization_details", None),
    ("details over 16 KiB", lambda w, a: {"authorization_details": [{"type": "money_transfer",
                                                                      "note": "x" * (16 * 1024)}]}, 400,
     "invalid_authorization_details", None),
]


@pytest.fixture(scope="module")
def errors_app(warden):
    """One app for the error cases: refused requests do not count towards the per-user limit."""
    return ciba_app(warden)


@pytest.mark.parametrize("overrides,status,error,fragment", [c[1:] for c in ERROR_CASES],
                         ids=[c[0] for c in ERROR_CASES])
def test_bc_authorize_request_errors(warden, errors_app, overrides, status, error, fragment):
    form = request_form(warden, errors_app, **overrides(warden, errors_app))
    r = bc_authorize(warden, errors_app.client_id, errors_app.client_secret, **form)
    body = assert_oauth_error(r, status, error)
    if fragment is not None:
        assert fragment in body.get("error_description", ""), describe(r)


def test_bc_authorize_client_errors(warden, errors_app):
    form = request_form(warden, errors_app)
    no_ciba = ciba_client(warden, grant_types=["client_credentials"])
    assert_oauth_error(bc_authorize(warden, no_ciba["client_id"], no_ciba["client_secret"], **form), 400,
                       "unauthorized_client")
    assert_oauth_error(bc_authorize(warden, errors_app.client_id, "wrong-" + uid(), **form), 401, "invalid_client")
    assert_oauth_error(bc_authorize(warden, errors_app.client_id, None, **form), 401, "invalid_client")
    assert_oauth_error(bc_authorize(warden, "unknown-" + uid(), "secret-" + uid(), **form), 401, "invalid_client")
    spa = warden.create_client(app_type="spa", grant_types=["authorization_code"], token_endpoint_auth_method="none",
                               callbacks=[f"https://spa-{uid()}.interop.test/cb"])
    r = bc_authorize(warden, spa["client_id"], None, **form)  # a public client cannot authenticate
    assert r.status_code in (400, 401) and json_of(r).get("error") in ("invalid_client", "unauthorized_client"), \
        describe(r)


def test_bc_authorize_for_a_blocked_user_is_access_denied(warden):
    app = ciba_app(warden)
    r = warden.mgmt("PATCH", f"users/{app.user.user_id}", json={"blocked": True})
    assert r.status_code == 200, describe(r)
    assert_oauth_error(bc_authorize(warden, app.client_id, app.client_secret, **request_form(warden, app)), 403,
                       "access_denied")


def test_per_user_limit_across_clients(warden, smtp_sink):
    api = ciba_api(warden)
    user = create_user(warden, email=f"ciba-limit-{uid()}@interop.test")
    first, second = ciba_app(warden, api=api, user=user), ciba_app(warden, api=api, user=user)
    # refused requests do not count, also one refused only at delivery (no push device)
    assert_oauth_error(bc_authorize(warden, first.client_id, first.client_secret,
                                    **request_form(warden, first, binding_message="bad!")), 400,
                       "invalid_binding_message")
    assert_oauth_error(bc_authorize(warden, first.client_id, first.client_secret,
                                    **request_form(warden, first, requested_expiry=300)), 400, "invalid_request")
    longest = "x" * 63 + "#"  # 64 characters: the longest binding message
    for app in (first, first, first, second, second):
        start_request(warden, app, binding_message=longest)
    for app in (first, second):
        r = bc_authorize(warden, app.client_id, app.client_secret, **request_form(warden, app))
        assert_oauth_error(r, 429, "too_many_requests")
        retry = r.headers.get("Retry-After", "")
        assert retry.isdigit() and 1 <= int(retry) <= 60, r.headers
    # the limit is per user: another user of the same client is not affected
    start_request(warden, ciba_app(warden, api=api))
    start_request(warden, first, login_hint=login_hint(
        warden.issuer, create_user(warden, email=f"ciba-other-{uid()}@interop.test").user_id))


# -------------------------------------------------------------------------------------------------- 5. ping mode
def _ping_app(warden: Warden, recorder: PingRecorder):
    return ciba_app(warden, backchannel_token_delivery_mode="ping",
                    backchannel_client_notification_endpoint=recorder.url)


def test_ping_mode_notifies_the_client_which_then_redeems(warden, smtp_sink):
    with PingRecorder() as recorder:
        app = _ping_app(warden, recorder)
        body = assert_oauth_error(bc_authorize(warden, app.client_id, app.client_secret, **request_form(warden, app)),
                                  400, "invalid_request")
        assert "client_notification_token" in body.get("error_description", ""), body
        assert_oauth_error(bc_authorize(warden, app.client_id, app.client_secret, **request_form(
            warden, app, client_notification_token="x" * 1025)), 400, "invalid_request")  # CIBA Core §7.1: ≤ 1024
        note = secrets.token_urlsafe(24)
        auth_req_id, form = start_request(warden, app, client_notification_token=note)
        mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
        assert recorder.received() == []  # nothing before the decision
        decide(warden, mail.link(warden.issuer), app.user, "approve")

        ping = recorder.wait_for(1, timeout=10)[0]
        assert ping.path == urlsplit(recorder.url).path, ping.path
        assert ping.headers.get("authorization") == f"Bearer {note}", ping.headers
        assert ping.headers.get("content-type", "").startswith("application/json"), ping.headers
        assert ping.json() == {"auth_req_id": auth_req_id}, ping.body

        r = poll(warden, app, auth_req_id)
        assert r.status_code == 200, describe(r)
        check_tokens(warden, app, json_of(r), details=form["authorization_details"])
        assert_oauth_error(poll(warden, app, auth_req_id), 400, "invalid_grant")
        assert len(recorder.received()) == 1, recorder.received()


def test_ping_mode_retries_a_refused_notification(warden, smtp_sink):
    with PingRecorder(statuses=[500]) as recorder:  # then 204
        app = _ping_app(warden, recorder)
        note = secrets.token_urlsafe(24)
        auth_req_id, form = start_request(warden, app, client_notification_token=note)
        mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
        decide(warden, mail.link(warden.issuer), app.user, "approve")

        pings = recorder.wait_for(2, timeout=15)
        assert [p.status for p in pings] == [500, 204], [(p.status, p.body) for p in pings]
        gap = pings[1].at - pings[0].at
        assert 1.5 <= gap <= 12, f"retried after {gap:.2f}s (backoff starts at 2 s)"
        for ping in pings:
            assert ping.headers.get("authorization") == f"Bearer {note}", ping.headers
            assert ping.json() == {"auth_req_id": auth_req_id}, ping.body
        r = poll(warden, app, auth_req_id)
        assert r.status_code == 200, describe(r)


def test_ping_mode_denied(warden, smtp_sink):
    with PingRecorder() as recorder:
        app = _ping_app(warden, recorder)
        auth_req_id, form = start_request(warden, app, client_notification_token=secrets.token_urlsafe(24))
        mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
        decide(warden, mail.link(warden.issuer), app.user, "deny")
        ping = recorder.wait_for(1, timeout=10)[0]
        assert ping.json() == {"auth_req_id": auth_req_id}, ping.body
        body = assert_oauth_error(poll(warden, app, auth_req_id), 400, "access_denied")
        assert body["error_description"] == DENIED


# ----------------------------------------------------------------------------------- 6. restart in the middle
def test_a_pending_request_survives_a_restart(warden, smtp_sink):
    """SPEC §6.2: state is durable. A server of this test's own (a fresh SQLite file, or the PostgreSQL database)
    is stopped after the request is made and mailed, started again on the same database and port; the link and
    the auth_req_id still work."""
    with own_node(binary=warden.binary, mgmt_client_id="ciba-restart-mgmt", prefix="warden-interop-ciba-",
                  env={"WARDEN_SMTP_URL": smtp_sink.url}) as node:
        app = ciba_app(node)
        auth_req_id, form = start_request(node, app)
        assert_oauth_error(poll(node, app, auth_req_id), 400, "authorization_pending")
        mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
        link = mail.link(node.issuer)

        node.stop()
        assert not node.alive()
        node.stopping = False
        node.start()
        node.wait_ready(timeout=30)

        assert_oauth_error(poll(node, app, auth_req_id), 400, "authorization_pending")
        decide(node, link, app.user, "approve")
        r = poll(node, app, auth_req_id)
        assert r.status_code == 200, describe(r)
        check_tokens(node, app, json_of(r), details=form["authorization_details"])
        assert_oauth_error(poll(node, app, auth_req_id), 400, "invalid_grant")
