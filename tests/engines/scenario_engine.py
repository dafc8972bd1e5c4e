#!/usr/bin/env python3
"""A scripted engine that plays one real-world fault scenario (docs: tests/it/check_scenarios_*.rs).

Usage: scenario_engine.py SCENARIO

The scenario picks the protocol: `cecp-*` speaks CECP (xboard), `nboard-*` NBoard, anything
else UCI. Without a fault the engine is well behaved and chess-ignorant: it plays the moves of
a fixed opening line (LINE below, chosen by the number of moves played so far), so a test
must keep its positions on that line. Every line is written with one write and flushed at once
unless the scenario is about buffering. Standard library only; single-threaded, reading its
input with select() so that a scenario can stop reading, close its input or die at a precise
point.

UCI searches: `go movetime T` lasts T ms, `go depth N` 20 ms a ply, `go nodes N` N microseconds,
`go infinite` / `go ponder` until `stop` / `ponderhit`, anything else 0.2 s; an `info` line comes
at once and then every 100 ms. Commands other than `isready`, `stop`, `ponderhit` and `quit` that
arrive during a search are handled after its `bestmove`.

UCI scenarios
  well-behaved               no fault
  no-uciok                   answers `uci` with `id` lines but never `uciok` (H7, H8)
  uciok-at-boot              prints `uciok` at start-up, before any `uci` (H10)
  no-readyok                 never answers `isready` (S10)
  readyok-after-search       `isready` during a search is answered only after `bestmove` (S1-S3)
  readyok-late-after-search  as readyok-after-search, the readyok 0.3 s after the `bestmove`
  isready-stops-search       `isready` during a search ends it: `bestmove`, then `readyok` (S4)
  interleaved-readyok        `isready` during a search is answered by a garbled `0readyok` (S5)
  freeze-after-quick-go      a `go` within 1 s of its last `bestmove` freezes it (S12)
  slow-bestmove              every search lasts 2 s whatever its limits; commands sent meanwhile
                             are handled after `bestmove`, as a single-threaded engine does (L1, L2)
  ignores-movetime           `go movetime` searches until `stop` (L8)
  bestmove-in-ponder         leaves `go ponder` on its own at once (L3)
  infinite-as-200-ms         takes `go infinite` for a default 0.2 s search: `bestmove` by itself
  infinite-as-800-ms         the same with a default of 0.8 s
  ponder-as-search           takes `go ponder` for an ordinary search on its clock (a thirtieth of
                             it) and moves by itself
  ignores-stop               never answers `stop` (L4)
  null-move-a1a1             in a finished game answers `bestmove a1a1` (M1)
  crash-after-null-bestmove  in a finished game answers `bestmove 0000`, then dies by SIGSEGV (M2)
  exit-on-illegal-position   a `position` whose moves it cannot play: message on stderr, closes
                             its input, exits with code 1 1.5 s later (M3, P1)
  illegal-bestmove           answers `bestmove e2e5` (M6)
  info-after-bestmove        one more `info ... pv` after each `bestmove` (L11)
  kxr-castling               castles as king-takes-rook (`e1h1`) in standard chess (N5)
  score-without-unit         `info time 10 score -368 depth 3`: no `cp`/`mate` (N7)
  leading-whitespace         ` info ...` lines start with a space (N10)
  crlf-output                ends every line with CR LF (N11)
  unflushed-output           stdout fully buffered: output leaves in 4096-byte blocks, the rest
                             only at exit (B1)
  info-flood                 3000 `info` lines in one burst per search (B3, B4)
  endless-flood              on its first `go`, `info` lines as fast as it can write them,
                             for ever (input ignored)
  crash-mid-search           dies by SIGSEGV after the second `info` of a search (L10)
  exit-mid-search            exits with code 3 after the second `info` of a search (S9)
  crash-at-start             reads its first command, complains on stderr, exits 1 (P5)
  ignores-quit               ignores `quit` and the end of its input; runs until killed (P2, P3)
  exit-after-N               exits with code 0 on reading its Nth command, unanswered (N a number)

CECP scenarios (features `myname ping=1 setboard=1 done=1` unless said otherwise)
  cecp-ok                    no fault
  cecp-done0-slow            `feature done=0`, then 2.5 s of loading before the features (H1)
  cecp-banner-only           prints `Chess`, then never answers `protover` (H4, GNU Chess 6.2.7)
  cecp-no-ping               declares no `ping=1` (H5)
  cecp-late-features         features (with usermove=1) only 0.8 s after `protover`; a bare move
                             it got before is rejected as an unknown command (H9)
  cecp-move-after-undo       thinks 1 s; an `undo` meanwhile does not stop its move (L12)
  cecp-slow-move             every move takes 2 s, whatever `st`/`time` say (L13, T9)
  cecp-endless-flood         on its first move to think, thinking lines as fast as it can write
                             them, for ever (input ignored)
  cecp-illegal-move-reply    answers every GUI move with `Illegal move: MOVE` (M4)
  cecp-illegal-move          plays `move e7e4` (M8)
  cecp-pong-before-move      answers `ping` at once even while it owes its move

NBoard scenarios
  nboard-ok                  no fault
  nboard-version-1-only      Edax: `nboard 2` gets `Error: Edax expected "nboard 1" protocol` on
                             stderr (H12)
  nboard-spaced-move         Edax: `=== f5 0.00 0.0` with spaces instead of slashes (N9)
  nboard-ignores-trailing-pass  Edax before the fix: a `set game` ending in a pass leaves it on
                             the wrong side, so it answers `=== PA/-64.00/0.0` (M7)
"""

