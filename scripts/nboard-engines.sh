#!/usr/bin/env bash
# Build the two real NBoard engines from their sources and record them through
# `kibitzer record` under scripts/nboard-driver.py, which drives them as the NBoard GUI does.
# The recordings (and the driver's own GGF of each game) are the fixtures in
# tests/fixtures/nboard-real/; the tests never build or run these engines.
#
#   scripts/nboard-engines.sh NTEST_SRC EDAX_SRC [OUT]
#
# NTEST_SRC: a checkout of github.com/weltyc/ntest (cmake and g++; its coefficients ship in
#   the repository). Built in NTEST_SRC/build; `ntest x` is its NBoard mode and must run
#   from that directory, where cmake links its coefficients.
# EDAX_SRC: a checkout of github.com/abulmo/edax-reversi (Edax 4.6; make and gcc). Its
#   weights, data/eval.dat, are not in the repository: the script writes a synthetic one of
#   the layout eval.c reads (the EDAX and EVAL magic words, version, release and build, a
#   date as a double, then 61 plies of 114,364 packed int16 weights). Edax then plays,
#   badly, but speaks the protocol for real. An existing data/eval.dat is left alone.
# OUT: where the recordings go (default tests/fixtures/nboard-real).
#
# The kibitzer binary is $KIBITZER (default target/debug/kibitzer).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
ntest_src=$(cd "${1:?NTEST_SRC}" && pwd)
edax_src=$(cd "${2:?EDAX_SRC}" && pwd)
out=${3:-$root/tests/fixtures/nboard-real}
kibitzer=${KIBITZER:-$root/target/debug/kibitzer}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# NTest: cmake links src/resource/* (the coefficients) into the build directory.
mkdir -p "$ntest_src/build"
(cd "$ntest_src/build" && nice -n 10 cmake -DCMAKE_BUILD_TYPE=Release ../src >/dev/null \
    && nice -n 10 make ntest >/dev/null)
# Books that earlier runs learnt would change what NTest plays.
rm -f "$ntest_src"/src/resource/coefficients/*.book

# Edax: the makefile puts lEdax-x86-64-v2 in bin/.
mkdir -p "$edax_src/bin" "$edax_src/data"
(cd "$edax_src/src" && nice -n 10 make build ARCH=x86-64-v2 COMP=gcc OS=linux CC=gcc >/dev/null)
if [ ! -e "$edax_src/data/eval.dat" ]; then
    python3 - "$edax_src/data/eval.dat" <<'PY'
import array, struct, sys
N_WEIGHTS, PLIES = 114364, 61
with open(sys.argv[1], "wb") as f:
    f.write(struct.pack("<IIIIId", 0x45444158, 0x4556414C, 4, 6, 0, 0.0))
    for ply in range(PLIES):
        # Small weights that differ from square to square, so that moves differ in value.
        f.write(array.array("h", ((i * 7919 + ply * 104729) % 61 - 30
                                  for i in range(N_WEIGHTS))).tobytes())
PY
fi
# The probe of each engine as a user runs it (`ntest x`; Edax at its default level), kept as
# ENGINE-probe.jsonl: `kibitzer replay --as-engine` stands in for the engine in the tests,
# since the probe's requests are not the driver's. Each starts from an empty book; Edax with
# none spends about 20 s building one at its default level before it answers, so a level-2
# start that quits at once makes it first (Edax saves its book when it quits).
rm -f "$ntest_src"/src/resource/coefficients/*.book "$edax_src"/data/book.dat*
(cd "$ntest_src/build" && nice -n 10 "$kibitzer" probe --recording "$out/ntest-probe.jsonl" \
    -- ./ntest x >/dev/null) || true
(cd "$edax_src" && echo quit | ./bin/lEdax-x86-64-v2 -nboard -l 2 -n 1 >/dev/null 2>&1 \
    && nice -n 10 "$kibitzer" probe --recording "$out/edax-probe.jsonl" \
        -- ./bin/lEdax-x86-64-v2 -nboard >/dev/null) || true
rm -f "$ntest_src"/src/resource/coefficients/*.book "$edax_src"/data/book.dat*

python3 "$root/scripts/nboard-driver.py" --kibitzer "$kibitzer" --out "$out" --name ntest \
    --cwd "$ntest_src/build" -- ./ntest x
# Level 2: Edax learns a game by searching each position at its book's level, 21 by default,
# minutes a game with these weights.
python3 "$root/scripts/nboard-driver.py" --kibitzer "$kibitzer" --out "$out" --name edax \
    --cwd "$edax_src" -- ./bin/lEdax-x86-64-v2 -nboard -l 2 -n 1
