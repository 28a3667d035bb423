"""Authenticator devices (SPEC §7) with CIBA push (SPEC §6.3), end to end from the outside.

A device written from the SPEC alone (guardianlib.Device, as the vendor's Guardian SDKs speak) enrols with a
Management API ticket and `push_credentials {"service": "WEBHOOK", …}`. The server under test is a node of this
module's own (guardianlib.push_node, on the suite's database) whose push webhook points at a local receiver that
checks `X-Warden-Signature`. auth0-python's BackChannelLogin starts a push request (`requested_expiry` ≤ 300)
with a `money_transfer` authorization detail; the device gets the §7.2 notification, fetches the consent with an
`MFA-DPoP` proof (§7.3), answers with a `challenge_response` JWT (§7.4), and GetToken's poll gets the tokens.
Then what must be refused: forged, replayed or misdirected proofs and answers, late answers, bad enrolments, and
the device-account API (§7.1, §7.5) and its Management side (§9), with the log events of §10.
"""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta, timezone

import pytest
from auth0.authentication import GetToken
from auth0.authentication.back_channel_login import BackChannelLogin
from auth0.authentication.exceptions import Auth0Error

from cibalib import (SCOPE, bc_authorize, check_tokens, ciba_app, login_hint, poll, request_form, start_request,
                     transfer_details)
from guardianlib import (NOTIFICATION_CATEGORY, Device, DeviceKey, Push, b64url, b64url_json, device_error,
                         enrolled_device, enrollment_ticket, jws_parts, logs_of, reported_push_node, tamper,
                         wait_for_log)
from pkcelib import assert_oauth_error, create_user
from wardenlib import (HTTP_TIMEOUT, ISO_8601, assert_iso_times, describe, expect_status, json_of, uid,
                       wait_until)

PUSH_EXPIRY = 300  # requested_expiry ≤ 300: the push channel (SPEC §6.1)
NOTIFICATION_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$")  # yyyy-MM-dd'T'HH:mm:ss.SSS'Z'


@pytest.fixture(scope="module")
def node(request, receiver):
    """A Warden of this module's own, pushing to `receiver` (conftest; its output is shown when a test failed)."""
    with reported_push_node(request, receiver) as started:
        yield started


def iso_time(value) -> datetime:
    """An ISO 8601 string (the only form SPEC §7.3 allows), parsed."""
    assert isinstance(value, str) and ISO_8601.match(value), f"not an ISO 8601 string: {value!r}"
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def start_push(node, app, **overrides) -> tuple[str, dict]:
    """A push-channel request (raw /bc-authorize) that must be accepted: (auth_req_id, the form sent)."""
    return start_request(node, app, **{"requested_expiry": PUSH_EXPIRY, **overrides})


