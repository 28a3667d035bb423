"""SPEC §2 and ARCHITECTURE: several stateless nodes over one PostgreSQL database. A change made on one
node (key rotation, a deleted client) reaches the other at once through LISTEN/NOTIFY — far sooner than the
60 s cache refresh both nodes run with here."""

from __future__ import annotations

import os
import secrets
import time

import pytest

from wardenlib import HTTP_TIMEOUT, expect_status, json_of, running_nodes

DATABASE = os.environ.get("WARDEN_TEST_DATABASE", "sqlite")

pytestmark = pytest.mark.skipif(
    not DATABASE.startswith(("postgres://", "postgresql://")),
    reason="cross-node notification needs PostgreSQL (WARDEN_TEST_DATABASE=postgres://…)")


@pytest.fixture(scope="module")
def nodes():
    """Two nodes on one database behind one issuer, each refreshing its caches only every 60 s."""
    with running_nodes(DATABASE) as started:
        yield started


def wait_for(condition, timeout: float = 5.0) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if condition():
            return time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout}s")


def test_rotation_on_one_node_reaches_the_other_at_once(nodes):
    a, b = nodes
    before = b.jwks_kids()
    expect_status(a.mgmt("POST", "keys/signing/rotate"), 201)
    new = a.jwks_kids() - before
    assert new, "rotation made no new key"
    elapsed = wait_for(lambda: new <= b.jwks_kids())
    assert elapsed < 5


def test_a_client_deleted_on_one_node_is_refused_by_the_other(nodes):
    a, b = nodes
    api = a.create_api(identifier=f"https://multinode-{secrets.token_hex(4)}.example.com/", name="multinode",
                       scopes=[{"value": "read:x"}])
    client = a.create_client(name="multinode", app_type="non_interactive", grant_types=["client_credentials"])
    a.create_client_grant(client["client_id"], api["identifier"], ["read:x"])
    ok = b.client_credentials(client["client_id"], client["client_secret"], api["identifier"])
    assert ok.status_code == 200, ok.text  # created on A, found by B (cache miss falls back to the database)
    expect_status(a.mgmt("DELETE", f"clients/{client['client_id']}"), 204)
    wait_for(lambda: b.client_credentials(client["client_id"], client["client_secret"],
                                          api["identifier"]).status_code == 401)
