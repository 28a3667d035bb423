#!/usr/bin/env python3
"""BENCHMARKS.md from the raw figures of one run of scripts/bench/run (printed on stdout).

Usage: report.py RAW_DIR RUN_DIR_LABEL

RAW_DIR holds what scripts/bench/run and the scripts it runs left there: run.tsv and steps.tsv (scripts/bench/run),
startup.txt (startup.py), ceiling.results.tsv, <topic>.results.tsv / .secs.tsv / .bcrypt.txt / .facts.tsv
(lib.sh BENCH_EXPORT_DIR), pg/ (the same for the PostgreSQL runs), micro.influx (package-benchmark's influx
export). A missing file leaves its rows out (the steps table says why). Result rows are
    rep name server alg rps p50 p90 p99 max non2xx sockerr cpu_ms_per_req peak_rss_kib other_cpu_%
"""
import csv
import os
import re
import statistics
import sys

RAW, RUN_LABEL = sys.argv[1], sys.argv[2]


def path(*parts):
    return os.path.join(RAW, *parts)


def read_tsv(*parts):
    p = path(*parts)
    if not os.path.exists(p):
        return []
    return [line.rstrip("\n").split("\t") for line in open(p) if line.strip()]


def kv(*parts):
    return {r[0]: r[1] if len(r) > 1 else "" for r in read_tsv(*parts)}


RUN = kv("run.tsv")
STEPS = read_tsv("steps.tsv")


class Run:
    """One wrk run (the median over rounds when there are several)."""

    def __init__(self, rows):
        def med(i):
            v = [float(r[i]) for r in rows if r[i] not in ("", "n/a")]
            return statistics.median(v) if v else None

        self.rps, self.p50, self.p99 = med(4), med(5), med(7)
        self.bad = sum(int(r[9] or 0) + int(r[10] or 0) for r in rows)
        self.rss_mb = max(int(r[12]) for r in rows) / 1024
        self.noise = max((int(r[13]) for r in rows if r[13].isdigit()), default=None)


def runs(*parts):
    by = {}
    for r in read_tsv(*parts):
        by.setdefault(r[1], []).append(r)
    return {name: Run(rows) for name, rows in by.items()}


CC = runs("client-credentials.results.tsv")
CF = runs("code-flow.results.tsv")
CIBA = runs("ciba.results.tsv")
CEIL = runs("ceiling.results.tsv")
PG_CC = runs("pg", "client-credentials.results.tsv")
PG_CF = runs("pg", "code-flow.results.tsv")
CIBA_FACTS = kv("ciba.facts.tsv")


def num(x, digits=0):
    if x is None:
        return "—"
    return "{:,.{d}f}".format(x, d=digits)


def ms(x):
    return "—" if x is None else ("%.1f" % x if x >= 1 else "%.2f" % x)


def ratio(a, b):
    return a / b if a is not None and b else None


# ------------------------------------------------------------------ operations
OPERATIONS = [
    # label, warden run, peer run, source
    ("client_credentials ES256", "warden-es", "peer-es", CC),
    ("client_credentials RS256", "warden-rs", "peer-rs", CC),
    ("refresh_token ES256, access token only on both", "warden-es-refreshat", "peer-es-refresh", CF),
    ("refresh_token RS256, access token only on both", "warden-rs-refreshat", "peer-rs-refresh", CF),
    ("refresh_token ES256, Warden adds the ID token", "warden-es-refresh", "peer-es-refresh", CF),
    ("refresh_token RS256, Warden adds the ID token", "warden-rs-refresh", "peer-rs-refresh", CF),
    ("authorization-code exchange ES256 (PKCE)", "warden-es-exchange", "peer-es-exchange", CF),
    ("authorization-code exchange RS256 (PKCE)", "warden-rs-exchange", "peer-rs-exchange", CF),
    ("/authorize with an SSO session → code", "warden-es-authorize", "peer-es-authorize", CF),
    ("/bc-authorize (CIBA, e-mail channel)", "warden-bc-authorize", "peer-bc-authorize", CIBA),
    ("CIBA poll on pending requests", "warden-poll", "peer-poll", CIBA),
    ("userinfo (GET, Bearer)", "warden-es-userinfo", "peer-es-userinfo", CF),
    ("JWKS", "warden-es-jwks", "peer-es-jwks", CF),
    ("session-transfer exchange (SPEC §8)", "warden-es-transfer", None, CF),
    ("password login (POST /u/login, bcrypt)", "warden-login", None, CF),
]


