#!/usr/bin/env python3
"""Lizzie 0.7 (Debian's liblizzie-java) with shicho attached, under Xvfb: does Lizzie draw
shicho's analysis?

Lizzie is a front end made for Leela Zero's `lz-analyze`. This starts a virtual display and
Lizzie with a position of twenty stones (an SGF whose root sets them up, so Lizzie shows it
at once and sends it as plays), its engine shicho `--override-version 0.17` behind a logging
pass-through (`logged_engine.py`). Then it checks, from the log and from screenshots:

- that Lizzie got past its version check and asked for `lz-analyze`, and that shicho's
  reports came back;
- candidate moves: Lizzie draws the best move of shicho's latest report in its best-move
  colour (cyan) and the other well-visited ones as coloured discs, on the right points;
- a variation: with the mouse over the best move, Lizzie draws that move's principal
  variation on the board, numbered stones where shicho's report put them (the four moves
  after the hovered one, over which Lizzie may draw the candidate's disc);
- win rates: each disc carries its win rate and visits, and the win-rate bar of Lizzie's
  left panel is drawn, in the two shots that go to doc/ (`lizzie.png`, the candidates, and
  `lizzie-variation.png`: the window cropped and reduced to 64 colours).

Usage: tests/lizzie/check.py [--shicho PATH] [--out DIR] [--lizzie JAR]
Needs Xvfb, ImageMagick (import, convert), xdotool, Java and Lizzie. Run it with `nice -n 19`.
"""

import argparse
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The screenshot helpers of the GoGui test: the same virtual screen, the same board reading.
_spec = importlib.util.spec_from_file_location("gogui_check", os.path.join(ROOT, "tests", "gogui", "check.py"))
gogui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gogui)
Failure, wait_for, pixel, lum = gogui.Failure, gogui.wait_for, gogui.pixel, gogui.lum

SIZE = 19
# Black Q16 Q4 F3 D2 L4 Q14 R16 P16 O16 K16, White D4 D16 C3 C6 O17 R17 Q17 P17 N17 C14;
# Black to play. (SGF letters: column then row from the top, no letter skipped.)
POSITION = ("(;GM[1]FF[4]SZ[19]KM[7.5]RU[Chinese]PL[B]"
            "AB[pd][pp][fq][dr][kp][pf][qd][od][nd][jd]"
            "AW[dp][dd][cq][cn][nc][qc][pc][oc][mc][cf])\n")
# Seconds of analysis before the shots: long enough for a few moves to gather visits.
ANALYSIS_SECONDS = 6
# Reports before a screenshot whose variations it may still show: about three seconds of
# Lizzie's repaint lag at ten reports a second.
REPAINT_REPORTS = 30


def log_lines(path):
    """The logged lines as (seconds, mark, text)."""
    if not os.path.exists(path):
        return []
    out = []
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"(\d+\.\d+) ([<>]) ?(.*)$", line.rstrip("\n"))
            if m:
                out.append((float(m.group(1)), m.group(2), m.group(3)))
    return out


def analyze_sent(lines):
    return any(mark == ">" and re.match(r"\d+ lz-analyze\b", text) for _, mark, text in lines)


def reports(lines):
    """shicho's `info` lines after Lizzie's last `lz-analyze`."""
    last = max((i for i, (_, m, t) in enumerate(lines) if m == ">" and "lz-analyze" in t),
               default=None)
    if last is None:
        return []
    return [t for _, m, t in lines[last:] if m == "<" and t.startswith("info move ")]


def candidates(report):
    """A report's candidates, best first: (move, visits, pv)."""
    out = []
    for group in report[len("info "):].split(" info "):
        tokens = group.split()
        key = {tokens[i]: tokens[i + 1] for i in range(0, tokens.index("pv"), 2)}
        out.append((key["move"], int(key["visits"]), tokens[tokens.index("pv") + 1:]))
    return out


def vertex_xy(vertex, grid):
    """The pixel centre of a GTP vertex (`Q16`) on the grid found in a screenshot."""
    cols, rows = grid
    letters = "ABCDEFGHJKLMNOPQRST"
    x = cols[letters.index(vertex[0].upper())]
    y = rows[SIZE - int(vertex[1:])]
    return x, y


