#!/usr/bin/env python3
"""Make tests/fixtures/tournament/: a small engine tournament, every engine recorded.

A GUI written here with python-chess plays a round robin among healthy Debian engines
(Stockfish, Toga II, Fairy-Max, HoiChess, Phalanx) and matches of three faulty engines against
them, the way cutechess-style runners do: clocks kept by the GUI, games ended by the GUI (mate,
the draw rules, adjudication, time forfeit, an illegal move, a dead engine), CECP engines told
`result RESULT {REASON}` at the end of every game, and both engine-process lifetimes: a fresh
process for each game, or one process that plays several games in a row (separated by
`ucinewgame` / `new`). Every engine runs behind the recorder, as a GUI would start it:

    KIBITZER record -o FILE -- ENGINE ARGS...

so each engine process leaves one recording, gzipped as `NNN-<engine>.jsonl.gz`. Beside them
the script writes `truth.json` (per engine, named as it names itself on the wire: sessions,
games, wins/draws/losses, how the games ended; every game; every fault injected and where) and
`README.md` (what is there and how it was made).

Usage:
    python3 scripts/make-tournament.py [--out DIR] [--games N] [--seed S] [--jobs J]
                                       [--kibitzer PATH] [--check] [--tc B+I] [--ply-cap N] [--resign CP/MOVES]

    --games N   about N games in all (default 150): each faulty engine plays 20 of them (N/12
                when N < 150), the round robin the rest
    --check     afterwards run `kibitzer check` on every file and print its error findings

The kibitzer binary is --kibitzer, else $KIBITZER, else target/release/kibitzer. At most
--jobs games (default 2) run at once; 150 games take about 2 minutes on two cores. The engines
run with the environment `PATH=/usr/games:/usr/bin:/bin LANG=C.UTF-8 HOME=<fresh temporary
directory>` in that directory (some write book, learn and log files into their working
directory and $HOME). Everything is made in a staging directory first; the output directory's
old `*.jsonl.gz`, `truth.json` and `README.md` are replaced only when the whole run succeeded,
so a rerun is safe. Timed games differ from run to run; the schedule, openings and the planned
faults follow --seed.

The size: real traffic costs about 200-400 bytes per move gzipped (a CECP engine's `post`
lines, python-chess's `force`/move/`time`/`otim`/`post`/`easy`/`go`/`ping` before every move,
Toga's and Stockfish's `info` lines), about 24 KB a game; hence a depth limit beside the clock
for most engines, a ply cap, and 150 games (under 4 MB) by default.

Needs the Debian packages stockfish, toga2, fairymax, hoichess and phalanx, and python-chess
1.11. The faulty engines are tests/engines/tournament_faulty.py (a relay of Stockfish that
calls itself `Flaky Illegal 1.0`, `Flaky Timeout 1.0` or `Flaky Crash 1.0`).

GNU Chess 6.2.7 (Debian's `gnuchess`) is not in it: with a burst of commands on its input, as
python-chess (and cutechess) send them, it answers `ping` twice, sometimes ignores `go`, and
announces its moves as `My move is : e7e5` (which XBoard accepts and python-chess does not);
and it answers `protover 2` only after one more line has arrived.

One python-chess limit is worked around, as a GUI would not have it: python-chess refuses CECP
engines without `feature setboard=1` (Fairy-Max declares setboard=0; these games all start
from the standard position, so setboard is never needed).
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import datetime
import gzip
import itertools
import json
import logging
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.engine

ROOT = Path(__file__).resolve().parent.parent
FAULTY = ROOT / "tests" / "engines" / "tournament_faulty.py"
BASE_ENV = {"PATH": "/usr/games:/usr/bin:/bin", "LANG": "C.UTF-8"}

# Time control of every game: base seconds + increment per move, kept by this GUI.
BASE_SECONDS = 3.0
INCREMENT = 0.03
# The GUI gives up waiting this long after a clock ran out (and sends `stop` / `?`).
FLAG_GRACE = 0.25
# A game still running after this many plies is adjudicated a draw.
PLY_CAP = 100
# ... and one in which both engines have scored the same side at least RESIGN_CP ahead on each of
# their last RESIGN_MOVES moves is adjudicated a win for that side (cutechess `-resign
# movecount=4 score=1500 twosided=true`).
RESIGN_CP = 1500
RESIGN_MOVES = 4
# Startup attempts per engine process.
ATTEMPTS = 5

# Ending classes of truth.json; `detail` says which draw rule.
ENDINGS = ["checkmate", "draw", "adjudication", "time forfeit", "illegal move", "disconnect", "resignation"]

# Opening lines the GUI plays itself before the engines move (each with both colours).
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6", "d2d4 d7d5 c2c4 e7e6", "e2e4 c7c5 g1f3 d7d6", "e2e4 e7e6 d2d4 d7d5",
    "d2d4 g8f6 c2c4 g7g6", "c2c4 e7e5 b1c3 g8f6", "e2e4 c7c6 d2d4 d7d5", "g1f3 d7d5 g2g3 g8f6",
    "d2d4 d7d5 g1f3 g8f6", "e2e4 d7d5 e4d5 d8d5", "e2e4 e7e5 f1c4 g8f6", "c2c4 c7c5 g1f3 b8c6",
]


@dataclass(frozen=True)
class EngineSpec:
    slug: str
    command: tuple[str, ...]
    protocol: str                 # "uci" or "xboard"
    name: str                     # the name it gives on the wire (checked at every start)
    options: tuple[tuple[str, object], ...] = ()
    depth: int | None = None      # a depth limit besides the clock (UCI `go ... depth N`, CECP `sd N`)
    fault: str | None = None      # tournament_faulty.py MODE

    @property
    def name_source(self) -> str:
        return "id name" if self.protocol == "uci" else "feature myname"


HEALTHY = [
    EngineSpec("stockfish", ("stockfish",), "uci", "Stockfish 15.1", (("Hash", 16), ("Threads", 1)), depth=6),
    EngineSpec("toga2", ("toga2",), "uci", "Toga II 3.0", (("Hash", 16),), depth=4),
    EngineSpec("fairymax", ("fairymax",), "xboard", "Fairy-Max 5.0b", depth=5),
    EngineSpec("hoichess", ("hoichess", "--xboard"), "xboard", "HoiChess 0.22.0-3-debian", depth=5),
    # Phalanx answers `sd` with `Illegal move: sd 6`: no depth limit for it.
    EngineSpec("phalanx", ("phalanx",), "xboard", "Phalanx XXV"),
]
FAULTY_ENGINES = [
    EngineSpec(f"flaky-{mode}", ("python3", str(FAULTY), mode), "uci", f"Flaky {mode.capitalize()} 1.0",
               (("Hash", 16), ("Threads", 1)), depth=6, fault=mode)
    for mode in ("illegal", "timeout", "crash")
]
# How each faulty engine's processes live: "keep" = one process for a match of several games
# (a new one only after a crash), "restart" = a new process for every game.
FAULTY_LIFETIME = {"illegal": "keep", "timeout": "restart", "crash": "keep"}
FAULTY_MATCH = 4  # games per match of a faulty engine against one opponent


# --- python-chess, as a GUI would be --------------------------------------------------------


class _Features(dict):
    """The features python-chess collects; `setboard` always reads as supported (see the top)."""

    def get(self, key, default=None):  # type: ignore[override]
        if key == "setboard":
            return 1
        return super().get(key, default)


class CecpProtocol(chess.engine.XBoardProtocol):
    """python-chess's CECP client, without its refusal of `setboard=0` (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.features = _Features()


