#!/usr/bin/env bash
# A real GUI: Debian's xboard under Xvfb runs an engine-against-engine match between two
# koma-engine processes, saves the PGN, and tests/xboard/check_match.py checks that every game
# is complete and every move legal by replaying it with `koma moves`. Installs xboard and xvfb
# with apt-get when missing (as root); where they cannot be had it says so and skips, or fails
# where CI is set (scripts/component.sh).
# Usage: scripts/xboard-match.sh [GAMES] [VARIANT] [RUN_DIR]
#   GAMES: default 2; VARIANT: hand-shogi (default), gyaku-sama-shogi or chu-shogi; RUN_DIR: a
#   run whose newest model plays (default: an untrained network of the variant).
# Output: target/xboard-match/VARIANT/ (games.pgn, xboard.log).
# - Hand Shogi: XBoard tests legality with its shogi rules. It holds nine kinds on a 9x9 board;
#   koma-engine does not drop the tenth (the Pard) under XBoard, nor play the Soldier moves
#   XBoard reads as a pawn's, so every move it sends is one XBoard accepts.
# - Gyaku-sama Shogi (13x13): XBoard draws the board (parent variant chu) with legality testing
#   off and relays the moves: multi-leg moves leg by leg, `+` on every capture (the capturer
#   promotes, or turns back). Its own draw rules are off; the engines claim every result.
# - Chu Shogi: XBoard knows the game (`-variant chu`) and tests every move with its own Chu
#   rules; koma-engine plays HaChu (Debian package hachu, installed when missing), so the moves
#   of an outside engine (Lion double moves in two lines, passes as @@@@) are relayed too.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
games="${1:-2}"
variant="${2:-hand-shogi}"
run_dir="${3:-}"
case "$variant" in
  hand-shogi) gui=(-variant handshogi) ;;
  gyaku-sama-shogi)
    gui=(-variant gyakusamashogi -testLegality false -ruleMoves 0 -repeatsToDraw 0 -testClaims false)
    ;;
  chu-shogi) gui=(-variant chu -ruleMoves 0 -repeatsToDraw 0) ;;
  *) echo "xboard match: XBoard cannot play $variant (hand-shogi, gyaku-sama-shogi or chu-shogi)" >&2; exit 1 ;;
esac
. scripts/env.sh
. scripts/component.sh
# The binaries of the Cargo profile KOMA_PROFILE names (default release; scripts/test.sh: ci).
koma="$(koma_bin koma)"
engine="$(koma_bin koma-engine)"
[ -x "$koma" ] && [ -x "$engine" ] || { echo "xboard match: $koma or $engine is missing; build them first" >&2; exit 1; }
export PATH="$PATH:/usr/games"
# KOMA_XBOARD names the xboard binary to use instead of the one on PATH.
if [ -z "${KOMA_XBOARD:-}" ] && { ! command -v xboard >/dev/null || ! command -v xvfb-run >/dev/null; }; then
  if can_install; then
    echo "xboard match: installing xboard and xvfb" >&2
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq xboard xvfb) \
      >/dev/null 2>&1 || component_missing "xboard match" "xboard and xvfb could not be installed with apt-get"
  else
    component_missing "xboard match" "xboard and xvfb are not installed (apt-get install xboard xvfb)"
  fi
fi
xboard="${KOMA_XBOARD:-$(command -v xboard)}"
[ -x "$xboard" ] || component_missing "xboard match" "no xboard at '$xboard'"
command -v xvfb-run >/dev/null || component_missing "xboard match" "xvfb-run is not installed (apt-get install xvfb)"
out="$root/target/xboard-match/$variant"
rm -rf "$out"
mkdir -p "$out"
if [ -n "$run_dir" ]; then
  source=(--run-dir "$(cd "$run_dir" && pwd)")
else
  "$koma" new-model --variant "$variant" --out "$out/model" >/dev/null || exit 1
  source=(--model "$out/model")
fi
cmd="$engine ${source[*]} --sims 16"
second="$cmd"
if [ "$variant" = chu-shogi ]; then
  if [ ! -x /usr/games/hachu ]; then
    if can_install; then
      (apt-get install -y -qq hachu || (apt-get update -qq && apt-get install -y -qq hachu)) >/dev/null 2>&1
    fi
    [ -x /usr/games/hachu ] || component_missing "xboard match" "HaChu (Debian package hachu) is not installed"
  fi
  # HaChu forbids repeating a position unless told otherwise; koma allows it (the fourth
  # occurrence draws).
  second="/usr/games/hachu"
  gui+=(-secondInitString "new\noption Allow repeats=1\n")
fi
# Each side has 5 seconds a game; the engines claim the result (mate, repetition, length).
# Move animation is off (-xanimate): XBoard animates a move after it has sent it on, and
# reads the other engine's answer only when the animation ends, so each animated move
# charged about 60 ms more to the engine's clock (a Gyaku-sama match: replies median 73 ms,
# max 78, in XBoard's log against median 13 ms, max 17, without it; turn skips, not
# animated, took about 12 ms with it on). At 5 seconds a game that is enough to flag an
# engine in a game of more than about 70 moves a side.
timeout 900 xvfb-run -a -s "-screen 0 1280x1024x24" "$xboard" \
  -fcp "$cmd" -scp "$second" "${gui[@]}" \
  -matchMode true -matchGames "$games" -saveGameFile "$out/games.pgn" \
  -timeControl 0:05 -timeIncrement 0 -xanimate -xponder -popupExitMessage false -autoCallFlag true \
  -debug -nameOfDebugFile "$out/xboard.log" >"$out/xboard.out" 2>&1
status=$?
[ $status = 0 ] || { echo "xboard match: xboard exited with $status" >&2; tail -5 "$out/xboard.out" >&2; exit 1; }
exec python3 tests/xboard/check_match.py "$koma" "$variant" "$out/xboard.log" "$out/games.pgn" "$games"
