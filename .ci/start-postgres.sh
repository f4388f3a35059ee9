#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on 127.0.0.1 for the tests that need one (the fleet's
# shared replay store, #26) and prints the URL they find it by: `export JOSE_TEST_POSTGRES_URL=…`.
#
#   eval "$(bash .ci/start-postgres.sh)"     # installs Debian's postgresql when it is missing
#
# The cluster lives in a temporary folder owned by the postgres user (initdb refuses to run as
# root), listens on loopback only with trust authentication, and holds one database, jose_test.
# PORT (default 55432) picks the port; FSYNC=on makes commits durable (off by default: tests
# only). Stop it with `su postgres -c "pg_ctl -D $JOSE_TEST_POSTGRES_DIR/data stop"`; CI lets it
# end with the machine.
set -euo pipefail
port="${PORT:-55432}"

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq postgresql >&2
fi
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi; }

# A server left by an earlier run on this port would take the tests' connections: refuse.
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "start-postgres: 127.0.0.1:$port is in use (a server from an earlier run?): stop it, or choose another PORT" >&2
    exit 1
fi
dir="$(mktemp -d /tmp/jose-postgres.XXXXXX)"
[ "$(id -u)" = 0 ] && chown postgres: "$dir"
as_postgres "'$bin/initdb' -D '$dir/data' -U postgres -A trust --no-sync -E UTF8" >&2
as_postgres "'$bin/pg_ctl' -D '$dir/data' -l '$dir/log' -w -o \"-c listen_addresses=127.0.0.1 -p $port -k '$dir' -c fsync=${FSYNC:-off}\" start" >&2
as_postgres "'$bin/createdb' -h 127.0.0.1 -p $port -U postgres jose_test" >&2
echo "export JOSE_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/jose_test?sslmode=disable"
echo "export JOSE_TEST_POSTGRES_DIR=$dir"
