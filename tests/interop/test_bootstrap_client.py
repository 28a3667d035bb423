"""SPEC §1, §9, §11: the bootstrap management client cannot be deleted, changed or rotated through the Management
API it authorizes (403 `operation_not_allowed`); `warden bootstrap rotate-secret` rotates its secret, printed once
on stderr, and refuses while WARDEN_BOOTSTRAP_CLIENT_SECRET is set. Runs on a node of its own (its own management
client), so the session server's credentials stay as they are."""

from __future__ import annotations

import re
import subprocess

from wardenlib import default_binary, expect_status, json_of, own_node, uid, wait_until


def assert_not_allowed(response) -> None:
    assert response.status_code == 403, response.text
    body = json_of(response)
    assert body["statusCode"] == 403 and body["error"] == "Forbidden", body
    assert body["errorCode"] == "operation_not_allowed", body


def test_the_api_cannot_touch_its_own_client_and_the_cli_rotates_it():
    with own_node(binary=default_binary(), mgmt_client_id=f"bootstrap-{uid()}", prefix="warden-bootstrap-") as node:
        path = f"clients/{node.mgmt_client_id}"
        assert_not_allowed(node.mgmt("DELETE", path))
        assert_not_allowed(node.mgmt("PATCH", path, json={"name": "taken over"}))
        assert_not_allowed(node.mgmt("POST", f"{path}/rotate-secret"))
        assert json_of(expect_status(node.mgmt("GET", path), 200))["name"] == "Warden Management"

        refused = node.cli("bootstrap", "rotate-secret", check=False)
        assert refused.returncode != 0
        assert "WARDEN_BOOTSTRAP_CLIENT_SECRET" in refused.stderr

        env = {k: v for k, v in node.env.items() if k != "WARDEN_BOOTSTRAP_CLIENT_SECRET"}
        rotated = subprocess.run([node.binary, "bootstrap", "rotate-secret", "--database", node.database_url],
                                 cwd=node.workdir, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                 timeout=120)
        assert rotated.returncode == 0, rotated.stderr
        match = re.search(r"client_secret:\s+(\S+)", rotated.stderr)
        assert match, rotated.stderr
        assert match.group(1) not in rotated.stdout
        new_secret = match.group(1)
        assert new_secret != node.mgmt_client_secret

        def status(secret: str) -> int:
            return node.client_credentials(node.mgmt_client_id, secret, node.mgmt_audience).status_code

        wait_until(lambda: status(node.mgmt_client_secret) == 401, timeout=10, what="the old secret refused")
        assert status(new_secret) == 200
