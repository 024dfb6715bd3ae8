#!/usr/bin/env python3
"""KaTrain (from PyPI) with shicho as its KataGo, under Xvfb: does KaTrain review a game and
play with shicho's analysis?

KaTrain is a Go trainer built on KataGo's JSON analysis engine. This installs it from PyPI
into a virtual environment of its own (target/katrain-venv, made once), then:

- runs KaTrain's engine client without its GUI (`engine_client.py`): every AI strategy of
  KaTrain's (but the two that need KataGo's human-style network) plays moves on 9x9 through
  shicho, each a move on the board, each position analysed, and the strategies that pick
  from the policy pick moves shicho's policy gives a share;
- writes KaTrain's user configuration into a temporary home (its KataGo executable: the
  path of shicho, as a user gives it in *General & Engine Settings*; the rest KaTrain's own
  defaults, with a 1024x768 window and no sound; a plain board picture in place of the
  wood, which keeps the picture for doc/ small) and runs KaTrain on a virtual display
  through `drive.py`, which acts in it as a user would and writes down what KaTrain holds.

Then it checks, from KaTrain's state and log and from screenshots:

- the engine: KaTrain started shicho with KataGo's command line (`analysis -model ...
  -config ...`), shicho's `ready` line reached KaTrain's log, and KaTrain logged no error;
- the game: the SGF opened is KaTrain's game, move for move, and every position of it was
  analysed by shicho;
- the candidate moves: in the position after move BLUNDER, KaTrain draws a mark on every
  point of shicho's candidates that it labels (the best one ringed in KaTrain's top-move
  colour) and nothing elsewhere (the screenshot with the candidates switched off is the
  same away from them);
- the territory: switching it off lightens the points shicho gives Black and darkens those
  it gives White (inside areas, where KaTrain's blending between points leaves each
  point's shade its own side's);
- the score graph: KaTrain's score line is drawn through one point per analysed position,
  higher where shicho's score lead is higher;
- the points lost: the blunder (a first-line corner move early in the game) loses points by
  shicho's score leads as KaTrain computes them (the lead before minus the lead after), the
  stats panel shows that number, and the stone carries KaTrain's dot in the colour of its
  class;
- KaTrain's AI: from the game's last position, in play mode, Black `ai:p:weighted` and White
  `ai:p:rank` (KaTrain's rank-calibrated AI), both of which pick among the moves of
  shicho's policy, play AI_MOVES moves: each is a move shicho's policy gives a share, with
  KaTrain's reason for it, each position after it analysed, and its stone drawn.

Screenshots, KaTrain's log and its state go to the output directory (default
target/katrain-test); the first screenshot is also cropped and reduced to 64 colours
(`katrain.png`): doc/katrain.png is a copy of it.

Usage: tests/katrain/check.py [--shicho PATH] [--out DIR] [--venv DIR]
Needs Xvfb, ImageMagick (import, convert), Mesa's OpenGL (KaTrain's Kivy draws with it
through SDL2) and python3 with venv and pip that can reach PyPI the first time. Run it with
`nice -n 19`. KaTrain's log (`katrain.log`) holds Kivy's own start-up messages too: without
libmtdev and xclip, Kivy prints tracebacks for them and goes on.
"""

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# The screenshot helpers of the GoGui test: the same virtual screen, the same pixel reading.
_spec = importlib.util.spec_from_file_location("gogui_check", os.path.join(ROOT, "tests", "gogui", "check.py"))
gogui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gogui)
Failure, pixel, lum = gogui.Failure, gogui.pixel, gogui.lum

