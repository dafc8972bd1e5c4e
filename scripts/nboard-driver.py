#!/usr/bin/env python3
"""Drive a real NBoard engine through `kibitzer record` the way the NBoard GUI does.

The GUI side follows the reference GUI's engine driver (weltyc/novello,
`external/api/ParsedEngine.java`) and response parser (weltyc/othello,
`protocol/ResponseParser.java`):

- `nboard 2` once, at the start;
- before each request (`go`, `hint N`, `learn`, `analyze`) the state update: `move X` when
  the game grew by exactly one move since the last update, else `set game GGF`; then
  `set contempt C` and `set depth D` when they changed; then `ping N`;
- the engine is ready when its last `pong` is at least the last ping;
- `=== MOVE EVAL TIME` with spaces is read as `MOVE/EVAL/TIME`; blank and unknown lines are
  ignored;
- `quit` at the end.

One session, two games: a game from the start position that the engine plays against itself
to the end (hints at a few plies, a contempt change, `learn` and `analyze` when it is over),
then a game set up where Black must pass (the engine's `go` answers the pass, the GUI plays
it with `move PA`), played on to its end and analysed. The recording goes to OUT/NAME.jsonl and the games
as the GUI played them, one GGF a line, to OUT/NAME.ggf.

Usage:
    nboard-driver.py --kibitzer BIN --out DIR --name NAME --cwd DIR [--depth D] -- ENGINE ARGS...
"""

from __future__ import annotations

import argparse
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "engines"))
from nboard_engine import BLACK, START_BO, Board, parse_square, square_name  # noqa: E402

# A real game in which Black has no move after these 28 moves (tests/it/record_nboard.rs).
BLACK_MUST_PASS = ("E6 D6 C3 D3 C4 B5 D2 F7 D7 C6 A6 D8 G8 F5 E8 C5 G4 F6 G7 H3 E7 F8 B6 H6 "
                   "G6 C7 B7 H8").split()
# How long one request may take before the session is given up.
WAIT = 60.0


class Failed(Exception):
    pass


class Game:
    """NBoardState's game: a start position and moves as `MOVE[/eval[/time]]`."""

    def __init__(self, moves: list[str] | None = None) -> None:
        self.moves: list[str] = []
        self.board = Board(START_BO)
        for m in moves or []:
            self.play(m)

    def play(self, text: str) -> None:
        mv = text.split("/")[0]
        sq = parse_square(mv)
        if sq is None and mv.upper() != "PA":
            raise Failed(f"not a move: {text}")
        if sq is not None and sq not in self.board.legal():
            raise Failed(f"illegal move {text}")
        if sq is None and self.board.legal():
            raise Failed(f"pass with a legal move: {text}")
        self.board.play(sq)
        self.moves.append(text)

    def over(self) -> bool:
        return self.board.game_over()

    def text(self, black: str, white: str) -> str:
        """The GGF text as NBoard writes it (COsGame.toString)."""
        moves = "".join(f"{'BW'[i % 2]}[{m}]" for i, m in enumerate(self.moves))
        return (f"(;GM[Othello]PC[NBoard]DT[2026-01-01 00:00:00 GMT]PB[{black}]PW[{white}]"
                f"RE[?]TI[15:00]TY[8]BO[{START_BO}]{moves};)")


def mli(text: str) -> str:
    """The `===` move list item as NBoard stores it: spaces read as slashes, move upper-cased,
    eval as `%.2f`, a zero time left out (OsMoveListItem.toString)."""
    parts = text.strip().split()
    parts = "/".join(parts).split("/")
    mv = parts[0].upper()
    if mv in ("PASS", "PA", "--"):
        mv = "PA"
    ev = parts[1] if len(parts) > 1 else ""
    tm = parts[2] if len(parts) > 2 else ""
    out = mv
    try:
        ev_s = f"{float(ev):.2f}" if ev else ""
    except ValueError:
        ev_s = ""
    try:
        tm_s = "" if not tm or float(tm) == 0 else tm
    except ValueError:
        tm_s = ""
    if ev_s or tm_s:
        out += "/" + ev_s
        if tm_s:
            out += "/" + tm_s
    return out


