#!/usr/bin/env python3
"""A stand-in for KataGo's JSON analysis engine, for tests/openings/check.py: no network, no
search, and answers in another order than asked, as KataGo's engine may.

Queries are gathered while more are waiting on stdin and answered last first. A position's
raw and searched win rates for Black are fixed functions of its moves; the policy leans to the
third and fourth lines (captures are not modelled). --report sets whose win rate is reported
(as KataGo's reportAnalysisWinratesAs); --die-after N exits after N answers; --error answers
every analysis query with an error."""

import argparse
import hashlib
import json
import select
import sys

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def black_winrate(moves, komi, visits):
    """The raw value a fixed function of the moves; the search's within 0.05 of it."""
    digest = hashlib.sha256(json.dumps(moves).encode()).digest()
    if komi > 100:
        return 0.001
    raw = digest[0] / 255.0
    if visits <= 1:
        return raw
    return min(1.0, max(0.0, raw + (digest[1] - 128) / 128 * 0.05))


def answer(q, args):
    rid = q.get("id")
    if q.get("action") == "query_version":
        return {"id": rid, "version": "fake", "git_hash": "0"}
    if args.error:
        return {"id": rid, "error": "fake error", "field": "moves"}
    size = q["boardXSize"]
    moves = q["moves"]
    visits = q.get("maxVisits", 10)
    black = black_winrate(moves, q["komi"], visits)
    to_move = "B" if len(moves) % 2 == 0 else "W"
    if args.report == "B":
        wr = black
    elif args.report == "W":
        wr = 1 - black
    else:
        wr = black if to_move == "B" else 1 - black
    r = {"id": rid, "isDuringSearch": False, "turnNumber": len(moves), "moveInfos": [],
         "rootInfo": {"winrate": wr, "scoreLead": (wr - 0.5) * 20, "visits": visits,
                      "currentPlayer": to_move}}
    if q.get("includeOwnership"):
        r["ownership"] = [0.0] * (size * size)
    if q.get("includePolicy"):
        taken = set()
        for _, v in moves:
            taken.add((LETTERS.index(v[0]), size - int(v[1:])))
        # Ten times the weight on the third and fourth lines, as a real policy leans.
        def weight(x, y):
            line = min(x, y, size - 1 - x, size - 1 - y)
            return 10.0 if line in (2, 3) else 1.0

        points = [(i % size, i // size) for i in range(size * size)]
        total = sum(weight(x, y) for x, y in points if (x, y) not in taken)
        r["policy"] = [-1.0 if p in taken else weight(*p) / total for p in points] + [0.0]
    return r


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--report", choices=["B", "W", "side"], default="B")
    p.add_argument("--die-after", type=int)
    p.add_argument("--error", action="store_true")
    args = p.parse_args()
    answered = 0
    done = False
    while not done:
        batch = []
        while True:
            line = sys.stdin.readline()
            if not line:
                done = True
                break
            if line.strip():
                batch.append(json.loads(line))
            if not select.select([sys.stdin], [], [], 0.02)[0]:
                break
        for q in reversed(batch):
            if args.die_after is not None and answered >= args.die_after:
                print("fake: dying on cue", file=sys.stderr)
                sys.exit(3)
            print(json.dumps(answer(q, args)), flush=True)
            answered += 1


if __name__ == "__main__":
    main()
