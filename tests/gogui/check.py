#!/usr/bin/env python3
"""GoGui 1.6 with shicho attached, under Xvfb: does GoGui show the board shicho plays on?

For each game (Dao-qi on a 9x9 torus; Othello, once the engine has its GTP mode) this starts a
virtual display, GoGui with `-computer-both` and the engine wrapped by `scripted_engine.py`
(its genmoves answered from a fixed script, everything else passed to shicho), and lets the
game run. GoGui attaches the program, sees from `gogui-rules_game_id` that it is not Go,
starts the same command again as its ruler, and from then on draws whatever the ruler's
`gogui-rules_board` says. At each `barrier` of the script the game stops and three boards
are compared:

- the board GoGui draws, read from a screenshot (the grid is found on the empty board at
  the start; each intersection is classified black, white or empty by its pixels);
- the ruler's last `gogui-rules_board` answer (from the wrapper's log of the ruler);
- the player's board (the engine GoGui plays with, asked at the barrier);

and at named barriers the expected diagram as well: e.g. after two captures across the
wrap-around edges, which GoGui's plane rules would not make. At the end the script passes
twice, the ruler's legal moves come back empty, and GoGui shows the ruler's
`gogui-rules_final_result`; the test checks that it asked and what the answer says.

Screenshots and logs go to the output directory (default target/gogui-test); the
screenshot of each game's main barrier is also cropped to GoGui's window and reduced to 64
colours (`CASE.png`): the README's pictures in doc/ are copies of those.

Usage: tests/gogui/check.py [--gogui PATH] [--shicho PATH] [--out DIR] [CASE ...]
Needs Xvfb, ImageMagick (import, convert) and Java. Run it with `nice -n 19`.
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCREEN = (1024, 768)
TIMEOUT = 120  # seconds for any one step (a JVM starting on a loaded machine is slow)


def rows_of(text):
    """Board rows from `X . O` text (any separators), top row first."""
    rows = []
    for line in text.splitlines():
        cells = "".join(ch for ch in line if ch in "XO.")
        if cells:
            rows.append(cells)
    return rows


CASES = {
    "daoqi": {
        "engine": ["--rules", "daoqi", "--size", "9", "--komi", "4", "--playouts", "300",
                   "--resign", "0", "--seed", "7"],
        "gogui": ["-komi", "4"],
        "size": 9,
        "script": """
            barrier start
            A6
            A5
            A4
            C7
            B5
            C3
            J5      # takes A5: J5 is A5's neighbour across the left/right edge
            E1
            E2
            G7
            D1
            G3
            F1
            C5
            E9      # takes E1: E9 is E1's neighbour across the top/bottom edge
            barrier wrap
            engine
            engine
            barrier engine
            pass
            pass
        """,
        "expect": {
            "wrap": rows_of("""
                . . . . X . . . .
                . . . . . . . . .
                . . O . . . O . .
                X . . . . . . . .
                . X O . . . . . X
                X . . . . . . . .
                . . O . . . O . .
                . . . . X . . . .
                . . . X . X . . .
            """),
        },
        "captured": {"wrap": "2 0"},
        "shown": "wrap",
        "result": r"^(Black|White) wins by [0-9.]+ \([BW]\+[0-9.]+\)\. Black \d+, White \d+ \+ komi 4",
    },
    # Othello: GoGui names points the Go way (row 1 at the bottom), so the ruler gives its
    # rows bottom row first and GoGui's labels read as Othello's notation: the moves below
    # are Othello's, and the picture is Othello's board upside down.
    "othello": {
        "engine": ["--game", "othello", "--player", "greedy"],
        "gogui": [],
        "size": 8,
        "script": """
            barrier start
            D3      # turns D4
            C3      # turns D4 back
            C4      # turns D4 again
            C5      # turns D5 and C4: two lines at once
            barrier flips
            engine
            engine
            barrier engine
        """,
        # After the script the engine plays both sides to the end of the game.
        "expect": {
            "start": rows_of("""
                . . . . . . . .
                . . . . . . . .
                . . . . . . . .
                . . . X O . . .
                . . . O X . . .
                . . . . . . . .
                . . . . . . . .
                . . . . . . . .
            """),
            "flips": rows_of("""
                . . . . . . . .
                . . . . . . . .
                . . . . . . . .
                . . O O O . . .
                . . O X X . . .
                . . O X . . . .
                . . . . . . . .
                . . . . . . . .
            """),
        },
        "captured": {"flips": "2 3"},
        "shown": "flips",
        "result": r"^((Black|White) wins by \d+ \([BW]\+\d+\)\.|Draw\.) Black \d+ discs, White \d+\.$",
        # Othello's GTP mode (`--game othello`) comes from its own branch; until the engine
        # has it, this case is skipped.
        "needs": ["--game", "othello"],
    },
}


class Failure(Exception):
    pass


def wait_for(what, test, timeout=TIMEOUT):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if test():
            return
        time.sleep(0.1)
    raise Failure(f"timed out waiting for {what}")


def parse_log(path):
    """A wrapper log as (command, response) pairs, in order."""
    pairs = []
    command, response = None, []
    with open(path) as f:
        for line in f:
            if line.startswith("> ") and command is None:
                command, response = line[2:].rstrip("\n"), []
            elif command is not None:
                if line == "\n":
                    pairs.append((command, "".join(response)))
                    command = None
                else:
                    response.append(line)
    return pairs


def answer_text(response):
    return re.sub(r"^=\d*\s?", "", response).rstrip("\n")


def ruler_log(log_dir):
    """The log of the ruler GoGui uses: of the processes asked for the board, the one that
    was sent the most moves (GoGui may start and drop a ruler while attaching)."""
    best, best_plays = None, -1
    for name in os.listdir(log_dir):
        if not name.endswith(".log"):
            continue
        pairs = parse_log(os.path.join(log_dir, name))
        commands = [c for c, _ in pairs]
        if "gogui-rules_board" not in commands or any("genmove" in c for c in commands):
            continue
        if any(c.startswith("play ") for c, _ in pairs[-200:]) or best is None:
            plays = sum(1 for c in commands if c.startswith("play "))
            if plays > best_plays:
                best, best_plays = pairs, plays
    if best is None:
        raise Failure("no ruler was started (no process was asked for gogui-rules_board)")
    return best


def last_answer(pairs, command):
    for c, r in reversed(pairs):
        if c == command:
            return answer_text(r)
    raise Failure(f"the ruler was never sent {command}")


# ----- reading the board from a screenshot ------------------------------------------------


def load_rgb(png):
    raw = subprocess.run(["convert", png, "-depth", "8", "rgb:-"], check=True,
                         capture_output=True).stdout
    w, h = SCREEN
    if len(raw) != w * h * 3:
        raise Failure(f"{png}: expected a {w}x{h} screenshot")
    return raw


def pixel(raw, x, y):
    i = (y * SCREEN[0] + x) * 3
    return raw[i], raw[i + 1], raw[i + 2]


def is_wood(p):
    r, g, b = p
    return r > 140 and g > 100 and r - b > 45


def lum(p):
    r, g, b = p
    return 0.3 * r + 0.59 * g + 0.11 * b


def runs(values, threshold):
    """Centres of the runs of indices whose value exceeds threshold."""
    centres, start = [], None
    for i, v in enumerate(values + [0]):
        if v > threshold and start is None:
            start = i
        elif v <= threshold and start is not None:
            centres.append((start + i - 1) / 2)
            start = None
    return centres


def find_grid(raw, size):
    """The intersections' pixel centres, from a screenshot of the empty board."""
    w, h = SCREEN
    col_wood = [0] * w
    row_wood = [0] * h
    for y in range(0, h):
        for x in range(0, w):
            if is_wood(pixel(raw, x, y)):
                col_wood[x] += 1
                row_wood[y] += 1
    xs = [x for x in range(w) if col_wood[x] > 100]
    ys = [y for y in range(h) if row_wood[y] > 100]
    if not xs or not ys:
        raise Failure("no board in the screenshot")
    return grid_in(raw, (xs[0], xs[-1], ys[0], ys[-1]), size)


