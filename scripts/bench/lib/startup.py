#!/usr/bin/env python3
"""Start-to-ready time and idle RSS of a server (scripts/bench/run).

Usage: startup.py RUNS -- COMMAND...   ({port} in COMMAND's words is replaced by a free loopback port,
        {run} by the run number, 1-based, e.g. for a fresh database per run)

Each run starts COMMAND, polls GET http://127.0.0.1:PORT/readyz every 2 ms until it answers 200 (at most
60 s), records the time from the spawn to that answer, waits IDLE_SECS (env, default 2) and reads VmRSS of
the process from /proc, then stops it (SIGTERM, SIGKILL after 10 s). Prints one line per run:
    STARTUP run=N ready_ms=… idle_rss_kib=…
Exits 1 if a run never became ready (its output tail goes to stderr).
"""
import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def ready(port):
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        c.request("GET", "/readyz")
        ok = c.getresponse().status == 200
        c.close()
        return ok
    except OSError:
        return False


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main():
    args = sys.argv[1:]
    if len(args) < 3 or args[1] != "--":
        sys.exit(__doc__)
    runs, command = int(args[0]), args[2:]
    idle = float(os.environ.get("IDLE_SECS", "2"))
    for run in range(1, runs + 1):
        port = free_port()
        argv = [a.replace("{port}", str(port)).replace("{run}", str(run)) for a in command]
        log = tempfile.TemporaryFile()
        t0 = time.monotonic()
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        ms = None
        while time.monotonic() - t0 < 60 and p.poll() is None:
            if ready(port):
                ms = (time.monotonic() - t0) * 1000
                break
            time.sleep(0.002)
        rss = 0
        if ms is not None:
            time.sleep(idle)
            rss = rss_kib(p.pid)
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        if ms is None:
            log.seek(0)
            sys.stderr.write(log.read()[-2000:].decode("utf-8", "replace"))
            sys.exit("run %d: %s did not become ready" % (run, argv[0]))
        print("STARTUP run=%d ready_ms=%.0f idle_rss_kib=%d" % (run, ms, rss), flush=True)


main()
