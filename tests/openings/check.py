#!/usr/bin/env python3
"""scripts/openings against the fake analysis engine (tests/openings/fake_analysis.py): the
file it writes is in shicho-match's --openings format, every opening is within the length
range and the tolerance, no position repeats, the judge's perspective is learnt whichever
it reports, an interrupted run writes what it found, and a judge that dies or answers
errors is a clear failure, not a hang or a traceback. Run by scripts/test; needs only Python 3.

  python3 tests/openings/check.py"""

import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, "scripts", "openings")
FAKE = f"{sys.executable} {os.path.join(HERE, 'fake_analysis.py')}"


def fail(message):
    print(f"openings check: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def run(*args, timeout=60):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          timeout=timeout)


def check_file(text, size, count, lo, hi, tolerance):
    lines = [l for l in text.splitlines() if l.strip() and not l.startswith("#")]
    if len(lines) != count:
        fail(f"{len(lines)} openings, wanted {count}:\n{text}")
    seen = set()
    for line in lines:
        vertices, _, comment = line.partition("#")
        moves = vertices.split()
        if not lo <= len(moves) <= hi:
            fail(f"length {len(moves)} outside {lo}..{hi}: {line}")
        if len(set(moves)) != len(moves):
            fail(f"a point played twice: {line}")
        black = float(comment.split()[1])
        if abs(black - 0.5) > tolerance:
            fail(f"win rate {black} outside the tolerance: {line}")
        if tuple(moves) in seen:
            fail(f"repeated: {line}")
        seen.add(tuple(moves))
    if "# judge: " not in text or "scripts/openings --katago" not in text:
        fail(f"the header lacks the recipe:\n{text}")


def main():
    for report in ["B", "W", "side"]:
        r = run("--katago", f"{FAKE} --report {report}", "--size", "9", "--count", "12",
                "--visits", "50", "--min-moves", "2", "--max-moves", "6", "--parallel", "8",
                "--seed", "7", "-q")
        if r.returncode != 0:
            fail(f"report {report}: status {r.returncode}: {r.stderr}")
        check_file(r.stdout, 9, 12, 2, 6, 0.1)
    # The same on 19x19, through --out, with a tighter tolerance.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "19x19.txt")
        r = run("--katago", FAKE, "--size", "19", "--count", "5", "--tolerance", "0.05",
                "--parallel", "3", "--out", path, "-q")
        if r.returncode != 0:
            fail(f"19x19: status {r.returncode}: {r.stderr}")
        text = open(path).read()
        check_file(text, 19, 5, 4, 16, 0.05)
    # Interrupted (a batch system's SIGTERM), it writes what it found so far.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "part.txt")
        p = subprocess.Popen([sys.executable, SCRIPT, "--katago", FAKE, "--count", "100000",
                              "--max-candidates", "10000000", "--out", path, "-q"],
                             stderr=subprocess.PIPE, text=True)
        time.sleep(2)
        p.send_signal(signal.SIGTERM)
        _, err = p.communicate(timeout=30)
        if p.returncode != 130 or not os.path.exists(path):
            fail(f"interrupted: status {p.returncode}, {err}")
        text = open(path).read()
        found = [l for l in text.splitlines() if l and not l.startswith("#")]
        if "# interrupted: " not in text or not found:
            fail(f"interrupted: the file holds {len(found)} openings:\n{text[:500]}")
    # Failures: a judge that dies mid-run, one that answers errors, one that is no program.
    for judge, words in [
        (f"{FAKE} --die-after 5", "exited with status 3"),
        # Gone before it reads a query: the write fails first, yet its exit is what is told.
        ("sh -c 'exec 0<&-; sleep 0.5; echo gone >&2; exit 3'", "exited with status 3 (gone)"),
        (f"{FAKE} --error", "fake error"),
        ("/nonexistent/katago", "cannot start"),
    ]:
        r = run("--katago", judge, "--count", "3", "-q", timeout=30)
        if r.returncode != 1 or words not in r.stderr or "Traceback" in r.stderr:
            fail(f"{judge}: status {r.returncode}, stderr {r.stderr!r}")
    # Bad options are refused by argparse with status 2.
    for bad in [["--size", "30"], ["--min-moves", "5", "--max-moves", "3"],
                ["--tolerance", "0.7"], ["--count", "0"]]:
        r = run("--katago", FAKE, *bad)
        if r.returncode != 2:
            fail(f"{bad}: status {r.returncode}")
    print("openings check: ok")


if __name__ == "__main__":
    main()
