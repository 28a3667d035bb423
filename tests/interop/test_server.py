"""SPEC §1: health, readiness, Prometheus metrics, request ids, HTTPS with --tls-cert/--tls-key."""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import re
import secrets
import shutil
import tempfile
import time
import urllib.parse

import requests
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

import pytest

from cibalib import ciba_app, decide, poll, start_request
from pkcelib import LoginFailed, authorize_url, create_public_client, fake_callback, hosted_login, new_verifier
from wardenlib import HTTP_TIMEOUT, Warden, expect_status, json_of, wait_until


def test_health_and_readiness(warden):
    assert json_of(expect_status(warden.http.get(warden.url("healthz"), timeout=HTTP_TIMEOUT), 200))["status"] == "ok"
    assert json_of(expect_status(warden.http.get(warden.url("readyz"), timeout=HTTP_TIMEOUT), 200))["status"] == "ready"


def metric(text: str, name: str, **labels: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + "{") and all(f'{k}="{v}"' in line for k, v in labels.items()):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def test_metrics_count_requests_by_route_and_status_and_tokens_by_grant(warden):
    m2m = warden.m2m()
    before = expect_status(warden.http.get(warden.url("metrics"), timeout=HTTP_TIMEOUT), 200).text
    for _ in range(3):
        expect_status(warden.client_credentials(m2m.client_id, m2m.client_secret, m2m.audience), 200)
    expect_status(warden.client_credentials(m2m.client_id, "wrong", m2m.audience), 401)
    after = expect_status(warden.http.get(warden.url("metrics"), timeout=HTTP_TIMEOUT), 200)
    assert after.headers["Content-Type"].startswith("text/plain")
    text = after.text
    issued = "warden_tokens_issued_total"
    assert metric(text, issued, grant_type="client_credentials") - metric(before, issued,
                                                                          grant_type="client_credentials") == 3
    ok = dict(http_route="/oauth/token", http_response_status_code="200")
    assert metric(text, "hb_requests", **ok) - metric(before, "hb_requests", **ok) >= 3
    assert metric(text, "hb_requests", http_route="/oauth/token", http_response_status_code="401") >= 1
    assert re.search(r"^http_server_request_duration_bucket\{.*http_route=\"/oauth/token\"", text, re.M), \
        "no latency histogram for /oauth/token"


def test_metrics_an_operator_alerts_on(warden, smtp_sink):
    """README "Metrics": sign-ins by outcome, CIBA requests by outcome, deliveries by kind and outcome, the event
    log's queue and write latency, and the gauges sampled from storage (present from the first sample at start)."""
    def scrape() -> str:
        return expect_status(warden.http.get(warden.url("metrics"), timeout=HTTP_TIMEOUT), 200).text

    def delta(after: str, before: str, name: str, **labels: str) -> float:
        return metric(after, name, **labels) - metric(before, name, **labels)

    app = ciba_app(warden)
    client = create_public_client(warden, [fake_callback()])
    url = lambda: authorize_url(warden, client["client_id"], client["callbacks"][0],  # noqa: E731
                                verifier=new_verifier())
    before = scrape()
    with pytest.raises(LoginFailed):
        hosted_login(warden, url(), redirect_uri=client["callbacks"][0], email=app.user.email, password="wrong")
    hosted_login(warden, url(), redirect_uri=client["callbacks"][0], email=app.user.email,
                 password=app.user.password)
    after = scrape()
    assert delta(after, before, "warden_sign_ins_total", outcome="failure") == 1, after
    assert delta(after, before, "warden_sign_ins_total", outcome="success") == 1, after

    before = after
    approved, approved_form = start_request(warden, app)
    denied, denied_form = start_request(warden, app)
    for auth_req_id, form, action in ((approved, approved_form, "approve"), (denied, denied_form, "deny")):
        mail = smtp_sink.wait_for_mail(app.user.email, containing=form["binding_message"])
        decide(warden, mail.link(warden.issuer), app.user, action)
    expect_status(poll(warden, app, approved), 200)
    expect_status(poll(warden, app, denied), 400)
    after = wait_until(lambda: (lambda text: text if delta(text, before, "warden_deliveries_total", kind="ciba_mail",
                                                              outcome="sent") >= 2 else None)(scrape()),
                       timeout=5, what="two approval e-mails counted as sent")
    for outcome, count in (("started", 2), ("approved", 1), ("denied", 1), ("redeemed", 1), ("refused", 0)):
        assert delta(after, before, "warden_ciba_requests_total", outcome=outcome) == count, (outcome, after)

    for gauge in ("warden_ciba_pending_requests", "warden_ciba_expired_requests", "warden_event_log_queue_depth"):
        assert re.search(rf"^{gauge} \d", after, re.M), f"no {gauge} in /metrics"
    assert re.search(r'^warden_delivery_queue_depth\{kind="push"\} \d', after, re.M), "no push queue depth"
    assert re.search(r"^warden_event_log_write_seconds_count \d", after, re.M), "no event log write latency"
    # database statements by kind and table: a token request reads the client's grants, a CIBA request is inserted
    assert re.search(r'^warden_db_query_seconds_count\{statement="insert",table="ciba_requests"\} [1-9]', after,
                     re.M), "no insert of ciba_requests timed"
    assert re.search(r'^warden_db_query_seconds_bucket\{statement="select",table="[a-z_]+",le="[^"]+"\} \d', after,
                     re.M), "no select timed"

    # The example dashboard and the README name only metrics that exist (those counted by event appear with their
    # first: MFA's, federated and organization logins', passkey failures').
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    with open(os.path.join(root, "docs", "grafana-dashboard.json"), encoding="utf-8") as f:
        exprs = " ".join(t["expr"] for p in json.load(f)["panels"] for t in p["targets"])
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        section = f.read().split("\n## Metrics\n", 1)[1].split("\n## ", 1)[0]
    named = {re.sub(r"_(bucket|count|sum)$", "", name)
             for name in re.findall(r"\b((?:warden|hb|http_server)_[a-z_]+)", exprs + section)} - {
        "warden_mfa_total", "warden_federated_logins_total", "warden_organization_logins_total",
        "warden_passkey_failures_total"}
    served = {re.sub(r"_(bucket|count|sum)$", "", line.split("{")[0].split(" ")[0])
              for line in after.splitlines() if line and not line.startswith("#")}
    assert named - served == set(), f"named but not served: {sorted(named - served)}"