# The KaTrain release the check installs, and the Kivy it was checked with (KaTrain takes any
# Kivy from 2.3.1 on: a later one would draw differently).
PACKAGES = {"katrain": "1.20.0", "kivy": "2.3.1"}
SIZE = 9
# A 9x9 game, Chinese rules, komi 7, without captures; Black's move 7, J1, the corner's
# first-line point, is the blunder the review looks at.
MOVES = "E5 C3 G3 C6 G6 E7 J1 E3 F4 D5 D4 C5 F7 E8".split()
BLUNDER = 7
# Points J1 must lose by shicho's leads: a move worth nothing where the others are worth
# many points (14.6 by shicho's leads when this was written; the check leaves a margin).
MIN_POINTS_LOST = 5.0
AI_MOVES = 4
TIMEOUT = 300  # seconds for KaTrain's whole run


def sgf_text():
    letters = "ABCDEFGHJ"
    nodes = "".join(f";{'BW'[i % 2]}[{'abcdefghi'[letters.index(m[0])]}{'abcdefghi'[SIZE - int(m[1:])]}]"
                    for i, m in enumerate(MOVES))
    return f"(;GM[1]FF[4]SZ[{SIZE}]KM[7]RU[Chinese]PB[Black]PW[White]{nodes})\n"


def ensure_katrain(venv, log):
    """KaTrain's Python, installing KaTrain into venv first if it is not there."""
    python = os.path.join(venv, "bin", "python")
    pins = [f"{name}=={version}" for name, version in PACKAGES.items()]
    probe = [python, "-c", "import importlib.metadata as m, sys; print(*(m.version(n) for n in sys.argv[1:]))",
             *PACKAGES]
    if os.path.exists(python):
        r = subprocess.run(probe, capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.split() == list(PACKAGES.values()):
            return python
    print(f"katrain: installing {' '.join(pins)} into {venv}")
    with open(log, "w") as f:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True, stdout=f, stderr=subprocess.STDOUT)
        r = subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", "--no-input", *pins],
                           stdout=f, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        raise Failure(f"pip could not install {' '.join(pins)} (its output: {log})")
    return python


