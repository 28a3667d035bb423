"""A stand-in for GitHub (github.com cannot be reached from here) that speaks GitHub's documented OAuth web flow
and REST API at a base URL, as GitHub Enterprise Server does: `GET /login/oauth/authorize` (the person approves at
once), `POST /login/oauth/access_token` (answering `Accept: application/json`, and HTTP 200 with `error` for a bad
code, as GitHub does), `GET /api/v3/user` and `GET /api/v3/user/emails` with the access token."""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlencode, urlsplit

from wardenlib import LoopbackServer, write_response


@dataclass
class GitHubAccount:
    id: int
    login: str
    name: str
    emails: list[dict] = field(default_factory=list)


class FakeGitHub(LoopbackServer):
    def __init__(self, account: GitHubAccount, client_id: str, client_secret: str):
        self.account = account
        self.client_id = client_id
        self.client_secret = client_secret
        self.codes: dict[str, str] = {}      # code -> redirect_uri
        self.tokens: set[str] = set()
        self.requests: list[str] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def send_json(self, status: int, body) -> None:
                write_response(self, status, json.dumps(body).encode(), "application/json; charset=utf-8")

            def do_GET(self):
                url = urlsplit(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                fake.requests.append(f"GET {url.path}")
                if url.path == "/login/oauth/authorize":
                    if query.get("client_id") != fake.client_id:
                        return self.send_json(404, {"message": "Not Found"})
                    code = secrets.token_hex(10)
                    fake.codes[code] = query["redirect_uri"]
                    self.send_response(302)
                    self.send_header("Location", query["redirect_uri"] + "?" + urlencode(
                        {"code": code, "state": query.get("state", "")}))
                    self.end_headers()
                    return None
                token = (self.headers.get("Authorization") or "").split(" ", 1)[-1]
                if token not in fake.tokens:
                    return self.send_json(401, {"message": "Bad credentials"})
                if url.path == "/api/v3/user":
                    return self.send_json(200, {"id": fake.account.id, "login": fake.account.login,
                                                "name": fake.account.name, "email": None, "type": "User",
                                                "avatar_url": f"https://avatars.example/u/{fake.account.id}"})
                if url.path == "/api/v3/user/emails":
                    return self.send_json(200, fake.account.emails)
                return self.send_json(404, {"message": "Not Found"})

            def do_POST(self):
                url = urlsplit(self.path)
                fake.requests.append(f"POST {url.path}")
                length = int(self.headers.get("Content-Length") or 0)
                form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
                if url.path != "/login/oauth/access_token":
                    return self.send_json(404, {"message": "Not Found"})
                if form.get("client_id") != fake.client_id or form.get("client_secret") != fake.client_secret:
                    return self.send_json(200, {"error": "incorrect_client_credentials"})
                redirect = fake.codes.pop(form.get("code", ""), None)
                if redirect is None or redirect != form.get("redirect_uri"):
                    return self.send_json(200, {"error": "bad_verification_code"})
                token = "gho_" + secrets.token_hex(16)
                fake.tokens.add(token)
                return self.send_json(200, {"access_token": token, "token_type": "bearer", "scope": "user:email"})

        super().__init__(Handler)
