#!/usr/bin/env python3
"""A scripted xboard (CECP) chess engine whose capabilities are chosen on its command line, for
the tests of `kibitzer probe --c2w PROFILE` and `kibitzer c2w suggest -- ENGINE`.

Usage: winboard_caps.py [OPTION...]

Options (default in brackets); whatever an option turns off is answered
`Error (unknown command): CMD`:
  --name NAME         the name in `feature myname="NAME"` [WinboardCaps 1.0]
  --init MODE         how it takes a position [setboard]:
                        setboard   `feature setboard=1`, `setboard FEN`
                        edit       setboard=0; xboard edit mode: `edit`, then `#` (clear the
                                   board), `Pe2`/`Ke1`... (a piece of the current colour, `x`
                                   empties the square), `c` (toggle the colour, White first),
                                   `.` (leave). The side to move is kept; castling rights come
                                   from kings and rooks on their home squares; no en passant
                        fen-lines  setboard=0; ColChess: `fen` alone, then one line each for the
                                   board, the side to move, castling and the en passant square,
                                   then up to two digits-only lines (halfmove clock, move
                                   number), taken if they come next
                        none       setboard=0; `setboard`, `edit` and `fen` are all unknown
  --movenow yes|no    `?` during a search makes it move at once; no: `?` is an unknown
                      command and the search goes on [yes]
  --st yes|no         `st N`: N seconds a move [yes]
  --sd WORD|none      the word of its depth command (`sd`, `depth` like GNU Chess 6) [sd]
  --level FORM        `level MPS BASE INC` [standard]:
                        standard   BASE in minutes or MIN:SEC
                        minutes    a BASE with a colon is answered `Error (bad level): LINE`
                        base-inc   an MPS other than 0 is answered `Error (bad level): LINE`
                        none       `level` is an unknown command
  --time yes|no       `feature time=1` and `time`/`otim` in centiseconds; no: time=0 [yes]
  --hint yes|no|silent  `hint` gets `Hint: MOVE`; silent: no answer [yes]
  --draw decline|accept|no  `draw` gets `tellopponent I decline` or `offer draw`; no:
                      `feature draw=0` [decline]
  --hash WORD|none    the word of its hash command: `hash 32`, `hash 32M`, or `hash` alone and
                      the size on the next, digits-only line [none]
  --ping yes|no       `feature ping=1`, `ping N` gets `pong N` (during a search: after the
                      move) [yes]
  --v1                a protocol-1 engine: no features; `protover` is an unknown command
                      (take --ping no with it: a v1 engine has no ping)
  --gnu               GNU Chess 6.2.7's manners in xboard mode: the banner `Chess` at start;
                      `feature done=0`, one feature a line, `feature done=1` 0.1 s later;
                      each GUI move echoed as `1. e2e4`; its own move as `1. ... e7e5` then
                      `My move is : e7e5` (no `move`); every `pong` said twice
  --lose-input SECS   drop whatever arrives in the first SECS seconds, as GNU Chess 6.2.7
                      does in most of its starts (it then prints its banner and hangs) [0]

Its move (python-chess for the rules): a mate in one if there is one, else the capture of the
most valuable piece, else the first legal move in UCI order; ties go to the first in UCI order.
It prints `move e7e8q` and, when that ends the game, the result (`1-0 {White mates}`...).
GUI moves: coordinates (`e2e4`, `usermove e2e4`) or SAN python-chess can read; a move it cannot
play gets `Illegal move: MOVE`.

Thinking time: with a depth limit D, D*60 ms (the thinking lines of `post` never say a depth
above D); else `st N`: N s less 50 ms; else the engine's clock (`time`, or the level's base)
divided by MPS (30 when 0), at least 50 ms; else 0.5 s. With `post`, a line
`DEPTH SCORE TIME_CS NODES PV` at once and then every 100 ms. During a search `?` moves now,
`quit` exits, `force`, `new`, `result` and `undo` end the search without a move (then run),
`go` is ignored, and everything else (`ping` too) is run after the move. Standard library and
python-chess only; single-threaded, reading its input with select(); every line is written
with one write and flushed at once. `new` drops the depth limit and the `time` clock, not `st`
or `level`. `quit` or the end of the input: exit 0.
"""

from __future__ import annotations

import argparse
import os
import re
import select
import time

import chess

VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
         chess.KING: 100}
COORD = re.compile(r"^[a-h][1-8][a-h][1-8][qrbnQRBN]?$")
EDIT_PIECE = re.compile(r"^([PNBRQKXpnbrqkx])([a-h][1-8])$")
# Commands answered with nothing.
SILENT = {"xboard", "accepted", "rejected", "random", "computer", "easy", "hard", "name", "ics"}
# Commands that end a search without a move; they are run once it has stopped.
ABORT = {"force", "new", "result", "undo"}


