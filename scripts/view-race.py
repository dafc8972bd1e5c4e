#!/usr/bin/env python3
"""Times `kibitzer view` indexing a big file against `lnav -n -q` loading it, in turns.

Each viewer runs on a pseudo-terminal of 160x40 that this script drains; its indexing time is
from the start of the process to the end of its `kibitzer-index` thread, which ends when the
whole input is read, decoded and judged (the status bar's "indexing" goes with the frame
drawn at that moment). That end is waited for on a pidfd of the thread (Linux 6.9 or newer),
which costs this script no CPU; polling /proc every 2 ms instead took 0.12-0.24 s of CPU in a
2.6 s run, on a machine whose two cores the viewer's two threads keep busy (an older kernel
falls back to polling every 20 ms). scripts/view-turns.sh asks tmux for the screen every 50 ms,
and the tmux and grep processes it starts took about 0.23 s of CPU over a 2 s run. lnav's time
is its whole run. The file is read once before the first round, and each round starts with the
next contestant in turn.

Usage: scripts/view-race.py ROUNDS FILE BINARY [BINARY ...]
Prints every round, then each one's median and its ratio to lnav's median, and the median of
the rounds' ratios of the first binary to each other contestant.
"""
import fcntl, os, pty, select, signal, statistics, struct, subprocess, sys, termios, time


def index_thread(task):
    """The id of the viewer's `kibitzer-index` thread, if it is running."""
    try:
        for t in os.listdir(task):
            try:
                with open(f"{task}/{t}/comm") as f:
                    if f.read().strip() == "kibitzer-index":
                        return int(t)
            except OSError:
                pass
    except OSError:
        pass
    return None


# pidfd_open's flag for a pidfd of one thread, which polls readable when that thread ends
# (Linux 6.9): the wait then costs no CPU. Polling /proc every 2 ms for the whole run took
# 0.18-0.24 s of CPU over a 2.6 s run, from a viewer that keeps both cores busy (and nothing
# from lnav, which is timed by its exit).
PIDFD_THREAD = os.O_EXCL


def drain(fd):
    try:
        return bool(os.read(fd, 1 << 16))
    except OSError:
        return False


def index_time(binary, path):
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        try:
            os.execv(binary, [binary, "view", path])
        finally:
            # Only reached when the exec failed: the child must not go on as this script.
            os._exit(127)
    start = time.monotonic()
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
    os.kill(pid, signal.SIGWINCH)  # the size above
    task = f"/proc/{pid}/task"
    end = None
    # Until the thread starts (a few milliseconds), look for it every 2 ms.
    tid = None
    while tid is None and time.monotonic() - start < 5:
        r, _, _ = select.select([fd], [], [], 0.002)
        if r and not drain(fd):
            break
        tid = index_thread(task)
    if tid is not None:
        try:
            thread = os.pidfd_open(tid, PIDFD_THREAD)
        except ProcessLookupError:
            # Already gone: a small file.
            end = time.monotonic()
        except OSError:
            thread = None  # an older kernel: poll instead, every 20 ms
        if end is None and thread is not None:
            while end is None:
                r, _, _ = select.select([fd, thread], [], [])
                if thread in r:
                    end = time.monotonic()
                elif fd in r and not drain(fd):
                    break
            os.close(thread)
        while end is None:
            r, _, _ = select.select([fd], [], [], 0.02)
            if r and not drain(fd):
                break
            if index_thread(task) != tid:
                end = time.monotonic()
    os.write(fd, b"q")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                if not os.read(fd, 1 << 16):
                    break
            except OSError:
                break
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    os.close(fd)
    if end is None:
        sys.exit(f"{binary}: no kibitzer-index thread seen; is it a binary from before it was named?")
    return end - start


def lnav_time(path):
    start = time.monotonic()
    subprocess.run(["lnav", "-n", "-q", path], stdout=subprocess.DEVNULL, check=True)
    return time.monotonic() - start


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds, path, binaries = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    # The file into the page cache first: a page not read for a while may have been paged
    # out (this VM runs DAMON's pageout scheme), and the first contestant would read it from
    # disk for the others.
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass
    contestants = binaries + ["lnav"]
    times = {c: [] for c in contestants}
    for n in range(rounds):
        # Each round starts with the next contestant: none is always the first after a pause.
        order = contestants[n % len(contestants):] + contestants[:n % len(contestants)]
        for c in order:
            times[c].append(lnav_time(path) if c == "lnav" else index_time(c, path))
            time.sleep(0.5)
        row = [f"{c} {times[c][-1]:.3f}" for c in contestants]
        print(f"round {n + 1}: " + " | ".join(row), flush=True)
    base = statistics.median(times["lnav"])
    for k, v in times.items():
        m = statistics.median(v)
        print(f"{k}: median {m:.2f} s ({m / base:.2f}x lnav)")
    # Paired: each round's ratio, then their median; steadier than a ratio of medians when
    # the machine's speed drifts from round to round.
    first = binaries[0]
    for k in contestants[1:]:
        ratios = [a / b for a, b in zip(times[first], times[k])]
        print(f"{first} / {k}: median of the rounds' ratios {statistics.median(ratios):.2f}x")


if __name__ == "__main__":
    main()