def test_every_response_carries_a_request_id(warden):
    a = warden.http.get(warden.url("healthz"), timeout=HTTP_TIMEOUT)
    b = warden.http.post(warden.token_endpoint, data={}, timeout=HTTP_TIMEOUT)
    assert a.headers.get("X-Request-Id") and b.headers.get("X-Request-Id")
    assert a.headers["X-Request-Id"] != b.headers["X-Request-Id"]


def self_signed(directory: str) -> tuple[str, str]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = os.path.join(directory, "cert.pem"), os.path.join(directory, "key.pem")
    with open(cert_path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    with open(key_path, "wb") as f:
        f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                  serialization.NoEncryption()))
    return cert_path, key_path


def test_https_with_tls_cert_and_key(warden):
    workdir = tempfile.mkdtemp(prefix="warden-tls-")
    cert, key = self_signed(workdir)
    node = Warden(binary=warden.binary, workdir=workdir, database_url=f"sqlite:{workdir}/tls.sqlite",
                  mgmt_client_id="tls-mgmt", mgmt_client_secret=secrets.token_urlsafe(36),
                  pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"))
    https = f"https://127.0.0.1:{node.port}/"
    node.env["WARDEN_TLS_CERT"], node.env["WARDEN_TLS_KEY"] = cert, key
    node.env["WARDEN_ISSUER"] = https
    try:
        node.start()
        for _ in range(300):
            try:
                if requests.get(https + "readyz", verify=cert, timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            assert node.alive(), node.output_tail()
            time.sleep(0.1)
        discovery = expect_status(requests.get(https + ".well-known/openid-configuration", verify=cert,
                                               timeout=HTTP_TIMEOUT), 200).json()
        assert discovery["issuer"] == https
        token = requests.post(https + "oauth/token", verify=cert, timeout=HTTP_TIMEOUT, data={
            "grant_type": "client_credentials", "client_id": "tls-mgmt", "client_secret": node.mgmt_client_secret,
            "audience": https + "api/v2/"})
        assert token.status_code == 200, token.text
        # plain HTTP on the TLS port is refused
        try:
            plain = requests.get(f"http://127.0.0.1:{node.port}/healthz", timeout=2)
            assert plain.status_code != 200
        except requests.RequestException:
            pass
    finally:
        node.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def test_log_lines_are_json_objects_with_a_utc_time(warden):
    """stdout (not a terminal) gets one JSON object per line: sorted keys, string values, an RFC 3339 UTC time
    with milliseconds, the level, the message, the logger and the metadata (here the start line's issuer and
    database, whose password is masked)."""
    lines = [line for line in warden.stdout_text().splitlines() if line.strip()]
    assert lines, "the server logged nothing on stdout"
    now = datetime.datetime.now(datetime.timezone.utc)
    records = []
    for line in lines:
        record = json.loads(line)
        assert isinstance(record, dict) and list(record) == sorted(record), line
        assert all(isinstance(value, str) for value in record.values()), line
        assert {"time", "level", "message", "logger"} <= set(record), line
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", record["time"]), line
        logged = datetime.datetime.strptime(record["time"], "%Y-%m-%dT%H:%M:%S.%fZ").replace(
            tzinfo=datetime.timezone.utc)
        assert abs((now - logged).total_seconds()) < 600, line
        records.append(record)
    started = [r for r in records if r["message"] == "Warden listening"]
    assert len(started) == 1 and started[0]["level"] == "info", lines
    assert started[0]["issuer"] == warden.issuer, started
    password = urllib.parse.urlsplit(warden.database_url).password
    assert started[0]["database"], started
    if password is not None:
        assert urllib.parse.urlsplit(started[0]["database"]).password == "***", started