def write_config(python, work, shicho):
    """KaTrain's own default configuration (the package's config.json), with shicho as
    its KataGo and what a test run needs."""
    package = subprocess.run([python, "-c", "import katrain, os; print(os.path.dirname(katrain.__file__))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    with open(os.path.join(package, "config.json")) as f:
        config = json.load(f)
    engine = config["engine"]
    engine["katago"] = shicho  # -model and -config stay KaTrain's own files: shicho ignores them
    engine["backend"] = "local"
    general = config["general"]
    general["debug_level"] = 1  # KaTrain's log: the queries it sends, the answers, the engine's stderr
    # How the SGF is opened: analysed in full, at the game's end (KaTrain's dialog options).
    general["load_fast_analysis"] = False
    general["load_sgf_rewind"] = False
    config["game"].update({"size": str(SIZE), "komi": 7, "rules": "chinese"})
    config["timer"]["sound"] = False
    config["ui_state"].update({"restoresize": True, "size": list(gogui.SCREEN), "left": 0, "top": 0})
    path = os.path.join(work, "config.json")  # KaTrain takes a config file by that name
    with open(path, "w") as f:
        json.dump(config, f, indent=1)
    return path


# ----- judging the screenshots ------------------------------------------------------------


def disc(raw, x, y, r):
    """The pixels within r of (x, y)."""
    out = []
    ri = int(r)
    for dy in range(-ri, ri + 1):
        for dx in range(-ri, ri + 1):
            if dx * dx + dy * dy <= r * r:
                out.append(pixel(raw, int(round(x)) + dx, int(round(y)) + dy))
    return out


def mean_diff(a, b, x, y, r):
    """The mean absolute difference of two screenshots' pixels within r of (x, y)."""
    pa, pb = disc(a, x, y, r), disc(b, x, y, r)
    return sum(abs(p[i] - q[i]) for p, q in zip(pa, pb) for i in range(3)) / (3 * len(pa))


def mean_lum(raw, x, y, r):
    ps = disc(raw, x, y, r)
    return sum(lum(p) for p in ps) / len(ps)


def rgb255(colour):
    return tuple(round(c * 255) for c in colour[:3])


def close(p, colour, tolerance):
    return sum((p[i] - colour[i]) ** 2 for i in range(3)) <= tolerance ** 2


def vertex_key(vertex):
    """KaTrain's `x,y` (y from the bottom) of a GTP vertex."""
    return f"{'ABCDEFGHJ'.index(vertex[0])},{int(vertex[1:]) - 1}"


def policy_index(vertex):
    """A vertex's index in KataGo's policy (the top row first)."""
    return (SIZE - int(vertex[1:])) * SIZE + "ABCDEFGHJ".index(vertex[0])


def evaluation_class(points_lost, thresholds):
    """KaTrain's class of a move by its points lost: 0 the worst, thresholds falling."""
    i = 0
    while i < len(thresholds) - 1 and points_lost < thresholds[i]:
        i += 1
    return i


# ----- the checks ---------------------------------------------------------------------------


def check_engine(st, log_text, shicho):
    cmd = st.get("engine_command")
    if not isinstance(cmd, list) or cmd[:2] != [shicho, "analysis"] or "-model" not in cmd or "-config" not in cmd:
        raise Failure(f"KaTrain did not start shicho with KataGo's command line: {cmd!r}")
    if "Started, ready to begin handling requests" not in log_text:
        raise Failure("shicho's ready line is not in KaTrain's log")
    errors = [line for line in log_text.splitlines() if line.startswith("ERROR")]
    if errors:
        raise Failure(f"KaTrain logged errors: {errors[:3]}")
    print(f"katrain: KaTrain {st['katrain_version']} started {' '.join(os.path.basename(c) for c in cmd[:4])} ...")


def check_game(st):
    game = st["game"]
    nodes = game["nodes"]
    played = [(n["player"], n["move"]) for n in nodes[1:]]
    expected = [("BW"[i % 2], m) for i, m in enumerate(MOVES)]
    if game["board_size"] != [SIZE, SIZE] or played != expected:
        raise Failure(f"KaTrain's game is not the SGF's: {game['board_size']} {played}")
    thin = [n["depth"] for n in nodes if not n["analysis_complete"] or not n["root_visits"]]
    if thin:
        raise Failure(f"positions not analysed: after moves {thin}")
    visits = [n["root_visits"] for n in nodes]
    print(f"katrain: SGF of {len(MOVES)} moves loaded, every position analysed "
          f"({min(visits)}-{max(visits)} visits)")


def check_candidates(review, shots):
    geo, th = review["geometry"], review["theme"]
    if not review["hints"]:
        raise Failure("KaTrain's candidate moves (hints) are off in analysis mode")
    cands = [c for c in review["current"]["candidates"] if c["move"] != "pass"]
    labelled = [c for c in cands if c["visits"] >= th["low_visits"] or c["order"] == 0]
    if not labelled:
        raise Failure("no candidate move with enough visits to be labelled")
    g = geo["grid_size"]
    on, off = shots["review.png"], shots["review-nohints.png"]
    for c in labelled:
        x, y = geo["points"][vertex_key(c["move"])]
        d = mean_diff(on, off, x, y, 0.3 * g)
        if d < 20:
            raise Failure(f"no candidate mark at {c['move']} ({c['visits']} visits): difference {d:.1f}")
    # Nothing drawn where shicho proposed nothing.
    occupied = {vertex_key(v) for _, v in review["stones"]}
    candidates = {vertex_key(c["move"]) for c in cands}
    for key, (x, y) in geo["points"].items():
        if key not in occupied and key not in candidates:
            d = mean_diff(on, off, x, y, 0.3 * g)
            if d > 4:
                raise Failure(f"a mark at {key} (KaTrain's x,y), which is not a candidate: difference {d:.1f}")
    best = next(c for c in labelled if c["order"] == 0)
    x, y = geo["points"][vertex_key(best["move"])]
    ring = rgb255(th["top_move_border_color"])
    rim = [p for p in disc(on, x, y, 0.55 * g) if close(p, ring, 60)]
    if len(rim) < 0.5 * g:
        raise Failure(f"no top-move ring around {best['move']} ({len(rim)} pixels of its colour)")
    print(f"katrain: {len(labelled)} labelled candidates drawn where shicho put them, best {best['move']} ringed")


def check_territory(review, shots):
    geo = review["geometry"]
    own = review["current"]["ownership"]
    occupied = {vertex_key(v) for _, v in review["stones"]}
    shaded, plain = shots["review-nohints.png"], shots["review-plain.png"]
    counts = {"B": 0, "W": 0}

    def ownership(kx, ky):
        return own[(SIZE - 1 - ky) * SIZE + kx]  # the top row first, +1 Black's

    for key, (x, y) in geo["points"].items():
        if key in occupied:
            continue
        kx, ky = (int(v) for v in key.split(","))
        o = ownership(kx, ky)
        # KaTrain blends the territory between points: judged inside an area only, where
        # the neighbours are the same side's.
        neighbours = [ownership(kx + dx, ky + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                      if 0 <= kx + dx < SIZE and 0 <= ky + dy < SIZE]
        if abs(o) < 0.3 or any(n * o <= 0 for n in neighbours):
            continue
        change = mean_lum(shaded, x, y, 0.25 * geo["grid_size"]) - mean_lum(plain, x, y, 0.25 * geo["grid_size"])
        if (o > 0 and change > -8) or (o < 0 and change < 8):
            raise Failure(f"the territory at {key} (ownership {o:+.2f}) changed the brightness by {change:+.1f}")
        counts["B" if o > 0 else "W"] += 1
    if counts["B"] < 3 or counts["W"] < 3:
        raise Failure(f"too little territory to judge: {counts}")
    print(f"katrain: territory drawn ({counts['B']} points Black's, {counts['W']} White's)")


def check_graph(review, shots):
    geo, th = review["geometry"], review["theme"]
    line = geo["score_line"]
    scores = [n["score"] for n in review["nodes"] if n["score"]]
    if not geo["graph_show_score"] or len(line) != len(scores) or len(line) < len(MOVES):
        raise Failure(f"the score graph has {len(line)} points for {len(scores)} scores")
    colour = rgb255(th["score_color"])
    raw = shots["review.png"]
    drawn = 0
    for x, y in line:
        near = [pixel(raw, int(x) + dx, int(y) + dy) for dx in range(-3, 4) for dy in range(-3, 4)]
        drawn += any(close(p, colour, 70) for p in near)
    if drawn < 0.9 * len(line):
        raise Failure(f"the score line is drawn at {drawn} of its {len(line)} points")
    # Higher on the screen where shicho's lead for Black is higher.
    for (_, y1), (_, y2), s1, s2 in zip(line, line[1:], scores, scores[1:]):
        if (s1 - s2) * (y2 - y1) < -1e-6:
            raise Failure(f"the score line runs against the scores {s1:.1f} to {s2:.1f}")
    print(f"katrain: score graph drawn through {drawn} of {len(line)} positions")


def check_points_lost(review, shots):
    cur, parent = review["current"], review["parent"]
    if cur["move"] != MOVES[BLUNDER - 1]:
        raise Failure(f"the position shown is after {cur['move']}, not the blunder")
    sign = 1 if cur["player"] == "B" else -1
    lost = cur["points_lost"]
    if lost is None or abs(lost - sign * (parent["score"] - cur["score"])) > 1e-6:
        raise Failure(f"points lost {lost} are not the leads' difference ({parent['score']} to {cur['score']})")
    if lost < MIN_POINTS_LOST:
        raise Failure(f"the blunder {cur['move']} loses {lost:.1f} points by shicho's leads, "
                      f"expected {MIN_POINTS_LOST}+")
    shown = review["stats"]["points"]["text"]
    if review["stats_points_lost"] != lost or f"{abs(lost):.1f}" not in shown:
        raise Failure(f"the stats panel shows {shown!r} for {lost:.1f} points lost")
    th, geo = review["theme"], review["geometry"]
    cls = evaluation_class(lost, th["eval_thresholds"])
    colour = rgb255(th["eval_colors"][cls])
    x, y = geo["points"][vertex_key(cur["move"])]
    dot = [p for p in disc(shots["review-plain.png"], x, y, 0.2 * geo["stone_size"]) if close(p, colour, 70)]
    if len(dot) < 0.3 * len(disc(shots["review-plain.png"], x, y, 0.2 * geo["stone_size"])):
        raise Failure(f"no dot of class {cls} {colour} on {cur['move']}")
    print(f"katrain: {cur['move']} loses {lost:.1f} points (stats panel {shown!r}), dot of class {cls} drawn")


def check_ai(ai, shots, size=SIZE):
    moves = ai["moves"]
    if len(moves) < AI_MOVES:
        raise Failure(f"KaTrain's AI played {len(moves)} moves, expected {AI_MOVES}")
    geo = ai["geometry"]
    raw = shots["ai.png"]
    for m in moves:
        policy = m["parent_policy"]
        if not policy or len(policy) != size * size + 1:
            raise Failure(f"no policy from shicho before {m['move']}")
        given = policy[-1] if m["move"] == "pass" else policy[policy_index(m["move"])]
        if given <= 0:
            raise Failure(f"the AI played {m['move']}, which shicho's policy gives {given}")
        if not m["ai_thoughts"]:
            raise Failure(f"no reason from the AI for {m['move']}")
        if not m["analysis_complete"]:
            raise Failure(f"the position after the AI's {m['move']} was not analysed")
        if m["move"] != "pass":
            x, y = geo["points"][vertex_key(m["move"])]
            seen = gogui.classify(raw, x, y, geo["grid_size"])
            if seen != ("X" if m["player"] == "B" else "O"):
                raise Failure(f"the AI's {m['player']} {m['move']} is drawn as {seen!r}")

    def share(m):
        return m["parent_policy"][-1 if m["move"] == "pass" else policy_index(m["move"])]

    text = ", ".join(f"{m['player']} {m['move']} ({share(m):.1%})" for m in moves)
    print(f"katrain: AI ({ai['strategies']['B']} and {ai['strategies']['W']}) played {text}")
    print(f"  e.g. {moves[-1]['player']}: {moves[-1]['ai_thoughts'][:160]}")


def check_engine_client(python, shicho, work, env):
    """KaTrain's engine client and every AI of KaTrain's, without the GUI (engine_client.py)."""
    start = time.time()
    try:
        r = subprocess.run([python, os.path.join(HERE, "engine_client.py"), shicho], cwd=work, env=env,
                           capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise Failure(f"KaTrain's engine client still running after {TIMEOUT} s")
    with open(os.path.join(work, "engine-client.log"), "w") as f:
        f.write(r.stdout + r.stderr)
    lines = r.stdout.strip().splitlines()
    if r.returncode != 0 or not lines or not lines[-1].startswith("{"):
        raise Failure(f"KaTrain's engine client failed (status {r.returncode}; see engine-client.log)")
    summary = json.loads(lines[-1])
    if summary["errors"]:
        raise Failure(f"KaTrain's engine client logged errors: {summary['errors'][:3]}")
    moves = summary["moves"]
    for m in moves:
        if not m["is_current"]:
            raise Failure(f"{m['strategy']}'s move {m['move']} is not the game's position")
        if m["reads_policy"] and m["move"] != "pass" and not (m["policy_share"] or 0) > 0:
            raise Failure(f"{m['strategy']} played {m['move']}, which shicho's policy gives {m['policy_share']}")
    if not all(summary["analysed"]):
        raise Failure("not every position of the engine client's game was analysed")
    strategies = sorted({m["strategy"] for m in moves})
    print(f"katrain: engine client without the GUI: {len(strategies)} AIs played {len(moves)} moves "
          f"({time.time() - start:.0f} s)")


def run(shicho, venv, out):
    work = os.path.join(out, "run")
    shutil.rmtree(work, ignore_errors=True)
    home = os.path.join(work, "home")
    os.makedirs(home)
    python = ensure_katrain(venv, os.path.join(out, "pip.log"))
    # KaTrain looks for its pictures in ~/.katrain first: a plain board in place of the wood
    # keeps the picture for doc/ small (its colour KaTrain's own for the board under labels).
    os.makedirs(os.path.join(home, ".katrain"))
    subprocess.run(["convert", "-size", "16x16", "xc:#f2bf78", os.path.join(home, ".katrain", "board.png")],
                   check=True)
    config = write_config(python, work, shicho)
    sgf = os.path.join(work, "game.sgf")
    with open(sgf, "w") as f:
        f.write(sgf_text())

    # HOME: KaTrain's ~/.katrain and Kivy's ~/.kivy in the run's folder, the user's untouched.
    env = dict(os.environ, HOME=home, KIVY_NO_ARGS="1", SDL_AUDIODRIVER="dummy")
    check_engine_client(python, shicho, work, env)

    xvfb, display = gogui.start_xvfb()
    env["DISPLAY"] = display
    log = os.path.join(work, "katrain.log")
    start = time.time()
    with open(log, "w") as f:
        gui = subprocess.Popen([python, os.path.join(HERE, "drive.py"), work, config, sgf, str(BLUNDER),
                                str(AI_MOVES)], cwd=work, env=env, stdout=f, stderr=subprocess.STDOUT,
                               start_new_session=True)
        try:
            gui.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Failure(f"KaTrain still running after {TIMEOUT} s")
        finally:
            gogui.stop(gui, xvfb)
    print(f"katrain: KaTrain ran {time.time() - start:.0f} s")
    with open(log, errors="replace") as f:
        log_text = f.read()
    state_file = os.path.join(work, "state.json")
    if not os.path.exists(state_file):
        raise Failure("KaTrain's run wrote no state (see katrain.log)")
    with open(state_file) as f:
        st = json.load(f)
    if "error" in st:
        raise Failure(f"in KaTrain, after steps {st['steps']}: {st['error']}")
    shots = {name: gogui.load_rgb(os.path.join(work, name))
             for name in ("review.png", "review-nohints.png", "review-plain.png", "ai.png")}
    review = st["review"]
    review["nodes"] = st["game"]["nodes"]
    review["stones"] = [["BW"[i % 2], m] for i, m in enumerate(MOVES[:BLUNDER])]
    check_engine(st, log_text, shicho)
    check_game(st)
    check_candidates(review, shots)
    check_territory(review, shots)
    check_graph(review, shots)
    check_points_lost(review, shots)
    check_ai(st["ai"], shots)
    # The picture for doc/: without dithering, which would turn the territory's smooth
    # shading into noise (three times the bytes).
    subprocess.run(["convert", os.path.join(work, "review.png"), "-trim", "+repage", "-strip", "-dither", "None",
                    "-colors", "64", "PNG8:" + os.path.join(out, "katrain.png")], check=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--shicho", default=os.path.join(ROOT, "target", "release", "shicho"))
    parser.add_argument("--out", default=os.path.join(ROOT, "target", "katrain-test"))
    parser.add_argument("--venv", default=os.path.join(ROOT, "target", "katrain-venv"))
    args = parser.parse_args()
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    start = time.time()
    try:
        run(os.path.abspath(args.shicho), os.path.abspath(args.venv), out)
    except (Failure, subprocess.CalledProcessError, OSError) as e:
        print(f"katrain: FAIL: {e}", file=sys.stderr)
        print(f"  logs in {os.path.join(out, 'run')}", file=sys.stderr)
        sys.exit(1)
    print(f"katrain: ok ({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
