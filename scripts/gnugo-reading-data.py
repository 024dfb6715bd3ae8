#!/usr/bin/env python3
"""Make reading test data with GNU Go as the reference.

GNU Go plays games against itself (a few seeded random moves first, for variety); at some move
numbers every chain with at most four liberties is asked `attack` and `defend`. Output, one
block per position (read by tests/gnugo_agreement.rs):

    position SIZE MOVE MOVE ...        moves as B:D4 / W:PASS, replayed from an empty board
    attack D4 1 E5                     GNU Go's answer (0, or code and move)
    defend D4 0

Usage: scripts/gnugo-reading-data.py SEED GAMES > tests/data/gnugo-reading.txt
Needs /usr/games/gnugo (apt-get install gnugo).
"""
import random
import subprocess
import sys

GNUGO = ["/usr/games/gnugo", "--mode", "gtp", "--quiet", "--level", "1"]
LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Gtp:
    def __init__(self):
        self.p = subprocess.Popen(GNUGO, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)

    def send(self, cmd):
        self.p.stdin.write(cmd + "\n")
        self.p.stdin.flush()
        lines = []
        while True:
            line = self.p.stdout.readline()
            if line == "":
                raise RuntimeError("gnugo died on " + cmd)
            line = line.rstrip("\n")
            if line == "" and lines:
                break
            if line:
                lines.append(line)
        text = "\n".join(lines)
        if text.startswith("?"):
            raise RuntimeError(cmd + ": " + text)
        return text[1:].strip()


def main():
    seed, games = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    g = Gtp()
    for game in range(games):
        size = rng.choice([9, 9, 13, 13, 19])
        g.send("boardsize %d" % size)
        g.send("clear_board")
        moves = []
        color = "B"
        length = rng.randint(size * 2, size * size // 2)
        samples = set(rng.sample(range(size, length), k=min(3, length - size)))
        for n in range(length):
            if n < 4:
                x, y = rng.randrange(size), rng.randrange(size)
                v = "%s%d" % (LETTERS[x], y + 1)
                if g.send("is_legal %s %s" % (color, v)) != "1":
                    v = g.send("gg_genmove %s %d" % (color, rng.randrange(1 << 30)))
            else:
                v = g.send("gg_genmove %s %d" % (color, rng.randrange(1 << 30)))
            if v.upper() == "RESIGN":
                break
            g.send("play %s %s" % (color, v))
            moves.append("%s:%s" % (color, v.upper()))
            color = "W" if color == "B" else "B"
            if n in samples:
                dump(g, size, moves)
    g.send("quit")


def dump(g, size, moves):
    print("position %d %s" % (size, " ".join(moves)))
    seen = set()
    for color in ("black", "white"):
        stones = g.send("list_stones " + color).split()
        for s in stones:
            if s in seen:
                continue
            chain = g.send("worm_stones " + s).split()
            seen.update(chain)
            libs = int(g.send("countlib " + s))
            if libs > 4:
                continue
            head = sorted(chain)[0]
            print("attack %s %s" % (head, g.send("attack " + head)))
            print("defend %s %s" % (head, g.send("defend " + head)))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