def send(line: str) -> None:
    data = (line + "\n").encode()
    while data:
        n = os.write(1, data)
        data = data[n:]


def number(cmd: str, words: list[str], old: float | None) -> float | None:
    """The number a command takes; `old` and an error message when it has none."""
    try:
        return float(words[1])
    except (IndexError, ValueError):
        send(f"Error (bad argument): {cmd}")
        return old


def choose(board: chess.Board) -> tuple[chess.Move | None, int]:
    """Its move and the score it reports for it (centipawns; 100000 for a mate)."""
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    for mv in moves:
        board.push(mv)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return mv, 100000
    best, best_value = None, 0
    for mv in moves:
        if board.is_capture(mv):
            victim = chess.PAWN if board.is_en_passant(mv) else board.piece_type_at(mv.to_square)
            if VALUE[victim] > best_value:
                best, best_value = mv, VALUE[victim]
    if best is not None:
        return best, best_value * 100
    return (moves[0], 0) if moves else (None, 0)


def result_line(board: chess.Board) -> str | None:
    out = board.outcome()
    if out is None:
        return None
    if out.termination == chess.Termination.CHECKMATE:
        return "1-0 {White mates}" if out.winner == chess.WHITE else "0-1 {Black mates}"
    why = out.termination.name.replace("_", " ").capitalize()
    return f"1/2-1/2 {{{why}}}"


