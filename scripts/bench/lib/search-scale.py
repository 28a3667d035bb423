"""The measuring loop of scripts/bench/search-scale: URL SECRET USERS RUNS [PROBES] -> a Markdown table on stdout.

Each search runs RUNS times one after the other (after 3 warm-up requests) with a Management API token; the
first answer must hold the expected users (a total is exact, or capped at 1,000 as SPEC §9 allows). Then
client_credentials and /readyz p50/p99 over PROBES requests [1,000] alone, and with one thread looping a metadata
search beside them: over 1,000 requests the p99 is the eleventh slowest, over 200 it was the third, which this
2-core VM's noise alone moved from 4 to 10 ms.
"""

import json
import statistics
import sys
import threading
import time
import urllib.parse
import urllib.request

URL, SECRET, USERS, RUNS = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
PROBES = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
TOKEN_FORM = urllib.parse.urlencode(
    {
        "grant_type": "client_credentials",
        "client_id": "bench-mgmt",
        "client_secret": SECRET,
        "audience": URL + "/api/v2/",
    }
).encode()


def token_request():
    with urllib.request.urlopen(URL + "/oauth/token", data=TOKEN_FORM, timeout=60) as response:
        return json.load(response)["access_token"]


TOKEN = token_request()


def get(path):
    request = urllib.request.Request(URL + path, headers={"Authorization": "Bearer " + TOKEN})
    with urllib.request.urlopen(request, timeout=120) as response:
        if response.status != 200:
            raise SystemExit(f"{path}: HTTP {response.status}")
        return json.load(response)


def users_query(q, **params):
    return "/api/v2/users?" + urllib.parse.urlencode({"q": q, "search_engine": "v3", **params})


def percentiles(samples):
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]
    return statistics.median(ordered), p99


def timed(call, runs):
    for _ in range(3):
        call()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        samples.append((time.perf_counter() - start) * 1000)
    return percentiles(samples)


def listed(answer):
    return answer["users"] if isinstance(answer, dict) else answer


def ids(answer):
    return [user["user_id"] for user in listed(answer)]


middle = USERS // 2
prefix = str(USERS // 20)
searches = [
    ("`GET /api/v2/users-by-email?email=user%d@example.com`" % middle,
     "/api/v2/users-by-email?email=user%d@example.com" % middle,
     lambda a: ids(a) == ["auth0|user%d" % middle]),
    ('`q=email:"user%d@example.com"`' % middle, users_query('email:"user%d@example.com"' % middle),
     lambda a: ids(a) == ["auth0|user%d" % middle]),
    ('`q=name:"User %d"`' % middle, users_query('name:"User %d"' % middle),
     lambda a: ids(a) == ["auth0|user%d" % middle]),
    ('`q=user_id:"auth0|user%d"`' % middle, users_query('user_id:"auth0|user%d"' % middle),
     lambda a: ids(a) == ["auth0|user%d" % middle]),
    ("`q=email:user%s*`" % prefix, users_query("email:user%s*" % prefix),
     lambda a: "auth0|user%s" % prefix in ids(a)),
    ("`q=app_metadata.plan:gold&per_page=5`", users_query("app_metadata.plan:gold", per_page=5),
     lambda a: len(ids(a)) == 5 and all(user["app_metadata"]["plan"] == "gold" for user in listed(a))),
    ("`q=app_metadata.plan:gold&per_page=50`", users_query("app_metadata.plan:gold", per_page=50),
     lambda a: len(ids(a)) == 50),
    ("`q=user_metadata.lang:de AND app_metadata.tier:3&include_totals=true`",
     users_query("user_metadata.lang:de AND app_metadata.tier:3", include_totals="true"),
     lambda a: a["total"] in (USERS // 25, min(1000, USERS // 25)) and "auth0|user11" in ids(a)),
    ('`q=user_metadata.lang:de AND user_metadata.city:"City 2"&per_page=50` (matches nobody)',
     users_query('user_metadata.lang:de AND user_metadata.city:"City 2"', per_page=50), lambda a: ids(a) == []),
    ("`q=_exists_:app_metadata.plan&include_totals=true`",
     users_query("_exists_:app_metadata.plan", include_totals="true"),
     lambda a: a["total"] in (USERS * 8 // 10, min(1000, USERS * 8 // 10))),
]

print("| request | p50 | p99 |")
print("| --- | --- | --- |")
for label, path, check in searches:
    answer = get(path)
    if not check(answer):
        raise SystemExit(f"{label}: unexpected answer {json.dumps(answer)[:300]}")
    p50, p99 = timed(lambda: get(path), RUNS)
    print(f"| {label} | {p50:.1f} ms | {p99:.1f} ms |", flush=True)



def readyz():
    with urllib.request.urlopen(URL + "/readyz", timeout=60) as response:
        response.read()


# A token request and /readyz (a statement on the database's writer) alone, then with one thread looping a
# metadata search beside them: a slow search must not hold them up.
probes = [("client_credentials", token_request), ("`GET /readyz`", readyz)]
runs = PROBES
for label, probe in probes:
    p50, p99 = timed(probe, runs)
    print(f"| {label}, alone ({runs} requests) | {p50:.1f} ms | {p99:.1f} ms |", flush=True)
stop = threading.Event()
searched = [0]


def search_loop():
    path = users_query("user_metadata.lang:de AND app_metadata.tier:3", include_totals="true")
    while not stop.is_set():
        get(path)
        searched[0] += 1


looper = threading.Thread(target=search_loop)
looper.start()
try:
    for label, probe in probes:
        before = searched[0]
        p50, p99 = timed(probe, runs)
        print(
            f"| {label}, a metadata search looping beside it ({searched[0] - before} searches meanwhile) "
            f"| {p50:.1f} ms | {p99:.1f} ms |",
            flush=True,
        )
finally:
    stop.set()
    looper.join()
