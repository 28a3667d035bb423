#!/usr/bin/env python3
"""Makes N login transactions for the password-login run of scripts/bench/code-flow: GET /authorize, then GET
/u/login, on two threads; writes one "state csrf" line per transaction (what login-post.lua posts).

Usage: login-transactions.py BASE_URL AUTHORIZE_QUERY N OUT_FILE
"""
import http.client, re, sys, threading, urllib.parse
base, query, n, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
u = urllib.parse.urlsplit(base)
state_re = re.compile(r'name="state" value="([^"]+)"')
csrf_re = re.compile(r'name="csrf" value="([^"]+)"')
results, errors, lock = [], [], threading.Lock()
def worker(count):
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    mine = []
    for _ in range(count):
        c.request("GET", "/authorize?" + query)
        r = c.getresponse(); r.read()
        loc = r.getheader("Location") or ""
        if r.status != 302 or not loc.startswith("/u/login?"):
            errors.append("GET /authorize -> %s Location %r" % (r.status, loc)); break
        c.request("GET", loc)
        r = c.getresponse(); body = r.read().decode("utf-8", "replace")
        cookie = re.search(r"warden_csrf=([^;]+)", r.getheader("Set-Cookie") or "")
        s, f = state_re.search(body), csrf_re.search(body)
        if r.status != 200 or not (s and f and cookie) or cookie.group(1) != f.group(1):
            errors.append("GET %s -> %s: no state/csrf fields, no warden_csrf cookie, or cookie != field" % (loc, r.status)); break
        mine.append("%s %s" % (s.group(1), f.group(1)))
    with lock:
        results.extend(mine)
ts = [threading.Thread(target=worker, args=(n // 2 + (i < n % 2),)) for i in range(2)]
[t.start() for t in ts]; [t.join() for t in ts]
with open(out, "w") as fh:
    fh.write("".join(l + "\n" for l in results))
if errors:
    sys.exit("login transactions: " + errors[0])
