#!/usr/bin/env bash
# A/B of two kibitzer binaries on the bench inputs of docs/performance.md, with hyperfine
# (Debian package `hyperfine`): check and decode on 300,801 lines of UCI recording and on
# 302,800 lines of an xboard debug log. Quote the ratios of the medians from one run.
#
#   scripts/ab-bench.sh OLD/kibitzer NEW/kibitzer [RUNS]
#
# The inputs are made in $BENCH_DIR (default /tmp/kibitzer-bench) from shipped files:
# recordings/stockfish-uci-long-game.jsonl repeated 200 times with renumbered seq/t, and
# tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log repeated 100 times.
set -euo pipefail
old="$(realpath "${1:?old binary}")" new="$(realpath "${2:?new binary}")" runs="${3:-15}"
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${BENCH_DIR:-/tmp/kibitzer-bench}"
mkdir -p "$dir"
if [ ! -s "$dir/big.jsonl" ] || [ ! -s "$dir/bigx.log" ]; then
  python3 - "$root" "$dir" <<'PY'
import json, sys
root, out = sys.argv[1], sys.argv[2]
lines = open(f"{root}/recordings/stockfish-uci-long-game.jsonl").read().splitlines()
header, evs = lines[0], [json.loads(l) for l in lines[1:]]
span = max(e["t"] for e in evs) + 1_000_000
res, seq = [header], 0
for r in range(200):
    for e in evs:
        seq += 1
        res.append(json.dumps(dict(e, seq=seq, t=e["t"] + r * span), separators=(",", ":")))
open(f"{out}/big.jsonl", "w").write("\n".join(res) + "\n")
x = open(f"{root}/tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log").read()
open(f"{out}/bigx.log", "w").write(x * 100)
PY
fi
cd "$dir"
for a in "check big.jsonl" "decode big.jsonl" "check bigx.log" "decode bigx.log"; do
  json="ab-${a// /-}.json"
  hyperfine -N --warmup 2 --runs "$runs" --export-json "$json" \
    -n old "$old $a" -n new "$new $a" >/dev/null 2>&1
  python3 - "$json" "$a" <<'PY'
import json, statistics, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
o, n = (statistics.median(r[k]["times"]) for k in ("old", "new"))
print(f"{sys.argv[2]:<18} old {o*1000:7.1f} ms  new {n*1000:7.1f} ms  new/old {n/o:.2f}x (medians of {len(r['new']['times'])})")
PY
done
