"""Warden as the authorization server of an MCP server (SPEC §13), with the official Python MCP SDK, unmodified.

`Examples/mcp-bank` (an MCP server over Streamable HTTP, MCP 2025-06-18) runs against the suite's Warden, with
what `warden serve --demo` gives it registered here through the Management API: an API whose identifier is
mcp-bank's URL (scopes read:balance and transfer:funds, the RAR type money_transfer) and a confidential CIBA
client. The MCP client is the SDK's `streamablehttp_client` with its `OAuthClientProvider`: from the 401 it finds
the protected-resource metadata (RFC 9728), then Warden's metadata (RFC 8414), registers itself (RFC 7591),
signs the user in with PKCE S256 and `resource` (RFC 7636, RFC 8707) — the hosted login and consent pages driven
headless by `pkcelib.hosted_login` from its redirect handler — and calls the tools. `transfer_funds` completes
only after the user's authenticator device (guardianlib.Device, SPEC §7) approves the CIBA request that mcp-bank
starts, and fails cleanly when the device rejects it.
"""

from __future__ import annotations

import contextlib
import http.server
import json
import os
import re
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator
from urllib.parse import parse_qs, urlsplit

import anyio
import httpx
import pytest
import requests
from mcp import ClientSession
from mcp.client.auth import OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from cibalib import CIBA_GRANT
from guardianlib import Device, enrolled_device
from pkcelib import User, create_user, hosted_login
from wardenlib import (HTTP_TIMEOUT, Warden, audiences, default_binary, describe, expect_status, free_port, json_of,
                       own_node, uid, verify_jwt, wait_until)

SCOPES = ["read:balance", "transfer:funds"]
REDIRECT_URI = "http://127.0.0.1:8976/callback"  # never fetched: hosted_login stops at the redirect
TRANSFER = {"amount": 2500, "currency": "USD", "beneficiary": "Hanna Herwitz", "iban": "DE89 3704 0044 0532 0130 00"}
FLOW_TIMEOUT = 120  # seconds for one whole MCP conversation
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


@dataclass
class Bank:
    """A running mcp-bank: its MCP URL (= its resource identifier), the API and CIBA client behind it."""

    url: str
    api: dict
    client: dict
    process: subprocess.Popen
    log: str

    def output(self) -> str:
        with open(self.log, encoding="utf-8", errors="replace") as f:
            return f.read()


@contextlib.contextmanager
def running_bank(warden: Warden, show_output: Callable[[], bool]) -> Iterator[Bank]:
    """mcp-bank against `warden`, with the API and CIBA client it needs registered there; its output is printed
    when `show_output()` says so at the end (a test failed)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    api = warden.create_api(identifier=url, name=f"MCP bank {uid()}",
                            scopes=[{"value": s, "description": s} for s in SCOPES],
                            authorization_details=[{"type": "money_transfer"}])
    client = warden.create_client(name=f"MCP bank {uid()}", app_type="non_interactive", grant_types=[CIBA_GRANT],
                                  token_endpoint_auth_method="client_secret_basic",
                                  backchannel_token_delivery_mode="poll")
    binary = os.path.join(os.path.dirname(default_binary()), "mcp-bank")
    if not os.access(binary, os.X_OK):
        pytest.fail(f"no mcp-bank at {binary}: run `swift build` first", pytrace=False)
    log = tempfile.mktemp(prefix="mcp-bank-", suffix=".log")
    env = {**os.environ, "WARDEN_CLIENT_ID": client["client_id"], "WARDEN_CLIENT_SECRET": client["client_secret"]}
    with open(log, "wb") as out:
        process = subprocess.Popen([binary, "--issuer", warden.issuer, "--port", str(port), "--approval-timeout", "60"],
                                   env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    started = Bank(url=url, api=api, client=client, process=process, log=log)
    try:
        wait_until(lambda: process.poll() is not None or "listening" in started.output(), timeout=30,
                   what="mcp-bank listening")
        assert process.poll() is None, f"mcp-bank exited:\n{started.output()}"
        yield started
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        if show_output():
            sys.stderr.write(f"\nmcp-bank output:\n{started.output()}\n")
        os.unlink(log)


@pytest.fixture(scope="module")
def bank(request, warden: Warden):
    failed_before = request.session.testsfailed
    with running_bank(warden, lambda: request.session.testsfailed > failed_before) as started:
        yield started


@dataclass
class Storage:
    """The SDK's TokenStorage protocol, in memory."""

    tokens: OAuthToken | None = None
    client_info: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


