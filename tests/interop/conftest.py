"""pytest fixtures for Warden's third-party interoperability suite.

One `warden serve` per test session (session-scoped fixture `warden`), started from the built binary
(`WARDEN_BIN`, default `<repo>/.build/debug/warden`) in a fresh temp working directory, on a free port, against
the database named by `WARDEN_TEST_DATABASE`:

    sqlite (default)            -> sqlite:<tmpdir>/warden.sqlite
    postgres://user:pw@h:p/db   -> that database (shared over time: every test uses uuid-suffixed names)

The session server sends its mail by SMTP (`WARDEN_SMTP_URL`) to `scripts/test-support/smtp-sink.py`, started on a free port
with a temp maildir (fixture `smtp_sink`, see cibalib.SmtpSink).

Run: `python -m pytest tests/interop` (after `swift build`), or the whole thing with `scripts/test`.
"""

from __future__ import annotations

import base64
import os
import pathlib
import secrets
import shutil
import sys
import tempfile

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from wardenlib import Warden  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
_SERVERS: list[Warden] = []


def pytest_report_header(config):
    return [f"warden binary: {os.environ.get('WARDEN_BIN') or REPO / '.build/debug/warden'}",
            f"warden database: {os.environ.get('WARDEN_TEST_DATABASE', 'sqlite')}"]


def _database_url(workdir: str) -> str:
    choice = os.environ.get("WARDEN_TEST_DATABASE", "sqlite").strip()
    if choice in ("", "sqlite"):
        return f"sqlite:{workdir}/warden.sqlite"
    if choice.startswith(("postgres://", "postgresql://", "sqlite:")):
        return choice
    raise pytest.UsageError(f"WARDEN_TEST_DATABASE must be 'sqlite' or a postgres:// URL, not {choice!r}")


@pytest.fixture(scope="session")
def _smtp_sink_started():
    """(sink, None) or (None, why it did not start): a missing sink fails only the tests that need it."""
    from cibalib import SmtpSink

    maildir = tempfile.mkdtemp(prefix="warden-mail-")
    sink = SmtpSink(maildir)
    try:
        sink.start()
    except (RuntimeError, OSError) as error:
        yield None, str(error)
    else:
        yield sink, None
    sink.stop()
    if os.environ.get("WARDEN_TEST_KEEP_LOGS") == "1":
        sys.stderr.write(f"\nSMTP sink maildir kept: {maildir}\n")
    else:
        shutil.rmtree(maildir, ignore_errors=True)


@pytest.fixture(scope="session")
def smtp_sink(_smtp_sink_started):
    """The session's SMTP sink (cibalib.SmtpSink: url, port, maildir, wait_for_mail(address, …))."""
    sink, error = _smtp_sink_started
    if sink is None:
        pytest.fail(f"the SMTP sink did not start: {error}", pytrace=False)
    return sink


@pytest.fixture(scope="module")
def receiver():
    """A push webhook endpoint (guardianlib.WebhookReceiver) for the nodes of one module."""
    from guardianlib import WebhookReceiver

    with WebhookReceiver() as started:
        yield started


