#!/usr/bin/env python3
"""Labelled positions for shicho's network: games the teacher plays against itself, with
some randomness, and its answers about every position.

The teacher is any engine speaking KataGo's JSON analysis protocol (KataGo's `analysis`
mode; `../shared/katago/setup` installs one that runs on this CPU). Each game starts from
an empty board, sometimes after a few uniformly random moves, and goes on with moves
drawn from the teacher's policy (a temperature, and now and then a uniformly random legal
move, so that the data holds the kind of positions a search tree visits, not only good
play). Every position is asked about: the teacher's policy (its raw network's, or with
--search-policy its search's visit shares), its win rate and score lead
for Black, and its ownership estimate. These are labels the teacher gives; the positions
and the record of them are ours.

Output: a gzip'd text file, one block per game, appended game by game (so a run stopped at
any point keeps every finished game and `--resume` goes on from there):

    G <game number> <size> <komi> <moves, GTP vertices or 'pass', space separated>
    P <ply> <black win rate> <black score lead> <policy> <ownership>

A `P` line describes the position before move `ply` (0 = the empty board). `policy` is
`index:permyriad` pairs, comma separated, for every move the teacher gives at least 0.1%
(index row-major from the top-left point, `size*size` = pass); `ownership` is one letter a
point in the same order, `A` (White's for sure) to `U` (Black's for sure), `K` = even.

`--replay SGF...` labels recorded games instead of playing new ones: every position of each
record's main line (its komi, its moves; game K is the K-th record), so that the net learns
from the positions shicho meets (its own games against KataGo, the lost ones above all), or
with `--replay-every K` every K-th of them, so that a few hours of labels cover many games
(`--replay-from J` shifts which: runs with J = 0..K-1 label disjoint positions).

Shards: `--shard K/N` plays the games whose number is K modulo N, so N machines running
shards 0..N-1 with the same seed play the games one machine would (the teacher's own
batching makes its numbers differ in the last digits from run to run).
"""

import argparse
import gzip
import json
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import time

LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def point_index(move, size):
    """The policy index of a GTP vertex (row-major from the top-left point, pass last)."""
    if move.lower() == "pass":
        return size * size
    return (size - int(move[1:])) * size + LETTERS.index(move[0].upper())


def search_shares(move_infos, size):
    """The search's policy: each root move's share of the visits, in the policy's order."""
    shares = [0.0] * (size * size + 1)
    total = sum(m["visits"] for m in move_infos) or 1
    for m in move_infos:
        shares[point_index(m["move"], size)] += m["visits"] / total
    return shares


def vertex(index, size):
    if index == size * size:
        return "pass"
    row, col = divmod(index, size)
    return f"{LETTERS[col]}{size - row}"


class Stopped(Exception):
    """A signal asked the run to stop."""