def operations_table(lines):
    lines.append("| operation | Warden req/s | p50 ms | p99 ms | peak RSS MB | peer req/s | peer p50 ms | peer p99 ms | Warden / peer | other CPU % |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    bad = []
    for label, w, p, src in OPERATIONS:
        wr, pr = src.get(w), src.get(p) if p else None
        if wr is None and pr is None:
            continue
        for name, r in ((w, wr), (p, pr)):
            if r is not None and r.bad:
                bad.append("%s (%s): %d bad responses or socket errors" % (label, name, r.bad))
        rt = ratio(wr and wr.rps, pr and pr.rps)
        noise = "/".join(str(r.noise) for r in (wr, pr) if r is not None and r.noise is not None)
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label,
            num(wr and wr.rps), ms(wr and wr.p50), ms(wr and wr.p99), num(wr and wr.rss_mb, 1),
            num(pr and pr.rps) if p else "no such operation", ms(pr and pr.p50) if p else "", ms(pr and pr.p99) if p else "",
            "%.1f×" % rt if rt else "", noise))
    lines.append("")
    lines.append("other CPU % = the share of the machine used during the run by neither the server under test nor wrk "
                 "(other processes: noise; Warden run / peer run). A figure taken with much noise understates the server.")
    bcrypt = [float(m.group(1)) for m in (re.search(r" rate=([0-9.]+)", l) for l in open(path("code-flow.bcrypt.txt")))
              if m] if os.path.exists(path("code-flow.bcrypt.txt")) else []
    login = CF.get("warden-login")
    if login and bcrypt:
        lines.append("")
        lines.append("Password login runs at %.0f%% of the bare bcrypt rate of this machine (%.1f hashes/s, same cost, "
                     "one thread per core): bcrypt is the whole cost." % (100 * login.rps / statistics.mean(bcrypt),
                                                                        statistics.mean(bcrypt)))
    if bad:
        lines.append("")
        lines.append("**Runs with bad responses:** " + "; ".join(bad) + ".")
    return lines


# ------------------------------------------------------------------ micro benchmarks
# The influx export holds raw figures per iteration of the benchmark closure: wall clock in ns, throughput in
# iterations/s, mallocs per iteration (its unit column is only the display scale). The groups built with
# `scalingFactor: .kilo` (Benchmarks/Benchmarks/<group>/) run 1000 operations per iteration; their loading
# benchmark ("load …") runs one.
KILO_GROUPS = ("Parsers", "IPLookup")


def micro():
    """{(group, test): {metric: p50 per operation}} from the influx export."""
    out = {}
    p = path("micro.influx")
    if not os.path.exists(p):
        return out
    for r in csv.reader(l for l in open(p) if not l.startswith("#")):
        if len(r) < 11 or r[0] == "measurement" or r[9] not in ("50.0", "50"):
            continue
        group, metric, test, value = r[0], r[6], r[8], float(r[10])
        scale = 1000 if group in KILO_GROUPS and not test.startswith("load") else 1
        if metric.startswith("Time(wallclock)"):
            value /= scale
        elif metric.startswith("Throughput"):
            value *= scale
        elif metric.startswith("Malloc"):
            value /= scale
        out.setdefault((group, test), {})[metric] = value
    return out


MICRO = micro()


def micro_rate(test):
    """Operations per second of one micro benchmark (its median), or None."""
    for (group, t), metrics in MICRO.items():
        if t == test:
            return next((v for m, v in metrics.items() if m.startswith("Throughput")), None)
    return None


def duration(ns):
    if ns is None:
        return "—"
    for unit, div in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= div:
            return "%.3g %s" % (ns / div, unit)
    return "%.3g ns" % ns


