"""The first hour of a new user (issue 20): command-line errors a person understands, one log line per request,
and a `--demo` quick start whose every printed command runs as printed.

The CLI messages are checked to the letter: each names what the user set (the flag or the environment variable)
and says what to do. The request log is read from a server's stdout (JSON, since stdout is not a terminal): one
`request` line per request with the method, the route template, the status, the duration, the request id and
the client id once known, a `notice` line per security event, and never a secret, a code, a token or a
password. The quick start is run from a directory where `.build/` is the suite's build, so the printed
`.build/debug/warden …` lines are pasted as they are (in a shell).
"""

from __future__ import annotations

import html
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
from typing import Iterator

import pexpect
import pytest
import requests

from cibalib import CIBA_GRANT, decide, parse_mail
from pkcelib import User, hosted_login
from terminallib import PROMPT, TIMEOUT
from wardenlib import HTTP_TIMEOUT, Warden, default_binary, expect_status, free_port, json_of, wait_until

ALICE = User(user_id="", email="alice@example.com", password="correct horse battery staple", body={})


def run_warden(*args: str, env: dict[str, str] | None = None, cwd: str | None = None,
               timeout: float = 60) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("WARDEN_")}
    clean.update(env or {})
    return subprocess.run([default_binary(), *args], env=clean, cwd=cwd or tempfile.gettempdir(),
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout)


def closed_port() -> int:
    """A port nothing listens on (bound without listening would hold it; a free one is enough for a refusal)."""
    return free_port()


# ------------------------------------------------------------------------------------------------ CLI messages
@pytest.mark.parametrize("args, env, message", [
    (["serve", "--port", "99999"], {}, "Error: --port must be a whole number from 0 to 65535, got '99999'"),
    (["serve"], {"WARDEN_PORT": "99999"}, "Error: WARDEN_PORT must be a whole number from 0 to 65535, got '99999'"),
    (["serve"], {"WARDEN_PORT": "eighty"}, "Error: WARDEN_PORT must be a whole number from 0 to 65535, got 'eighty'"),
    (["serve"], {"WARDEN_DATABASE_URL": "foo"},
     "Error: WARDEN_DATABASE_URL must start with sqlite:, postgres:// or postgresql://, got 'foo'"),
    (["serve", "--database", "foo"], {},
     "Error: --database must start with sqlite:, postgres:// or postgresql://, got 'foo'"),
    (["migrate"], {"WARDEN_DATABASE_URL": "mysql://u:hunter2@db/x"},
     "Error: WARDEN_DATABASE_URL must start with sqlite:, postgres:// or postgresql://, got 'mysql://u:***@db/x'"),
    (["serve"], {"WARDEN_LOG_LEVEL": "verbose"},
     "Error: WARDEN_LOG_LEVEL must be one of trace, debug, info, notice, warning, error, critical, got 'verbose'"),
    (["serve", "--log-format", "xml"], {}, "Error: --log-format must be json or text, got 'xml'"),
    (["serve"], {"WARDEN_CACHE_TTL": "600"}, "Error: WARDEN_CACHE_TTL must be a number of seconds in (0, 60], got '600'"),
    (["serve", "--issuer", "ftp://x/"], {}, "Error: --issuer must be an http(s) URL without query or fragment, got 'ftp://x/'"),
])
def test_a_bad_setting_is_named_as_the_user_set_it(args, env, message):
    result = run_warden(*args, env=env)
    assert result.returncode != 0, result
    assert result.stderr.strip() == message, result.stderr
    assert "Usage:" not in result.stderr and "hunter2" not in result.stderr + result.stdout


def test_a_second_server_on_a_busy_port_says_so_in_one_line():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run_warden("serve", "--port", str(port), "--database", "sqlite::memory:")
    assert result.returncode != 0, result
    assert result.stderr.strip() == (
        f"Error: port {port} is already in use on 127.0.0.1 (another Warden?): stop it, or choose another port "
        "with --port or WARDEN_PORT"), result.stderr
    assert "listening" not in result.stdout + result.stderr


