#!/usr/bin/env bash
# Fairy-Stockfish as a UCI engine playing koma's variants from configs/fairy/: the current
# WebAssembly build from the npm registry (package fairy-stockfish-nnue.wasm), run by Node,
# installed into .fairy/ on first use. (Debian's fairy-stockfish 11.1 predates custom pieces.)
# Usage: scripts/fairy-stockfish.sh [VARIANTS.ini]   (default: configs/fairy/hand-shogi.ini)
#        scripts/fairy-stockfish.sh --install        (installs it and exits)
# KOMA_NODE names the node binary to use instead of the one on PATH.
# In the arena:
#   koma arena --a model:STEM --b "uci:scripts/fairy-stockfish.sh;go=depth 3;variant=handshogi"
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${KOMA_FAIRY_DIR:-$root/.fairy}"
if [ ! -f "$dir/node_modules/fairy-stockfish-nnue.wasm/stockfish.js" ]; then
  command -v npm >/dev/null || { echo "fairy-stockfish: Node.js and npm are needed" >&2; exit 1; }
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-audit --no-fund --silent fairy-stockfish-nnue.wasm@1.1.12 >&2
fi
node="${KOMA_NODE:-$(command -v node || true)}"
[ -n "$node" ] && [ -x "$node" ] || { echo "fairy-stockfish: no Node.js at '${node:-node}'" >&2; exit 1; }
[ "${1:-}" = --install ] && exit 0
export KOMA_FAIRY_DIR="$dir"
exec "$node" "$root/scripts/fairy-stockfish.js" "${1:-$root/configs/fairy/hand-shogi.ini}"
