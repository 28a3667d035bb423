#!/usr/bin/env python3
"""A test SMTP server that keeps every message it receives as a file (aiosmtpd, tests/interop/requirements.txt).

    python3 scripts/test-support/smtp-sink.py --port 0 --maildir DIR [--tls-cert PEM --tls-key PEM [--require-starttls]]
                                 [--implicit-tls] [--auth-user U --auth-password P [--auth-mechanisms PLAIN,LOGIN]]
                                 [--host 127.0.0.1] [--exit-on-stdin-eof]

Each accepted message becomes DIR/<time>-<n>.eml: X-Sink-Mail-From, one X-Sink-Rcpt-To per recipient,
X-Sink-TLS (the TLS version, or "none"), X-Sink-Auth-User (when authenticated), then the message exactly as received
(after SMTP's dot-unstuffing), CRLF line endings. Files are written under a hidden temporary name and renamed, so
a reader never sees half of one.

--tls-cert/--tls-key without --implicit-tls offer STARTTLS (RFC 3207); with --implicit-tls the whole connection is
TLS (smtps, RFC 8314). --auth-user/--auth-password offer AUTH (RFC 4954, PLAIN and LOGIN unless
--auth-mechanisms says otherwise) and require it before MAIL; when STARTTLS is offered AUTH is only offered after
it, otherwise it is offered in plain text. --port 0 picks a free port. Once listening the server prints one line
"ready PORT" on stdout. It stops on SIGTERM/SIGINT, and with --exit-on-stdin-eof when its stdin closes (so a test
that dies does not leave it behind).
"""

import argparse
import asyncio
import itertools
import os
import signal
import ssl
import sys
import threading
import time

try:
    from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
except ImportError:  # pragma: no cover - reported to the test that started us
    sys.stderr.write("smtp-sink: the Python package 'aiosmtpd' is missing (pip install -r tests/interop/requirements.txt)\n")
    sys.exit(3)

BUILTIN_MECHANISMS = {"PLAIN", "LOGIN"}


class MaildirHandler:
    """Writes each message into the maildir (temp file + rename)."""

    def __init__(self, maildir):
        self.maildir = maildir
        self.counter = itertools.count(1)

    async def handle_DATA(self, server, session, envelope):
        tls = server.transport.get_extra_info("ssl_object") if server.transport else None
        headers = [f"X-Sink-Mail-From: {envelope.mail_from}"]
        headers += [f"X-Sink-Rcpt-To: {rcpt}" for rcpt in envelope.rcpt_tos]
        headers.append(f"X-Sink-TLS: {tls.version() if tls else 'none'}")
        if session.authenticated and isinstance(session.auth_data, LoginPassword):
            headers.append(f"X-Sink-Auth-User: {session.auth_data.login.decode('utf-8', 'replace')}")
        content = envelope.original_content or b""
        data = ("\r\n".join(headers) + "\r\n").encode("utf-8") + content

        name = time.strftime("%Y%m%dT%H%M%S", time.gmtime()) + f"-{os.getpid()}-{next(self.counter):06d}.eml"
        temporary = os.path.join(self.maildir, "." + name + ".tmp")
        with open(temporary, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.rename(temporary, os.path.join(self.maildir, name))
        return "250 2.0.0 OK: queued as " + name


def make_authenticator(user, password):
    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login == user.encode("utf-8")
            and auth_data.password == password.encode("utf-8")
        )
        # handled=False: aiosmtpd answers 235 on success, "535 5.7.8 Authentication credentials invalid" otherwise
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

    return authenticator


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True, help="0 picks a free port (printed on the ready line)")
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--require-starttls", action="store_true", help="refuse commands before STARTTLS")
    parser.add_argument("--implicit-tls", action="store_true", help="TLS from the first byte (smtps)")
    parser.add_argument("--auth-user")
    parser.add_argument("--auth-password")
    parser.add_argument("--auth-mechanisms", default="PLAIN,LOGIN", help="comma-separated subset of PLAIN,LOGIN")
    parser.add_argument("--exit-on-stdin-eof", action="store_true")
    arguments = parser.parse_args()
    if bool(arguments.tls_cert) != bool(arguments.tls_key):
        parser.error("--tls-cert and --tls-key go together")
    if (arguments.implicit_tls or arguments.require_starttls) and not arguments.tls_cert:
        parser.error("--implicit-tls and --require-starttls need --tls-cert/--tls-key")
    if bool(arguments.auth_user) != (arguments.auth_password is not None):
        parser.error("--auth-user and --auth-password go together")
    mechanisms = {m.strip().upper() for m in arguments.auth_mechanisms.split(",") if m.strip()}
    if not mechanisms or not mechanisms <= BUILTIN_MECHANISMS:
        parser.error("--auth-mechanisms must be a non-empty subset of PLAIN,LOGIN")
    arguments.auth_mechanisms = mechanisms
    return arguments


async def serve(arguments):
    os.makedirs(arguments.maildir, exist_ok=True)
    loop = asyncio.get_running_loop()

    tls_context = None
    if arguments.tls_cert:
        tls_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        tls_context.load_cert_chain(arguments.tls_cert, arguments.tls_key)
    starttls_context = None if arguments.implicit_tls else tls_context

    smtp_options = dict(
        hostname="smtp-sink.test",
        ident="warden smtp-sink",
        tls_context=starttls_context,
        require_starttls=bool(starttls_context and arguments.require_starttls),
        loop=loop,
    )
    if arguments.auth_user:
        smtp_options.update(
            authenticator=make_authenticator(arguments.auth_user, arguments.auth_password),
            auth_required=True,
            # AUTH after STARTTLS when it is offered; else (plain text or implicit TLS) at once.
            auth_require_tls=starttls_context is not None,
            auth_exclude_mechanism=sorted(BUILTIN_MECHANISMS - arguments.auth_mechanisms),
        )

    handler = MaildirHandler(arguments.maildir)
    server = await loop.create_server(
        lambda: SMTP(handler, **smtp_options),
        host=arguments.host,
        port=arguments.port,
        ssl=tls_context if arguments.implicit_tls else None,
    )
    port = server.sockets[0].getsockname()[1]
    print(f"ready {port}", flush=True)

    stop = asyncio.Event()
    for signal_number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signal_number, stop.set)
    if arguments.exit_on_stdin_eof:
        def watch_stdin():
            try:
                while sys.stdin.buffer.read(4096):
                    pass
            finally:
                loop.call_soon_threadsafe(stop.set)

        threading.Thread(target=watch_stdin, name="stdin-watch", daemon=True).start()
    await stop.wait()
    server.close()
    await server.wait_closed()


def main():
    # A parent may have spawned us with these signals blocked (the mask is inherited): unblock them so that
    # SIGTERM stops the server.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    arguments = parse_arguments()
    try:
        asyncio.run(serve(arguments))
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
