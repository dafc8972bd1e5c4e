#!/usr/bin/env python3
"""A scripted UCI engine that misbehaves on request, for the proxy's and checker's fault tests.

Without flags it is a well-behaved, chess-ignorant UCI engine: `uci` -> id/option/`uciok`,
`isready` -> `readyok`, `go depth N` -> N `info` lines then `bestmove` (the `--bestmove` move,
default e2e4, so send it a position where that move is legal), `go infinite` / `go ponder` ->
an `info` line every 50 ms until `stop` / `ponderhit`, then `bestmove`. `quit` exits 0.
Standard library only.

Faults (combine freely):
  --no-uciok             answer `uci` with id and options but never `uciok`
  --no-readyok           never answer `isready`
  --bestmove MOVE        the move to answer with (default e2e4)
  --illegal-bestmove     answer `bestmove e2e5` (illegal from the start position)
  --crlf                 end every output line with CR LF instead of LF
  --crash-mid-search     after two `info` lines of a search, die without a bestmove
  --crash-signal NAME    ... by this signal (default SEGV; core dumps are switched off)
  --crash-exit-code N    ... by exiting with code N instead of a signal
  --late-bestmove SECS   after `stop`, keep searching SECS seconds before `bestmove`
  --ignore-stop          never answer `stop` (the search only ends at quit)
  --stderr-noise         write a startup banner and a warning per search to stderr
  --invalid-utf8         send one `info string` line holding a Latin-1 byte per search
  --unterminated-exit    on `quit`, write `info string bye` with no line end, then exit
"""

from __future__ import annotations

import argparse
import os
import queue
import resource
import signal
import sys
import threading
import time


def parse_args() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
                                 usage="%(prog)s [FAULTS]")
    ap.add_argument("--no-uciok", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--no-readyok", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--bestmove", default="e2e4", help=argparse.SUPPRESS)
    ap.add_argument("--illegal-bestmove", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--crlf", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--crash-mid-search", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--crash-signal", default="SEGV", help=argparse.SUPPRESS)
    ap.add_argument("--crash-exit-code", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--late-bestmove", type=float, default=0.0, help=argparse.SUPPRESS)
    ap.add_argument("--ignore-stop", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--stderr-noise", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--invalid-utf8", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--unterminated-exit", action="store_true", help=argparse.SUPPRESS)
    return ap.parse_args()


class Engine:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.eol = b"\r\n" if args.crlf else b"\n"
        self.out = sys.stdout.buffer
        self.inbox: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self.read_stdin, daemon=True).start()

    def read_stdin(self) -> None:
        for raw in sys.stdin.buffer:
            self.inbox.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
        self.inbox.put(None)

    def send(self, line: str | bytes, eol: bool = True) -> None:
        data = line if isinstance(line, bytes) else line.encode()
        self.out.write(data + (self.eol if eol else b""))
        self.out.flush()

    def noise(self, text: str) -> None:
        if self.args.stderr_noise:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()

    def crash(self) -> None:
        if self.args.crash_exit_code is not None:
            os._exit(self.args.crash_exit_code)
        # A signal's default action may dump core; a test must not leave core files behind.
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        name = self.args.crash_signal.upper()
        sig = getattr(signal, name if name.startswith("SIG") else "SIG" + name)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
        time.sleep(5)
        os._exit(70)

    def bestmove(self) -> str:
        return "e2e5" if self.args.illegal_bestmove else self.args.bestmove

    def info(self, depth: int) -> None:
        self.send(f"info depth {depth} seldepth {depth} score cp {10 + depth} nodes {depth * 1000} "
                  f"nps 100000 time {depth * 10} pv {self.bestmove()}")

    def search(self, words: list[str]) -> bool:
        """Runs one search; False when the GUI quit (or closed stdin) meanwhile."""
        infinite = "infinite" in words or "ponder" in words
        depth = 5
        if "depth" in words:
            i = words.index("depth")
            if i + 1 < len(words) and words[i + 1].isdigit():
                depth = int(words[i + 1])
        self.noise("warning: scripted search started")
        if self.args.invalid_utf8:
            self.send(b"info string caf\xe9 latin-1")
        d = 0
        while True:
            d += 1
            self.info(d)
            if self.args.crash_mid_search and d == 2:
                self.crash()
            if not infinite and d >= depth:
                break
            try:
                cmd = self.inbox.get(timeout=0.05 if infinite else 0.005)
            except queue.Empty:
                continue
            if cmd is None or cmd.split()[:1] == ["quit"]:
                return False
            if cmd.split()[:1] == ["isready"] and not self.args.no_readyok:
                self.send("readyok")
            elif cmd.split()[:1] == ["ponderhit"]:
                infinite = False
            elif cmd.split()[:1] == ["stop"] and not self.args.ignore_stop:
                deadline = time.monotonic() + self.args.late_bestmove
                while time.monotonic() < deadline:
                    d += 1
                    self.info(d)
                    time.sleep(min(0.05, max(0.0, deadline - time.monotonic())))
                break
        self.send(f"bestmove {self.bestmove()}")
        return True

    def run(self) -> int:
        self.noise("uci_faulty: scripted engine starting")
        while True:
            cmd = self.inbox.get()
            if cmd is None:
                return 0
            words = cmd.split()
            head = words[0] if words else ""
            if head == "uci":
                self.send("id name UciFaulty")
                self.send("id author kibitzer tests")
                self.send("option name Hash type spin default 16 min 1 max 1024")
                if not self.args.no_uciok:
                    self.send("uciok")
            elif head == "isready":
                if not self.args.no_readyok:
                    self.send("readyok")
            elif head == "go":
                if not self.search(words):
                    return self.quit()
            elif head == "quit":
                return self.quit()

    def quit(self) -> int:
        if self.args.unterminated_exit:
            self.send("info string bye", eol=False)
        return 0


if __name__ == "__main__":
    code = Engine(parse_args()).run()
    sys.stdout.flush()
    sys.stderr.flush()
    # The stdin reader thread may still be blocked in a read; a normal interpreter shutdown
    # would then abort with "could not acquire lock for <stdin>".
    os._exit(code)
