"""The README's "Walkthrough: approve a money transfer from your terminal" (issue 7), run as the README writes it.

The commands come from the README's code blocks marked `<!-- walkthrough: NAME -->`, so the README cannot drift
from what works: `.build/debug/X` becomes the built binary next to WARDEN_BIN, the placeholders (ENROLMENT_LINK,
CIBA_SECRET, ALICE_USER_ID) become what this run's quick start printed, and the ports are this run's (the
server's `--port`/`--database`, the examples' `--issuer`/`--api`/`--port` are appended). `warden serve --demo`
runs on a free port and a SQLite file in a temp dir; alice's terminal authenticator is enrolled with the
printed command and answers in a pseudo-terminal (pexpect); protected-api and ciba-agent are the examples under
Examples/. Also: the API's refusals (RFC 6750 §3, RFC 9396), and native-to-web's URL and cookie opening the web
app logged in from the same IP address.

The module asks alice for five CIBA approvals in well under a minute: the most SPEC §6.1's per-user limit allows.

With WARDEN_WALKTHROUGH_FIRST_SCREEN=1 (CI, on its fresh clone) the module starts as a newcomer does, in the
checkout: the README's first screen run as written (`swift run warden serve --demo`), a sign-in of the demo user
with the printed login URL and the curl line of `/demo/callback`, then the walkthrough with the checkout's
`.build/debug/` (after its `swift build`, which adds the examples). The build is the suite's own, made once before
(`swift build --build-tests` compiles what the first screen's `swift run` and `swift build` would): they only
link. It prints the times from the first screen's command to a signed-in demo user and to the walkthrough's
approved transfer.
"""

from __future__ import annotations

import contextlib
import html
import io
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import Iterator
from urllib.parse import parse_qs, urlencode, urlsplit

import pexpect
import pytest
import requests
from pexpect.popen_spawn import PopenSpawn

from cibalib import CIBA_GRANT, login_hint
from pkcelib import code_exchange, hosted_login, new_verifier, s256
from terminallib import PROMPT, TIMEOUT
from wardenlib import HTTP_TIMEOUT, Warden, default_binary, expect_status, free_port, json_of, wait_until

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(REPO, "README.md")
BLOCK = re.compile(r"<!-- walkthrough: ([\w-]+) -->\s*```sh\n(.*?)```", re.S)
BUILD_DIR = ".build/debug/"
FIRST_SCREEN_RUN = os.environ.get("WARDEN_WALKTHROUGH_FIRST_SCREEN") == "1"
FIRST_SCREEN = re.compile(r"```sh\n(swift run [^\n#]*?)\s+#")
API = "https://api.example.com"
ALICE = "alice@example.com"
ALICE_PASSWORD = "correct horse battery staple"
BINDING_MESSAGE = "Transfer 2500 USD to Hanna Herwitz"
TRANSFER = {"type": "money_transfer", "instructedAmount": {"amount": 2500, "currency": "USD"},
            "beneficiary": "Hanna Herwitz"}


def first_screen_command() -> list[str]:
    """The README's first command: the one that builds and starts the server with demo data."""
    with open(README) as f:
        found = FIRST_SCREEN.search(f.read())
    assert found, "the README's first screen has no `swift run …` command"
    return shlex.split(found.group(1))


@dataclass
class Build:
    """Where the README's `.build/debug/` is and where its commands run; the times of a first-screen run."""

    bin_dir: str
    cwd: str | None
    started: float
    times: dict[str, float]


def report(build: Build, what: str) -> None:
    build.times[what] = time.monotonic() - build.started
    print(f"\nfirst hour: {what} {build.times[what]:.0f} s after the first screen's command", flush=True)


