#!/usr/bin/env python3
"""A GTP engine passed through unchanged, every line logged with its time: Lizzie's engine
command in tests/lizzie/check.py, so the test can see what Lizzie sent and what it heard.

A thread per direction, so that a streaming answer (`lz-analyze`) never holds back the
command that ends it. The log's lines: `SECONDS > command` for what the GUI sent,
`SECONDS < line` for what the engine answered. The engine's stderr is passed through too
(Lizzie reads it mixed with stdout).

The engine's answers reach Lizzie only once Lizzie has sent `clear_board`. Lizzie 0.7.4
starts its engine inside `EngineManager`'s constructor and handles the answer to `version`
with `Lizzie.engineManager.updateEngineIcon()`, before `Lizzie.engineManager` is assigned
if the answer is quick: the reading thread then dies of a NullPointerException nobody sees,
and `lz-analyze` is never sent (one CI run saw it). Its first `clear_board` comes after that
assignment (loading the SGF), so holding the answers until then closes the race; Leela Zero,
which loads its network before answering, never meets it.

Usage: logged_engine.py LOG ENGINE [ARGS...]
"""

import re
import subprocess
import sys
import threading
import time

# Seconds the answers wait for `clear_board` at most: a Lizzie that never sends it is slowed,
# not stopped.
GATE_SECONDS = 20


def main():
    log = open(sys.argv[1], "a", buffering=1)
    engine = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    start = time.time()
    lock = threading.Lock()
    board_cleared = threading.Event()

    def write(mark, line):
        with lock:
            log.write(f"{time.time() - start:.3f} {mark} {line.decode(errors='replace').rstrip()}\n")

    def answers():
        for line in iter(engine.stdout.readline, b""):
            write("<", line)
            # Once past, open for good: a Lizzie that never clears would otherwise pay the
            # wait on every line.
            board_cleared.wait(GATE_SECONDS)
            board_cleared.set()
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
        if re.match(rb"\s*\d*\s*clear_board\b", line):
            board_cleared.set()
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    engine.wait()


if __name__ == "__main__":
    main()
