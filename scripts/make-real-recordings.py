#!/usr/bin/env python3
"""Regenerate the real-GUI recordings in tests/fixtures/real/.

Every file there is a capture of a healthy session between a real client (XBoard 4.9.1 under a
virtual X server, PolyGlot 2.0.4, python-chess 1.11) and real Debian engines, made by putting
`kibitzer record -o FILE -- ENGINE` where the client expects the engine command. The recordings
are what the proxy wrote, unedited; beside each game is the client's own PGN of it (XBoard's
`-sgf` file, or python-chess's `chess.pgn.Game.from_board`).

Usage:
    cargo build --release
    python3 scripts/make-real-recordings.py                  # everything
    python3 scripts/make-real-recordings.py --list
    python3 scripts/make-real-recordings.py xboard-fairymax-vs-gnuchess fairy-stockfish-horde
    KIBITZER=/path/to/kibitzer python3 scripts/make-real-recordings.py --out /tmp/real

The kibitzer binary is $KIBITZER (default target/release/kibitzer). Each session runs in a
fresh temporary directory (the engines write book/learn/log files into their working directory
and $HOME, which is that directory too), and its files replace the old ones in the output
directory only when the session succeeded, so a rerun is safe. Needs the Debian packages
xboard, xvfb, polyglot, stockfish, fairymax, gnuchess, phalanx, sjeng, hoichess, toga2,
fairy-stockfish, and python-chess 1.11.

python-chess sessions are also checked line for line against python-chess's own DEBUG log of
what it sent and received (as scripts/make-recordings.py does); XBoard games are checked for a
finished PGN.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import chess
import chess.engine
import chess.pgn
import chess.variant

ROOT = Path(__file__).resolve().parent.parent
GAMES = Path("/usr/games")
# The engines run with this environment only: the build machine's environment is large, and
# GNU Chess 6.2.7 has been seen to abort with `buffer overflow detected` under it.
BASE_ENV = {"PATH": f"{GAMES}:/usr/bin:/bin", "LANG": "C.UTF-8"}
ATTEMPTS = 5


class Retry(Exception):
    """This session is unusable (see the message); make it again."""


# --- python-chess's own log, per engine ----------------------------------------------------


@dataclass
class ClientLog:
    sent: list[str] = field(default_factory=list)
    received: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)


class Capture(logging.Handler):
    """chess.engine's DEBUG records (`%s: << %s`, `%s: >> %s`, `%s: stderr >> %s`), kept per
    protocol object (its repr names the pid of the process python-chess started: the proxy)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.logs: dict[str, ClientLog] = {}
        self.problems: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        args = record.args if isinstance(record.args, tuple) else ()
        if len(args) == 2 and record.msg in ("%s: << %s", "%s: >> %s", "%s: stderr >> %s"):
            log = self.logs.setdefault(str(args[0]), ClientLog())
            {"%s: << %s": log.sent, "%s: >> %s": log.received, "%s: stderr >> %s": log.stderr}[record.msg].append(
                str(args[1]))
        elif record.levelno >= logging.WARNING:
            self.problems.append(record.getMessage())

    def for_pid(self, pid: int) -> ClientLog:
        for key, log in self.logs.items():
            if f"pid={pid})" in key:
                return log
        return ClientLog()


def read_recording(path: Path) -> tuple[dict, list[dict]]:
    with path.open(encoding="utf-8") as f:
        header = json.loads(f.readline())
        return header, [json.loads(line) for line in f if line.strip()]


def same_as_client(rec: Path, log: ClientLog) -> list[str]:
    """The recording's gui/engine/stderr lines must be python-chess's `<<`/`>>`/stderr lines."""
    problems = []
    _, events = read_recording(rec)
    by_src = {s: [e.get("text", "") for e in events if e.get("src") == s] for s in ("gui", "engine", "stderr")}
    for what, recorded, logged in (("sent", by_src["gui"], log.sent), ("received", by_src["engine"], log.received),
                                   ("stderr", by_src["stderr"], log.stderr)):
        if recorded != logged:
            n = next((i for i, (a, b) in enumerate(zip(recorded, logged)) if a != b), min(len(recorded), len(logged)))
            problems.append(f"{rec.name}: {what}: recorded {len(recorded)} lines, python-chess logged {len(logged)}; "
                            f"first difference at #{n}: {recorded[n:n + 1]} vs {logged[n:n + 1]}")
    return problems


