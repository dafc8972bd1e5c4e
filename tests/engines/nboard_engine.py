#!/usr/bin/env python3
"""A scripted NBoard protocol v2 Othello engine for tests (not a real Othello player).

It implements the commands of /work/shared/specs/nboard-protocol-v2.txt far enough for a GUI
session: `nboard 2` -> `set myname ScriptedNBoard`; `ping N` -> `pong N`; `set depth`,
`set contempt`; `set game GGF` (BO plus B[]/W[] moves, passes as PA/pass/--) and `move M[/eval/time]`
update the position; `go` -> `status thinking`, a `search` line, `nodestats N T`,
`=== MOVE/eval/time`, `status`; `hint N` -> N `search` lines; `analyze` -> `analysis` lines;
`learn` -> `learned`; `quit`. Unknown lines are ignored, as the protocol asks.

Moves are chosen greedily (corners, then most discs flipped, then the first square in A1..H8
order), so a session is fully deterministic. With no legal move it answers `=== PA`.

Other uses:
    nboard_engine.py --pass-game   print a real game from the start position (moves and PA,
                                   space separated) in which each side passes at least once
    nboard_engine.py --learn-forever   the engine, but a `learn` never ends: it reads nothing
                                   more and answers nothing, so the ping after it gets no pong
"""

from __future__ import annotations

import random
import re
import sys
import time

EMPTY, BLACK, WHITE = 0, 1, 2
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
CORNERS = {0, 7, 56, 63}
PASS_RE = re.compile(r"^(p(a(s(s)?)?)?|--)$", re.IGNORECASE)
START_BO = "8 ---------------------------O*------*O--------------------------- *"


