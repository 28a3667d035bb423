"""Bulk users (SPEC §9 "Bulk users"): users whose bcrypt hashes were made elsewhere — by Python's `bcrypt`, with the
`$2a$`, `$2b$` and `$2y$` prefixes other platforms write — are imported through the Management API job and through
`warden users import`, then sign in at the hosted login page with their original passwords."""

from __future__ import annotations

import json
import os
import time

import bcrypt

from pkcelib import LoginFailed, authorize_url, create_public_client, fake_callback, hosted_login, new_verifier
from wardenlib import Warden, expect_status, json_of, uid


def hashed(password: str, prefix: bytes) -> str:
    """A bcrypt hash of `password` by Python's bcrypt, written with `prefix` (the three compute the same for an
    ASCII password of at most 72 bytes; `$2y$` is PHP's name, `$2a$` the one older libraries write)."""
    digest = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds=4, prefix=b"2b"))
    return (prefix + digest[4:]).decode()


def users_file(tag: str) -> tuple[list[dict], dict[str, str]]:
    """Three users with a hash each (one per prefix, the last as custom_password_hash) and one malformed entry."""
    passwords = {f"{name}-{tag}@interop.test": f"Original-{name}-{uid()}" for name in ("ada", "bob", "cyd")}
    (ada, a_pw), (bob, b_pw), (cyd, c_pw) = passwords.items()
    entries = [
        {"email": ada, "password_hash": hashed(a_pw, b"$2a$"), "user_metadata": {"lang": "de"}},
        {"email": "not-an-address", "password_hash": hashed("whatever-1", b"$2b$")},
        {"email": bob, "password_hash": hashed(b_pw, b"$2y$"), "name": "Bob", "app_metadata": {"plan": "gold"}},
        {"email": cyd, "custom_password_hash": {"algorithm": "bcrypt", "hash": {"value": hashed(c_pw, b"$2b$")}}},
    ]
    return entries, passwords


def signs_in(warden: Warden, email: str, password: str) -> bool:
    """Whether the hosted login accepts `password` for `email` (an authorization code comes back)."""
    callback = fake_callback()
    client = create_public_client(warden, [callback])
    try:
        result = hosted_login(warden, authorize_url(warden, client["client_id"], callback, verifier=new_verifier()),
                              redirect_uri=callback, email=email, password=password)
    except LoginFailed:
        return False
    return "code" in result.params


def wait_for_job(warden: Warden, job_id: str, timeout: float = 30) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = json_of(expect_status(warden.mgmt("GET", f"jobs/{job_id}"), 200))
        if job["status"] in ("completed", "failed"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not end in {timeout} s")


def test_management_api_import_then_sign_in_with_the_original_passwords(warden: Warden):
    entries, passwords = users_file(uid())
    created = json_of(expect_status(warden.mgmt(
        "POST", "jobs/users-imports",
        files={"users": ("users.json", json.dumps(entries), "application/json")},
        data={"connection_id": "con_UsernamePasswordAuthentication", "upsert": "false"}), 201))
    assert created["type"] == "users_import" and created["status"] == "pending", created
    assert created["id"].startswith("job_"), created

    job = wait_for_job(warden, created["id"])
    assert job["status"] == "completed", job
    assert job["summary"] == {"inserted": 3, "updated": 0, "failed": 1, "total": 4}, job
    errors = json_of(expect_status(warden.mgmt("GET", f"jobs/{created['id']}/errors"), 200))
    assert [e["index"] for e in errors] == [1], errors
    assert errors[0]["errors"][0]["code"] == "INVALID_FORMAT" and errors[0]["errors"][0]["path"] == "email", errors

    for email, password in passwords.items():
        assert signs_in(warden, email, password), f"{email} should sign in with the original password"
    email = next(iter(passwords))
    assert not signs_in(warden, email, "not-the-original-password")


def test_cli_import_then_sign_in_with_the_original_passwords(warden: Warden, tmp_path):
    entries, passwords = users_file(uid())
    path = tmp_path / "users.json"
    path.write_text(json.dumps(entries))
    result = warden.cli("users", "import", str(path), check=False)
    assert result.returncode == 1, f"one entry is malformed: exit 1\n{result.stdout}\n{result.stderr}"
    assert "3 inserted" in result.stdout and "1 failed" in result.stdout, result.stdout
    assert "entry 1: INVALID_FORMAT email" in result.stderr, result.stderr

    for email, password in passwords.items():
        assert signs_in(warden, email, password), f"{email} should sign in with the original password"

    again = warden.cli("users", "import", str(path), "--upsert", check=False)
    assert "0 inserted, 3 updated, 1 failed" in again.stdout, again.stdout

    exported = tmp_path / "export.ndjson"
    warden.cli("users", "export", str(exported))
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    by_email = {line.get("email"): line for line in lines}
    assert set(passwords) <= set(by_email), "every imported user is exported"
    assert all("password_hash" not in line for line in lines), "hashes are never exported"
    assert os.path.getsize(exported) > 0