class PythonChessSession:
    """Collects python-chess's log while a session runs and compares it with the recordings."""

    def __init__(self) -> None:
        self.capture = Capture()
        self.engines: list[tuple[Path, int]] = []

    def __enter__(self) -> "PythonChessSession":
        lg = logging.getLogger("chess.engine")
        lg.setLevel(logging.DEBUG)
        lg.addHandler(self.capture)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger("chess.engine").removeHandler(self.capture)

    def popen_uci(self, kib: Path, rec: Path, engine: list[str], cwd: Path) -> chess.engine.SimpleEngine:
        eng = chess.engine.SimpleEngine.popen_uci([str(kib), "record", "-o", str(rec), "--", *engine], cwd=str(cwd),
                                                  env=dict(BASE_ENV, HOME=str(cwd)))
        self.engines.append((rec, eng.transport.get_pid()))
        return eng

    def verify(self) -> list[str]:
        problems = []
        for rec, pid in self.engines:
            problems += same_as_client(rec, self.capture.for_pid(pid))
        return problems


def write_pgn(board: chess.Board, path: Path, white: str, black: str, event: str, result: str | None = None,
              extra: dict[str, str] | None = None) -> None:
    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = event
    game.headers["Site"] = "kibitzer real recording"
    game.headers["Date"] = time.strftime("%Y.%m.%d")
    game.headers["White"] = white
    game.headers["Black"] = black
    if result is None:
        outcome = board.outcome(claim_draw=True)
        result = outcome.result() if outcome else "*"
    game.headers["Result"] = result
    for k, v in (extra or {}).items():
        game.headers[k] = v
    path.write_text(str(game) + "\n\n", encoding="utf-8")


# --- XBoard games -------------------------------------------------------------------------------


@dataclass
class XBoardGame:
    """One XBoard game, engine against engine. `first`/`second` are the engine commands as
    XBoard gets them (-fcp/-scp), with `{kib}` for the kibitzer binary; the files they record
    (relative names, in XBoard's working directory) are `files`, mapped to their names here."""

    first: str
    second: str
    args: list[str]
    files: dict[str, str]


def xboard_command(game: XBoardGame, kib: Path) -> list[str]:
    return ["timeout", "-k", "10", "300", "xvfb-run", "-a", "xboard",
            "-fcp", game.first.format(kib=kib), "-scp", game.second.format(kib=kib),
            *game.args,
            "-mg", "1", "-sgf", "xboard.pgn", "-debug", "-nameOfDebugFile", "xboard.debug",
            "-xexit", "-saveSettingsOnExit", "false", "-settingsFile", "xboard.settings"]


def run_xboard(name: str, game: XBoardGame, kib: Path, work: Path, out: Path) -> list[str]:
    cmd = xboard_command(game, kib)
    (work / "command.txt").write_text(shlex.join(cmd) + "\n")
    (work / "xboard.settings").write_text("")
    pgn_path = work / "xboard.pgn"
    with (work / "xboard.stderr").open("w") as err_file:
        proc = subprocess.Popen(cmd, cwd=work, env=dict(BASE_ENV, HOME=str(work)), stdout=subprocess.DEVNULL,
                                stderr=err_file, start_new_session=True)
    # GNU Chess 6.2.7 sometimes exits during the handshake (after `stty: 'standard input':
    # Inappropriate ioctl for device` on its stderr), and XBoard then waits for it forever.
    # An engine that exits before XBoard has saved the game makes the session unusable.
    while proc.poll() is None:
        time.sleep(2)
        if not pgn_path.exists() and any('"kind":"engine_exit"' in (work / f).read_text(errors="replace")
                                         for f in game.files if (work / f).exists()):
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait()
            raise Retry("an engine exited in the middle of the game")
    err = (work / "xboard.stderr").read_text(errors="replace")
    if proc.returncode != 0:
        raise Retry(f"xboard exit {proc.returncode}: {err.strip()[-300:]}")
    if not pgn_path.exists():
        raise Retry("xboard wrote no PGN")
    with pgn_path.open() as f:
        pgn = chess.pgn.read_game(f)
    if pgn is None or pgn.headers.get("Result", "*") == "*":
        raise Retry("the game did not finish")
    for src in game.files:
        if not (work / src).exists():
            raise Retry(f"no recording {src}")
    produced = []
    for src, dst in game.files.items():
        shutil.copyfile(work / src, out / f"{name}.{dst}")
        produced.append(f"{name}.{dst}")
    shutil.copyfile(pgn_path, out / f"{name}.pgn")
    print(f"  {name}: {pgn.headers['White']} - {pgn.headers['Black']} {pgn.headers['Result']}, "
          f"{len(list(pgn.mainline_moves()))} plies; {', '.join(produced)}")
    return []


