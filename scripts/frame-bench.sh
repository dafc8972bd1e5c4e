#!/usr/bin/env bash
# The viewer's cost per frame (benches/frame.rs) of this tree against an earlier commit's, in
# one run: both bench programs are built first, then run in turns, ROUNDS times each.
#
#   scripts/frame-bench.sh BASE_COMMIT [ROUNDS]
#
# KIBITZER_FRAME_INPUT=FILE draws over FILE instead of the synthetic MultiPV recording (a 1 GB
# log: scripts/view-bench.sh --make-log FILE). The earlier commit gets this tree's
# benches/frame.rs (its viewer API is the same since the viewer's big-file work).
set -euo pipefail
base="${1:?base commit}" rounds="${2:-3}"
root="$(cd "$(dirname "$0")/.." && pwd)"
wt="$root/target/wt/frame-base"
cd "$root"
if [ ! -e "$wt/.git" ]; then
  git worktree add --detach "$wt" "$base" >/dev/null
else
  git -C "$wt" checkout -q --detach "$base"
fi
cp benches/frame.rs "$wt/benches/frame.rs"
grep -q '^name = "frame"' "$wt/Cargo.toml" ||
  printf '\n[[bench]]\nname = "frame"\nharness = false\n' >>"$wt/Cargo.toml"
exe() { # the bench program cargo builds in directory $1
  (cd "$1" && cargo bench --bench frame --no-run --message-format=json 2>/dev/null) |
    python3 -c 'import json,sys
for l in sys.stdin:
    m = json.loads(l)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "frame" and m.get("executable"):
        print(m["executable"])'
}
old="$(CARGO_TARGET_DIR="$root/target/wt/target" exe "$wt")"
new="$(exe "$root")"
git -C "$wt" checkout -q -- Cargo.toml
out="$(mktemp -d)"
for i in $(seq "$rounds"); do
  "$old" >"$out/old.$i" 2>/dev/null
  "$new" >"$out/new.$i" 2>/dev/null
done
python3 - "$out" "$rounds" <<'PY'
import re, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
def read(which):
    sizes = {}
    for i in range(1, rounds + 1):
        for line in open(f"{out}/{which}.{i}"):
            m = re.match(r"(\d+x\d+): median (\d+) µs", line)
            if m:
                sizes.setdefault(m[1], []).append(int(m[2]))
    return sizes
old, new = read("old"), read("new")
print("| size | earlier commit, µs | this tree, µs | ratio |")
print("|---|---|---|---|")
for size in new:
    o, n = statistics.median(old[size]), statistics.median(new[size])
    print(f"| {size} | {o:.0f} | {n:.0f} | {n / o:.2f} |")
print(f"(median over {rounds} rounds of each program's median frame)")
PY
