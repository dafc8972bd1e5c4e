#!/usr/bin/env python3
"""Real Stockfish behind a Python wrapper that breaks one rule on request, for the probe's
tests: every fault a tournament manager (fastchess --compliance) or the probe should catch,
on an engine that otherwise plays real chess. Standard library only.

Usage: sf_wrap.py FAULT [ARG]   (the engine is $KIBITZER_STOCKFISH, else `stockfish`)

Faults:
  none                  a faithful pipe (the control)
  slow-uci SECS         hold back the answer to `uci` SECS seconds
  slow-first-isready SECS   hold back the first `readyok` SECS seconds
  no-author             drop `id author`
  no-uciok              drop `uciok`
  one-sided-clock       crash (a Python traceback on stderr, exit 1) on a `go` that gives
                        `wtime` without `btime` or the reverse
  no-score              strip `score ...` from every `info` line
  crash-on-option NAME  die by SIGSEGV on `setoption name NAME ...`
  ignore-stop           forward no `stop`: a `go infinite` never ends
  illegal-bestmove      answer every search with `bestmove a1a1`
"""

import os
import shutil
import signal
import subprocess
import sys
import threading
import time

FAULT = sys.argv[1] if len(sys.argv) > 1 else "none"
ARG = sys.argv[2] if len(sys.argv) > 2 else ""

engine = os.environ.get("KIBITZER_STOCKFISH") or shutil.which("stockfish") or "/usr/games/stockfish"
sf = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
out_lock = threading.Lock()
state = {"readyok": 0, "uci_at": None}


def emit(line: str) -> None:
    with out_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def to_engine(line: str) -> None:
    try:
        sf.stdin.write((line + "\n").encode())
        sf.stdin.flush()
    except BrokenPipeError:
        pass


def from_engine() -> None:
    for raw in sf.stdout:
        line = raw.decode("utf-8", "replace").rstrip("\r\n")
        words = line.split()
        if FAULT == "slow-uci" and state["uci_at"] is not None:
            left = state["uci_at"] + float(ARG or 4) - time.monotonic()
            if left > 0:
                time.sleep(left)
        if FAULT == "no-author" and line.startswith("id author"):
            continue
        if FAULT == "no-uciok" and line == "uciok":
            continue
        if line == "readyok":
            state["readyok"] += 1
            if FAULT == "slow-first-isready" and state["readyok"] == 1:
                time.sleep(float(ARG or 6))
        if FAULT == "no-score" and words[:1] == ["info"] and "score" in words:
            i = words.index("score")
            # `score cp N` / `score mate N`, and a bound after it
            j = i + 3
            if j < len(words) and words[j] in ("lowerbound", "upperbound"):
                j += 1
            line = " ".join(words[:i] + words[j:])
        if FAULT == "illegal-bestmove" and words[:1] == ["bestmove"]:
            line = "bestmove a1a1"
        emit(line)
    os._exit(sf.wait() or 0)


threading.Thread(target=from_engine, daemon=True).start()

for raw in sys.stdin:
    line = raw.rstrip("\r\n")
    words = line.split()
    if words[:1] == ["uci"]:
        state["uci_at"] = time.monotonic()
    if FAULT == "one-sided-clock" and words[:1] == ["go"]:
        if ("wtime" in words) != ("btime" in words):
            raise RuntimeError("sf_wrap: a clock for one side only: " + line)
    if FAULT == "crash-on-option" and words[:2] == ["setoption", "name"]:
        if " ".join(words[2:]).lower().startswith(ARG.lower() + " ") or " ".join(words[2:]).lower() == ARG.lower():
            sys.stderr.write("sf_wrap: cannot set option " + ARG + "\n")
            sys.stderr.flush()
            sf.kill()
            signal.signal(signal.SIGSEGV, signal.SIG_DFL)
            import resource

            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            os.kill(os.getpid(), signal.SIGSEGV)
    if FAULT == "ignore-stop" and words[:1] == ["stop"]:
        continue
    to_engine(line)
    if words[:1] == ["quit"]:
        break

try:
    sf.stdin.close()
except BrokenPipeError:
    pass
code = sf.wait()
time.sleep(0.05)
os._exit(code or 0)