@pytest.fixture(scope="module")
def build() -> Iterator[Build]:
    """The tested build (`.build/debug` of the suite); with WARDEN_WALKTHROUGH_FIRST_SCREEN=1 the checkout's,
    started by the README's first screen as written, and a signed-in demo user through what it printed."""
    if not FIRST_SCREEN_RUN:
        yield Build(bin_dir=os.path.dirname(default_binary()), cwd=None, started=time.monotonic(), times={})
        return
    scratch = tempfile.mkdtemp(prefix="warden-first-screen-")
    started = time.monotonic()
    build = Build(bin_dir=os.path.join(REPO, ".build/debug"), cwd=REPO, started=started, times={})
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("WARDEN_")}
    env.update(WARDEN_PORT=str(port), WARDEN_DATABASE_URL=f"sqlite:{scratch}/first-screen.sqlite")
    log = os.path.join(scratch, "first-screen.log")
    with open(log, "wb") as out:
        server = subprocess.Popen(first_screen_command(), cwd=REPO, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}/"
        def serving() -> bool:
            assert server.poll() is None, f"the first screen's command stopped:\n{open(log).read()[-3000:]}"
            return _ready(base)

        wait_until(serving, timeout=3600, step=2, what="the first screen's server ready")
        report(build, "first screen: built and serving")
        printed = open(log).read()
        login_url = re.search(r"open:\s+(\S+)", printed).group(1)
        landed = hosted_login(None, login_url, redirect_uri=base + "demo/callback", email=ALICE,
                              password=ALICE_PASSWORD)
        page = requests.get(landed.url, timeout=HTTP_TIMEOUT)
        curl = html.unescape(re.search(r"<code>(curl [^<]+)</code>", page.text).group(1))
        redeemed = subprocess.run(curl, shell=True, capture_output=True, text=True, timeout=TIMEOUT)
        tokens = json.loads(redeemed.stdout)
        assert tokens.get("access_token") and tokens.get("id_token"), redeemed
        report(build, "demo user signed in")
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=60)
    yield build
    print(f"\nfirst hour: {json.dumps({k: round(v) for k, v in build.times.items()})}", flush=True)
    shutil.rmtree(scratch, ignore_errors=True)