REC = "{kib} record -o"
XBOARD_GAMES: dict[str, XBoardGame] = {
    # PolyGlot outside the proxy: the proxy records the CECP PolyGlot speaks to XBoard.
    "xboard-polyglot-stockfish-vs-fairymax": XBoardGame(
        first=f"{REC} first.jsonl -- polyglot -noini -ec stockfish",
        second=f"{REC} second.jsonl -- fairymax",
        args=["-tc", "0:20", "-mps", "40", "-xponder"],
        files={"first.jsonl": "first.jsonl", "second.jsonl": "second.jsonl"}),
    # PolyGlot between two proxies: the CECP side (XBoard-PolyGlot) and the UCI side
    # (PolyGlot-Stockfish) of one engine, with pondering on (XBoard sends `hard`).
    "xboard-polyglot-stockfish-vs-fairymax-ponder": XBoardGame(
        first=f"{REC} first.cecp.jsonl -- polyglot -noini -ec \"{REC} first.uci.jsonl -- stockfish\" "
              "-log true -lf polyglot.log",
        second=f"{REC} second.jsonl -- fairymax",
        args=["-tc", "0:10", "-inc", "0.1", "-ponder", "-adjudicateLossThreshold", "-500"],
        files={"first.cecp.jsonl": "first.cecp.jsonl", "first.uci.jsonl": "first.uci.jsonl",
               "second.jsonl": "second.jsonl"}),
    "xboard-fairymax-vs-gnuchess": XBoardGame(
        first=f"{REC} first.jsonl -- fairymax",
        second=f"{REC} second.jsonl -- gnuchess --xboard",
        args=["-st", "0:01", "-ponder"],
        files={"first.jsonl": "first.jsonl", "second.jsonl": "second.jsonl"}),
    "xboard-phalanx-vs-sjeng": XBoardGame(
        first=f"{REC} first.jsonl -- phalanx",
        second=f"{REC} second.jsonl -- sjeng",
        args=["-tc", "0:20", "-inc", "0.1", "-xponder"],
        files={"first.jsonl": "first.jsonl", "second.jsonl": "second.jsonl"}),
    # Toga II is UCI: PolyGlot adapts it, again between two proxies.
    "xboard-hoichess-vs-polyglot-toga2": XBoardGame(
        first=f"{REC} first.jsonl -- hoichess --xboard",
        second=f"{REC} second.cecp.jsonl -- polyglot -noini -ec \"{REC} second.uci.jsonl -- toga2\" "
               "-log true -lf polyglot.log",
        args=["-tc", "0:10", "-mps", "40", "-xponder", "-adjudicateDrawMoves", "60"],
        files={"first.jsonl": "first.jsonl", "second.cecp.jsonl": "second.cecp.jsonl",
               "second.uci.jsonl": "second.uci.jsonl"}),
}


# --- python-chess sessions ---------------------------------------------------------------------


# The initial position without Black's queen.
ODDS_FEN = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def stockfish_ponder_clock(name: str, kib: Path, work: Path, out: Path) -> list[str]:
    """Two Stockfish processes play each other with python-chess `play(..., ponder=True)` and
    real clocks kept by this script (White 5 s + 0.05 s, Black 2 s + 0.02 s), each through its
    own proxy. Black starts without its queen and has `Skill Level` 0, so the game is short
    and finished (python-chess sends `position fen ... moves ...`); and White's ponder searches,
    as long as Black's thinking, stay short: the files stay small. Ponder
    hits send `ponderhit`, misses `stop` and a new `position`/`go`."""
    with PythonChessSession() as s:
        engines = {
            chess.WHITE: s.popen_uci(kib, work / "white.jsonl", ["stockfish"], work),
            chess.BLACK: s.popen_uci(kib, work / "black.jsonl", ["stockfish"], work),
        }
        board = chess.Board(ODDS_FEN)
        clock = {chess.WHITE: 5.0, chess.BLACK: 2.0}
        inc = {chess.WHITE: 0.05, chess.BLACK: 0.02}
        result = None
        try:
            for eng in engines.values():
                eng.configure({"Hash": 16, "Threads": 1})
            # A weak Black makes a short, finished game.
            engines[chess.BLACK].configure({"Skill Level": 0})
            while not board.is_game_over(claim_draw=True) and board.ply() < 120:
                side = board.turn
                t0 = time.monotonic()
                played = engines[side].play(
                    board, chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                              white_inc=inc[chess.WHITE], black_inc=inc[chess.BLACK]),
                    ponder=True, info=chess.engine.INFO_ALL)
                clock[side] -= time.monotonic() - t0
                if clock[side] < 0:
                    result = "0-1" if side == chess.WHITE else "1-0"
                    break
                clock[side] += inc[side]
                if played.resigned or played.move is None:
                    result = "0-1" if side == chess.WHITE else "1-0"
                    break
                board.push(played.move)
        finally:
            for eng in engines.values():
                eng.quit()
        problems = s.verify()
    if board.ply() < 20:
        raise Retry(f"game over after only {board.ply()} plies")
    for f in ("white", "black"):
        shutil.copyfile(work / f"{f}.jsonl", out / f"{name}.{f}.jsonl")
    write_pgn(board, out / f"{name}.pgn", "Stockfish 15.1", "Stockfish 15.1 (Skill Level 0)",
              "Stockfish vs Stockfish, queen odds, python-chess, ponder on, White 5 s + 0.05 s, Black 2 s + 0.02 s",
              result, {"WhiteClock": "5+0.05", "BlackClock": "2+0.02"})
    print(f"  {name}: {board.ply()} plies, {result or board.result(claim_draw=True)}; clocks left "
          f"{clock[chess.WHITE]:.2f} / {clock[chess.BLACK]:.2f}")
    return problems


