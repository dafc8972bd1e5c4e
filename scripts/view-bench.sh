#!/usr/bin/env bash
# Measures `kibitzer view` on a big file in a real terminal (tmux, 160x40): the time until the
# first screen shows lines, the time until the whole file is read (the status bar stops
# saying "indexing"), and the viewer's memory at the end: peak (VmHWM), anonymous (its own
# memory) and file-backed (pages of the mapped recording, shared with the page cache).
#
# Usage: scripts/view-bench.sh BINARY FILE (then lnav -n -q on the same file, when installed)
# A 1 GB recording made of the shipped long game repeated: scripts/view-bench.sh --make FILE
# A 1 GB cutechess-cli -debug log as the check bench makes it (benches/common/cutechess_log.rs),
# or one cut after the game that reaches LINES lines:
#   scripts/view-bench.sh --make-log FILE [LINES]
set -euo pipefail
if [ "${1:-}" = "--make-log" ]; then
  python3 - "$2" "${3:-0}" <<'PY'
import sys
max_lines = int(sys.argv[2])
MOVES = ("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6 c1e3 e7e5 d4b3 c8e6 f2f3 f8e7 d1d2 "
         "e8g8 e1c1 b8d7 g2g4 b7b5 g4g5 b5b4 c3e2 f6e8 f3f4 a6a5").split()
ms = written = lines = 0
with open(sys.argv[1], 'w', buffering=1 << 20) as f:
    def emit(s):
        global written, lines
        line = f"{ms} {s}\n"
        f.write(line)
        written += len(line)
        lines += 1
    while written < 1_000_000_000 and (max_lines == 0 or lines < max_lines):
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
print(f"{sys.argv[1]}: {lines} lines, {written} bytes")
PY
  exit 0
fi
if [ "${1:-}" = "--make" ]; then
  python3 - "$2" <<'PY'
import json, sys
src = open('recordings/stockfish-uci-long-game.jsonl').read().splitlines()
header, evs = src[0], [json.loads(l) for l in src[1:]]
evs = [e for e in evs if e.get('src') != 'proxy']
span = evs[-1]['t'] + 1000
seq = rep = 0
size = len(header)
with open(sys.argv[1], 'w') as out:
    out.write(header + '\n')
    while size < 1_000_000_000:
        for e in evs:
            seq += 1
            e2 = dict(e, seq=seq, t=e['t'] + rep * span)
            if 'ts' in e2:
                e2['ts'] = e['ts'] + rep * span
            line = json.dumps(e2, separators=(',', ':')) + '\n'
            out.write(line)
            size += len(line)
        rep += 1
print(f"{sys.argv[1]}: {seq} events, {size} bytes")
PY
  exit 0
fi
bin=$1; file=$2; s=kibitzer-view-bench-$$
start=$(date +%s.%N)
tmux new-session -d -s "$s" -x 160 -y 40 "$bin view $file; sleep 600"
trap 'tmux kill-session -t "$s" 2>/dev/null || true' EXIT
until tmux capture-pane -p -t "$s" | grep -q "│.* [0-9]\+\.[0-9]\{6\} "; do sleep 0.01; done
first=$(date +%s.%N)
pid=$(pgrep -P "$(tmux list-panes -t "$s" -F '#{pane_pid}')" | head -1)
while tmux capture-pane -p -t "$s" | grep -q "indexing"; do sleep 0.05; done
end=$(date +%s.%N)
lines=$(tmux capture-pane -p -t "$s" | grep -o "[0-9]\+ lines" | head -1)
mem=$(grep -E "VmHWM|RssAnon|RssFile" /proc/"$pid"/status | tr -s ' \t\n' ' ')
tmux send-keys -t "$s" q
echo "$file: $lines; first screen $(echo "$first - $start" | bc) s; whole file read $(echo "$end - $start" | bc) s; $mem"
# lnav beside it, in the same run: its whole load (it shows nothing before) and its peak RSS.
if command -v lnav > /dev/null; then
  sleep 1
  /usr/bin/time -f "lnav -n -q $file: load %e s; peak RSS %M kB" lnav -n -q "$file" > /dev/null
else
  echo "lnav is not installed: no baseline (apt-get install lnav)"
fi