@pytest.fixture(scope="session")
def glewlwyd():
    """Glewlwyd 2.7.5, provisioned, as a real upstream OpenID provider (glewlwydlib.Glewlwyd): the one scripts/test
    started for the whole run (its directory in WARDEN_TEST_GLEWLWYD), else one of this session's own, stopped at
    the end. Skips when the Debian package is not installed (scripts/test installs it)."""
    from glewlwydlib import Glewlwyd, installed

    shared = os.environ.get("WARDEN_TEST_GLEWLWYD")
    if shared:
        server = Glewlwyd.attach(shared)
        if not server.alive():
            pytest.fail(f"the Glewlwyd of WARDEN_TEST_GLEWLWYD={shared} is not running\n{server.log_tail()}",
                        pytrace=False)
        yield server
        return
    if not installed():
        pytest.skip("glewlwyd is not installed (apt-get install glewlwyd; scripts/test does)")
    root = tempfile.mkdtemp(prefix="warden-glewlwyd-")
    server = Glewlwyd(root)
    try:
        server.setup()
        server.start()
        server.provision()
    except (RuntimeError, AssertionError, OSError) as error:
        server.stop()
        pytest.fail(f"Glewlwyd did not start: {error}\n{server.log_tail()}", pytrace=False)
    yield server
    server.stop()
    if os.environ.get("WARDEN_TEST_KEEP_LOGS") == "1":
        sys.stderr.write(f"\nGlewlwyd directory kept: {root}\n")
    else:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def warden(request, _smtp_sink_started) -> Warden:
    """The running server. Attributes: base_url (= issuer, trailing slash), port, domain, mgmt_client_id,
    mgmt_client_secret, database_url, process, workdir; helpers mgmt_token(scopes=None), mgmt(...), cli(...)."""
    binary = os.environ.get("WARDEN_BIN") or str(REPO / ".build" / "debug" / "warden")
    if not os.access(binary, os.X_OK):
        pytest.fail(f"no server binary at {binary}: run `swift build` first (or set WARDEN_BIN)", pytrace=False)
    workdir = tempfile.mkdtemp(prefix="warden-interop-")
    sink = _smtp_sink_started[0]  # None: mail goes to the outbox folder, and the tests that read mail fail
    server = Warden(binary=binary, workdir=workdir, database_url=_database_url(workdir),
                    mgmt_client_id="interop-mgmt", mgmt_client_secret=secrets.token_urlsafe(36),
                    pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"),
                    # Registration on, so the suite covers /oidc/register (SPEC §13) on the shared server too.
                    # A data key, so connections may keep upstream tokens (SPEC §15).
                    env={"WARDEN_REGISTRATION": "open", "WARDEN_DATA_KEY": base64.b64encode(os.urandom(32)).decode(),
                         **({"WARDEN_SMTP_URL": sink.url} if sink is not None else {})})
    _SERVERS.append(server)
    server.start()
    try:
        server.wait_ready(timeout=30)
    except RuntimeError as error:
        server.stop()
        pytest.fail(str(error), pytrace=False)
    yield server
    server.stop()
    failed = request.session.testsfailed
    crash = server.crash_report()
    if failed or crash:
        sys.stderr.write(f"\n{server.output_tail(120)}\n")
    warning = server.shutdown_warning()
    if warning:
        sys.stderr.write(f"\nWARNING: {warning}\n")
    if os.environ.get("WARDEN_TEST_KEEP_LOGS") == "1":
        sys.stderr.write(f"\nserver working directory kept: {workdir}\n")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    if crash:
        pytest.fail(f"warden crashed during the session: {crash}", pytrace=False)


@pytest.fixture(autouse=True)
def _server_still_running(request):
    """Fails a test at once, with the server's output, when the server died before or during it."""
    if "warden" not in request.fixturenames:
        yield
        return
    server: Warden = request.getfixturevalue("warden")
    if not server.alive():
        pytest.fail(f"warden is not running (exit status {server.process.returncode}); see the first failure",
                    pytrace=False)
    yield
    if not server.alive():
        pytest.fail(f"warden died during this test (exit status {server.process.returncode})\n"
                    f"{server.output_tail()}", pytrace=False)


@pytest.fixture
def mgmt_token(warden: Warden):
    """`mgmt_token(scopes=None)`: a Management API token of the bootstrap client."""
    return warden.mgmt_token


@pytest.fixture
def sdk(warden: Warden):
    """auth0-python's (v6, Fern-generated) Management client pointed at Warden over plain HTTP.

    `ManagementClient` always builds `https://{domain}/api/v2`, so the generated `Auth0` class is used with an
    explicit base_url; the token is a callable, so a test that revokes keys can make it fetch a new one."""
    from auth0.management.client import Auth0

    return Auth0(base_url=warden.mgmt_base, token=lambda: warden.mgmt_token(), max_retries=0, timeout=30)


def pytest_sessionfinish(session, exitstatus):
    """A crash fails the session even when every test passed (e.g. the server died after the last test)."""
    for server in _SERVERS:
        crash = server.crash_report()
        if crash and session.exitstatus == 0:
            session.exitstatus = 1


@pytest.fixture(scope="module")
def proxied_node(warden, smtp_sink):
    """A node of the suite's database that trusts 127.0.0.1's X-Forwarded-For (so that each test may come from
    addresses of its own, under the per-IP limits of SPEC §15.1), mailing through the suite's SMTP sink."""
    workdir = tempfile.mkdtemp(prefix="warden-interop-proxied-")
    shared = warden.database_url.startswith(("postgres://", "postgresql://"))
    server = Warden(binary=warden.binary, workdir=workdir,
                    database_url=warden.database_url if shared else f"sqlite:{workdir}/proxied.sqlite",
                    mgmt_client_id=warden.mgmt_client_id, mgmt_client_secret=warden.mgmt_client_secret,
                    pid_dir=os.environ.get("WARDEN_TEST_PIDDIR"),
                    env={"WARDEN_TRUSTED_PROXIES": "127.0.0.1/32", "WARDEN_SMTP_URL": smtp_sink.url})
    server.start()
    try:
        server.wait_ready(timeout=30)
        yield server
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
