#!/usr/bin/env bash
# Records the profile that release builds are optimized with (pgo/kibitzer.profdata; see
# scripts/pgo-rustc and docs/performance.md): builds an instrumented kibitzer, runs it over
# real traffic, merges what it counted. Run it after changing hot code, then rebuild
# (`touch src/lib.rs src/main.rs && cargo build --release`: cargo does not see the profile
# change on its own).
#
# The traffic is this repository's real material only: every recording and log under
# recordings/ and tests/fixtures/ (small: read in place), and big inputs made of it, so that
# the two-thread reading of big files is trained too: a UCI recording (python-chess playing
# Stockfish with ponder), a CECP one (xboard, PolyGlot, Stockfish, Fairy-Max), a variant one
# (Fairy-Stockfish, crazyhouse) each repeated; the two sides of the UCI game written as one
# cutechess-cli -debug log; the xboard.debug fixture and the fastchess tournament log repeated.
# None of it is the synthetic traffic that scripts/view-bench.sh makes for the benchmarks.
#
# Needs: python3, and llvm-profdata of the toolchain's LLVM (`rustup component add
# llvm-tools`, which this script runs when it is missing).
# Usage: scripts/pgo-train.sh [WORK_DIR]   (WORK_DIR: for the inputs and raw counts, ~250 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${1:-$(mktemp -d)}
mkdir -p "$work"
sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$sysroot/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
  rustup component add llvm-tools
fi

echo "building an instrumented kibitzer (target/pgo-train)" >&2
RUSTFLAGS="-Cprofile-generate=$work/raw" CARGO_TARGET_DIR=target/pgo-train \
  cargo build --locked --release
k=target/pgo-train/release/kibitzer
# The build's own build scripts and proc macros are instrumented too and count into the same
# place as they run: only kibitzer's runs below make the profile.
rm -rf "$work/raw"

echo "making the big inputs in $work" >&2
python3 - "$work" <<'PY'
import gzip, json, sys
work = sys.argv[1]
real = "tests/fixtures/real/"

def events(path):
    lines = open(path).read().splitlines()
    return lines[0], [json.loads(l) for l in lines[1:]]

def repeat_recording(src, out, size):
    """The recording's events again and again, numbered and timed on (proxy events, which
    say the engine started and ended, only once)."""
    header, evs = events(src)
    evs = [e for e in evs if e.get("src") != "proxy"]
    span = evs[-1]["t"] + 1_000_000
    seq = rep = 0
    written = len(header)
    with open(out, "w") as f:
        f.write(header + "\n")
        while written < size:
            for e in evs:
                seq += 1
                e2 = dict(e, seq=seq, t=e["t"] + rep * span)
                e2.pop("ts", None)
                line = json.dumps(e2, separators=(",", ":")) + "\n"
                f.write(line)
                written += len(line)
            rep += 1

def cutechess_log(white, black, out, size):
    """Both sides of one real game as cutechess-cli -debug writes them, `ms >Name(id): line`."""
    side = []
    for name, n, path in (("Stockfish-white", 1, white), ("Stockfish-black", 2, black)):
        _, evs = events(path)
        for e in evs:
            if e.get("src") in ("gui", "engine"):
                arrow = ">" if e["src"] == "gui" else "<"
                side.append((e["t"] // 1_000_000, f"{arrow}{name}({n}): {e['text']}"))
    side.sort(key=lambda x: x[0])
    span = side[-1][0] + 1000
    written = rep = 0
    with open(out, "w") as f:
        while written < size:
            for ms, text in side:
                line = f"{ms + rep * span} {text}\n"
                f.write(line)
                written += len(line)
            rep += 1

def repeat_log(src, out, size, timed):
    """A log again and again; `timed`: its lines start with milliseconds, moved on."""
    opener = gzip.open if src.endswith(".gz") else open
    lines = opener(src, "rt").read().splitlines()
    span = 0
    if timed:
        span = max(int(l.split(" ", 1)[0]) for l in lines if l.split(" ", 1)[0].isdigit()) + 1000
    written = rep = 0
    with open(out, "w") as f:
        while written < size:
            for l in lines:
                head, _, rest = l.partition(" ")
                if timed and head.isdigit():
                    l = f"{int(head) + rep * span} {rest}"
                f.write(l + "\n")
                written += len(l) + 1
            rep += 1

MB = 1 << 20
repeat_recording(real + "python-chess-stockfish-ponder-clock.white.jsonl", f"{work}/uci.jsonl", 48 * MB)
repeat_recording(real + "xboard-polyglot-stockfish-vs-fairymax-ponder.first.cecp.jsonl", f"{work}/cecp.jsonl", 16 * MB)
repeat_recording(real + "python-chess-fairy-stockfish-crazyhouse.jsonl", f"{work}/variant.jsonl", 8 * MB)
cutechess_log(real + "python-chess-stockfish-ponder-clock.white.jsonl",
              real + "python-chess-stockfish-ponder-clock.black.jsonl", f"{work}/cutechess.log", 64 * MB)
repeat_log("tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log", f"{work}/xboard.debug", 16 * MB, True)
repeat_log("tests/fixtures/fastchess/concurrent.log.gz", f"{work}/fastchess.log", 24 * MB, False)
PY

# The viewer indexing FILE to the end on a terminal of its own, then quitting: the same run
# scripts/view-race.py times.
view_index() {
  python3 - "$k" "$1" <<'PY'
import importlib.util, sys
spec = importlib.util.spec_from_file_location("view_race", "scripts/view-race.py")
race = importlib.util.module_from_spec(spec)
spec.loader.exec_module(race)
race.index_time(*sys.argv[1:3])
PY
}

# A kibitzer command on the traffic. Findings (exit status 1) and inputs it refuses (2) are
# part of the traffic; any other status (a crash) stops the training rather than leave the
# profile without the rest of the run.
run() {
  local status=0
  "$k" "$@" > /dev/null 2>&1 || status=$?
  if [ "$status" -gt 2 ]; then
    echo "error: kibitzer $* exited with status $status" >&2
    exit 1
  fi
}

echo "running it over real traffic" >&2
for f in "$work"/uci.jsonl "$work"/cecp.jsonl "$work"/variant.jsonl "$work"/cutechess.log \
         "$work"/xboard.debug "$work"/fastchess.log; do
  run check --summary-only "$f"
  view_index "$f"
done
run decode "$work/variant.jsonl"
while IFS= read -r -d '' f; do
  run check "$f"
  run decode "$f"
  run dump "$f"
done < <(find recordings tests/fixtures/real tests/fixtures/corpus tests/fixtures/logs \
           tests/fixtures/fastchess -type f \( -name '*.jsonl' -o -name '*.log' -o -name '*.gz' \
           -o -name '*.debug' -o -name '*.txt' \) -print0)
run report tests/fixtures/real tests/fixtures/tournament

"$profdata" merge --sparse -o pgo/kibitzer.profdata "$work/raw"
rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p' > pgo/llvm-major
echo "wrote pgo/kibitzer.profdata ($(du -h pgo/kibitzer.profdata | cut -f1)) for LLVM $(cat pgo/llvm-major)" >&2
