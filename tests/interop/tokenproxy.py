"""An upstream that lies, for the ID token checks of SPEC §15 "Sign-in" (OIDC Core §3.1.3.7): a token endpoint in
front of a real upstream's (Glewlwyd's) that forwards each request as it came and answers what the upstream answered,
the `id_token` passed through `rewrite` first. A connection points its `token_endpoint` here and keeps the upstream's
discovery, JWKS and userinfo, so every other part of the login is the real upstream's.

The rewrites (`resign`, `unsigned`, `hmac_signed`) take the token apart without checking it and sign it again: with
the upstream's own key (a token that differs only in the claims changed, as a buggy or compromised upstream would
send), with a key of the attacker's (same `kid`: only the signature can tell), with `alg: none`, or with HS256 keyed
by the upstream's public key (the algorithm-confusion attack)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from http.server import BaseHTTPRequestHandler
from typing import Callable

import requests
from joserfc import jwt
from joserfc.jwk import RSAKey

from wardenlib import HTTP_TIMEOUT, LoopbackServer, write_response


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _part(segment: str) -> dict:
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))


def parts(token: str) -> tuple[dict, dict]:
    """The header and claims of a compact JWS, unchecked."""
    header, claims, _ = token.split(".")
    return _part(header), _part(claims)


def resign(token: str, key: RSAKey, *, header: dict | None = None, claims: dict | None = None) -> str:
    """`token` with `header` and `claims` merged in (a `None` value removes the claim), signed RS256 by `key`."""
    head, body = parts(token)
    head.update(header or {})
    for name, value in (claims or {}).items():
        if value is None:
            body.pop(name, None)
        else:
            body[name] = value
    return jwt.encode(head, body, key, algorithms=[head["alg"]])


def unsigned(token: str) -> str:
    """`alg: none` and no signature (RFC 7519 §6)."""
    head, body = parts(token)
    head["alg"] = "none"
    return f"{_b64(json.dumps(head).encode())}.{_b64(json.dumps(body).encode())}."


def hmac_signed(token: str, secret: bytes) -> str:
    """HS256 keyed by `secret` (the upstream's public key in PEM: the algorithm-confusion attack)."""
    head, body = parts(token)
    head["alg"] = "HS256"
    signing_input = f"{_b64(json.dumps(head).encode())}.{_b64(json.dumps(body).encode())}"
    return f"{signing_input}.{_b64(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())}"


class TokenProxy(LoopbackServer):
    """`POST {url}` forwards to `target`; `rewrite(id_token) -> id_token` changes the answer's ID token, and each
    answer waits `delay` seconds first (a slow upstream)."""

    def __init__(self, target: str, delay: float = 0.0) -> None:
        self.target = target
        self.delay = delay
        self.rewrite: Callable[[str], str] = lambda token: token
        self.seen: list[str] = []  # the ID tokens the upstream issued
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                time.sleep(proxy.delay)
                headers = {name: self.headers[name] for name in ("Content-Type", "Authorization", "Accept")
                           if self.headers.get(name)}
                answer = requests.post(proxy.target, data=body, headers=headers, timeout=HTTP_TIMEOUT)
                data = answer.content
                if answer.status_code == 200 and "id_token" in answer.json():
                    tokens = answer.json()
                    proxy.seen.append(tokens["id_token"])
                    tokens["id_token"] = proxy.rewrite(tokens["id_token"])
                    data = json.dumps(tokens).encode()
                write_response(self, answer.status_code, data,
                               answer.headers.get("Content-Type", "application/json"))

        super().__init__(Handler)
        self.url = f"{self.base_url}/token"
