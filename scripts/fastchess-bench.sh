#!/usr/bin/env bash
# Times `fastchess --compliance ENGINE` against `kibitzer probe -- ENGINE` and
# `kibitzer probe --quick -- ENGINE` (the commands a user types: the protocol detected), and
# `--protocol uci` for reference, side by side in one hyperfine run (medians): the full probe
# within 3x fastchess's time, --quick within 1.5x.
#
# Usage: scripts/fastchess-bench.sh FASTCHESS_SRC_DIR [ENGINE] [RUNS]
#   FASTCHESS_SRC_DIR  a checkout of github.com/Disservin/fastchess (built here with make)
#   ENGINE             default: stockfish (found on PATH or in /usr/games)
#   RUNS               hyperfine runs per command, default 10
# Needs: make, g++ (C++17), hyperfine, cargo. Builds kibitzer in release mode. Writes the
# hyperfine results to target/fastchess-bench.{md,json} and prints the medians and ratios.
set -euo pipefail

src=${1:?usage: $0 FASTCHESS_SRC_DIR [ENGINE] [RUNS]}
engine=${2:-stockfish}
runs=${3:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${CARGO_TARGET_DIR:-$root/target}

for tool in make g++ hyperfine cargo python3; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is needed" >&2; exit 2; }
done
if ! command -v "$engine" >/dev/null; then
    if [ -x "/usr/games/$engine" ]; then engine=/usr/games/$engine; else
        echo "$0: engine $engine not found" >&2; exit 2
    fi
fi
engine=$(command -v "$engine")

# shellcheck source=scripts/fastchess-build.sh
source "$root/scripts/fastchess-build.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Each run keeps its recording in the temporary directory; the card goes to /dev/null. The
# exit status of each command must be 0 (a healthy engine): hyperfine fails otherwise.
hyperfine --warmup 1 --runs "$runs" \
    --export-json "$out/fastchess-bench.json" --export-markdown "$out/fastchess-bench.md" \
    -n "fastchess --compliance" "$fastchess --compliance $engine" \
    -n "kibitzer probe" "$kibitzer probe --recording $tmp/full.jsonl -o $tmp/full.txt -- $engine" \
    -n "kibitzer probe --quick" "$kibitzer probe --quick --recording $tmp/quick.jsonl -o $tmp/quick.txt -- $engine" \
    -n "kibitzer probe --protocol uci" "$kibitzer probe --protocol uci --recording $tmp/given.jsonl -o $tmp/given.txt -- $engine" \
    >&2

python3 - "$out/fastchess-bench.json" <<'EOF'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
med = {r["command"]: r["median"] for r in results}
base = med["fastchess --compliance"]
print(f"{'command':28} {'median':>9} {'ratio':>6}  target")
targets = {"kibitzer probe": 3.0, "kibitzer probe --quick": 1.5}
for name, m in med.items():
    ratio = m / base
    t = targets.get(name)
    verdict = "" if t is None else (f"<= {t}x " + ("met" if ratio <= t else "NOT met"))
    print(f"{name:28} {m:8.3f}s {ratio:5.2f}x  {verdict}")
EOF
