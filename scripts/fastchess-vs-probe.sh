#!/usr/bin/env bash
# Runs fastchess --compliance and kibitzer probe (--quick and full) against Stockfish wrapped to
# break one rule each (tests/engines/sf_wrap.py), and prints what each tool said, as a
# markdown table: which faults fastchess catches, which the probe names, and how.
#
# Usage: scripts/fastchess-vs-probe.sh FASTCHESS_SRC_DIR [FAULT...]
#   FASTCHESS_SRC_DIR  a checkout of github.com/Disservin/fastchess (built here with make)
#   FAULT              sf_wrap.py faults, with their argument after a colon ("slow-uci:4");
#                      default: every fault below
# Needs: make, g++ (C++17), cargo, python3, stockfish (PATH or /usr/games). Builds kibitzer in
# release mode. Takes a few minutes: some faults make each tool wait for its timeouts.
set -euo pipefail

src=${1:?usage: $0 FASTCHESS_SRC_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
for tool in make g++ cargo python3; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is needed" >&2; exit 2; }
done
stockfish=$(command -v stockfish || echo /usr/games/stockfish)
[ -x "$stockfish" ] || { echo "$0: stockfish not found" >&2; exit 2; }

# shellcheck source=scripts/fastchess-build.sh
source "$root/scripts/fastchess-build.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export KIBITZER_STOCKFISH=$stockfish

# fault [argument]: one line each.
faults=(
    "none"
    "no-uciok"
    "no-author"
    "slow-uci 4"
    "slow-first-isready 6"
    "one-sided-clock"
    "no-score"
    "crash-on-option Threads"
    "ignore-stop"
    "illegal-bestmove"
)

if [ $# -gt 1 ]; then
    faults=()
    for f in "${@:2}"; do faults+=("${f/:/ }"); done
fi

echo "| fault | fastchess --compliance | kibitzer probe --quick | kibitzer probe |"
echo "|---|---|---|---|"
for f in "${faults[@]}"; do
    name=${f// /_}
    # fastchess takes one executable: a script per fault.
    printf '#!/bin/sh\nexec python3 %s %s\n' "$root/tests/engines/sf_wrap.py" "$f" > "$tmp/$name.sh"
    chmod +x "$tmp/$name.sh"
    status=0
    timeout 120 "$fastchess" --compliance "$tmp/$name.sh" > "$tmp/$name.fc" 2>&1 || status=$?
    fc=$(python3 - "$tmp/$name.fc" "$status" <<'EOF'
import re, sys
text = re.sub(r"\x1b\[[0-9;]*m", "", open(sys.argv[1], errors="replace").read())
status = int(sys.argv[2])
failed = re.search(r"Failed (Step \d+: [^\n]*)", text)
if "passed all compliance checks" in text:
    print("passed")
elif failed:
    print(f"FAILED {failed.group(1).strip()}")
elif status == 124:
    print("no verdict in 120 s (killed)")
else:
    print(f"exit {status}, no step failed")
EOF
)
    cards=()
    for mode in --quick ""; do
        status=0
        # shellcheck disable=SC2086
        timeout 300 "$kibitzer" probe $mode --protocol uci --format json \
            --recording "$tmp/$name$mode.jsonl" -- "$tmp/$name.sh" \
            > "$tmp/$name$mode.json" 2> /dev/null || status=$?
        cards+=("$(python3 - "$tmp/$name$mode.json" "$status" <<'EOF'
import json, sys
try:
    card = json.load(open(sys.argv[1]))
except Exception:
    print(f"no card (exit {sys.argv[2]})")
    sys.exit()
seen = []
for step in card["steps"]:
    for f in step.get("findings", []):
        if f["severity"] in ("error", "warning"):
            item = f"{f['rule']} ({f['severity']}, {step['id']})"
            if item not in seen:
                seen.append(item)
    for o in step.get("observations", []):
        if o.startswith("note: no `info ... score`"):
            item = f"note: no info score ({step['id']})"
            if item not in seen:
                seen.append(item)
print(f"{card['verdict']}" + (": " + "; ".join(seen) if seen else ""))
EOF
)")
    done
    echo "| \`$f\` | $fc | ${cards[0]} | ${cards[1]} |"
done
