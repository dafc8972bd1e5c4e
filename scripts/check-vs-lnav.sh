#!/usr/bin/env bash
# `kibitzer check` on one 2-million-line cutechess-cli log beside lnav loading the same file
# (`lnav -n -q`: headless, load, print nothing), wall clock, in one hyperfine run (medians);
# then both kibitzer binaries on one core (`taskset -c 0`) when an older one is given.
# Needs Debian's hyperfine and lnav.
#
#   scripts/check-vs-lnav.sh NEW/kibitzer [OLD/kibitzer] [RUNS]
#
# The log (280 MB, two engines, `info` floods, made once in $BENCH_DIR, default
# /tmp/kibitzer-bench) is view-bench.sh's cutechess-cli log, cut after 2,000,000 lines.
set -euo pipefail
new="$(realpath "${1:?new binary}")"
old="${2:-}"
runs="${3:-11}"
dir="${BENCH_DIR:-/tmp/kibitzer-bench}"
mkdir -p "$dir"
log="$dir/cc2m.log"
if [ ! -s "$log" ]; then
  "$(dirname "$0")/view-bench.sh" --make-log "$log" 2000000
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
