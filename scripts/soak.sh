#!/usr/bin/env bash
# Soak test: scripts/load.sh's mix for at least 10 minutes, sampling the
# server's RSS every 30 s; fails on any error (as load.sh does) or when memory
# is not flat: the last sample may exceed the sample taken after 60 s of load
# (the allocator's warm-up) by at most RSS_GROWTH_LIMIT_KIB (default 8 MiB,
# against a steady state of about 12 MiB with one worker: a leak of even a few
# bytes per request, some 5 million requests in 10 minutes, would cross it).
#
#   scripts/soak.sh            # 10 minutes
#   scripts/soak.sh 30m        # longer; WORKERS, CONNECTIONS, ... as for load.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export RSS_SAMPLE_SECS=${RSS_SAMPLE_SECS:-30}
export RSS_GROWTH_LIMIT_KIB=${RSS_GROWTH_LIMIT_KIB:-8192}
exec scripts/load.sh "${1:-10m}"