def test_an_unreachable_postgresql_names_its_host_and_port():
    port = closed_port()
    result = run_warden("migrate", "--database", f"postgres://warden:s3cret@127.0.0.1:{port}/warden?tlsmode=disable")
    assert result.returncode != 0, result
    assert result.stderr.strip() == (
        f"Error: Cannot reach PostgreSQL at 127.0.0.1:{port} (postgres://warden@127.0.0.1:{port}/warden?tlsmode=disable)"
        ": Connection refused. Is the server running there, and does --database / WARDEN_DATABASE_URL name it?"
    ), result.stderr
    assert "PSQLError" not in result.stderr and "s3cret" not in result.stderr


def test_serve_with_postgresql_down_says_one_sentence():
    """Issue 33: `warden serve` printed AsyncKit's raw `PSQLError … Opening new connection for pool failed` line
    before its own sentence; the pool is silent until the database first answered."""
    port = closed_port()
    result = run_warden("serve", "--port", str(closed_port()), "--database",
                        f"postgres://warden:s3cret@127.0.0.1:{port}/warden?tlsmode=disable")
    assert result.returncode != 0, result
    assert result.stdout.strip() == "" and result.stderr.strip().startswith(
        f"Error: Cannot reach PostgreSQL at 127.0.0.1:{port}"), (result.stdout, result.stderr)
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "PSQLError" not in result.stderr + result.stdout and "s3cret" not in result.stderr + result.stdout


def test_a_bracketed_ipv6_postgresql_host_is_parsed():
    """RFC 3986 §3.2.2: `[::1]` is the host ::1, not a name to resolve."""
    port = closed_port()
    result = run_warden("migrate", "--database", f"postgres://u:p@[::1]:{port}/db?tlsmode=disable")
    assert result.returncode != 0, result
    assert result.stderr.startswith(f"Error: Cannot reach PostgreSQL at [::1]:{port} (postgres://u@[::1]:{port}/db"), \
        result.stderr
    assert "resolve" not in result.stderr.lower(), result.stderr


def test_version_and_help():
    version = run_warden("--version")
    assert version.returncode == 0 and re.fullmatch(r"warden \d+\.\d+\.\d+\n", version.stdout), version
    serve = run_warden("serve", "--help").stdout
    for name in ("WARDEN_LOG_LEVEL", "WARDEN_LOG_FORMAT", "WARDEN_CACHE_TTL", "WARDEN_BOOTSTRAP_CLIENT_SECRET",
                 "--smtp-url", "--port", "--database"):
        assert name in serve, f"serve --help does not name {name}:\n{serve}"
    migrate = run_warden("migrate", "--help").stdout
    assert "--database" in migrate and "--log-level" in migrate, migrate
    for name in ("--smtp-url", "--port", "--apns-key-file", "--issuer"):
        assert name not in migrate, f"migrate --help lists serve's {name}:\n{migrate}"


