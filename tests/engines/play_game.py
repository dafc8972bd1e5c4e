#!/usr/bin/env python3
"""python-chess plays a game against an engine command and prints the moves it played.

Usage: play_game.py (--uci|--xboard) [--nodes N | --depth N | --movetime MS]
                    [--moves M] [--games G] [--option NAME=VALUE ...] -- COMMAND [ARGS...]

The engine plays both sides: python-chess asks it for a move (`play` with the given limit),
pushes the move and asks again, until the game ends or M plies were played, then quits.
One line per ply on stdout (the move in UCI notation), then `result RESULT`; with --games G,
G such games one after the other in the same engine session. Used by the
replay tests to make recordings (COMMAND is `kibitzer record -o FILE -- ENGINE`) and to play
against `kibitzer replay --as-engine`.
"""

import argparse
import sys

import chess
import chess.engine


def main() -> int:
    ap = argparse.ArgumentParser()
    proto = ap.add_mutually_exclusive_group(required=True)
    proto.add_argument("--uci", action="store_true")
    proto.add_argument("--xboard", action="store_true")
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--movetime", type=int)
    ap.add_argument("--moves", type=int, default=1000)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("command", nargs="+")
    a = ap.parse_args()

    popen = chess.engine.SimpleEngine.popen_uci if a.uci else chess.engine.SimpleEngine.popen_xboard
    engine = popen(a.command, timeout=a.timeout)
    options = {}
    for o in a.option:
        name, _, value = o.partition("=")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    if options:
        engine.configure(options)
    limit = chess.engine.Limit(
        nodes=a.nodes,
        depth=a.depth,
        time=a.movetime / 1000 if a.movetime else None,
    )
    try:
        for game in range(a.games):
            board = chess.Board()
            while not board.is_game_over(claim_draw=True) and board.ply() < a.moves:
                result = engine.play(board, limit, game=f"replay-test-{game}")
                if result.move is None:
                    break
                board.push(result.move)
                print(result.move.uci(), flush=True)
            if game + 1 < a.games:
                print(f"result {board.result(claim_draw=True)}", flush=True)
    finally:
        engine.quit()
    print(f"result {board.result(claim_draw=True)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
