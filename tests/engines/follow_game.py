#!/usr/bin/env python3
"""python-chess as the GUI of a recorded game: it replays the game of a PGN against an engine
command, asking the engine for the moves of the engine's side and playing the other side's
moves from the PGN, as the shipped recordings were made (scripts/make-recordings.py).

Usage: follow_game.py (--uci|--xboard) --pgn FILE [--engine white|black|both] [--from-ply N]
                      [--depth D | --nodes N | --movetime MS] [--option NAME=VALUE ...]
                      [--max-plies M] [--send-result] [--game NAME] -- COMMAND [ARGS...]

Plies before --from-ply are pushed from the PGN whoever's they are. Prints one line per
engine move, `engine MOVE expected MOVE` (MOVE in UCI notation; `expected -` past the PGN's
end), goes on with the engine's move when they differ, and ends with `plies N of M`.
"""

import argparse
import sys

import chess
import chess.engine
import chess.pgn


class LenientXBoard(chess.engine.XBoardProtocol):
    """As in scripts/make-recordings.py: Fairy-Max declares setboard=0, which python-chess
    refuses although it never needs setboard for a game from the start position."""

    def line_received(self, line: str) -> None:
        if line.startswith("feature") and "done=1" in line and not self.features.get("setboard"):
            self.features["setboard"] = 1
        super().line_received(line)


def value(text: str):
    if text in ("true", "false"):
        return text == "true"
    if text.lstrip("-").isdigit():
        return int(text)
    return text


def main() -> int:
    ap = argparse.ArgumentParser()
    proto = ap.add_mutually_exclusive_group(required=True)
    proto.add_argument("--uci", action="store_true")
    proto.add_argument("--xboard", action="store_true")
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--engine", choices=["white", "black", "both"], default="both")
    ap.add_argument("--from-ply", type=int, default=0)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--movetime", type=int)
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--max-plies", type=int, default=1000)
    ap.add_argument("--send-result", action="store_true")
    ap.add_argument("--game", default="replayed")
    ap.add_argument("command", nargs="+")
    a = ap.parse_args()

    with open(a.pgn) as f:
        expected = list(chess.pgn.read_game(f).mainline_moves())
    if a.uci:
        engine = chess.engine.SimpleEngine.popen_uci(a.command, timeout=60)
    else:
        engine = chess.engine.SimpleEngine.popen(LenientXBoard, a.command, timeout=60)
    options = dict(o.split("=", 1) for o in a.option)
    if options:
        engine.configure({k: value(v) for k, v in options.items()})
    limit = chess.engine.Limit(
        depth=a.depth, nodes=a.nodes, time=a.movetime / 1000 if a.movetime else None
    )
    sides = {"white": [chess.WHITE], "black": [chess.BLACK], "both": [chess.WHITE, chess.BLACK]}[a.engine]
    board = chess.Board()
    try:
        while not board.is_game_over(claim_draw=True) and board.ply() < a.max_plies:
            ply = board.ply()
            want = expected[ply] if ply < len(expected) else None
            if ply >= a.from_ply and board.turn in sides:
                result = engine.play(board, limit, game=a.game, info=chess.engine.INFO_ALL)
                if result.resigned or result.move is None:
                    break
                print(f"engine {result.move.uci()} expected {want.uci() if want else '-'}", flush=True)
                board.push(result.move)
            elif want is not None:
                board.push(want)
            else:
                break
        if a.send_result and board.is_game_over(claim_draw=True):
            engine.send_game_result(board)
        engine.quit()
    finally:
        engine.close()
    print(f"plies {board.ply()} of {len(expected)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
