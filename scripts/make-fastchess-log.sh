#!/usr/bin/env bash
# A real fastchess tournament log with games played side by side (-concurrency 2): Debian's
# Stockfish against Toga II, 0.5 s + 10 ms a game, openings from random legal plies
# (python-chess). Makes tests/fixtures/fastchess/concurrent.log.gz (the trace log with the
# engines' lines) and concurrent.pgn (fastchess's own record of the results, the test's truth).
#
#   scripts/make-fastchess-log.sh FASTCHESS_BINARY [GAMES]
#
# fastchess builds from its source with `make` (C++17, g++); it is not a test dependency.
set -euo pipefail
fastchess="$(realpath "${1:?fastchess binary}")"
games="${2:-20}"
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/tests/fixtures/fastchess"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
python3 "$root/scripts/openings.py" 600 "$work/open.epd"
cd "$work"
"$fastchess" -engine cmd=/usr/games/stockfish name=sf -engine cmd=/usr/games/toga2 name=toga \
  -each tc=0.5+0.01 option.Hash=8 -openings file=open.epd format=epd order=random \
  -rounds "$((games / 2))" -games 2 -concurrency 2 -srand 7 \
  -log file=concurrent.log level=trace engine=true append=false \
  -pgnout file=concurrent.pgn >fastchess.out 2>&1
tail -n 8 fastchess.out
gzip -9 -c concurrent.log >"$out/concurrent.log.gz"
cp concurrent.pgn "$out/concurrent.pgn"
ls -l "$out"
