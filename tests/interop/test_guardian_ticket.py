"""SPEC §7.1: an enrolment ticket's hosted page shows a QR code of the `otpauth://` enrolment URI. The served
SVG is decoded by a third-party decoder (zxing-cpp, through scripts/test-support/qr-decode.py) and must give back exactly the
URI the page prints, in the SPEC's format."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import tempfile
from urllib.parse import parse_qs, unquote, urlsplit

import requests

from pkcelib import create_user
from wardenlib import HTTP_TIMEOUT, expect_status, json_of

REPO = os.path.join(os.path.dirname(__file__), "..", "..")


def decode_qr(svg: str) -> str:
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "ticket.svg")
        with open(path, "w", encoding="utf-8") as f:
            f.write(svg)
        result = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "test-support", "qr-decode.py"), path],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    import json
    return json.loads(result.stdout.strip())


def test_the_ticket_page_qr_code_decodes_to_the_enrolment_uri(warden):
    user = create_user(warden)
    ticket = json_of(expect_status(warden.mgmt("POST", "guardian/enrollments/ticket",
                                               json={"user_id": user.user_id}), 200))
    assert set(ticket) == {"ticket_id", "ticket_url"}
    page = requests.get(ticket["ticket_url"], timeout=HTTP_TIMEOUT)
    assert page.status_code == 200
    svg = re.search(r"<svg.*?</svg>", page.text, re.S).group(0)
    shown = html.unescape(re.search(r"<code>(otpauth://[^<]+)</code>", page.text).group(1))
    decoded = decode_qr(svg)
    assert decoded == shown

    parts = urlsplit(decoded)
    assert parts.scheme == "otpauth" and parts.netloc == "totp"
    assert unquote(parts.path) == f"/Warden:{user.email}"
    query = {k: v[0] for k, v in parse_qs(parts.query, strict_parsing=True).items()}
    assert re.fullmatch(r"[A-Z2-7]{32}", query["secret"])
    assert query["enrollment_tx_id"] == ticket["ticket_id"]
    assert query["issuer"] == "Warden"
    assert query["id"].startswith("dev_")
    assert query["base_url"] == warden.issuer
    assert (query["algorithm"], query["digits"], query["counter"], query["period"]) == ("sha1", "6", "0", "30")


def test_an_unknown_ticket_page_is_404(warden):
    r = requests.get(warden.url("u/guardian/enroll?ticket=unknown"), timeout=HTTP_TIMEOUT)
    assert r.status_code == 404
    assert "Ask your administrator for a new one." in r.text
