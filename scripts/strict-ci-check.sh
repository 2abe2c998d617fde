#!/usr/bin/env bash
# A test of the test scripts themselves: each real-component test is run with its component
# made unavailable (a binary path that does not exist), once with CI set, where it must fail
# and say why, and once without, where it must pass and say SKIPPED. Run after
# `cargo test --workspace` in the profile KOMA_PROFILE names (default release: `koma_profile`
# in scripts/env.sh); it reuses that profile's built test binaries and binaries.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. scripts/env.sh
profile="$(koma_profile)"
failures=0
# check NAME NEEDLE COMMAND...: COMMAND must fail with CI=1 and print "NEEDLE FAILED", and pass
# without CI printing "NEEDLE SKIPPED".
check() {
  local name="$1" needle="$2"
  shift 2
  local out
  out="$(env CI=1 KOMA_NO_INSTALL=1 "$@" 2>&1)"
  if [ $? = 0 ] || ! grep -q "$needle FAILED" <<<"$out"; then
    echo "strict CI check: $name did not fail with CI set and its component missing:" >&2
    tail -5 <<<"$out" >&2
    failures=$((failures + 1))
  else
    echo "strict CI check: $name: failed with CI set and the component missing, as it should" >&2
  fi
  out="$(env -u CI KOMA_NO_INSTALL=1 "$@" 2>&1)"
  if [ $? != 0 ] || ! grep -q "$needle SKIPPED" <<<"$out"; then
    echo "strict CI check: $name did not skip, saying so, without CI:" >&2
    tail -5 <<<"$out" >&2
    failures=$((failures + 1))
  else
    echo "strict CI check: $name: skipped, saying so, without CI, as it should" >&2
  fi
}
check "the S3 store tests" "S3 store test" \
  env KOMA_WEED=/nonexistent/weed cargo test --workspace --profile "$profile" --quiet --test s3_store -- --nocapture
check "the Fairy-Stockfish test" "Fairy-Stockfish arena test" \
  env KOMA_NODE=/nonexistent/node cargo test --workspace --profile "$profile" --quiet --test arena_engines fairy -- --nocapture
check "the HaChu test" "HaChu arena test" \
  env KOMA_HACHU=/nonexistent/hachu cargo test --workspace --profile "$profile" --quiet --test hachu arena -- --nocapture
check "the browser test" "browser test" \
  env KOMA_CHROMIUM=/nonexistent/chromium scripts/browser-test.sh
check "the XBoard test" "xboard match" \
  env KOMA_XBOARD=/nonexistent/xboard scripts/xboard-match.sh 2 hand-shogi
[ $failures = 0 ] || { echo "strict CI check: $failures failed" >&2; exit 1; }