ANALYSIS_POSITIONS = [
    # (FEN or None for the start, moves in SAN, seconds; None seconds: a depth-limited analysis)
    (None, [], 1.0),
    (None, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O".split(), 1.0),
    # Two legal moves only: MultiPV 3 gets two lines.
    ("6k1/5ppp/8/8/8/8/7P/3r2K1 w - - 0 1", [], 0.5),
    # A mate in 2 for White, 1.Nf6+ gxf6 2.Bxf7# (scores `mate N`).
    ("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", [], 0.5),
    # A rook endgame analysed to depth 14: ends with its own bestmove (no `stop`).
    ("8/5pk1/6p1/8/3R4/6PP/r4PK1/8 w - - 0 40", [], None),
]


def stockfish_analysis(name: str, kib: Path, work: Path, out: Path) -> list[str]:
    """python-chess `analysis(board, multipv=3)` (`go infinite`, then `stop`) on four positions
    and `analysis(board, Limit(depth=14), multipv=3)` on a fifth, in one engine session."""
    with PythonChessSession() as s:
        eng = s.popen_uci(kib, work / "rec.jsonl", ["stockfish"], work)
        try:
            eng.configure({"Hash": 16, "Threads": 1})
            for fen, moves, secs in ANALYSIS_POSITIONS:
                board = chess.Board(fen) if fen else chess.Board()
                for san in moves:
                    board.push_san(san)
                if secs is None:
                    with eng.analysis(board, chess.engine.Limit(depth=14), multipv=3) as analysis:
                        best = analysis.wait()
                else:
                    with eng.analysis(board, multipv=3) as analysis:
                        # Not `for info in analysis`: a search that has reached its last depth
                        # (a mate found) prints nothing more until `stop`.
                        time.sleep(secs)
                        analysis.stop()
                        best = analysis.wait()
                if best.move is None:
                    raise RuntimeError("analysis ended without a best move")
        finally:
            eng.quit()
        problems = s.verify()
    shutil.copyfile(work / "rec.jsonl", out / f"{name}.jsonl")
    print(f"  {name}: {len(ANALYSIS_POSITIONS)} positions")
    return problems


VARIANTS: dict[str, type[chess.Board]] = {
    "crazyhouse": chess.variant.CrazyhouseBoard,
    "threecheck": chess.variant.ThreeCheckBoard,
    "kingofthehill": chess.variant.KingOfTheHillBoard,
    "racingkings": chess.variant.RacingKingsBoard,
    "horde": chess.variant.HordeBoard,
    "giveaway": chess.variant.GiveawayBoard,
    "antichess": chess.variant.AntichessBoard,
    # Not atomic: Debian's Fairy-Stockfish 11.1 is built without it (its UCI_Variant list has
    # no `atomic`), and python-chess then refuses the board.
}


def fairy_variant(variant: str) -> Callable[[str, Path, Path, Path], list[str]]:
    board_type = VARIANTS[variant]

    def session(name: str, kib: Path, work: Path, out: Path) -> list[str]:
        """Fairy-Stockfish plays both sides of a `chess.variant` board at 20000 nodes a move
        (python-chess sets UCI_Variant itself from the board), at most 40 plies."""
        with PythonChessSession() as s:
            eng = s.popen_uci(kib, work / "rec.jsonl", ["fairy-stockfish"], work)
            board = board_type()
            try:
                if board_type.uci_variant not in eng.options["UCI_Variant"].var:
                    raise RuntimeError(f"Fairy-Stockfish has no UCI_Variant {board_type.uci_variant} "
                                       "(not in its `option name UCI_Variant ... var` list)")
                eng.configure({"Hash": 16, "Threads": 1})
                while not board.is_game_over(claim_draw=True) and board.ply() < 40:
                    played = eng.play(board, chess.engine.Limit(nodes=20000), info=chess.engine.INFO_ALL)
                    if played.move is None:
                        break
                    board.push(played.move)
            finally:
                eng.quit()
            problems = s.verify()
        shutil.copyfile(work / "rec.jsonl", out / f"{name}.jsonl")
        outcome = board.outcome(claim_draw=True)
        write_pgn(board, out / f"{name}.pgn", "Fairy-Stockfish 11.1", "Fairy-Stockfish 11.1",
                  f"Fairy-Stockfish self-play, {board_type.uci_variant}, 20000 nodes a move")
        print(f"  {name}: {board.ply()} plies, {outcome.result() if outcome else '* (cut)'}")
        return problems

    return session


SESSIONS: dict[str, Callable[[str, Path, Path, Path], list[str]]] = {}
for _name, _game in XBOARD_GAMES.items():
    SESSIONS[_name] = (lambda g: lambda name, kib, work, out: run_xboard(name, g, kib, work, out))(_game)
SESSIONS["python-chess-stockfish-ponder-clock"] = stockfish_ponder_clock
SESSIONS["python-chess-stockfish-analysis-multipv3"] = stockfish_analysis
for _v in VARIANTS:
    SESSIONS[f"python-chess-fairy-stockfish-{_v}"] = fairy_variant(_v)


def run_one(name: str, kib: Path, out: Path, keep: bool) -> list[str]:
    for attempt in range(1, ATTEMPTS + 1):
        work = Path(tempfile.mkdtemp(prefix=f"kz-real-{name}-"))
        try:
            problems = SESSIONS[name](name, kib, work, out)
        except Retry as e:
            print(f"  {name}: attempt {attempt} unusable ({e}); making it again", flush=True)
            continue
        except (chess.engine.EngineError, RuntimeError) as e:
            return [f"{type(e).__name__}: {e}"]
        finally:
            if keep:
                print(f"  {name}: working directory kept: {work}")
            else:
                shutil.rmtree(work, ignore_errors=True)
        for f in sorted(out.glob(f"{name}.*jsonl")):
            dump = subprocess.run([str(kib), "dump", str(f)], capture_output=True, text=True)
            if dump.returncode != 0 or dump.stderr.strip():
                problems.append(f"kibitzer dump {f.name}: exit {dump.returncode}, {dump.stderr.strip()[:200]!r}")
            if f.stat().st_size > 300_000:
                # Not a failure: the timed games differ from run to run, a little over is fine.
                print(f"  note: {f.name} is {f.stat().st_size} bytes (over 300 KB)")
        return problems
    return [f"no usable session in {ATTEMPTS} attempts"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("names", nargs="*", metavar="NAME", help="sessions to make (default: all; --list names them)")
    ap.add_argument("--list", action="store_true", help="list the sessions and exit")
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "fixtures" / "real")
    ap.add_argument("--keep", action="store_true", help="keep each session's working directory (logs, debug files)")
    ap.add_argument("--show-commands", action="store_true", help="print the XBoard command line of each game and exit")
    args = ap.parse_args()
    if args.list:
        print("\n".join(SESSIONS))
        return 0
    if args.show_commands:
        for name, game in XBOARD_GAMES.items():
            print(f"{name}:\n  {shlex.join(xboard_command(game, Path('$KIBITZER')))}")
        return 0
    kib = Path(os.environ.get("KIBITZER", ROOT / "target" / "release" / "kibitzer"))
    kib = (kib if kib.is_absolute() else ROOT / kib).resolve()
    if not kib.is_file():
        print(f"{kib} missing: run `cargo build --release` or set KIBITZER", file=sys.stderr)
        return 2
    unknown = [n for n in args.names if n not in SESSIONS]
    if unknown:
        ap.error(f"unknown session(s) {unknown}; known: {', '.join(SESSIONS)}")
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out.resolve()
    failed = False
    for name in args.names or list(SESSIONS):
        print(f"{name}:", flush=True)
        for p in run_one(name, kib, out, args.keep):
            print(f"  PROBLEM: {p}", flush=True)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