def micro_table(lines):
    if not MICRO:
        lines.append("Not run (see the steps below).")
        return
    lines.append("| group | benchmark | time per operation | operations/s (one core) | mallocs per operation | other |")
    lines.append("|---|---|---:|---:|---:|---|")
    for (group, test), m in sorted(MICRO.items()):
        get = lambda prefix: next((v for k, v in m.items() if k.startswith(prefix)), None)
        other = ", ".join("%s %s" % (k, num(v)) for k, v in sorted(m.items())
                          if not k.startswith(("Time(wallclock)", "Throughput", "Malloc")))
        mallocs = get("Malloc")
        lines.append("| %s | %s | %s | %s | %s | %s |" % (
            group, test, duration(get("Time(wallclock)")), num(get("Throughput")),
            "—" if mallocs is None else num(mallocs, 0 if mallocs >= 10 or mallocs == int(mallocs) else 1), other))


# ------------------------------------------------------------------ startup, memory
def startup(prefix):
    r = [dict(kv_.split("=") for kv_ in l.split()[1:]) for l in open(path("startup.txt")) if l.split()[0] == prefix] \
        if os.path.exists(path("startup.txt")) else []
    return [int(x["ready_ms"]) for x in r], [int(x["idle_rss_kib"]) for x in r]


W_READY, W_IDLE = startup("STARTUP")
C_READY, C_IDLE = startup("CEILING_STARTUP")


def per_pending(prefix):
    try:
        n = int(CIBA_FACTS[prefix + "_pending"])
        return (int(CIBA_FACTS[prefix + "_rss_after_kib"]) - int(CIBA_FACTS[prefix + "_rss_before_kib"])) * 1024 / n, n
    except (KeyError, ValueError, ZeroDivisionError):
        return None, None


# ------------------------------------------------------------------ targets
def targets(lines):
    es, es_p, rs, rs_p = CC.get("warden-es"), CC.get("peer-es"), CC.get("warden-rs"), CC.get("peer-rs")
    ce, cr = CEIL.get("ceiling-es"), CEIL.get("ceiling-rs")
    rows = []

    def row(what, figure, ok):
        rows.append((what, figure, "—" if ok is None else ("met" if ok else "**not met**")))

    def at_least(what, value, goal, fmt):
        row(what, "not measured" if value is None else fmt(value), None if value is None else value >= goal)

    at_least("client_credentials ES256 ≥ 12,000 req/s", es and es.rps, 12000, lambda v: "%s req/s" % num(v))
    at_least("client_credentials ES256 ≥ 8× the peer", ratio(es and es.rps, es_p and es_p.rps), 8, lambda v: "%.1f×" % v)
    at_least("client_credentials ES256 ≥ 50% of the bare ceiling", ratio(es and es.rps, ce and ce.rps), 0.5,
             lambda v: "%.0f%% (ceiling %s req/s)" % (100 * v, num(ce.rps)))
    p99 = es and es.p99
    row("client_credentials ES256 p99 ≤ 10 ms at %s connections" % RUN.get("conns", "32"),
        "not measured" if p99 is None else "%s ms" % ms(p99), None if p99 is None else p99 <= 10)
    at_least("client_credentials RS256 ≥ 4× the peer", ratio(rs and rs.rps, rs_p and rs_p.rps), 4, lambda v: "%.1f×" % v)
    at_least("client_credentials RS256 ≥ 80% of its ceiling", ratio(rs and rs.rps, cr and cr.rps), 0.8,
             lambda v: "%.0f%% (ceiling %s req/s)" % (100 * v, num(cr.rps)))
    for a in ("es", "rs"):
        w, p = CF.get("warden-%s-refreshat" % a), CF.get("peer-%s-refresh" % a)
        with_id = CF.get("warden-%s-refresh" % a)
        at_least("refresh_token %s ≥ 4× the peer (the same response: one access token)" % ("ES256" if a == "es" else "RS256"),
                 ratio(w and w.rps, p and p.rps), 4,
                 lambda v: "%.1f× (%.1f× with Warden's ID token as well)" % (v, ratio(with_id.rps, p.rps) or 0)
                 if with_id else "%.1f×" % v)
    poll = CIBA.get("warden-poll")
    at_least("CIBA polls ≥ 10,000 req/s", poll and poll.rps, 10000, lambda v: "%s req/s" % num(v))
    per, n = per_pending("warden")
    row("≤ 1 KiB RSS per pending CIBA request at 100,000",
        "not measured" if per is None else "%.0f bytes at %s pending" % (per, num(n)),
        None if per is None else (per <= 1024 if n >= 100000 else None))
    idle = statistics.median(W_IDLE) / 1024 if W_IDLE else None
    row("idle RSS ≤ 40 MB", "not measured" if idle is None else "%.1f MB" % idle, None if idle is None else idle <= 40)
    ready = statistics.median(W_READY) if W_READY else None
    row("start to ready ≤ 1 s", "not measured" if ready is None else "%d ms" % ready, None if ready is None else ready <= 1000)
    total = int(RUN["total_secs"]) if RUN.get("total_secs") else None
    kind = RUN.get("build_kind", "?")
    row("scripts/bench/run from a clean clone < 15 min", "this run: %s s, %s build %s s" % (
        num(total), kind, RUN.get("build_secs", "?")), total < 900 if total is not None and kind == "cold" else None)
    lines.append("| target (issue 8) | this run | status |")
    lines.append("|---|---|---|")
    for what, figure, status in rows:
        lines.append("| %s | %s | %s |" % (what, figure, status))