def share(raw, x, y, d, test):
    """The share of the pixels of the disc of radius 0.45 d around (x, y) that pass test."""
    r = int(0.45 * d)
    hits = total = 0
    for dy in range(-r, r + 1):
        for dx in range(-r, r + 1):
            if dx * dx + dy * dy <= r * r:
                total += 1
                hits += test(pixel(raw, int(x) + dx, int(y) + dy))
    return hits / total


def is_cyan(p):
    r, g, b = p
    return r < 90 and g > 140 and b > 140


def is_tinted(p):
    """A candidate's disc (red through orange and yellow to green, or cyan): a strong colour
    that is not the wood's (whose green is most of its red and blue half of it), nor a stone
    or a line."""
    r, g, b = p
    woodlike = r >= g >= b and g > 0.7 * r and b > 0.3 * r
    return is_cyan(p) or (max(r, g, b) - min(r, g, b) > 90 and not woodlike)


def find_lizzie_grid(raw):
    """The main board's intersections, read as the GoGui test reads them, within the largest
    wood area (Lizzie's small board in its left panel is wood too)."""
    w, h = gogui.SCREEN
    col_wood = [sum(gogui.is_wood(pixel(raw, x, y)) for y in range(0, h, 2)) for x in range(w)]
    xs = [x for x in range(w) if col_wood[x] > max(col_wood) * 0.6]
    row_wood = [sum(gogui.is_wood(pixel(raw, x, y)) for x in range(xs[0], xs[-1] + 1, 2))
                for y in range(h)]
    ys = [y for y in range(h) if row_wood[y] > max(row_wood) * 0.6]
    try:
        return gogui.grid_in(raw, (xs[0], xs[-1], ys[0], ys[-1]), SIZE)
    except Failure as e:
        raise Failure(f"on Lizzie's board: {e}")


