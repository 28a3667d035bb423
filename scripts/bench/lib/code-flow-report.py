#!/usr/bin/env python3
"""The tables of scripts/bench/code-flow's report (printed on stdout): medians over rounds per operation,
server and algorithm, the bare bcrypt reference, and every raw run.

Usage: code-flow-report.py RESULTS_TSV BCRYPT_TXT SECS_TSV
"""
import os, re, statistics, sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
secs = {}
if os.path.exists(sys.argv[3]):
    for l in open(sys.argv[3]):
        f = l.rstrip("\n").split("\t")
        if len(f) == 3:
            secs[(f[0], f[1])] = f[2]
# rep name server alg rps p50 p90 p99 max non2xx sockerr cpu rss other
def op_of(name):
    return name.rsplit("-", 1)[1]
by = {}
for r in rows:
    by.setdefault((op_of(r[1]), r[3], r[2]), []).append(r)
def med(rs, i):
    v = [float(r[i]) for r in rs if r[i] not in ("", "n/a")]
    return statistics.median(v) if v else float("nan")
bc = []
if os.path.exists(sys.argv[2]):
    bc = [float(m.group(1)) for m in (re.search(r" rate=([0-9.]+)", l) for l in open(sys.argv[2])) if m]
labels = {"refresh": "refresh_token", "refreshat": "refresh_token, access token only", "authorize": "authorize (SSO session) → code", "exchange": "authorization_code exchange", "login": "password login (POST /u/login)",
          "userinfo": "userinfo (GET, Bearer)", "jwks": "JWKS (GET)", "transfer": "session transfer exchange (SPEC §8)"}
print("| operation | server | req/s | p50 ms | p99 ms | server CPU ms/req | peak RSS MB | ratio Warden/peer |")
print("|---|---|---|---|---|---|---|---|")
for op in ("refresh", "refreshat", "authorize", "exchange", "login", "userinfo", "jwks", "transfer"):
    for alg in ("ES256", "RS256", "bcrypt"):
        peer = by.get(("refresh" if op == "refreshat" else op, alg, "Glewlwyd"))
        for server in ("Warden", "Glewlwyd"):
            rs = by.get((op, alg, server))
            if not rs:
                continue
            rps = med(rs, 4)
            ratio = ""
            if server == "Warden" and peer:
                ratio = "%.2fx" % (rps / med(peer, 4))
            if op == "login" and bc:
                ratio = "%.0f%% of bare bcrypt" % (100 * rps / statistics.mean(bc))
            peak = max(int(r[12]) for r in rs) / 1024
            what = labels[op] + ("" if alg == "bcrypt" else " " + alg)
            print("| %s | %s | %.0f | %.1f | %.1f | %s | %.1f | %s |" % (
                what, server, rps, med(rs, 5), med(rs, 7), "%.2f" % med(rs, 11), peak, ratio))
if bc:
    print()
    print("Bare bcrypt (same cost, %d threads = cores, measured just before and after each login run): %s hashes/s, mean %.1f."
          % (os.cpu_count(), ", ".join("%.1f" % b for b in bc), statistics.mean(bc)))
print()
print("Runs (raw): server CPU ms/req = server utime+stime / requests; other CPU % = share of the machine used by")
print("neither the server under test nor wrk (noise from other processes). \"bad\" = non-2xx responses; for")
print("authorize and login: responses other than a 302 to the callback with a code. secs = the run's length:")
print("authorize runs end when the codes are made, exchange and login runs when they have used up their")
print("codes / transactions or at -d, whichever comes first; req/s is over that length.")
print()
print("| round | run | secs | req/s | p50 ms | p90 ms | p99 ms | max ms | bad | socket errors | server CPU ms/req | peak RSS MB | other CPU % |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %s |" % (
        r[0], r[1], secs.get((r[0], r[1]), "?"), r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], int(r[12]) / 1024, r[13]))