from __future__ import annotations

import os
import resource
import select
import signal
import sys
import time

# The opening every scenario plays from the start position: 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.O-O Bc5
# 5.d3 d6 6.c3 O-O 7.h3 h6.
LINE = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8c5",
        "d2d3", "d7d6", "c2c3", "e8g8", "h2h3", "h7h6"]
# Fool's mate: White is checkmated after these moves.
MATED = ["f2f3", "e7e5", "g2g4", "d8h4"]


class Wire:
    """Line input from fd 0 through select(), line output to fd 1 with one write per line."""

    def __init__(self, eol: bytes = b"\n", buffered: bool = False) -> None:
        self.inbuf = b""
        self.eof = False
        self.eol = eol
        self.buffered = buffered
        self.held = b""

    def readline(self, timeout: float | None = None) -> str | None:
        """The next line; None when `timeout` passes first; EOFError at the end of the input."""
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
                raise EOFError
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([0], [], [], wait)
            if not ready:
                return None
            data = os.read(0, 65536)
            if data:
                self.inbuf += data
            else:
                self.eof = True

    def send(self, line: str, eol: bool = True) -> None:
        data = line.encode() + (self.eol if eol else b"")
        if self.buffered:
            # What C stdio does on a pipe: nothing leaves until a whole block is full.
            self.held += data
            while len(self.held) >= 4096:
                write_all(self.held[:4096])
                self.held = self.held[4096:]
        else:
            write_all(data)

    def send_raw(self, data: bytes) -> None:
        write_all(data)

    def exit(self, code: int = 0) -> None:
        """Ends the process; buffered output leaves now, as stdio flushes at exit."""
        if self.held:
            write_all(self.held)
            self.held = b""
        os._exit(code)


def write_all(data: bytes) -> None:
    while data:
        n = os.write(1, data)
        data = data[n:]


def stderr(text: str) -> None:
    os.write(2, (text + "\n").encode())


def die_by(sig: signal.Signals) -> None:
    # A signal's default action may dump core; a test must not leave core files behind.
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(sig, signal.SIG_DFL)
    os.kill(os.getpid(), sig)
    time.sleep(5)
    os._exit(70)


def line_move(moves: list[str]) -> str:
    return LINE[len(moves)] if len(moves) < len(LINE) else "a2a3"


# ---------------------------------------------------------------------------------------- UCI

START = {}
for f, piece in zip("abcdefgh", "RNBQKBNR"):
    START[f + "1"], START[f + "2"] = piece, "P"
    START[f + "8"], START[f + "7"] = piece.lower(), "p"


def playable(moves: list[str]) -> bool:
    """A crude check that only asks whether each move starts on a piece of the side to move."""
    board = dict(START)
    white = True
    for mv in moves:
        piece = board.get(mv[:2])
        if piece is None or piece.isupper() != white or len(mv) < 4:
            return False
        board.pop(mv[:2])
        board[mv[2:4]] = piece
        white = not white
    return True


