#!/usr/bin/env python3
"""train/teacher.py's --replay against the fake analysis engine (tests/openings/fake_analysis.py):
every position of each readable record's main line is labelled, or with --replay-every K
every K-th from ply (game number mod K), (game number + J) mod K with --replay-from J; a
record written with white space inside "(;" is read, one with setup stones is skipped; and
shicho-train net-data encodes the labels, the sparse ones too, one record a position. Run by
scripts/test; needs Python 3 and the release build of shicho-train (net-data's part is
skipped without it).

  python3 tests/teacher/check.py"""

import gzip
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TEACHER = os.path.join(ROOT, "train", "teacher.py")
FAKE = f"{sys.executable} {os.path.join(ROOT, 'tests', 'openings', 'fake_analysis.py')}"
NET_DATA = os.path.join(ROOT, "target", "release", "shicho-train")

# Main lines of 10 and 7 moves on 9x9 (the first branch ends a main line, as teacher.py
# reads them); the first written as some editors write SGF.
SPACED = "(\n;\nFF[4]\nSZ[9]\nKM[6.5]\n;B[ee];W[cc];B[gg];W[cg]\n;B[gc];W[dd];B[ff];W[ec];B[fd];W[df])\n"
PLAIN = "(;FF[4]SZ[9]KM[7];B[cc];W[gg];B[cg];W[gc];B[ee];W[ed];B[de](;W[fe])(;W[dd]))"
SETUP = "(;FF[4]SZ[9]AB[cc][gg]KM[0.5];W[ee];B[cg])"


def fail(message):
    print(f"teacher check: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def labelled(path):
    """{game number: (komi, moves, [plies labelled])} of a teacher file."""
    games = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith("G "):
                fields = line.split()
                current = int(fields[1])
                games[current] = (float(fields[3]), fields[4:], [])
            elif line.startswith("P "):
                games[current][2].append(int(line.split()[1]))
    return games


def replay(records, out, *extra):
    run = subprocess.run([sys.executable, TEACHER, "--katago", FAKE, "--parallel", "2",
                          "--replay", *records, "-o", out, *extra],
                         capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        fail(f"teacher.py {' '.join(extra)} exited {run.returncode}: {run.stderr[-800:]}")
    return labelled(out)


def expect_refused(option, record, out, *extra):
    """The teacher, given `extra`, exits with an error that names `option` and no traceback."""
    run = subprocess.run([sys.executable, TEACHER, "--katago", FAKE, "--replay", record, "-o", out, *extra],
                         capture_output=True, text=True, timeout=60)
    if run.returncode == 0 or option not in run.stderr or "Traceback" in run.stderr:
        fail(f"{' '.join(extra)} was not refused clearly: {run.stderr[-400:]}")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        records = []
        for name, text in (("spaced", SPACED), ("setup", SETUP), ("plain", PLAIN)):
            path = os.path.join(tmp, f"{name}.sgf")
            with open(path, "w") as f:
                f.write(text)
            records.append(path)

        every = replay(records, os.path.join(tmp, "every.txt.gz"))
        if sorted(every) != [0, 2]:
            fail(f"--replay labelled games {sorted(every)}, not 0 and 2 (1 has setup stones)")
        if every[0][2] != list(range(11)) or every[2][2] != list(range(8)):
            fail(f"--replay labelled plies {every[0][2]} and {every[2][2]}, not every position")
        if every[0][0] != 6.5 or every[2][0] != 7 or every[2][1][-1] != "D5":
            fail(f"komi or main line read wrongly: {every[0][:2]}, {every[2][:2]}")
        print("teacher check: --replay labels every position of each readable record")

        sparse = replay(records, os.path.join(tmp, "sparse.txt.gz"), "--replay-every", "3")
        if sparse[0][2] != [0, 3, 6, 9] or sparse[2][2] != [2, 5]:
            fail(f"--replay-every 3 labelled plies {sparse[0][2]} and {sparse[2][2]}, "
                 "not [0, 3, 6, 9] and [2, 5]")
        print("teacher check: --replay-every 3 labels every third position, from ply K mod 3")

        shifted = replay(records, os.path.join(tmp, "shifted.txt.gz"), "--replay-every", "3", "--replay-from", "1")
        if shifted[0][2] != [1, 4, 7, 10] or shifted[2][2] != [0, 3, 6]:
            fail(f"--replay-every 3 --replay-from 1 labelled plies {shifted[0][2]} and {shifted[2][2]}, "
                 "not [1, 4, 7, 10] and [0, 3, 6]")
        print("teacher check: --replay-from 1 labels the positions --replay-every 3 left out")

        bad_out = os.path.join(tmp, "bad.txt.gz")
        expect_refused("--replay-every", records[0], bad_out, "--replay-every", "0")
        expect_refused("--replay-from", records[0], bad_out, "--replay-every", "3", "--replay-from", "3")

        if not os.access(NET_DATA, os.X_OK):
            print("teacher check: net-data skipped (no target/release/shicho-train)")
            return
        for name, want in (("every", 19), ("sparse", 6)):
            with gzip.open(os.path.join(tmp, f"{name}.txt.gz"), "rb") as f:
                labels = f.read()
            prefix = os.path.join(tmp, f"{name}-records")
            run = subprocess.run([NET_DATA, "net-data", prefix], input=labels,
                                 capture_output=True, timeout=60)
            if run.returncode != 0:
                fail(f"net-data on the {name} labels exited {run.returncode}: {run.stderr[-400:]}")
            with open(f"{prefix}-9.json") as f:
                meta = json.load(f)
            count = meta.get("records")
            if count != want:
                fail(f"net-data made {count} records of the {name} labels, not {want}: {meta}")
        print("teacher check: net-data encodes every label, the sparse ones too")


if __name__ == "__main__":
    main()