@dataclass
class Browser:
    """The user's side of the authorization redirect: the hosted login and consent pages, headless."""

    warden: Warden
    user: User
    authorize_urls: list[str] = field(default_factory=list)
    callback: dict[str, str] = field(default_factory=dict)

    async def redirect(self, url: str) -> None:
        self.authorize_urls.append(url)
        landed = await anyio.to_thread.run_sync(
            lambda: hosted_login(self.warden, url, redirect_uri=REDIRECT_URI, email=self.user.email,
                                 password=self.user.password, consent="accept"))
        self.callback = landed.params

    async def callback_handler(self) -> tuple[str, str | None]:
        assert "code" in self.callback, f"no code at the callback: {self.callback}"
        return self.callback["code"], self.callback.get("state")


def provider(bank: Bank, storage: Storage, browser: Browser,
             client_metadata_url: str | None = None) -> OAuthClientProvider:
    """The SDK's OAuth client: it registers itself (RFC 7591), or, given `client_metadata_url` and a server that
    supports them, uses that Client ID Metadata Document's URL as its client_id."""
    metadata = OAuthClientMetadata(client_name=f"interop MCP client {uid()}", redirect_uris=[REDIRECT_URI],
                                   grant_types=["authorization_code", "refresh_token"], response_types=["code"],
                                   token_endpoint_auth_method="none")
    return OAuthClientProvider(server_url=bank.url, client_metadata=metadata, storage=storage,
                               redirect_handler=browser.redirect, callback_handler=browser.callback_handler,
                               client_metadata_url=client_metadata_url)


@contextlib.asynccontextmanager
async def connected(bank: Bank, storage: Storage, browser: Browser, client_metadata_url: str | None = None):
    """An initialized MCP session over Streamable HTTP, authorized by the SDK's provider (the transport's own
    timeouts: 30 s, 300 s to read a response stream); yields (session, the session id getter)."""
    auth = provider(bank, storage, browser, client_metadata_url)
    client = httpx.AsyncClient(auth=auth, timeout=httpx.Timeout(30, read=300))
    async with client, streamable_http_client(bank.url, http_client=client) as (read, write, session_id):
        async with ClientSession(read, write) as session:
            await session.initialize()
            yield session, session_id


def approve_on_device(device: Device, accept: bool) -> dict:
    """The device's side (SPEC §7.5, §7.3, §7.4): waits for the pending request, reads its consent details, and
    allows or rejects it; returns the consent's `requested_details`."""
    transaction = wait_until(lambda: (device.transactions() or [None])[0], timeout=30, step=0.3,
                             what="the transfer's approval request on the device")
    consent = json_of(expect_status(device.fetch_consent(transaction["txlnkid"], transaction["txtkn"]), 200))
    r = device.resolve(transaction["txtkn"], transaction["c"], accept)
    assert r.status_code == 204, describe(r)
    return consent["requested_details"]


async def transfer_with_answer(session: ClientSession, device: Device, accept: bool) -> tuple[Any, dict]:
    """Calls transfer_funds while the device answers; returns (the tool result, what the device was shown)."""
    shown: dict = {}

    async def device_side() -> None:
        shown.update(await anyio.to_thread.run_sync(lambda: approve_on_device(device, accept)))

    async with anyio.create_task_group() as group:
        group.start_soon(device_side)
        result = await session.call_tool("transfer_funds", TRANSFER)
    return result, shown


def new_user(warden: Warden) -> tuple[User, Device]:
    """A user with a push-enrolled authenticator device (SPEC §6.1: push needs one)."""
    user = create_user(warden, email=f"mcp-{uid()}@interop.test", name="Morgan MCP")
    return user, enrolled_device(warden, user.user_id)


def text_of(result: Any) -> str:
    return " ".join(getattr(item, "text", "") for item in result.content)


def check_device_saw_the_transfer(shown: dict, bank: Bank) -> None:
    """SPEC §6.5 / §13: the exact action, for this resource, with a binding message naming it."""
    assert shown["audience"] == bank.url, shown
    (detail,) = shown["authorization_details"]
    assert detail["type"] == "money_transfer", detail
    assert detail["instructedAmount"] == {"amount": 2500, "currency": "USD"}, detail
    assert detail["beneficiary"] == "Hanna Herwitz" and detail["destinationAccount"] == "DE89370400440532013000"
    assert shown["binding_message"].startswith("Transfer 2500 USD to Hanna Herwitz #"), shown