def grid_in(raw, bounds, size):
    """The intersections' pixel centres inside the board's bounds (x0, x1, y0, y1): the
    columns and rows where the dark pixels of the lines run."""
    w, h = SCREEN
    x0, x1, y0, y1 = bounds
    col_dark = [0] * w
    row_dark = [0] * h
    for y in range(y0, y1 + 1):
        for x in range(x0, x1 + 1):
            if lum(pixel(raw, x, y)) < 110:
                col_dark[x] += 1
                row_dark[y] += 1
    cols = runs(col_dark, max(col_dark) / 2)
    rows = runs(row_dark, max(row_dark) / 2)
    if len(cols) != size or len(rows) != size:
        raise Failure(f"found a {len(cols)}x{len(rows)} grid, expected {size}x{size}")
    return cols, rows


def classify(raw, x, y, d):
    """`X`, `O` or `.` for the intersection at (x, y), grid spacing d: the majority of four
    patches around it (off centre, away from the lines and GoGui's last-move mark); `?`
    without a majority."""
    votes = []
    for dx in (-0.27, 0.27):
        for dy in (-0.27, 0.27):
            px, py = int(round(x + dx * d)), int(round(y + dy * d))
            patch = [pixel(raw, px + i, py + j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
            r = sum(p[0] for p in patch) / 9
            g = sum(p[1] for p in patch) / 9
            b = sum(p[2] for p in patch) / 9
            if lum((r, g, b)) < 90:
                votes.append("X")
            elif max(r, g, b) - min(r, g, b) < 40 and lum((r, g, b)) > 150:
                votes.append("O")
            else:
                # Wood, or markup drawn on an empty point (Othello's legal-move squares).
                votes.append(".")
    best = max(set(votes), key=votes.count)
    return best if votes.count(best) >= 3 else "?"


def read_board(raw, grid):
    cols, rows = grid
    d = (cols[-1] - cols[0]) / (len(cols) - 1)
    return ["".join(classify(raw, int(x), int(y), d) for x in cols) for y in rows]


def screenshot(display, path):
    subprocess.run(["import", "-display", display, "-window", "root", path], check=True)


def start_xvfb():
    """A virtual screen of SCREEN's size on a free display: (the process, the display)."""
    read_fd, write_fd = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
         "-nolisten", "tcp"],
        pass_fds=[write_fd], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_fd)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read_fd, 16)
        if not chunk:
            raise Failure("Xvfb did not start")
        number += chunk
    os.close(read_fd)
    return xvfb, ":" + number.decode().strip()


