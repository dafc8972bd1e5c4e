#!/usr/bin/env python3
"""Reference point for benches/proxy.rs: the usual thread-based Python tee wrapper.

Forwards each read immediately in both directions and appends it to a log file, the way
ad-hoc engine loggers found in forums and repositories do. Usage: python_tee.py LOG ENGINE ARGS...
"""
import os
import subprocess
import sys
import threading

log = open(sys.argv[1], "ab", buffering=0)
lock = threading.Lock()
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)


def pump(src_fd, dst_fd, tag, close_dst=None):
    while True:
        data = os.read(src_fd, 65536)
        if not data:
            break
        os.write(dst_fd, data)
        with lock:
            log.write(tag + data)
    if close_dst:
        close_dst()


up = threading.Thread(target=pump, args=(0, child.stdin.fileno(), b">", child.stdin.close), daemon=True)
down = threading.Thread(target=pump, args=(child.stdout.fileno(), 1, b"<"))
up.start()
down.start()
down.join()
sys.exit(child.wait())
