# Sourced by the scripts whose tests need a real component (Chromium, XBoard and Xvfb,
# SeaweedFS, Node for Fairy-Stockfish, fonts).
#
# component_missing TEST REASON...: the component cannot be had. Where CI is set (as CI
# services set it), that fails the run: a skipped test there would hide a regression. Elsewhere
# the test is skipped, saying so clearly. Ends the script either way.
component_missing() {
  local test="$1"
  shift
  if [ -n "${CI:-}" ]; then
    echo "$test FAILED: $* (CI is set, so a component that cannot be had fails the run instead of skipping it)" >&2
    exit 1
  fi
  echo "$test SKIPPED: $*" >&2
  exit 0
}

# can_install: whether this script may install Debian packages (root with apt-get, and
# KOMA_NO_INSTALL not set).
can_install() {
  [ -z "${KOMA_NO_INSTALL:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null
}
