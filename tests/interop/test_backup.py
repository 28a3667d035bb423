"""Issue 33 "Backups": `warden backup FILE` copies a SQLite database a server is writing to, consistently, and
`warden restore FILE --database sqlite:NEW` makes a new database of it that Warden serves, holding every write the
server acknowledged before the backup began. And a database a newer release migrated is refused, naming both
schema versions, rather than served by an older Warden."""

from __future__ import annotations

import secrets
import sqlite3
import subprocess
import threading
import time

import requests

from wardenlib import HTTP_TIMEOUT, Warden, default_binary, expect_status, json_of, uid


def cli(*args: str, cwd: str) -> subprocess.CompletedProcess:
    return subprocess.run([default_binary(), *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "WARDEN_LOG_LEVEL": "warning"})


def start(tmp_path, database: str) -> Warden:
    workdir = tmp_path / f"node-{uid()}"
    workdir.mkdir()
    node = Warden(binary=default_binary(), workdir=str(workdir), database_url=database,
                  mgmt_client_id="backup-mgmt", mgmt_client_secret="backup-mgmt-secret-0123456789abcdef0123")
    node.start()
    node.wait_ready(timeout=60)
    return node


def test_a_backup_under_write_load_restores_every_acknowledged_write(tmp_path):
    source = tmp_path / "live.sqlite"
    node = start(tmp_path, f"sqlite:{source}")
    acknowledged: list[tuple[float, str]] = []
    stop = threading.Event()

    def write() -> None:
        http = requests.Session()
        http.headers["Authorization"] = f"Bearer {node.mgmt_token()}"
        while not stop.is_set():
            r = http.post(node.mgmt_base + "/users", timeout=HTTP_TIMEOUT, json={
                "email": f"load-{uid()}@backup.test", "password": f"Load-{secrets.token_urlsafe(8)}-9aA!",
                "connection": "Username-Password-Authentication"})
            if r.status_code == 201:
                acknowledged.append((time.monotonic(), r.json()["user_id"]))

    writers = [threading.Thread(target=write) for _ in range(2)]
    try:
        for thread in writers:
            thread.start()
        time.sleep(3)
        began = time.monotonic()
        before = [user for at, user in list(acknowledged) if at < began]
        backup = cli("backup", str(tmp_path / "copy.sqlite"), "--database", f"sqlite:{source}", cwd=str(tmp_path))
        ended = time.monotonic()
        time.sleep(1)
    finally:
        stop.set()
        for thread in writers:
            thread.join()
        node.stop()
    assert backup.returncode == 0, backup.stderr
    assert "Backed up to" in backup.stderr and "warden restore" in backup.stderr, backup.stderr
    assert len(before) > 20, f"only {len(before)} writes before the backup: no load"
    # Writers were not held: they kept being acknowledged around the backup.
    during = [at for at, _ in acknowledged if began <= at <= ended + 1]
    assert during, "no write was acknowledged while the backup ran or within a second after it"

    restored = tmp_path / "restored.sqlite"
    result = cli("restore", str(tmp_path / "copy.sqlite"), "--database", f"sqlite:{restored}", cwd=str(tmp_path))
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(restored) as db:
        present = {row[0] for row in db.execute("SELECT user_id FROM users")}
    missing = [user for user in before if user not in present]
    assert not missing, f"{len(missing)} of {len(before)} acknowledged users missing from the backup: {missing[:5]}"

    again = start(tmp_path, f"sqlite:{restored}")
    try:
        user = json_of(expect_status(again.mgmt("GET", f"users/{before[-1]}"), 200))
        assert user["user_id"] == before[-1]
    finally:
        again.stop()
    # Restore writes only new databases.
    refused = cli("restore", str(tmp_path / "copy.sqlite"), "--database", f"sqlite:{restored}", cwd=str(tmp_path))
    assert refused.returncode != 0 and "exists and is not empty" in refused.stderr, refused.stderr


def test_a_database_of_a_newer_release_is_refused_naming_the_versions(tmp_path):
    database = tmp_path / "newer.sqlite"
    assert cli("migrate", "--database", f"sqlite:{database}", cwd=str(tmp_path)).returncode == 0
    with sqlite3.connect(database) as db:
        (known,) = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()
        db.execute("INSERT INTO schema_migrations (version, applied_at) VALUES (?, 0)", (known + 1,))
    for command in (["serve", "--port", "0"], ["migrate"]):
        result = cli(*command, "--database", f"sqlite:{database}", cwd=str(tmp_path))
        assert result.returncode != 0, result
        assert result.stderr.strip() == (
            f"Error: The database's schema is at version {known + 1}, newer than this Warden knows ({known}): run "
            "the Warden release that migrated it, or restore a backup made before the upgrade."), result.stderr
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT MAX(version) FROM schema_migrations").fetchone() == (known + 1,), "left untouched"


def test_backup_refuses_what_it_cannot_copy(tmp_path):
    missing = cli("backup", str(tmp_path / "x.sqlite"), "--database", f"sqlite:{tmp_path}/nothing.sqlite",
                  cwd=str(tmp_path))
    assert missing.returncode != 0 and "nothing to back up" in missing.stderr, missing.stderr
    postgres = cli("backup", str(tmp_path / "x.sqlite"), "--database", "postgres://u:p@127.0.0.1:1/db",
                   cwd=str(tmp_path))
    assert postgres.returncode != 0 and "Cannot reach PostgreSQL" in postgres.stderr, postgres.stderr
    bogus = tmp_path / "bogus.sqlite"
    bogus.write_bytes(b"not a database at all" * 100)
    refused = cli("restore", str(bogus), "--database", f"sqlite:{tmp_path}/new.sqlite", cwd=str(tmp_path))
    assert refused.returncode != 0 and refused.stderr.startswith("Error: "), refused.stderr