def run(shicho, jar, out):
    work = os.path.join(out, "run")
    shutil.rmtree(work, ignore_errors=True)
    home = os.path.join(work, "home")
    config_dir = os.path.join(home, ".config", "leela-zero")  # Debian's place for it
    os.makedirs(config_dir)
    log = os.path.join(work, "engine.log")
    engine = " ".join([sys.executable, os.path.join(HERE, "logged_engine.py"), log, shicho,
                       "--override-version", "0.17", "--threads", "1"])
    config = {
        "leelaz": {"engine-command": engine, "analyze-update-interval-centisec": 10,
                   "max-analyze-time-minutes": 99999, "print-comms": False},
        "ui": {"resume-previous-game": False, "confirm-exit": False, "fancy-board": False},
    }
    with open(os.path.join(config_dir, "lizzie-config.txt"), "w") as f:
        json.dump(config, f, indent=2)
    # Lizzie looks for its background picture in its working directory first: a plain one
    # in place of the grass keeps the pictures for doc/ small.
    subprocess.run(["convert", "-size", "16x16", "xc:#39423a", os.path.join(work, "background.png")],
                   check=True)
    sgf = os.path.join(work, "position.sgf")
    with open(sgf, "w") as f:
        f.write(POSITION)

    xvfb, display = gogui.start_xvfb()
    env = dict(os.environ, DISPLAY=display)
    lizzie_out = open(os.path.join(work, "lizzie.out"), "w")
    gui = subprocess.Popen(["java", f"-Duser.home={home}", "-jar", jar, sgf], cwd=work, env=env,
                           stdout=lizzie_out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        wait_for("Lizzie's lz-analyze (past its version check)",
                 lambda: analyze_sent(log_lines(log)) or gui.poll() is not None)
        if gui.poll() is not None:
            raise Failure("Lizzie exited")
        wait_for("shicho's reports", lambda: reports(log_lines(log)))
        time.sleep(ANALYSIS_SECONDS)

        # Candidate moves: the best in cyan, the well-visited ones tinted, where shicho said.
        # Lizzie repaints after each report, so a screenshot is judged against the report
        # just before it; a report that lands between the two (a move crossing a tenth of the
        # best's visits) makes them disagree for a moment, so a mismatch is looked at again,
        # and every candidate must be drawn in one and the same screenshot.
        for attempt in range(6):
            shot = os.path.join(work, "analysis.png")
            gogui.screenshot(display, shot)
            raw = gogui.load_rgb(shot)
            grid = find_lizzie_grid(raw)
            d = (grid[0][-1] - grid[0][0]) / (SIZE - 1)
            best = candidates(reports(log_lines(log))[-1])
            top = best[0][1]
            shown = [m for m, v, _ in best if v >= top // 10]
            x, y = vertex_xy(best[0][0], grid)
            if share(raw, x, y, d, is_cyan) <= 0.15:
                missing = f"no best-move disc at {best[0][0]} (shicho's best move)"
            else:
                missing = next((f"no candidate disc at {m} ({len(shown)} candidates with a tenth "
                                f"of the best move's visits)"
                                for m in shown
                                if share(raw, *vertex_xy(m, grid), d, is_tinted) < 0.5), None)
            if missing is None:
                break
            time.sleep(1.0)
        else:
            raise Failure(missing)
        print(f"lizzie: best move {best[0][0]} drawn, {len(shown)} candidates drawn")

        # The variation: the mouse over the best move shows its line on the board. The line
        # changes with nearly every report (ten a second), and Lizzie repaints a moment after
        # each, later on a loaded machine: a shot is judged against the lines shicho sent for
        # that move in the reports of the few seconds before it and any that came during it.
        pv = best[0][2]
        x, y = vertex_xy(best[0][0], grid)
        subprocess.run(["xdotool", "mousemove", str(int(x)), str(int(y))], env=env, check=True)
        colour = lambda i: "X" if i % 2 == 0 else "O"  # Black is to play
        checked = None
        for attempt in range(6):
            time.sleep(1.0)
            if attempt:
                # A fresh motion event over the move, in case Lizzie missed the first.
                for dx in (1, 0):
                    subprocess.run(["xdotool", "mousemove", str(int(x) + dx), str(int(y))],
                                   env=env, check=True)
                time.sleep(0.3)
            before = len(reports(log_lines(log)))
            shot = os.path.join(work, "variation.png")
            gogui.screenshot(display, shot)
            raw = gogui.load_rgb(shot)
            recent = reports(log_lines(log))[max(0, before - REPAINT_REPORTS):]
            lines = [p for report in reversed(recent)
                     for m, _, p in candidates(report) if m == best[0][0]]
            pv = lines[0] if lines else pv
            for line in lines:
                # The line's first move is the point under the mouse, where Lizzie may draw
                # the candidate's disc (its win rate and visits) over the first stone: the
                # four moves after it are the variation's own.
                stones = [(i, v) for i, v in enumerate(line[:5]) if i > 0 and v != "pass"]
                if stones and all(gogui.classify(raw, *vertex_xy(v, grid), d) == colour(i)
                                  for i, v in stones):
                    checked = line[:5]
                    break
            if checked is not None:
                break
        if checked is None:
            drawn = " ".join(f"{v}:{gogui.classify(raw, *vertex_xy(v, grid), d)}"
                             for v in pv[:5] if v != "pass")
            raise Failure(f"the variation {' '.join(pv[:5])} (or any of the lines of the "
                          f"{REPAINT_REPORTS} reports before) is not drawn over the best move "
                          f"(the last shot there: {drawn}; {len(lines)} lines tried)")
        print(f"lizzie: variation {' '.join(checked)} drawn")

        # The pictures for doc/: the candidates, and the variation, with the win-rate panel.
        for name, png in (("lizzie.png", "analysis.png"), ("lizzie-variation.png", "variation.png")):
            subprocess.run(["convert", os.path.join(work, png), "-trim", "+repage", "-strip",
                            "-colors", "64", "PNG8:" + os.path.join(out, name)], check=True)
    except Failure:
        # The JVM writes a dump of its threads to lizzie.out: which of Lizzie's are alive
        # (its engine reader in Leelaz.read?) says where it stopped.
        if gui.poll() is None:
            os.kill(gui.pid, signal.SIGQUIT)
            time.sleep(1)
        raise
    finally:
        gogui.stop(gui, xvfb)
        lizzie_out.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shicho", default=os.path.join(ROOT, "target", "release", "shicho"))
    parser.add_argument("--lizzie", default=os.environ.get("LIZZIE", "/usr/share/java/lizzie.jar"))
    parser.add_argument("--out", default=os.path.join(ROOT, "target", "lizzie-test"))
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    start = time.time()
    try:
        run(os.path.abspath(args.shicho), args.lizzie, out)
    except (Failure, subprocess.CalledProcessError, OSError) as e:
        print(f"lizzie: FAIL: {e}", file=sys.stderr)
        print(f"  logs in {os.path.join(out, 'run')}", file=sys.stderr)
        sys.exit(1)
    print(f"lizzie: ok ({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
