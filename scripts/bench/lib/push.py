#!/usr/bin/env python3
"""The measuring part of scripts/bench/push (run by it, after it has started the webhook receiver and Warden):
setup through the Management API and the device API, then the four measurements, then a Markdown report.

It talks to Warden only from the outside, with the interop suite's helpers (tests/interop: wardenlib.Warden as
a client handle of the running server, cibalib for the CIBA client, API and requests, guardianlib.Device for
enrolment, the consent fetch and resolve-transaction), and to the receiver through its control endpoints
(scripts/bench/lib/push_webhook_sink.py). Times are time.monotonic() in every process (CLOCK_MONOTONIC), so a
webhook's receive time minus the driver's send time is the push latency.

Setup work runs in --setup-procs forked processes × --setup-threads threads (the GIL would make one Python
process the bottleneck); the device loops of (d) run in --device-workers forked processes, one device each.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(REPO, "tests", "interop"))

import requests  # noqa: E402

from cibalib import bc_authorize, ciba_api, ciba_client, login_hint, transfer_details  # noqa: E402
from guardianlib import Device, DeviceKey, Enrollment, enrollment_ticket  # noqa: E402
from wardenlib import Warden, describe, expect_status, json_of  # noqa: E402

PUSH_EXPIRY = 300  # requested_expiry ≤ 300: the push channel (SPEC §6.1)
PER_USER_LIMIT = 5  # accepted /bc-authorize requests per user and minute (SPEC §6.1)
SCOPE = "openid transfer:funds"
CLK = os.sysconf("SC_CLK_TCK")
ARGS: argparse.Namespace  # set in main(), inherited by the forked workers
KEY: DeviceKey  # the one RSA key of every bench device (key generation is slow; the server does not care)
APP: dict  # {"audience", "client_id", "client_secret"} of the CIBA client the Python side uses


def log(message: str) -> None:
    print(f"[bench] {message}", file=sys.stderr, flush=True)


def wait_for_webhooks(rx, start, target, what, deadline=float("inf"), settle=0.0, poll=0.05):
    """Waits until `target` webhooks have arrived since record `start` (and then, with `settle`, none more for that
    many seconds), until `deadline` (time.monotonic()), or until 20 s bring none; returns how many arrived."""
    last, changed = -1, time.monotonic()
    while time.monotonic() < deadline:
        n = rx.stats()["records"] - start
        if n >= target and (settle <= 0 or (n == last and time.monotonic() - changed >= settle)):
            return n
        if n != last:
            last, changed = n, time.monotonic()
        elif time.monotonic() - changed > 20:
            log(f"{what}: no webhook for 20 s at {n} of {target}; giving up")
            return n
        time.sleep(poll)
    return rx.stats()["records"] - start


# ------------------------------------------------------------------------------------------ process probes

def cpu_s(pid: int) -> float:
    """utime + stime of a process, in seconds."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK
    except (OSError, IndexError, ValueError):
        return 0.0


