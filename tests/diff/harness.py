#!/usr/bin/env python3
"""Differential harness for `kibitzer record`: each scenario is run with the bare engine and
under the proxy, and what the GUI observes is compared.

    harness.py --kibitzer BIN SCENARIO [--runs N]

Prints one JSON line per scenario (`bare`, `proxied`, `ok`, `why`) and exits 0 when the two
agree (within the tolerance docs/proxy.md states for the rows that are timings), 1 otherwise.
The GUIs here behave as real ones do: fastchess checks `waitpid(WNOHANG)` before every write
and keeps SIGPIPE at its default; python-chess ignores SIGPIPE and gets EPIPE.
"""
import argparse
import ctypes
import fcntl
import hashlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINE = os.path.join(HERE, "engine.py")
KIBITZER = None
TMP = tempfile.mkdtemp(prefix="kibitzer-diff-")


def command(proxied, *mode, marker=None):
    marker = marker or uuid.uuid4().hex
    engine = [sys.executable, ENGINE, *mode, marker]
    if not proxied:
        return engine, marker
    rec = os.path.join(TMP, marker + ".jsonl")
    return [KIBITZER, "record", "-o", rec, "--", *engine], marker


def alive_with(marker):
    """Processes (not zombies) whose command line holds `marker`."""
    found = []
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
            with open(f"/proc/{pid}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmd and state != "Z":
            found.append(int(pid))
    return found


def wait_gone(marker, limit=10.0):
    """Seconds until no process holds `marker`, or None after `limit`."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        if not alive_with(marker):
            return time.monotonic() - start
        time.sleep(0.005)
    return None


def status_name(st):
    if st is None:
        return "still running"
    if os.WIFSIGNALED(st):
        return signal.Signals(os.WTERMSIG(st)).name
    if os.WIFSTOPPED(st):
        return "stopped:" + signal.Signals(os.WSTOPSIG(st)).name
    return f"exit {os.WEXITSTATUS(st)}"


class Gui:
    """A GUI on the engine's pipes: a reader thread keeps stdout drained."""

    def __init__(self, cmd, preexec=None):
        self.t0 = time.monotonic()
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, preexec_fn=preexec)
        self.out = bytearray()
        self.eof_at = None
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        fd = self.p.stdout.fileno()
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                self.eof_at = time.monotonic() - self.t0
                return
            with self.lock:
                self.out += data

    def text(self):
        with self.lock:
            return self.out.decode(errors="replace")

    def until(self, needle, limit=10.0):
        end = time.monotonic() + limit
        while time.monotonic() < end:
            if needle in self.text():
                return True
            time.sleep(0.002)
        return False

    def write(self, data):
        try:
            os.write(self.p.stdin.fileno(), data)
            return "ok"
        except BrokenPipeError:
            return "EPIPE"
        except OSError as e:
            return e.__class__.__name__

    def wait(self, limit=20.0):
        """The wait status, polling as fastchess does; the seconds it took from the start."""
        end = time.monotonic() + limit
        while time.monotonic() < end:
            pid, st = os.waitpid(self.p.pid, os.WNOHANG)
            if pid:
                self.p.returncode = 0
                return st, time.monotonic() - self.t0
            time.sleep(0.001)
        self.p.kill()
        pid, st = os.waitpid(self.p.pid, 0)
        self.p.returncode = 0
        return None, limit

    def finish(self):
        self.reader.join(timeout=10)


# Each scenario returns a dict of observations for one side (`proxied` False/True).

def sc_crash(proxied, sig):
    cmd, marker = command(proxied, "crash", sig)
    g = Gui(cmd)
    g.write(b"uci\nisready\ngo infinite\n")
    st, died = g.wait()
    # The first write after `waitpid` said the engine is gone; then how long until one fails.
    first = g.write(b"isready\n")
    fails_after = 0.0
    t = time.monotonic()
    while g.write(b"isready\n") == "ok" and time.monotonic() - t < 2:
        time.sleep(0.001)
    fails_after = time.monotonic() - t
    g.finish()
    return {
        "status": status_name(st),
        "answered": "readyok" in g.text() and "id name Diff" in g.text(),
        "eof": g.eof_at is not None,
        "eof_after_death_ms": round(((g.eof_at or 99) - died) * 1000, 1),
        "write_after_death_fails_within_ms": round(fails_after * 1000, 1),
        "first_write_after_death": first,
    }


def sc_exit_code(proxied):
    cmd, _ = command(proxied, "exit", "3")
    g = Gui(cmd)
    g.write(b"uci\ngo\n")
    st, _ = g.wait()
    g.finish()
    return {"status": status_name(st), "out": g.text()}


