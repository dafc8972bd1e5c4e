#!/usr/bin/env python3
"""A UCI relay that breaks one thing in chosen games, for the tournament fixture.

Usage:
    tournament_faulty.py MODE [--games N[:K],...] [--move K] [--name NAME] [--late SECS] -- ENGINE [ARGS...]

Runs ENGINE (a healthy UCI engine, e.g. `stockfish`) as a child and relays every line both
ways unchanged, except:

  * `id name ...` becomes `id name NAME` and `id author ...` says it is a relay, and a banner
    line before the handshake names NAME first, so a report sees a distinct engine (the
    default NAME is `Flaky Illegal 1.0`, `Flaky Timeout 1.0` or `Flaky Crash 1.0`);
  * in the games listed in --games (games are counted by `ucinewgame`, from 1, in this
    process), at the K-th `go` of that game (`N:K` in --games, else --move, default 10),
    MODE breaks one thing:

      illegal  the `bestmove` is replaced by a move from an empty square (always illegal:
               there is no piece to move), without `ponder`;
      timeout  the `bestmove` is held back until the side to move's clock (`wtime`/`btime` of
               that `go`) plus --late seconds (default 1.0) have passed since the `go` came;
      crash    0.1 s after the `go` is passed on (the engine has started searching) the relay
               kills ENGINE and exits with status 3, owing its move (a `bestmove` ENGINE
               gives in that time is not passed on).

Every other game is played by ENGINE untouched. The side to move and the board (for the empty
square) are followed from the `position` commands. Standard library only; made for
scripts/make-tournament.py, which passes the games and the move it plans and records where the
fault landed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time

MODES = ("illegal", "timeout", "crash")
DEFAULT_NAMES = {"illegal": "Flaky Illegal 1.0", "timeout": "Flaky Timeout 1.0", "crash": "Flaky Crash 1.0"}
START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
UCI_WORDS = ("id", "option", "uciok", "readyok", "info", "bestmove", "copyprotection", "registration")
# Squares tried, in order, as the origin of the illegal move: the first empty one is used.
CANDIDATES = [f + r for r in "4536" for f in "edcfbgah"] + [f + r for r in "27" for f in "abcdefgh"]


def parse_args(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    if "--" not in argv:
        sys.exit("usage: tournament_faulty.py MODE [options] -- ENGINE [ARGS...]")
    i = argv.index("--")
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=MODES)
    ap.add_argument("--games", default="", help="comma-separated game numbers (1 = first ucinewgame), each "
                    "optionally with `:K`, the search to break")
    ap.add_argument("--move", type=int, default=10, help="the engine's K-th search of the game is broken")
    ap.add_argument("--name", default=None)
    ap.add_argument("--late", type=float, default=1.0, help="timeout: seconds past the clock")
    args = ap.parse_args(argv[:i])
    engine = argv[i + 1:]
    if not engine:
        sys.exit("tournament_faulty.py: no engine after --")
    return args, engine


class Position:
    """Piece placement and side to move, followed from `position` commands."""

    def __init__(self) -> None:
        self.squares: dict[str, str] = {}
        self.white = True
        self.set(["startpos"])

    def set(self, words: list[str]) -> None:
        if words[:1] == ["startpos"]:
            fen, rest = START_FEN.split(), words[1:]
        elif words[:1] == ["fen"]:
            fen, rest = words[1:7], words[7:]
        else:
            return
        self.squares = {}
        for r, row in enumerate(fen[0].split("/")):
            f = 0
            for c in row:
                if c.isdigit():
                    f += int(c)
                else:
                    self.squares["abcdefgh"[f] + str(8 - r)] = c
                    f += 1
        self.white = len(fen) < 2 or fen[1] == "w"
        for mv in rest[1:] if rest[:1] == ["moves"] else []:
            self.push(mv)

    def push(self, mv: str) -> None:
        fr, to = mv[:2], mv[2:4]
        piece = self.squares.pop(fr, None)
        if piece is not None:
            if piece in "Kk" and abs(ord(fr[0]) - ord(to[0])) == 2:  # castling: the rook too
                rook_from, rook_to = ("h", "f") if to[0] == "g" else ("a", "d")
                rook = self.squares.pop(rook_from + fr[1], None)
                if rook:
                    self.squares[rook_to + fr[1]] = rook
            if piece in "Pp" and fr[0] != to[0] and to not in self.squares:  # en passant
                self.squares.pop(to[0] + fr[1], None)
            if len(mv) == 5:
                piece = mv[4].upper() if piece.isupper() else mv[4].lower()
            self.squares[to] = piece
        self.white = not self.white

    def illegal_move(self) -> str:
        for sq in CANDIDATES:
            if sq not in self.squares:
                rank = int(sq[1]) + (1 if self.white else -1)
                return sq + sq[0] + str(min(8, max(1, rank)))
        return "e4e5"  # unreachable: a board has at least 32 empty squares


class Relay:
    def __init__(self, args: argparse.Namespace, engine: list[str]) -> None:
        self.mode = args.mode
        self.name = args.name or DEFAULT_NAMES[self.mode]
        # game number -> the search (`go` of that game, from 1) to break
        self.faults: dict[int, int] = {}
        for item in filter(None, (g.strip() for g in args.games.split(","))):
            game, _, move = item.partition(":")
            self.faults[int(game)] = int(move) if move else args.move
        self.late = args.late
        self.child = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.out = sys.stdout.buffer
        self.position = Position()
        self.game = 0          # ucinewgame count
        self.searches = 0      # `go` count in this game
        self.lock = threading.Lock()
        self.armed = False     # the current search is the broken one
        self.hold_until = 0.0  # timeout: when the held bestmove may go
        self.quitting = threading.Event()
        self.handshake_done = False

    def send(self, line: str) -> None:
        self.out.write(line.encode() + b"\n")
        self.out.flush()

    def to_engine(self, raw: bytes) -> None:
        try:
            self.child.stdin.write(raw)
            self.child.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def crash(self) -> None:
        self.child.kill()
        self.child.wait()
        sys.stderr.flush()
        os._exit(3)

    def from_gui(self) -> None:
        for raw in sys.stdin.buffer:
            words = raw.decode("utf-8", "replace").split()
            head = words[0] if words else ""
            if head == "ucinewgame":
                with self.lock:
                    self.game += 1
                    self.searches = 0
            elif head == "position":
                self.position.set(words[1:])
            elif head == "quit":
                self.quitting.set()
            elif head == "go":
                with self.lock:
                    self.searches += 1
                    armed = self.faults.get(self.game) == self.searches
                    self.armed = armed
                    if armed and self.mode == "timeout":
                        key = "wtime" if self.position.white else "btime"
                        clock_ms = int(words[words.index(key) + 1]) if key in words[:-1] else 0
                        self.hold_until = time.monotonic() + clock_ms / 1000 + self.late
                if armed and self.mode == "crash":
                    self.to_engine(raw)
                    time.sleep(0.1)
                    self.crash()
            self.to_engine(raw)
        # The GUI closed our input: so does the engine's (Stockfish quits on end of input).
        self.quitting.set()
        try:
            self.child.stdin.close()
        except OSError:
            pass

    def run(self) -> int:
        threading.Thread(target=self.from_gui, daemon=True).start()
        for raw in self.child.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            words = line.split()
            head = words[0] if words else ""
            if head == "id" and words[1:2] == ["name"]:
                self.send(f"id name {self.name}")
                continue
            if head == "id" and words[1:2] == ["author"]:
                self.send(f"id author kibitzer tests (a relay of {' '.join(words[2:])})")
                continue
            if head == "uciok":
                self.handshake_done = True
            elif not self.handshake_done and line and head not in UCI_WORDS:
                self.send(f"{self.name}, a faulty relay of: {line}")
                continue
            if head == "bestmove":
                with self.lock:
                    armed, self.armed = self.armed, False
                if armed and self.mode == "illegal":
                    self.send(f"bestmove {self.position.illegal_move()}")
                    continue
                if armed and self.mode == "timeout":
                    self.quitting.wait(max(0.0, self.hold_until - time.monotonic()))
                if armed and self.mode == "crash":
                    # ENGINE was quicker than the crash: its move never goes out.
                    time.sleep(60)
            self.out.write(raw if raw.endswith(b"\n") else raw + b"\n")
            self.out.flush()
        return self.child.wait()


def main() -> None:
    args, engine = parse_args(sys.argv[1:])
    code = Relay(args, engine).run()
    sys.stdout.flush()
    # The stdin reader thread may still be blocked in a read: leave without waiting for it.
    os._exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main()