class Retry(Exception):
    pass


@dataclass
class Process:
    """One engine process behind the recorder: one recording."""

    spec: EngineSpec
    unit: int
    serial: int                    # start order within the unit
    rec: Path
    work: Path
    engine: chess.engine.SimpleEngine
    wire_name: str
    fault_plan: dict[int, int]     # game number in this process -> search to break
    games: list[int] = field(default_factory=list)   # global game ids, in order
    alive: bool = True
    end: str = "quit"
    file: str = ""                 # final name


def start_process(kib: Path, spec: EngineSpec, staging: Path, unit: int, serial: int,
                  fault_plan: dict[int, int]) -> Process:
    cmd = list(spec.command)
    if spec.fault:
        plan = ",".join(f"{g}:{m}" for g, m in sorted(fault_plan.items()))
        cmd += ["--games", plan] if plan else []
        cmd += ["--", "stockfish"]
    last: Exception | None = None
    for attempt in range(1, ATTEMPTS + 1):
        rec = staging / f"u{unit:03d}-{serial:02d}-{spec.slug}.jsonl"
        work = Path(tempfile.mkdtemp(prefix=f"kz-tournament-{spec.slug}-"))
        full = [str(kib), "record", "-o", str(rec), "--", *cmd]
        env = dict(BASE_ENV, HOME=str(work))
        try:
            if spec.protocol == "uci":
                eng = chess.engine.SimpleEngine.popen_uci(full, cwd=str(work), env=env)
                wire = eng.id.get("name", "")
            else:
                eng = chess.engine.SimpleEngine.popen(CecpProtocol, full, cwd=str(work), env=env)
                wire = str(eng.protocol.features.get("myname", ""))
            if wire != spec.name:
                eng.quit()
                raise RuntimeError(f"{spec.slug} calls itself {wire!r}, expected {spec.name!r}")
            if spec.options:
                eng.configure(dict(spec.options))
            return Process(spec, unit, serial, rec, work, eng, wire, fault_plan)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError, TimeoutError, OSError) as e:
            last = e
            print(f"  [unit {unit}] {spec.slug}: start attempt {attempt} failed ({type(e).__name__}: {e}); "
                  "discarding its recording", flush=True)
            DISCARDED.append({"engine": spec.slug, "unit": unit, "reason": f"{type(e).__name__}: {e}"})
            rec.unlink(missing_ok=True)
            shutil.rmtree(work, ignore_errors=True)
    raise RuntimeError(f"{spec.slug} would not start: {last}")


DISCARDED: list[dict] = []  # appended to from the worker threads (list.append is atomic)


def stop_process(p: Process) -> None:
    if p.alive:
        try:
            p.engine.quit()
        except Exception as e:  # noqa: BLE001 - the engine's end is recorded, not ours to judge
            print(f"  {p.rec.name}: quit failed: {type(e).__name__}: {e}", flush=True)
        p.alive = False
    try:
        p.engine.close()
    except Exception:  # noqa: BLE001
        pass
    shutil.rmtree(p.work, ignore_errors=True)


def play_move(p: Process, board: chess.Board, limit: chess.engine.Limit, game: object,
              timeout: float) -> chess.engine.PlayResult:
    """python-chess's play(), with a deadline: on TimeoutError the command is cancelled (UCI
    `stop`, CECP `?`) and its late answer is still awaited by the next command."""
    info = chess.engine.INFO_SCORE if p.spec.protocol == "uci" else chess.engine.INFO_BASIC  # CECP: `post`
    coro = asyncio.wait_for(p.engine.protocol.play(board, limit, game=game, info=info), timeout)
    return asyncio.run_coroutine_threadsafe(coro, p.engine.protocol.loop).result()


def color_name(c: chess.Color) -> str:
    return "White" if c == chess.WHITE else "Black"


# --- the schedule ----------------------------------------------------------------------------


@dataclass
class Unit:
    """A match: games between engines a and b, on one pair of processes ("keep") or a fresh
    pair for every game ("restart")."""

    idx: int
    a: EngineSpec
    b: EngineSpec
    games: list[tuple[bool, str]]          # (a plays White, opening)
    keep: bool
    faults: dict[int, int] = field(default_factory=dict)  # game index in unit -> search to break (a is faulty)


