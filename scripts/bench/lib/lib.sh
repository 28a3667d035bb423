# Shared bash part of the load benchmarks (sourced, not run): scripts/bench/client-credentials and
# scripts/bench/code-flow. The sourcing script runs `set -euo pipefail`, sets REPO, and calls, in order:
#   bench_parse_args "$@"   --skip-build, --only warden|peer, -h|--help; a script with more options defines
#                           bench_extra_arg (called with the remaining arguments; it sets EXTRA_SHIFT to the
#                           number it consumed, or returns 1 for an unknown one)
#   bench_init NAME         defaults of DURATION WARMUP REPEAT THREADS CONNS OUT PEER_DIR, the temp dir
#                           $TMP and the cleanup traps; OUT defaults to bench-results/NAME-<timestamp>.md
#   start_warden            (if WANT_WARDEN) build or take the binary, start it on a free port, $WURL
#   warden_mgmt_token       Management API token; then `mgmt METHOD PATH JSON` (body in $TMP/resp.json)
#   start_peer              (if WANT_PEER) Glewlwyd from a writable copy on a fresh DB, provisioned
#   measure_run ...         one warm-up + one measured wrk run, one row in $RESULTS
#   report_machine_line, report_footer   shared lines of the Markdown report
#   bench_fact KEY VALUE    a figure for scripts/bench/run (BENCH_EXPORT_DIR): kept in $TMP/facts.tsv
# With BENCH_EXPORT_DIR set (scripts/bench/run does), the raw results ($TMP/results.tsv, secs.tsv, bcrypt.txt,
# facts.tsv) are copied there as NAME.<file> on exit, before the temp dir goes.
# Everything it starts (Warden, Glewlwyd, wrk, and perf when the caller sets PERF_PID) is stopped on exit,
# also on failure or Ctrl-C.

bench_usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[-1]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }

bench_parse_args() {
  SKIP_BUILD=0
  ONLY=both
  while (($#)); do
    case $1 in
      --skip-build) SKIP_BUILD=1 ;;
      --only) shift; ONLY=${1:-}; [[ $ONLY == warden || $ONLY == peer ]] || { echo "--only takes warden or peer" >&2; exit 1; } ;;
      --only=*) ONLY=${1#--only=}; [[ $ONLY == warden || $ONLY == peer ]] || { echo "--only takes warden or peer" >&2; exit 1; } ;;
      -h|--help) bench_usage; exit 0 ;;
      *)
        EXTRA_SHIFT=0
        if declare -F bench_extra_arg >/dev/null && bench_extra_arg "$@"; then
          shift $((EXTRA_SHIFT - 1))
        else
          echo "unknown argument: $1 (see --help)" >&2; exit 1
        fi ;;
    esac
    shift
  done
  WANT_WARDEN=1; WANT_PEER=1
  [[ $ONLY == peer ]] && WANT_WARDEN=0
  [[ $ONLY == warden ]] && WANT_PEER=0
  return 0
}

log() { printf '[bench] %s\n' "$*" >&2; }
die() { printf '[bench] ERROR: %s\n' "$*" >&2; exit 1; }

to_secs() { # wrk duration (10, 10s, 2m, 1h) -> seconds
  local d=$1
  case $d in
    *s) echo "${d%s}" ;; *m) echo $((${d%m} * 60)) ;; *h) echo $((${d%h} * 3600)) ;; *) echo "$d" ;;
  esac
}

