"""SPEC §15.1: the database connection's accounts against real software — auth0-python's `Database.signup` and
`Database.change_password` and its Management client (tickets, the verification job, connection options), the
suite's SMTP sink for the e-mails, and the hosted pages walked as a browser posts them.

The module runs its own node (on the suite's database: a file of its own on SQLite, the shared cluster on
PostgreSQL) trusting 127.0.0.1 as a proxy, so that each test signs up from an `X-Forwarded-For` address of its own
and the per-IP limits (10 sign-ups an hour) are tested exactly rather than spent by the suite.
"""

from __future__ import annotations

import itertools
import re
import time
from urllib.parse import urljoin

import pytest
import requests
from auth0.authentication import Database
from auth0.authentication.exceptions import Auth0Error

from cibalib import Mail
from pkcelib import (LoginFailed, authorize_url, code_exchange, create_public_client, fake_callback, hosted_login,
                     new_verifier, parse_page, refresh_form)
from wardenlib import HTTP_TIMEOUT, describe, expect_status, json_of, uid

CONNECTION = "Username-Password-Authentication"
RESET_ANSWER = "If that address has an account, we sent a link to reset its password."
_addresses = itertools.count(1)


def new_ip() -> str:
    """An address of TEST-NET-2 (RFC 5737) for X-Forwarded-For: only a header value, never a destination."""
    n = next(_addresses)
    return f"198.51.{100 + n // 250}.{n % 250 + 1}"


@pytest.fixture(scope="module")
def node(proxied_node):
    """A node that trusts 127.0.0.1's X-Forwarded-For, mailing through the suite's SMTP sink."""
    return proxied_node


@pytest.fixture(scope="module")
def app(node):
    callback = fake_callback()
    client = create_public_client(node, [callback], name="Accounts app")
    return {"client_id": client["client_id"], "callback": callback}


def database(node, app) -> Database:
    return Database(node.domain, app["client_id"], protocol="http", timeout=HTTP_TIMEOUT)


def database_options(node) -> dict:
    connection = json_of(expect_status(node.mgmt("GET", "connections?name=" + CONNECTION), 200))[0]
    return connection["id"], connection["options"]


@pytest.fixture
def options(node, sdk_node):
    """Sets database connection options for one test through auth0-python (a PATCH replaces them whole), and
    puts the previous ones back afterwards."""
    connection_id, before = database_options(node)

    def set_options(**changes):
        updated = sdk_node.connections.update(connection_id, options={**before, **changes})
        return updated

    yield set_options
    expect_status(node.mgmt("PATCH", f"connections/{connection_id}", json={"options": before}), 200)


@pytest.fixture
def sdk_node(node):
    from auth0.management.client import Auth0

    return Auth0(base_url=node.mgmt_base, token=lambda: node.mgmt_token(), max_retries=0, timeout=30)


def signup(node, app, email: str, password: str, ip: str | None = None, **extra) -> requests.Response:
    headers = {"X-Forwarded-For": ip or new_ip()}
    body = {"client_id": app["client_id"], "email": email, "password": password, "connection": CONNECTION, **extra}
    return requests.post(node.url("dbconnections/signup"), json=body, headers=headers, timeout=HTTP_TIMEOUT)


def link_in(mail: Mail, node, page: str) -> str:
    found = sorted(set(re.findall(re.escape(node.base_url) + page + r"\?ticket=[A-Za-z0-9_-]+", mail.text or "")))
    assert len(found) == 1, f"expected one {page} link:\n{mail.text}"
    return found[0]


def logs(node, type_: str, user_id: str | None = None) -> list[dict]:
    deadline = time.monotonic() + 5
    while True:
        query = f"type:{type_}" + (f' AND user_id:"{user_id}"' if user_id else "")
        found = json_of(expect_status(node.mgmt("GET", "logs", params={"q": query, "per_page": 100}), 200))
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


