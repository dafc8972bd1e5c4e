#!/usr/bin/env python3
"""Regenerate the sample recordings in recordings/.

Each recording is a real capture: python-chess (a client nobody in this project wrote) starts
`kibitzer record -o FILE -- ENGINE` in place of the engine and talks to a real Debian engine
through it. While it runs, python-chess's own DEBUG log of every line it sent and received is
kept beside the recording (`NAME.client.log`), and afterwards the recording is checked against
that log line for line and read back with `kibitzer dump`.

Usage:
    cargo build --release
    python3 scripts/make-recordings.py                 # all of them
    python3 scripts/make-recordings.py fairymax-cecp-game stockfish-analysis
    python3 scripts/make-recordings.py --kibitzer target/debug/kibitzer --out /tmp/recs

The NBoard recording (nboard-scripted-engine) is driven by a small GUI stand-in in this file,
since python-chess has no NBoard client; so is fairymax-c2w, a GUI that drives Fairy-Max as
Chess Academy would under recordings/fairymax.c2w (`kibitzer record --c2w`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.engine
import chess.pgn

ROOT = Path(__file__).resolve().parent.parent

# gnuchess 6.2.7 sometimes never answers `protover 2` (a startup race inside gnuchess, seen
# without kibitzer too); python-chess then gives up on the handshake after 2 s and the session
# is useless. Such a run is thrown away and the whole recording made again.
ATTEMPTS = 60


class Retry(Exception):
    """This session is unusable (see the message); record it again."""


@dataclass
class ClientLog:
    """What python-chess says it sent and received, from its own DEBUG log records."""

    sent: list[str] = field(default_factory=list)
    received: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class Capture(logging.Handler):
    """Collects chess.engine's log records; the format strings are python-chess 1.x's own."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.log = ClientLog()

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args if isinstance(record.args, tuple) else ()
        if record.msg == "%s: << %s" and len(args) == 2:
            self.log.sent.append(str(args[1]))
        elif record.msg == "%s: >> %s" and len(args) == 2:
            self.log.received.append(str(args[1]))
        elif record.msg == "%s: stderr >> %s" and len(args) == 2:
            self.log.stderr.append(str(args[1]))
        elif record.levelno >= logging.WARNING:
            self.log.problems.append(record.getMessage())


