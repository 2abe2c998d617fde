"""Checks an XBoard match between koma engines: every game complete, every move legal.

Reads XBoard's debug log (every line between XBoard and the engines) and its PGN file. For each
game (from XBoard's "New game" line to its "GameEnds" line) it collects the moves the engines
sent ("move X"), replays them with `koma moves` from Hand Shogi's start (drops by letter are
turned into koma's IDs), and requires that each is among the legal moves there; it requires a
result for every game in the PGN and no "Illegal move" or forfeit anywhere.

Usage: check_match.py KOMA DEBUG_LOG PGN GAMES
"""

import re
import subprocess
import sys

KOMA, LOG, PGN, GAMES = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
# XBoard's letters for Hand Shogi back to koma's IDs (engine/src/protocol/letters.rs).
LETTERS = {"P": "SO", "B": "T", "R": "SH", "D": "PD"}


def koma_text(move):
    if "@" in move:
        letter, square = move.split("@", 1)
        return f"{LETTERS.get(letter, letter)}@{square}"
    return move


def legal(moves):
    out = subprocess.run(
        [KOMA, "moves", "--variant", "hand-shogi", "--moves", " ".join(moves)],
        capture_output=True, text=True,
    )
    if out.returncode != 0:
        raise AssertionError(out.stderr.strip())
    return set(out.stdout.split())


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
        text = koma_text(mv)
        if text not in legal(played):
            raise SystemExit(f"game {i + 1}, ply {len(played) + 1}: {mv} is not legal")
        played.append(text)
    print(f"game {i + 1}: {len(played)} plies, all legal; {ended[i]}; PGN {results[i]}")
print(f"xboard: {GAMES} passed, 0 failed")