def status_kb(pid: int, key: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class RssSampler:
    """Samples Warden's VmRSS every 100 ms in a thread; peak per phase (the phase is set by the driver)."""

    def __init__(self, pid: int):
        self.pid = pid
        self.phase = "start"
        self.peaks: dict[str, int] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while not self.stop.wait(0.1):
            rss = status_kb(self.pid, "VmRSS")
            if rss > self.peaks.get(self.phase, 0):
                self.peaks[self.phase] = rss


def wait_idle(pid: int, limit: float = 30) -> None:
    """Until the process uses < 5 % of a CPU over 0.5 s (at most `limit` seconds)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        a = cpu_s(pid)
        time.sleep(0.5)
        if cpu_s(pid) - a < 0.025:
            return
    log(f"pid {pid} still busy after {limit:.0f} s")


class Perf:
    """`perf record -e cpu-clock -g -p PID` around one phase, when --perf-dir is given."""

    def __init__(self, name: str, freq: int | None = None):
        self.proc = None
        if ARGS.perf_dir:
            out = os.path.join(ARGS.perf_dir, f"perf-{name}.data")
            self.proc = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-g", "-o", out, "-p",
                                          str(ARGS.warden_pid)] + (["-F", str(freq)] if freq else []),
                                         stdout=subprocess.DEVNULL,
                                         stderr=open(out + ".log", "w"))
            time.sleep(0.3)

    def __enter__(self) -> "Perf":
        return self

    def __exit__(self, *exc) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGINT)
            self.proc.wait(timeout=60)


# ------------------------------------------------------------------------------------------ receiver client
class Receiver:
    def __init__(self, url: str):
        self.url = url.rstrip("/")
        self.http = requests.Session()

    def stats(self) -> dict:
        return self.http.get(self.url + "/_stats", timeout=10).json()

    def records(self, start: int = 0) -> list[tuple[float, str, str, str]]:
        text = self.http.get(f"{self.url}/_records?from={start}", timeout=60).text
        out = []
        for line in text.splitlines():
            t, dai, tx, bm = line.split("\t", 3)
            out.append((float(t), dai, tx, bm))
        return out

    def take(self, binding: str, timeout: float = 10) -> dict | None:
        r = self.http.get(f"{self.url}/_take?bm={quote(binding)}&timeout={timeout}", timeout=timeout + 5)
        return r.json() if r.status_code == 200 else None

    def reset(self) -> None:
        self.http.post(self.url + "/_reset", timeout=10)


# ------------------------------------------------------------------------------------------ Warden handles
_local = threading.local()


def handle() -> Warden:
    """This thread's client handle of the running server (its own requests.Session and Management token)."""
    h = getattr(_local, "warden", None)
    if h is None or getattr(_local, "pid", None) != os.getpid():
        h = Warden(binary="(running)", workdir=tempfile.gettempdir(), database_url="(running)",
                   mgmt_client_id=ARGS.mgmt_client_id, mgmt_client_secret=ARGS.mgmt_client_secret,
                   port=ARGS.port)
        _local.warden, _local.pid = h, os.getpid()
    return h


def _chunk_worker(fn, chunk: list, threads: int) -> list:
    with ThreadPoolExecutor(threads) as pool:
        return list(pool.map(lambda item: fn(handle(), item), chunk))


def in_parallel(fn, items: list) -> list:
    """fn(handle, item) for every item, in --setup-procs forked processes × --setup-threads threads; results in
    the order of `items`. An exception in any call ends the run with its message."""
    procs = max(1, min(ARGS.setup_procs, len(items)))
    chunks = [items[i::procs] for i in range(procs)]
    with mp.get_context("fork").Pool(procs) as pool:
        parts = pool.starmap(_chunk_worker, [(fn, c, ARGS.setup_threads) for c in chunks])
    out: list = [None] * len(items)
    for i, part in enumerate(parts):
        out[i::procs] = part
    return out


def make_user(h: Warden, name: str) -> str:
    """POST /api/v2/users without a password (no bcrypt: pkcelib.create_user always sets one): the user_id."""
    r = h.mgmt("POST", "users", json={"user_id": name, "email": f"{name}@bench.test", "email_verified": True})
    return json_of(expect_status(r, 201))["user_id"]


def enrol(h: Warden, item: tuple[int, str]) -> tuple[str, str, str, float]:
    """A ticket for the user, then a device enrolled with it and WEBHOOK push credentials (guardianlib):
    (enrollment id, user id, device identifier, ms the enrol call took)."""
    k, user_id = item
    device = Device(h, identifier=f"bench-device-{k}", name=f"Bench phone {k}", key=KEY)
    device.http.close()
    device.http = h.http
    ticket = enrollment_ticket(h, user_id)
    t0 = time.monotonic()
    enrollment = device.enroll(ticket, push_credentials={"service": "WEBHOOK", "token": f"bench-token-{k}"})
    return enrollment.id, user_id, device.identifier, (time.monotonic() - t0) * 1000


def enrol_progress(ms: list[float]) -> dict:
    """p50 of the enrol call over the first and the last tenth of the devices (in the order made)."""
    tenth = max(1, len(ms) // 10)
    return {"first_p50": pct(ms[:tenth], 50), "last_p50": pct(ms[-tenth:], 50), "tenth": tenth}


def metrics(h: Warden) -> dict[str, tuple[float, int]]:
    """Warden's /metrics: http_server_request_duration (sum seconds, count) by route, all statuses together."""
    out: dict[str, list] = {}
    for line in h.http.get(h.url("metrics"), timeout=10).text.splitlines():
        if line.startswith(("http_server_request_duration_sum{", "http_server_request_duration_count{")):
            head, value = line.rsplit(" ", 1)
            route = head.split('http_route="', 1)[1].split('"', 1)[0]
            slot = out.setdefault(route, [0.0, 0])
            if head.startswith("http_server_request_duration_sum"):
                slot[0] += float(value)
            else:
                slot[1] += int(float(value))
    return {k: (v[0], v[1]) for k, v in out.items()}


def server_means(before: dict, after: dict) -> dict[str, float]:
    """Mean server-side ms per request by route between two metrics() snapshots."""
    means = {}
    for route, (total, count) in after.items():
        t0, c0 = before.get(route, (0.0, 0))
        if count > c0:
            means[route] = (total - t0) * 1000 / (count - c0)
    return means


def push_form(user_id: str, binding: str) -> dict:
    return {"login_hint": login_hint(ARGS.issuer, user_id), "scope": SCOPE, "audience": APP["audience"],
            "binding_message": binding, "authorization_details": transfer_details(), "requested_expiry": PUSH_EXPIRY}


def start_push(h: Warden, user_id: str, binding: str) -> "requests.Response":
    return bc_authorize(h, APP["client_id"], APP["client_secret"], **push_form(user_id, binding))


# ------------------------------------------------------------------------------------------ statistics
def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of `values`; nan when empty."""
    if not values:
        return float("nan")
    s = sorted(values)
    k = max(0, min(len(s) - 1, int(round(p / 100 * len(s) + 0.5)) - 1))
    return s[k]


def summary(values: list[float]) -> dict:
    return {"n": len(values), "p50": pct(values, 50), "p90": pct(values, 90), "p99": pct(values, 99),
            "max": max(values) if values else float("nan"), "mean": statistics.fmean(values) if values else float("nan")}


class UserPool:
    """The many-user set, handed out so that no user gets more than `per_minute` requests in 60 s (SPEC §6.1
    allows 5): a user is skipped while it has that many uses in the last minute."""

    def __init__(self, users: list[tuple[str, str, str]], per_minute: int = 4):
        self.users = users
        self.uses: list[list[float]] = [[] for _ in users]
        self.next = 0
        self.per_minute = per_minute
        self.lock = threading.Lock()

    def take(self) -> int:
        with self.lock:
            now = time.monotonic()
            for _ in range(len(self.users)):
                i = self.next
                self.next = (self.next + 1) % len(self.users)
                recent = [t for t in self.uses[i] if now - t < 61]
                if len(recent) < self.per_minute:
                    recent.append(now)
                    self.uses[i] = recent
                    return i
            raise RuntimeError("every bench user had its requests for this minute (raise --users)")

    def add_uses(self, indices: list[int], count: int) -> None:
        """Records `count` more uses, now, of each of these users (a device worker went round its list)."""
        with self.lock:
            now = time.monotonic()
            for i in indices:
                self.uses[i] += [now] * count

    def most_recent_uses(self) -> int:
        """The most requests any user had in the last 61 s."""
        with self.lock:
            now = time.monotonic()
            return max((sum(1 for t in u if now - t < 61) for u in self.uses), default=0)


# ------------------------------------------------------------------------------------------ phases
def phase_fanout(rx: Receiver, rss: RssSampler, fan_user: str, devices: int) -> dict:
    """(a) one /bc-authorize for the user with `devices` devices → every webhook."""
    rss.phase = "a"
    wait_idle(ARGS.warden_pid)
    start = rx.stats()["records"]
    h = handle()
    binding = "fan 1"
    c0, r0 = cpu_s(ARGS.warden_pid), rx.stats()["cpu_s"]
    with Perf("a-fanout"):
        t_send = time.monotonic()
        r = start_push(h, fan_user, binding)
        t_answer = time.monotonic()
        expect_status(r, 200)
        wait_for_webhooks(rx, start, devices, "(a)", deadline=t_send + ARGS.fanout_timeout)
    c1, r1 = cpu_s(ARGS.warden_pid), rx.stats()["cpu_s"]
    times = sorted(t for t, _, _, bm in rx.records(start) if bm == binding)
    dais = {dai for _, dai, _, bm in rx.records(start) if bm == binding}
    n = len(times)
    result = {"devices": devices, "received": n, "distinct_devices": len(dais),
              "bc_authorize_ms": (t_answer - t_send) * 1000,
              "first_ms": (times[0] - t_send) * 1000 if times else None,
              "last_s": (times[-1] - t_send) if times else None,
              "p50_s": (pct(times, 50) - t_send) if times else None,
              "warden_cpu_s": c1 - c0, "receiver_cpu_s": r1 - r0}
    if times:
        result["per_s"] = n / (times[-1] - t_send)
    log(f"(a) fan-out: {n}/{devices} webhooks ({len(dais)} devices), last after {result['last_s']:.2f} s, "
        f"/bc-authorize {result['bc_authorize_ms']:.1f} ms")
    return result


def phase_latency(rx: Receiver, rss: RssSampler, pool: UserPool) -> dict:
    """(c) open loop at --rate requests/s for --latency-secs: /bc-authorize sent → its webhook received."""
    rss.phase = "c"
    wait_idle(ARGS.warden_pid)
    start = rx.stats()["records"]
    total = int(ARGS.rate * ARGS.latency_secs)
    sent: dict[str, float] = {}
    answers: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    lags: list[float] = []

    def one(i: int, due: float) -> None:
        user = pool.users[pool.take()]
        binding = f"lat {i}"
        h = handle()
        t0 = time.monotonic()
        r = start_push(h, user[1], binding)
        t1 = time.monotonic()
        with lock:
            lags.append(max(0.0, t0 - due))
            if r.status_code == 200:
                sent[binding] = t0
                answers.append((t1 - t0) * 1000)
            else:
                errors.append(describe(r))

    with Perf("c-latency"), ThreadPoolExecutor(ARGS.latency_threads) as executor:
        for i in range(ARGS.latency_threads):  # connections open before the clock starts
            executor.submit(lambda: handle().http.get(handle().url("healthz"), timeout=10))
        time.sleep(0.2)
        m0 = metrics(handle())
        t_start = time.monotonic() + 0.1
        futures = []
        for i in range(total):
            due = t_start + i / ARGS.rate
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            futures.append(executor.submit(one, i, due))
        for f in futures:
            f.result()
        t_sent_all = time.monotonic()
        m1 = metrics(handle())
    # the stragglers
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        got = {bm for _, _, _, bm in rx.records(start) if bm.startswith("lat ")}
        if len(got) >= len(sent):
            break
        time.sleep(0.1)
    received = {bm: t for t, _, _, bm in rx.records(start) if bm in sent}
    latencies = [(received[bm] - t0) * 1000 for bm, t0 in sent.items() if bm in received]
    result = {"rate": ARGS.rate, "secs": ARGS.latency_secs, "sent": total, "accepted": len(sent),
              "errors": len(errors), "error_sample": errors[:3], "received": len(latencies),
              "push_ms": summary(latencies), "bc_authorize_ms": summary(answers),
              "actual_rate": total / max(1e-9, t_sent_all - t_start), "schedule_lag_ms": summary([x * 1000 for x in lags]),
              "server_ms": server_means(m0, m1)}
    s = result["push_ms"]
    log(f"(c) latency at {ARGS.rate}/s: {len(latencies)}/{total} webhooks, p50 {s['p50']:.1f} ms, "
        f"p99 {s['p99']:.1f} ms, max {s['max']:.1f} ms; errors {len(errors)}")
    return result


def _device_worker(k: int, users: list[tuple[str, str, str]], t_start: float, t_end: float, queue) -> None:
    """One device of (d), in its own process: loops request → webhook → consent → resolve until t_end."""
    try:
        h = handle()
        rx = Receiver(ARGS.receiver)
        rows, errors, n, accepted = [], [], 0, 0
        devices: dict[int, Device] = {}
        while time.monotonic() < t_start:
            time.sleep(0.005)
        while time.monotonic() < t_end:
            index = n % len(users)
            enrollment_id, user_id, identifier = users[index]
            device = devices.get(index)
            if device is None:
                device = Device(h, identifier=identifier, key=KEY)
                device.http.close()
                device.http = h.http
                device.enrollment = Enrollment(id=enrollment_id, url="", issuer="", user_id=user_id, token="",
                                               totp={}, body={})
                devices[index] = device
            binding = f"dev {k} {n}"
            n += 1
            t0 = time.monotonic()
            r = start_push(h, user_id, binding)
            t1 = time.monotonic()
            if r.status_code != 200:
                errors.append("bc-authorize: " + describe(r))
                continue
            accepted += 1
            got = rx.take(binding, timeout=10)
            t2 = time.monotonic()
            if got is None:
                errors.append(f"no webhook for {binding} within 10 s")
                continue
            mfa = got["body"]["mfa"]
            if mfa["dai"] != enrollment_id:
                errors.append(f"webhook for {binding} names device {mfa['dai']}, not {enrollment_id}")
                continue
            proof = device.dpop_proof(device.consent_url(mfa["txlnkid"]), mfa["txtkn"])
            t3 = time.monotonic()
            r = device.fetch_consent(mfa["txlnkid"], mfa["txtkn"], proof=proof)
            t4 = time.monotonic()
            if r.status_code != 200:
                errors.append("fetchConsent: " + describe(r))
                continue
            answer = device.challenge_response(mfa["c"], True)
            t5 = time.monotonic()
            r = device.resolve(mfa["txtkn"], mfa["c"], True, challenge_response=answer)
            t6 = time.monotonic()
            if r.status_code != 204:
                errors.append("resolve: " + describe(r))
                continue
            rows.append((t6, (t1 - t0) * 1000, (got["t"] - t0) * 1000, (t4 - t3) * 1000, (t6 - t5) * 1000,
                         (t2 - t1) * 1000, ((t3 - t2) + (t5 - t4)) * 1000))
        queue.put((k, rows, errors, accepted))
    except BaseException as error:  # noqa: BLE001 - reported by the parent
        queue.put((k, [], [f"worker {k} crashed: {error!r}"], 0))


def phase_devices(rx: Receiver, rss: RssSampler, pool: UserPool) -> dict:
    """(d) --device-workers devices, each its own process, looping for --device-secs after --device-warmup."""
    rss.phase = "d"
    wait_idle(ARGS.warden_pid)
    workers = ARGS.device_workers
    per_worker = max(1, min(len(pool.users) // workers, 4000))
    indices = [[pool.take() for _ in range(per_worker)] for _ in range(workers)]
    assignments = [[pool.users[i] for i in chunk] for chunk in indices]
    ctx = mp.get_context("fork")
    queue = ctx.Queue()
    t_start = time.monotonic() + 1.0
    t_measure = t_start + ARGS.device_warmup
    t_end = t_measure + ARGS.device_secs
    procs = [ctx.Process(target=_device_worker, args=(k, assignments[k], t_start, t_end, queue), daemon=True)
             for k in range(workers)]
    with Perf("d-devices"):
        for p in procs:
            p.start()
        time.sleep(max(0.0, t_measure - time.monotonic()))
        c0, m0 = cpu_s(ARGS.warden_pid), metrics(handle())
        results = [queue.get(timeout=ARGS.device_warmup + ARGS.device_secs + 60)]
        c1, m1 = cpu_s(ARGS.warden_pid), metrics(handle())
        results += [queue.get(timeout=60) for _ in procs[1:]]
    for p in procs:
        p.join(timeout=10)
    rows = [row for _, rs, _, _ in results for row in rs if row[0] >= t_measure]
    errors = [e for _, _, es, _ in results for e in es]
    used = sum(min(n, per_worker) for _, _, _, n in results)
    for k, _, _, n in results:  # a worker that went round its list used its users more than once
        if n > per_worker:
            pool.add_uses(indices[k], -(-n // per_worker) - 1)
    col = lambda i: [r[i] for r in rows]  # noqa: E731
    result = {"workers": workers, "secs": ARGS.device_secs, "warmup": ARGS.device_warmup, "loops": len(rows),
              "loops_per_s": len(rows) / ARGS.device_secs, "errors": len(errors), "error_sample": errors[:3],
              "users_used": used, "bc_authorize_ms": summary(col(1)), "push_ms": summary(col(2)),
              "fetch_ms": summary(col(3)), "resolve_ms": summary(col(4)),
              "fetch_resolve_ms": summary([r[3] + r[4] for r in rows]), "take_wait_ms": summary(col(5)),
              "signing_ms": summary(col(6)),
              "warden_cpu_ms_per_loop": (c1 - c0) * 1000 / max(1, len(rows)),
              "server_ms": server_means(m0, m1)}
    log(f"(d) devices: {len(rows)} loops in {ARGS.device_secs} s ({result['loops_per_s']:.1f}/s), fetch p50 "
        f"{result['fetch_ms']['p50']:.1f} p99 {result['fetch_ms']['p99']:.1f} ms, resolve p50 "
        f"{result['resolve_ms']['p50']:.1f} p99 {result['resolve_ms']['p99']:.1f} ms; errors {len(errors)}")
    for e in errors[:3]:
        log(f"(d) error: {e}")
    return result


def phase_many(rx: Receiver, rss: RssSampler, pool: UserPool, basic: str, users: int) -> dict:
    """(b) wrk with scripts/bench/lib/ciba-bc-authorize.lua over the many users (round-robin, at most
    --many-per-user requests each, fewer when (c) and (d) left less of the per-user limit) for --many-secs;
    webhooks counted at the receiver."""
    rss.phase = "b"
    wait_idle(ARGS.warden_pid)
    while (per_user := min(ARGS.many_per_user, PER_USER_LIMIT - pool.most_recent_uses())) < 1:
        log("(b) waiting for the per-user limit's minute to pass")
        time.sleep(5)
    start = rx.stats()["records"]
    requests_cap = per_user * users
    marker = os.path.join(ARGS.tmp, "done-many")
    hint_prefix = json.dumps({"format": "iss_sub", "iss": ARGS.issuer, "sub": "auth0|bench-"})[:-2]
    details = quote(json.dumps(transfer_details()), safe="")
    env = dict(os.environ, BASIC=basic, USERS=str(users), REQUESTS=str(requests_cap), IDS_OUT="",
               WRK_THREADS=str(ARGS.wrk_threads), DONE_MARKER=marker,
               BODY_PREFIX=f"scope={quote(SCOPE)}&requested_expiry={PUSH_EXPIRY}&audience={quote(APP['audience'], safe='')}"
                           f"&authorization_details={details}&login_hint={quote(hint_prefix, safe='')}",
               BODY_SUFFIX=quote('"}', safe=""))
    raw = os.path.join(ARGS.tmp, "wrk-many.txt")
    c0, r0 = cpu_s(ARGS.warden_pid), rx.stats()["cpu_s"]
    with Perf("b-many"), open(raw, "w") as out:
        t0 = time.monotonic()
        proc = subprocess.Popen(["wrk", f"-t{ARGS.wrk_threads}", f"-c{ARGS.wrk_conns}", f"-d{max(1, round(ARGS.many_secs))}s",
                                 "--latency", "-s", os.path.join(REPO, "scripts", "bench", "lib", "ciba-bc-authorize.lua"),
                                 ARGS.url + "/bc-authorize"], stdout=out, stderr=subprocess.STDOUT, env=env)
        while proc.poll() is None:  # stop at once when every slot is answered (as bench-ciba's making runs)
            if all(os.path.exists(f"{marker}.{t}") for t in range(ARGS.wrk_threads)):
                proc.send_signal(signal.SIGINT)
                break
            time.sleep(0.1)
        proc.wait()
        t1 = time.monotonic()
    c_mid = cpu_s(ARGS.warden_pid)
    text = open(raw).read()
    if "SUMMARY" not in text:
        raise RuntimeError(f"(b): wrk printed no SUMMARY line:\n{text[-2000:]}")
    fields = {}
    for line in text.splitlines():
        if line.startswith(("SUMMARY", "SLOTS", "IDS", "NON2XX status")):
            for word in line.split()[1:]:
                key, _, value = word.partition("=")
                fields[line.split()[0] + "." + key] = value
    accepted = int(fields.get("SLOTS.answered", "0")) - int(fields.get("SUMMARY.non2xx", "0"))
    # drain: until every accepted request's webhook is in and nothing came for 1 s (wrk's count misses the
    # answers in flight when it stops), or 20 s without progress
    wait_for_webhooks(rx, start, accepted, "(b)", settle=1.0, poll=0.2)  # nothing else sends pushes now
    c2, r2 = cpu_s(ARGS.warden_pid), rx.stats()["cpu_s"]
    times = sorted(t for t, _, _, bm in rx.records(start) if bm.startswith("bench "))
    in_window = sum(1 for t in times if t0 <= t <= t1)
    secs = t1 - t0
    result = {"users": users, "per_user": per_user, "secs": secs, "answered": int(fields.get("SLOTS.answered", "0")),
              "non2xx": int(fields.get("SUMMARY.non2xx", "0")),
              "socket_errors": sum(int(fields.get(f"SUMMARY.{k}", "0")) for k in ("connect_err", "read_err",
                                                                                   "write_err", "timeout")),
              "bc_per_s": float(fields.get("SLOTS.answered_per_s", "0")),
              "bc_p50_ms": float(fields.get("SUMMARY.p50_ms", "nan")), "bc_p99_ms": float(fields.get("SUMMARY.p99_ms", "nan")),
              "webhooks": len(times), "webhooks_in_window": in_window, "webhooks_per_s_window": in_window / secs,
              "drain_s": (times[-1] - t1) if times else None,
              "webhooks_per_s_overall": len(times) / (times[-1] - t0) if times else 0,
              "warden_cpu_ms_per_request": (c2 - c0) * 1000 / max(1, accepted),
              "warden_cpu_share_window": (c_mid - c0) / secs, "receiver_cpu_s": r2 - r0,
              "wrk": f"-t{ARGS.wrk_threads} -c{ARGS.wrk_conns} -d{max(1, round(ARGS.many_secs))}s",
              "non2xx_sample": [line for line in text.splitlines() if line.startswith("NON2XX")][:4]}
    log(f"(b) many users: {result['answered']} requests in {secs:.1f} s ({result['bc_per_s']:.0f}/s, non-2xx "
        f"{result['non2xx']}), webhooks in the window {in_window} ({result['webhooks_per_s_window']:.0f}/s), "
        f"all {len(times)} after +{result['drain_s'] or 0:.1f} s")
    return result


# ------------------------------------------------------------------------------------------ report
def fmt(v, digits: int = 1) -> str:
    if v is None or (isinstance(v, float) and v != v):
        return "–"
    return f"{v:,.{digits}f}"


def route_ms(means: dict[str, float], fragment: str) -> str:
    """The server-side mean of the route containing `fragment`, as text."""
    found = [v for k, v in means.items() if fragment in k]
    return fmt(found[0], 2) if found else "–"


def report(r: dict) -> str:
    a, b, c, d, s = r["a"], r["b"], r["c"], r["d"], r["setup"]
    target = ARGS.latency_target_ms
    p99 = c["push_ms"]["p99"]
    verdict = "met" if p99 == p99 and p99 <= target and c["received"] == c["sent"] else "**missed**"
    rss = r["rss_peaks_kb"]
    mb = lambda kb: f"{kb / 1024:,.1f} MB"  # noqa: E731
    lines = [
        "| measurement | result | target |",
        "|---|---|---|",
        f"| (a) fan-out: 1 user × {a['devices']:,} devices, one `/bc-authorize` (requested_expiry {PUSH_EXPIRY}) → "
        f"every webhook | **{fmt(a.get('per_s'), 0)} notifications/s** ({a['received']:,} webhooks to "
        f"{a['distinct_devices']:,} devices, the last {fmt(a['last_s'], 2)} s after the request; first after "
        f"{fmt(a['first_ms'])} ms, half after {fmt(a['p50_s'], 2)} s); `/bc-authorize` answered in "
        f"{fmt(a['bc_authorize_ms'])} ms | |",
        f"| (b) {b['users']:,} users × 1 device, `/bc-authorize` from wrk {b['wrk']} (round-robin over the users, "
        f"at most {b['per_user']} each) "
        f"| **{fmt(b['webhooks_per_s_window'], 0)} webhooks/s** sustained during the run; "
        f"**{fmt(b['bc_per_s'], 0)} `/bc-authorize`/s** (p50 {fmt(b['bc_p50_ms'])} ms, p99 {fmt(b['bc_p99_ms'])} ms; "
        f"{b['answered']:,} answered in {fmt(b['secs'])} s, non-2xx {b['non2xx']}); {b['webhooks']:,} webhooks in all, "
        + (f"the last {fmt(b['drain_s'], 2)} s after the run ended" if (b['drain_s'] or 0) > 0 else "all during the run")
        + f" ({fmt(b['webhooks_per_s_overall'], 0)}/s overall) | |",
        f"| (c) `/bc-authorize` sent → its webhook received, open loop {fmt(c['rate'], 0)} req/s for "
        f"{fmt(c['secs'], 0)} s | p50 **{fmt(c['push_ms']['p50'])}** / p90 {fmt(c['push_ms']['p90'])} / p99 "
        f"**{fmt(p99)}** / max {fmt(c['push_ms']['max'])} ms ({c['received']}/{c['sent']} webhooks; the "
        f"`/bc-authorize` answer alone: p50 {fmt(c['bc_authorize_ms']['p50'])}, p99 "
        f"{fmt(c['bc_authorize_ms']['p99'])} ms, Warden's own time mean {route_ms(c['server_ms'], 'bc-authorize')} ms)"
        f" | p99 ≤ {target:g} ms: {verdict} |",
        f"| (d) device path, {d['workers']} devices in parallel: fetchConsent = `GET /rich-consents/{{id}}` "
        f"(MFA-DPoP) | p50 **{fmt(d['fetch_ms']['p50'])}** / p99 **{fmt(d['fetch_ms']['p99'])}** ms (Warden's own "
        f"time, mean: {route_ms(d['server_ms'], 'rich-consents')} ms) | |",
        f"| (d) resolve = `POST /appliance-mfa/api/resolve-transaction` | p50 **{fmt(d['resolve_ms']['p50'])}** / p99 "
        f"**{fmt(d['resolve_ms']['p99'])}** ms (Warden's own time, mean: "
        f"{route_ms(d['server_ms'], 'resolve-transaction')} ms) | |",
        f"| (d) fetchConsent + resolve (per loop) | p50 **{fmt(d['fetch_resolve_ms']['p50'])}** / p99 "
        f"**{fmt(d['fetch_resolve_ms']['p99'])}** ms; **{fmt(d['loops_per_s'])} approvals/s** ({d['loops']:,} "
        f"loops in {fmt(d['secs'], 0)} s; each loop also: `/bc-authorize` p50 {fmt(d['bc_authorize_ms']['p50'])} ms, "
        f"webhook p50 {fmt(d['push_ms']['p50'])} / p99 {fmt(d['push_ms']['p99'])} ms after it) | |",
        f"| Warden peak RSS (VmRSS sampled every 100 ms) | idle {mb(r['rss_idle_kb'])}; setup {mb(rss.get('setup', 0))}, "
        f"(a) {mb(rss.get('a', 0))}, (c) {mb(rss.get('c', 0))}, (d) {mb(rss.get('d', 0))}, (b) {mb(rss.get('b', 0))}; "
        f"VmHWM at the end {mb(r['hwm_kb'])} | |",
    ]
    rx = r["receiver"]
    checked = "every one" if rx["verify_every"] == 1 else f"every {rx['verify_every']}th"
    notes = [
        "",
        "Setup (not a target): "
        f"{s['users']:,} users (`POST /api/v2/users`, no password) in {fmt(s['users_s'])} s "
        f"({fmt(s['users'] / s['users_s'], 0)}/s); {s['many_devices']:,} devices, one per user, enrolled in "
        f"{fmt(s['many_s'])} s ({fmt(s['many_devices'] / s['many_s'], 0)}/s) and {s['fan_devices']:,} devices of one user "
        f"in {fmt(s['fan_s'])} s ({fmt(s['fan_devices'] / s['fan_s'], 0)}/s; the enrol call took p50 "
        f"{fmt(s['fan_enrol_ms']['first_p50'])} ms over the first {s['fan_enrol_ms']['tenth']:,} devices and "
        f"{fmt(s['fan_enrol_ms']['last_p50'])} ms over the last {s['fan_enrol_ms']['tenth']:,}: it grows with "
        f"the user's device count; one per user: {fmt(s['many_enrol_ms']['first_p50'])} → "
        f"{fmt(s['many_enrol_ms']['last_p50'])} ms) — each a Management ticket "
        f"(`POST /api/v2/guardian/enrollments/ticket`) and `POST /appliance-mfa/api/enroll` with "
        f"`push_credentials {{\"service\":\"WEBHOOK\"}}`, tests/interop/guardianlib.py's Device, "
        f"{ARGS.setup_procs} processes × {ARGS.setup_threads} threads.",
        "",
        f"Webhook receiver (scripts/bench/lib/push_webhook_sink.py, one asyncio process): self-test ceiling "
        f"{rx['selftest']} (wrk -t1 -c8 POSTing a signed sample notification; it needs > 20,000/s). During the run it "
        f"took {rx['received']:,} notifications on at most {rx['max_connections']} connections, checked the "
        f"signature of {checked}: "
        f"{rx['verified']:,} valid, {rx['bad_signature']} bad, {rx['unparsed']} unreadable. Its CPU: "
        f"{fmt(a['receiver_cpu_s'], 2)} s during (a) (Warden {fmt(a['warden_cpu_s'], 2)} s).",
        "",
        "Details:",
        "",
        f"- (a) Warden CPU {fmt(a['warden_cpu_s'] * 1000 / max(1, a['received']), 3)} ms per notification. The "
        "time is from just before the request is sent to the receipt of the last notification.",
        f"- (b) Warden used {fmt(b['warden_cpu_share_window'] * 100, 0)} % of one CPU during the run and "
        f"{fmt(b['warden_cpu_ms_per_request'], 2)} ms of CPU per request (its webhook included); "
        f"socket errors {b['socket_errors']}{'; ' + ', '.join(b['non2xx_sample']) if b['non2xx_sample'] else ''}.",
        f"- (c) {c['accepted']} of {c['sent']} requests accepted, {c['errors']} refused"
        f"{' (' + '; '.join(c['error_sample']) + ')' if c['error_sample'] else ''}; sending kept "
        f"{fmt(c['actual_rate'])} req/s (sends behind their schedule by p50 {fmt(c['schedule_lag_ms']['p50'], 2)}, "
        f"max {fmt(c['schedule_lag_ms']['max'], 2)} ms), "
        f"{ARGS.latency_threads} sender threads, each request for another user, with the `money_transfer` "
        "authorization detail; the receive time is taken by the receiver as the request's bytes arrive.",
        f"- (d) each device process loops: `/bc-authorize` for its user (client_secret_post) → waits for the "
        "notification at the receiver → signs the MFA-DPoP proof → `GET /rich-consents/{txlnkid}` → signs the "
        "challenge response → `resolve-transaction` (allow, 204); the latencies are of the HTTP calls alone "
        f"(RSA signing is outside: p50 {fmt(d['signing_ms']['p50'])} ms per loop). {d['warmup']:g} s warm-up "
        f"not counted; {d['errors']} errors{' (' + '; '.join(d['error_sample']) + ')' if d['error_sample'] else ''}; "
        f"Warden CPU {fmt(d['warden_cpu_ms_per_loop'], 2)} ms per loop (4 requests and a webhook); "
        f"{d['users_used']:,} users, handed out so that none goes over the per-user limit (5 a minute). "
        "Warden's own time is the mean of its `http_server_request_duration` (/metrics) over the measured "
        "seconds; the rest of a call's latency is the client side: 16 Python processes share the 2 CPUs with "
        "Warden and the receiver.",
    ]
    return "\n".join(lines + notes) + "\n"


# ------------------------------------------------------------------------------------------ main
def main() -> None:
    global ARGS, KEY, APP
    p = argparse.ArgumentParser(description="scripts/bench/push's driver (see that script)")
    p.add_argument("--url", required=True, help="Warden's base URL, e.g. http://127.0.0.1:PORT")
    p.add_argument("--mgmt-client-id", required=True)
    p.add_argument("--mgmt-client-secret", required=True)
    p.add_argument("--receiver", required=True, help="the webhook receiver's base URL")
    p.add_argument("--receiver-selftest", default="not run")
    p.add_argument("--warden-pid", type=int, required=True)
    p.add_argument("--tmp", required=True, help="a scratch folder")
    p.add_argument("--out", required=True, help="the Markdown table goes here; the raw results to OUT.json")
    p.add_argument("--fan-devices", type=int, default=10000)
    p.add_argument("--users", type=int, default=10000)
    p.add_argument("--many-secs", type=float, default=20)
    p.add_argument("--many-per-user", type=int, default=3)
    p.add_argument("--wrk-threads", type=int, default=2)
    p.add_argument("--wrk-conns", type=int, default=8)
    p.add_argument("--rate", type=float, default=50)
    p.add_argument("--latency-secs", type=float, default=10)
    p.add_argument("--latency-threads", type=int, default=16)
    p.add_argument("--latency-target-ms", type=float, default=20)
    p.add_argument("--device-workers", type=int, default=16)
    p.add_argument("--device-secs", type=float, default=15)
    p.add_argument("--device-warmup", type=float, default=2)
    p.add_argument("--setup-procs", type=int, default=3)
    p.add_argument("--setup-threads", type=int, default=8)
    p.add_argument("--fanout-timeout", type=float, default=240)
    p.add_argument("--perf-dir", default="")
    ARGS = p.parse_args()
    ARGS.url = ARGS.url.rstrip("/")
    ARGS.port = int(ARGS.url.rsplit(":", 1)[1])
    h = handle()
    ARGS.issuer = json_of(expect_status(h.http.get(h.url(".well-known/openid-configuration"), timeout=10), 200))["issuer"]
    assert ARGS.issuer == h.base_url, f"issuer {ARGS.issuer} is not the base URL {h.base_url}"
    rx = Receiver(ARGS.receiver)
    rss = RssSampler(ARGS.warden_pid)
    results: dict = {"rss_idle_kb": status_kb(ARGS.warden_pid, "VmRSS")}
    KEY = DeviceKey()

    # ---------------------------------------------------------------- setup
    rss.phase = "setup"
    api = ciba_api(h)
    client = ciba_client(h)  # client_secret_post: cibalib.bc_authorize
    client_basic = ciba_client(h, token_endpoint_auth_method="client_secret_basic")  # wrk: ciba-bc-authorize.lua
    APP = {"audience": api["identifier"], "client_id": client["client_id"], "client_secret": client["client_secret"]}
    import base64
    basic = base64.b64encode(f"{quote(client_basic['client_id'], safe='')}:"
                             f"{quote(client_basic['client_secret'], safe='')}".encode()).decode()
    setup: dict = {}
    t0 = time.monotonic()
    names = ["bench-fan"] + [f"bench-{k}" for k in range(ARGS.users)]
    user_ids = in_parallel(make_user, names)
    setup["users"], setup["users_s"] = len(user_ids), time.monotonic() - t0
    fan_user, many_users = user_ids[0], user_ids[1:]
    assert many_users[0] == "auth0|bench-0", f"unexpected user_id {many_users[0]} (ciba-bc-authorize.lua needs auth0|bench-K)"
    log(f"{len(user_ids)} users in {setup['users_s']:.1f} s")
    t0 = time.monotonic()
    many = in_parallel(enrol, [(k, u) for k, u in enumerate(many_users)])
    setup["many_devices"], setup["many_s"] = len(many), time.monotonic() - t0
    setup["many_enrol_ms"] = enrol_progress([m[3] for m in many])
    many = [m[:3] for m in many]
    log(f"{len(many)} devices (one per user) enrolled in {setup['many_s']:.1f} s")
    t0 = time.monotonic()
    with Perf("setup-fan-enrol", freq=199):
        fan = in_parallel(enrol, [(ARGS.users + k, fan_user) for k in range(ARGS.fan_devices)])
    setup["fan_devices"], setup["fan_s"] = len(fan), time.monotonic() - t0
    setup["fan_enrol_ms"] = enrol_progress([f[3] for f in fan])
    log(f"{len(fan)} devices of one user enrolled in {setup['fan_s']:.1f} s; the enrol call: "
        f"{setup['fan_enrol_ms']}")
    results["setup"] = setup
    pool = UserPool(many)

    # ---------------------------------------------------------------- measurements
    results["a"] = phase_fanout(rx, rss, fan_user, ARGS.fan_devices)
    results["c"] = phase_latency(rx, rss, pool)
    results["d"] = phase_devices(rx, rss, pool)
    results["b"] = phase_many(rx, rss, pool, basic, ARGS.users)
    rss.stop.set()
    results["rss_peaks_kb"] = rss.peaks
    results["hwm_kb"] = status_kb(ARGS.warden_pid, "VmHWM")
    results["receiver"] = dict(rx.stats(), selftest=ARGS.receiver_selftest)
    with open(ARGS.out + ".json", "w") as f:
        json.dump(results, f, indent=1, default=str)
    with open(ARGS.out, "w") as f:
        f.write(report(results))
    problems = []
    if results["receiver"]["bad_signature"] or results["receiver"]["unparsed"]:
        problems.append("the receiver saw bad signatures or unreadable notifications")
    if results["a"]["received"] < ARGS.fan_devices:
        problems.append("(a) not every device got its notification")
    if results["c"]["errors"] or results["c"]["received"] < results["c"]["sent"]:
        problems.append("(c) refused requests or missing webhooks")
    if results["d"]["errors"]:
        problems.append("(d) errors in the device loops")
    if results["b"]["non2xx"] or results["b"]["socket_errors"] or results["b"]["webhooks"] < results["b"]["answered"]:
        problems.append("(b) non-2xx answers, socket errors or missing webhooks")
    for problem in problems:
        log("PROBLEM: " + problem)
    sys.exit(3 if problems else 0)


if __name__ == "__main__":
    main()
