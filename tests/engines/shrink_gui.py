#!/usr/bin/env python3
"""A UCI GUI playing a long, varied session for `kibitzer shrink`'s tests: several games with
options set between them, `ucinewgame` + `isready`, clock-, depth- and node-limited searches and
a pondered search (`go ponder`, then `stop`) every fifth ply.

The moves are the GUI's own (a seeded random game per game, python-chess), whatever the engine
answers: the positions a session reaches are known before it is played, so a test can plant a
fault in one of them (`--fen-at`).

Usage:
  shrink_gui.py [--games G] [--plies P] [--seed S] -- ENGINE [ARGS...]
  shrink_gui.py [--games G] [--plies P] [--seed S] --fen-at GAME:PLY
      prints the FEN after PLY plies of GAME (1-based game) and the move that reached it
  --illegal-position GAME:PLY   at that ply, the `position` command carries an illegal move
  --contempt GAME=VALUE         before that game, `setoption name Contempt value VALUE`
"""

from __future__ import annotations

import argparse
import queue
import random
import subprocess
import sys
import threading
import time

import chess


def games(count: int, plies: int, seed: int) -> list[list[str]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        board, moves = chess.Board(), []
        while len(moves) < plies and not board.is_game_over():
            m = rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))
            board.push(m)
            moves.append(m.uci())
        out.append(moves)
    return out


class Gui:
    def __init__(self, argv: list[str]) -> None:
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                return False
            if line is None:
                return False
            if line.startswith(prefix):
                return True


def play(a: argparse.Namespace, all_games: list[list[str]]) -> int:
    gui = Gui(a.engine)
    contempt = dict(c.split("=") for c in a.contempt)
    bad = tuple(int(x) for x in a.illegal_position.split(":")) if a.illegal_position else None
    ok = True
    gui.send("uci")
    ok = gui.wait("uciok", 10)
    for line in ("setoption name Hash value 32", "setoption name Ponder value true",
                 "setoption name MultiPV value 1"):
        gui.send(line)
    gui.send("isready")
    ok = ok and gui.wait("readyok", 10)
    searches = 0
    for g, moves in enumerate(all_games, start=1):
        if not ok:
            break
        if str(g) in contempt:
            gui.send(f"setoption name Contempt value {contempt[str(g)]}")
        gui.send("ucinewgame")
        gui.send("isready")
        ok = gui.wait("readyok", 10)
        for ply in range(len(moves) + 1):
            if not ok:
                break
            played = moves[:ply]
            if bad == (g, ply):
                played = played + ["e1e5"]
            pos = "position startpos" + (" moves " + " ".join(played) if played else "")
            gui.send(pos)
            searches += 1
            if ply % 5 == 4:
                gui.send("go ponder wtime 3000 btime 3000 winc 100 binc 100")
                time.sleep(0.02)
                gui.send("stop")
                # A GUI that gives up on an engine that never ends its search.
                ok = gui.wait("bestmove", 0.5)
            else:
                limit = ("go depth 3", "go nodes 2000", "go wtime 3000 btime 3000 movestogo 30",
                         "go movetime 20")[searches % 4]
                gui.send(limit)
                ok = gui.wait("bestmove", 10)
            if ok and ply % 10 == 9:
                gui.send("isready")
                ok = gui.wait("readyok", 10)
    gui.send("quit")
    assert gui.p.stdin is not None
    gui.p.stdin.close()
    try:
        gui.p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        gui.p.kill()
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--plies", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--fen-at")
    ap.add_argument("--illegal-position")
    ap.add_argument("--contempt", action="append", default=[])
    ap.add_argument("engine", nargs="*")
    a = ap.parse_args()
    all_games = games(a.games, a.plies, a.seed)
    if a.fen_at:
        g, ply = (int(x) for x in a.fen_at.split(":"))
        board = chess.Board()
        for m in all_games[g - 1][:ply]:
            board.push_uci(m)
        print(board.fen())
        print(all_games[g - 1][ply - 1])
        return 0
    return play(a, all_games)


if __name__ == "__main__":
    sys.exit(main())
