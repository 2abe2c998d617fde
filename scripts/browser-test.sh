#!/usr/bin/env bash
# The real-browser test of `koma play` (tests/browser/play_test.py): Debian's Chromium, driven
# headless through WebDriver (chromedriver) by Selenium, plays Hand, Shoko and Ko Shogi games
# by clicks against the engine. Installs what it needs when it can (chromium and
# chromium-driver with apt-get as root, selenium into the project's Python environment); where
# it cannot, it says so and skips, or fails where CI is set (scripts/component.sh). Screenshots go to target/browser-test/.
# Expects the koma binary of the Cargo profile KOMA_PROFILE names: release by default (built by
# `cargo build --release`), ci in scripts/test.sh (`koma_bin` in scripts/env.sh).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. scripts/env.sh
. scripts/component.sh
koma="$(koma_bin koma)"
[ -x "$koma" ] || { echo "browser test: $koma is missing; build it first" >&2; exit 1; }
# KOMA_CHROMIUM and KOMA_CHROMEDRIVER name the binaries to use instead of those on PATH.
if [ -z "${KOMA_CHROMIUM:-}" ] && { ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; }; then
  if can_install; then
    echo "browser test: installing chromium and chromium-driver" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver) \
      >/dev/null 2>&1 || component_missing "browser test" "chromium could not be installed with apt-get"
  else
    component_missing "browser test" "chromium and chromedriver are not installed (apt-get install chromium chromium-driver)"
  fi
fi
chromium="${KOMA_CHROMIUM:-$(command -v chromium)}"
chromedriver="${KOMA_CHROMEDRIVER:-$(command -v chromedriver)}"
[ -x "$chromium" ] || component_missing "browser test" "no Chromium at '$chromium'"
[ -x "$chromedriver" ] || component_missing "browser test" "no ChromeDriver at '$chromedriver'"
if ! "$VIRTUAL_ENV/bin/python" -c "import selenium" 2>/dev/null; then
  "$VIRTUAL_ENV/bin/pip" install --quiet --disable-pip-version-check "selenium>=4.20,<5" \
    || component_missing "browser test" "the selenium package could not be installed"
fi
out="$root/target/browser-test"
mkdir -p "$out"
export KOMA_CHROMIUM="$chromium" KOMA_CHROMEDRIVER="$chromedriver"
exec "$VIRTUAL_ENV/bin/python" tests/browser/play_test.py "$koma" "$out"
