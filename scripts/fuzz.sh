#!/usr/bin/env bash
# Runs the fuzz targets of the parsers of outside input with cargo-fuzz on the nightly toolchain,
# each for SECONDS (default 600): fuzz/ (move text, position text, variant file, and the store's
# game chunk and spool journal decoders: no libtorch, with AddressSanitizer) and fuzz-engine/ (protocol_session: koma-engine's XBoard, USI and UCI
# sessions; play_api: koma play's HTTP API; game_record: its record files; these link libtorch and run without a sanitizer,
# looking for panics and hangs). New inputs go to a scratch corpus under target/fuzz-corpus/,
# seeded from the fuzz directory's corpus/ (kept small in the repository); crashes land in its
# artifacts/.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(move_text position_text variant_file game_chunk game_journal protocol_session play_api game_record arena_record)
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
for t in "${targets[@]}"; do
  corpus="$root/target/fuzz-corpus/$t"
  mkdir -p "$corpus"
  case "$t" in
    protocol_session | play_api | game_record | arena_record)
      # libtorch: built against the project's environment; cargo-fuzz's RUSTFLAGS replace the
      # rpath of .cargo/config.toml, so the library path is given at run time.
      . "$root/scripts/env.sh"
      export LD_LIBRARY_PATH="$root/.venv/torch-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
      dir="$root/fuzz-engine"
      flags=(-s none)
      ;;
    *)
      dir="$root/fuzz"
      flags=()
      ;;
  esac
  cp -n "$dir/corpus/$t"/* "$corpus"/ 2>/dev/null || true
  echo "fuzz: $t for ${seconds}s" >&2
  (cd "$dir" && cargo +nightly fuzz run --fuzz-dir "$dir" -O "${flags[@]}" "$t" "$corpus" -- \
    -max_total_time="$seconds" -rss_limit_mb=4096)
done
