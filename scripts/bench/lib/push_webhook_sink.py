#!/usr/bin/env python3
"""The push webhook endpoint of scripts/bench/push (SPEC §6.3): a small asyncio HTTP/1.1 server, keep-alive,
that answers every POST with `200` and no body, checks `X-Warden-Signature: sha256=HEX(HMAC-SHA256(secret,
body))` and records (receive time, dai, txlnkid, binding message) of each notification.

Receive times are `time.monotonic()` (CLOCK_MONOTONIC: one clock for every process of the machine), taken when
the bytes of a request are handed to the server, so the benchmark driver can subtract its own send times.

Control endpoints (GET, on the same port; the driver's, not Warden's):
    /_stats                 JSON counters: received, verified, bad_signature, unparsed, records, kept,
                            connections (open now) and max_connections, cpu_s (this process' user+system time)
    /_records?from=N        the records from index N on, one a line: `time<TAB>dai<TAB>txlnkid<TAB>binding`
    /_take?bm=B&timeout=S   waits (at most S seconds, default 10) for the notification whose binding message is
                            B, which must start with --keep-prefix; answers {"t": receive time, "body": the
                            notification} and forgets it, or 404 on timeout
    POST /_reset            forgets every record and counter (after the self-test)

Usage: push_webhook_sink.py --secret S [--port 0] [--verify-every 1] [--keep-prefix "dev "] [--exit-with PID]
Prints `ready PORT` on stdout once listening. With --exit-with, exits when that process is gone.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import json
import os
import re
import sys
import time
from urllib.parse import parse_qs, urlsplit

OK = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"
DAI = re.compile(rb'"dai"\s*:\s*"([^"]*)"')
TXLNKID = re.compile(rb'"txlnkid"\s*:\s*"([^"]*)"')
BINDING = re.compile(rb'"body"\s*:\s*"((?:[^"\\]|\\.)*)"')


class Sink:
    def __init__(self, secret: str, verify_every: int, keep_prefix: str):
        self.secret = secret.encode()
        self.verify_every = max(1, verify_every)
        self.keep_prefix = keep_prefix.encode()
        self.reset()
        self.connections = 0
        self.max_connections = 0

    def reset(self) -> None:
        self.received = 0
        self.verified = 0
        self.bad_signature = 0
        self.unparsed = 0
        self.records: list[tuple[float, bytes, bytes, bytes]] = []
        self.kept: dict[bytes, tuple[float, bytes]] = {}
        self.waiters: dict[bytes, asyncio.Future] = {}

    # ------------------------------------------------------------------------------------------ webhook
    def notification(self, head: bytes, lower: bytes, body: bytes, now: float) -> None:
        self.received += 1
        if self.received % self.verify_every == 0:
            i = lower.find(b"\r\nx-warden-signature:")
            ok = False
            if i >= 0:
                start = i + len(b"\r\nx-warden-signature:")
                end = head.find(b"\r\n", start)
                value = head[start:end if end >= 0 else len(head)].strip()
                expected = b"sha256=" + hmac.digest(self.secret, body, "sha256").hex().encode()
                ok = hmac.compare_digest(value, expected)
            if ok:
                self.verified += 1
            else:
                self.bad_signature += 1
        dai, tx, bm = DAI.search(body), TXLNKID.search(body), BINDING.search(body)
        if not (dai and tx and bm):
            self.unparsed += 1
            return
        binding = bm.group(1)
        self.records.append((now, dai.group(1), tx.group(1), binding))
        if self.keep_prefix and binding.startswith(self.keep_prefix):
            waiter = self.waiters.pop(binding, None)
            if waiter is not None and not waiter.done():
                waiter.set_result((now, body))
            else:
                self.kept[binding] = (now, body)

    # ------------------------------------------------------------------------------------------ control
    def stats(self) -> dict:
        times = os.times()
        return {"received": self.received, "verified": self.verified, "bad_signature": self.bad_signature,
                "unparsed": self.unparsed, "records": len(self.records), "kept": len(self.kept),
                "connections": self.connections, "max_connections": self.max_connections,
                "cpu_s": round(times.user + times.system, 3), "verify_every": self.verify_every}

    def records_from(self, start: int) -> bytes:
        return b"".join(b"%.6f\t%s\t%s\t%s\n" % r for r in self.records[start:])

    def take(self, binding: bytes, timeout: float, reply) -> None:
        kept = self.kept.pop(binding, None)
        if kept is not None:
            reply(200, json.dumps({"t": kept[0], "body": json.loads(kept[1])}).encode())
            return
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        self.waiters[binding] = waiter
        handle = loop.call_later(timeout, lambda: waiter.done() or waiter.set_result(None))

        def done(f: asyncio.Future) -> None:
            handle.cancel()
            if self.waiters.get(binding) is waiter:
                del self.waiters[binding]
            result = f.result()
            if result is None:
                reply(404, b'{"error":"timeout"}')
            else:
                reply(200, json.dumps({"t": result[0], "body": json.loads(result[1])}).encode())

        waiter.add_done_callback(done)

    def control(self, method: bytes, target: bytes, reply) -> None:
        parts = urlsplit(target.decode("latin-1"))
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        if method == b"GET" and parts.path == "/_stats":
            reply(200, json.dumps(self.stats()).encode())
        elif method == b"GET" and parts.path == "/_records":
            reply(200, self.records_from(int(query.get("from", "0"))), b"text/plain")
        elif method == b"GET" and parts.path == "/_take":
            self.take(query.get("bm", "").encode(), float(query.get("timeout", "10")), reply)
        elif method == b"POST" and parts.path == "/_reset":
            self.reset()
            reply(200, b"{}")
        else:
            reply(404, b'{"error":"no such control endpoint"}')


def response(status: int, body: bytes, kind: bytes = b"application/json") -> bytes:
    reason = {200: b"OK", 400: b"Bad Request", 404: b"Not Found"}.get(status, b"Status")
    return b"HTTP/1.1 %d %s\r\ncontent-type: %s\r\ncontent-length: %d\r\n\r\n%s" % (
        status, reason, kind, len(body), body)


def chunked(buf: bytes, start: int) -> tuple[bytes, int] | None:
    """The decoded chunked body starting at `start` and the index after it, or None while incomplete."""
    out, i = [], start
    while True:
        eol = buf.find(b"\r\n", i)
        if eol < 0:
            return None
        size = int(buf[i:eol].split(b";")[0], 16)
        i = eol + 2
        if size == 0:
            end = buf.find(b"\r\n\r\n", i - 2)
            return (b"".join(out), end + 4) if end >= 0 else None
        if len(buf) < i + size + 2:
            return None
        out.append(buf[i:i + size])
        i += size + 2


class Connection(asyncio.Protocol):
    def __init__(self, sink: Sink):
        self.sink = sink
        self.buf = b""
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.sink.connections += 1
        self.sink.max_connections = max(self.sink.max_connections, self.sink.connections)

    def connection_lost(self, exc) -> None:
        self.sink.connections -= 1

    def reply(self, status: int, body: bytes, kind: bytes = b"application/json") -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(response(status, body, kind))

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        buf = self.buf + data if self.buf else data
        out = []
        while True:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                break
            head = buf[:end]
            lower = head.lower()
            i = lower.find(b"\r\ncontent-length:")
            if i >= 0:
                j = lower.find(b"\r\n", i + 2)
                length = int(lower[i + 17:j if j >= 0 else len(lower)])
                if len(buf) < end + 4 + length:
                    break
                body, rest = buf[end + 4:end + 4 + length], end + 4 + length
            elif b"\r\ntransfer-encoding: chunked" in lower:
                decoded = chunked(buf, end + 4)
                if decoded is None:
                    break
                body, rest = decoded
            else:
                body, rest = b"", end + 4
            buf = buf[rest:]
            line_end = head.find(b"\r\n")
            method, target = (head[:line_end] if line_end >= 0 else head).split(b" ")[:2]
            if target.startswith(b"/_"):
                if out:
                    self.transport.write(b"".join(out))
                    out = []
                self.sink.control(method, target, self.reply)
            else:
                self.sink.notification(head, lower, body, now)
                out.append(OK)
        self.buf = buf
        if out:
            self.transport.write(b"".join(out) if len(out) > 1 else out[0])


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--secret", required=True)
    parser.add_argument("--verify-every", type=int, default=1, help="check the signature of every Nth request")
    parser.add_argument("--keep-prefix", default="dev ", help="keep whole bodies of these binding messages")
    parser.add_argument("--exit-with", type=int, help="exit when this process is gone")
    args = parser.parse_args()
    sink = Sink(args.secret, args.verify_every, args.keep_prefix)
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: Connection(sink), "127.0.0.1", args.port, backlog=1024)
    print(f"ready {server.sockets[0].getsockname()[1]}", flush=True)
    while True:
        await asyncio.sleep(1)
        if args.exit_with:
            try:
                os.kill(args.exit_with, 0)
            except ProcessLookupError:
                return


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