class Uci:
    def __init__(self, scenario: str) -> None:
        self.sc = scenario
        self.io = Wire(eol=b"\r\n" if scenario == "crlf-output" else b"\n",
                       buffered=scenario == "unflushed-output")
        self.moves: list[str] = []
        self.last_bestmove = -1.0
        self.search_start = time.monotonic()

    # -- input
    def read(self, timeout: float | None = None) -> str | None:
        try:
            return self.io.readline(timeout)
        except EOFError:
            self.end()
            raise AssertionError("unreachable")

    def end(self) -> None:
        """The GUI quit (or closed our input)."""
        if self.sc == "ignores-quit":
            # Like GNU Chess 6.2.7 on EOF: it keeps running until someone kills it.
            while True:
                time.sleep(1)
        self.io.exit(0)

    # -- output
    def send(self, line: str) -> None:
        self.io.send(line)

    def best(self) -> str:
        if self.moves == MATED:
            return {"null-move-a1a1": "a1a1"}.get(self.sc, "0000")
        if self.sc == "illegal-bestmove":
            return "e2e5"
        mv = line_move(self.moves)
        if self.sc == "kxr-castling" and mv == "e1g1":
            return "e1h1"
        return mv

    def info(self, depth: int) -> None:
        # The search time it reports is the real one: GUIs compare it with what they measure.
        ms = int((time.monotonic() - self.search_start) * 1000)
        if self.sc == "score-without-unit":
            self.send(f"info time {ms} score -368 depth {depth}")
            return
        if self.moves == MATED:
            self.send(f"info depth {depth} score mate 0 nodes 0 time {ms}")
            return
        pv = "" if self.sc in ("illegal-bestmove", "kxr-castling") else f" pv {self.best()}"
        lead = " " if self.sc == "leading-whitespace" else ""
        self.send(f"{lead}info depth {depth} seldepth {depth} score cp {12 + depth} "
                  f"nodes {depth * 1000} nps 100000 time {ms}{pv}")

    # -- commands
    def run(self) -> None:
        if self.sc == "uciok-at-boot":
            self.send("uciok")
        if self.sc == "crash-at-start":
            self.read()
            stderr("scenario_engine: cannot load network file weights.bin")
            self.io.exit(1)
        exit_after = None
        if self.sc.startswith("exit-after-"):
            exit_after = int(self.sc.removeprefix("exit-after-"))
        commands = 0
        while True:
            cmd = self.read()
            if cmd is not None:
                commands += 1
                if commands == exit_after:
                    self.io.exit(0)
                self.handle(cmd)

    def handle(self, cmd: str) -> None:
        words = cmd.split()
        head = words[0] if words else ""
        if head == "uci":
            self.send(f"id name Scenario {self.sc}")
            self.send("id author kibitzer tests")
            if self.sc == "unflushed-output":
                # Enough option lines that one 4096-byte block leaves and cuts a line in two.
                for i in range(100):
                    self.send(f"option name Scenario Option {i:02} type spin default 1 min 0 max 100")
            else:
                self.send("option name Hash type spin default 16 min 1 max 1024")
            if self.sc != "no-uciok":
                self.send("uciok")
        elif head == "isready":
            if self.sc != "no-readyok":
                self.send("readyok")
        elif head == "position":
            self.position(words)
        elif head == "go":
            self.go(words)
        elif head == "quit":
            self.end()

    def position(self, words: list[str]) -> None:
        moves = words[words.index("moves") + 1:] if "moves" in words else []
        if self.sc == "exit-on-illegal-position" and not playable(moves):
            # Stockfish#7000: the engine gives up on a move it cannot play. Its input closes
            # first, so a GUI that writes on gets EPIPE, then the process exits.
            stderr(f"scenario_engine: illegal move in position: {' '.join(moves)}")
            os.close(0)
            time.sleep(1.5)
            self.io.exit(1)
        self.moves = moves

    def go(self, words: list[str]) -> None:
        now = time.monotonic()
        if self.sc == "freeze-after-quick-go" and now - self.last_bestmove < 1.0:
            # stockfish.wasm#13: frozen; only `quit` or the end of the input ends it.
            while True:
                cmd = self.read()
                if cmd is not None and cmd.split()[:1] == ["quit"]:
                    self.end()

        def number(key: str) -> int | None:
            if key in words:
                i = words.index(key)
                if i + 1 < len(words) and words[i + 1].lstrip("-").isdigit():
                    return int(words[i + 1])
            return None

        infinite = "infinite" in words
        ponder = "ponder" in words
        if number("movetime") is not None:
            length = number("movetime") / 1000
        elif number("depth") is not None:
            length = 0.02 * number("depth")
        elif number("nodes") is not None:
            # A million nodes a second: a search with a length but no time limit.
            length = number("nodes") / 1_000_000
        else:
            length = 0.2
        if self.sc == "slow-bestmove":
            length = 2.0
        if self.sc == "ignores-movetime" and number("movetime") is not None:
            infinite = True
        if self.sc.startswith("infinite-as-") and infinite:
            # The classic "unknown limit -> default time" bug.
            infinite, length = False, int(self.sc.split("-")[2]) / 1000
        if self.sc == "ponder-as-search" and ponder:
            ponder, length = False, (number("wtime") or 1000) / 30 / 1000
        if self.sc == "bestmove-in-ponder" and ponder:
            # At once: the probe's silence before `ponderhit` is 0.15 s, and a busy machine
            # may run this script late.
            ponder, length = False, 0.0
        if self.sc == "endless-flood":
            block = b"".join(
                f"info depth {d} seldepth {d} score cp 12 nodes {d * 1000} nps 100000 "
                f"time {d} pv {self.best()}\n".encode() for d in range(1, 101))
            while True:
                self.io.send_raw(block)
        if self.sc == "info-flood":
            self.io.send_raw(b"".join(
                f"info depth {1 + i // 100} seldepth {1 + i // 100} score cp 12 nodes {i * 10} "
                f"nps 100000 time {i // 100} pv {self.best()}\n".encode() for i in range(3000)))
        start = self.search_start = time.monotonic()
        later: list[str] = []
        readyok_after = 0
        depth = 0
        next_info = start
        while True:
            now = time.monotonic()
            if now >= next_info:
                depth += 1
                self.info(depth)
                next_info = now + 0.1
                if depth == 2 and self.sc == "crash-mid-search":
                    die_by(signal.SIGSEGV)
                if depth == 2 and self.sc == "exit-mid-search":
                    self.io.exit(3)
            if not (infinite or ponder) and now - start >= length:
                break
            wait = next_info - now
            if not (infinite or ponder):
                wait = min(wait, start + length - now)
            cmd = self.read(wait)
            if cmd is None:
                continue
            head = cmd.split()[0] if cmd.split() else ""
            if head == "quit":
                self.end()
            elif self.sc == "slow-bestmove" and head != "stop":
                later.append(cmd)
            elif head == "isready":
                if self.sc in ("readyok-after-search", "readyok-late-after-search"):
                    readyok_after += 1
                elif self.sc == "isready-stops-search":
                    readyok_after += 1
                    break
                elif self.sc == "interleaved-readyok":
                    self.send("0readyok")
                elif self.sc != "no-readyok":
                    self.send("readyok")
            elif head == "stop":
                if self.sc != "ignores-stop":
                    break
            elif head == "ponderhit":
                ponder = False
                start, length = time.monotonic(), 0.2
            else:
                later.append(cmd)
        best = self.best()
        # The final `info` right before `bestmove`, as the UCI text asks.
        depth += 1
        self.info(depth)
        self.send(f"bestmove {best}")
        self.last_bestmove = time.monotonic()
        if self.sc == "info-after-bestmove":
            self.info(depth + 1)
        if self.sc == "crash-after-null-bestmove" and best == "0000":
            # Long enough for the GUI's next command to arrive before the crash.
            time.sleep(0.8)
            die_by(signal.SIGSEGV)
        if readyok_after and self.sc == "readyok-late-after-search":
            time.sleep(0.3)
        for _ in range(readyok_after):
            self.send("readyok")
        for cmd in later:
            self.handle(cmd)