def stop(gui, xvfb):
    """Ends a GUI started in a session of its own (with everything it started) and its screen."""
    try:
        os.killpg(gui.pid, signal.SIGTERM)
    except ProcessLookupError:
        pass
    gui.wait()
    xvfb.terminate()
    xvfb.wait()


# ----- one game --------------------------------------------------------------------------


def run_case(name, case, gogui, shicho, out):
    work = os.path.join(out, name)
    shutil.rmtree(work, ignore_errors=True)
    logs = os.path.join(work, "logs")
    home = os.path.join(work, "home")
    os.makedirs(logs)
    os.makedirs(home)
    # Coordinates on the board (GoGui hides them by default).
    with open(os.path.join(home, ".gogui-prefs"), "w") as f:
        f.write("net.sf.gogui.gogui.show-grid=true\n")
    script = os.path.join(work, "script.txt")
    with open(script, "w") as f:
        f.write("\n".join(line.strip() for line in case["script"].strip().splitlines()) + "\n")
    barriers = re.findall(r"^\s*barrier (\S+)", case["script"], re.M)

    xvfb, display = start_xvfb()

    program = " ".join([sys.executable, os.path.join(HERE, "scripted_engine.py"),
                        "--script", script, "--log-dir", logs, "--", shicho] + case["engine"])
    env = dict(os.environ, DISPLAY=display, JAVA_TOOL_OPTIONS=f"-Duser.home={home}")
    gogui_out = open(os.path.join(work, "gogui.out"), "w")
    gui = subprocess.Popen([gogui, "-computer-both", "-program", program] + case["gogui"],
                           env=env, stdout=gogui_out, stderr=subprocess.STDOUT,
                           start_new_session=True)
    grid = None
    try:
        for barrier in barriers:
            base = os.path.join(logs, barrier)
            wait_for(f"barrier {barrier}", lambda: os.path.exists(base + ".ready")
                     or gui.poll() is not None)
            if gui.poll() is not None:
                raise Failure("GoGui exited")
            with open(base + ".player") as f:
                player = rows_of(f.read())
            ruler = rows_of(last_answer(ruler_log(logs), "gogui-rules_board"))
            png = os.path.join(work, f"{barrier}.png")
            # GoGui repaints on its own thread: give a loaded machine a few tries.
            for attempt in range(6):
                time.sleep(1.0)
                screenshot(display, png)
                raw = load_rgb(png)
                if grid is None:
                    grid = find_grid(raw, case["size"])
                shown = read_board(raw, grid)
                if shown == ruler:
                    break
            report = (f"barrier {barrier}:\n  GoGui  {' '.join(shown)}\n"
                      f"  ruler  {' '.join(ruler)}\n  player {' '.join(player)}")
            print(report)
            if not (shown == ruler == player):
                raise Failure("the boards differ\n" + report)
            expected = case["expect"].get(barrier)
            if expected is not None and shown != expected:
                raise Failure(f"expected {' '.join(expected)}\n" + report)
            captured = case.get("captured", {}).get(barrier)
            if captured is not None:
                got = last_answer(ruler_log(logs), "gogui-rules_captured_count")
                if got != captured:
                    raise Failure(f"captured count {got!r}, expected {captured!r}")
            if barrier == case["shown"]:
                subprocess.run(["convert", png, "-trim", "+repage", "-strip", "-colors", "64",
                                "PNG8:" + os.path.join(out, f"{name}.png")], check=True)
            open(base + ".go", "w").close()
        # Two passes end the game: the ruler lists no move and GoGui asks for the result.
        wait_for("gogui-rules_final_result",
                 lambda: any(c == "gogui-rules_final_result" for c, _ in ruler_log(logs)))
        pairs = ruler_log(logs)
        if last_answer(pairs, "gogui-rules_legal_moves") != "":
            raise Failure("the ruler still lists legal moves after two passes")
        result = last_answer(pairs, "gogui-rules_final_result")
        print(f"final result: {result}")
        if not re.search(case["result"], result):
            raise Failure(f"unexpected final result {result!r}")
        time.sleep(1.0)
        screenshot(display, os.path.join(work, "final.png"))
    finally:
        stop(gui, xvfb)
        gogui_out.close()