def _ready(base: str) -> bool:
    try:
        return requests.get(base + "readyz", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def walkthrough_blocks() -> dict[str, list[list[str]]]:
    """The README's marked blocks: name → its commands, each split as a shell would (comments dropped)."""
    with open(README) as f:
        text = f.read()
    blocks = {}
    for name, body in BLOCK.findall(text):
        lines = body.replace("\\\n", " ").splitlines()
        blocks[name] = [words for words in (shlex.split(line, comments=True) for line in lines) if words]
    return blocks


class DemoWarden(Warden):
    """`warden serve --demo` started with the README's own command line, on this run's port and database."""

    def __init__(self, command: list[str], cwd: str | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.command = command
        self.cwd = cwd or self.workdir

    def start(self) -> None:
        argv = [*self.command, "--port", str(self.port), "--database", self.database_url]
        with open(self.stdout_path, "ab") as out, open(self.stderr_path, "ab") as err:
            self.process = subprocess.Popen(argv, cwd=self.cwd, env=self.env, stdin=subprocess.DEVNULL,
                                            stdout=out, stderr=err, start_new_session=True)
        if self.pid_dir:  # scripts/test stops it should pytest be killed
            with open(os.path.join(self.pid_dir, f"warden-{self.process.pid}"), "w") as f:
                f.write(f"{self.process.pid}\n{self.workdir}\n")

    def quick_start(self, pattern: str) -> str:
        """What the quick start (stderr) printed for `pattern`'s group."""
        found = wait_until(lambda: re.search(pattern, self.stderr_text()), timeout=30, what=f"{pattern!r} printed")
        return found.group(1)


@dataclass
class Walkthrough:
    """The running story: the server, the printed values, alice's enrolled terminal and the bank API."""

    warden: DemoWarden
    build: Build
    blocks: dict[str, list[list[str]]]
    placeholders: dict[str, str]
    env: dict[str, str]  # the README's exports and alice's authenticator home
    api_url: str
    api_log: str

    def command(self, block: str, index: int = 0, *extra: str) -> list[str]:
        """The README's command `index` of `block` with the binaries, placeholders and `extra` options of this run."""
        words = [self.substitute(word) for word in self.blocks[block][index]]
        assert words[0].startswith(BUILD_DIR), f"walkthrough command not on a built binary: {words}"
        return [os.path.join(self.build.bin_dir, words[0][len(BUILD_DIR):]), *words[1:], *extra]

    def substitute(self, word: str) -> str:
        for placeholder, value in self.placeholders.items():
            word = word.replace(placeholder, value)
        return word

    def agent(self, *extra: str) -> list[str]:
        return self.command("agent", 1, "--issuer", self.warden.issuer, "--api", self.api_url, *extra)

    def native_to_web(self) -> subprocess.CompletedProcess:
        return subprocess.run(self.command("native-to-web", 0, "--issuer", self.warden.issuer), env=self.env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=TIMEOUT)

    def api(self, method: str, path: str, token: str | None = None, **kwargs) -> requests.Response:
        headers = kwargs.pop("headers", {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        return requests.request(method, self.api_url + path, headers=headers, timeout=HTTP_TIMEOUT, **kwargs)


@contextlib.contextmanager
def protected_api(run: Walkthrough, log_path: str, *extra: str) -> Iterator[str]:
    """The README's protected-api command on a free port for this run's issuer (plus `extra`); yields its URL."""
    with open(log_path, "wb") as log:
        process = subprocess.Popen(run.command("api", 0, "--port", "0", "--issuer", run.warden.issuer, *extra),
                                   env=run.env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    try:
        listening = wait_until(lambda: re.search(r"protected-api listening on (http://127\.0\.0\.1:\d+/)",
                                                 open(log_path).read()), timeout=30, what="protected-api started")
        yield listening.group(1)
    except BaseException:
        print(open(log_path).read())
        raise
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="module")
def walkthrough(build) -> Iterator[Walkthrough]:
    blocks = walkthrough_blocks()
    assert set(blocks) == {"serve", "authenticator", "api", "agent", "native-to-web"}, blocks
    # One build: the first screen's, to which `swift build` adds the examples (the suite's own build, made with
    # --build-tests before the suite runs, has them already).
    assert blocks["serve"][0] == ["swift", "build"], blocks["serve"]
    if build.cwd:
        subprocess.run(blocks["serve"][0], cwd=build.cwd, check=True, stdout=subprocess.DEVNULL, timeout=3600)
        report(build, "examples added by `swift build`")
    for example in ("ciba-agent", "protected-api", "native-to-web"):
        path = os.path.join(build.bin_dir, example)
        assert os.access(path, os.X_OK), f"no {path}: `swift build` builds the examples next to the server"
    workdir = tempfile.mkdtemp(prefix="warden-walkthrough-")
    warden = DemoWarden([*(w.replace(BUILD_DIR, build.bin_dir + "/") for w in blocks["serve"][1])], cwd=build.cwd,
                        binary=os.path.join(build.bin_dir, "warden"), workdir=workdir,
                        database_url=f"sqlite:{workdir}/warden.sqlite",
                        mgmt_client_id="walkthrough-mgmt", mgmt_client_secret=secrets.token_urlsafe(36),
                        pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"))
    try:
        warden.start()
        warden.wait_ready(timeout=30)
        placeholders = {
            "ENROLMENT_LINK": warden.quick_start(r"warden authenticator enroll '([^']+)'"),
            "CIBA_SECRET": warden.quick_start(r"CIBA client:\s+demo-ciba\s+secret (\S+)"),
            "WEB_CLIENT_SECRET": warden.quick_start(r"web client:\s+demo-web\s+secret (\S+)"),
            "ALICE_USER_ID": warden.quick_start(r"alice@example\.com / .*\(user_id (\S+)\)"),
        }
        env = {k: v for k, v in os.environ.items() if not k.startswith("WARDEN_")}
        env["WARDEN_AUTHENTICATOR_HOME"] = os.path.join(workdir, "alice-terminal")
        [export, variable] = blocks["agent"][0]
        assert export == "export", blocks["agent"]
        name, value = variable.split("=", 1)
        env[name] = value
        run = Walkthrough(warden=warden, build=build, blocks=blocks, placeholders=placeholders, env=env, api_url="",
                          api_log=os.path.join(workdir, "protected-api.log"))
        env.update({k: run.substitute(v) for k, v in env.items()})

        enrolled = subprocess.run(run.command("authenticator"), env=env, stdin=subprocess.DEVNULL,
                                  capture_output=True, text=True, timeout=TIMEOUT)
        assert enrolled.returncode == 0 and placeholders["ALICE_USER_ID"] in enrolled.stdout, enrolled

        with protected_api(run, run.api_log) as run.api_url:
            yield run
        assert warden.crash_report() is None, warden.crash_report()
    except BaseException:
        print(warden.output_tail(120))
        raise
    finally:
        warden.stop()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def listen(walkthrough) -> Iterator[pexpect.spawn]:
    """The README's `warden authenticator listen` in a pseudo-terminal, for alice's enrolled terminal."""
    argv = walkthrough.command("authenticator", 1)
    terminal = pexpect.spawn(argv[0], argv[1:], env=walkthrough.env, encoding="utf-8", timeout=TIMEOUT,
                             dimensions=(60, 200))
    try:
        terminal.expect_exact("Listening for requests")
        yield terminal
    finally:
        terminal.close(force=True)


def answer(listen: pexpect.spawn, message: str, amount: str, key: str, outcome: str) -> None:
    """The request as alice's terminal shows it (client, binding message, the transfer), answered with `key`.
    Requests of other binding messages still pending on the device (an earlier test's, expired) are denied."""
    while True:
        listen.expect_exact("Request from Demo Payments Agent")
        listen.expect(r"Binding message:  ([^\r\n]+)")
        if listen.match.group(1) == message:
            break
        listen.expect_exact(PROMPT)
        listen.sendline("n")
    listen.expect(r"API:\s+" + re.escape(API))
    listen.expect(r"Amount:\s+" + re.escape(amount))
    listen.expect(r"Beneficiary:\s+Hanna Herwitz")
    listen.expect_exact(PROMPT)
    listen.sendline(key)
    listen.expect_exact(outcome)


def test_the_agent_gets_the_transfer_approved_and_the_api_executes_it(walkthrough, listen):
    """Steps 4–5 in a terminal: the live waiting line (rewritten in place) counts down; `y` on alice's terminal;
    the agent calls POST /transfers with the token and shows the API's 201."""
    argv = walkthrough.agent()
    agent = pexpect.spawn(argv[0], argv[1:], env=walkthrough.env, encoding="utf-8", timeout=TIMEOUT,
                          dimensions=(60, 200))
    try:
        agent.expect_exact(f"Binding message: {BINDING_MESSAGE}")
        waiting = r"\r\x1b\[2KWaiting for approval of \"" + re.escape(BINDING_MESSAGE) + r"\" on the user's device: " \
                  r"(\d+) s left"
        agent.expect(waiting)
        first = int(agent.match.group(1))
        agent.expect(waiting)
        assert 0 < int(agent.match.group(1)) < first <= 300, (first, agent.match.group(0))

        answer(listen, BINDING_MESSAGE, "2500 USD", "y", "Approved.")
        agent.expect_exact(f"Approved. Access token for {API}, scope openid transfer:funds.")
        agent.expect_exact(f"Calling POST {walkthrough.api_url}transfers")
        agent.expect_exact("The API answered 201:")
        agent.expect_exact('"status" : "executed"')
        agent.expect_exact("Transfer of 2500 USD to Hanna Herwitz done.")
        agent.expect(pexpect.EOF)
    finally:
        agent.close(force=True)
    assert agent.exitstatus == 0, agent.before
    if walkthrough.build.cwd:
        report(walkthrough.build, "walkthrough's transfer approved and executed")
    alice = walkthrough.placeholders["ALICE_USER_ID"]
    assert re.search(r"transfer trf_\S+: 2500 USD approved by " + re.escape(alice), open(walkthrough.api_log).read())


def test_a_denial_stops_the_agent_with_a_non_zero_status(walkthrough, listen):
    """Without a terminal the waiting line is a plain line per poll; `n` on alice's terminal ends the agent with
    the denial in one line and status 1."""
    output = io.StringIO()
    agent = PopenSpawn(walkthrough.agent("--amount", "900", "--currency", "EUR"), env=walkthrough.env,
                       encoding="utf-8", timeout=TIMEOUT, logfile=output)
    message = "Transfer 900 EUR to Hanna Herwitz"
    agent.expect_exact(f"Binding message: {message}")
    agent.expect(r"\nWaiting for approval of \"" + re.escape(message) + r"\" on the user's device: \d+ s left\n")
    answer(listen, message, "900 EUR", "n", "Denied.")
    agent.expect_exact("Error: the user denied the transfer (access_denied)\n")
    agent.expect(pexpect.EOF)
    assert agent.wait() == 1
    assert "\x1b" not in output.getvalue() and "\r" not in output.getvalue(), output.getvalue()


def test_the_agent_without_a_secret_says_so(walkthrough):
    env = {k: v for k, v in walkthrough.env.items() if k != "WARDEN_CLIENT_SECRET"}
    result = subprocess.run(walkthrough.agent(), env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=TIMEOUT)
    assert result.returncode != 0
    assert "give the CIBA client's secret: --client-secret or WARDEN_CLIENT_SECRET" in result.stderr, result.stderr


@pytest.mark.parametrize("case", ["expired", "unknown-user", "api-down", "not-the-api"])
def test_the_agent_stops_with_one_clear_line(walkthrough, case):
    """No approval (expiry), a refused request, an API that is down or is not the bank's: exit status 1, one line.
    The API is checked before the user is asked."""
    down, issuer = f"http://127.0.0.1:{free_port()}/", walkthrough.warden.issuer
    extra, failure = {
        "expired": (("--requested-expiry", "2", "--beneficiary", "Nobody Answers"),
                    "Error: the request expired before the user answered (expired_token"),
        "unknown-user": (("--user-id", "auth0|nobody"), "Error: Warden refused the request (unknown_user_id"),
        "api-down": (("--api", down), f"Error: cannot reach the API at {down} ("),
        "not-the-api": (("--api", issuer), f"Error: {issuer} is not the bank API (GET /balance answered HTTP 404 "
                                           "without a Bearer challenge)"),
    }[case]
    result = subprocess.run(walkthrough.agent(*extra), env=walkthrough.env, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=TIMEOUT)
    assert result.returncode == 1, result
    assert result.stderr.startswith(failure) and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert ("Asked " in result.stdout) == (case == "expired"), result.stdout


def test_an_api_refusal_after_the_approval_stops_the_agent(walkthrough, listen, tmp_path):
    """The agent against a bank API for another audience: the approved token is refused there (401 invalid_token);
    the agent shows the API's answer and exits 1."""
    with protected_api(walkthrough, str(tmp_path / "other-api.log"), "--audience", "https://other.example.com") as url:
        agent = PopenSpawn(walkthrough.agent("--api", url, "--amount", "2400"), env=walkthrough.env,
                           encoding="utf-8", timeout=TIMEOUT)
        message = "Transfer 2400 USD to Hanna Herwitz"
        agent.expect_exact(f"Binding message: {message}")
        answer(listen, message, "2400 USD", "y", "Approved.")
        agent.expect_exact("The API answered 401:")
        agent.expect_exact('"error" : "invalid_token"')
        agent.expect_exact("Error: the API refused the transfer (HTTP 401)")
        agent.expect(pexpect.EOF)
        assert agent.wait() == 1


def approved_transfer_token(walkthrough: Walkthrough, listen: pexpect.spawn) -> str:
    """An access token of demo-ciba for the README's transfer (2500 USD), approved on alice's terminal."""
    warden, secret = walkthrough.warden, walkthrough.placeholders["CIBA_SECRET"]
    started = requests.post(warden.url("bc-authorize"), auth=("demo-ciba", secret), timeout=HTTP_TIMEOUT, data={
        "login_hint": login_hint(warden.issuer, walkthrough.placeholders["ALICE_USER_ID"]),
        "scope": "openid transfer:funds", "binding_message": BINDING_MESSAGE, "audience": API,
        "requested_expiry": "300", "authorization_details": json.dumps([TRANSFER])})
    auth_req_id = json_of(expect_status(started, 200))["auth_req_id"]
    answer(listen, BINDING_MESSAGE, "2500 USD", "y", "Approved.")
    tokens = requests.post(warden.token_endpoint, auth=("demo-ciba", secret), timeout=HTTP_TIMEOUT,
                           data={"grant_type": CIBA_GRANT, "auth_req_id": auth_req_id})
    return json_of(expect_status(tokens, 200))["access_token"]


def balance_token(walkthrough: Walkthrough) -> str:
    """An access token of demo-native for the API with `read:balance` only (PKCE login as alice)."""
    warden = walkthrough.warden
    callback = warden.url("demo/callback")
    verifier = new_verifier()
    url = warden.url("authorize") + "?" + urlencode({
        "response_type": "code", "client_id": "demo-native", "redirect_uri": callback, "audience": API,
        "scope": "openid read:balance", "state": secrets.token_urlsafe(16), "code_challenge": s256(verifier),
        "code_challenge_method": "S256"})
    code = hosted_login(warden, url, redirect_uri=callback, email=ALICE, password=ALICE_PASSWORD).code
    return json_of(expect_status(code_exchange(warden, "demo-native", code, verifier, callback), 200))["access_token"]


def assert_refused(response: requests.Response, status: int, error: str, challenge: str | None) -> None:
    """An OAuth-style JSON error with this status and code, and exactly this `WWW-Authenticate` (RFC 6750 §3)."""
    assert (response.status_code, json_of(response).get("error")) == (status, error), response.text
    assert response.headers.get("Cache-Control") == "no-store"
    assert response.headers.get("WWW-Authenticate") == challenge, response.headers


def test_the_api_enforces_the_token_and_its_authorization_details(walkthrough, listen):
    token = approved_transfer_token(walkthrough, listen)
    realm = f'Bearer realm="{API}"'
    refused = f'{realm}, error="insufficient_authorization_details", error_description="No money_transfer ' \
              'authorization detail in the token approves {}"'

    # the approved transfer, or less of it, goes through
    done = json_of(expect_status(walkthrough.api("POST", "transfers", token, json={
        "amount": 1999.5, "currency": "USD", "beneficiary": "Hanna Herwitz"}), 201))
    assert (done["status"], done["amount"], done["currency"], done["client_id"]) == ("executed", 1999.5, "USD",
                                                                                     "demo-ciba"), done
    assert done["authorization_detail"] == TRANSFER and done["approved_by"] == walkthrough.placeholders[
        "ALICE_USER_ID"], done

    # more than approved, another currency: 403 insufficient_authorization_details
    over = walkthrough.api("POST", "transfers", token, json={"amount": "2500.01", "currency": "USD"})
    assert_refused(over, 403, "insufficient_authorization_details", refused.format("2500.01 USD"))
    euros = walkthrough.api("POST", "transfers", token, json={"amount": 2500, "currency": "EUR"})
    assert_refused(euros, 403, "insufficient_authorization_details", refused.format("2500 EUR"))
    # a body that is not an order: 400 invalid_request, no challenge
    assert_refused(walkthrough.api("POST", "transfers", token, data="[]"), 400, "invalid_request", None)
    # the transfer token has no read:balance: 403 insufficient_scope naming it
    assert_refused(walkthrough.api("GET", "balance", token), 403, "insufficient_scope",
                   f'{realm}, error="insufficient_scope", scope="read:balance"')

    # a read:balance token reads the balance but cannot transfer
    reader = balance_token(walkthrough)
    balance = json_of(expect_status(walkthrough.api("GET", "balance", reader), 200))
    assert balance["owner"] == walkthrough.placeholders["ALICE_USER_ID"] and balance["currency"] == "USD", balance
    assert_refused(walkthrough.api("POST", "transfers", reader, json={"amount": 1, "currency": "USD"}), 403,
                   "insufficient_scope", f'{realm}, error="insufficient_scope", scope="transfer:funds"')

    # no token: the bare challenge (RFC 6750 §3.1); a malformed header: 400 invalid_request
    assert_refused(walkthrough.api("GET", "balance"), 401, "invalid_token", realm)
    assert_refused(walkthrough.api("GET", "balance", headers={"Authorization": "Basic YWxpY2U6"}), 400,
                   "invalid_request", f'{realm}, error="invalid_request"')
    # not a JWT, a tampered signature, a token for another audience: 401 invalid_token
    for bad in ("not-a-jwt", token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB"),
                walkthrough.warden.mgmt_token()):
        response = walkthrough.api("POST", "transfers", bad, json={"amount": 1, "currency": "USD"})
        assert_refused(response, 401, "invalid_token", response.headers.get("WWW-Authenticate"))
        assert response.headers["WWW-Authenticate"].startswith(f'{realm}, error="invalid_token", error_description="')


def test_the_api_serves_its_protected_resource_metadata(walkthrough):
    """RFC 9728 §3 (SPEC §13): the document, without a token, names the API and the Warden that issues its tokens."""
    response = requests.get(walkthrough.api_url + ".well-known/oauth-protected-resource", timeout=HTTP_TIMEOUT)
    assert json_of(expect_status(response, 200)) == {
        "resource": API, "authorization_servers": [walkthrough.warden.issuer],
        "scopes_supported": ["read:balance", "transfer:funds"], "bearer_methods_supported": ["header"]}


def opening(output: str) -> dict[str, str]:
    """native-to-web's `URL:`, `Cookie:` and `Cookie URL:` lines."""
    found = dict(re.findall(r"^\s+(URL|Cookie|Cookie URL): (\S.*)$", output, re.M))
    assert set(found) == {"URL", "Cookie", "Cookie URL"}, output
    return found


def assert_logged_in(walkthrough: Walkthrough, response: requests.Response, authorize_url: str,
                     output: str) -> None:
    """The web client's /authorize answered with a redirect to its callback with a code: no login form; and the
    callback page's curl line, with the web client's secret `warden serve --demo` printed and the verifier
    native-to-web printed (`output`) filled in, redeems the code (issue 33: it named the wrong client authentication
    and a verifier nothing printed)."""
    assert response.status_code == 302, f"{response.status_code} {response.text[:300]}"
    location = response.headers["Location"]
    assert location.startswith(walkthrough.warden.url("demo/callback") + "?"), location
    query = parse_qs(urlsplit(location).query)
    assert query.get("code") and query.get("state") == parse_qs(urlsplit(authorize_url).query)["state"], location
    # the demo callback page's curl line redeems as the client the code was issued to (demo-web, confidential)
    page = html.unescape(requests.get(location, timeout=HTTP_TIMEOUT).text)
    assert "client_id=demo-web" in page and "client_id=demo-native" not in page, page
    verifier = re.search(r"^\s+Code verifier: (\S+)$", output, re.M).group(1)
    curl = re.search(r"<code>(curl [^<]+)</code>", page).group(1)
    assert "WEB_CLIENT_SECRET" in curl and "VERIFIER" in curl, curl
    curl = curl.replace("WEB_CLIENT_SECRET", walkthrough.placeholders["WEB_CLIENT_SECRET"]).replace("VERIFIER", verifier)
    redeemed = subprocess.run(curl, shell=True, capture_output=True, text=True, timeout=TIMEOUT)
    assert '"access_token"' in redeemed.stdout, (curl, redeemed.stdout, redeemed.stderr)


def test_native_to_web_prints_a_url_and_a_cookie_that_open_the_web_app_logged_in(walkthrough):
    by_url = walkthrough.native_to_web()
    assert by_url.returncode == 0, by_url
    assert f"Native app signed in as {ALICE}" in by_url.stdout, by_url.stdout
    printed = opening(by_url.stdout)
    url = printed["URL"]
    assert url.startswith(walkthrough.warden.url("authorize") + "?"), url
    query = parse_qs(urlsplit(url).query)
    assert query["client_id"] == ["demo-web"] and query["session_transfer_token"], url
    assert_logged_in(walkthrough, requests.get(url, allow_redirects=False, timeout=HTTP_TIMEOUT), url, by_url.stdout)
    # single use: the same URL again goes to the login page
    again = requests.get(url, allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert again.status_code == 302 and "/u/login" in again.headers["Location"], again.headers

    cookie_run = walkthrough.native_to_web().stdout
    by_cookie = opening(cookie_run)
    name_value, *attributes = by_cookie["Cookie"].split("; ")
    name, value = name_value.split("=", 1)
    assert name == "auth0_session_transfer_token" and value, by_cookie
    assert attributes == ["Domain=127.0.0.1", "Path=/", "Max-Age=60", "HttpOnly", "SameSite=Lax"], attributes
    assert "session_transfer_token" not in by_cookie["Cookie URL"], by_cookie
    response = requests.get(by_cookie["Cookie URL"], cookies={name: value}, allow_redirects=False,
                            timeout=HTTP_TIMEOUT)
    assert_logged_in(walkthrough, response, by_cookie["Cookie URL"], cookie_run)


def test_native_to_web_takes_the_pasted_callback_of_a_browser_login(walkthrough):
    """Without --username: the printed login URL is opened by a "browser" (requests through the hosted login), and
    the address it lands on is pasted; the session transfer follows."""
    argv = walkthrough.command("native-to-web", 0, "--issuer", walkthrough.warden.issuer)
    argv = argv[:argv.index("--username")] + argv[argv.index("--password") + 2:]
    native = PopenSpawn(argv, env=walkthrough.env, encoding="utf-8", timeout=TIMEOUT)
    native.expect(r"Open this URL in a browser and sign in:\s+(\S+)\s")
    login_url = native.match.group(1)
    callback = walkthrough.warden.url("demo/callback")
    native.expect_exact(f"Then paste the address of the page you land on ({callback}?code=…):")
    landed = hosted_login(walkthrough.warden, login_url, redirect_uri=callback, email=ALICE, password=ALICE_PASSWORD)
    native.sendline(landed.url)
    native.expect(pexpect.EOF)
    assert native.wait() == 0, native.before
    printed = opening(native.before)
    assert_logged_in(walkthrough, requests.get(printed["URL"], allow_redirects=False, timeout=HTTP_TIMEOUT),
                     printed["URL"], native.before)


def test_native_to_web_with_a_wrong_password_fails_in_one_line(walkthrough):
    argv = walkthrough.command("native-to-web", 0, "--issuer", walkthrough.warden.issuer)
    argv[argv.index("--password") + 1] = "not the password"
    result = subprocess.run(argv, env=walkthrough.env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            timeout=TIMEOUT)
    assert result.returncode == 1, result
    assert result.stderr.strip() == "Error: login failed: the login page came back: wrong e-mail or password", \
        result.stderr
