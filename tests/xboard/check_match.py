"""Checks an XBoard match between koma engines: every game complete, every move legal.

Reads XBoard's debug log (every line between XBoard and the engines) and its PGN file. For each
game (from XBoard's "New game" line to its "GameEnds" line) it collects the moves the engines
sent ("move X"), replays them with `koma moves` from the variant's start (drops by letter are
turned into koma's IDs), which fails naming the first move that is not legal; it requires a
result for every game in the PGN and no "Illegal move" or forfeit anywhere (an engine that
could not read a move XBoard relayed answers "Illegal move").

Usage: check_match.py KOMA VARIANT DEBUG_LOG PGN GAMES
"""

import re
import subprocess
import sys

KOMA, VARIANT, LOG, PGN = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
GAMES = int(sys.argv[5])
# XBoard's letters back to koma's IDs where they differ, for drops
# (engine/src/protocol/letters.rs); only Hand Shogi has drops among the variants played here.
LETTERS = {"P": "SO", "B": "T", "R": "SH", "D": "PD"} if VARIANT == "hand-shogi" else {}


def koma_text(move):
    if "@" in move:
        letter, square = move.split("@", 1)
        return f"{LETTERS.get(letter, letter)}@{square}"
    return move


def replay(moves):
    """None when every move is legal in turn, else koma's error naming the first that is not."""
    out = subprocess.run(
        [KOMA, "moves", "--variant", VARIANT, "--moves", " ".join(moves)],
        capture_output=True, text=True,
    )
    return None if out.returncode == 0 else out.stderr.strip()


games, current, ended = [], None, []
for line in open(LOG, errors="replace"):
    if line.startswith("New game"):
        current = []
        games.append(current)
    elif line.startswith("GameEnds(") and current is not None and "(null)" not in line:
        ended.append(line.strip())
        current = None
    elif current is not None:
        m = re.match(r"\d+ <(first |second): move (\S+)\s*$", line)
        if m:
            # An engine may send a move of several legs as several lines, each but the last
            # ending in ',' (HaChu's Lion moves).
            if current and current[-1].endswith(","):
                current[-1] += m.group(2)
            else:
                current.append(m.group(2))
    if "Illegal move" in line or "Forfeit" in line:
        raise SystemExit(f"xboard match: {line.strip()}")

assert len(games) == GAMES, f"{len(games)} games in the log, expected {GAMES}"
assert len(ended) == GAMES, f"only {len(ended)} of {GAMES} games ended: {ended}"
results = re.findall(r'\[Result "([^"]+)"\]', open(PGN).read())
assert len(results) == GAMES and "*" not in results, f"PGN results: {results}"
for i, moves in enumerate(games):
    played = []
    for mv in moves:
        if mv == "@@@@":
            # XBoard's null move: the engine's turn skip, koma's `e5e5` for some square.
            listed = subprocess.run(
                [KOMA, "moves", "--variant", VARIANT, "--moves", " ".join(played)],
                capture_output=True, text=True,
            ).stdout.split()
            skips = [m for m in listed if re.fullmatch(r"([a-z]\d+)\1", m)]
            if not skips:
                raise SystemExit(f"game {i + 1}, ply {len(played) + 1}: @@@@ but no skip is legal")
            mv = skips[0]
        elif VARIANT == "chu-shogi" and not mv.endswith(("+", "=")):
            # HaChu writes only `+`: a move without suffix where a promotion was open declines
            # it, koma's `=`.
            listed = subprocess.run(
                [KOMA, "moves", "--variant", VARIANT, "--moves", " ".join(played)],
                capture_output=True, text=True,
            ).stdout.split()
            if mv not in listed and mv + "=" in listed:
                mv += "="
        played.append(koma_text(mv))
    error = replay(played)
    if error:
        raise SystemExit(f"game {i + 1}: {error}")
    print(f"game {i + 1}: {len(played)} plies, all legal; {ended[i]}; PGN {results[i]}")
print(f"xboard: {GAMES} passed, 0 failed")
