#!/usr/bin/env bash
# `kibitzer check` on one 2-million-line cutechess-cli log beside lnav loading the same file
# (`lnav -n -q`: headless, load, print nothing), wall clock, in one hyperfine run (medians);
# then both kibitzer binaries on one core (`taskset -c 0`) when an older one is given.
# Needs Debian's hyperfine and lnav.
#
#   scripts/check-vs-lnav.sh NEW/kibitzer [OLD/kibitzer] [RUNS]
#
# The log (280 MB, two engines, `info` floods, made once in $BENCH_DIR, default
# /tmp/kibitzer-bench) is the shape of benches/common/cutechess_log.rs, cut at 2,000,000 lines.
set -euo pipefail
new="$(realpath "${1:?new binary}")"
old="${2:-}"
runs="${3:-11}"
dir="${BENCH_DIR:-/tmp/kibitzer-bench}"
mkdir -p "$dir"
log="$dir/cc2m.log"
if [ ! -s "$log" ]; then
  python3 - "$log" <<'PY'
import sys
MOVES = ("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6 f2f3 f8e7 d1d2 "
         "e8g8 e1c1 b8d7 g2g4 b7b5 g4g5 b5b4 c3e2 f6e8 f3f4 a6a5").split()
ms = lines = 0
f = open(sys.argv[1], 'w', buffering=1 << 20)
def emit(s):
    global lines
    f.write(f"{ms} {s}\n")
    lines += 1
while lines < 2_000_000:
    for i in (1, 2):
        for s in ("uci", "id name Engine%d" % i, "uciok", "isready", "readyok"):
            emit(f"{'>' if s in ('uci', 'isready') else '<'}Engine{i}({i}): {s}")
    for ply in range(len(MOVES)):
        i = ply % 2 + 1
        emit(f">Engine{i}({i}): position startpos moves {' '.join(MOVES[:ply])}")
        emit(f">Engine{i}({i}): go wtime 60000 btime 60000 winc 600 binc 600")
        for d in range(1, 21):
            ms += 3
            pv = " ".join(MOVES[ply:ply + 6])
            emit(f"<Engine{i}({i}): info depth {d} seldepth {d + 4} multipv 1 score cp {20 - d} "
                 f"nodes {d * 9000} nps 1500000 hashfull {d * 10} tbhits 0 time {d * 6} pv {pv}")
        emit(f"<Engine{i}({i}): bestmove {MOVES[ply]}")
print(f"{sys.argv[1]}: {lines} lines")
PY
fi
median() {
  python3 - "$1" <<'PY'
import json, statistics, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"  {r['command']:<44} median {statistics.median(r['times']):.3f} s "
          f"(user {r['user']:.3f} s, sys {r['system']:.3f} s, {len(r['times'])} runs)")
PY
}
cd "$dir"
echo "both cores: kibitzer check beside lnav -n -q"
hyperfine -N --warmup 2 --runs "$runs" --export-json check-vs-lnav.json \
  -n "kibitzer check" "$new check cc2m.log" -n "lnav -n -q" "lnav -n -q cc2m.log" >/dev/null 2>&1
median check-vs-lnav.json
if [ -n "$old" ]; then
  old="$(realpath "$old")"
  echo "one core (taskset -c 0): new beside old"
  hyperfine -N --warmup 1 --runs "$runs" --export-json check-one-core.json \
    -n "new, one core" "taskset -c 0 $new check cc2m.log" \
    -n "old, one core" "taskset -c 0 $old check cc2m.log" >/dev/null 2>&1
  median check-one-core.json
  echo "both cores: new beside old"
  hyperfine -N --warmup 1 --runs "$runs" --export-json check-two-cores.json \
    -n "new" "$new check cc2m.log" -n "old" "$old check cc2m.log" >/dev/null 2>&1
  median check-two-cores.json
fi
