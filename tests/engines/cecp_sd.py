#!/usr/bin/env python3
"""A small CECP engine (python-chess keeps the board) that thinks to depth 8 on a clock, or to
the `sd` limit when one is set, for the probe's CECP-NEW-STATE test.

Usage: cecp_sd.py [--keep-sd] [--console-after-exit]
  without flags  `new` removes the depth limit, as the xboard text says (the near miss)
  --keep-sd      the depth limit outlives `new` (Fairy-Max, Sjeng, HoiChess, Fairy-Stockfish)
  --console-after-exit  after `analyze` + `exit`, falls back to a console prompt (`White (1) : `)
"""

import sys
import time

import chess

KEEP_SD = "--keep-sd" in sys.argv[1:]
CONSOLE = "--console-after-exit" in sys.argv[1:]


def send(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


board = chess.Board()
force = False
sd = None
post = False


def think() -> None:
    moves = sorted(m.uci() for m in board.legal_moves)
    if not moves:
        return
    mv = moves[0]
    for ply in range(1, (sd or 8) + 1):
        time.sleep(0.01)
        if post:
            send(f"{ply} {ply} {ply} {ply * 100} {mv}")
    board.push_uci(mv)
    send(f"move {mv}")


def gui_move(text: str) -> None:
    try:
        board.push_uci(text)
    except ValueError:
        send(f"Illegal move: {text}")
        return
    if not force:
        think()


for raw in sys.stdin:
    words = raw.split()
    head = words[0] if words else ""
    if head == "protover":
        send("feature myname=\"cecp_sd\" ping=1 setboard=1 usermove=1 sigint=0 done=1")
    elif head == "new":
        board.reset()
        force = False
        if not KEEP_SD:
            sd = None
    elif head == "sd" and len(words) > 1 and words[1].isdigit():
        sd = int(words[1])
    elif head == "force":
        force = True
    elif head == "go":
        force = False
        think()
    elif head == "post":
        post = True
    elif head == "nopost":
        post = False
    elif head == "ping" and len(words) > 1:
        send(f"pong {words[1]}")
    elif head == "usermove" and len(words) > 1:
        gui_move(words[1])
    elif head == "setboard":
        try:
            board.set_fen(" ".join(words[1:]))
        except ValueError:
            send("tellusererror Illegal position")
    elif head == "exit" and CONSOLE:
        send("White (1) : ")
    elif head == "quit":
        break
