#!/bin/sh
# Installs the locked runtime dependencies (requirements.runtime.lock: no test or lint tools)
# into the container once, then runs one process in the foreground: a service (match, rules,
# dice, scoring) or the archiver. The consumer name defaults to <service>-<hostname>: stable
# across restarts of the same container, distinct between replicas (the archiver has no
# consumer group; its name names its leases and its health record).
set -e
SERVICE="$1"
if [ ! -f /tmp/.siege-installed ]; then
  pip install -q -r requirements.runtime.lock && pip install -q --no-deps -e . && touch /tmp/.siege-installed
fi
exec siege serve "$SERVICE" --consumer "${SIEGE_CONSUMER:-$SERVICE-$(hostname)}"