def square_name(i: int) -> str:
    return "ABCDEFGH"[i % 8] + str(i // 8 + 1)


def parse_square(s: str) -> int | None:
    s = s.strip()
    if len(s) != 2 or s[0].upper() not in "ABCDEFGH" or s[1] not in "12345678":
        return None
    return (int(s[1]) - 1) * 8 + "ABCDEFGH".index(s[0].upper())


class Board:
    def __init__(self, bo: str = START_BO) -> None:
        parts = bo.split()
        cells = "".join(parts[1:-1]) if len(parts) >= 3 else ""
        if len(cells) != 64:
            parts, cells = START_BO.split(), START_BO.split()[1]
        self.cells = [BLACK if c in "*xX#" else WHITE if c in "OoW" else EMPTY for c in cells]
        self.to_move = WHITE if parts[-1] in ("O", "o", "W") else BLACK

    def flips(self, sq: int, color: int) -> list[int]:
        if self.cells[sq] != EMPTY:
            return []
        other = 3 - color
        out = []
        r0, c0 = divmod(sq, 8)
        for dr, dc in DIRS:
            r, c, run = r0 + dr, c0 + dc, []
            while 0 <= r < 8 and 0 <= c < 8 and self.cells[r * 8 + c] == other:
                run.append(r * 8 + c)
                r, c = r + dr, c + dc
            if run and 0 <= r < 8 and 0 <= c < 8 and self.cells[r * 8 + c] == color:
                out.extend(run)
        return out

    def legal(self, color: int | None = None) -> list[int]:
        color = color or self.to_move
        return [sq for sq in range(64) if self.flips(sq, color)]

    def play(self, sq: int | None) -> None:
        """Plays `sq` for the side to move; None is a pass. An illegal square is placed anyway
        (a test GUI may set up odd positions), flipping whatever it would flip."""
        if sq is not None:
            for f in self.flips(sq, self.to_move):
                self.cells[f] = self.to_move
            self.cells[sq] = self.to_move
        self.to_move = 3 - self.to_move

    def disc_diff(self, color: int) -> int:
        return self.cells.count(color) - self.cells.count(3 - color)

    def game_over(self) -> bool:
        return not self.legal(BLACK) and not self.legal(WHITE)


def ranked(board: Board) -> list[tuple[int, int]]:
    """(score, square) for the side to move, best first."""
    scored = []
    for sq in board.legal():
        score = len(board.flips(sq, board.to_move)) + (100 if sq in CORNERS else 0)
        scored.append((score, sq))
    scored.sort(key=lambda t: (-t[0], t[1]))
    return scored


def eval_after(board: Board, sq: int) -> float:
    """Disc difference for the mover after `sq`: a plausible-looking eval, in discs."""
    b = Board()
    b.cells, b.to_move = list(board.cells), board.to_move
    b.play(sq)
    return float(b.disc_diff(board.to_move))


def parse_ggf(ggf: str) -> tuple[Board, list[int | None]] | None:
    bo = re.search(r"BO\[([^\]]*)\]", ggf)
    board = Board(bo.group(1) if bo else START_BO)
    moves: list[int | None] = []
    for tag, value in re.findall(r"\b([BW])\[([^\]]*)\]", ggf):
        mv = value.split("/")[0].strip()
        if PASS_RE.match(mv):
            moves.append(None)
        else:
            sq = parse_square(mv)
            if sq is None:
                return None
            moves.append(sq)
    return board, moves


class Engine:
    def __init__(self) -> None:
        self.depth = 1
        self.start = Board()
        self.history: list[int | None] = []
        self.board = Board()
        self.learn_forever = False

    def out(self, line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def set_game(self, ggf: str) -> None:
        parsed = parse_ggf(ggf)
        if parsed is None:
            return
        self.start, self.history = parsed
        self.replay()

    def replay(self) -> None:
        self.board = Board()
        self.board.cells = list(self.start.cells)
        self.board.to_move = self.start.to_move
        for mv in self.history:
            self.board.play(mv)

    def move(self, arg: str) -> None:
        mv = arg.split("/")[0].strip()
        sq = None if PASS_RE.match(mv) else parse_square(mv)
        if sq is None and not PASS_RE.match(mv):
            return
        self.history.append(sq)
        self.board.play(sq)

    def search_lines(self, n: int) -> list[str]:
        best = ranked(self.board)
        if not best:
            return [f"search PA {self.board.disc_diff(self.board.to_move):.2f} 0 {self.depth}"]
        return [f"search {square_name(sq)} {eval_after(self.board, sq):.2f} 0 {self.depth} greedy"
                for _score, sq in best[:max(1, n)]]

    def go(self) -> None:
        self.out("status thinking")
        lines = self.search_lines(1)
        nodes = len(self.board.legal()) * 17 + 1
        for line in lines:
            self.out(line)
        self.out(f"nodestats {nodes} 0.01")
        best = ranked(self.board)
        if best:
            sq = best[0][1]
            self.out(f"=== {square_name(sq)}/{eval_after(self.board, sq):.2f}/0.01")
        else:
            self.out("=== PA")
        self.out("status waiting")

    def hint(self, n: int) -> None:
        self.out("status thinking")
        for line in self.search_lines(n):
            self.out(line)
        self.out("status")

    def analyze(self) -> None:
        b = Board()
        b.cells, b.to_move = list(self.start.cells), self.start.to_move
        self.out(f"analysis 0 {b.disc_diff(b.to_move):.2f}")
        for i, mv in enumerate(self.history, 1):
            b.play(mv)
            self.out(f"analysis {i} {b.disc_diff(b.to_move):.2f}")

    def handle(self, line: str) -> bool:
        words = line.split()
        if not words:
            return True
        cmd, rest = words[0], line.strip()[len(words[0]):].strip()
        if cmd == "nboard":
            self.out("set myname ScriptedNBoard")
        elif cmd == "set" and len(words) >= 2:
            value = rest[len(words[1]):].strip()
            if words[1] == "depth" and value.isdigit():
                self.depth = int(value)
            elif words[1] == "game":
                self.set_game(value)
        elif cmd == "move":
            self.move(rest)
        elif cmd == "ping":
            self.out(f"pong {rest}")
        elif cmd == "go":
            self.go()
        elif cmd == "hint":
            self.hint(int(rest) if rest.isdigit() else 1)
        elif cmd == "analyze":
            self.analyze()
        elif cmd == "learn":
            while self.learn_forever:
                time.sleep(60)
            self.out("learned")
        elif cmd == "quit":
            return False
        return True


def pass_game() -> list[str]:
    """A seeded random game from the start in which each side passes at least once before the
    end; the same list on every run."""
    for seed in range(10_000):
        rng = random.Random(seed)
        b, moves, passed = Board(), [], set()
        while not b.game_over():
            legal = b.legal()
            if not legal:
                passed.add(b.to_move)
                moves.append("PA")
                b.play(None)
                continue
            sq = rng.choice(legal)
            moves.append(square_name(sq))
            b.play(sq)
        if passed == {BLACK, WHITE}:
            return moves
    raise SystemExit("no game with passes by both sides found")


def main() -> int:
    if sys.argv[1:] == ["--pass-game"]:
        print(" ".join(pass_game()))
        return 0
    learn_forever = sys.argv[1:] == ["--learn-forever"]
    if sys.argv[1:] and not learn_forever:
        print(__doc__, file=sys.stderr)
        return 2
    engine = Engine()
    engine.learn_forever = learn_forever
    for line in sys.stdin:
        if not engine.handle(line.rstrip("\r\n")):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())