# --------------------------------------------------------------------------------------- CECP

class Cecp:
    def __init__(self, scenario: str) -> None:
        self.sc = scenario
        self.io = Wire()
        self.moves: list[str] = []
        self.force = False
        self.engine_white = False
        self.post = False
        self.usermove = False
        self.pending: list[str] = []

    def send(self, line: str) -> None:
        self.io.send(line)

    def read(self, timeout: float | None = None) -> str | None:
        if self.pending and timeout is None:
            return self.pending.pop(0)
        try:
            return self.io.readline(timeout)
        except EOFError:
            self.io.exit(0)
            raise AssertionError("unreachable")

    def features(self) -> None:
        ping = "" if self.sc == "cecp-no-ping" else " ping=1"
        usermove = " usermove=1" if self.sc == "cecp-late-features" else ""
        self.send(f'feature myname="Scenario {self.sc}"{ping} setboard=1{usermove} done=1')
        self.usermove = bool(usermove)

    def run(self) -> None:
        if self.sc == "cecp-banner-only":
            self.send("Chess")
            while True:
                self.read()
        exit_after = None
        if self.sc.startswith("exit-after-"):
            exit_after = int(self.sc.removeprefix("exit-after-"))
        commands = 0
        while True:
            cmd = self.read()
            if cmd is not None:
                commands += 1
                if commands == exit_after:
                    self.io.exit(0)
                self.handle(cmd)

    def on_move(self) -> bool:
        white_to_move = len(self.moves) % 2 == 0
        return not self.force and white_to_move == self.engine_white

    def handle(self, cmd: str) -> None:
        words = cmd.split()
        head = words[0] if words else ""
        if head == "protover":
            if self.sc == "cecp-done0-slow":
                self.send("feature done=0")
                time.sleep(2.5)
            elif self.sc == "cecp-late-features":
                time.sleep(0.8)
            self.features()
        elif head == "new":
            self.moves, self.force, self.engine_white = [], False, False
        elif head == "force":
            self.force = True
        elif head == "go":
            self.force = False
            self.engine_white = len(self.moves) % 2 == 0
            self.think()
        elif head == "post":
            self.post = True
        elif head == "nopost":
            self.post = False
        elif head == "ping" and len(words) > 1:
            self.send(f"pong {words[1]}")
        elif head == "quit":
            self.io.exit(0)
        elif head == "undo" and self.moves:
            self.moves.pop()
        elif head == "remove":
            self.moves = self.moves[:-2]
        elif head == "usermove" and len(words) > 1 and self.usermove:
            self.gui_move(words[1])
        elif is_move(head) and not self.usermove:
            self.gui_move(head)
        elif is_move(head):
            self.send(f"Error (unknown command): {head}")
        elif head in ("xboard", "accepted", "rejected", "level", "st", "sd", "time", "otim",
                      "hard", "easy", "random", "computer", "setboard", "result", "variant"):
            pass
        else:
            self.send(f"Error (unknown command): {head}")

    def gui_move(self, mv: str) -> None:
        if self.sc == "cecp-illegal-move-reply":
            self.send(f"Illegal move: {mv}")
            return
        self.moves.append(mv)
        if self.on_move():
            self.think()

    def think(self) -> None:
        if self.sc == "cecp-endless-flood":
            block = b"".join(f"{d} 12 {d} {d * 1000} e2e4\n".encode() for d in range(1, 101))
            while True:
                self.io.send_raw(block)
        length = {"cecp-move-after-undo": 1.0, "cecp-slow-move": 2.0}.get(self.sc, 0.1)
        mv = "e7e4" if self.sc == "cecp-illegal-move" else line_move(self.moves)
        start = time.monotonic()
        ply = 0
        while True:
            now = time.monotonic()
            if now - start >= length:
                break
            if self.post and now - start >= 0.1 * ply:
                ply += 1
                self.send(f"{ply} {10 + ply} {int((now - start) * 100)} {ply * 1000} {mv}")
            cmd = self.read(min(0.1, start + length - now))
            if cmd is None:
                continue
            head = cmd.split()[0] if cmd.split() else ""
            if head == "quit":
                self.io.exit(0)
            elif head in ("force", "result"):
                self.force = True
                return
            elif head == "go":
                # Already thinking for the side on move: nothing changes (L14).
                continue
            elif head == "ping" and self.sc == "cecp-pong-before-move":
                self.send(f"pong {cmd.split()[1]}")
            elif head == "undo" and self.sc == "cecp-move-after-undo":
                # Arasan#48: the reply was chosen already; the undo is handled after it.
                self.pending.append(cmd)
            else:
                self.pending.append(cmd)
        self.send(f"move {mv}")
        self.moves.append(mv)
        pending, self.pending = self.pending, []
        for cmd in pending:
            self.handle(cmd)