@dataclass
class DocumentServer:
    """An HTTPS server on 127.0.0.1 serving one Client ID Metadata Document, with a certificate from a CA of its
    own (`ca_file`); `requests` lists the paths it was asked for."""

    url: str
    ca_file: str
    allow_host: str
    requests: list[str]


@contextlib.contextmanager
def metadata_document_server(document: Callable[[str], dict]) -> Iterator[DocumentServer]:
    """Serves `document(url)` at https://127.0.0.1:PORT/clients/mcp-agent.json, the CA and certificate made by
    scripts/test-support/push-fake-certs (its server certificate names 127.0.0.1)."""
    directory = tempfile.mkdtemp(prefix="warden-cimd-")
    subprocess.run([os.path.join(ROOT, "scripts", "test-support", "push-fake-certs"), directory, "1"], check=True,
                   capture_output=True)
    seen: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
            seen.append(self.path)
            if self.path != "/clients/mcp-agent.json":
                self.send_error(404)
                return
            body = json.dumps(document(server_url)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "max-age=300")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(directory, "server.pem"), os.path.join(directory, "server-key.pem"))
    httpd.socket = context.wrap_socket(httpd.socket, server_side=True)
    port = httpd.server_address[1]
    server_url = f"https://127.0.0.1:{port}/clients/mcp-agent.json"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield DocumentServer(url=server_url, ca_file=os.path.join(directory, "ca.pem"), allow_host=f"127.0.0.1:{port}",
                             requests=seen)
    finally:
        httpd.shutdown()
        httpd.server_close()
        shutil.rmtree(directory, ignore_errors=True)


# ----------------------------------------------------------------------------------------- 1. discovery
def test_the_challenge_and_the_metadata_lead_to_warden(warden: Warden, bank: Bank):
    """RFC 6750 §3 + RFC 9728 §5.1: a request without a token gets 401 and a Bearer challenge naming the metadata;
    the metadata names the resource and Warden (§2); Warden's RFC 8414 metadata has what an MCP client needs."""
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "interop", "version": "1"}}}
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    r = requests.post(bank.url, json=initialize, headers=headers, timeout=HTTP_TIMEOUT)
    assert r.status_code == 401, describe(r)
    challenge = r.headers.get("WWW-Authenticate", "")
    assert challenge.startswith("Bearer "), challenge
    metadata_url = re.search(r'resource_metadata="([^"]+)"', challenge).group(1)
    assert metadata_url == bank.url.replace("/mcp", "/.well-known/oauth-protected-resource/mcp"), challenge

    metadata = json_of(expect_status(requests.get(metadata_url, timeout=HTTP_TIMEOUT), 200))
    assert metadata["resource"] == bank.url, metadata
    assert metadata["authorization_servers"] == [warden.issuer], metadata
    assert set(metadata["scopes_supported"]) == set(SCOPES), metadata
    assert "header" in metadata["bearer_methods_supported"], metadata

    bad = requests.post(bank.url, json=initialize, headers={**headers, "Authorization": "Bearer not.a.token"},
                        timeout=HTTP_TIMEOUT)
    assert bad.status_code == 401 and 'error="invalid_token"' in bad.headers.get("WWW-Authenticate", ""), describe(bad)

    server = json_of(expect_status(
        requests.get(warden.url(".well-known/oauth-authorization-server"), timeout=HTTP_TIMEOUT), 200))
    assert server["issuer"] == warden.issuer and server["registration_endpoint"], server
    assert "S256" in server["code_challenge_methods_supported"], server


