"""SPEC §6.2 across nodes: a CIBA request's state is durable and shared by all nodes. Two nodes on one PostgreSQL
database behind one issuer (wardenlib.running_nodes, as test_multinode), each trusting what it knows of a
request for 60 s (WARDEN_CACHE_TTL): a decision made on node B reaches node A through LISTEN/NOTIFY, at once."""

from __future__ import annotations

import os
import secrets
import time

import pytest

from cibalib import PingRecorder, check_tokens, ciba_app, decide, on_node, poll, start_request
from pkcelib import assert_oauth_error
from wardenlib import describe, json_of, running_nodes

DATABASE = os.environ.get("WARDEN_TEST_DATABASE", "sqlite")

pytestmark = pytest.mark.skipif(
    not DATABASE.startswith(("postgres://", "postgresql://")),
    reason="cross-node notification needs PostgreSQL (WARDEN_TEST_DATABASE=postgres://…)")


@pytest.fixture(scope="module")
def nodes(smtp_sink):
    with running_nodes(DATABASE, mgmt_client_id="ciba-multinode-mgmt", cache_ttl=60, prefix="warden-ciba-node-",
                       env={"WARDEN_SMTP_URL": smtp_sink.url}) as started:
        yield started
        for node in started:
            assert node.alive() and node.crash_report() is None, node.output_tail()


def redeem_soon(node, app, auth_req_id: str, within: float = 2.0) -> dict:
    """Polls `node` until the approval is redeemed; `within` seconds at most. Until the decision's notification
    arrives the node answers from memory (authorization_pending or slow_down): each of those polls is a try."""
    start = time.monotonic()
    while True:
        r = poll(node, app, auth_req_id)
        if r.status_code == 200:
            return json_of(r)
        assert r.status_code == 400 and json_of(r).get("error") in ("authorization_pending", "slow_down"), describe(r)
        assert time.monotonic() - start < within, f"not redeemed within {within}s of the decision: {describe(r)}"
        time.sleep(0.1)


def test_a_decision_on_b_reaches_a_at_once(nodes, smtp_sink):
    a, b = nodes
    app = ciba_app(a)
    auth_req_id, form = start_request(a, app)
    assert_oauth_error(poll(a, app, auth_req_id), 400, "authorization_pending")  # A now knows it as pending
    assert_oauth_error(poll(b, app, auth_req_id), 400, "authorization_pending")  # pacing is per node

    mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
    link = mail.link(a.issuer)  # the shared issuer, which no node serves: use the same path on B
    decide(b, on_node(link, b), app.user, "approve")

    tokens = redeem_soon(a, app, auth_req_id, within=2.0)
    check_tokens(a, app, tokens, details=form["authorization_details"])
    assert_oauth_error(poll(b, app, auth_req_id), 400, "invalid_grant")  # redeemed once, for every node
    assert_oauth_error(poll(a, app, auth_req_id), 400, "invalid_grant")


def test_a_denial_on_b_reaches_a_at_once(nodes, smtp_sink):
    a, b = nodes
    app = ciba_app(a)
    auth_req_id, form = start_request(a, app)
    assert_oauth_error(poll(a, app, auth_req_id), 400, "authorization_pending")
    mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
    decide(b, on_node(mail.link(a.issuer), b), app.user, "deny")
    start = time.monotonic()
    while True:
        r = poll(a, app, auth_req_id)
        if json_of(r).get("error") == "access_denied":
            break
        assert json_of(r).get("error") in ("authorization_pending", "slow_down"), describe(r)
        assert time.monotonic() - start < 2.0, f"A still answers {describe(r)} 2 s after the denial on B"
        time.sleep(0.1)
    assert_oauth_error(r, 400, "access_denied")


def test_ping_for_a_decision_on_another_node(nodes, smtp_sink):
    a, b = nodes
    with PingRecorder() as recorder:
        app = ciba_app(a, backchannel_token_delivery_mode="ping", backchannel_client_notification_endpoint=recorder.url)
        note = secrets.token_urlsafe(24)
        auth_req_id, form = start_request(a, app, client_notification_token=note)
        mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
        decide(b, on_node(mail.link(a.issuer), b), app.user, "approve")

        ping = recorder.wait_for(1, timeout=10)[0]
        assert ping.headers.get("authorization") == f"Bearer {note}", ping.headers
        assert ping.json() == {"auth_req_id": auth_req_id}, ping.body
        tokens = redeem_soon(a, app, auth_req_id, within=2.0)
        check_tokens(a, app, tokens, details=form["authorization_details"])
        assert len(recorder.received()) == 1, recorder.received()
