#!/usr/bin/env python3
"""A GTP engine passed through unchanged, every line logged with its time: Lizzie's engine
command in tests/lizzie/check.py, so the test can see what Lizzie sent and what it heard.

A thread per direction, so that a streaming answer (`lz-analyze`) never holds back the
command that ends it. The log's lines: `SECONDS > command` for what the GUI sent,
`SECONDS < line` for what the engine answered. The engine's stderr is passed through too
(Lizzie reads it mixed with stdout).

Usage: logged_engine.py LOG ENGINE [ARGS...]
"""

import subprocess
import sys
import threading
import time


def main():
    log = open(sys.argv[1], "a", buffering=1)
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    start = time.time()
    lock = threading.Lock()

    def write(mark, line):
        with lock:
            log.write(f"{time.time() - start:.3f} {mark} {line.decode(errors='replace').rstrip()}\n")

    def answers():
        for line in iter(engine.stdout.readline, b""):
            write("<", line)
            sys.stdout.buffer.write(line)
            sys.stdout.buffer.flush()

    threading.Thread(target=answers, daemon=True).start()
    for line in iter(sys.stdin.buffer.readline, b""):
        write(">", line)
        try:
            engine.stdin.write(line)
            engine.stdin.flush()
        except BrokenPipeError:
            break
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    engine.wait()


if __name__ == "__main__":
    main()
