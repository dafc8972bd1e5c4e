#!/usr/bin/env bash
# `kibitzer report` over many recordings: one thread against both cores on 10,000 files, and
# peak RSS at 1,000 and at 10,000 files (it must stay flat). Uses hyperfine and GNU time.
#
#   scripts/report-bench.sh [KIBITZER] [RUNS]
#
# The inputs are made in $BENCH_DIR (default /tmp/kibitzer-report-bench) from the shipped
# recordings (tests/fixtures/real, recordings/), copied round-robin with a renumbered session
# (header label and pid): 1,000 and 10,000 files, about 1.1 GB for the larger set.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(realpath "${1:-$root/target/release/kibitzer}")" runs="${2:-5}"
dir="${BENCH_DIR:-/tmp/kibitzer-report-bench}"
mkdir -p "$dir"
for n in 1000 10000; do
  if [ ! -f "$dir/$n.done" ]; then
    rm -rf "${dir:?}/$n"
    python3 - "$root" "$dir/$n" "$n" <<'PY'
import json, os, sys
from pathlib import Path
root, out, n = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
src = sorted(p for d in ("tests/fixtures/real", "recordings") for p in (root / d).glob("*.jsonl"))
texts = [p.read_text().split("\n", 1) for p in src]
for i in range(n):
    header, rest = texts[i % len(texts)]
    h = json.loads(header)
    h["label"], h["pid"] = f"game {i}", 100000 + i
    d = out / f"{i // 1000:02d}"
    d.mkdir(parents=True, exist_ok=True)
    (d / f"{i:05d}-{src[i % len(src)].name}").write_text(json.dumps(h) + "\n" + rest)
PY
    touch "$dir/$n.done"
  fi
done
echo "inputs: $(du -sh "$dir/10000" | cut -f1) in 10,000 files"
hyperfine -N -i --style none --warmup 1 --runs "$runs" --export-json "$dir/jobs.json" \
  -n "1 thread" "$bin report --jobs 1 --format json -o $dir/out1.json $dir/10000" \
  -n "2 threads" "$bin report --jobs 2 --format json -o $dir/out2.json $dir/10000" >/dev/null
python3 - "$dir/jobs.json" <<'PY'
import json, statistics, sys
r = {x["command"]: statistics.median(x["times"]) for x in json.load(open(sys.argv[1]))["results"]}
one, two = r["1 thread"], r["2 threads"]
print(f"10,000 files: 1 thread {one:.2f} s, 2 threads {two:.2f} s (medians): {one / two:.2f}x")
PY
cmp -s "$dir/out1.json" "$dir/out2.json" && echo "the two reports are identical"
for n in 1000 10000; do
  /usr/bin/time -f "%M" -o "$dir/rss" "$bin" report --format json -o /dev/null "$dir/$n" || true
  echo "$n files: peak RSS $(( $(tail -1 "$dir/rss") / 1024 )) MB"
done
