#!/usr/bin/env bash
# Runs the fuzz targets of koma's parsers of outside input (fuzz/fuzz_targets: move text,
# position text, variant file) with cargo-fuzz on the nightly toolchain, each for SECONDS
# (default 600). New inputs go to a scratch corpus under target/fuzz-corpus/, seeded from
# fuzz/corpus/ (kept small in the repository); crashes land in fuzz/artifacts/.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(move_text position_text variant_file)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
cd "$root/fuzz"
for t in "${targets[@]}"; do
  corpus="$root/target/fuzz-corpus/$t"
  mkdir -p "$corpus"
  cp -n corpus/"$t"/* "$corpus"/ 2>/dev/null || true
  echo "fuzz: $t for ${seconds}s" >&2
  cargo +nightly fuzz run -O "$t" "$corpus" -- -max_total_time="$seconds" -rss_limit_mb=4096
done