# ------------------------------------------------------------------------------------ 2. a stock MCP client
def test_a_stock_mcp_client_signs_in_reads_the_balance_and_makes_an_approved_transfer(warden: Warden, bank: Bank):
    user, device = new_user(warden)
    storage, browser = Storage(), Browser(warden, user)

    async def conversation() -> None:
        with anyio.fail_after(FLOW_TIMEOUT):
            async with connected(bank, storage, browser) as (session, _):
                tools = {tool.name: tool for tool in (await session.list_tools()).tools}
                assert set(tools) == {"get_balance", "transfer_funds"}, tools
                assert set(tools["transfer_funds"].inputSchema["required"]) == {
                    "amount", "currency", "beneficiary", "iban"}

                balance = await session.call_tool("get_balance", {})
                assert not balance.isError, balance
                assert balance.structuredContent["owner"] == user.user_id, balance

                result, shown = await transfer_with_answer(session, device, accept=True)
                assert not result.isError, result
                assert result.structuredContent["status"] == "executed", result
                assert result.structuredContent["approved_by"] == user.user_id, result
                assert "executed" in text_of(result), result
                check_device_saw_the_transfer(shown, bank)
                assert result.structuredContent["binding_message"] == shown["binding_message"], result

    anyio.run(conversation)

    # The authorization request: PKCE S256 and the resource (MCP 2025-06-18 Authorization §2.5, §2.6; RFC 8707)
    (authorize,) = browser.authorize_urls
    query = {k: v[0] for k, v in parse_qs(urlsplit(authorize).query).items()}
    assert authorize.startswith(warden.url("authorize")), authorize
    assert query["code_challenge_method"] == "S256" and query["resource"] == bank.url, query
    assert set(query["scope"].split()) == set(SCOPES), query

    # The registration (RFC 7591, SPEC §13): a third-party public client
    registered = storage.client_info
    assert registered is not None and registered.client_id, registered
    client = json_of(expect_status(warden.mgmt("GET", f"clients/{registered.client_id}"), 200))
    assert client["is_first_party"] is False, client

    # The token (RFC 9068, SPEC §3): for the resource, of the user, with the scopes the metadata lists
    _, claims = verify_jwt(storage.tokens.access_token, warden.jwks(), ["RS256", "ES256", "PS256"])
    assert claims["iss"] == warden.issuer and bank.url in audiences(claims), claims
    assert claims["sub"] == user.user_id and claims["client_id"] == registered.client_id, claims
    assert set(claims["scope"].split()) >= set(SCOPES), claims
    assert "approved by " + user.user_id in bank.output(), bank.output()


def test_a_denied_transfer_is_a_clean_tool_error(warden: Warden, bank: Bank):
    user, device = new_user(warden)
    storage, browser = Storage(), Browser(warden, user)

    async def conversation() -> None:
        with anyio.fail_after(FLOW_TIMEOUT):
            async with connected(bank, storage, browser) as (session, _):
                result, shown = await transfer_with_answer(session, device, accept=False)
                assert result.isError is True, result
                assert "the user denied the transfer" in text_of(result), result
                assert result.structuredContent is None, result
                check_device_saw_the_transfer(shown, bank)

    anyio.run(conversation)
    assert device.transactions() == []


def test_another_users_token_cannot_use_a_session(warden: Warden, bank: Bank):
    """A session belongs to the user who started it (MCP 2025-06-18 Security Best Practices, session hijacking):
    another user's valid token naming it gets 404, as an unknown session does; its owner's token gets through."""
    other = Storage()
    owner = Storage()
    answers: dict[str, int] = {}

    def ping(session_id: str, storage: Storage) -> int:
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
                   "Authorization": f"Bearer {storage.tokens.access_token}", "Mcp-Session-Id": session_id,
                   "MCP-Protocol-Version": "2025-06-18"}
        return requests.post(bank.url, json={"jsonrpc": "2.0", "id": 7, "method": "ping"}, headers=headers,
                             timeout=HTTP_TIMEOUT).status_code

    async def conversation(storage: Storage, user: User, probe: bool) -> None:
        with anyio.fail_after(FLOW_TIMEOUT):
            async with connected(bank, storage, Browser(warden, user)) as (_, session_id):
                if probe:
                    answers["other"] = await anyio.to_thread.run_sync(ping, session_id(), other)
                    answers["owner"] = await anyio.to_thread.run_sync(ping, session_id(), owner)

    anyio.run(conversation, other, create_user(warden, email=f"mcp-{uid()}@interop.test"), False)
    owner.client_info = other.client_info  # one registered client, two users
    anyio.run(conversation, owner, create_user(warden, email=f"mcp-{uid()}@interop.test"), True)
    assert answers == {"other": 404, "owner": 200}, answers


