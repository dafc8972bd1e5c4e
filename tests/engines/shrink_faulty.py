#!/usr/bin/env python3
"""A UCI engine with one planted fault that only a precise sequence of commands sets off, for
`kibitzer shrink`'s tests: the fault hides in a long session and the shortest session that
still sets it off is known.

It keeps a real board (python-chess) from every `position` command, `startpos` or `fen`, so a
session whose move list was replaced by the FEN before it reaches the same position. Every
search answers at once with the first legal move (in UCI order); `go ponder` / `go infinite`
answer at `stop` / `ponderhit`.

Faults (positions compared by FEN without the move counters):
  --crash-option NAME=VALUE --crash-fen FEN
        dies by SIGSEGV on a `go` in FEN once option NAME was set to VALUE
  --illegal-fen FEN
        answers an illegal move to a `go` in FEN, once a `ucinewgame` came
  --hang-move MOVE --hang-fen FEN
        never answers (nor reads anything more) when `stop` ends a `go ponder` in FEN reached
        by MOVE (the last move of the `position` command)
  --flaky-counter PATH --flaky-every N
        the fault goes off only on every Nth time its conditions are met, counted across
        processes in PATH (locked): a fault that reproduces 1 time in N, exactly
"""

from __future__ import annotations

import argparse
import fcntl
import os
import resource
import signal
import sys
import time

import chess


def key(fen: str) -> str:
    return " ".join(fen.split()[:4])


class Engine:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.board = chess.Board()
        self.last_move: str | None = None
        self.options: dict[str, str] = {}
        self.newgame = False
        self.pondering = False

    def send(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def here(self, fen: str | None) -> bool:
        return fen is not None and key(self.board.fen()) == key(fen)

    def flaky_fires(self) -> bool:
        path = self.args.flaky_counter
        if not path:
            return True
        with open(path, "a+") as f:
            fcntl.flock(f, fcntl.LOCK_EX)
            f.seek(0)
            n = int(f.read().strip() or "0") + 1
            f.seek(0)
            f.truncate()
            f.write(str(n))
        return n % self.args.flaky_every == 0

    def position(self, words: list[str]) -> None:
        self.last_move = None
        try:
            if words[1:2] == ["startpos"]:
                board, rest = chess.Board(), words[2:]
            else:
                end = words.index("moves") if "moves" in words else len(words)
                board, rest = chess.Board(" ".join(words[2:end])), words[end:]
            for m in rest[1:]:
                board.push_uci(m)
                self.last_move = m
        except (ValueError, IndexError):
            return
        self.board = board

    def best(self) -> str:
        legal = sorted(m.uci() for m in self.board.legal_moves)
        return legal[0] if legal else "0000"

    def go(self, words: list[str]) -> None:
        a = self.args
        if a.crash_fen and self.here(a.crash_fen):
            name, _, value = a.crash_option.partition("=")
            if self.options.get(name.lower()) == value and self.flaky_fires():
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                signal.signal(signal.SIGSEGV, signal.SIG_DFL)
                os.kill(os.getpid(), signal.SIGSEGV)
                time.sleep(5)
        self.send("info depth 1 score cp 12 nodes 20 pv " + self.best())
        if "ponder" in words or "infinite" in words:
            self.pondering = True
            return
        self.answer()

    def answer(self) -> None:
        a = self.args
        move = self.best()
        if a.illegal_fen and self.newgame and self.here(a.illegal_fen) and self.flaky_fires():
            move = next(m for m in ("a1a8", "h1h8", "e1e8", "a2a5") if chess.Move.from_uci(m)
                        not in self.board.legal_moves)
        self.send("bestmove " + move)

    def stop(self) -> None:
        if not self.pondering:
            return
        self.pondering = False
        a = self.args
        if a.hang_fen and self.last_move == a.hang_move and self.here(a.hang_fen) \
                and self.flaky_fires():
            while True:
                time.sleep(3600)
        self.answer()

    def run(self) -> int:
        for raw in sys.stdin:
            words = raw.split()
            head = words[0] if words else ""
            if head == "uci":
                self.send("id name ShrinkFaulty")
                self.send("id author kibitzer tests")
                self.send("option name Hash type spin default 16 min 1 max 1024")
                self.send("option name Contempt type spin default 0 min -100 max 100")
                self.send("option name MultiPV type spin default 1 min 1 max 10")
                self.send("option name Ponder type check default false")
                self.send("uciok")
            elif head == "isready":
                self.send("readyok")
            elif head == "setoption" and "name" in words and "value" in words:
                i, j = words.index("name"), words.index("value")
                self.options[" ".join(words[i + 1:j]).lower()] = " ".join(words[j + 1:])
            elif head == "ucinewgame":
                self.newgame = True
            elif head == "position":
                self.position(words)
            elif head == "go":
                self.go(words)
            elif head in ("stop", "ponderhit"):
                self.stop()
            elif head == "quit":
                return 0
        return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crash-option")
    ap.add_argument("--crash-fen")
    ap.add_argument("--illegal-fen")
    ap.add_argument("--hang-move")
    ap.add_argument("--hang-fen")
    ap.add_argument("--flaky-counter")
    ap.add_argument("--flaky-every", type=int, default=3)
    code = Engine(ap.parse_args()).run()
    sys.stdout.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