def schedule(total: int, seed: int) -> list[Unit]:
    rng = random.Random(seed)
    # Each faulty engine plays 20 games (fewer in a small run), the round robin the rest.
    per_faulty = 20 if total >= 150 else max(1, round(total / 12))
    rr_total = max(0, total - per_faulty * len(FAULTY_ENGINES))
    pairings = list(itertools.combinations(HEALTHY, 2))
    counts = [rr_total // len(pairings) + (1 if i < rr_total % len(pairings) else 0) for i in range(len(pairings))]
    units: list[Unit] = []
    opening_iter = itertools.cycle(OPENINGS)

    def games_for(n: int) -> list[tuple[bool, str]]:
        out = []
        while len(out) < n:
            op = next(opening_iter)
            out.append((True, op))
            if len(out) < n:
                out.append((False, op))
        return out

    rr_units: list[Unit] = []
    for (a, b), n in zip(pairings, counts):
        games = games_for(n)
        # Two sessions on one pair of processes (40 % and 20 % of the games), the rest with a
        # fresh pair for every game.
        keep1 = round(n * 0.4 / 2) * 2 if n >= 6 else 0
        keep2 = round(n * 0.2 / 2) * 2 if n >= 6 else 0
        if keep1:
            rr_units.append(Unit(0, a, b, games[:keep1], keep=True))
        if keep2:
            rr_units.append(Unit(0, a, b, games[keep1:keep1 + keep2], keep=True))
        for i in range(keep1 + keep2, n, 2):
            rr_units.append(Unit(0, a, b, games[i:i + 2], keep=False))

    faulty_units: list[Unit] = []
    n_faults = max(1, per_faulty // 5)
    for spec in FAULTY_ENGINES:
        games = games_for(per_faulty)
        # Faults in n_faults of the engine's games, never its first, at its 6th to 14th search.
        faulted = sorted(rng.sample(range(1, per_faulty), min(n_faults, per_faulty - 1))) if per_faulty > 1 else [0]
        keep = FAULTY_LIFETIME[spec.fault] == "keep"
        for start in range(0, per_faulty, FAULTY_MATCH):
            opp = HEALTHY[(start // FAULTY_MATCH) % len(HEALTHY)]
            chunk = games[start:start + FAULTY_MATCH]
            faults = {i: rng.randint(6, 14) for i in range(len(chunk)) if start + i in faulted}
            if keep:
                faulty_units.append(Unit(0, spec, opp, chunk, keep=True, faults=faults))
            else:
                for i, g in enumerate(chunk):
                    faulty_units.append(Unit(0, spec, opp, [g], keep=False, faults={0: faults[i]} if i in faults else {}))

    # Interleave: the faulty matches spread through the round robin (and long keep sessions
    # first in each pairing's share), so two workers finish together.
    rng.shuffle(rr_units)
    rng.shuffle(faulty_units)
    merged: list[Unit] = []
    step = max(1, len(rr_units) // max(1, len(faulty_units)))
    fi = iter(faulty_units)
    for i, u in enumerate(rr_units):
        merged.append(u)
        if i % step == step - 1:
            nxt = next(fi, None)
            if nxt:
                merged.append(nxt)
    merged.extend(fi)
    for i, u in enumerate(merged, 1):
        u.idx = i
    return merged


# --- one match --------------------------------------------------------------------------------


@dataclass
class GameRecord:
    unit: int
    index_in_unit: int
    white: Process
    black: Process
    white_game: int
    black_game: int
    opening: str
    result: str = "*"
    ending: str = ""
    detail: str = ""
    reason: str = ""                # the text sent in `result ... {REASON}`
    moves: list[str] = field(default_factory=list)
    plies: int = 0
    fault: dict | None = None
    clocks_left: tuple[float, float] = (0.0, 0.0)


DRAW_DETAIL = {
    chess.Termination.STALEMATE: ("stalemate", "Draw by stalemate"),
    chess.Termination.INSUFFICIENT_MATERIAL: ("insufficient material", "Draw by insufficient mating material"),
    chess.Termination.SEVENTYFIVE_MOVES: ("fifty moves", "Draw by fifty moves rule"),
    chess.Termination.FIFTY_MOVES: ("fifty moves", "Draw by fifty moves rule"),
    chess.Termination.FIVEFOLD_REPETITION: ("repetition", "Draw by 3-fold repetition"),
    chess.Termination.THREEFOLD_REPETITION: ("repetition", "Draw by 3-fold repetition"),
}


def resign_adjudication(scores: dict[chess.Color, list[int | None]]) -> chess.Color | None:
    if RESIGN_MOVES <= 0:
        return None
    last = scores[chess.WHITE][-RESIGN_MOVES:] + scores[chess.BLACK][-RESIGN_MOVES:]
    if len(last) < 2 * RESIGN_MOVES or any(x is None for x in last):
        return None
    if all(x >= RESIGN_CP for x in last):  # type: ignore[operator]
        return chess.WHITE
    if all(x <= -RESIGN_CP for x in last):  # type: ignore[operator]
        return chess.BLACK
    return None


def play_game(rec: GameRecord, procs: dict[chess.Color, Process], planned_fault: int | None,
              faulty_color: chess.Color | None) -> None:
    board = chess.Board()
    for mv in rec.opening.split():
        board.push_uci(mv)
    token = object()  # python-chess's game identity: a new one means `ucinewgame` / `new`
    clock = {chess.WHITE: BASE_SECONDS, chess.BLACK: BASE_SECONDS}
    searches = {chess.WHITE: 0, chess.BLACK: 0}
    # Each engine's score after each of its moves, in centipawns for White (None: no score).
    scores: dict[chess.Color, list[int | None]] = {chess.WHITE: [], chess.BLACK: []}
    winner: chess.Color | None = None
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            if outcome.termination == chess.Termination.CHECKMATE:
                winner = outcome.winner
                rec.ending, rec.reason = "checkmate", f"{color_name(outcome.winner)} mates"
            else:
                rec.ending = "draw"
                rec.detail, rec.reason = DRAW_DETAIL[outcome.termination]
            break
        lead = resign_adjudication(scores)
        if lead is not None:
            winner = lead
            rec.ending, rec.reason = "adjudication", f"{color_name(lead)} wins by adjudication"
            rec.detail = (f"both engines scored {color_name(lead)} at least {RESIGN_CP} cp ahead on each of "
                          f"their last {RESIGN_MOVES} moves")
            break
        if board.ply() >= PLY_CAP:
            rec.ending, rec.reason, rec.detail = "adjudication", "Draw by adjudication", f"ply cap {PLY_CAP}"
            break
        side = board.turn
        p = procs[side]
        searches[side] += 1
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=INCREMENT, black_inc=INCREMENT, depth=p.spec.depth, clock_id=token)
        t0 = time.monotonic()
        flagged = False
        disconnected: Exception | None = None
        played: chess.engine.PlayResult | None = None
        try:
            played = play_move(p, board, limit, token, clock[side] + FLAG_GRACE)
        except TimeoutError:
            flagged = True
            played = None
        except chess.engine.EngineError as e:
            # EngineTerminatedError: the process ended while it owed its move. Otherwise these
            # are python-chess's words for a move it cannot play (push_uci / push_xboard); any
            # other EngineError is protocol trouble that is no game result.
            if not isinstance(e, chess.engine.EngineTerminatedError):
                if not re.match(r"(illegal|invalid|ambiguous) (uci|san|move)|no matching legal move|"
                                r"expected uci string|missing promotion|unsupported multi-leg", str(e)):
                    raise RuntimeError(f"{p.spec.slug} in game {rec.unit}/{rec.index_in_unit}: {e}") from e
                m = re.search(r"'([a-h][1-8][a-h][1-8][qrbn]?)'", str(e)) or re.search(r"([a-h][1-8][a-h][1-8][qrbn]?)", str(e))
                bad = m.group(1) if m else "?"
                winner = not side
                rec.ending, rec.reason = "illegal move", f"{color_name(side)} makes an illegal move: {bad}"
                rec.detail = str(e)
                if p.spec.fault == "illegal":
                    rec.fault = {"mode": "illegal", "side": color_name(side), "ply": board.ply() + 1,
                                 "search": searches[side], "move": bad}
                break
            disconnected = e
        except RuntimeError as e:
            # python-chess's event loop for the engine had already closed: the process ended
            # while it owed nothing.
            if "closed" not in str(e):
                raise
            disconnected = e
        if disconnected is not None:
            p.alive = False
            p.end = "crashed"
            winner = not side
            rec.ending, rec.reason = "disconnect", f"{color_name(side)} disconnects"
            rec.detail = str(disconnected)
            if p.spec.fault == "crash":
                rec.fault = {"mode": "crash", "side": color_name(side), "ply": board.ply() + 1, "search": searches[side]}
            break
        elapsed = time.monotonic() - t0
        if flagged or elapsed > clock[side]:
            winner = not side
            rec.ending, rec.reason = "time forfeit", f"{color_name(side)} loses on time"
            rec.detail = (f"{color_name(side)} had {clock[side]:.3f} s; "
                          + ("no move after the clock ran out (+" + f"{FLAG_GRACE} s grace): `stop` sent"
                             if flagged else f"its move came after {elapsed:.3f} s"))
            if p.spec.fault == "timeout":
                rec.fault = {"mode": "timeout", "side": color_name(side), "ply": board.ply() + 1,
                             "search": searches[side], "clock_ms": round(clock[side] * 1000)}
            clock[side] = max(0.0, clock[side] - elapsed)
            if flagged:
                # Like cutechess, wait for the engine's late answer before going on.
                try:
                    p.engine.ping()
                except Exception as e:  # noqa: BLE001
                    print(f"  {p.rec.name}: no answer after the flag ({type(e).__name__}); closing it", flush=True)
                    p.alive = False
                    p.end = "killed after the flag"
            break
        clock[side] -= elapsed
        clock[side] += INCREMENT
        if played is None or played.resigned or played.move is None:
            winner = not side
            rec.ending, rec.reason = "resignation", f"{color_name(side)} resigns"
            if played is not None and not played.resigned:
                rec.detail = "no move and no resignation (a claim python-chess did not report)"
            break
        board.push(played.move)
        score = played.info.get("score")
        scores[side].append(score.white().score(mate_score=100_000) if score is not None else None)
    rec.result = "1-0" if winner == chess.WHITE else "0-1" if winner == chess.BLACK else "1/2-1/2"
    rec.moves = [m.uci() for m in board.move_stack]
    rec.plies = board.ply()
    rec.clocks_left = (round(clock[chess.WHITE], 3), round(clock[chess.BLACK], 3))
    if planned_fault is not None and rec.fault is None:
        rec.fault = {"mode": procs[faulty_color].spec.fault, "side": color_name(faulty_color),
                     "planned_search": planned_fault, "happened": False,
                     "why": f"the game ended ({rec.ending}) before the engine's search {planned_fault}"}
    elif rec.fault is not None:
        rec.fault["happened"] = True
        rec.fault["planned_search"] = planned_fault
    # The result to every CECP engine still there, as XBoard does (UCI has no such command).
    for color, p in procs.items():
        if p.alive and p.spec.protocol == "xboard":
            try:
                p.engine.send_game_result(board, winner=winner, game_ending=rec.reason, game_complete=True)
                # Fairy-Max 5.0b answers `result` with `Error (unknown command): result`; a ping
                # takes that line in before the next game's commands (where python-chess would
                # take it for the answer to them).
                p.engine.ping()
            except Exception as e:  # noqa: BLE001
                print(f"  {p.rec.name}: result not sent: {type(e).__name__}: {e}", flush=True)


def run_unit(unit: Unit, kib: Path, staging: Path, first_game_id: int) -> tuple[list[Process], list[GameRecord]]:
    processes: list[Process] = []
    records: list[GameRecord] = []
    current: dict[str, Process | None] = {"a": None, "b": None}
    serial = itertools.count(1)
    faulty_side_is_a = unit.a.fault is not None
    try:
        for gi, (a_white, opening) in enumerate(unit.games):
            for key, spec in (("a", unit.a), ("b", unit.b)):
                p = current[key]
                if p is not None and (not unit.keep or not p.alive):
                    stop_process(p)
                    p = None
                if p is None:
                    plan: dict[int, int] = {}
                    if key == "a" and faulty_side_is_a:
                        span = range(gi, len(unit.games)) if unit.keep else range(gi, gi + 1)
                        plan = {g - gi + 1: unit.faults[g] for g in span if g in unit.faults}
                    p = start_process(kib, spec, staging, unit.idx, next(serial), plan)
                    processes.append(p)
                    current[key] = p
            pa, pb = current["a"], current["b"]
            assert pa is not None and pb is not None
            white, black = (pa, pb) if a_white else (pb, pa)
            gid = first_game_id + gi
            white.games.append(gid)
            black.games.append(gid)
            rec = GameRecord(unit.idx, gi, white, black, len(white.games), len(black.games), opening)
            planned = unit.faults.get(gi) if faulty_side_is_a else None
            faulty_color = (chess.WHITE if a_white else chess.BLACK) if faulty_side_is_a else None
            play_game(rec, {chess.WHITE: white, chess.BLACK: black}, planned, faulty_color)
            records.append(rec)
            note = ""
            if rec.fault:
                note = (f"  [fault {rec.fault['mode']}: " + ("at ply " + str(rec.fault.get("ply")) if rec.fault["happened"]
                                                            else "did not happen") + "]")
            print(f"  game {gid:3d} (unit {unit.idx}): {white.spec.slug} - {black.spec.slug} {rec.result} "
                  f"{rec.ending}{' (' + rec.detail + ')' if rec.detail and rec.ending == 'draw' else ''}, "
                  f"{rec.plies} plies{note}", flush=True)
    finally:
        for p in current.values():
            if p is not None:
                stop_process(p)
    return processes, records


# --- output -----------------------------------------------------------------------------------


def gzip_file(src: Path, dst: Path) -> None:
    with src.open("rb") as f_in, dst.open("wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                                                       compresslevel=9, mtime=0) as f_out:
        shutil.copyfileobj(f_in, f_out)


def dpkg_version(pkg: str) -> str:
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", pkg], capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def score_for(result: str, white: bool) -> str:
    if result == "1/2-1/2":
        return "draw"
    return "win" if (result == "1-0") == white else "loss"


def final_position_seen(r: GameRecord, proc: Process, is_white: bool) -> bool:
    """Whether the game's last position is in this engine's recording: CECP engines are sent
    the last move with `result`; a UCI engine sees it only when it made the last move, or was
    asked to move in it (the games it lost by its own fault)."""
    if proc.spec.protocol == "xboard":
        return True
    if r.plies == len(r.opening.split()):
        return r.white is proc or r.ending in ("illegal move", "time forfeit", "disconnect")
    last_by_white = r.plies % 2 == 1
    if last_by_white == is_white:
        return True
    return r.ending in ("illegal move", "time forfeit", "disconnect")


def build_truth(processes: list[Process], records: list[GameRecord], args: argparse.Namespace,
                kib_version: str, command: str) -> dict:
    engines: dict[str, dict] = {}
    for p in processes:
        e = engines.setdefault(p.wire_name, {
            "slug": p.spec.slug, "protocol": "uci" if p.spec.protocol == "uci" else "xboard",
            "name_source": p.spec.name_source,
            "command": [str(Path(c).relative_to(ROOT)) if c == str(FAULTY) else c for c in p.spec.command]
            + (["--games", "N:K,...", "--", "stockfish"] if p.spec.fault else []),
            "faulty": p.spec.fault, "sessions": 0, "files": [], "games": 0, "wins": 0, "draws": 0, "losses": 0,
            "endings": {k: 0 for k in ENDINGS}, "faults_injected": 0, "game_list": []})
        e["sessions"] += 1
        e["files"].append(p.file)
    games = []
    for gid, r in enumerate(records, 1):
        g = {"id": gid, "white": r.white.wire_name, "black": r.black.wire_name, "result": r.result,
             "ending": r.ending, "detail": r.detail, "reason": r.reason,
             "white_file": r.white.file, "white_game": r.white_game,
             "black_file": r.black.file, "black_game": r.black_game,
             "opening": r.opening, "plies": r.plies, "clocks_left": list(r.clocks_left), "moves": " ".join(r.moves)}
        if r.fault:
            g["fault"] = r.fault
        games.append(g)
        for proc, is_white, idx in ((r.white, True, r.white_game), (r.black, False, r.black_game)):
            e = engines[proc.wire_name]
            e["games"] += 1
            sc = score_for(r.result, is_white)
            e[{"win": "wins", "draw": "draws", "loss": "losses"}[sc]] += 1
            e["endings"][r.ending] += 1
            entry = {"file": proc.file, "game": idx, "white": r.white.wire_name, "black": r.black.wire_name,
                     "result": r.result, "score": sc, "ending": r.ending,
                     "result_line": (f"result {r.result} {{{r.reason}}}" if proc.spec.protocol == "xboard" else None),
                     "final_position_in_file": final_position_seen(r, proc, is_white)}
            if r.detail and r.ending == "draw":
                entry["detail"] = r.detail
            if r.fault and r.fault.get("happened") and proc.spec.fault:
                entry["fault"] = r.fault["mode"]
                e["faults_injected"] += 1
            e["game_list"].append(entry)
    faults = []
    for gid, r in enumerate(records, 1):
        if not r.fault:
            continue
        faulty = r.white if r.fault["side"] == "White" else r.black
        f = {"game": gid, "engine": faulty.wire_name, "mode": r.fault["mode"], "happened": r.fault["happened"],
             "file": faulty.file, "game_in_file": r.white_game if faulty is r.white else r.black_game,
             "planned_search": r.fault.get("planned_search")}
        if r.fault["happened"]:
            f.update({"ply": r.fault["ply"], "search": r.fault["search"], "ending": r.ending, "result": r.result})
            for k in ("move", "clock_ms"):
                if k in r.fault:
                    f[k] = r.fault[k]
            f["expected_check"] = {"illegal": "UCI-BESTMOVE-ILLEGAL (error)",
                                   "timeout": "X-CLOCK-UNDERFLOW (error), X-LATENCY-BUDGET",
                                   "crash": "X-ENGINE-EXIT (error)"}[r.fault["mode"]]
        else:
            f["why"] = r.fault.get("why")
        opponent = r.black if faulty is r.white else r.white
        f["opponent_file"] = opponent.file
        faults.append(f)
    files = {p.file: {"engine": p.wire_name, "slug": p.spec.slug, "games": len(p.games),
                      "game_ids": p.games, "end": p.end} for p in processes}
    return {
        "schema": "kibitzer-tournament-truth/1",
        "made": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": command,
        "kibitzer": kib_version,
        "seed": args.seed,
        "time_control": {"base_s": BASE_SECONDS, "increment_s": INCREMENT, "flag_grace_s": FLAG_GRACE,
                         "kept_by": "the GUI (python-chess), elapsed from sending the search to its answer"},
        "depth_limits": {p.slug: p.depth for p in HEALTHY + FAULTY_ENGINES if p.depth},
        "ply_cap": PLY_CAP,
        "resign_adjudication": {"cp": RESIGN_CP, "moves": RESIGN_MOVES, "twosided": True} if RESIGN_MOVES else None,
        "ending_classes": {
            "checkmate": "mate on the board (the GUI ends the game)",
            "draw": "stalemate, threefold repetition, fifty moves, insufficient material (`detail` says which)",
            "adjudication": f"a draw when still running after {PLY_CAP} plies; a win when both engines "
                            f"scored the same side {RESIGN_CP} cp or more ahead on each of their last "
                            f"{RESIGN_MOVES} moves (`detail` says which)",
            "time forfeit": "the engine's move came after its clock ran out, or not at all by then + grace",
            "illegal move": "the engine's move was illegal: it loses",
            "disconnect": "the engine's process ended during the game: it loses",
            "resignation": "a CECP engine resigned",
        },
        "notes": [
            "UCI carries no game result: for UCI engines the result and ending are the GUI's, "
            "not on the wire; CECP engines get `result RESULT {REASON}` after every game.",
            "Engine names are as on the wire: `id name` (UCI), `feature myname` (CECP); every "
            "engine here sends one.",
            "Fairy-Max 5.0b answers every `result` with `Error (unknown command): result`.",
            "Games per file are counted by `ucinewgame` (UCI) / `new` (CECP) the GUI sent.",
        ],
        "engines": engines,
        "files": files,
        "games": games,
        "faults": faults,
        "discarded_startups": DISCARDED,
    }


def dumps(o: object, ind: int = 0, in_list: bool = False) -> str:
    """JSON, readable and compact: a list of objects one per line, a short object on one line."""
    flat = json.dumps(o, ensure_ascii=False)
    pad = " " * ind
    if isinstance(o, dict) and not in_list and len(flat) > 100:
        return "{\n" + ",\n".join(f"{pad} {json.dumps(k)}: {dumps(v, ind + 1)}" for k, v in o.items()) + f"\n{pad}}}"
    if isinstance(o, list) and o and all(isinstance(x, dict) for x in o):
        return "[\n" + ",\n".join(f"{pad}  {dumps(x, ind + 2, True)}" for x in o) + f"\n{pad}]"
    return flat


def fmt_size(n: int) -> str:
    return f"{n / 1024 / 1024:.2f} MB" if n > 1024 * 1024 else f"{n / 1024:.0f} KB"


def build_readme(truth: dict, out_files: list[Path], total_bytes: int) -> str:
    packages = ["stockfish", "toga2", "fairymax", "hoichess", "phalanx"]
    eng_rows = []
    for name, e in sorted(truth["engines"].items(), key=lambda kv: (kv[1]["faulty"] is not None, kv[0])):
        ends = ", ".join(f"{k} {v}" for k, v in e["endings"].items() if v)
        eng_rows.append(f"| {name} | {e['protocol']} | {e['sessions']} | {e['games']} | "
                        f"{e['wins']}/{e['draws']}/{e['losses']} | {ends} | {e['faults_injected'] or ''} |")
    fault_rows = []
    for f in truth["faults"]:
        if f["happened"]:
            what = {"illegal": f"`bestmove {f.get('move')}` (no piece there)",
                    "timeout": f"answer held past its clock ({f.get('clock_ms')} ms left)",
                    "crash": "exit status 3 while searching"}[f["mode"]]
            fault_rows.append(f"| {f['engine']} | `{f['file']}` | {f['game_in_file']} | {f['ply']} | "
                              f"{f['search']} | {what} |")
        else:
            fault_rows.append(f"| {f['engine']} | `{f['file']}` | {f['game_in_file']} | - | - | "
                              f"not reached: {f['why']} |")
    endings: dict[str, int] = {}
    for g in truth["games"]:
        key = g["ending"] + (f" ({g['detail']})" if g["ending"] == "draw" else "")
        endings[key] = endings.get(key, 0) + 1
    ending_list = ", ".join(f"{k} {v}" for k, v in sorted(endings.items(), key=lambda kv: -kv[1]))
    versions = "\n".join(f"| `{p}` | {dpkg_version(p)} |" for p in packages)
    depths = ", ".join(f"{k} {v}" for k, v in truth["depth_limits"].items())
    n_games = len(truth["games"])
    return f"""# Tournament fixture

{n_games} real engine games in {len(out_files)} recordings, and their ground truth, for testing
`kibitzer report` (a per-engine health report over many recordings: games, results, how games
ended, protocol findings, latencies). Every file here is made by one script:

    {truth['command']}

(`python3 scripts/make-tournament.py --help`; a rerun replaces everything here, and the timed
games come out differently each time.)

Made {truth['made']} on Debian 12, with {truth['kibitzer']} and python-chess {chess.__version__}.
Total size {fmt_size(total_bytes)}.

## What is here

* `NNN-<engine>.jsonl.gz`: one gzipped kibitzer recording per engine process, numbered in
  schedule order. The script's GUI (python-chess, driving each engine as
  `kibitzer record -o FILE -- ENGINE ARGS...`) played the games; the recordings are what the
  proxy wrote, unedited, then gzipped.
* `truth.json`: the ground truth. `engines` is keyed by the name each engine gives on the wire
  (`id name` for UCI, `feature myname` for CECP; every engine here sends one): sessions
  (recordings) and their files, games, wins/draws/losses from the engine's side, `endings`
  counted by class (every game the engine played, whoever lost it), and `game_list`
  ({{file, game: its number in that file from 1, white, black, result, score, ending,
  result_line: the `result` line the engine was sent (CECP; null for UCI), final_position_in_file:
  whether the game's last position is in that recording}}).
  `games` lists every game once with both files, the opening, the moves (UCI notation), the
  clocks left and any fault; `faults` lists every fault planned and where it landed (file, game
  in the file, ply from the start of the game, the engine's search number in that game), or
  why it did not; `files` says per file which engine, how many games and how the process ended
  (`quit` or `crashed`).
* `README.md`: this file.

Endings: {ending_list}.

## How the games were played

* Time control: {BASE_SECONDS:g} s + {INCREMENT:g} s a move.
  The GUI keeps the clocks: the time from sending a search to its answer is taken off the
  mover's clock. A move that comes after the clock ran out loses on time; if none has come a
  grace of {FLAG_GRACE:g} s after, the GUI cancels the search (UCI `stop`, CECP `?`), scores the
  forfeit and waits for the late answer (`isready` / `ping`) before going on.
* Depth limits beside the clock, in every search (UCI `go ... depth N`, CECP `sd N`), to keep
  the files small: {depths}.
  Phalanx has none (it answers `sd` with `Illegal move: sd 6`).
* Each game starts from a four-ply opening line the GUI plays itself (each line twice, with
  the colours swapped, where a match has room). The GUI ends a game on mate, stalemate,
  threefold repetition, the fifty-move rule or insufficient material. It adjudicates
  (cutechess `-resign movecount={RESIGN_MOVES} score={RESIGN_CP} twosided=true`, `-maxmoves {PLY_CAP // 2}`):
  a draw at {PLY_CAP} plies; a win when both engines have scored the same side at least
  {RESIGN_CP} cp ahead on each of their last {RESIGN_MOVES} moves. An engine's resignation is
  the ending `resignation` ({endings.get('resignation', 0) or 'none'} here).
* A round robin among the healthy engines, and matches of each faulty engine against all of
  them, at most two games at a time. Each pairing of the round robin plays two matches on one
  pair of processes (several games in one recording each, separated by `ucinewgame` / `new`,
  as cutechess does without restarts); its other games get a fresh process per game (one game
  per recording). Flaky Timeout gets a fresh process every game; Flaky Illegal and Flaky Crash
  keep theirs for a match of {FAULTY_MATCH} games (a crashed one is restarted for the next
  game, so a new recording begins).
* CECP engines are sent `result RESULT {{REASON}}` at the end of each game (after `force` and
  the last move, as python-chess does it), then `ping`, with cutechess's wording: `White
  mates`, `Draw by 3-fold repetition`, `Draw by adjudication`, `White wins by adjudication`,
  `Black loses on time`, `White makes an illegal move: d4d3`, `Black disconnects`. Fairy-Max
  5.0b answers each with `Error (unknown command): result`.
* **UCI has no result command.** For UCI engines the result and the ending of a game are not
  in the recording: a game the GUI ended (mate and draw rules included) shows on the wire only
  as the GUI moving on (`ucinewgame` or `quit`), and for adjudication, time forfeit or an
  illegal move kibitzer has to judge the fault itself from the traffic (the illegal
  `bestmove`, the late `bestmove` against the clock, the exit while owing a move).
  truth.json is the GUI's account.
* python-chess refuses CECP engines without `feature setboard=1`; Fairy-Max declares
  setboard=0, so the GUI takes setboard as given (it never needs it: every game starts from
  the standard position). GNU Chess 6.2.7 is not in the tournament: with commands arriving in
  a burst it answers `ping` twice, sometimes ignores `go`, and announces its moves as `My move
  is : e7e5`, which python-chess does not read.

## Engines

| engine (name on the wire) | protocol | recordings | games | W/D/L | endings of its games | faults injected |
|---|---|---|---|---|---|---|
{chr(10).join(eng_rows)}

The faulty engines are `tests/engines/tournament_faulty.py MODE --games N:K,... -- stockfish`,
a line-by-line relay of Stockfish 15.1 that renames it (`id name Flaky ... 1.0`) and, in the
games and at the search the script planned, breaks one thing; all their other games are
Stockfish's own.

## Faults injected

| engine | file | game in file | ply | search | what |
|---|---|---|---|---|---|
{chr(10).join(fault_rows)}

`kibitzer check FILE` says, as an error on the file named: UCI-BESTMOVE-ILLEGAL for the
illegal move, X-CLOCK-UNDERFLOW for the answer held past the clock (X-LATENCY-BUDGET is only a
note), X-ENGINE-EXIT for the crash. A rule broken twice in one recording is one finding with a
count (`--every` lists each).

## Versions

| Debian package | version (`dpkg -s`) |
|---|---|
{versions}

The engines ran with the environment `PATH=/usr/games:/usr/bin:/bin LANG=C.UTF-8
HOME=<fresh temporary directory>`, in that directory. Startups that failed and were retried
(their recordings discarded): {len(truth['discarded_startups'])}.
"""


def run_check(kib: Path, files: list[Path]) -> None:
    print("\nkibitzer check (error findings):", flush=True)
    for f in files:
        r = subprocess.run([str(kib), "check", "--format", "json", str(f)], capture_output=True, text=True)
        if r.returncode == 2:
            print(f"  {f.name}: exit 2: {r.stderr.strip()[:300]}")
            continue
        rep = json.loads(r.stdout)
        errs = [x for fr in rep["files"] for x in fr["findings"] if x["severity"] == "error"]
        if errs:
            for x in errs:
                print(f"  {f.name}: {x['rule']} ({x['side']}) line {x.get('line')}: {x['message'][:200]}")


def main() -> int:
    global BASE_SECONDS, INCREMENT, PLY_CAP, RESIGN_CP, RESIGN_MOVES
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "fixtures" / "tournament")
    ap.add_argument("--games", type=int, default=150)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--kibitzer", type=Path, default=None)
    ap.add_argument("--check", action="store_true", help="run kibitzer check on every file afterwards")
    ap.add_argument("--tc", default=f"{BASE_SECONDS:g}+{INCREMENT:g}", help="BASE+INC seconds (default %(default)s)")
    ap.add_argument("--ply-cap", type=int, default=PLY_CAP, help="adjudicate a draw at this ply (default %(default)s)")
    ap.add_argument("--resign", default=f"{RESIGN_CP}/{RESIGN_MOVES}",
                    help="CP/MOVES of the win adjudication, 0/0 for none (default %(default)s)")
    args = ap.parse_args()
    BASE_SECONDS, INCREMENT = (float(x) for x in args.tc.split("+"))
    PLY_CAP = args.ply_cap
    RESIGN_CP, RESIGN_MOVES = (int(x) for x in args.resign.split("/"))
    # python-chess warns about every line it does not parse (Fairy-Max's `tellics`, HoiChess's
    # `Info:` lines...): the recordings have them all.
    logging.basicConfig(format="%(name)s: %(message)s")
    logging.getLogger("chess.engine").setLevel(logging.ERROR)
    kib = args.kibitzer or Path(os.environ.get("KIBITZER", ROOT / "target" / "release" / "kibitzer"))
    kib = (kib if kib.is_absolute() else Path.cwd() / kib).resolve()
    if not kib.is_file():
        print(f"{kib} missing: build it, or pass --kibitzer / set KIBITZER", file=sys.stderr)
        return 2
    kib_version = subprocess.run([str(kib), "--version"], capture_output=True, text=True).stdout.strip()
    command = " ".join(["python3 scripts/make-tournament.py", f"--kibitzer {kib}"]
                       + [f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()
                          if k not in ("kibitzer", "check") and v != ap.get_default(k)])
    units = schedule(args.games, args.seed)
    first_ids, n = [], 1
    for u in units:
        first_ids.append(n)
        n += len(u.games)
    print(f"{n - 1} games in {len(units)} matches, {args.jobs} at a time; kibitzer {kib} ({kib_version})", flush=True)
    staging = Path(tempfile.mkdtemp(prefix="kz-tournament-staging-"))
    t_start = time.monotonic()
    results: dict[int, tuple[list[Process], list[GameRecord]]] = {}
    failed = False
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futs = {pool.submit(run_unit, u, kib, staging, fid): u for u, fid in zip(units, first_ids)}
            for fut in concurrent.futures.as_completed(futs):
                u = futs[fut]
                try:
                    results[u.idx] = fut.result()
                except Exception as e:  # noqa: BLE001
                    failed = True
                    print(f"  unit {u.idx} FAILED: {type(e).__name__}: {e}", flush=True)
        if failed:
            print("some matches failed; the output directory is left as it was", file=sys.stderr)
            return 1
        processes = [p for i in sorted(results) for p in sorted(results[i][0], key=lambda p: p.serial)]
        records = [r for i in sorted(results) for r in results[i][1]]
        for k, p in enumerate(processes, 1):
            p.file = f"{k:03d}-{p.spec.slug}.jsonl.gz"
            gzip_file(p.rec, staging / p.file)
        truth = build_truth(processes, records, args, kib_version, command)
        out = args.out.resolve()
        out.mkdir(parents=True, exist_ok=True)
        for old in list(out.glob("*.jsonl.gz")) + [out / "truth.json", out / "README.md"]:
            old.unlink(missing_ok=True)
        out_files = []
        for p in processes:
            shutil.move(str(staging / p.file), out / p.file)
            out_files.append(out / p.file)
        (out / "truth.json").write_text(dumps(truth) + "\n", encoding="utf-8")
        total = sum(f.stat().st_size for f in out_files) + (out / "truth.json").stat().st_size
        readme = build_readme(truth, out_files, total)
        total += len(readme.encode())
        (out / "README.md").write_text(build_readme(truth, out_files, total), encoding="utf-8")
        print(f"\n{len(records)} games, {len(out_files)} recordings, {fmt_size(total)} in {out}; "
              f"{time.monotonic() - t_start:.0f} s", flush=True)
        for name, e in truth["engines"].items():
            print(f"  {name}: {e['sessions']} recordings, {e['games']} games, "
                  f"+{e['wins']} ={e['draws']} -{e['losses']}; "
                  + ", ".join(f"{k} {v}" for k, v in e["endings"].items() if v))
        if args.check:
            run_check(kib, out_files)
        return 0
    finally:
        shutil.rmtree(staging, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
