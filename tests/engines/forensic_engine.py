#!/usr/bin/env python3
"""A UCI engine that falls silent on `go` in one of several ways, for the hang forensics
tests: each way is a class the proxy's process samples must name.

  python3 forensic_engine.py MODE
  spin     on `go`, a busy loop without output (SPINNING; STARVED when starved of CPU)
  deaf     on `go`, nothing: it reads on and waits for more input (WAITING)
  lock     on `go`, the main thread waits for a lock nobody releases (ASLEEP)
  normal   answers `go movetime N` with bestmove after N ms (STOPPED when the test stops it)
  grow     as normal, and keeps 30 MB more after each `ucinewgame` (a leak)
"""
import sys
import threading
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "normal"
leak = []


def send(s):
    sys.stdout.write(s + "\n")
    sys.stdout.flush()


def main():
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "uci":
            send("id name forensic-" + MODE)
            send("id author kibitzer tests")
            send("uciok")
        elif cmd == "isready":
            send("readyok")
        elif cmd == "ucinewgame" and MODE == "grow":
            leak.append(bytearray(30 * 1024 * 1024))
            for i in range(0, len(leak[-1]), 4096):
                leak[-1][i] = 1
        elif cmd == "go":
            if MODE == "spin":
                while True:
                    pass
            elif MODE == "deaf":
                continue
            elif MODE == "lock":
                never = threading.Lock()
                never.acquire()
                never.acquire()
            else:
                ms = 100
                if "movetime" in words:
                    ms = int(words[words.index("movetime") + 1])
                time.sleep(ms / 1000)
                send("info depth 1 score cp 10 pv e2e4")
                send("bestmove e2e4")
        elif cmd == "quit":
            return


main()