# ----------------------------------------------------------------------------------------------- sign-up
def test_sdk_signup_mails_a_single_use_verification_link(node, app, smtp_sink):
    email = f"signup-{uid()}@interop.test"
    made = database(node, app).signup(email=email, password="Signup-Passw0rd!", connection=CONNECTION,
                                      given_name="Ada", family_name="Lovelace", user_metadata={"plan": "trial"})
    assert made["email"] == email and made["email_verified"] is False and "_id" in made, made
    user_id = "auth0|" + made["_id"]
    user = json_of(expect_status(node.mgmt("GET", f"users/{user_id}"), 200))
    assert user["email_verified"] is False and user["name"] == "Ada Lovelace", user
    assert (made["given_name"], made["family_name"]) == ("Ada", "Lovelace"), made
    assert (user["given_name"], user["family_name"]) == ("Ada", "Lovelace"), user
    assert user["user_metadata"] == {"plan": "trial"}, user

    mail = smtp_sink.wait_for_mail(email, containing="u/email-verification")
    assert mail.subject == "Verify your e-mail address", mail.subject
    assert "If you did not sign up" in mail.text and node.domain in mail.text, mail.text
    assert mail.html and "Verify your e-mail address" in mail.html_text(), mail.html
    link = link_in(mail, node, "u/email-verification")
    assert link in mail.html_links(), mail.html_links()
    opened = requests.get(link, timeout=HTTP_TIMEOUT)
    assert opened.status_code == 200 and "E-mail address verified" in opened.text, describe(opened)
    assert json_of(node.mgmt("GET", f"users/{user_id}"))["email_verified"] is True
    again = requests.get(link, timeout=HTTP_TIMEOUT)
    assert again.status_code == 400 and "Link not valid" in again.text, describe(again)
    assert logs(node, "ss", user_id) and logs(node, "sv", user_id)
    assert logs(node, "fv")


def test_sdk_signup_refusals_never_say_the_address_exists(node, app):
    db = database(node, app)
    email = f"taken-{uid()}@interop.test"
    db.signup(email=email, password="Taken-Passw0rd!", connection=CONNECTION)
    with pytest.raises(Auth0Error) as caught:
        db.signup(email=email.upper(), password="Other-Passw0rd!", connection=CONNECTION)
    assert (caught.value.status_code, caught.value.error_code) == (400, "invalid_signup"), vars(caught.value)
    assert caught.value.message == "Invalid sign up", vars(caught.value)
    # A new address with a bad password answers invalid_password, the taken one invalid_signup: the answer for a
    # taken address is the same as for a malformed one.
    taken = signup(node, app, email, "Taken-Passw0rd!").json()
    malformed = signup(node, app, "not-an-address", "Taken-Passw0rd!").json()
    assert taken == malformed, (taken, malformed)
    assert "exist" not in taken["error_description"].lower()

    weak = signup(node, app, f"weak-{uid()}@interop.test", "password")
    body = weak.json()
    assert weak.status_code == 400 and body["error"] == "invalid_password" and body["code"] == "invalid_password"
    assert body["name"] == "PasswordStrengthError" and body["statusCode"] == 400, body
    assert body["description"]["verified"] is False and body["description"]["rules"], body
    assert body["policy"].startswith("* At least 8 characters in length"), body["policy"]
    with pytest.raises(Auth0Error) as caught:
        db.signup(email=f"weak-{uid()}@interop.test", password="password", connection=CONNECTION)
    assert caught.value.error_code == "invalid_password", vars(caught.value)


def test_ten_signups_per_ip_an_hour_failed_ones_included(node, app):
    ip = new_ip()
    answers = [signup(node, app, f"limit-{i}-{uid()}@interop.test", "weak" if i % 2 else "Limit-Passw0rd!", ip)
               for i in range(11)]
    assert [a.status_code for a in answers[:10]] == [200, 400] * 5, [describe(a) for a in answers]
    refused = answers[10]
    assert refused.status_code == 429 and refused.json()["error"] == "too_many_requests", describe(refused)
    assert int(refused.headers["Retry-After"]) > 3000, refused.headers
    assert signup(node, app, f"other-ip-{uid()}@interop.test", "Limit-Passw0rd!").status_code == 200


def test_disable_signup(node, app, options):
    options(disable_signup=True)
    response = signup(node, app, f"off-{uid()}@interop.test", "Signup-Passw0rd!")
    assert response.status_code == 400 and response.json()["error"] == "signup_disabled", describe(response)
    verifier = new_verifier()
    login = requests.get(authorize_url(node, app["client_id"], app["callback"], verifier=verifier, state="s"),
                         timeout=HTTP_TIMEOUT)
    assert login.status_code == 200 and "Forgot password?" in login.text and "/u/signup" not in login.text
    page = requests.get(authorize_url(node, app["client_id"], app["callback"], verifier=verifier, state="s",
                                      screen_hint="signup"), timeout=HTTP_TIMEOUT)
    assert "Sign-up is turned off" in page.text and 'name="password"' not in page.text, page.text


