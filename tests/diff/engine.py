#!/usr/bin/env python3
"""Small engines for the proxy's differential harness (tests/diff/harness.py).

Each mode does one thing a real engine does at the end of its life or under a signal. The
harness runs every mode bare and under `kibitzer record` and compares what the GUI sees.
The last argument is a marker the harness uses to find the engine's processes.
"""
import os
import signal
import sys
import threading
import time


def out(text):
    os.write(1, (text + "\n").encode())


def answer_lines(on_go=None):
    """Answers uci/isready like a UCI engine, until EOF or quit."""
    buf = b""
    while True:
        data = os.read(0, 4096)
        if not data:
            return
        buf += data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            cmd = line.strip().decode(errors="replace")
            if cmd == "uci":
                out("id name Diff\nuciok")
            elif cmd == "isready":
                out("readyok")
            elif cmd.startswith("go") and on_go:
                on_go()
            elif cmd == "quit":
                sys.exit(0)


def main():
    mode = sys.argv[1]
    arg = sys.argv[2] if len(sys.argv) > 3 else None
    if mode == "crash":
        # Answers until `go`, then searches briefly and dies by the signal named.
        sig = getattr(signal, arg)
        if sig != signal.SIGKILL:
            signal.signal(sig, signal.SIG_DFL)
        delay = float(os.environ.get("DIFF_CRASH_AFTER", "0.02"))

        def go():
            def search():
                end = time.monotonic() + delay
                depth = 1
                while time.monotonic() < end:
                    out(f"info depth {depth} score cp 10 pv e2e4")
                    depth += 1
                    time.sleep(0.002)
                os.kill(os.getpid(), sig)

            threading.Thread(target=search, daemon=True).start()

        answer_lines(go)
        time.sleep(5)
    elif mode == "exit":
        answer_lines(lambda: sys.exit(int(arg)))
    elif mode == "close-stdout":
        out("bye")
        os.close(1)
        time.sleep(1.5)
    elif mode == "close-stdin":
        os.close(0)
        for i in range(15):
            out(f"tick {i}")
            time.sleep(0.1)
    elif mode == "burst":
        chunk = bytes((i * 7 + 3) % 256 for i in range(4096))
        for _ in range(256):
            os.write(1, chunk)
    elif mode == "no-read":
        time.sleep(3)
    elif mode == "ignore-eof":
        while os.read(0, 4096):
            pass
        time.sleep(float(arg))
        out("last")
    elif mode == "signals":
        for name in ("SIGUSR1", "SIGQUIT", "SIGWINCH"):
            signal.signal(getattr(signal, name), lambda s, f: out(f"got {signal.Signals(s).name}"))
        out("ready")
        for i in range(100):
            out(f"tick {i}")
            time.sleep(0.05)
    elif mode == "ticks":
        # Default dispositions (as inherited): ticks until killed, for stop/ignore tests.
        out("ready")
        for i in range(200):
            out(f"tick {i}")
            time.sleep(0.025)
    elif mode == "fork-child":
        if os.fork() == 0:
            time.sleep(0.5)
            out("child")
            os._exit(0)
        out("parent")
    elif mode == "writer":
        # Writes until a write fails; SIGPIPE at its default, as a C engine has it.
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        out("ready")
        while True:
            out("info depth 1 score cp 0 nodes 1 pv e2e4")
            time.sleep(0.01)
    elif mode == "echo":
        answer_lines()
    else:
        sys.exit(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