def sc_close_stdout(proxied):
    cmd, _ = command(proxied, "close-stdout")
    g = Gui(cmd)
    st, died = g.wait()
    g.finish()
    return {"status": status_name(st), "out": g.text(),
            "eof_before_exit": g.eof_at is not None and g.eof_at < died - 0.5}


def sc_close_stdin(proxied):
    cmd, _ = command(proxied, "close-stdin")
    g = Gui(cmd)
    g.until("tick 3")
    result = g.write(b"isready\n")
    st, _ = g.wait()
    g.finish()
    return {"status": status_name(st), "write_after_close": result,
            "ticks": g.text().count("tick")}


def sc_burst(proxied):
    cmd, _ = command(proxied, "burst")
    g = Gui(cmd)
    st, _ = g.wait()
    g.finish()
    with g.lock:
        digest = hashlib.sha256(bytes(g.out)).hexdigest()
    return {"status": status_name(st), "sha256": digest, "bytes": len(g.out)}


def sc_no_read(proxied):
    cmd, _ = command(proxied, "no-read")
    g = Gui(cmd)
    fd = g.p.stdin.fileno()
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) | os.O_NONBLOCK)
    total = 0
    for _ in range(3):
        while True:
            try:
                total += os.write(fd, b"x" * 512)
            except BlockingIOError:
                break
        time.sleep(0.2)
    g.p.kill()
    g.wait()
    g.finish()
    return {"accepted_bytes": total}


def sc_ignore_eof(proxied):
    cmd, _ = command(proxied, "ignore-eof", "1.0")
    g = Gui(cmd)
    g.write(b"uci\n")
    g.p.stdin.close()
    st, took = g.wait()
    g.finish()
    return {"status": status_name(st), "out": g.text(), "ran_past_eof": took > 0.9}


def sc_signals(proxied):
    cmd, _ = command(proxied, "signals")
    g = Gui(cmd)
    g.until("ready")
    for name in ("SIGUSR1", "SIGQUIT", "SIGWINCH"):
        os.kill(g.p.pid, getattr(signal, name))
        g.until(f"got {name}", 3)
    os.kill(g.p.pid, signal.SIGTERM)
    st, _ = g.wait()
    g.finish()
    got = sorted(l for l in g.text().splitlines() if l.startswith("got"))
    return {"status": status_name(st), "handled": got}


def sc_kill_with(proxied, sig):
    cmd, _ = command(proxied, "ticks")
    g = Gui(cmd)
    g.until("ready")
    os.kill(g.p.pid, getattr(signal, sig))
    st, _ = g.wait()
    g.finish()
    return {"status": status_name(st)}


def sc_stop(proxied, sig):
    cmd, _ = command(proxied, "ticks")
    # A group of its own whose parent (this harness) is outside it: the kernel discards
    # SIGTSTP sent to an orphaned process group, and the harness's own may be one (under CI).
    g = Gui(cmd, preexec=os.setpgrp)
    g.until("tick 2")
    os.kill(g.p.pid, getattr(signal, sig))
    pid, st = os.waitpid(g.p.pid, os.WUNTRACED)
    time.sleep(0.1)
    before = g.text().count("tick")
    time.sleep(0.5)
    during = g.text().count("tick") - before
    os.kill(g.p.pid, signal.SIGCONT)
    time.sleep(0.3)
    after = g.text().count("tick") - before - during
    g.p.kill()
    g.wait()
    g.finish()
    return {"waitpid": status_name(st), "ticks_while_stopped": during,
            "ticks_after_cont": after > 0}


def sc_ignored_int(proxied):
    cmd, _ = command(proxied, "ticks")

    def ignore():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)

    g = Gui(cmd, preexec=ignore)
    g.until("tick 1")
    os.kill(g.p.pid, signal.SIGINT)
    os.kill(g.p.pid, signal.SIGHUP)
    time.sleep(0.3)
    alive = os.waitpid(g.p.pid, os.WNOHANG)[0] == 0
    g.p.kill()
    g.wait()
    g.finish()
    return {"alive_after_int_and_hup": alive}


def sc_fork_child(proxied):
    cmd, marker = command(proxied, "fork-child")
    g = Gui(cmd)
    st, died = g.wait()
    g.finish()
    return {"status": status_name(st), "out": sorted(g.text().split()),
            "eof_after_exit": (g.eof_at or 0) > died + 0.2}


GUI_KILLED = r"""
import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
p.stdout.readline()
print("go", flush=True)
import time; time.sleep(60)
"""


def sc_gui_killed(proxied):
    cmd, marker = command(proxied, "writer")
    gui = subprocess.Popen([sys.executable, "-c", GUI_KILLED, *cmd], stdout=subprocess.PIPE)
    gui.stdout.readline()
    gui.kill()
    gui.wait()
    gone = wait_gone(marker)
    return {"engine_gone_within_2s": gone is not None and gone < 2.0}