def test_a_tool_whose_scope_the_token_lacks_is_refused_with_insufficient_scope(warden: Warden, bank: Bank):
    """RFC 6750 §3.1 (MCP 2025-06-18 Authorization, scope challenges): a token for the resource with
    read:balance only may start a session and read the balance, but calling transfer_funds gets 403 with
    `error="insufficient_scope"` naming `transfer:funds`, which a client answers with a step-up authorization."""
    client = warden.create_client(name=f"MCP reader {uid()}")
    warden.create_client_grant(client["client_id"], bank.url, ["read:balance"])
    issued = warden.client_credentials(client["client_id"], client["client_secret"], bank.url)
    token = json_of(expect_status(issued, 200))
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
               "Authorization": f"Bearer {token['access_token']}", "MCP-Protocol-Version": "2025-06-18"}
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "interop", "version": "1"}}}
    started = expect_status(requests.post(bank.url, json=initialize, headers=headers, timeout=HTTP_TIMEOUT), 200)
    headers["Mcp-Session-Id"] = started.headers["Mcp-Session-Id"]
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "transfer_funds", "arguments": TRANSFER}}
    r = requests.post(bank.url, json=call, headers=headers, timeout=HTTP_TIMEOUT)
    assert r.status_code == 403, describe(r)
    challenge = r.headers.get("WWW-Authenticate", "")
    assert challenge.startswith("Bearer ") and 'error="insufficient_scope"' in challenge, challenge
    assert 'scope="transfer:funds"' in challenge, challenge
    assert json_of(r)["error"] == "insufficient_scope", describe(r)
    balance = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_balance", "arguments": {}}}
    r = requests.post(bank.url, json=balance, headers=headers, timeout=HTTP_TIMEOUT)
    assert r.status_code == 200 and '"amount"' in r.text, describe(r)
    requests.delete(bank.url, headers=headers, timeout=HTTP_TIMEOUT)


# ------------------------------------------------------------------------ 5. a Client ID Metadata Document
def test_a_stock_mcp_client_identified_by_a_metadata_document_gets_an_approved_transfer(request):
    """SPEC §13 (draft-ietf-oauth-client-id-metadata-document; MCP's preferred registration): the SDK's provider,
    given a `client_metadata_url`, skips registration when Warden's metadata says
    `client_id_metadata_document_supported`, and uses the URL as its client_id; Warden fetches the document over
    https (the document server's CA through `--client-metadata-ca-file`, its loopback address allow-listed) and
    signs the user in. Registration is off on this Warden, so the document is the only way in."""

    def document(url: str) -> dict:
        return {"client_id": url, "client_name": "Interop agent (metadata document)", "redirect_uris": [REDIRECT_URI],
                "grant_types": ["authorization_code", "refresh_token"], "response_types": ["code"],
                "token_endpoint_auth_method": "none", "client_uri": "https://agent.interop.test/"}

    failed_before = request.session.testsfailed
    with metadata_document_server(document) as documents, \
            own_node(binary=default_binary(), mgmt_client_id="cimd-mgmt", prefix="warden-cimd-node-",
                     env={"WARDEN_CLIENT_METADATA_DOCUMENTS": "1",
                          "WARDEN_CLIENT_METADATA_ALLOW_HOSTS": documents.allow_host,
                          "WARDEN_CLIENT_METADATA_CA_FILE": documents.ca_file}) as node, \
            running_bank(node, lambda: request.session.testsfailed > failed_before) as bank:
        server = json_of(expect_status(requests.get(node.url(".well-known/oauth-authorization-server"),
                                                    timeout=HTTP_TIMEOUT), 200))
        assert server["client_id_metadata_document_supported"] is True, server
        assert "registration_endpoint" not in server, server
        user, device = new_user(node)
        storage, browser = Storage(), Browser(node, user)

        async def conversation() -> None:
            with anyio.fail_after(FLOW_TIMEOUT):
                async with connected(bank, storage, browser, client_metadata_url=documents.url) as (session, _):
                    balance = await session.call_tool("get_balance", {})
                    assert not balance.isError, balance
                    result, shown = await transfer_with_answer(session, device, accept=True)
                    assert not result.isError and result.structuredContent["status"] == "executed", result
                    check_device_saw_the_transfer(shown, bank)

        anyio.run(conversation)

        (authorize,) = browser.authorize_urls
        query = {k: v[0] for k, v in parse_qs(urlsplit(authorize).query).items()}
        assert query["client_id"] == documents.url, query
        assert "/clients/mcp-agent.json" in documents.requests, documents.requests
        _, claims = verify_jwt(storage.tokens.access_token, node.jwks(), ["RS256", "ES256", "PS256"])
        assert claims["client_id"] == documents.url and bank.url in audiences(claims), claims
        assert claims["sub"] == user.user_id, claims