def is_move(word: str) -> bool:
    return (len(word) in (4, 5) and word[0] in "abcdefgh" and word[1] in "12345678"
            and word[2] in "abcdefgh" and word[3] in "12345678")


# ------------------------------------------------------------------------------------- NBoard

class Nboard:
    def __init__(self, scenario: str) -> None:
        self.sc = scenario
        self.io = Wire()

    def run(self) -> None:
        while True:
            try:
                cmd = self.io.readline()
            except EOFError:
                self.io.exit(0)
            if cmd is None:
                continue
            words = cmd.split()
            head = words[0] if words else ""
            if head == "nboard":
                if self.sc == "nboard-version-1-only" and words[1:] != ["1"]:
                    stderr('Error: Edax expected "nboard 1" protocol')
                else:
                    self.io.send(f"set myname Scenario{self.sc}")
            elif head == "ping" and len(words) > 1:
                self.io.send(f"pong {words[1]}")
            elif head == "go":
                if self.sc == "nboard-spaced-move":
                    self.io.send("=== f5 0.00 0.0")
                elif self.sc == "nboard-ignores-trailing-pass":
                    self.io.send("=== PA/-64.00/0.0")
                else:
                    self.io.send("=== F5/0.00/0.0")
            elif head == "quit":
                self.io.exit(0)


def main() -> None:
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        os._exit(2)
    scenario = sys.argv[1]
    if scenario.startswith("cecp-"):
        Cecp(scenario).run()
    elif scenario.startswith("nboard-"):
        Nboard(scenario).run()
    else:
        Uci(scenario).run()


if __name__ == "__main__":
    main()
