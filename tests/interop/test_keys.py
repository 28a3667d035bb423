"""SPEC §2 key rotation: CLI `warden keys rotate`, `POST /api/v2/keys/signing/rotate`, `PUT …/{kid}/revoke`.

A token signed before a rotation keeps verifying against the JWKS; new tokens carry the new key's kid (at once on
the node that rotated; within WARDEN_CACHE_TTL for a rotation made by another process, here the CLI).
"""

from __future__ import annotations

import time

from wardenlib import CACHE_TTL, assert_iso_times, expect_status, json_of, unverified_header, verify_jwt

# SPEC §2 lists revoked_at too; it is accepted as absent (= null) while the key is not revoked.
KEY_FIELDS = {"kid", "alg", "current", "previous", "revoked", "current_since", "jwk"}


def signing_keys(warden) -> list[dict]:
    body = json_of(expect_status(warden.mgmt("GET", "keys/signing"), 200))
    assert isinstance(body, list), body
    return body


def new_token_kid(warden, m2m) -> tuple[str, str]:
    token = warden.m2m_token(m2m)
    return token, unverified_header(token)["kid"]


def wait_for_new_kid(warden, m2m, old_kid: str, deadline_s: float) -> tuple[str, str]:
    deadline = time.monotonic() + deadline_s
    while True:
        token, kid = new_token_kid(warden, m2m)
        if kid != old_kid or time.monotonic() > deadline:
            return token, kid
        time.sleep(0.2)


def test_cli_rotation(warden):
    rs = warden.m2m()
    es = warden.m2m(api_fields={"signing_alg": "ES256"})
    rs_before, rs_kid = new_token_kid(warden, rs)
    es_before, es_kid = new_token_kid(warden, es)

    started = time.monotonic()
    result = warden.cli("keys", "rotate")
    cli_seconds = time.monotonic() - started

    # within WARDEN_CACHE_TTL + 2 s of the rotation, new tokens use new keys, for every algorithm in use
    rs_after, rs_new = wait_for_new_kid(warden, rs, rs_kid, CACHE_TTL + 2)
    es_after, es_new = wait_for_new_kid(warden, es, es_kid, max(0.5, CACHE_TTL + 2 - (time.monotonic() - started)))
    assert rs_new != rs_kid, f"RS256 tokens still use {rs_kid} {CACHE_TTL + 2}s after `warden keys rotate` " \
                             f"(the CLI took {cli_seconds:.1f}s; output: {result.stdout}{result.stderr})"
    assert es_new != es_kid, f"ES256 tokens still use {es_kid} after `warden keys rotate`"

    jwks = warden.jwks()
    kids = {k["kid"] for k in jwks["keys"]}
    assert {rs_kid, rs_new, es_kid, es_new} <= kids, kids
    # the old tokens still verify; so do the new ones
    for token, alg in ((rs_before, "RS256"), (rs_after, "RS256"), (es_before, "ES256"), (es_after, "ES256")):
        verify_jwt(token, jwks, [alg])


def test_management_rotation_is_immediate_and_revocation_unpublishes(warden):
    m2m = warden.m2m()
    es = warden.m2m(api_fields={"signing_alg": "ES256"})
    before, old_kid = new_token_kid(warden, m2m)
    _, old_es_kid = new_token_kid(warden, es)

    r = warden.mgmt("POST", "keys/signing/rotate")
    expect_status(r, 201)

    # at once on the node that rotated: no waiting
    after, new_kid = new_token_kid(warden, m2m)
    assert new_kid != old_kid
    assert new_token_kid(warden, es)[1] != old_es_kid, "rotation must renew every algorithm in use"
    jwks = warden.jwks()
    assert {old_kid, new_kid} <= {k["kid"] for k in jwks["keys"]}
    verify_jwt(before, jwks, ["RS256"])
    verify_jwt(after, jwks, ["RS256"])

    keys = {k["kid"]: k for k in signing_keys(warden)}
    for key in keys.values():
        assert KEY_FIELDS <= set(key), f"missing {KEY_FIELDS - set(key)} in {key}"
        assert "d" not in key["jwk"] and key["jwk"]["kid"] == key["kid"], key["jwk"]
        assert_iso_times(key, ("current_since", "revoked_at"))
    assert keys[new_kid]["current"] is True and keys[new_kid]["alg"] == "RS256"
    assert keys[old_kid]["current"] is False and keys[old_kid]["previous"] is True
    assert keys[old_kid]["revoked"] is False and keys[old_kid].get("revoked_at") is None
    assert sum(1 for k in keys.values() if k["current"] and k["alg"] == "RS256") == 1, "one current key per alg"
    one = json_of(expect_status(warden.mgmt("GET", f"keys/signing/{old_kid}"), 200))
    assert one["kid"] == old_kid and one["previous"] is True

    # revoke the previous RS256 key: it leaves the JWKS; the current one stays
    expect_status(warden.mgmt("PUT", f"keys/signing/{old_kid}/revoke"), 200)
    warden.forget_tokens()  # the cached Management token may have been signed with the revoked key
    kids = warden.jwks_kids()
    assert old_kid not in kids, f"revoked key {old_kid} still published"
    assert new_kid in kids
    revoked = json_of(expect_status(warden.mgmt("GET", f"keys/signing/{old_kid}"), 200))
    assert revoked["revoked"] is True and isinstance(revoked["revoked_at"], str), revoked
    assert_iso_times(revoked, ("revoked_at", "current_since"))
    # tokens keep working with the current key
    verify_jwt(warden.m2m_token(m2m), warden.jwks(), ["RS256"])


def test_unknown_kid_is_404(warden):
    r = warden.mgmt("GET", "keys/signing/no-such-kid")
    assert r.status_code == 404, r.text
    assert json_of(r)["statusCode"] == 404