class ClientLogging:
    """Routes chess.engine's DEBUG log to a file and to a Capture for one session."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.capture = Capture()

    def __enter__(self) -> ClientLog:
        self.file = logging.FileHandler(self.path, mode="w", encoding="utf-8")
        self.file.setFormatter(logging.Formatter("%(relativeCreated)10.1f %(levelname)s %(message)s"))
        lg = logging.getLogger("chess.engine")
        lg.setLevel(logging.DEBUG)
        lg.addHandler(self.file)
        lg.addHandler(self.capture)
        return self.capture.log

    def __exit__(self, *exc: object) -> None:
        lg = logging.getLogger("chess.engine")
        lg.removeHandler(self.file)
        lg.removeHandler(self.capture)
        self.file.close()


class LenientXBoard(chess.engine.XBoardProtocol):
    """python-chess 1.11 refuses any engine without `feature setboard=1`. Fairy-Max 5.0b declares
    `setboard=0` (it sets positions up with `edit`), so python-chess alone cannot play it. Every
    game here starts from the initial position, where python-chess never sends `setboard`, so
    the check is waived just before `feature done=1` ends the handshake. Nothing is changed on
    the wire: the recording holds fairymax's real `setboard=0`.

    GNU Chess 6.2.7 (Debian 12) announces its moves console-style even with `--xboard`:
    `1. ... b8c6` then `My move is : b8c6`, never `move b8c6`. XBoard takes the `N. ... MOVE`
    line as the move and GNOME Chess the `My move is : ` one; python-chess knows neither, so
    `My move is : X` is handed to it as `move X`. The line is logged (and recorded) as sent.
    """

    GNUCHESS_MOVE = "My move is : "

    def line_received(self, line: str) -> None:
        if line.startswith("feature") and "done=1" in line and not self.features.get("setboard"):
            self.features["setboard"] = 1
        super().line_received(line)

    def _line_received(self, line: str) -> None:
        if not line.startswith(self.GNUCHESS_MOVE):
            return super()._line_received(line)
        logging.getLogger("chess.engine").debug("%s: >> %s", self, line)
        move = "move " + line[len(self.GNUCHESS_MOVE):].strip()
        self.line_received(move)
        if self.command:
            self.command._line_received(move)


def recorder(kibitzer: Path, out: Path, engine: list[str], protocol: str) -> list[str]:
    return [str(kibitzer), "record", "-o", str(out), "--protocol", protocol, "--", *engine]


def write_pgn(board: chess.Board, path: Path, white: str, black: str, event: str) -> None:
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = event
    game.headers["Site"] = "kibitzer sample recording"
    game.headers["Date"] = time.strftime("%Y.%m.%d")
    game.headers["White"] = white
    game.headers["Black"] = black
    outcome = board.outcome(claim_draw=True)
    game.headers["Result"] = outcome.result() if outcome else "*"
    path.write_text(str(game) + "\n\n", encoding="utf-8")


VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def material(board: chess.Board, colour: chess.Color) -> int:
    return sum(VALUES[p.piece_type] * (1 if p.color == colour else -1) for p in board.piece_map().values())


def policy_move(board: chess.Board, rng: random.Random) -> chess.Move:
    """A deliberately simple player: a two-ply material search (my move, the opponent's best
    reply), mates first, ties broken at random. It loses to the engines, but not at once."""
    me = board.turn
    best, choices = None, []
    for m in board.legal_moves:
        board.push(m)
        if board.is_checkmate():
            board.pop()
            return m
        worst = None
        for reply in board.legal_moves:
            board.push(reply)
            v = -1000 if board.is_checkmate() else material(board, me)
            board.pop()
            worst = v if worst is None else min(worst, v)
        board.pop()
        score = material(board, me) if worst is None else worst
        if best is None or score > best:
            best, choices = score, [m]
        elif score == best:
            choices.append(m)
    return rng.choice(choices)


# --- the sessions -------------------------------------------------------------------------


def stockfish_selfplay(kib: Path, out: Path, name: str, options: dict, opening: list[str],
                       limit: chess.engine.Limit, max_plies: int, event: str) -> None:
    """Stockfish against itself from `opening`, each ply with `limit`, until the game ends
    (python-chess `is_game_over(claim_draw=True)`) or `max_plies`."""
    rec = out / f"{name}.jsonl"
    engine = chess.engine.SimpleEngine.popen_uci(recorder(kib, rec, ["/usr/games/stockfish"], "uci"))
    try:
        if options:
            engine.configure(options)
        board = chess.Board()
        for san in opening:
            board.push_san(san)
        while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
            result = engine.play(board, limit, game=name, info=chess.engine.INFO_ALL)
            if result.move is None:
                break
            board.push(result.move)
    finally:
        engine.quit()
    # Threads 2 makes the games differ from run to run, and some end in an early repetition.
    if board.ply() < 40:
        raise Retry(f"game over after only {board.ply()} plies")
    write_pgn(board, out / f"{name}.pgn", "Stockfish 15.1", "Stockfish 15.1", event)


def stockfish_game(kib: Path, out: Path) -> None:
    """Stockfish against itself from a fixed opening, depth-limited, Hash and Threads set."""
    stockfish_selfplay(kib, out, "stockfish-uci-game", {"Hash": 32, "Threads": 2, "UCI_ShowWDL": True},
                       ["e4", "c5", "Nf3", "d6", "d4", "cxd4", "Nxd4", "Nf6", "Nc3", "a6"],
                       chess.engine.Limit(depth=9), 80, "stockfish self-play, depth 9")


def stockfish_long_game(kib: Path, out: Path) -> None:
    """Stockfish against itself at half a second a move, default options: the info flood of
    a longer time control (a line per iteration up to depth 20 or so, long PVs)."""
    stockfish_selfplay(kib, out, "stockfish-uci-long-game", {},
                       ["d4", "d5", "c4", "e6", "Nc3", "Nf6", "Bg5", "Be7"],
                       chess.engine.Limit(time=0.5), 100, "stockfish self-play, 0.5 s a move")


def stockfish_analysis(kib: Path, out: Path) -> None:
    """`go infinite` with MultiPV 2 on a Nimzo-Indian middlegame, stopped after ~1.5 s."""
    rec = out / "stockfish-analysis.jsonl"
    engine = chess.engine.SimpleEngine.popen_uci(recorder(kib, rec, ["/usr/games/stockfish"], "uci"))
    try:
        engine.configure({"Hash": 16})
        board = chess.Board()
        for san in "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 Nf3 c5 O-O Nc6 a3 Bxc3 bxc3 dxc4 Bxc4 Qc7".split():
            board.push_san(san)
        with engine.analysis(board, multipv=2) as analysis:
            deadline = time.monotonic() + 1.5
            for _info in analysis:
                if time.monotonic() >= deadline:
                    break
            analysis.stop()
            best = analysis.wait()
        if best.move is None:
            raise RuntimeError("analysis ended without a best move")
    finally:
        engine.quit()


def xboard_game(kib: Path, out: Path, name: str, argv: list[str], engine_white: bool, limit: chess.engine.Limit,
                seed: int, max_plies: int, title: str) -> None:
    """The engine against the simple policy; the result is sent to the engine at the end."""
    rec = out / f"{name}.jsonl"
    rng = random.Random(seed)
    engine = chess.engine.SimpleEngine.popen(LenientXBoard, recorder(kib, rec, argv, "xboard"))
    board = chess.Board()
    proxy_pid = engine.transport.get_pid()

    def abandon() -> None:
        # Ends the session (the proxy forwards SIGTERM to the engine); the run is retried.
        os.kill(proxy_pid, signal.SIGTERM)

    try:
        if engine.protocol.features.get("done") is None and not engine.protocol.features.get("myname"):
            raise Retry("no features after protover 2")
        while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
            if board.turn == (chess.WHITE if engine_white else chess.BLACK):
                # A search that never ends (see LenientXBoard) would hang python-chess forever.
                timer = threading.Timer(60, abandon)
                timer.start()
                try:
                    result = engine.play(board, limit, game=name, info=chess.engine.INFO_ALL)
                finally:
                    timer.cancel()
                if result.resigned or result.move is None:
                    break
                board.push(result.move)
            else:
                board.push(policy_move(board, rng))
        if board.is_game_over(claim_draw=True):
            engine.send_game_result(board)
        engine.quit()
    finally:
        engine.close()
    white, black = (title, "python-chess policy") if engine_white else ("python-chess policy", title)
    write_pgn(board, out / f"{name}.pgn", white, black, f"{title} vs a simple python-chess policy")


def fairymax_game(kib: Path, out: Path) -> None:
    xboard_game(kib, out, "fairymax-cecp-game", ["/usr/games/fairymax"], engine_white=True,
                limit=chess.engine.Limit(depth=4), seed=2, max_plies=100, title="Fairy-Max 5.0b")


def gnuchess_game(kib: Path, out: Path) -> None:
    xboard_game(kib, out, "gnuchess-cecp-game", ["/usr/games/gnuchess", "--xboard"], engine_white=False,
                limit=chess.engine.Limit(time=0.2), seed=11, max_plies=100, title="GNU Chess 6.2.7")


def nboard_scripted(kib: Path, out: Path) -> ClientLog:
    """A GUI stand-in for the scripted NBoard engine (python-chess has no NBoard client); the
    same session as tests/record_nboard.rs: passes by both sides, in `move` and in `set game`."""
    rec = out / "nboard-scripted-engine.jsonl"
    script = ROOT / "tests" / "engines" / "nboard_engine.py"
    game = subprocess.run([sys.executable, str(script), "--pass-game"], check=True, capture_output=True,
                          text=True).stdout.split()
    passes = [i for i, m in enumerate(game) if m == "PA"]
    log = ClientLog()
    # Run from the repository root so the header's argv names the script as the tests do.
    proc = subprocess.Popen(recorder(kib, rec, ["python3", str(script.relative_to(ROOT))], "nboard"),
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin and proc.stdout

    def send(line: str) -> None:
        log.sent.append(line)
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(pred) -> list[str]:
        got = []
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended early; got {got}")
            line = line.rstrip("\n")
            log.received.append(line)
            got.append(line)
            if pred(line):
                return got

    def set_game(moves: list[str]) -> str:
        tags = "".join(f"{'BW'[i % 2]}[{m}]" for i, m in enumerate(moves))
        return f"set game {GGF_HEAD}{tags};)"

    def go() -> str:
        send("go")
        return until(lambda l: l.startswith("=== "))[-1][4:].split("/")[0]

    send("nboard 2")
    send("set depth 4")
    send(set_game([]))
    send("ping 1")
    until(lambda l: l == "pong 1")
    go()
    black_pass, white_pass = passes[0], passes[-1]
    send(set_game(game[:black_pass - 1]))
    send("ping 2")
    until(lambda l: l == "pong 2")
    go()
    send(f"move {game[black_pass - 1]}/-2.00/1.5")
    if go() != "PA":
        raise RuntimeError("engine did not pass")
    send("move PA")
    send("hint 2")
    until(lambda l: l == "status")
    for mv in game[black_pass + 1:white_pass - 1]:
        send(f"move {mv}//0.25")
    send(set_game(game[:white_pass]))
    send("ping 3")
    until(lambda l: l == "pong 3")
    if go() != "PA":
        raise RuntimeError("engine did not pass")
    for mv in game[white_pass:]:
        send(f"move {mv}")
    go()
    send("learn")
    until(lambda l: l == "learned")
    send("quit")
    proc.stdin.close()
    proc.wait(timeout=20)
    log.received.extend(proc.stdout.read().splitlines())
    return log


def read_c2w(path: Path) -> dict[str, str]:
    """A Chess Academy profile's keys (lower-cased) and values; kibitzer's own parser is the
    strict one, this GUI stand-in only needs to read a good profile."""
    keys = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith((";", "#", "[")) and "=" in line:
            k, v = line.split("=", 1)
            keys[k.strip().lower()] = v.strip()
    return keys


def fairymax_c2w(kib: Path, out: Path) -> ClientLog:
    """A GUI stand-in that drives Fairy-Max as Chess Academy would under recordings/fairymax.c2w,
    written from the Chess Academy protocol text: `kibitzer record --c2w` starts the engine the
    profile names, and every command is sent in the form the profile declares. Chess Academy
    drives WinBoard engines and takes from the profile what protocol v2 features would tell,
    so the handshake is `xboard` alone.

    Game 1 from the initial position: `level` in the MIN:SEC form (EngineTypeOfCmdLevel has 2)
    with `time`/`otim` before each GUI move (it has 4), six GUI moves, `hint` (EngineCmdHint).
    Game 2 from a position set up with `edit` (EngineInitPos=1 without EngineCmdSB), searched
    with `st` (EngineCmdST) and then `sd` (EngineCmdSD). No `?` (EngineMoveNow=0), no `draw`
    (no EngineCmdDraw)."""
    profile_path = ROOT / "recordings" / "fairymax.c2w"
    p = read_c2w(profile_path)
    rec = out / "fairymax-c2w.jsonl"
    log = ClientLog()
    proc = subprocess.Popen([str(kib), "record", "-o", str(rec), "--c2w", str(profile_path.relative_to(ROOT)),
                             "--c2w-home", "/usr/games"],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin and proc.stdout

    def send(line: str) -> None:
        log.sent.append(line)
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    def until(pred) -> list[str]:
        got = []
        while True:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"engine ended early; got {got[-5:]}")
            line = line.rstrip("\n")
            log.received.append(line)
            got.append(line)
            if pred(line):
                return got

    def engine_move(board: chess.Board) -> None:
        mv = until(lambda l: l.startswith("move "))[-1].split()[1]
        board.push(chess.Move.from_uci(mv))

    level = int(p.get("enginetypeofcmdlevel", "0"))
    send("xboard")
    # Game 1.
    board = chess.Board()
    rng = random.Random(5)
    clock = 3000
    send("new")
    send("level 40 0:30 0" if level & 2 else "level 40 1 0" if level & 1 else "level 0 1 0")
    send("post")
    for _ in range(6):
        if level & 4:
            send(f"time {clock}")
            send(f"otim {clock}")
        mv = policy_move(board, rng)
        board.push(mv)
        send(mv.uci())
        engine_move(board)
        clock -= 150
        if board.is_game_over():
            break
    if p.get("enginecmdhint"):
        send(p["enginecmdhint"])
        until(lambda l: l.startswith("Hint:"))
    # Game 2, from a position of the user's board.
    fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
    board = chess.Board(fen)
    send("new")
    send("force")
    if p.get("engineinitpos") == "1" and not p.get("enginecmdsb"):
        send("edit")
        send("#")
        for colour in (chess.WHITE, chess.BLACK):
            if colour == chess.BLACK:
                send("c")
            for sq, piece in sorted(board.piece_map().items()):
                if piece.color == colour:
                    send(piece.symbol().upper() + chess.square_name(sq))
        send(".")
    else:
        raise RuntimeError("this stand-in sets positions up only with edit, as fairymax.c2w says")
    send(f"{p['enginecmdst']} 1")
    send("go")
    engine_move(board)
    send(f"{p['enginecmdsd']} 4")
    for _ in range(3):
        mv = policy_move(board, rng)
        board.push(mv)
        send(mv.uci())
        engine_move(board)
    send("quit")
    proc.stdin.close()
    proc.wait(timeout=20)
    log.received.extend(proc.stdout.read().splitlines())
    return log


GGF_HEAD = ("(;GM[Othello]PC[NBoard]DT[2026-01-01 00:00:00 GMT]PB[tester]PW[ScriptedNBoard]RE[?]TI[15:00]TY[8]"
            "BO[8 ---------------------------O*------*O--------------------------- *]")


# --- checks --------------------------------------------------------------------------------


def read_recording(path: Path) -> tuple[dict, list[dict]]:
    with path.open(encoding="utf-8") as f:
        header = json.loads(f.readline())
        events = [json.loads(line) for line in f if line.strip()]
    return header, events


def check(kib: Path, rec: Path, log: ClientLog) -> list[str]:
    """Recorded traffic must equal what the client logged; `kibitzer dump` must read it cleanly."""
    problems = []
    header, events = read_recording(rec)
    if header.get("kibitzer") != "recording":
        problems.append("not a kibitzer recording header")
    by_src = {s: [e.get("text", "") for e in events if e.get("src") == s] for s in ("gui", "engine", "stderr")}
    for what, recorded, logged in (("sent", by_src["gui"], log.sent), ("received", by_src["engine"], log.received),
                                   ("stderr", by_src["stderr"], log.stderr)):
        if recorded != logged:
            n = next((i for i, (a, b) in enumerate(zip(recorded, logged)) if a != b), min(len(recorded), len(logged)))
            problems.append(f"{what}: recorded {len(recorded)} lines, client logged {len(logged)}; first difference at "
                            f"#{n}: {recorded[n:n + 1]} vs {logged[n:n + 1]}")
    dump = subprocess.run([str(kib), "dump", str(rec)], capture_output=True, text=True)
    if dump.returncode != 0 or dump.stderr.strip():
        problems.append(f"kibitzer dump: exit {dump.returncode}, stderr {dump.stderr.strip()!r}")
    kinds = [e.get("kind") for e in events if e.get("src") == "proxy"]
    if "engine_exit" not in kinds:
        problems.append(f"no engine_exit event (proxy events: {kinds})")
    print(f"  {rec.name}: {len(events)} events, gui {len(by_src['gui'])}, engine {len(by_src['engine'])}, "
          f"stderr {len(by_src['stderr'])}, proxy {kinds}, {rec.stat().st_size} bytes")
    return problems


SESSIONS = {
    "stockfish-uci-game": stockfish_game,
    "stockfish-uci-long-game": stockfish_long_game,
    "stockfish-analysis": stockfish_analysis,
    "fairymax-cecp-game": fairymax_game,
    "gnuchess-cecp-game": gnuchess_game,
    "nboard-scripted-engine": None,
    "fairymax-c2w": None,
}


def run_one(name: str, kib: Path, out: Path) -> list[str]:
    rec = out / f"{name}.jsonl"
    if name == "nboard-scripted-engine":
        log = nboard_scripted(kib, out)
        return check(kib, rec, log)
    if name == "fairymax-c2w":
        log = fairymax_c2w(kib, out)
        return check(kib, rec, log)
    session = SESSIONS[name]
    for attempt in range(1, ATTEMPTS + 1):
        with ClientLogging(out / f"{name}.client.log") as log:
            try:
                session(kib, out)
            except (Retry, chess.engine.EngineError, TimeoutError, asyncio.TimeoutError) as e:
                print(f"  {name}: attempt {attempt} failed ({type(e).__name__}: {e}); recording again", flush=True)
                continue
        if any("Timeout during initialization" in p for p in log.problems):
            print(f"  {name}: attempt {attempt}: engine did not finish the handshake; recording again")
            continue
        if log.problems:
            print(f"  {name}: python-chess logged {len(log.problems)} warnings, e.g. {log.problems[0]!r} "
                  f"(all in {name}.client.log)")
        return check(kib, rec, log)
    return [f"no usable session in {ATTEMPTS} attempts"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", metavar="NAME", help=f"recordings to make (default: all): {', '.join(SESSIONS)}")
    ap.add_argument("--kibitzer", type=Path, default=ROOT / "target" / "release" / "kibitzer")
    ap.add_argument("--out", type=Path, default=ROOT / "recordings")
    args = ap.parse_args()
    kib = args.kibitzer.resolve()
    if not kib.is_file():
        print(f"{kib} missing: run `cargo build --release` first", file=sys.stderr)
        return 2
    unknown = [n for n in args.names if n not in SESSIONS]
    if unknown:
        ap.error(f"unknown recording(s) {unknown}; known: {', '.join(SESSIONS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    failed = False
    for name in args.names or list(SESSIONS):
        print(f"{name}:", flush=True)
        problems = run_one(name, kib, args.out.resolve())
        for p in problems:
            print(f"  PROBLEM: {p}")
        failed |= bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