def test_hosted_signup_continues_the_login_as_the_new_user(node, app, smtp_sink):
    session = requests.Session()
    session.headers["X-Forwarded-For"] = new_ip()
    verifier = new_verifier()
    url = authorize_url(node, app["client_id"], app["callback"], verifier=verifier, state="st",
                        scope="openid email offline_access", screen_hint="signup")
    page = session.get(url, timeout=HTTP_TIMEOUT)
    assert page.status_code == 200 and "/u/signup" in page.url and "Create your account" in page.text
    (form,) = parse_page(page.text).forms
    fields = {i["name"]: i.get("value") or "" for i in form.inputs if i.get("name")}
    email = f"hosted-{uid()}@interop.test"
    weak = session.post(urljoin(page.url, form.action), data={**fields, "email": email, "password": "abc"},
                        allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert weak.status_code == 400 and "At least 8 characters in length" in weak.text, describe(weak)
    made = session.post(urljoin(page.url, form.action), data={**fields, "email": email, "password": "Hosted-Passw0rd!"},
                        allow_redirects=False, timeout=HTTP_TIMEOUT)
    assert made.status_code == 302 and made.headers["Location"].startswith(app["callback"]), describe(made)
    code = re.search(r"[?&]code=([^&]+)", made.headers["Location"]).group(1)
    tokens = json_of(expect_status(code_exchange(node, app["client_id"], code, verifier, app["callback"]), 200))
    assert "refresh_token" in tokens and "id_token" in tokens, tokens
    smtp_sink.wait_for_mail(email, containing="u/email-verification")


# ------------------------------------------------------------------------------------------ password reset
def test_change_password_answers_the_same_and_mails_only_an_account(node, app, smtp_sink):
    email = f"reset-{uid()}@interop.test"
    signup(node, app, email, "Reset-Passw0rd!")
    unknown = f"nobody-{uid()}@interop.test"
    db = database(node, app)
    known_answer = db.change_password(email=email, connection=CONNECTION)
    unknown_answer = db.change_password(email=unknown, connection=CONNECTION)
    assert known_answer == unknown_answer == RESET_ANSWER, (known_answer, unknown_answer)
    mail = smtp_sink.wait_for_mail(email, containing="u/reset-password")
    assert mail.subject == "Reset your password" and "If you did not ask" in mail.text, mail.text
    time.sleep(1)
    assert not smtp_sink.mails_to(unknown), "an unknown address gets no mail"
    assert logs(node, "scpr") and logs(node, "fcpr")

    # The hosted request page: the same page for both.
    pages = []
    for address in (email, unknown):
        session = requests.Session()
        page = session.get(node.url("u/reset-password"), timeout=HTTP_TIMEOUT)
        (form,) = parse_page(page.text).forms
        fields = {i["name"]: i.get("value") or "" for i in form.inputs if i.get("name")}
        sent = session.post(node.url("u/reset-password"), data={**fields, "email": address},
                            headers={"X-Forwarded-For": new_ip()}, timeout=HTTP_TIMEOUT)
        assert sent.status_code == 200 and "If that address has an account, we sent a link" in sent.text
        pages.append(parse_page(sent.text).text.replace(address, "ADDRESS"))
    assert pages[0] == pages[1], pages


def test_reset_mails_per_address_are_limited(node, app, smtp_sink):
    email = f"bomb-{uid()}@interop.test"
    signup(node, app, email, "Bomb-Passw0rd!")
    for _ in range(5):
        response = requests.post(node.url("dbconnections/change_password"),
                                 json={"client_id": app["client_id"], "email": email, "connection": CONNECTION},
                                 headers={"X-Forwarded-For": new_ip()}, timeout=HTTP_TIMEOUT)
        assert response.status_code == 200 and response.text == RESET_ANSWER
    smtp_sink.wait_for_mail(email, containing="u/reset-password")
    time.sleep(2)
    resets = [m for m in smtp_sink.mails_to(email) if "u/reset-password" in (m.text or "")]
    assert len(resets) == 3, f"3 reset e-mails an hour per address, got {len(resets)}"
    ip = new_ip()
    answers = [requests.post(node.url("dbconnections/change_password"),
                             json={"client_id": app["client_id"], "email": f"x-{i}@interop.test",
                                   "connection": CONNECTION},
                             headers={"X-Forwarded-For": ip}, timeout=HTTP_TIMEOUT).status_code for i in range(21)]
    assert answers == [200] * 20 + [429], answers


def reset_through_the_link(link: str, password: str, confirmation: str | None = None) -> requests.Response:
    session = requests.Session()
    page = session.get(link, timeout=HTTP_TIMEOUT)
    assert page.status_code == 200 and "Choose a new password" in page.text, describe(page)
    (form,) = parse_page(page.text).forms
    fields = {i["name"]: i.get("value") or "" for i in form.inputs if i.get("name")}
    return session.post(urljoin(link, form.action), timeout=HTTP_TIMEOUT,
                        data={**fields, "password": password, "password_confirmation": confirmation or password})


def test_a_reset_link_works_once_ends_refresh_tokens_and_unlocks(node, app, smtp_sink):
    email = f"reset-once-{uid()}@interop.test"
    signup(node, app, email, "Before-Passw0rd!")
    # A refresh token from before the reset.
    verifier = new_verifier()
    login = hosted_login(node, authorize_url(node, app["client_id"], app["callback"], verifier=verifier, state="s",
                                             scope="openid offline_access"),
                         redirect_uri=app["callback"], email=email, password="Before-Passw0rd!")
    tokens = json_of(expect_status(code_exchange(node, app["client_id"], login.code, verifier, app["callback"]), 200))
    refresh = tokens["refresh_token"]
    # Locked out: ten wrong passwords.
    locked = requests.Session()
    locked.headers["X-Forwarded-For"] = new_ip()
    for attempt in range(10):
        with pytest.raises(LoginFailed):
            hosted_login(node, authorize_url(node, app["client_id"], app["callback"], verifier=new_verifier()),
                         redirect_uri=app["callback"], email=email, password=f"wrong-{attempt}", session=locked)
    with pytest.raises(LoginFailed, match="Too many failed sign-in attempts"):
        hosted_login(node, authorize_url(node, app["client_id"], app["callback"], verifier=new_verifier()),
                     redirect_uri=app["callback"], email=email, password="Before-Passw0rd!")

    database(node, app).change_password(email=email, connection=CONNECTION)
    link = link_in(smtp_sink.wait_for_mail(email, containing="u/reset-password"), node, "u/reset-password")
    refused = reset_through_the_link(link, "short")
    assert refused.status_code == 400 and "At least 8 characters in length" in refused.text, describe(refused)
    differ = reset_through_the_link(link, "After-Passw0rd!", "After-Passw0rd?")
    assert differ.status_code == 400 and "differ" in differ.text
    changed = reset_through_the_link(link, "After-Passw0rd!")
    assert changed.status_code == 200 and "Password changed" in changed.text, describe(changed)
    used = requests.get(link, timeout=HTTP_TIMEOUT)
    assert used.status_code == 400 and "Link not valid" in used.text, describe(used)

    after = refresh_form(node, app["client_id"], refresh)
    assert after.status_code == 400 and after.json()["error"] == "invalid_grant", describe(after)
    again = hosted_login(node, authorize_url(node, app["client_id"], app["callback"], verifier=new_verifier()),
                         redirect_uri=app["callback"], email=email, password="After-Passw0rd!")
    assert again.code
    user_id = json_of(node.mgmt("GET", "users-by-email", params={"email": email}))[0]["user_id"]
    assert logs(node, "scp", user_id) and logs(node, "fcp", user_id)


# ------------------------------------------------------------------------------------------ password policy
LEVELS = [
    # (level, the longest refused password, the shortest accepted one)
    ("none", "", "a"),
    ("low", "abcde", "abcdef"),
    ("fair", "Abcdef1", "Abcdef12"),
    ("fair", "abcdefg1", "Abcdefg1"),
    ("good", "Abcdefg", "Abcdefg1"),
    ("good", "abcdefgh1", "abcdefg1!"),
    ("excellent", "Abcdefgh1", "Abcdefgh12"),
    ("excellent", "Abcdefff12", "Abcdeff12x"),
]


@pytest.mark.parametrize("level,refused,accepted", LEVELS)
def test_each_policy_level_at_its_boundaries(node, app, options, level, refused, accepted):
    options(passwordPolicy=level)
    assert database_options(node)[1]["passwordPolicy"] == level
    if refused:
        response = signup(node, app, f"{level}-no-{uid()}@interop.test", refused)
        assert response.status_code == 400 and response.json()["name"] == "PasswordStrengthError", describe(response)
    response = signup(node, app, f"{level}-ok-{uid()}@interop.test", accepted)
    assert response.status_code == 200, describe(response)


def test_min_length_history_personal_info_and_dictionary(node, app, options, sdk_node):
    options(passwordPolicy="low", password_complexity_options={"min_length": 12},
            password_history={"enable": True, "size": 2}, password_no_personal_info={"enable": True},
            password_dictionary={"enable": True, "dictionary": ["wardenword"]})
    assert signup(node, app, f"min-{uid()}@interop.test", "elevenchars").json()["name"] == "PasswordStrengthError"
    assert signup(node, app, f"dict-{uid()}@interop.test", "WardenWord").status_code == 400
    common = signup(node, app, f"common-{uid()}@interop.test", "1qaz2wsx3edc")
    assert common.json()["name"] == "PasswordDictionaryError", describe(common)
    personal = signup(node, app, f"lovelace.ada-{uid()}@interop.test", "my-lovelace-pass", name="Ada Lovelace")
    assert personal.json()["name"] == "PasswordNoUserInfoError", describe(personal)
    made = signup(node, app, f"history-{uid()}@interop.test", "first-long-passphrase")
    user_id = "auth0|" + made.json()["_id"]
    # The Management API: the same policy, its refusal named in the message.
    for password, status in [("first-long-passphrase", 400), ("second-long-passphrase", 200),
                             ("first-long-passphrase", 400), ("third-long-passphrase", 200),
                             ("first-long-passphrase", 200)]:
        r = node.mgmt("PATCH", f"users/{user_id}", json={"password": password})
        assert r.status_code == status, (password, describe(r))
        if status == 400:
            assert r.json()["message"].startswith("PasswordHistoryError: "), r.json()
    short = node.mgmt("POST", "users", json={"email": f"m-{uid()}@interop.test", "password": "short",
                                             "connection": CONNECTION})
    assert short.status_code == 400 and short.json()["message"].startswith("PasswordStrengthError: "), describe(short)


# ------------------------------------------------------------------------------------- management tickets
def test_management_tickets_and_the_verification_job_through_the_sdk(node, app, sdk_node, smtp_sink):
    email = f"tickets-{uid()}@interop.test"
    user_id = "auth0|" + signup(node, app, email, "Ticket-Passw0rd!").json()["_id"]
    verify = sdk_node.tickets.verify_email(user_id=user_id, result_url=app["callback"], ttl_sec=3600)
    assert verify.ticket.startswith(node.base_url + "u/email-verification?ticket="), verify
    opened = requests.get(verify.ticket, timeout=HTTP_TIMEOUT)
    assert opened.status_code == 200 and app["callback"] in opened.text, describe(opened)

    change = sdk_node.tickets.change_password(user_id=user_id, result_url="https://evil.interop.test/",
                                              mark_email_as_verified=True)
    changed = reset_through_the_link(change.ticket, "Ticketed-Passw0rd!")
    assert changed.status_code == 200 and "evil.interop.test" not in changed.text, describe(changed)
    hosted_login(node, authorize_url(node, app["client_id"], app["callback"], verifier=new_verifier()),
                 redirect_uri=app["callback"], email=email, password="Ticketed-Passw0rd!")
    by_email = sdk_node.tickets.change_password(email=email, connection_id="con_UsernamePasswordAuthentication",
                                                ttl_sec=60)
    assert "/u/reset-password?ticket=" in by_email.ticket
    both = node.mgmt("POST", "tickets/password-change",
                     json={"user_id": user_id, "email": email, "connection_id": "con_UsernamePasswordAuthentication"})
    assert both.status_code == 400 and both.json()["errorCode"] == "invalid_body", describe(both)

    job = sdk_node.jobs.verification_email.create(user_id=user_id)
    assert job.type == "verification_email" and job.status == "pending", job
    deadline = time.monotonic() + 10
    while sdk_node.jobs.get(job.id).status != "completed" and time.monotonic() < deadline:
        time.sleep(0.2)
    assert sdk_node.jobs.get(job.id).status == "completed"
    mails = [m for m in smtp_sink.mails_to(email) if "u/email-verification" in (m.text or "")]
    assert len(mails) >= 1

    narrow = node.mgmt_token(["read:users"])
    refused = node.mgmt("POST", "tickets/email-verification", json={"user_id": user_id}, token=narrow)
    assert refused.status_code == 403, describe(refused)


def test_management_create_with_verify_email(node, smtp_sink):
    email = f"verify-on-create-{uid()}@interop.test"
    made = node.mgmt("POST", "users", json={"email": email, "password": "Create-Passw0rd!", "verify_email": True,
                                            "connection": CONNECTION})
    assert made.status_code == 201, describe(made)
    smtp_sink.wait_for_mail(email, containing="u/email-verification")
    quiet = f"quiet-{uid()}@interop.test"
    expect_status(node.mgmt("POST", "users", json={"email": quiet, "password": "Create-Passw0rd!",
                                                   "connection": CONNECTION}), 201)
    time.sleep(1.5)
    assert not smtp_sink.mails_to(quiet), "no verification e-mail without verify_email"
