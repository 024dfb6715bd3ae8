#!/usr/bin/env python3
"""KaTrain's side of tests/katrain/check.py: runs KaTrain itself, in KaTrain's virtual
environment, and does what a user would do in it, writing down what KaTrain holds.

KaTrain is started as its `katrain` command starts it (`KaTrainApp().run()`, its user
configuration given as the first argument, as KaTrain allows), and a thread of this script
acts through KaTrain's own methods on Kivy's thread, as its menus and buttons do:

1. `start`: KaTrain has started its engine (the configuration names shicho as KataGo's
   executable) and begun a new game; the command line it used is written down.
2. `review`: the SGF is opened as KaTrain's *Load SGF* dialog opens one (analysed in full,
   the last position shown), every position of the game analysed, then the position after
   move BLUNDER shown; screenshots with everything KaTrain draws in analysis mode
   (`review.png`: candidate moves, territory, the graph, the move's points lost), then
   with the candidate moves off (`review-nohints.png`) and the territory off too
   (`review-plain.png`), so that what each one draws can be told apart.
3. `ai`: the last position of the game, in play mode, both players KaTrain's AI (Black
   `ai:p:weighted`, White `ai:p:rank`: both pick moves from the policy shicho reports)
   until AI_MOVES more moves are on the board; screenshot `ai.png`.

Everything read from KaTrain (the game's moves, each position's analysis, the pixel
positions of the board's points and of the graph's score line, the stats panel's texts, the
AI's moves and its reasons) goes to OUT/state.json; tests/katrain/check.py judges it.

Usage: drive.py OUT CONFIG SGF BLUNDER AI_MOVES   (with DISPLAY set to a running X server)
"""

import importlib.util
import json
import math
import os
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
_spec = importlib.util.spec_from_file_location("gogui_check", os.path.join(ROOT, "tests", "gogui", "check.py"))
gogui = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gogui)

OUT, CONFIG, SGF = (os.path.abspath(p) for p in sys.argv[1:4])
BLUNDER, AI_MOVES = int(sys.argv[4]), int(sys.argv[5])
# KaTrain takes a configuration file given as its first argument in place of its user's.
sys.argv = [sys.argv[0], CONFIG]

from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402

from katrain.__main__ import KaTrainApp  # noqa: E402
from katrain.core.constants import (  # noqa: E402
    AI_RANK, AI_WEIGHTED, MODE_PLAY, PLAYER_AI, PLAYER_HUMAN, PLAYING_NORMAL, VERSION)
from katrain.gui.theme import Theme  # noqa: E402

TIMEOUT = 120  # seconds for any one wait: the machine may be loaded
SETTLE = 1.0  # seconds for a redrawn frame to reach the screen


class Failure(Exception):
    pass


app = None
state = {"katrain_version": VERSION, "steps": []}


