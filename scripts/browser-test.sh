#!/usr/bin/env bash
# The real-browser test of `koma play` (tests/browser/play_test.py): Debian's Chromium, driven
# headless through WebDriver (chromedriver) by Selenium, plays Hand, Shoko and Ko Shogi games
# by clicks against the engine. Installs what it needs when it can (chromium and
# chromium-driver with apt-get as root, selenium into the project's Python environment); where
# it cannot, it says so and skips without failing. Screenshots go to target/browser-test/.
# Expects target/release/koma (built by `cargo test --release` or `cargo build --release`).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. scripts/env.sh
skip() {
  echo "browser test SKIPPED: $*" >&2
  exit 0
}
koma="$root/target/release/koma"
[ -x "$koma" ] || { echo "browser test: $koma is missing; build it first" >&2; exit 1; }
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "browser test: installing chromium and chromium-driver" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver) \
      >/dev/null 2>&1 || skip "chromium could not be installed with apt-get"
  else
    skip "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"
  fi
fi
if ! "$VIRTUAL_ENV/bin/python" -c "import selenium" 2>/dev/null; then
  "$VIRTUAL_ENV/bin/pip" install --quiet --disable-pip-version-check "selenium>=4.20,<5" \
    || skip "the selenium package could not be installed"
fi
out="$root/target/browser-test"
mkdir -p "$out"
export KOMA_CHROMIUM="$(command -v chromium)" KOMA_CHROMEDRIVER="$(command -v chromedriver)"
exec "$VIRTUAL_ENV/bin/python" tests/browser/play_test.py "$koma" "$out"
