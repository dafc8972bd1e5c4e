#!/usr/bin/env python3
"""A UCI relay to a real engine that answers one search itself: a "different engine" whose
first difference is known exactly.

Usage: divert_engine.py K -- COMMAND [ARGS...]

Every line passes through unchanged both ways, except the K-th `go`: the relay keeps it from
the engine and answers `info depth 1 score cp 0 nodes 1 pv MOVE` and `bestmove MOVE`, MOVE being
the last legal move (in python-chess's order) of the position the GUI sent last. Standard
library plus python-chess.
"""

import subprocess
import sys
import threading

import chess


def main() -> int:
    k = int(sys.argv[1])
    cmd = sys.argv[sys.argv.index("--") + 1:]
    eng = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def pump() -> None:
        assert eng.stdout is not None
        for line in eng.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()

    threading.Thread(target=pump, daemon=True).start()
    board = chess.Board()
    searches = 0
    assert eng.stdin is not None
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["position"]:
            board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:8]))
            if "moves" in words:
                for m in words[words.index("moves") + 1:]:
                    board.push_uci(m)
        if words[:1] == ["go"]:
            searches += 1
            if searches == k:
                move = list(board.legal_moves)[-1].uci()
                sys.stdout.write(f"info depth 1 score cp 0 nodes 1 pv {move}\nbestmove {move}\n")
                sys.stdout.flush()
                continue
        eng.stdin.write(line)
        eng.stdin.flush()
    eng.stdin.close()
    return eng.wait()


if __name__ == "__main__":
    sys.exit(main())