def on_main(fn):
    """Runs fn on Kivy's thread, as a button press would, and returns its result."""
    done = threading.Event()
    box = {}

    def call(_dt):
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: B036 (handed back to the driver's thread)
            box["error"] = e
        finally:
            done.set()

    Clock.schedule_once(call, 0)
    if not done.wait(TIMEOUT):
        raise Failure("Kivy's thread did not run a scheduled call")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def wait_for(what, test, timeout=TIMEOUT):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if test():
            return
        time.sleep(0.1)
    raise Failure(f"timed out waiting for {what}")


def gui():
    return app.gui


def main_line():
    """The game's nodes from the root along its first branch."""
    node = gui().game.root
    nodes = [node]
    while node.children:
        node = node.ordered_children[0]
        nodes.append(node)
    return nodes


def to_screen(widget, x, y):
    """Screen pixels (origin top left) of a point in widget's coordinates (origin bottom
    left, Kivy's), the window at Window.left, Window.top."""
    wx, wy = widget.to_window(x, y)
    return [Window.left + wx, Window.top + (Window.height - wy)]


def board_drawn():
    """A token of KaTrain's last drawing of the board's top layer (candidates, variations):
    draw_hover_contents, last of a redraw, makes a new active_pv_moves list each time, of
    (point, variation, the node shown). Held, the old list keeps its identity."""
    return gui().board_gui.active_pv_moves


def settle(before=None, node=None):
    """Waits for the engine to answer every query and KaTrain to redraw the board (after the
    drawing `before`, when given; showing `node`'s candidates, when given), then for the
    frame to reach the screen. KaTrain redraws up to a second after a change."""
    wait_for("KaTrain's queries to be answered", lambda: gui().engine.is_idle())
    start = time.time()
    if before is not None:
        wait_for("KaTrain to redraw the board", lambda: board_drawn() is not before)
    if node is not None:
        wait_for("KaTrain to draw the position's candidates",
                 lambda: any(shown is node for _, _, shown in board_drawn()))
    state.setdefault("redraw_seconds", []).append(round(time.time() - start, 2))
    time.sleep(SETTLE)


def shoot(name):
    path = os.path.join(OUT, name)
    gogui.screenshot(os.environ["DISPLAY"], path)
    return path


def node_record(node):
    """What KaTrain holds of a node's analysis (shicho's answer as KaTrain keeps it)."""
    move = node.move
    rec = {
        "depth": node.depth,
        "move": move.gtp() if move else None,
        "player": move.player if move else None,
        "analysis_complete": node.analysis_complete,
        "root_visits": node.root_visits,
        "score": node.score,
        "winrate": node.winrate,
        "points_lost": node.points_lost,
    }
    if node.analysis_exists:
        rec["candidates"] = [
            {k: d.get(k) for k in ("move", "visits", "order", "pointsLost", "scoreLead", "winrate", "prior")}
            for d in node.candidate_moves
        ]
        rec["ownership"] = node.ownership
        rec["policy"] = node.policy
    return rec


def geometry():
    """Where KaTrain draws: each board point's screen pixel, the stone and grid sizes, the
    graph's score line."""
    board = gui().board_gui
    size_x, size_y = gui().game.board_size
    points = {}
    for y in range(size_y):
        for x in range(size_x):
            px, py = board.gridpos[y][x]
            points[f"{x},{y}"] = to_screen(board, px, py)
    graph = gui().controls.graph
    sp = list(graph.score_points)
    score_line = [to_screen(graph, sp[i], sp[i + 1]) for i in range(0, len(sp), 2) if not math.isnan(sp[i + 1])]
    return {
        "points": points,
        "stone_size": board.stone_size,
        "grid_size": board.grid_size,
        "score_line": score_line,
        "graph_show_score": bool(graph.show_score),
        "window": [Window.left, Window.top, Window.width, Window.height],
    }


def theme():
    return {
        "eval_colors": Theme.EVAL_COLORS[gui().config("trainer/theme")],
        "eval_thresholds": gui().config("trainer/eval_thresholds"),
        "score_color": Theme.SCORE_COLOR,
        "top_move_border_color": Theme.TOP_MOVE_BORDER_COLOR,
        "low_visits": gui().config("trainer/low_visits"),
    }


def step_start():
    wait_for("KaTrain's engine and first game", lambda: app and app.gui and gui().engine and gui().game)
    engine = gui().engine
    wait_for("the engine process", lambda: engine.katago_process is not None)
    state["engine_command"] = list(engine.command) if isinstance(engine.command, list) else engine.command
    state["steps"].append("start")


def step_review():
    def load():
        # As KaTrain's Load SGF dialog: load_sgf_file(file, fast=general/load_fast_analysis,
        # rewind=general/load_sgf_rewind), both off in the test's configuration.
        gui().load_sgf_file(SGF, fast=gui().config("general/load_fast_analysis"),
                            rewind=gui().config("general/load_sgf_rewind"))

    on_main(load)
    wait_for("the SGF's game", lambda: gui().game.sgf_filename == SGF and len(main_line()) > BLUNDER)
    wait_for("every position of the game analysed", lambda: all(n.analysis_complete for n in main_line()))
    nodes = main_line()
    state["game"] = {
        "board_size": list(gui().game.board_size),
        "komi": gui().game.komi,
        "rules": gui().game.rules,
        "mode": gui().play_analyze_mode,
        "nodes": [node_record(n) for n in nodes],
    }
    blunder = nodes[BLUNDER]

    def show():
        gui().game.set_current_node(blunder)
        gui().update_state()

    on_main(show)
    wait_for("the position after the blunder shown", lambda: gui().game.current_node is blunder)
    settle(node=blunder)
    controls = gui().analysis_controls
    stats = gui().controls.stats
    state["review"] = {
        "mode": gui().play_analyze_mode,
        "current": node_record(blunder),
        "parent": node_record(blunder.parent),
        "hints": controls.hints.active,
        "ownership": controls.ownership.active,
        "eval_dots": controls.eval.active,
        "stats": {k: {"label": getattr(w, "label", ""), "text": w.text} for k, w in stats.labels.items()},
        "stats_points_lost": stats.points_lost,
        "status": gui().controls.status.text,
        "geometry": geometry(),
        "theme": theme(),
    }
    shoot("review.png")

    def toggle(name, value):
        return lambda: setattr(getattr(gui().analysis_controls, name).checkbox, "active", value)

    before = board_drawn()
    on_main(toggle("hints", False))
    settle(before)
    shoot("review-nohints.png")
    before = board_drawn()
    on_main(toggle("ownership", False))
    settle(before)
    shoot("review-plain.png")
    on_main(toggle("ownership", True))
    on_main(toggle("hints", True))
    state["steps"].append("review")


def step_ai():
    last = main_line()[-1]
    strategies = {"B": AI_WEIGHTED, "W": AI_RANK}

    def play_mode():
        gui().game.set_current_node(last)
        if gui().play_analyze_mode != MODE_PLAY:
            gui().play_mode.switch_ui_mode()

    on_main(play_mode)
    wait_for("play mode", lambda: gui().play_analyze_mode == MODE_PLAY)

    def set_players(kind):
        for bw in "BW":
            subtype = strategies[bw] if kind == PLAYER_AI else PLAYING_NORMAL
            gui().update_player(bw, player_type=kind, player_subtype=subtype)

    on_main(lambda: set_players(PLAYER_AI))
    wait_for(f"{AI_MOVES} moves by KaTrain's AI", lambda: gui().game.current_node.depth >= last.depth + AI_MOVES)
    on_main(lambda: set_players(PLAYER_HUMAN))
    wait_for("the AI's last position analysed", lambda: gui().game.current_node.analysis_complete)
    # A redraw asked for now (KaTrain asks for one after every change) shows the last move.
    before = board_drawn()
    on_main(gui().update_state)
    settle(before)
    nodes = gui().game.current_node.nodes_from_root[last.depth + 1:]
    state["ai"] = {
        "strategies": strategies,
        "mode": gui().play_analyze_mode,
        "moves": [
            {
                **node_record(n),
                "ai_thoughts": n.ai_thoughts,
                "parent_policy": n.parent.policy,
            }
            for n in nodes
        ],
        "stones": [[m.player, m.gtp()] for m in gui().game.stones],
        "geometry": geometry(),
    }
    # The stones are drawn on another layer than the candidates settle() waits for, and on a
    # slow core they can reach the screen later than SETTLE: shoot until every AI stone shows.
    geo = state["ai"]["geometry"]

    def stones_shown():
        raw = gogui.load_rgb(shoot("ai.png"))
        for n in nodes:
            if n.move.is_pass:
                continue
            x, y = geo["points"][f"{n.move.coords[0]},{n.move.coords[1]}"]
            if gogui.classify(raw, x, y, geo["grid_size"]) != ("X" if n.move.player == "B" else "O"):
                return False
        return True

    wait_for("the AI's stones on the screen", stones_shown)
    state["steps"].append("ai")


def drive():
    try:
        step_start()
        step_review()
        step_ai()
    except BaseException as e:  # noqa: B036 (written down for the check, which fails on it)
        state["error"] = f"{type(e).__name__}: {e}"
        traceback.print_exc()
    finally:
        with open(os.path.join(OUT, "state.json"), "w") as f:
            json.dump(state, f, indent=1)
        try:
            on_main(lambda: gui().engine.shutdown(finish=False))
        except BaseException:  # noqa: B036
            pass
        Clock.schedule_once(lambda _dt: app.stop(), 0)


if __name__ == "__main__":
    app = KaTrainApp()
    threading.Thread(target=drive, daemon=True).start()
    app.run()
