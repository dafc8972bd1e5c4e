#!/usr/bin/env python3
"""Times commands in turns (A, B, C, A, B, C, ...) and prints each one's median wall time and
its ratio to the first command's.

hyperfine runs every run of one command before the next command: on a shared machine whose
neighbours' load changes over a minute, that change lands on one side of the comparison.
Taking turns spreads it over all of them.

    scripts/alternate.py [--dir DIR] ROUNDS NAME=COMMAND [NAME=COMMAND ...]

    scripts/alternate.py --dir /tmp/kibitzer-bench 15 \\
        "lnav=lnav -n -q cc2m.log" "check=target/release/kibitzer check cc2m.log"

Each COMMAND is split on spaces (no shell); its output is discarded; DIR is where it runs.
"""

import os
import statistics
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    cwd = None
    if argv[:1] == ["--dir"]:
        cwd, argv = argv[1], argv[2:]
    if len(argv) < 2 or not argv[0].isdigit() or not all("=" in a for a in argv[1:]):
        print(__doc__, file=sys.stderr)
        return 2
    rounds = int(argv[0])
    commands = [(name, [os.path.expanduser(w) for w in cmd.split()])
                for name, cmd in (a.split("=", 1) for a in argv[1:])]
    times: dict[str, list[float]] = {name: [] for name, _ in commands}
    for _ in range(rounds):
        for name, cmd in commands:
            start = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd,
                           check=False)
            times[name].append(time.perf_counter() - start)
    base = statistics.median(times[commands[0][0]])
    print(f"| command | median | fastest | ratio to {commands[0][0]} |")
    print("|---|---|---|---|")
    for name, _ in commands:
        median = statistics.median(times[name])
        print(f"| {name} | {median:.3f} s | {min(times[name]):.3f} s | {median / base:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