# ------------------------------------------------------------------------------------------------ request logs
@pytest.fixture(scope="module")
def logged() -> Iterator[Warden]:
    """A server of its own, so its whole stdout (and its shutdown) can be read."""
    workdir = tempfile.mkdtemp(prefix="warden-logs-")
    node = Warden(binary=default_binary(), workdir=workdir, database_url=f"sqlite:{workdir}/warden.sqlite",
                  mgmt_client_id="logs-mgmt", mgmt_client_secret=secrets.token_urlsafe(36),
                  pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"))
    node.start()
    node.wait_ready()
    try:
        yield node
    finally:
        node.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def records(node: Warden) -> list[dict]:
    return [json.loads(line) for line in node.stdout_text().splitlines() if line.strip()]


def request_lines(node: Warden, request_id: str) -> list[dict]:
    return [r for r in records(node) if r.get("message") == "request" and r.get("hb.request.id") == request_id]


def test_one_line_per_request_with_its_fields_and_no_secret(logged):
    node = logged
    secret = node.mgmt_client_secret
    ok = requests.post(node.token_endpoint, timeout=HTTP_TIMEOUT, data={
        "grant_type": "client_credentials", "client_id": node.mgmt_client_id, "client_secret": secret,
        "audience": node.mgmt_audience})
    token = json_of(expect_status(ok, 200))["access_token"]
    bad = requests.post(node.token_endpoint, timeout=HTTP_TIMEOUT, auth=(node.mgmt_client_id, "wrong-" + secret),
                        data={"grant_type": "client_credentials", "audience": node.mgmt_audience})
    expect_status(bad, 401)
    listed = expect_status(requests.get(node.mgmt_base + "/clients", timeout=HTTP_TIMEOUT,
                                        headers={"Authorization": f"Bearer {token}"}), 200)
    code = "c0de" + secrets.token_urlsafe(24)
    page = requests.get(node.url(f"u/ciba/{code}?x=sensitive"), timeout=HTTP_TIMEOUT)
    expect_status(page, 404)

    lines = {}
    for name, response in [("ok", ok), ("bad", bad), ("listed", listed), ("page", page)]:
        found = wait_until(lambda: request_lines(node, response.headers["X-Request-Id"]), timeout=5,
                           what=f"the request line of {name}")
        assert len(found) == 1, found
        lines[name] = found[0]
    for line in lines.values():
        assert line["level"] == "info" and float(line["duration_ms"]) >= 0, line
    assert {k: lines["ok"][k] for k in ("method", "route", "status", "client_id")} == {
        "method": "POST", "route": "/oauth/token", "status": "200", "client_id": node.mgmt_client_id}, lines["ok"]
    assert (lines["bad"]["status"], lines["bad"]["route"]) == ("401", "/oauth/token"), lines["bad"]
    assert (lines["listed"]["route"], lines["listed"]["client_id"]) == ("/api/v2/clients", node.mgmt_client_id)
    assert (lines["page"]["route"], lines["page"]["status"]) == ("/u/ciba/{token}", "404"), lines["page"]
    log = node.stdout_text()
    for leaked in (secret, token, code, "sensitive"):
        assert leaked not in log, f"the log carries {leaked[:12]}…"


def test_security_events_and_shutdown_are_logged(logged):
    node = logged
    user_id = json_of(expect_status(node.mgmt("POST", "users", json={
        "email": f"log-{secrets.token_hex(4)}@example.com", "password": "a long enough password 1",
        "connection": "Username-Password-Authentication"}), 201))["user_id"]
    client = node.create_client(name="log app", app_type="spa", token_endpoint_auth_method="none",
                                grant_types=["authorization_code"], callbacks=["http://127.0.0.1:1/cb"])
    from pkcelib import authorize_url, LoginFailed, new_verifier
    email = json_of(node.mgmt("GET", f"users/{user_id}"))["email"]
    with pytest.raises(LoginFailed):
        hosted_login(node, authorize_url(node, client["client_id"], "http://127.0.0.1:1/cb", verifier=new_verifier()),
                     redirect_uri="http://127.0.0.1:1/cb", email=email, password="the wrong password")
    failed = wait_until(lambda: [r for r in records(node) if r.get("type") == "fp"], timeout=5,
                        what="the failed sign-in's notice line")
    assert failed[0]["level"] == "notice" and failed[0]["user_id"] == user_id, failed
    assert "the wrong password" not in node.stdout_text()

    rotated = expect_status(node.mgmt("POST", "keys/signing/rotate"), 201)
    kid = json_of(rotated)["kid"]
    assert wait_until(lambda: [r for r in records(node) if r.get("message") == "signing keys rotated"
                               and kid in r.get("kids", "")], timeout=5, what="the rotation line")

    node.process.send_signal(signal.SIGINT)
    node.process.wait(timeout=30)
    assert any(r.get("message") == "Warden stopped" for r in records(node)), node.output_tail()


# ------------------------------------------------------------------------------------------- the quick start
@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[Warden, str, str]]:
    """`warden serve --demo` started from a directory whose `.build` is the suite's, with its outbox folder there:
    yields the server, its quick start (stderr) and that directory."""
    home = tempfile.mkdtemp(prefix="warden-quickstart-")
    binary = os.path.abspath(default_binary())
    os.symlink(binary[:binary.index("/.build/") + len("/.build")], os.path.join(home, ".build"))
    node = Warden(binary=default_binary(), workdir=home, database_url=f"sqlite:{home}/warden.sqlite",
                  mgmt_client_id="quickstart-mgmt", mgmt_client_secret=secrets.token_urlsafe(36),
                  pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"))
    argv = [default_binary(), "serve", "--demo", "--port", str(node.port), "--database", node.database_url]
    with open(node.stdout_path, "ab") as out, open(node.stderr_path, "ab") as err:
        node.process = subprocess.Popen(argv, cwd=home, env=node.env, stdin=subprocess.DEVNULL, stdout=out,
                                        stderr=err, start_new_session=True)
    try:
        node.wait_ready()
        printed = wait_until(lambda: "Warden Management client" in node.stderr_text() and node.stderr_text(),
                             timeout=10, what="the quick start")
        yield node, printed, home
    finally:
        node.stop()
        shutil.rmtree(home, ignore_errors=True)


def printed_line(printed: str, pattern: str) -> str:
    found = re.search(r"^│\s+(" + pattern + r".*)$", printed, re.M)
    assert found, f"no printed line {pattern!r}:\n{printed}"
    return found.group(1).strip()


def shell(command: str, home: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("WARDEN_")}
    clean.update(env or {})
    return subprocess.run(command, shell=True, cwd=home, env=clean, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=TIMEOUT)


def test_the_management_client_is_printed_last(demo):
    node, printed, _ = demo
    boxes = [line for line in printed.splitlines() if line.startswith("┌")]
    assert boxes[-1] == f"┌ Warden Management client: {node.mgmt_client_id}", boxes
    token_line = printed.split("┌ Warden Management client")[-1]
    assert "token: curl" in token_line and "$SECRET" in token_line, token_line


def test_the_printed_login_and_the_callback_page_redeem_as_printed(demo):
    node, printed, home = demo
    url = re.search(r"open:\s+(\S+)", printed).group(1)
    callback = node.url("demo/callback")
    landed = hosted_login(node, url, redirect_uri=callback, email=ALICE.email, password=ALICE.password)
    page = requests.get(landed.url, timeout=HTTP_TIMEOUT).text
    curl = html.unescape(re.search(r"<code>(curl [^<]+)</code>", page).group(1))
    assert "VERIFIER" not in curl and "code_verifier=" in curl, curl
    tokens = json.loads(shell(curl, home).stdout)
    assert tokens["token_type"] == "Bearer" and tokens["id_token"] and tokens["refresh_token"], tokens
    # the same line again: the code is used up
    assert json.loads(shell(curl, home).stdout)["error"] == "invalid_grant"


def test_the_printed_ciba_lines_get_a_token_the_bank_api_accepts(demo):
    node, printed, home = demo
    start = printed_line(printed, r"curl -s \S+bc-authorize .*requested_expiry=3600")
    started = json.loads(shell(start, home).stdout)
    auth_req_id = started["auth_req_id"]
    outbox = os.path.join(home, "warden-mail")
    # Only finished messages: the outbox writes `.NAME.eml.tmp` and then renames it to `NAME.eml`.
    mails = wait_until(lambda: sorted(n for n in os.listdir(outbox) if n.endswith(".eml") and not n.startswith("."))
                       or None if os.path.isdir(outbox) else None, timeout=10,
                       what="the approval e-mail in the outbox folder")
    mail = parse_mail(os.path.join(outbox, mails[-1]))
    assert "Amount:" in mail.text and "2500 USD" in mail.text and "Beneficiary:" in mail.text, mail.text
    decide(node, mail.link(node.issuer), ALICE, "approve")
    poll_lines = printed[printed.index(start):].split("\n")[1:3]
    poll = " ".join(line.strip("│ \\") for line in poll_lines).replace("AUTH_REQ_ID", auth_req_id)
    tokens = json.loads(shell(poll, home).stdout)
    assert set(tokens["scope"].split()) >= {"openid", "transfer:funds"}, tokens
    assert tokens["authorization_details"][0]["instructedAmount"] == {"amount": 2500, "currency": "USD"}, tokens


def test_the_printed_terminal_and_agent_commands_run_as_printed(demo):
    node, printed, home = demo
    enroll = printed_line(printed, r"\S*warden authenticator enroll ")
    listen = printed_line(printed, r"\S*warden authenticator listen")
    assert enroll.startswith(".build/debug/warden ") and listen.startswith(".build/debug/warden "), (enroll, listen)
    env = {"WARDEN_AUTHENTICATOR_HOME": os.path.join(home, "alice-terminal")}
    assert shell(enroll, home, env).returncode == 0
    api = printed_line(printed, r"\S*protected-api ")
    agent = printed_line(printed, r"WARDEN_CLIENT_SECRET=")
    api_port = free_port()
    api_process = subprocess.Popen(shlex.split(api) + ["--port", str(api_port)], cwd=home, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    terminal = pexpect.spawn("/bin/sh", ["-c", listen], cwd=home, env={**os.environ, **env}, encoding="utf-8",
                             timeout=TIMEOUT, dimensions=(60, 200))
    try:
        terminal.expect_exact("Listening for requests")
        runner = pexpect.spawn("/bin/sh", ["-c", agent + f" --api http://127.0.0.1:{api_port}/"], cwd=home,
                               encoding="utf-8", timeout=TIMEOUT)
        terminal.expect(r"Amount:\s+2500 USD")
        terminal.expect_exact(PROMPT)
        terminal.sendline("y")
        runner.expect_exact("Transfer of 2500 USD to Hanna Herwitz done.")
        runner.expect(pexpect.EOF)
    finally:
        terminal.close(force=True)
        api_process.terminate()
        api_process.wait(timeout=10)


def test_the_printed_mcp_server_command_runs_as_printed(demo):
    """The quick start's mcp-bank line (SPEC §13): as printed, it serves MCP at the demo's resource URL, whose
    RFC 9728 metadata names this Warden, and challenges a request without a token."""
    node, printed, home = demo
    command = printed_line(printed, r"WARDEN_CLIENT_SECRET=\S+ \S*mcp-bank ")
    resource = re.search(r"MCP server at (http://\S+):", printed).group(1)
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", 9091)) == 0:
            pytest.skip("port 9091, the demo's MCP server address, is in use")
    server = subprocess.Popen(command, shell=True, cwd=home, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                              start_new_session=True)
    try:
        metadata_url = resource.replace("/mcp", "/.well-known/oauth-protected-resource/mcp")

        def metadata():
            try:
                return requests.get(metadata_url, timeout=HTTP_TIMEOUT).json()
            except requests.RequestException:
                return None

        document = wait_until(metadata, timeout=30, step=0.2, what="mcp-bank's metadata")
        assert document["resource"] == resource and document["authorization_servers"] == [node.issuer], document
        r = requests.post(resource, json={}, timeout=HTTP_TIMEOUT)
        assert r.status_code == 401 and f'resource_metadata="{metadata_url}"' in r.headers["WWW-Authenticate"]
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)


@pytest.mark.parametrize("label", ["Discovery:", "JWKS:", "Health:"])
def test_the_printed_curl_lines_answer(demo, label):
    node, printed, home = demo
    line = re.search(r"^[│└]\s+" + label + r"\s+(curl .*)$", printed, re.M).group(1)
    result = shell(line, home)
    assert result.returncode == 0 and json.loads(result.stdout), result