class Game:
    """One game in play: its moves so far and the labels of its positions."""

    def __init__(self, number, size, seed, args):
        self.number = number
        self.size = size
        self.rng = random.Random(f"{seed}:{size}:{number}")
        # Komi around the usual 7 so the net learns what it is worth.
        self.komi = self.rng.choice([5.5, 6, 6.5, 7, 7, 7, 7.5, 7.5, 8, 8.5]) if size < 13 \
            else self.rng.choice([5.5, 6.5, 7, 7.5, 7.5, 7.5, 8.5])
        area = size * size
        # A quarter of the games open with a few uniformly random moves.
        self.random_opening = self.rng.randrange(1, max(2, area // 12)) \
            if self.rng.random() < args.random_opening_share else 0
        self.moves = []
        self.lines = []
        self.lopsided = 0
        self.max_plies = args.max_plies or int(area * args.max_plies_per_point)
        self.args = args
        # A game replayed from a record (--replay): its moves, not drawn ones.
        self.script = None

    def query(self):
        color = "BW"
        return json.dumps({
            "id": f"{self.number}:{len(self.moves)}",
            "moves": [[color[i % 2], m] for i, m in enumerate(self.moves)],
            "rules": "chinese",
            "komi": self.komi,
            "boardXSize": self.size,
            "boardYSize": self.size,
            "maxVisits": self.args.visits,
            "includePolicy": True,
            "includeOwnership": True,
        })

    def answer(self, reply):
        """Records the labels of the position asked about, then plays. True when over."""
        size = self.size
        area = size * size
        policy = reply["policy"]
        root = reply["rootInfo"]
        winrate, lead = root["winrate"], root["scoreLead"]
        # The label's policy: the raw network's, or with --search-policy (and visits above
        # one) the search's visit shares, KataGo's own policy target; moves are drawn from
        # the raw network's either way, so the games are as varied.
        label = policy
        if self.args.search_policy and self.args.visits > 1 and reply.get("moveInfos"):
            label = search_shares(reply["moveInfos"], size)
        kept = [f"{i}:{round(p * 10000)}" for i, p in enumerate(label) if p >= 0.001]
        owner = "".join(chr(65 + max(0, min(20, round((o + 1) * 10)))) for o in reply["ownership"])
        self.lines.append(f"P {len(self.moves)} {winrate:.4f} {lead:.2f} {','.join(kept)} {owner}")
        if self.script is not None:
            # Every --replay-every'th position: one game gives fewer, more varied labels.
            step = self.args.replay_every
            if len(self.moves) + step > len(self.script):
                return True
            self.moves.extend(self.script[len(self.moves):len(self.moves) + step])
            return False
        if len(self.moves) >= self.max_plies:
            return True
        self.lopsided = self.lopsided + 1 if abs(winrate - 0.5) > 0.48 else 0
        if self.lopsided > self.args.lopsided_plies:
            return True
        legal = [i for i, p in enumerate(policy[:area]) if p >= 0]
        ply = len(self.moves)
        if ply < self.random_opening or (legal and self.rng.random() < self.args.random_move_share):
            choice = self.rng.choice(legal) if legal else area
        else:
            temperature = self.args.temperature if ply < area // 8 else self.args.late_temperature
            weights = [max(p, 0.0) ** (1.0 / temperature) for p in policy]
            choice = self.rng.choices(range(len(policy)), weights=weights)[0]
        self.moves.append(vertex(choice, size))
        return len(self.moves) >= 2 and self.moves[-1] == self.moves[-2] == "pass"

    def text(self):
        return "\n".join([f"G {self.number} {self.size} {self.komi:g} {' '.join(self.moves)}"] + self.lines) + "\n"


def recorded_game(path):
    """(size, komi, moves) of an SGF record's main line, moves as GTP vertices alternating from
    Black; None for a record with setup stones or moves out of turn."""
    text = open(path, encoding="utf-8", errors="replace").read()
    if "AB[" in text or "AW[" in text:
        return None
    size = int((re.search(r"SZ\[(\d+)\]", text) or [0, 19])[1])
    komi = float((re.search(r"KM\[([-0-9.]+)\]", text) or [0, 7.5])[1])
    # The first variation ends the main line; SGF allows white space inside "(;".
    parts = re.split(r"\(\s*;", text)
    if len(parts) < 2:
        return None
    main_line = parts[1]
    moves = []
    for i, (colour, point) in enumerate(re.findall(r";\s*([BW])\[(\w*)\]", main_line)):
        if colour != "BW"[i % 2]:
            return None
        moves.append("pass" if point == "" or (point == "tt" and size <= 19) else
                     f"{LETTERS[ord(point[0]) - 97]}{size - (ord(point[1]) - 97)}")
    return size, komi, moves


def finished_games(path):
    """The game numbers already in `path` (a run resumed appends after them). A file whose
    run was killed while writing ends in a cut gzip member, after which anything appended
    could not be read back: it is first written again without that member's last game (cut,
    perhaps, mid-game), so that the run labels that game afresh."""
    done = set()
    if not os.path.exists(path):
        return done
    games = []
    try:
        with gzip.open(path, "rt") as f:
            for line in f:
                if line.startswith("G "):
                    games.append([line])
                elif games:
                    games[-1].append(line)
    except (EOFError, gzip.BadGzipFile, OSError):
        games = games[:-1]
        with gzip.open(path + ".part", "wt") as f:
            for game in games:
                f.writelines(game)
        os.replace(path + ".part", path)
        print(f"teacher: {path} was cut short (a run killed while writing); kept its "
              f"{len(games)} whole games", file=sys.stderr)
    return {int(game[0].split()[1]) for game in games}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--katago", required=True, help="the analysis engine's command line")
    ap.add_argument("--size", type=int, default=9)
    ap.add_argument("--games", type=int, default=1000, help="games in all (over every shard)")
    ap.add_argument("--minutes", type=float, default=None, help="stop after this long (played games in flight are kept as they stand, replayed ones left for the next run)")
    ap.add_argument("--parallel", type=int, default=16, help="games in flight at once")
    ap.add_argument("--visits", type=int, default=1, help="teacher visits a position (1: its raw network)")
    ap.add_argument("--search-policy", action="store_true",
                    help="with --visits above 1, label the policy with the search's visit shares")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shard", default="0/1", help="K/N: play the games numbered K modulo N")
    ap.add_argument("--temperature", type=float, default=1.0, help="policy temperature in the opening")
    ap.add_argument("--late-temperature", type=float, default=0.5)
    ap.add_argument("--random-move-share", type=float, default=0.03)
    ap.add_argument("--random-opening-share", type=float, default=0.25)
    ap.add_argument("--max-plies-per-point", type=float, default=1.6)
    ap.add_argument("--max-plies", type=int, default=None,
                    help="end every game after this many plies (openings: the teacher's verdicts on short ones)")
    ap.add_argument("--max-mb", type=float, default=None,
                    help="stop once the output file is this large (checked every 20 games)")
    ap.add_argument("--lopsided-plies", type=int, default=30,
                    help="end a game decided beyond 98%% for this many plies")
    ap.add_argument("--replay", nargs="+", metavar="SGF",
                    help="label every position of these records' games instead of playing new "
                         "ones (game K is the K-th record; --size, --games and the move draws unused)")
    ap.add_argument("--replay-every", type=int, default=1, metavar="K",
                    help="with --replay, label every K-th position of each record, from ply "
                         "(game number mod K), so that many records give varied labels at the cost of few")
    ap.add_argument("--replay-from", type=int, default=0, metavar="J",
                    help="with --replay-every K, start from ply (game number + J) mod K instead: "
                         "runs with J = 0..K-1 over one list label disjoint positions")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args()
    k, n = (int(x) for x in args.shard.split("/"))
    if args.replay_every < 1:
        sys.exit(f"teacher: --replay-every {args.replay_every}: at least 1")
    if not 0 <= args.replay_from < args.replay_every:
        sys.exit(f"teacher: --replay-from {args.replay_from}: must be in 0..{args.replay_every - 1} (--replay-every)")
    if not 0 <= k < n:
        sys.exit(f"teacher: --shard {args.shard}: K must be in 0..N-1")

    done = finished_games(args.out)
    records = [recorded_game(path) for path in args.replay] if args.replay else None
    count = len(records) if records is not None else args.games
    todo = (g for g in range(count) if g % n == k and g not in done and (records is None or records[g]))
    deadline = time.time() + args.minutes * 60 if args.minutes else None
    engine = subprocess.Popen(shlex.split(args.katago), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    in_flight = {}
    out = gzip.open(args.out, "at")
    started = time.time()
    positions = games = 0

    # A signal stops the run as the deadline does, the file closed whole: at once while the
    # run waits on the engine, after the write while it writes a game.
    stop_signalled = [False]
    writing = [False]

    def request_stop(_signal, _frame):
        stop_signalled[0] = True
        if not writing[0]:
            raise Stopped

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)

    def limit_reached():
        if stop_signalled[0]:
            return True
        if deadline and time.time() > deadline:
            return True
        return bool(args.max_mb) and os.path.getsize(args.out) > args.max_mb * 1e6

    def write(game):
        if not game.lines:
            return
        writing[0] = True
        out.write(game.text())
        writing[0] = False

    def start_next():
        number = next(todo, None)
        if number is None:
            return
        if records is None:
            game = Game(number, args.size, args.seed, args)
        else:
            size, komi, moves = records[number]
            game = Game(number, size, args.seed, args)
            game.komi, game.script = komi, moves
            game.moves = moves[:(number + args.replay_from) % args.replay_every]
        in_flight[number] = game
        engine.stdin.write(game.query() + "\n")

    try:
        for _ in range(args.parallel):
            start_next()
        engine.stdin.flush()
        while in_flight:
            line = engine.stdout.readline()
            if not line:
                print("teacher: the engine closed its output (see its log); stopping", file=sys.stderr)
                break
            reply = json.loads(line)
            number = int(reply["id"].split(":")[0])
            game = in_flight.get(number)
            if game is None:
                continue
            if "error" in reply:
                print(f"teacher: game {number}: {reply['error']}; kept up to there", file=sys.stderr)
                over = True
            else:
                positions += 1
                over = game.answer(reply)
            if over:
                del in_flight[number]
                write(game)
                games += 1
                if games % 20 == 0:
                    out.flush()
                    rate = positions / (time.time() - started)
                    print(f"teacher: {games} games, {positions} positions, {rate:.0f}/s", file=sys.stderr, flush=True)
            if limit_reached():
                break
            if over:
                start_next()
            else:
                engine.stdin.write(game.query() + "\n")
            engine.stdin.flush()
    except Stopped:
        pass
    # A played game in flight is kept as it stands: every position in it is labelled, it
    # only ends early. A replayed one is left for the next run to label whole (the record
    # has its end; a file of half games would lack the positions it was made for).
    if records is None:
        for game in in_flight.values():
            write(game)
        games += len(in_flight)
    engine.kill()
    out.close()
    engine.wait()
    rate = positions / max(1e-9, time.time() - started)
    print(f"teacher: done, {games} games, {positions} positions, {rate:.0f}/s", file=sys.stderr)


if __name__ == "__main__":
    main()
