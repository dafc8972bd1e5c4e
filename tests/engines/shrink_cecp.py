#!/usr/bin/env python3
"""A CECP engine with one planted fault and the GUI that hides it in a long session, for
`kibitzer shrink`'s tests.

  shrink_cecp.py engine
      a protocol-2 engine (`feature setboard=1 usermove=1 ping=1 done=1`) that keeps a real board
      (python-chess): `new`, `force`, moves, `undo`, `setboard`, `ping`, `go` (answers the first
      legal move). It dies by SIGSEGV on a `setboard` that directly follows an `undo` (settings
      and pings in between do not count): the fault.
  shrink_cecp.py engine --v1 --crash-at PLACEMENT:SIDE
      a protocol-1 engine instead (no `setboard`; positions set up in `edit` mode, as xboard
      does): it dies by SIGSEGV on a `go` in that position (the FEN's first two fields)
  shrink_cecp.py gui [--games G] [--plies P] [--seed S] --fault-game K -- ENGINE [ARGS...]
      plays G games in force mode (both sides' moves the GUI's own, a seeded random game each;
      every third game starts from a `setboard`), a `ping` every 10 plies, an `undo` and the move
      again every 13; in game K, half-way, an `undo` and then a `setboard` of that position.
      With --go-at K:P instead: in game K, after P plies, a `go` (the v1 engine's fault).
  shrink_cecp.py gui ... --fen-at K:P
      prints the FEN after P plies of game K and exits
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys

import chess

SETTINGS = {"accepted", "rejected", "ping", "post", "nopost", "hard", "easy", "level", "st", "sd",
            "time", "otim", "computer", "name", "random", "option", "memory", "cores", "force"}


def engine(v1: bool, crash_at: str | None) -> None:
    board = chess.Board()
    last = ""
    editing, color = False, chess.WHITE
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        head = words[0]
        out = []
        if editing:
            if head == ".":
                editing = False
            elif head == "#":
                board.clear_board()
            elif head == "c":
                color = not color
            elif len(head) == 3 and head[0] in "PNBRQK":
                piece = chess.Piece(chess.PIECE_SYMBOLS.index(head[0].lower()), color)
                board.set_piece_at(chess.parse_square(head[1:]), piece)
            continue
        if head == "edit" and v1:
            editing, color = True, chess.WHITE
            board = chess.Board(board.fen())
            board.clear_stack()
        elif head == "protover":
            if v1:
                out.append("feature usermove=1 setboard=0 ping=1 sigint=0 sigterm=0 done=1")
            else:
                out.append("feature setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 done=1")
        elif head == "new":
            board = chess.Board()
        elif head == "setboard":
            if last == "undo":
                sys.stdout.flush()
                os.kill(os.getpid(), signal.SIGSEGV)
            try:
                board = chess.Board(" ".join(words[1:]))
            except ValueError:
                out.append("tellusererror Illegal position")
        elif head == "undo":
            if board.move_stack:
                board.pop()
        elif (head == "usermove" and len(words) == 2) or (v1 and len(head) in (4, 5)
                                                          and head[1].isdigit()):
            mv = words[1] if head == "usermove" else head
            try:
                board.push_uci(mv)
            except ValueError:
                out.append(f"Illegal move: {mv}")
        elif head == "ping" and len(words) == 2:
            out.append(f"pong {words[1]}")
        elif head == "go":
            here = " ".join(board.fen().split()[:2])
            if crash_at is not None and here == crash_at.replace(":", " "):
                sys.stdout.flush()
                os.kill(os.getpid(), signal.SIGSEGV)
            mv = next(iter(sorted(board.legal_moves, key=lambda m: m.uci())), None)
            if mv is not None:
                board.push(mv)
                out.append(f"move {mv.uci()}")
        elif head == "quit":
            return
        if head not in SETTINGS:
            last = head
        for line in out:
            print(line, flush=True)


def game(rng: random.Random, plies: int, start: chess.Board) -> list[str]:
    board, moves = start.copy(), []
    while len(moves) < plies and not board.is_game_over():
        m = rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))
        board.push(m)
        moves.append(m.uci())
    return moves


def gui(a: argparse.Namespace) -> None:
    if a.fen_at is not None:
        # The same games, without an engine.
        rng = random.Random(a.seed)
        for g in range(1, a.games + 1):
            start = chess.Board()
            if g % 3 == 0:
                for m in game(rng, 6, start):
                    start.push_uci(m)
            board = start.copy()
            for ply, m in enumerate(game(rng, a.plies, start), 1):
                board.push_uci(m)
                if a.fen_at == (g, ply):
                    print(board.fen())
                    return
        sys.exit("no such ply")
    p = subprocess.Popen(a.engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert p.stdin is not None and p.stdout is not None

    def send(line: str) -> None:
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def wait_for(prefix: str) -> None:
        for line in p.stdout:
            if line.startswith(prefix):
                return
        sys.exit(f"the engine ended before `{prefix}`")

    send("xboard")
    send("protover 2")
    wait_for("feature")
    for f in ("setboard", "usermove", "ping", "sigint", "sigterm", "done"):
        send(f"accepted {f}")
    rng = random.Random(a.seed)
    pings = 0
    try:
        for g in range(1, a.games + 1):
            send("new")
            send("force")
            start = chess.Board()
            if g % 3 == 0:
                for m in game(rng, 6, start):
                    start.push_uci(m)
                send(f"setboard {start.fen()}")
            board = start.copy()
            for ply, m in enumerate(game(rng, a.plies, start), 1):
                send(f"usermove {m}")
                board.push_uci(m)
                if a.go_at == (g, ply):
                    send("go")
                    wait_for("never")
                if a.fen_at == (g, ply):
                    print(board.fen())
                    return
                if g == a.fault_game and ply == a.plies // 2:
                    send("undo")
                    board.pop()
                    send(f"setboard {board.fen()}")
                    wait_for("never")
                if ply % 13 == 0:
                    send("undo")
                    send(f"usermove {m}")
                if ply % 10 == 0:
                    pings += 1
                    send(f"ping {pings}")
                    wait_for(f"pong {pings}")
        send("quit")
    except (BrokenPipeError, SystemExit):
        pass
    p.wait()


def game_ply(text: str) -> tuple[int, int]:
    g, p = text.split(":")
    return int(g), int(p)


def main() -> None:
    if sys.argv[1:2] == ["engine"]:
        ap = argparse.ArgumentParser()
        ap.add_argument("mode")
        ap.add_argument("--v1", action="store_true")
        ap.add_argument("--crash-at")
        a = ap.parse_args()
        engine(a.v1, a.crash_at)
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["gui"])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--plies", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--fault-game", type=int, default=0)
    ap.add_argument("--go-at", type=game_ply)
    ap.add_argument("--fen-at", type=game_ply)
    argv = sys.argv[1:]
    cut = argv.index("--") if "--" in argv else len(argv)
    a = ap.parse_args(argv[:cut])
    a.engine = argv[cut + 1:]
    gui(a)


if __name__ == "__main__":
    main()