def engine_accepts(shicho, args):
    """Whether the engine starts with these options (and answers a command)."""
    try:
        r = subprocess.run([shicho] + args, input="protocol_version\n", capture_output=True,
                           text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return r.returncode == 0 and r.stdout.startswith("= 2")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gogui", default=os.environ.get(
        "GOGUI", os.path.join(ROOT, "..", "shared", "peers", "gogui", "gogui")))
    parser.add_argument("--shicho", default=os.path.join(ROOT, "target", "release", "shicho"))
    parser.add_argument("--out", default=os.path.join(ROOT, "target", "gogui-test"))
    parser.add_argument("cases", nargs="*", default=list(CASES))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    shicho = os.path.abspath(args.shicho)
    failed = []
    for name in args.cases:
        needs = CASES[name].get("needs")
        if needs and not engine_accepts(shicho, needs):
            print(f"gogui {name}: skipped (the engine does not take {' '.join(needs)} yet)")
            continue
        start = time.time()
        try:
            run_case(name, CASES[name], args.gogui, shicho, os.path.abspath(args.out))
            print(f"gogui {name}: ok ({time.time() - start:.0f} s)")
        except (Failure, subprocess.CalledProcessError, OSError) as e:
            print(f"gogui {name}: FAIL: {e}", file=sys.stderr)
            print(f"  logs in {os.path.join(args.out, name)}", file=sys.stderr)
            failed.append(name)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
