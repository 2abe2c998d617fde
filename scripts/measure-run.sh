#!/usr/bin/env bash
# What a training run of a variant gives on this machine, end to end: trains with the
# variant's preset (`koma train`) for MINUTES, summarises its self-play games per stretch of
# training (`koma games`), then rates its models with the ladder (`koma ladder`), in which the
# untrained first model (step 0), one from the middle of the run and the newest each play
# GAMES paired games against `random` and `greedy` (and the models against the one rated
# before them). The README's table of what a CPU run gives is measured with this script.
#
#   scripts/measure-run.sh VARIANT MINUTES [RUN_DIR]
#
# Environment: GAMES (games per ladder match, 40), SIMS (simulations per move of the models,
# 64), EVERY (rate the models whose step is a multiple of this, and the newest; default about
# half the run's steps), PREVIOUS (earlier models each new one plays, 1), CONFIG (a
# configuration file instead of the variant's preset).
# Everything goes to RUN_DIR (default runs/VARIANT-MINUTESm): the run itself, and in
# RUN_DIR/measure/ the logs of the three steps and how long each took.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ $# -lt 2 ]; then
  sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
variant="$1"
minutes="$2"
run="${3:-$root/runs/$variant-${minutes}m}"
games="${GAMES:-40}"
sims="${SIMS:-64}"
"$root/koma" info >/dev/null
koma="$root/target/release/koma"
out="$run/measure"
mkdir -p "$out"
timed() {
  local name="$1"
  shift
  local t0=$SECONDS
  "$@"
  echo "$name $((SECONDS - t0)) s" >>"$out/times.txt"
}
config=()
if [ -n "${CONFIG:-}" ]; then
  config=(--config "$CONFIG")
fi
timed train "$koma" train --variant "$variant" "${config[@]}" --minutes "$minutes" \
  --run-dir "$run" 2>&1 | tee "$out/train.log"
"$koma" games --run-dir "$run" --stretches 4 | tee "$out/games.txt"
step="$("$koma" status --run-dir "$run" --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["model"]["step"])')"
# Rate step 0, one model about half-way (models are published every hundred steps), the newest.
every="${EVERY:-$(( (step + 199) / 200 * 100 ))}"
[ "$every" -ge 100 ] || every=100
timed ladder "$koma" ladder --run-dir "$run" --games "$games" --sims "$sims" \
  --every "$every" --previous "${PREVIOUS:-1}" 2>&1 | tee "$out/ladder.log"
echo
echo "== $variant, $minutes minutes: $run"
cat "$out/times.txt"
grep -h "ladder: " "$out/ladder.log" | sed 's/.*ladder: /  /'
cat "$run/ladder/ratings.csv"