class Engine:
    def __init__(self, opts: argparse.Namespace) -> None:
        self.o = opts
        self.inbuf = b""
        self.eof = False
        self.pending: list[str] = []
        self.board = chess.Board()
        self.engine_color = chess.BLACK
        self.force = False
        self.post = False
        self.depth: int | None = None
        self.st: float | None = None
        self.level: tuple[int, float, float] | None = None  # MPS, base (s), increment (s)
        self.clock_cs: float | None = None
        self.expect: str | None = None  # "edit", "fen", "fen-num", "hash": a multi-line input
        self.fen_parts: list[str] = []
        self.edit_map: dict[chess.Square, chess.Piece] = {}
        self.edit_color = chess.WHITE

    # -- input and output
    def unknown(self, word: str) -> None:
        send(f"Error (unknown command): {word}")

    def read(self, timeout: float | None = None) -> str | None:
        """The next command (queued ones first); None when `timeout` passes first."""
        if self.pending and timeout is None:
            return self.pending.pop(0)
        deadline = None if timeout is None else time.monotonic() + max(0.0, timeout)
        while True:
            i = self.inbuf.find(b"\n")
            if i >= 0:
                line, self.inbuf = self.inbuf[:i], self.inbuf[i + 1:]
                return line.decode("utf-8", "replace").rstrip("\r")
            if self.eof:
                if self.inbuf:
                    line, self.inbuf = self.inbuf, b""
                    return line.decode("utf-8", "replace").rstrip("\r")
                os._exit(0)
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([0], [], [], wait)
            if not ready:
                return None
            data = os.read(0, 65536)
            if data:
                self.inbuf += data
            else:
                self.eof = True

    def run(self) -> None:
        if self.o.gnu:
            send("Chess")
        if self.o.lose_input > 0:
            deadline = time.monotonic() + self.o.lose_input
            while (left := deadline - time.monotonic()) > 0:
                ready, _, _ = select.select([0], [], [], left)
                if ready and not os.read(0, 65536):
                    os._exit(0)
        while True:
            cmd = self.read()
            if cmd is not None:
                self.handle(cmd)

    # -- commands
    def handle(self, cmd: str) -> None:
        words = cmd.split()
        if self.expect and self.continued(cmd.strip(), words):
            return
        if not words:
            return
        head, o = words[0], self.o
        if head == "quit":
            os._exit(0)
        elif head in SILENT:
            pass
        elif head == "protover" and not self.o.v1:
            self.features()
        elif head == "new":
            self.board = chess.Board()
            self.engine_color, self.force = chess.BLACK, False
            self.depth = self.clock_cs = None
        elif head in ("force", "result"):
            self.force = True
        elif head == "go":
            self.force = False
            self.engine_color = self.board.turn
            self.think()
        elif head == "playother":
            self.force = False
            self.engine_color = not self.board.turn
        elif head in ("white", "black"):
            turn = chess.WHITE if head == "white" else chess.BLACK
            board = chess.Board(self.board.fen())
            board.turn, board.ep_square = turn, None
            self.board, self.engine_color = board, not turn
        elif head in ("post", "nopost"):
            self.post = head == "post"
        elif head in ("undo", "remove"):
            for _ in range(1 if head == "undo" else 2):
                if self.board.move_stack:
                    self.board.pop()
        elif head == "?":
            if o.movenow == "no":
                self.unknown("?")
        elif head == "ping" and o.ping == "yes":
            for _ in range(2 if o.gnu else 1):
                send(f"pong {words[1] if len(words) > 1 else ''}".rstrip())
        elif head == "setboard" and o.init == "setboard":
            self.set_fen(cmd.split(None, 1)[1] if len(words) > 1 else "")
        elif head == "edit" and o.init == "edit":
            self.expect, self.edit_color = "edit", chess.WHITE
            self.edit_map = self.board.piece_map()
        elif head == "fen" and o.init == "fen-lines" and len(words) == 1:
            self.expect, self.fen_parts = "fen", []
        elif head == "st" and o.st == "yes":
            self.st = number(cmd, words, self.st)
            self.level = None  # st and level erase each other's effect
        elif head == o.sd and o.sd != "none":
            depth = number(cmd, words, self.depth)
            self.depth = None if depth is None else max(1, int(depth))
        elif head == "level" and o.level != "none":
            self.set_level(cmd, words)
        elif head in ("time", "otim") and o.time == "yes":
            centiseconds = number(cmd, words, self.clock_cs)
            if head == "time":
                self.clock_cs = centiseconds
        elif head == "hint" and o.hint != "no":
            mv, _ = choose(self.board)
            if mv is not None and o.hint == "yes":
                send(f"Hint: {mv.uci()}")
        elif head == "draw" and o.draw != "no":
            send("offer draw" if o.draw == "accept" else "tellopponent I decline")
        elif head == o.hash and o.hash != "none":
            if len(words) == 1:
                self.expect = "hash"
            elif not re.fullmatch(r"\d+[mM]?", words[1]):
                send(f"Error (bad argument): {cmd}")
        elif head == "usermove" and len(words) > 1:
            self.gui_move(words[1])
        elif not self.gui_move(head, quiet=True):
            self.unknown(head)

    def continued(self, line: str, words: list[str]) -> bool:
        """Takes `line` as part of a multi-line input under way; False if it is not one."""
        if self.expect == "edit":
            if line == ".":
                self.expect = None
                self.end_edit()
            elif line == "#":
                self.edit_map = {}
            elif line == "c":
                self.edit_color = not self.edit_color
            elif line == "quit":
                os._exit(0)
            elif m := EDIT_PIECE.match(line):
                sq = chess.parse_square(m.group(2))
                if m.group(1) in "xX":
                    self.edit_map.pop(sq, None)
                else:
                    kind = chess.Piece.from_symbol(m.group(1)).piece_type
                    self.edit_map[sq] = chess.Piece(kind, self.edit_color)
            return True  # anything else in edit mode is ignored
        if self.expect == "fen" and len(words) == 1:
            self.fen_parts.append(words[0])
            if len(self.fen_parts) == 4:
                self.expect = "fen-num"
                self.set_fen(" ".join(self.fen_parts) + " 0 1")
            return True
        if self.expect == "fen-num" and line.isdigit():
            if len(self.fen_parts) == 4:
                self.board.halfmove_clock = int(line)
            else:
                self.board.fullmove_number = max(1, int(line))
            self.fen_parts.append(line)
            self.expect = "fen-num" if len(self.fen_parts) < 6 else None
            return True
        if self.expect == "hash" and line.isdigit():
            self.expect = None
            return True
        self.expect = None
        return False

    def features(self) -> None:
        o, flag = self.o, lambda on: 1 if on else 0
        if o.gnu:
            send("feature done=0")
            for f in (f'myname="{o.name}"', f"ping={flag(o.ping == 'yes')}",
                      f"setboard={flag(o.init == 'setboard')}", "usermove=1",
                      f"time={flag(o.time == 'yes')}", f"draw={flag(o.draw != 'no')}",
                      "sigint=0", "sigterm=0", "colors=0", "analyze=1", 'variants="normal"'):
                send(f"feature {f}")
            time.sleep(0.1)
            send("feature done=1")
            return
        send(f'feature myname="{o.name}" ping={flag(o.ping == "yes")} '
             f'setboard={flag(o.init == "setboard")} usermove=0 time={flag(o.time == "yes")} '
             f'draw={flag(o.draw != "no")} sigint=0 sigterm=0 colors=0 analyze=0')
        send("feature done=1")

    def set_fen(self, fen: str) -> None:
        try:
            board = chess.Board(fen)
        except ValueError:
            send("tellusererror Illegal position")
            return
        self.board = board

    def end_edit(self) -> None:
        board = chess.Board(None)
        board.set_piece_map(self.edit_map)
        board.turn = self.board.turn
        board.castling_rights = chess.BB_CORNERS
        board.castling_rights = board.clean_castling_rights()
        self.board = board

    def set_level(self, cmd: str, words: list[str]) -> None:
        try:
            mps, base_text, inc = int(words[1]), words[2], float(words[3])
            if ":" in base_text:
                minutes, seconds = base_text.split(":")
                base = int(minutes) * 60 + float(seconds)
            else:
                base = float(base_text) * 60
            if len(words) != 4 or mps < 0:
                raise ValueError
        except (IndexError, ValueError):
            send(f"Error (bad level): {cmd}")
            return
        if (self.o.level == "minutes" and ":" in base_text) or (
                self.o.level == "base-inc" and mps != 0):
            send(f"Error (bad level): {cmd}")
            return
        self.level = (mps, base, inc)
        self.st = None  # st and level erase each other's effect

    def gui_move(self, text: str, quiet: bool = False) -> bool:
        """Plays a move from the GUI; False (nothing said) if `text` is no move and `quiet`."""
        try:
            if COORD.match(text):
                mv = self.board.parse_uci(text.lower())
            else:
                mv = self.board.parse_san(text)
        except chess.InvalidMoveError:
            if quiet and not COORD.match(text):
                return False
            send(f"Illegal move: {text}")
            return True
        except ValueError:  # IllegalMoveError, AmbiguousMoveError
            mv = chess.Move.null()
        if not mv:
            send(f"Illegal move: {text}")
            return True
        if self.o.gnu:
            send(f"{self.board.fullmove_number}. {mv.uci()}")
        self.board.push(mv)
        if not self.force and self.board.turn == self.engine_color:
            self.think()
        return True

    # -- search
    def budget(self) -> float:
        """How long a search lasts, in seconds."""
        if self.depth is not None:
            return self.depth * 0.06
        if self.st is not None:
            return max(0.0, self.st - 0.05)
        clock = self.clock_cs / 100 if self.clock_cs is not None else None
        if clock is None and self.level is not None:
            clock = self.level[1]
        if clock is not None:
            mps = self.level[0] if self.level is not None else 0
            return max(0.05, clock / (mps or 30))
        return 0.5

    def think(self) -> None:
        mv, score = choose(self.board)
        if mv is None:
            end = result_line(self.board)
            if end:
                send(end)
            return
        start = time.monotonic()
        length = self.budget()
        ply = 0
        while True:
            now = time.monotonic()
            if now - start >= length:
                break
            if self.post and now - start >= 0.1 * ply:
                ply += 1
                depth = ply if self.depth is None else min(ply, self.depth)
                send(f"{depth} {score} {int((now - start) * 100)} {ply * 1000} {mv.uci()}")
            next_post = start + 0.1 * ply if self.post else start + length
            cmd = self.read(min(next_post, start + length) - time.monotonic())
            if cmd is None:
                continue
            head = cmd.split()[0] if cmd.split() else ""
            if head == "quit":
                os._exit(0)
            elif head == "?" and self.o.movenow == "yes":
                break
            elif head == "?":
                self.unknown("?")
            elif head == "go":
                continue  # already thinking for the side on move
            elif head in ABORT:
                self.pending.append(cmd)
                return
            else:
                self.pending.append(cmd)
        if self.o.gnu:
            send(f"{self.board.fullmove_number}. ... {mv.uci()}")
            send(f"My move is : {mv.uci()}")
            self.board.push(mv)
        else:
            self.board.push(mv)
            send(f"move {mv.uci()}")
        end = result_line(self.board)
        if end:
            send(end)


def main() -> None:
    p = argparse.ArgumentParser(usage="winboard_caps.py [OPTION...]", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--name", default="WinboardCaps 1.0")
    p.add_argument("--sd", default="sd", metavar="WORD|none")
    p.add_argument("--hash", default="none", metavar="WORD|none")
    p.add_argument("--v1", action="store_true")
    p.add_argument("--gnu", action="store_true")
    p.add_argument("--lose-input", type=float, default=0.0, metavar="SECS")
    for option, choices in [("init", "setboard edit fen-lines none"), ("movenow", "yes no"),
                            ("st", "yes no"), ("level", "standard minutes base-inc none"),
                            ("time", "yes no"), ("hint", "yes no silent"),
                            ("draw", "decline accept no"), ("ping", "yes no")]:
        p.add_argument(f"--{option}", choices=choices.split(), default=choices.split()[0])
    Engine(p.parse_args()).run()


if __name__ == "__main__":
    main()