# ------------------------------------------------------------------ the report
def main():
    L = []
    L.append("# Benchmarks")
    L.append("")
    L.append("Written by `scripts/bench/run` (the one benchmark command; `scripts/bench/run --help` says what it runs and "
             "which knobs shorten it). Every figure below comes from one run of it:")
    L.append("")
    L.append("- run: %s UTC, commit %s, the whole command took %s s (%s build %s s); load average before %s, after %s" % (
        RUN.get("stamp", "?"), RUN.get("commit", "?"), RUN.get("total_secs", "?"), RUN.get("build_kind", "?"),
        RUN.get("build_secs", "?"),
        RUN.get("load_before", "?"), RUN.get("load_after", "?")))
    L.append("- machine: %s" % RUN.get("machine", "?"))
    L.append("- load: wrk %s `-t%s -c%s -d%s` (warm-up %s before the runs that allow one), 127.0.0.1 only; Warden release "
             "build on a fresh SQLite file; the peer is Glewlwyd 2.7.5 (Debian, SQLite WAL) from ../shared/peers/glewlwyd "
             "on a fresh database" % (RUN.get("wrk", "?"), RUN.get("threads", "?"), RUN.get("conns", "?"),
                                      RUN.get("duration", "?"), RUN.get("warmup", "?")))
    L.append("- per-topic reports (every run, the exact requests, CPU per request, noise): `%s/` (not committed)" % RUN_LABEL)
    L.append("")
    L.append("## Operations")
    L.append("")
    operations_table(L)
    L.append("")
    L.append("## Token issuance against its ceilings")
    L.append("")
    L.append("The pure signing rate (one core, the key alone over a SHA-256 digest), token issuance without HTTP (claims + "
             "key ring + sign, one core), the ceiling server (`Benchmarks/Servers/CeilingServer`: a bare Hummingbird route that only "
             "signs the same token, same wrk line), and Warden's token endpoint (client authentication, grant check, storage, "
             "event log).")
    L.append("")
    L.append("| | ES256 | RS256 |")
    L.append("|---|---:|---:|")
    pure = {a: micro_rate("pure signing %s" % n) for a, n in (
        ("es", "ES256 (P-256 over a digest)"), ("rs", "RS256 (RSA-2048 PKCS#1 v1.5 over a digest)"))}
    issue = {"es": micro_rate("issue ES256 access token (key ring + claims + sign)"),
             "rs": micro_rate("issue RS256 access token (key ring + claims + sign)")}
    L.append("| pure signing, one core (micro) | %s/s | %s/s |" % (num(pure["es"]), num(pure["rs"])))
    L.append("| token issuance without HTTP, one core (micro) | %s/s | %s/s |" % (num(issue["es"]), num(issue["rs"])))
    ce, cr = CEIL.get("ceiling-es"), CEIL.get("ceiling-rs")
    def wrk_cell(r):
        return "—" if r is None else "%s req/s (p99 %s ms, other CPU %s %%)" % (num(r.rps), ms(r.p99), r.noise)

    es, rs = CC.get("warden-es"), CC.get("warden-rs")
    L.append("| ceiling server, HTTP + sign (wrk) | %s | %s |" % (wrk_cell(ce), wrk_cell(cr)))
    L.append("| Warden client_credentials (wrk) | %s | %s |" % (wrk_cell(es), wrk_cell(rs)))

    def pct(a, b):
        r = ratio(a, b)
        return "—" if r is None else "%.0f%%" % (100 * r)

    L.append("| Warden / ceiling server | %s | %s |" % (pct(es and es.rps, ce and ce.rps), pct(rs and rs.rps, cr and cr.rps)))
    L.append("| ceiling server / (2 × pure signing) | %s | %s |" % (
        pct(ce and ce.rps, pure["es"] and 2 * pure["es"]), pct(cr and cr.rps, pure["rs"] and 2 * pure["rs"])))
    L.append("")
    L.append("## Memory and start-up")
    L.append("")
    L.append("| | Warden | ceiling server | peer |")
    L.append("|---|---:|---:|---:|")
    L.append("| start → `GET /readyz` 200, ms (each start; Warden on a new SQLite file: migrations and key generation included) | %s | %s | |" % (
        ", ".join(map(str, W_READY)) or "—", ", ".join(map(str, C_READY)) or "—"))
    L.append("| idle RSS 2 s after ready, MB | %s | %s | |" % (
        ", ".join("%.1f" % (x / 1024) for x in W_IDLE) or "—", ", ".join("%.1f" % (x / 1024) for x in C_IDLE) or "—"))
    wp, wn = per_pending("warden")
    pp, pn = per_pending("peer")
    L.append("| RSS per pending CIBA request (after − before / pending) | %s | | %s |" % (
        "—" if wp is None else "%.0f bytes at %s" % (wp, num(wn)), "—" if pp is None else "%.0f bytes at %s" % (pp, num(pn))))
    L.append("")
    L.append("## Targets")
    L.append("")
    targets(L)
    if PG_CC or PG_CF:
        L.append("")
        L.append("## Warden on PostgreSQL (`--pg`)")
        L.append("")
        L.append("A throw-away local cluster with PostgreSQL's default durability, a fresh database per topic; same wrk line.")
        L.append("")
        L.append("| operation | PostgreSQL req/s | p50 ms | p99 ms | SQLite req/s | PostgreSQL / SQLite | other CPU % (PostgreSQL / SQLite run) |")
        L.append("|---|---:|---:|---:|---:|---:|---:|")
        for label, w, _, src in OPERATIONS:
            pg = (PG_CC if src is CC else PG_CF if src is CF else {}).get(w)
            if pg is None:
                continue
            lite = src.get(w)
            r = ratio(pg.rps, lite and lite.rps)
            L.append("| %s | %s | %s | %s | %s | %s | %s/%s |" % (
                label, num(pg.rps), ms(pg.p50), ms(pg.p99), num(lite and lite.rps), "" if r is None else "%.2f" % r,
                pg.noise, lite and lite.noise))
    L.append("")
    # Topics that scripts of their own measure (scripts/bench/mfa-signin, scripts/bench-scale), written down in
    # docs/benchmarks/sections/ and kept here as they are.
    sections = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "docs", "benchmarks",
                            "sections")
    for name in sorted(os.listdir(sections)) if os.path.isdir(sections) else []:
        if name.endswith(".md"):
            with open(os.path.join(sections, name)) as section:
                L.append(section.read().rstrip())
            L.append("")
    L.append("## Micro benchmarks")
    L.append("")
    L.append("`swift package benchmark` of `Benchmarks/` (ordo-one/benchmark, malloc counts through its MallocInterposer "
             "trait), medians; `scripts/bench/micro` runs them alone.")
    L.append("")
    micro_table(L)
    L.append("")
    L.append("## Steps of this run")
    L.append("")
    L.append("| step | seconds | result |")
    L.append("|---|---:|---|")
    for s in STEPS:
        name, secs, rc, note = (s + ["", "", "", ""])[:4]
        L.append("| %s | %s | %s |" % (name, secs, ("ok" if rc == "0" else "exit %s" % rc) + (" — " + note if note else "")))
    print("\n".join(L))


main()