def check_notification(push: Push, node, device: Device, message: str, started: float) -> dict:
    """SPEC §6.3 / §7.2: a validly signed webhook body, the APNs body plus `device`. Returns the `mfa` fields."""
    assert push.signature_valid, f"bad X-Warden-Signature {push.headers.get('x-warden-signature')!r}: {push.raw!r}"
    assert push.headers.get("content-type", "").startswith("application/json"), push.headers
    body = push.body
    assert set(body) == {"aps", "mfa", "device"}, body
    aps = body["aps"]
    assert isinstance(aps["alert"].get("title"), str) and aps["alert"]["title"], aps
    assert aps["alert"]["body"] == message, aps
    assert aps["category"] == NOTIFICATION_CATEGORY and aps["sound"] == "default", aps
    assert body["device"] == {"id": device.id, "service": "WEBHOOK", "token": device.push_credentials["token"]}, body
    mfa = body["mfa"]
    assert {"dai", "txtkn", "c", "d", "sh", "txlnkid"} <= set(mfa) <= {"dai", "txtkn", "c", "d", "sh", "txlnkid",
                                                                         "s", "l"}, mfa
    assert mfa["dai"] == device.id, mfa
    for key in ("txtkn", "c"):
        assert isinstance(mfa[key], str) and len(mfa[key]) >= 16, mfa
    assert NOTIFICATION_TIME.match(mfa["d"]), mfa
    sent = datetime.strptime(mfa["d"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc).timestamp()
    assert started - 5 <= sent <= time.time() + 5, f"d {mfa['d']} is not the request's start"
    assert mfa["sh"] == node.domain, mfa  # 127.0.0.1:PORT, a non-default port
    assert re.fullmatch(r"cns_[A-Za-z0-9_-]+", mfa["txlnkid"]), mfa
    if "s" in mfa:
        assert set(mfa["s"]) <= {"b", "os"}, mfa
    if "l" in mfa:
        assert set(mfa["l"]) <= {"n", "lat", "long"}, mfa
    return mfa


def check_consent(response, app, form: dict, consent_id: str) -> dict:
    """SPEC §7.3: the consent with the request's details and ISO 8601 string times."""
    consent = json_of(expect_status(response, 200))
    assert response.headers.get("Content-Type", "").startswith("application/json"), response.headers
    assert consent["id"] == consent_id, consent
    details = consent["requested_details"]
    assert details["audience"] == app.audience, consent
    assert isinstance(details["scope"], list) and sorted(details["scope"]) == sorted(form["scope"].split()), consent
    assert details["binding_message"] == form["binding_message"], consent
    assert details["authorization_details"] == form["authorization_details"], consent
    created, expires = iso_time(consent["created_at"]), iso_time(consent["expires_at"])
    assert abs((expires - created) - timedelta(seconds=int(form["requested_expiry"]))) <= timedelta(seconds=2), consent
    return consent


def all_refused(cases: dict, status: int, error_code: str) -> None:
    """Runs every case (name → a call returning a response) and fails once, naming each that was not refused
    with `status` and `error_code` in the device API's error shape."""
    wrong = []
    for name, call in cases.items():
        try:
            device_error(call(), status, error_code)
        except AssertionError as error:
            wrong.append(f"{name}: {error}")
    assert not wrong, f"{len(wrong)} of {len(cases)} not refused with {status} {error_code}:\n" + "\n".join(wrong)


def consent_errors_since(node, began: datetime, user_id: str) -> set[str]:
    """The `details.errorCode`s of the user's rich_consents_access_error events logged since `began`."""
    return {(e.get("details") or {}).get("errorCode") for e in logs_of(node, "rich_consents_access_error", user_id)
            if iso_time(e["date"]) >= began}


def auth0_error(call) -> Auth0Error:
    with pytest.raises(Auth0Error) as caught:
        call()
    return caught.value


# ------------------------------------------------------------------------------- 1. the whole flow, approved
def test_push_approved_end_to_end_with_auth0_python(node, receiver):
    app = ciba_app(node)
    device = enrolled_device(node, app.user.user_id, leading_zero=True)  # `n` with the iOS SDK's leading zero
    details = transfer_details(amount="1250.00", creditor="Landlord Ltd")
    message = f"Rent March #{uid()[:6]}"
    form = {"scope": SCOPE, "binding_message": message, "authorization_details": details,
            "requested_expiry": PUSH_EXPIRY}
    started = time.time()
    began = BackChannelLogin(node.domain, app.client_id, client_secret=app.client_secret, protocol="http",
                             timeout=HTTP_TIMEOUT).back_channel_login(
        binding_message=message, login_hint=login_hint(node.issuer, app.user.user_id), scope=SCOPE,
        audience=app.audience, authorization_details=details, requested_expiry=PUSH_EXPIRY)
    assert (began.get("expires_in"), began.get("interval")) == (PUSH_EXPIRY, 5), began
    auth_req_id = began["auth_req_id"]
    token = GetToken(node.domain, app.client_id, client_secret=app.client_secret, protocol="http",
                     timeout=HTTP_TIMEOUT)
    pending = auth0_error(lambda: token.backchannel_login(auth_req_id))
    assert (pending.status_code, pending.error_code) == (400, "authorization_pending"), vars(pending)

    push = receiver.wait_for_push(device.id)
    mfa = check_notification(push, node, device, message, started)

    # §7.5: the device can list it too, with a transaction token that works
    listed = device.transactions()
    assert len(listed) == 1, listed
    assert {k: listed[0].get(k) for k in ("dai", "c", "txlnkid", "sh")} == \
        {k: mfa[k] for k in ("dai", "c", "txlnkid", "sh")}, (listed, mfa)
    check_consent(device.fetch_consent(mfa["txlnkid"], listed[0]["txtkn"]), app, form, mfa["txlnkid"])
    check_consent(device.fetch_consent(mfa["txlnkid"], mfa["txtkn"]), app, form, mfa["txlnkid"])

    r = device.allow(push)
    assert r.status_code == 204 and not r.content, describe(r)
    assert device.transactions() == []

    tokens = token.backchannel_login(auth_req_id)
    assert tokens.get("authorization_details") == details, tokens
    access, _ = check_tokens(node, app, tokens, details=details)  # verified against the JWKS by joserfc
    assert access["authorization_details"] == details

    # a second answer, from the same device, after the decision
    device_error(device.allow(push), 404, "login_transaction_not_found")
    device_error(device.reject(push), 404, "login_transaction_not_found")
    device_error(device.fetch_consent(push.txlnkid, push.txtkn), 404, "login_transaction_not_found")
    again = auth0_error(lambda: token.backchannel_login(auth_req_id))
    assert (again.status_code, again.error_code) == (400, "invalid_grant"), vars(again)
    for kind in ("gd_send_pn", "gd_auth_succeed"):
        wait_for_log(node, kind, app.user.user_id)
    # one request start for one transaction: the listing's `d` is the notification's, to the millisecond
    assert listed[0].get("d") == mfa["d"], (listed, mfa)


# -------------------------------------------------------------------------------------------------- 2. denied
def test_push_rejected_is_access_denied(node, receiver):
    app = ciba_app(node)
    device = enrolled_device(node, app.user.user_id)
    auth_req_id, form = start_push(node, app)
    assert_oauth_error(poll(node, app, auth_req_id), 400, "authorization_pending")
    push = receiver.wait_for_push(device.id)
    check_notification(push, node, device, form["binding_message"], time.time() - 10)
    r = device.reject(push, reason="I did not ask for this")
    assert r.status_code == 204, describe(r)
    for _ in range(2):
        assert_oauth_error(poll(node, app, auth_req_id), 400, "access_denied")
    wait_for_log(node, "gd_auth_rejected", app.user.user_id)
    device_error(device.allow(push), 404, "login_transaction_not_found")
    assert device.transactions() == []


# ------------------------------------------------------------------------- 3. refused answers and consent fetches
def test_refused_answers_leave_the_request_to_the_right_device(node, receiver):
    app = ciba_app(node)
    device = enrolled_device(node, app.user.user_id)
    auth_req_id, form = start_push(node, app)
    push = receiver.wait_for_push(device.id)
    txtkn, challenge, consent_id = push.txtkn, push.challenge, push.txlnkid
    stranger = DeviceKey()
    began = datetime.now(timezone.utc) - timedelta(seconds=1)
    now = time.time()

    # challenge responses that do not verify: 401 invalid_token
    refused = {
        "tampered signature": tamper(device.challenge_response(challenge, True)),
        "another key": device.challenge_response(challenge, True, key=stranger),
        "another challenge": device.challenge_response("c" + challenge, True),
        "another identifier": device.challenge_response(challenge, True, iss=f"device-{uid()}"),
        "another audience": device.challenge_response(challenge, True, aud=node.issuer + "appliance-mfa/api/enroll"),
        "expired": device.challenge_response(challenge, True, iat=now - 120.5, exp=now - 60.25),
        "exp more than 60 s after iat": device.challenge_response(challenge, True, exp=now + 600.5),
        "alg none": f"{b64url_json({'alg': 'none', 'typ': 'JWT'})}."
                    f"{b64url_json(jws_parts(device.challenge_response(challenge, True))[1])}.",
    }
    all_refused({name: lambda jwt_=jwt_: device.resolve(txtkn, challenge, True, challenge_response=jwt_)
                 for name, jwt_ in refused.items()}, 401, "invalid_token")
    device_error(device.resolve("never-issued-" + uid(), challenge, True), 401, "invalid_token")
    r = device.http.post(device.api_url("resolve-transaction"),
                         json={"challenge_response": device.challenge_response(challenge, True)},
                         timeout=HTTP_TIMEOUT)
    device_error(r, 401, "invalid_token")  # no Authorization header
    r = device.http.post(device.api_url("resolve-transaction"), json={},
                         headers={"Authorization": f"Bearer {txtkn}"}, timeout=HTTP_TIMEOUT)
    device_error(r, 400, "invalid_body")  # no challenge_response

    # consent fetches with a proof that does not verify: 401 invalid_token
    url = device.consent_url(consent_id)
    proofs = {
        "another key (its own jwk)": device.dpop_proof(url, txtkn, key=stranger),
        "another key (our jwk)": device.dpop_proof(url, txtkn, key=stranger, jwk=device.jwk),
        "tampered signature": tamper(device.dpop_proof(url, txtkn)),
        "wrong htu": device.dpop_proof(url, txtkn, htu=device.consent_url("cns_" + uid())),
        "wrong htu host": device.dpop_proof(url, txtkn, htu=url.replace("127.0.0.1", "localhost")),
        "wrong htm": device.dpop_proof(url, txtkn, htm="POST"),
        "wrong ath": device.dpop_proof(url, txtkn, ath=b64url(b"\0" * 32)),
        "no ath": device.dpop_proof(url, txtkn, ath=None),
        "no jti": device.dpop_proof(url, txtkn, jti=None),
        "an hour old": device.dpop_proof(url, txtkn, iat=now - 3600.5),
        "typ JWT": device.dpop_proof(url, txtkn, header={"alg": "RS256", "typ": "JWT", "jwk": device.jwk}),
    }
    all_refused({name: lambda proof=proof: device.fetch_consent(consent_id, txtkn, proof=proof)
                 for name, proof in proofs.items()}, 401, "invalid_token")
    device_error(device.fetch_consent(consent_id, txtkn, proof=""), 401, "invalid_token")  # no MFA-DPoP header
    device_error(device.fetch_consent(consent_id, "never-issued-" + uid()), 401, "invalid_token")
    device_error(device.fetch_consent(consent_id, txtkn, authorization=f"Bearer {txtkn}"), 401, "invalid_token")

    # a proof is single-use: the first fetch works, its replay (same jti) is refused
    proof = device.dpop_proof(url, txtkn)
    check_consent(device.fetch_consent(consent_id, txtkn, proof=proof), app, form, consent_id)
    device_error(device.fetch_consent(consent_id, txtkn, proof=proof), 401, "invalid_token")

    # a consent that is not this transaction's: unknown, or another request's
    device_error(device.fetch_consent("cns_" + uid(), txtkn), 404, "consent_not_found")
    other = ciba_app(node, api=app.api)
    other_device = enrolled_device(node, other.user.user_id)
    start_push(node, other)
    other_push = receiver.wait_for_push(other_device.id)
    assert other_push.txlnkid != consent_id
    device_error(device.fetch_consent(other_push.txlnkid, txtkn), 404, "consent_not_found")
    # nor can the other user's device answer this request with its own key and challenge
    device_error(other_device.resolve(txtkn, other_push.challenge, True), 401, "invalid_token")

    # after all that, the right device still decides
    check_consent(device.fetch_consent(consent_id, txtkn), app, form, consent_id)
    r = device.allow(push)
    assert r.status_code == 204, describe(r)
    r = poll(node, app, auth_req_id)
    check_tokens(node, app, json_of(expect_status(r, 200)), details=form["authorization_details"])
    device_error(device.allow(push), 404, "login_transaction_not_found")
    # the other request is still pending and its own device can still decide it
    assert other_device.allow(other_push).status_code == 204
    # the refused consent fetches of a known transaction are logged with its user (SPEC §10)
    wait_until(lambda: consent_errors_since(node, began, app.user.user_id) >= {"invalid_token", "consent_not_found"},
               timeout=3,
               step=0.2, what="rich_consents_access_error events with invalid_token and consent_not_found")


def test_an_expired_request_is_gone_for_the_device(node, receiver):
    app = ciba_app(node)
    device = enrolled_device(node, app.user.user_id)
    auth_req_id, _ = start_push(node, app, requested_expiry=2)
    push = receiver.wait_for_push(device.id)
    time.sleep(3)
    device_error(device.fetch_consent(push.txlnkid, push.txtkn), 410, "transaction_expired")
    device_error(device.allow(push), 410, "transaction_expired")
    assert_oauth_error(poll(node, app, auth_req_id), 400, "expired_token")
    assert device.transactions() == []


# ------------------------------------------------------------------------------------- 4. two devices, one user
def test_two_devices_the_first_answer_decides(node, receiver):
    app = ciba_app(node)
    phone = enrolled_device(node, app.user.user_id, leading_zero=True)
    tablet = enrolled_device(node, app.user.user_id)
    started = time.time()
    auth_req_id, form = start_push(node, app)
    on_phone, on_tablet = receiver.wait_for_push(phone.id), receiver.wait_for_push(tablet.id)
    phone_mfa = check_notification(on_phone, node, phone, form["binding_message"], started)
    tablet_mfa = check_notification(on_tablet, node, tablet, form["binding_message"], started)
    assert phone_mfa["txtkn"] != tablet_mfa["txtkn"] and phone_mfa["c"] != tablet_mfa["c"]
    assert [t["c"] for t in tablet.transactions()] == [tablet_mfa["c"]]

    # each device reads the consent with its own transaction token only
    check_consent(tablet.fetch_consent(on_tablet.txlnkid, on_tablet.txtkn), app, form, on_tablet.txlnkid)
    device_error(tablet.fetch_consent(on_phone.txlnkid, on_phone.txtkn), 401, "invalid_token")
    # and answers only its own transaction: the phone's token with the tablet's key does not verify
    device_error(tablet.resolve(on_phone.txtkn, on_phone.challenge, True), 401, "invalid_token")

    assert phone.allow(on_phone).status_code == 204
    device_error(tablet.reject(on_tablet), 404, "login_transaction_not_found")
    device_error(tablet.allow(on_tablet), 404, "login_transaction_not_found")
    assert tablet.transactions() == [] and phone.transactions() == []
    r = poll(node, app, auth_req_id)
    check_tokens(node, app, json_of(expect_status(r, 200)), details=form["authorization_details"])


# ------------------------------------------------------------------------------------------------ 5. enrolment
def test_enrolment_response_and_management_listing(node):
    user = create_user(node)
    device = Device(node, leading_zero=True)
    credentials = {"service": "WEBHOOK", "token": f"tok-{uid()}"}
    enrollment = device.enroll(enrollment_ticket(node, user.user_id), push_credentials=credentials)
    assert re.fullmatch(r"dev_[A-Za-z0-9_-]+", enrollment.id), enrollment.body
    assert enrollment.url == node.issuer + "appliance-mfa", enrollment.body
    assert isinstance(enrollment.issuer, str) and enrollment.issuer, enrollment.body
    assert enrollment.user_id == user.user_id, enrollment.body
    assert isinstance(enrollment.token, str) and len(enrollment.token) >= 16, enrollment.body
    totp = enrollment.totp
    assert re.fullmatch(r"[A-Z2-7]+=*", totp["secret"]) and len(totp["secret"]) >= 16, totp
    assert (totp["algorithm"], totp["digits"], totp["period"]) == ("sha1", 6, 30), totp
    wait_for_log(node, "gd_enrollment_complete", user.user_id)

    r = expect_status(node.mgmt("GET", f"users/{user.user_id}/enrollments"), 200)
    listed = json_of(r)
    assert isinstance(listed, list) and len(listed) == 1, describe(r)
    entry = listed[0]
    assert entry["id"] == enrollment.id, entry
    assert entry["status"] == "confirmed", entry
    assert (entry["name"], entry["identifier"]) == (device.name, device.identifier), entry
    assert_iso_times(entry, ("enrolled_at", "last_auth"))


def test_enrolment_errors(node):
    user = create_user(node)
    ticket = enrollment_ticket(node, user.user_id)
    device = Device(node)
    push = {"service": "WEBHOOK", "token": f"tok-{uid()}"}

    device_error(device.enroll_request(None, push_credentials=push), 401, "invalid_token")
    device_error(device.enroll_request(None, push_credentials=push, authorization=f"Bearer {ticket}"), 401,
                 "invalid_token")
    device_error(device.enroll_request("unknown-" + uid(), push_credentials=push), 404,
                 "enrollment_transaction_not_found")
    jwk = device.jwk
    bad_bodies = {
        "no identifier": {"drop": ("identifier",)},
        "no public_key": {"drop": ("public_key",)},
        "public_key without n": {"public_key": {k: v for k, v in jwk.items() if k != "n"}},
        "public_key n not a string": {"public_key": {**jwk, "n": 12345}},
        "identifier a number": {"identifier": 42},
        "push_credentials without token": {"push_credentials": {"service": "WEBHOOK"}},
        "push_credentials of an unknown service": {"push_credentials": {"service": "PIGEON", "token": "t"}},
        "push_credentials a string": {"push_credentials": "WEBHOOK"},
    }
    all_refused({name: lambda change=change: device.enroll_request(ticket, **{"push_credentials": push, **change})
                 for name, change in bad_bodies.items()}, 400, "invalid_body")
    r = device.http.post(device.api_url("enroll"), data=b"{not json", timeout=HTTP_TIMEOUT,
                         headers={"Authorization": f'Ticket id="{ticket}"', "Content-Type": "application/json"})
    device_error(r, 400, "invalid_body")

    # refused requests did not use the ticket up; the first good one does
    device.enroll(ticket, push_credentials=push)
    device_error(Device(node).enroll_request(ticket, push_credentials=push), 404, "enrollment_transaction_not_found")
    # the same device identifier again for this user: 409; for another user it is a new device
    twin = Device(node, identifier=device.identifier)
    device_error(twin.enroll_request(enrollment_ticket(node, user.user_id), push_credentials=push), 409,
                 "already_enrolled")
    twin.enroll(enrollment_ticket(node, create_user(node).user_id), push_credentials=push)
    # SPEC §7.1 names `push_credentials` as the one optional field: a device without a name is a bad body too
    # (checked last, with a ticket of its own, since a wrongful success uses the ticket up)
    device_error(Device(node).enroll_request(enrollment_ticket(node, user.user_id), push_credentials=push,
                                             drop=("name",)), 400, "invalid_body")


def test_a_device_enrolled_without_push_credentials_gets_no_push(node, receiver):
    app = ciba_app(node)
    device = enrolled_device(node, app.user.user_id, push_token="")
    r = bc_authorize(node, app.client_id, app.client_secret, **request_form(node, app, requested_expiry=PUSH_EXPIRY))
    body = assert_oauth_error(r, 400, "invalid_request")
    assert "user has no push-enrolled device" in body["error_description"], body
    assert receiver.pushes(device.id) == []


# ------------------------------------------------------------------------------------------ 6. device account
def test_device_account_update_and_delete(node, receiver):
    app = ciba_app(node)
    device = enrolled_device(node, app.user.user_id)
    other = enrolled_device(node, create_user(node).user_id)

    # PATCH with the device-account token, then with a device JWT
    r = expect_status(device.update("token", name="Renamed phone"), 200)
    assert json_of(r) == {"id": device.id, "identifier": device.identifier, "name": "Renamed phone",
                          "push_credentials": device.push_credentials}, describe(r)
    new_push = {"service": "WEBHOOK", "token": f"tok-{uid()}"}
    old_identifier, new_identifier = device.identifier, f"device-{uid()}"
    r = expect_status(device.update("jwt", identifier=new_identifier, push_credentials=new_push), 200)
    assert json_of(r) == {"id": device.id, "identifier": new_identifier, "name": "Renamed phone",
                          "push_credentials": new_push}, describe(r)
    device.identifier, device.push_credentials = new_identifier, new_push
    wait_for_log(node, "gd_update_device_account", app.user.user_id)
    device_error(device.update("jwt", name=7), 400, "invalid_body")

    # authorization that does not hold: 401 invalid_token, and nothing changed
    now = time.time()
    refused = {
        "no Authorization": "none",
        "an unknown token": "unknown-" + uid(),
        "a tampered JWT": tamper(device.account_jwt()),
        "a JWT of another key": DeviceKey().sign(jws_parts(device.account_jwt())[1]),
        "a JWT living 3 h": device.account_jwt(exp=now + 3 * 3600),
        "an expired JWT": device.account_jwt(iat=now - 7200, exp=now - 60),
        "a JWT for another audience": device.account_jwt(aud=node.issuer + "appliance-mfa/api/enroll"),
        "a JWT for another user": device.account_jwt(sub=other.enrollment.user_id),
        "the other device's JWT": other.account_jwt(),
        "the other device's token": other.enrollment.token,
    }
    all_refused({f"PATCH with {name}": lambda auth=auth: device.update(auth, name="Hijacked")
                 for name, auth in refused.items()}, 401, "invalid_token")
    all_refused({f"DELETE with {name}": lambda auth=auth: device.delete(auth) for name, auth in refused.items()},
                401, "invalid_token")
    device_error(device.transactions_request("none"), 401, "invalid_token")
    listed = json_of(expect_status(node.mgmt("GET", f"users/{app.user.user_id}/enrollments"), 200))
    assert [(e["id"], e["name"]) for e in listed] == [(device.id, "Renamed phone")], listed

    # the push goes to the new token; the answer must come from the new identifier
    started = time.time()
    auth_req_id, form = start_push(node, app)
    push = receiver.wait_for_push(device.id)
    check_notification(push, node, device, form["binding_message"], started)
    device_error(device.resolve(push.txtkn, push.challenge, True, iss=old_identifier), 401, "invalid_token")
    assert device.allow(push).status_code == 204
    expect_status(poll(node, app, auth_req_id), 200)

    r = device.delete("jwt")
    assert r.status_code == 204 and not r.content, describe(r)
    wait_for_log(node, "gd_unenroll", app.user.user_id)
    for auth in ("jwt", "token"):
        device_error(device.update(auth, name="Gone"), 404, "device_account_not_found")
        device_error(device.delete(auth), 404, "device_account_not_found")
    device_error(device.transactions_request(), 404, "device_account_not_found")
    assert json_of(expect_status(node.mgmt("GET", f"users/{app.user.user_id}/enrollments"), 200)) == []
    # the other device is untouched
    assert json_of(expect_status(other.update("token", name="Still here"), 200))["name"] == "Still here"


def test_management_deletes_an_enrollment(node, receiver):
    app = ciba_app(node)
    kept = enrolled_device(node, app.user.user_id)
    removed = enrolled_device(node, app.user.user_id)
    path = f"users/{app.user.user_id}/enrollments"
    assert {e["id"] for e in json_of(expect_status(node.mgmt("GET", path), 200))} == {kept.id, removed.id}

    r = node.mgmt("DELETE", f"guardian/enrollments/{removed.id}", token=node.mgmt_token(["read:guardian_enrollments"]))
    assert r.status_code == 403 and json_of(r).get("errorCode") == "insufficient_scope", describe(r)
    r = node.mgmt("DELETE", f"guardian/enrollments/{removed.id}")
    assert r.status_code == 204 and not r.content, describe(r)
    wait_for_log(node, "gd_unenroll", app.user.user_id)
    assert [e["id"] for e in json_of(expect_status(node.mgmt("GET", path), 200))] == [kept.id]
    device_error(removed.update("jwt", name="Gone"), 404, "device_account_not_found")
    r = node.mgmt("DELETE", f"guardian/enrollments/{removed.id}")
    assert r.status_code == 404 and json_of(r).get("errorCode") == "inexistent_enrollment", describe(r)

    # only the remaining device is asked
    _, form = start_push(node, app)
    receiver.wait_for_push(kept.id)
    time.sleep(0.5)
    assert receiver.pushes(removed.id) == []