class ParsedEngine:
    def __init__(self, argv: list[str], cwd: str, log: list[str]) -> None:
        self.p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.log = log
        threading.Thread(target=self._read, daemon=True).start()
        self.last_ping = 0
        self.pong = 0
        self.name = ""
        self.old_game = ""
        self.old_contempt = 0
        self.old_depth = -1
        self.send("nboard 2")

    def _read(self) -> None:
        assert self.p.stdout is not None
        for line in self.p.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.p.stdin is not None
        self.log.append("< " + line)
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def receive(self, until: float) -> str | None:
        """The next engine line (handled as ResponseParser does), or None at `until`."""
        left = until - time.monotonic()
        if left <= 0:
            return None
        try:
            line = self.lines.get(timeout=left)
        except queue.Empty:
            return None
        if line is None:
            raise Failed("the engine exited")
        self.log.append("> " + line)
        words = line.split()
        if words[:1] == ["pong"] and len(words) > 1:
            self.pong = int(words[1])
        elif words[:2] == ["set", "myname"] and len(words) > 2:
            self.name = words[2]
        return line

    def update_state(self, game_text: str, contempt: int, depth: int) -> None:
        if game_text != self.old_game:
            diff = move_diff(self.old_game, game_text)
            self.send(f"move {diff}" if diff is not None else f"set game {game_text}")
            self.old_game = game_text
        if contempt != self.old_contempt:
            self.old_contempt = contempt
            self.send(f"set contempt {contempt}")
        if depth != self.old_depth:
            self.old_depth = depth
            self.send(f"set depth {depth}")
        self.last_ping += 1
        self.send(f"ping {self.last_ping}")

    def ready(self) -> bool:
        return self.pong >= self.last_ping

    def request(self, game_text: str, contempt: int, depth: int, command: str) -> list[str]:
        """Sends the state update and `command`; returns the lines until the engine is ready
        and, for `go`, has answered `===`, then until it has been quiet for a moment."""
        self.update_state(game_text, contempt, depth)
        self.send(command)
        until = time.monotonic() + WAIT
        got: list[str] = []
        need_move = command == "go"
        while not self.ready() or (need_move and not any(l.startswith("===") for l in got)):
            line = self.receive(until)
            if line is None:
                raise Failed(f"no answer to `{command}` within {WAIT} s")
            got.append(line)
        # Hints, learning and analysis have no end marker: the GUI shows what comes.
        while (line := self.receive(time.monotonic() + 0.5)) is not None:
            got.append(line)
        return got

    def terminate(self) -> None:
        self.send("quit")
        assert self.p.stdin is not None
        self.p.stdin.close()
        try:
            self.p.wait(20)
        except subprocess.TimeoutExpired:
            self.p.kill()
            raise Failed("kibitzer record did not end after quit")


def move_diff(old: str, new: str) -> str | None:
    """ParsedEngine.calcMoveDiff: the one move `new` adds to `old`, else None."""
    if len(new) <= len(old) or not old:
        return None
    loc = len(old) - 2
    if new[:loc] != old[:loc]:
        return None
    diff = new[loc:len(new) - 2]
    if diff.find("[") == 1 and diff.find("]") == len(diff) - 1:
        return diff[2:-1]
    return None


def play_out(e: ParsedEngine, game: Game, depth: int, hints_at: set[int],
             contempt_from: int | None) -> None:
    while not game.over():
        ply = len(game.moves)
        contempt = 100 if contempt_from is not None and ply >= contempt_from else 0
        text = game.text(e.name, e.name)
        if ply in hints_at and game.board.legal():
            got = e.request(text, contempt, depth, "hint 3")
            if not any(l.split()[:1] in (["search"], ["book"]) for l in got):
                raise Failed(f"hint 3 at ply {ply}: no search or book line")
        got = e.request(text, contempt, depth, "go")
        best = next(l for l in got if l.startswith("==="))
        game.play(mli(best[3:]))


def session(argv: list[str], cwd: str, depth: int, log: list[str]) -> list[Game]:
    e = ParsedEngine(argv, cwd, log)
    games = []
    first = Game()
    play_out(e, first, depth, hints_at={0, 9, 24}, contempt_from=30)
    contempt = 100
    e.request(first.text(e.name, e.name), contempt, depth, "learn")
    e.request(first.text(e.name, e.name), contempt, depth, "analyze")
    games.append(first)
    second = Game(BLACK_MUST_PASS)
    if second.board.legal() or second.board.to_move != BLACK:
        raise Failed("the pass position is wrong")
    play_out(e, second, depth, hints_at={29, 40}, contempt_from=0)
    # The GUI tells the engine of the last move only with its next request: analysing the
    # finished game puts the whole game on the wire (NTest's learning report of a game is
    # 200 KB; the first game has it).
    e.request(second.text(e.name, e.name), contempt, depth, "analyze")
    games.append(second)
    e.terminate()
    return games


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kibitzer", required=True)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--name", required=True)
    ap.add_argument("--cwd", required=True)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("engine", nargs="+")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    rec = a.out / f"{a.name}.jsonl"
    argv = [a.kibitzer, "record", "-o", str(rec), "--protocol", "nboard", "--", *a.engine]
    log: list[str] = []
    try:
        games = session(argv, a.cwd, a.depth, log)
    except Failed as err:
        print(f"{a.name}: {err}", file=sys.stderr)
        print("\n".join(log[-30:]), file=sys.stderr)
        return 1
    with open(a.out / f"{a.name}.ggf", "w") as f:
        for g in games:
            f.write(g.text("", "").replace("PB[]PW[]", "PB[GUI]PW[GUI]") + "\n")
    passes = sum(m.startswith("PA") for g in games for m in g.moves)
    print(f"{a.name}: {len(games)} games, {sum(len(g.moves) for g in games)} moves, "
          f"{passes} passes -> {rec}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
