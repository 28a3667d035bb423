# A throw-away PostgreSQL cluster for scripts/bench/run --pg (sourced, not run), started as scripts/test starts
# its own: as the `postgres` OS user when run as root (initdb refuses root), on 127.0.0.1, trust auth, data in a
# temp dir that pg_stop deletes. Unlike scripts/test's it keeps PostgreSQL's default durability (fsync,
# synchronous_commit on), so that the figures compare with SQLite's durable commits.
#   pg_start           initdb + pg_ctl start on a free port (from 55532), role `warden`
#   pg_create_db NAME  a fresh database owned by `warden`
#   pg_url NAME        its postgres:// URL
#   pg_stop            stop the cluster (if started here) and delete its directory
# Needs: free_port (lib.sh).

PG_BIN="" PG_DIR="" PG_PORT="" PG_RUNNING=0

pg_as_postgres() {
  if [[ $EUID -eq 0 ]]; then (cd "$PG_DIR" && runuser -u postgres -- "$@"); else (cd "$PG_DIR" && "$@"); fi
}

pg_start() {
  PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  [[ -n $PG_BIN && -x $PG_BIN/initdb ]] || { echo "no PostgreSQL under /usr/lib/postgresql/*/bin (apt-get install postgresql)" >&2; return 1; }
  PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/warden-bench-pg.XXXXXX")"
  chmod 700 "$PG_DIR"
  [[ $EUID -ne 0 ]] || chown postgres:postgres "$PG_DIR"
  PG_PORT="$(free_port)"
  pg_as_postgres "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth-local=trust --auth-host=trust \
    --encoding=UTF8 --no-locale >"$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; return 1; }
  pg_as_postgres "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c max_connections=200" start >/dev/null \
    || { cat "$PG_DIR/postgres.log" >&2; return 1; }
  PG_RUNNING=1
  pg_as_postgres "$PG_BIN/psql" -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE warden LOGIN PASSWORD 'warden'" || return 1
  echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT (data in $PG_DIR, default durability)"
}

pg_create_db() {
  pg_as_postgres "$PG_BIN/psql" -X -q -h 127.0.0.1 -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE $1 OWNER warden"
}

pg_url() { echo "postgres://warden:warden@127.0.0.1:$PG_PORT/$1"; }

pg_stop() {
  if ((PG_RUNNING)); then
    pg_as_postgres "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 60 stop >/dev/null 2>&1 \
      || pg_as_postgres "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
    PG_RUNNING=0
  fi
  if [[ -n $PG_DIR && -d $PG_DIR ]]; then rm -rf "$PG_DIR"; fi
  PG_DIR=""
}