bench_init() { # NAME
  DURATION="${DURATION:-15s}"
  WARMUP="${WARMUP:-2s}"
  REPEAT="${REPEAT:-1}"
  THREADS="${THREADS:-2}"
  CONNS="${CONNS:-32}"
  STAMP="$(date +%Y%m%d-%H%M%S)"
  BENCH_NAME=$1
  OUT="${OUT:-bench-results/$1-$STAMP.md}"
  [[ $OUT == /* ]] || OUT="$REPO/$OUT"
  if [[ -z ${PEER_DIR:-} ]]; then
    if [[ -d "$REPO/../shared/peers/glewlwyd" ]]; then PEER_DIR="$REPO/../shared/peers/glewlwyd"
    else PEER_DIR=/work/shared/peers/glewlwyd; fi
  fi
  [[ $(to_secs "$DURATION") =~ ^[0-9]+$ && $(to_secs "$WARMUP") =~ ^[0-9]+$ ]] \
    || die "DURATION/WARMUP must look like 15s, 2m or 15 (got '$DURATION', '$WARMUP')"
  [[ $REPEAT =~ ^[1-9][0-9]*$ ]] || die "REPEAT must be a positive integer (got '$REPEAT')"
  [[ -f $LUA ]] || die "missing $LUA"

  # ---------------------------------------------------------------- state + cleanup
  TMP="$(mktemp -d "${TMPDIR:-/tmp}/warden-bench.XXXXXX")"
  WARDEN_PID=""
  WRK_PID=""
  PEER_HOME=""
  FAILED_STEP=""
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  # errtrace: the ERR trap also for commands inside these functions; only in the main shell, not in
  # $(…) subshells (as when the script was one piece)
  trap '[[ $BASHPID != "$$" ]] || log "command failed (line $LINENO): $BASH_COMMAND${FAILED_STEP:+ — while: $FAILED_STEP}"' ERR
  set -o errtrace

  command -v curl >/dev/null || die "curl not found (apt-get install curl)"
  command -v python3 >/dev/null || die "python3 not found"
  CLK="$(getconf CLK_TCK)"
  LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg)"
}

stop_pid() { # pid name: SIGTERM, then SIGKILL after 10 s
  local pid=$1 name=$2
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }; sleep 0.1; done
  log "$name (pid $pid) ignored SIGTERM for 10 s; SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local rc=$?
  trap - EXIT INT TERM ERR
  set +e
  if [[ -n $WRK_PID ]]; then kill -TERM "$WRK_PID" 2>/dev/null; wait "$WRK_PID" 2>/dev/null; fi
  if [[ -n ${PERF_PID:-} ]]; then kill -INT "$PERF_PID" 2>/dev/null; wait "$PERF_PID" 2>/dev/null; fi
  if [[ -n $WARDEN_PID ]]; then
    if ((rc != 0)) && [[ -f $TMP/warden.log ]]; then
      log "Warden log tail ($TMP/warden.log):"; tail -n 15 "$TMP/warden.log" >&2
    fi
    stop_pid "$WARDEN_PID" warden
  fi
  if [[ -n $PEER_HOME && -x $PEER_HOME/stop.sh ]]; then
    if ((rc != 0)) && [[ -s $PEER_HOME/run/glewlwyd.log ]]; then
      log "Glewlwyd log tail ($PEER_HOME/run/glewlwyd.log):"; tail -n 15 "$PEER_HOME/run/glewlwyd.log" >&2
    fi
    "$PEER_HOME/stop.sh" >/dev/null 2>&1
  fi
  if [[ -n ${BENCH_EXPORT_DIR:-} && -n ${BENCH_NAME:-} ]]; then
    mkdir -p "$BENCH_EXPORT_DIR"
    for f in results.tsv secs.tsv bcrypt.txt facts.tsv; do
      [[ -f $TMP/$f ]] && cp "$TMP/$f" "$BENCH_EXPORT_DIR/$BENCH_NAME.$f"
    done
  fi
  if [[ ${KEEP_TMP:-0} == 1 ]]; then
    log "kept temp dir $TMP"
  else
    rm -rf "$TMP"
  fi
  exit "$rc"
}

bench_fact() { printf '%s\t%s\n' "$1" "$2" >>"$TMP/facts.tsv"; }

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
rss_kb() { awk '/^VmRSS/{print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
cputicks() { awk '{print $14+$15}' "/proc/$1/stat" 2>/dev/null || echo 0; }   # utime+stime
sysbusy() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9}' /proc/stat; }
systotal() { awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9}' /proc/stat; }
jget() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }
urlenc() { python3 -c 'import sys,urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$1"; }
jwt_header() { # token -> "alg=… kid=… typ=…"
  python3 -c '
import base64, json, sys
h = sys.argv[1].split(".")[0]; h += "=" * (-len(h) % 4)
d = json.loads(base64.urlsafe_b64decode(h))
print(" ".join("%s=%s" % (k, d.get(k)) for k in ("alg", "typ", "kid")))' "$1"
}

# ------------------------------------------------------------------ Warden: build + start
# Sets WARDEN_BIN WARDEN_BUILD WARDEN_PID WPORT WURL WARDEN_DB MGMT_SECRET WARDEN_IDLE_RSS. The database is
# a fresh SQLite file in the temp dir, or WARDEN_DATABASE (e.g. a fresh PostgreSQL database of scripts/bench/run --pg).
start_warden() {
  FAILED_STEP="building/starting Warden"
  if [[ -n ${WARDEN_BIN:-} ]]; then
    SKIP_BUILD=1
  elif ((SKIP_BUILD)); then
    WARDEN_BIN="$REPO/.build/release/warden"
  else
    command -v swift >/dev/null || die "swift not found (needed to build Warden; or pass WARDEN_BIN=...)"
    log "swift build -c release --product warden (in $REPO)"
    (cd "$REPO" && swift build -c release --product warden) || die "release build of Warden failed"
    WARDEN_BIN="$(cd "$REPO" && swift build -c release --show-bin-path)/warden"
  fi
  [[ $WARDEN_BIN == /* ]] || WARDEN_BIN="$PWD/$WARDEN_BIN"
  [[ -x $WARDEN_BIN ]] || die "Warden binary not found or not executable: $WARDEN_BIN (build it, or drop --skip-build)"
  case $WARDEN_BIN in */debug/*) WARDEN_BUILD="DEBUG build (not representative)" ;; *) WARDEN_BUILD="release build" ;; esac

  # run a copy, so a concurrent `swift build` in the repo can relink the binary (no ETXTBSY)
  cp "$WARDEN_BIN" "$TMP/warden"
  WPORT="$(free_port)"
  WURL="http://127.0.0.1:$WPORT"
  MGMT_SECRET="$(python3 -c 'import secrets; print(secrets.token_urlsafe(36))')"
  WARDEN_DB="${WARDEN_DATABASE:-sqlite:$TMP/warden.sqlite}"
  log "starting Warden ($WARDEN_BIN, $WARDEN_BUILD) on $WURL, database ${WARDEN_DB%%://*}${WARDEN_DATABASE:+ (WARDEN_DATABASE)}"
  WARDEN_BOOTSTRAP_CLIENT_ID=bench-mgmt WARDEN_BOOTSTRAP_CLIENT_SECRET="$MGMT_SECRET" WARDEN_LOG_LEVEL=warning \
    "$TMP/warden" serve --host 127.0.0.1 --port "$WPORT" --database "$WARDEN_DB" \
    >"$TMP/warden.log" 2>&1 </dev/null &
  WARDEN_PID=$!
  local ready=0
  for _ in $(seq 1 600); do   # 60 s
    kill -0 "$WARDEN_PID" 2>/dev/null || die "Warden exited during start-up (its log tail follows)"
    if [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$WURL/readyz" || true)" == 200 ]]; then ready=1; break; fi
    sleep 0.1
  done
  ((ready)) || die "Warden did not become ready (GET $WURL/readyz != 200 within 60 s)"
  sleep 1
  WARDEN_IDLE_RSS="$(rss_kb "$WARDEN_PID")"
  log "Warden ready (pid $WARDEN_PID), idle RSS $WARDEN_IDLE_RSS KiB"
}

# Management API token of the bootstrap client (SPEC §9): sets MGMT_TOKEN, enables mgmt().
warden_mgmt_token() {
  FAILED_STEP="provisioning Warden through the Management API"
  local code
  code="$(curl -sS -o "$TMP/resp.json" -w '%{http_code}' \
    --data-urlencode grant_type=client_credentials --data-urlencode client_id=bench-mgmt \
    --data-urlencode "client_secret=$MGMT_SECRET" --data-urlencode "audience=$WURL/api/v2/" "$WURL/oauth/token")"
  [[ $code == 200 ]] || die "Management token: POST /oauth/token -> HTTP $code: $(head -c 500 "$TMP/resp.json")"
  MGMT_TOKEN="$(jget "$TMP/resp.json" access_token)"
}
mgmt() { # METHOD PATH JSON -> body in $TMP/resp.json; dies unless 2xx
  local c
  c="$(curl -sS -o "$TMP/resp.json" -w '%{http_code}' -X "$1" -H "Authorization: Bearer $MGMT_TOKEN" \
    -H 'Content-Type: application/json' --data "$3" "$WURL/api/v2/$2")"
  [[ $c == 2?? ]] || die "Management API: $1 /api/v2/$2 $3 -> HTTP $c: $(head -c 500 "$TMP/resp.json")"
}

# ------------------------------------------------------------------ peer: writable copy, fresh DB
# Sets PEER_HOME PEER_PID GPORT GURL PEER_IDLE_RSS P_BASIC PEER_VERSION PEER_JOURNAL.
start_peer() {
  FAILED_STEP="setting up the Glewlwyd peer"
  [[ -x $PEER_DIR/setup.sh ]] || die "peer scripts not found in $PEER_DIR (set PEER_DIR)"
  PEER_HOME="$TMP/glewlwyd"
  cp -r "$PEER_DIR" "$PEER_HOME"
  chmod -R u+w "$PEER_HOME"
  rm -rf "$PEER_HOME/data" "$PEER_HOME/run" "$PEER_HOME"/results/refresh_token.*   # never reuse state
  GPORT="$(free_port)"
  GURL="http://127.0.0.1:$GPORT"
  log "setting up Glewlwyd in $PEER_HOME on $GURL (setup.sh apt-installs it if missing)"
  (cd "$PEER_HOME" && GLEWLWYD_PORT=$GPORT ./setup.sh) >"$TMP/peer-setup.log" 2>&1 \
    || { tail -n 20 "$TMP/peer-setup.log" >&2; die "peer setup.sh failed"; }
  (cd "$PEER_HOME" && ./start.sh) >"$TMP/peer-start.log" 2>&1 \
    || { tail -n 20 "$TMP/peer-start.log" >&2; die "peer start.sh failed (Glewlwyd did not become ready)"; }
  PEER_PID="$(cat "$PEER_HOME/run/glewlwyd.pid")"
  sleep 1
  PEER_IDLE_RSS="$(rss_kb "$PEER_PID")"
  log "Glewlwyd ready (pid $PEER_PID), idle RSS $PEER_IDLE_RSS KiB"
  (cd "$PEER_HOME" && ./provision.py) >"$TMP/peer-provision.log" 2>&1 \
    || { tail -n 20 "$TMP/peer-provision.log" >&2; die "peer provision.py failed"; }
  P_BASIC="$(printf '%s:%s' bench-confidential bench-secret | base64 -w0)"
  PEER_VERSION="$(dpkg-query -W -f='${Version}' glewlwyd 2>/dev/null || echo '?')"
  PEER_JOURNAL="$(sqlite3 -cmd '.timeout 10000' "$PEER_HOME/data/glewlwyd.db" 'PRAGMA journal_mode;' 2>/dev/null || echo '?')"
  log "Glewlwyd $PEER_VERSION provisioned (plugins oidc=RS256, oidc_es=ES256, client bench-confidential)"
}

# ------------------------------------------------------------------ wrk runs
run_wrk() { # duration raw-file  (globals: LUA url pid THREADS CONNS, WRK_ARGS = extra wrk options; env for
            # the script set by the caller); sets WRK_PID, samples the peak RSS of $pid into maxrss and wrk's
            # CPU ticks into wrkticks. With WRK_STOP_WHEN=<function>, wrk gets SIGINT (it then reports what it
            # did so far) as soon as that function succeeds.
  local dur=$1 raw=$2 started stop_when=${WRK_STOP_WHEN:-} tick=0.5
  # shellcheck disable=SC2086
  wrk -t"$THREADS" -c"$CONNS" -d"$dur" ${WRK_ARGS:-} --latency -s "$LUA" "$url" >"$raw" 2>&1 &
  WRK_PID=$!
  started=$SECONDS
  maxrss="$(rss_kb "$pid")"; wrkticks=0
  while kill -0 "$WRK_PID" 2>/dev/null; do
    r="$(rss_kb "$pid")"; ((r > maxrss)) && maxrss=$r
    w="$(awk '{print $14+$15}' "/proc/$WRK_PID/stat" 2>/dev/null || true)"; [[ -n $w ]] && wrkticks=$w
    if ((SECONDS - started > $(to_secs "$dur") + 30)); then log "wrk overran its duration; stopping it"; kill -TERM "$WRK_PID" 2>/dev/null || true; fi
    if [[ -n $stop_when ]]; then
      tick=0.1
      if "$stop_when"; then kill -INT "$WRK_PID" 2>/dev/null || true; stop_when=""; fi
    fi
    sleep "$tick"
  done
  wait "$WRK_PID" || true
  WRK_PID=""
}

# One warm-up run (unless WARMUP_RUN=0) and one measured run (wrk -d ${RUN_DURATION:-$DURATION}) of $LUA
# against url (globals: rep name
# server alg pid url, env for the script exported by the caller), then one row of $RESULTS:
#   rep name server alg rps p50 p90 p99 max non2xx sockerr cpu_ms_per_req peak_rss_kib other_cpu_%
# Non-2xx responses / socket errors set BAD=1 (PEER_BAD=1 on the peer) and go to $TMP/errors.txt. The raw wrk output is
# $TMP/wrk-$name-$rep.txt; its SUMMARY line is left in $s.
measure_run() {
  FAILED_STEP="wrk run $name (round $rep)"
  kill -0 "$pid" 2>/dev/null || die "$server (pid $pid) is no longer running before run $name"
  [[ ${WARMUP_RUN:-1} == 0 ]] || run_wrk "$WARMUP" "$TMP/warmup-$name-$rep.txt"
  c0="$(cputicks "$pid")"; b0="$(sysbusy)"; t0="$(systotal)"
  raw="$TMP/wrk-$name-$rep.txt"
  run_wrk "${RUN_DURATION:-$DURATION}" "$raw"
  c1="$(cputicks "$pid")"; b1="$(sysbusy)"; t1="$(systotal)"
  kill -0 "$pid" 2>/dev/null || die "$server (pid $pid) died during run $name"
  s="$(grep '^SUMMARY' "$raw" || true)"
  [[ -n $s ]] || { cat "$raw" >&2; die "wrk printed no SUMMARY for $name (output above)"; }
  get() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<" $s"; }
  req="$(get requests)"
  cpu="$(awk -v d=$((c1 - c0)) -v n="$req" -v hz="$CLK" 'BEGIN{ if (n > 0) printf("%.2f", d*1000/hz/n); else printf("n/a") }')"
  other="$(awk -v b=$((b1 - b0)) -v t=$((t1 - t0)) -v g=$((c1 - c0)) -v w="$wrkticks" \
    'BEGIN{ o = b - g - w; if (o < 0) o = 0; if (t > 0) printf("%.0f", 100*o/t); else printf("n/a") }')"
  sockerr=$(($(get connect_err) + $(get read_err) + $(get write_err) + $(get timeout)))
  non2xx="$(get non2xx)"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$name" "$server" "$alg" \
    "$(get rps)" "$(get p50_ms)" "$(get p90_ms)" "$(get p99_ms)" "$(get max_ms)" "$non2xx" "$sockerr" \
    "$cpu" "$maxrss" "$other" >>"$RESULTS"
  log "round $rep $name: $(get rps) req/s, p50 $(get p50_ms) ms, p99 $(get p99_ms) ms, peak RSS $maxrss KiB, non-2xx $non2xx, socket errors $sockerr"
  if ((non2xx > 0 || sockerr > 0)); then
    # Reported either way; the peer's do not fail the command (they are its own, e.g. Glewlwyd's few 404s
    # on /ciba under load).
    if [[ $server == Glewlwyd ]]; then PEER_BAD=1; else BAD=1; fi
    { echo "- round $rep $name:"; grep -E '^(NON2XX|  Socket errors)' "$raw" | sed 's/^/    /' || true; } >>"$TMP/errors.txt"
    log "$name: NON-2XX / SOCKET ERRORS:"; grep -E '^(NON2XX|  Socket errors)' "$raw" | sed 's/^/    /' >&2 || true
  fi
}

# ------------------------------------------------------------------ report pieces
report_machine_line() {
  echo "- machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(awk '/MemTotal/{printf "%.0f GiB RAM", $2/1048576}' /proc/meminfo), kernel $(uname -sr); wrk and both servers share these CPUs (loopback); load average before start: $LOAD_BEFORE"
}
warden_version() { # short commit (+ uncommitted changes) of the repo
  local wv
  wv="$(cd "$REPO" && git rev-parse --short HEAD 2>/dev/null || echo 'no commit')"
  [[ -n "$(cd "$REPO" && git status --porcelain 2>/dev/null | head -n1)" ]] && wv="$wv + uncommitted changes"
  echo "$wv"
}
warden_storage_note() { # "SQLite <journal> journal (synchronous = …, per the source)", or PostgreSQL
  [[ $WARDEN_DB == postgres* ]] && { echo "PostgreSQL (WARDEN_DATABASE, a fresh database)"; return 0; }
  echo "SQLite $(sqlite3 "$TMP/warden.sqlite" 'PRAGMA journal_mode;' 2>/dev/null || echo '?') journal ($(grep -ho 'PRAGMA synchronous = [A-Z]*' "$REPO"/Sources/WardenStorage/Connection/*.swift 2>/dev/null | head -n1 | sed 's/PRAGMA //' || true), per the source)"
}
peer_storage_note() {
  echo "SQLite $PEER_JOURNAL journal ($([[ ${GLEWLWYD_NOFSYNC:-0} == 1 ]] && echo 'fsync disabled by eatmydata' || echo 'synchronous = SQLite default FULL: fsync per commit'))"
}
report_footer() {
  if ((BAD || ${PEER_BAD:-0})); then
    echo "**Some runs had non-2xx responses or socket errors** (the peer's do not make the command exit 3):"
    echo
    cat "$TMP/errors.txt"
  else
    echo "Every run: 0 non-2xx responses, 0 socket errors."
  fi
}

# ------------------------------------------------------------------ bcrypt reference (code-flow, signup)
# build_bcrypt_tool: sets BCRYPT_TOOL (lib/bcrypt-rate.c built against the bcrypt Warden runs) and BCRYPT_IMPL;
# needs WARDEN_BIN, LIB_DIR, TMP. Returns 1 when no C compiler or bcrypt implementation is found.
BCRYPT_TOOL=""
BCRYPT_IMPL=""
build_bcrypt_tool() {
  command -v cc >/dev/null || return 1
  # 1. the very objects Warden was linked with (SwiftPM keeps them beside the binary)
  local bindir objdir src
  bindir="$(dirname "$(readlink -f "$WARDEN_BIN")")"
  objdir="$bindir/CBcrypt.build"
  if [[ -f $objdir/bcrypt.c.o && -f $objdir/blf.c.o ]] &&
    cc -O2 -DUSE_CBCRYPT -o "$TMP/bcrypt-rate" "$LIB_DIR/bcrypt-rate.c" "$objdir/bcrypt.c.o" "$objdir/blf.c.o" -pthread 2>>"$TMP/bcrypt-build.log"; then
    BCRYPT_IMPL="hummingbird-auth CBcrypt, Warden's own build objects ($objdir)"
    BCRYPT_TOOL="$TMP/bcrypt-rate"; return 0
  fi
  # 2. its source in a SwiftPM checkout
  for src in "$bindir/../checkouts/hummingbird-auth/Sources/CBcrypt" "$bindir/../../checkouts/hummingbird-auth/Sources/CBcrypt" \
    "$REPO/.build/checkouts/hummingbird-auth/Sources/CBcrypt"; do
    if [[ -f $src/bcrypt.c ]] &&
      cc -O2 -DUSE_CBCRYPT -I"$src/include" -I"$src" -o "$TMP/bcrypt-rate" "$LIB_DIR/bcrypt-rate.c" "$src/bcrypt.c" "$src/blf.c" -pthread 2>>"$TMP/bcrypt-build.log"; then
      BCRYPT_IMPL="hummingbird-auth CBcrypt compiled from $(readlink -f "$src") with cc -O2"
      BCRYPT_TOOL="$TMP/bcrypt-rate"; return 0
    fi
  done
  # 3. libxcrypt (Debian libcrypt-dev)
  if cc -O2 -o "$TMP/bcrypt-rate" "$LIB_DIR/bcrypt-rate.c" -lcrypt -pthread 2>>"$TMP/bcrypt-build.log"; then
    BCRYPT_IMPL="libxcrypt crypt_rn (\$2b\$; Warden's CBcrypt objects/source not found)"
    BCRYPT_TOOL="$TMP/bcrypt-rate"; return 0
  fi
  return 1
}
