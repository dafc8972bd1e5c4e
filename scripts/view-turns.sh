#!/usr/bin/env bash
# Times `kibitzer view` indexing a big file with several binaries in turns (A, B, ..., lnav,
# A, B, ...), so that a shared machine's changing load lands on every side: the time from
# start until the status bar no longer says "indexing", in a 160x40 tmux pane, and
# `lnav -n -q`'s whole load. Prints each one's median.
#
# Usage: scripts/view-turns.sh ROUNDS FILE BINARY [BINARY ...]
set -euo pipefail
rounds=$1; file=$2; shift 2
declare -A times
index_time() {
  local bin=$1 s=kibitzer-view-turns-$$ start end
  start=$(date +%s.%N)
  tmux new-session -d -s "$s" -x 160 -y 40 "$bin view $file; sleep 600"
  until tmux capture-pane -p -t "$s" | grep -q "│.* [0-9]\+\.[0-9]\{6\} "; do sleep 0.01; done
  while tmux capture-pane -p -t "$s" | grep -q "indexing"; do sleep 0.05; done
  end=$(date +%s.%N)
  tmux kill-session -t "$s"
  echo "$end - $start" | bc
}
for _ in $(seq "$rounds"); do
  for b in "$@"; do times[$b]+=" $(index_time "$b")"; sleep 0.5; done
  if command -v lnav > /dev/null; then
    start=$(date +%s.%N); lnav -n -q "$file" > /dev/null; end=$(date +%s.%N)
    times[lnav]+=" $(echo "$end - $start" | bc)"
  fi
done
for k in "$@" lnav; do
  [ -n "${times[$k]:-}" ] || continue
  median=$(echo "${times[$k]}" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  printf '%s: median %.2f s (%s )\n' "$k" "$median" "${times[$k]}"
done
