#!/usr/bin/env bash
# Measures `kibitzer view` on a big file in a real terminal (tmux, 160x40): the time until the
# first screen shows lines, the time until the whole file is read (the status bar stops
# saying "indexing"), and the viewer's memory at the end: peak (VmHWM), anonymous (its own
# memory) and file-backed (pages of the mapped recording, shared with the page cache).
#
# Usage: scripts/view-bench.sh BINARY FILE
# A 1 GB recording made of the shipped long game repeated: scripts/view-bench.sh --make FILE
set -euo pipefail
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
