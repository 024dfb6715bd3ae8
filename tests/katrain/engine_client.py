#!/usr/bin/env python3
"""KaTrain's engine client without its GUI, in KaTrain's virtual environment: every AI of
KaTrain plays through shicho.

KaTrain's core (`KaTrainBase`, `KataGoEngine`, `Game`, `generate_ai_move`) runs without a
window, as KaTrain's own tests run it. This starts shicho as KaTrain starts KataGo (the
package's configuration with shicho as the executable), on a 9x9 board, and asks each of
KaTrain's AI strategies for moves in turn (those that need KataGo's human-style network
left out), ROUNDS times. Each must come back with a move on the board, its position then
analysed by shicho; the strategies that read shicho's policy must pick a move the policy
gives a share. One line a move is printed (strategy, move, its policy share, the AI's
reason), and a JSON summary at the end for tests/katrain/check.py.

Usage: engine_client.py SHICHO [ROUNDS]
"""

import json
import sys
import time

SHICHO = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 2
SIZE = 9

from katrain.core.ai import generate_ai_move  # noqa: E402
from katrain.core.base_katrain import KaTrainBase  # noqa: E402
from katrain.core.constants import AI_HUMAN, AI_PRO, AI_STRATEGIES, AI_STRATEGIES_POLICY, OUTPUT_ERROR  # noqa: E402
from katrain.core.engine import KataGoEngine  # noqa: E402
from katrain.core.game import Game  # noqa: E402


class Katrain(KaTrainBase):
    """KaTrainBase, its errors kept for the summary."""

    def __init__(self):
        self.errors = []
        super().__init__(force_package_config=True, debug_level=0)

    def log(self, message, level=0):
        if level == OUTPUT_ERROR:
            self.errors.append(str(message))
        super().log(message, level)

    def __call__(self, message, *args, **kwargs):  # the GUI's popups, e.g. engine recovery
        self.errors.append(f"{message}: {args}")


def main():
    katrain = Katrain()
    config = dict(katrain.config("engine"), katago=SHICHO, backend="local")
    engine = KataGoEngine(katrain, config)
    game = Game(katrain, engine, game_properties={"SZ": SIZE, "KM": 7, "RU": "chinese"})
    strategies = [s for s in AI_STRATEGIES if s not in (AI_HUMAN, AI_PRO)]
    moves = []
    start = time.time()
    for _ in range(ROUNDS):
        for strategy in strategies:
            parent = game.current_node
            move, node = generate_ai_move(game, strategy, katrain.config(f"ai/{strategy}"))
            policy = parent.policy
            share = None
            if policy and move.coords is not None:
                x, y = move.coords
                share = policy[(SIZE - 1 - y) * SIZE + x]
            moves.append({"strategy": strategy, "move": move.gtp(), "player": move.player,
                          "reads_policy": strategy in AI_STRATEGIES_POLICY, "policy_share": share,
                          "thoughts": node.ai_thoughts, "is_current": node is game.current_node})
            print(f"{strategy:16} {move.player} {move.gtp():4} policy {share if share is None else f'{share:.3f}'}"
                  f"  {(node.ai_thoughts or '')[:90]}", flush=True)
    deadline = time.time() + 60
    while not game.current_node.analysis_complete and time.time() < deadline:
        time.sleep(0.1)
    analysed = [n.analysis_complete for n in game.current_node.nodes_from_root]
    engine.shutdown(finish=False)
    print(json.dumps({"moves": moves, "analysed": analysed, "errors": katrain.errors,
                      "command": engine.command, "seconds": time.time() - start}))


if __name__ == "__main__":
    main()
