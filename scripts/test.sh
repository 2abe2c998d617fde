#!/usr/bin/env bash
# The project's checks, as CI runs them: set-up, formatting, lints, then every test.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh
. scripts/env.sh
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --quiet -- -D warnings
cargo test --workspace --release
# The page of `koma play` in a real browser (skipped, saying so, where Chromium cannot be had).
scripts/browser-test.sh
