#!/usr/bin/env python3
"""Hostile engines for the commands that drive one (probe, replay, c2w suggest): each mode is
one way an engine can try to hang, exhaust or outlive the program driving it.

    hostile_set.py MODE        MODE: garbage | ignores-sigterm | huge-line | setsid-grandchild
                               | exit-after-N, speaking UCI; with a `cecp-` prefix, xboard

- garbage: answers every command with binary junk (invalid UTF-8, C0/C1 controls, NULs, lines
  cut anywhere), never a valid answer.
- ignores-sigterm: answers the handshake, then ignores `quit`, the end of its input, SIGTERM,
  SIGINT and SIGHUP; only SIGKILL ends it.
- huge-line: answers correctly, but its first answer is preceded by one 100 MB line.
- setsid-grandchild: starts a grandchild in a session of its own (setsid) that would live for
  10 minutes, then plays correctly.
- exit-after-N: plays correctly and exits after its Nth command.

With $HOSTILE_PIDS set to a directory, the engine writes its pid to engine.pid there, and the
grandchild to grandchild.pid, so a test can tell whether anything outlived the command.
Its moves are legal (python-chess), so what a command finds is the mode's fault, not a bad move.
"""

import os
import signal
import sys
import time

import chess

HUGE = 100 * 1024 * 1024


def write_all(data: bytes) -> None:
    while data:
        try:
            n = os.write(1, data)
        except BrokenPipeError:
            os._exit(0)
        data = data[n:]


def out(line: str) -> None:
    write_all(line.encode() + b"\n")


def garbage(seed: int) -> bytes:
    # Deterministic junk: every byte value, so invalid UTF-8, NUL, ESC, C1 and CR all occur.
    return bytes((seed * 131 + i * 29) % 256 for i in range(200)) + b"\xff\xfe\x1b]52;c;\x07\n"


def immortal() -> None:
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)


def note_pid(name: str) -> None:
    d = os.environ.get("HOSTILE_PIDS")
    if d:
        path = os.path.join(d, f"{name}.pid")
        with open(path + ".tmp", "w") as f:
            f.write(str(os.getpid()))
        os.rename(path + ".tmp", path)


def spawn_grandchild() -> None:
    pid = os.fork()
    if pid == 0:
        os.setsid()
        if os.fork() == 0:
            # The grandchild: a session of its own, no tie to the engine's process group.
            note_pid("grandchild")
            for fd in (0, 1, 2):
                os.close(fd)
            time.sleep(600)
            os._exit(0)
        os._exit(0)
    os.waitpid(pid, 0)


class Engine:
    def __init__(self, mode: str, cecp: bool) -> None:
        self.mode = mode
        self.cecp = cecp
        self.commands = 0
        self.exit_after = int(mode.removeprefix("exit-after-")) if mode.startswith("exit-after-") else None
        self.huge_sent = False
        self.board = chess.Board()
        self.forced = False
        self.owed = False

    def run(self) -> None:
        note_pid("engine")
        if self.mode == "ignores-sigterm":
            immortal()
        if self.mode == "setsid-grandchild":
            spawn_grandchild()
        for raw in sys.stdin.buffer:
            self.commands += 1
            if self.commands == self.exit_after:
                os._exit(0)
            words = raw.decode("utf-8", "replace").split()
            if not words:
                continue
            if self.mode == "garbage":
                write_all(garbage(self.commands))
                continue
            if self.mode == "huge-line" and not self.huge_sent:
                self.huge_sent = True
                chunk = b"info string " + b"x" * (1024 * 1024)
                for _ in range(HUGE // len(chunk)):
                    write_all(chunk)
                write_all(b"\n")
            if words[0] == "quit":
                break
            if self.cecp:
                self.cecp_command(words)
            else:
                self.uci_command(words)
        if self.mode == "ignores-sigterm":
            while True:
                time.sleep(1)

    def bestmove(self) -> None:
        self.owed = False
        mv = self.pick()
        out(f"info depth 1 score cp 10 nodes 10 time 1 pv {mv}")
        out(f"bestmove {mv}")

    def pick(self) -> str:
        for mv in self.board.legal_moves:
            return self.board.uci(mv)
        return "0000"

    def uci_position(self, words: list[str]) -> None:
        chess960 = self.board.chess960
        try:
            i = words.index("moves") if "moves" in words else len(words)
            if words[1] == "fen":
                self.board = chess.Board(" ".join(words[2:i]), chess960=chess960)
            else:
                self.board = chess.Board(chess960=chess960)
            for mv in words[i + 1:]:
                self.board.push_uci(mv)
        except (ValueError, IndexError):
            self.board = chess.Board(chess960=chess960)

    def uci_command(self, words: list[str]) -> None:
        head = words[0]
        if head == "uci":
            out(f"id name Hostile {self.mode}")
            out("id author kibitzer tests")
            out("uciok")
        elif head == "isready":
            out("readyok")
        elif head == "setoption" and words[1:3] == ["name", "UCI_Chess960"]:
            self.board.chess960 = words[-1] == "true"
        elif head == "position":
            self.uci_position(words)
        elif head == "go":
            if self.mode == "ignores-sigterm":
                return  # thinks for ever
            self.owed = True
            if "infinite" in words or "ponder" in words:
                return  # until stop or ponderhit
            self.bestmove()
        elif head in ("stop", "ponderhit"):
            if self.owed:
                self.bestmove()

    def cecp_command(self, words: list[str]) -> None:
        head = words[0]
        if head == "protover":
            out(f'feature myname="Hostile {self.mode}" ping=1 setboard=1 usermove=1 '
                'sigint=0 sigterm=0 done=1')
        elif head == "ping":
            out(f"pong {words[1] if len(words) > 1 else ''}".rstrip())
        elif head == "new":
            self.board = chess.Board()
            self.forced = False
        elif head == "force":
            self.forced = True
        elif head == "setboard":
            try:
                self.board = chess.Board(" ".join(words[1:]))
            except ValueError:
                out(f"Error (bad FEN): {' '.join(words[1:])}")
        elif head in ("go", "usermove"):
            if head == "usermove":
                try:
                    self.board.push_uci(words[1])
                except (ValueError, IndexError):
                    out(f"Illegal move: {' '.join(words[1:])}")
                    return
                if self.forced:
                    return
            else:
                self.forced = False
            if self.mode == "ignores-sigterm":
                return
            mv = self.pick()
            if mv == "0000":
                return
            out(f"1 10 0 100 {mv}")
            out(f"move {mv}")
            self.board.push_uci(mv)
        elif head in ( "xboard", "level", "st", "sd", "post", "nopost", "hard",
                      "easy", "random", "computer", "accepted", "rejected", "otim", "time",
                      "result", "white", "black", "edit", ".", "#", "?", "hint",
                      "draw", "analyze", "exit", "undo", "remove"):
            pass
        else:
            out(f"Error (unknown command): {head}")


def main() -> None:
    if len(sys.argv) != 2 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    mode = sys.argv[1]
    cecp = mode.startswith("cecp-")
    Engine(mode.removeprefix("cecp-"), cecp).run()


if __name__ == "__main__":
    main()
