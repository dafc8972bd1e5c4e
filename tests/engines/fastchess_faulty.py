#!/usr/bin/env python3
"""A small chess-playing UCI engine (python-chess) that breaks one thing on request.

Usage:
    fastchess_faulty.py [--name NAME] [--seed N] [--crash-at N | --hang-at N | --illegal-at N]
                        [--games LIST]

Made for scripts/fastchess-tournament.sh (real fastchess tournaments with a crashing, a hanging
and an illegal-move engine). Without a fault flag it is a weak but well-behaved UCI engine:
`uci` -> `id name`/`id author`/`uciok`, `isready` -> `readyok`, `ucinewgame` starts a new game,
`position startpos|fen ... [moves ...]` sets the board, `go ...` (any limits) answers at once
with one `info depth 2 ...` line and `bestmove MOVE`: a legal move chosen by a two-ply material
search (captures and checks first, ties broken by a seeded random number), so games reach the
middle game and end by mate, adjudication or the fault. `stop` is answered by nothing (the
search is already over), `quit` exits 0.

Faults (at the engine's N-th `go` of a game, counting from 1 after each `ucinewgame`; in every
game, or only in the games listed in --games, counted by `ucinewgame` in this process from 1):

  --crash-at N    write one `info` line, then die by SIGSEGV (core dumps are switched off)
  --hang-at N     write one `info` line, then stop reading and answering anything, forever
                  (a deadlocked engine: neither `isready` nor `quit` is answered; only a signal
                  ends it)
  --illegal-at N  answer `bestmove` with a move from an empty square (always illegal)

Needs python-chess (`import chess`).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import signal
import sys
import time

import chess

VALUES = {chess.PAWN: 100, chess.KNIGHT: 300, chess.BISHOP: 310, chess.ROOK: 500, chess.QUEEN: 900, chess.KING: 0}
# Origins tried, in order, for the illegal move: the first empty square is used.
CANDIDATES = [f + r for r in "4536" for f in "edcfbgah"] + [f + r for r in "27" for f in "abcdefgh"]


def out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def material(board: chess.Board, colour: chess.Color) -> int:
    score = 0
    for piece_type, value in VALUES.items():
        score += value * (len(board.pieces(piece_type, colour)) - len(board.pieces(piece_type, not colour)))
    return score


def evaluate_after(board: chess.Board, move: chess.Move, us: chess.Color) -> int:
    """Material from `us`'s side after `move` and the opponent's best material reply."""
    board.push(move)
    try:
        if board.is_checkmate():
            return 100000
        if board.is_game_over():
            return 0
        worst = None
        for reply in board.legal_moves:
            board.push(reply)
            score = -100000 if board.is_checkmate() else material(board, us)
            board.pop()
            if worst is None or score < worst:
                worst = score
        return worst if worst is not None else material(board, us)
    finally:
        board.pop()


def choose(board: chess.Board, rng: random.Random) -> tuple[chess.Move, int]:
    us = board.turn
    best, best_score = None, None
    for move in board.legal_moves:
        score = evaluate_after(board, move, us) * 16 + rng.randrange(16)
        if best_score is None or score > best_score:
            best, best_score = move, score
    assert best is not None
    return best, (best_score or 0) // 16


def illegal_move(board: chess.Board) -> str:
    for origin in CANDIDATES:
        square = chess.parse_square(origin)
        if board.piece_at(square) is None:
            target = chess.parse_square(origin[0] + ("5" if origin[1] != "5" else "6"))
            return chess.square_name(square) + chess.square_name(target)
    return "a1a1"


def set_position(tokens: list[str]) -> chess.Board:
    board = chess.Board()
    i = 1
    if i < len(tokens) and tokens[i] == "startpos":
        i += 1
    elif i < len(tokens) and tokens[i] == "fen":
        fen = []
        i += 1
        while i < len(tokens) and tokens[i] != "moves":
            fen.append(tokens[i])
            i += 1
        board = chess.Board(" ".join(fen))
    if i < len(tokens) and tokens[i] == "moves":
        for uci in tokens[i + 1:]:
            board.push_uci(uci)
    return board


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", default=None, help="the `id name` (default: by fault)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the tie-breaking random numbers")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--crash-at", type=int, metavar="N")
    group.add_argument("--hang-at", type=int, metavar="N")
    group.add_argument("--illegal-at", type=int, metavar="N")
    ap.add_argument("--games", default="", help="comma-separated game numbers (1 = first `ucinewgame` of "
                    "this process) the fault applies to; default every game")
    args = ap.parse_args()
    fault, at = None, None
    for name in ("crash", "hang", "illegal"):
        value = getattr(args, name + "_at")
        if value is not None:
            fault, at = name, value
    name = args.name or {None: "Faulty Healthy 1.0", "crash": "Faulty Crash 1.0",
                         "hang": "Faulty Hang 1.0", "illegal": "Faulty Illegal 1.0"}[fault]
    games = {int(g) for g in args.games.split(",") if g.strip()}
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    rng = random.Random(args.seed)
    board = chess.Board()
    game, searches = 0, 0

    for raw in sys.stdin:
        tokens = raw.split()
        if not tokens:
            continue
        cmd = tokens[0]
        if cmd == "uci":
            out(f"id name {name}")
            out("id author kibitzer tests (tests/engines/fastchess_faulty.py)")
            out("uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "ucinewgame":
            game += 1
            searches = 0
        elif cmd == "position":
            board = set_position(tokens)
        elif cmd == "go":
            searches += 1
            t0 = time.monotonic()
            hit = fault is not None and searches == at and (not games or game in games)
            if hit and fault in ("crash", "hang"):
                out(f"info depth 1 score cp 0 nodes 1 time 0 pv {next(iter(board.legal_moves)).uci()}")
                if fault == "crash":
                    os.kill(os.getpid(), signal.SIGSEGV)
                while True:  # hang: read nothing, answer nothing
                    time.sleep(3600)
            move, score = choose(board, rng)
            ms = int((time.monotonic() - t0) * 1000)
            nodes = board.legal_moves.count() * 20
            out(f"info depth 2 score cp {max(-30000, min(30000, score))} nodes {nodes} time {ms} pv {move.uci()}")
            if hit and fault == "illegal":
                out(f"bestmove {illegal_move(board)}")
            else:
                out(f"bestmove {move.uci()}")
        elif cmd == "quit":
            return


if __name__ == "__main__":
    main()