def sc_gui_closes_read_end(proxied):
    cmd, _ = command(proxied, "writer")
    g = Gui(cmd)
    g.until("ready")
    # The GUI lets go of the engine's output: its reader stops and the pipe end is closed.
    os.close(g.p.stdout.fileno())
    st, _ = g.wait(limit=5)
    return {"status": status_name(st) if st is not None else "still running"}


SUBREAPER = r"""
import ctypes, os, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
p.communicate(b"uci\nquit\n")
time.sleep(0.5)
kids = []
for t in os.listdir("/proc/self/task"):
    with open(f"/proc/self/task/{t}/children") as f:
        kids += f.read().split()
live, zombies = 0, 0
for k in kids:
    with open(f"/proc/{k}/stat") as f:
        if f.read().rsplit(")", 1)[1].split()[0] == "Z":
            zombies += 1
        else:
            live += 1
print(live, zombies, flush=True)
"""


def sc_subreaper(proxied):
    cmd, _ = command(proxied, "echo")
    out = subprocess.run([sys.executable, "-c", SUBREAPER, *cmd], capture_output=True,
                         timeout=30).stdout.split()
    return {"live_strays": int(out[0]), "zombie_strays": int(out[1])}


def sc_round_trip(proxied, runs):
    """`isready` to `readyok`, one at a time, read on this thread (no GIL hand-offs)."""
    cmd, _ = command(proxied, "echo")
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    fin, fout = p.stdin.fileno(), p.stdout.fileno()

    def ask(line, answer):
        os.write(fin, line)
        got = b""
        while answer not in got:
            got += os.read(fout, 4096)

    ask(b"uci\n", b"uciok")
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        ask(b"isready\n", b"readyok")
        times.append(time.perf_counter() - t)
    os.write(fin, b"quit\n")
    p.wait()
    return {"median_us": round(statistics.median(times) * 1e6, 1)}


# As fastchess talks to an engine: check that the process lives (waitpid WNOHANG), write,
# then wait (up to a second) for the answer or the end of its output; SIGPIPE at its default.
FASTCHESS_GUI = r"""
import os, select, signal, subprocess, sys, time
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
fd, out = p.stdin.fileno(), p.stdout.fileno()
os.write(fd, b"uci\nisready\ngo infinite\n")
buf = b""
while True:
    pid, st = os.waitpid(p.pid, os.WNOHANG)
    if pid:
        sys.exit(0)
    os.write(fd, b"isready\n")
    end = time.monotonic() + 1
    while time.monotonic() < end:
        if not select.select([out], [], [], max(0, end - time.monotonic()))[0]:
            break
        data = os.read(out, 65536)
        if not data:
            break
        buf += data
        if buf.count(b"readyok") > 1:
            buf = buf[buf.rindex(b"readyok"):]
            break
"""

# A GUI that writes as fast as it can, checking waitpid before each write: with the bare
# engine it dies whenever the engine dies between its check and its write.
TIGHT_GUI = r"""
import os, signal, subprocess, sys, threading
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
threading.Thread(target=lambda: p.stdout.read(), daemon=True).start()
fd = p.stdin.fileno()
os.write(fd, b"uci\nisready\ngo infinite\n")
while True:
    pid, st = os.waitpid(p.pid, os.WNOHANG)
    if pid:
        sys.exit(0)
    os.write(fd, b"isready\n")
"""


def sc_crash_storm(proxied, runs, gui=None):
    """A fastchess-like GUI against an engine that dies by SIGSEGV mid-search, `runs` times:
    how many times the GUI itself died."""
    gui = gui or FASTCHESS_GUI
    deaths = 0
    errors = 0
    for i in range(runs):
        cmd, _ = command(proxied, "crash", "SIGSEGV")
        env = dict(os.environ, DIFF_CRASH_AFTER=str(0.005 + (i % 10) * 0.003))
        r = subprocess.run([sys.executable, "-c", gui, *cmd], env=env,
                           capture_output=True, timeout=60)
        if r.returncode == -signal.SIGPIPE:
            deaths += 1
        elif r.returncode != 0:
            errors += 1
    return {"gui_deaths": deaths, "gui_errors": errors, "runs": runs}


def same(*keys):
    def judge(bare, prox):
        bad = [k for k in keys if bare[k] != prox[k]]
        return not bad, f"differ in {bad}" if bad else ""
    return judge


def within(check):
    def judge(bare, prox):
        ok, why = check(bare, prox)
        return ok, why
    return judge


def crash_judge(bare, prox):
    ok, why = same("status", "answered", "eof")(bare, prox)
    if not ok:
        return ok, why
    # The GUI's writes fail once the engine is dead, as on the bare pipe, after at most the
    # recorder's reaction time; they never fail before waitpid says the engine is gone (the
    # storm scenario counts that).
    if prox["write_after_death_fails_within_ms"] > 1000:
        return False, "writes after the death kept succeeding"
    if prox["eof_after_death_ms"] > 1000:
        return False, "EOF came late"
    return True, ""


