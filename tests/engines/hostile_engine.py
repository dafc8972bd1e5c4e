#!/usr/bin/env python3
"""An engine whose every free-text field carries terminal escape sequences: OSC 52 (writes the
clipboard), C1 CSI (U+009B), BEL, backspace, a bidi override (U+202E) and SGR conceal. It plays
the protocol correctly otherwise, so every kibitzer command that prints what it said has
something to escape. `--cecp` speaks xboard protocol 2 instead of UCI. Standard library only.
"""

import sys

PAYLOAD = "\x1b]52;c;SGVsbG8=\x07\u009b2J\x08\u202eevil\x1b[8m"


def out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def uci() -> None:
    for raw in sys.stdin:
        cmd = raw.split()
        if not cmd:
            continue
        if cmd[0] == "uci":
            out(f"id name Hostile{PAYLOAD}")
            out(f"id author Mallory{PAYLOAD}")
            out(f"option name Evil{PAYLOAD} type check default false")
            out("uciok")
        elif cmd[0] == "isready":
            out("readyok")
        elif cmd[0] == "go":
            sys.stderr.write(f"stderr{PAYLOAD}\n")
            sys.stderr.flush()
            out(f"info depth 1 score cp 10 pv e2e4 string {PAYLOAD}")
            out(f"info string {PAYLOAD}")
            out("bestmove e2e4")
        elif cmd[0] == "quit":
            return


def cecp() -> None:
    for raw in sys.stdin:
        cmd = raw.split()
        if not cmd:
            continue
        if cmd[0] == "protover":
            out(f'feature myname="Hostile{PAYLOAD}" setboard=1 usermove=1 ping=1 sigint=0 done=1')
        elif cmd[0] == "ping":
            out(f"pong {cmd[1]}")
        elif cmd[0] in ("go", "usermove"):
            out(f"1 10 0 100 e2e4 {PAYLOAD}")
            out("move e2e4" if cmd[0] == "go" else "move e7e5")
        elif cmd[0] == "quit":
            return
        elif cmd[0] in ("xboard", "new", "force", "level", "st", "sd", "post", "hard", "easy",
                        "random", "computer", "accepted", "rejected", "otim", "time", "setboard",
                        "result", "white", "black", "nopost", "edit", ".", "#"):
            continue
        else:
            out(f"Error (unknown command): {cmd[0]}{PAYLOAD}")


if __name__ == "__main__":
    cecp() if "--cecp" in sys.argv[1:] else uci()