SCENARIOS = {
    "crash-segv": (lambda p, a: sc_crash(p, "SIGSEGV"), crash_judge),
    "crash-abrt": (lambda p, a: sc_crash(p, "SIGABRT"), crash_judge),
    "crash-kill": (lambda p, a: sc_crash(p, "SIGKILL"), crash_judge),
    "exit-code": (lambda p, a: sc_exit_code(p), same("status", "out")),
    "close-stdout": (lambda p, a: sc_close_stdout(p), same("status", "out", "eof_before_exit")),
    "close-stdin": (lambda p, a: sc_close_stdin(p), same("status", "write_after_close", "ticks")),
    "burst": (lambda p, a: sc_burst(p), same("status", "sha256", "bytes")),
    "no-read": (lambda p, a: sc_no_read(p),
                lambda b, p: (p["accepted_bytes"] <= b["accepted_bytes"] + 4096,
                              "the GUI could write more than its pipe and one page")),
    "ignore-eof": (lambda p, a: sc_ignore_eof(p), same("status", "out", "ran_past_eof")),
    "signals": (lambda p, a: sc_signals(p), same("status", "handled")),
    "sigterm": (lambda p, a: sc_kill_with(p, "SIGTERM"), same("status")),
    "sigint": (lambda p, a: sc_kill_with(p, "SIGINT"), same("status")),
    "sigkill": (lambda p, a: sc_kill_with(p, "SIGKILL"), same("status")),
    "sigstop": (lambda p, a: sc_stop(p, "SIGSTOP"),
                same("waitpid", "ticks_while_stopped", "ticks_after_cont")),
    "sigtstp": (lambda p, a: sc_stop(p, "SIGTSTP"),
                same("waitpid", "ticks_while_stopped", "ticks_after_cont")),
    "ignored-signals": (lambda p, a: sc_ignored_int(p), same("alive_after_int_and_hup")),
    "fork-child": (lambda p, a: sc_fork_child(p), same("status", "out", "eof_after_exit")),
    "gui-killed": (lambda p, a: sc_gui_killed(p), same("engine_gone_within_2s")),
    "gui-closes-read-end": (lambda p, a: sc_gui_closes_read_end(p), same("status")),
    # The recorder outlives the engine by the moment it takes to finish the recording; a
    # GUI that is a subreaper inherits it for that moment (docs/proxy.md): never a live one.
    "subreaper": (lambda p, a: sc_subreaper(p),
                  lambda b, p: (p["live_strays"] == b["live_strays"] == 0
                                and p["zombie_strays"] <= 1,
                                "a stray process outlived the session")),
    "round-trip": (lambda p, a: sc_round_trip(p, a.runs or 300),
                   lambda b, p: (p["median_us"] <= b["median_us"] * 2 + 50,
                                 "round trip far slower than the bare engine's")),
    # Under the proxy the GUI's input stays open until the engine can be reaped, and the end
    # of the engine's output reaches the GUI no earlier: a GUI that checks, writes and waits
    # for the answer never dies.
    "crash-storm": (lambda p, a: sc_crash_storm(p, (a.runs or 200) if p else 50),
                    lambda b, p: (p["gui_deaths"] == 0 and p["gui_errors"] == 0,
                                  "the GUI died")),
    # One that never waits can die either way, when the engine dies between its check and
    # its write; never more often under the proxy (the write fails only once the engine is
    # dead, and later than on the bare pipe).
    "crash-storm-tight": (lambda p, a: sc_crash_storm(p, (a.runs or 200) if p else 50,
                                                      TIGHT_GUI),
                          lambda b, p: (p["gui_deaths"] / p["runs"]
                                        <= b["gui_deaths"] / b["runs"]
                                        and p["gui_errors"] == 0,
                                        "the GUI died more often than with the bare engine")),
}


def main():
    global KIBITZER
    ap = argparse.ArgumentParser()
    ap.add_argument("--kibitzer", required=True)
    ap.add_argument("--runs", type=int)
    ap.add_argument("scenario", choices=sorted(SCENARIOS) + ["all"])
    a = ap.parse_args()
    KIBITZER = a.kibitzer
    names = sorted(SCENARIOS) if a.scenario == "all" else [a.scenario]
    failed = 0
    for name in names:
        run, judge = SCENARIOS[name]
        bare = run(False, a)
        prox = run(True, a)
        ok, why = judge(bare, prox)
        failed += not ok
        print(json.dumps({"scenario": name, "ok": ok, "why": "" if ok else why,
                          "bare": bare, "proxied": prox}), flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
