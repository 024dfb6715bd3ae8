#!/usr/bin/env python3
"""shicho with a scripted genmove, for driving GoGui through a fixed game.

GoGui (`-computer-both`) asks its program for every move with `genmove`. This wrapper
starts the real engine and passes every command through to it unchanged, except
`genmove C`, which it answers from a script instead, telling the engine the move with
`play C V` first (so the engine's game stays the game GoGui shows). GoGui starts the same
command a second time as its ruler; the ruler never gets a genmove, so there the wrapper is
only a pass-through that logs. Script lines (one per genmove, `#` comments):

    D4           answer this vertex (or `pass`)
    engine       let the engine choose (its own genmove, passed through)
    barrier NAME stop before answering: write what the engine says its board is to
                 NAME.player, create NAME.ready, wait for NAME.go; then read the next line

Once the script is used up the engine chooses every move.

Every exchange is logged to LOG_DIR/<pid>.log: `> command` lines, then the response.

Usage: scripted_engine.py --script FILE --log-dir DIR -- ENGINE [ARGS...]
"""

import argparse
import os
import re
import subprocess
import sys
import time

GENMOVE = re.compile(r"^\s*(\d+\s+)?genmove\s+(\S+)\s*$", re.IGNORECASE)


class Engine:
    def __init__(self, argv, log):
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self.log = log

    def send(self, line):
        """Sends one command line and returns the whole response (up to the empty line)."""
        self.log.write(f"> {line}\n")
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                raise SystemExit("scripted_engine: the engine closed its output")
            lines.append(out)
            if out == "\n":
                break
        response = "".join(lines)
        self.log.write(response)
        self.log.flush()
        return response

    def answer(self, line):
        """The response text after `= ` (first line) or None for an error."""
        response = self.send(line)
        if not response.startswith("="):
            return None
        return re.sub(r"^=\d*\s?", "", response).rstrip("\n")


def read_script(path):
    entries = []
    with open(path) as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if line:
                entries.append(line)
    return entries


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", required=True)
    parser.add_argument("--log-dir", required=True)
    parser.add_argument("engine", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    argv = [a for a in args.engine if a != "--"]
    os.makedirs(args.log_dir, exist_ok=True)
    log = open(os.path.join(args.log_dir, f"{os.getpid()}.log"), "w")
    engine = Engine(argv, log)
    script = read_script(args.script)

    def reply(text):
        sys.stdout.write(text)
        sys.stdout.flush()

    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        if line.strip() == "" or line.lstrip().startswith("#"):
            # No response is due (GoGui's `# interrupt` included); the engine skips it too.
            engine.proc.stdin.write(line + "\n")
            engine.proc.stdin.flush()
            continue
        m = GENMOVE.match(line)
        if not m:
            response = engine.send(line)
            reply(response)
            words = line.split()
            if words and words[0].isdigit():
                words = words[1:]
            if words[:1] == ["quit"]:
                break
            continue
        cmd_id = (m.group(1) or "").strip()
        color = m.group(2)
        while True:
            entry = script.pop(0) if script else "engine"
            if entry.startswith("barrier "):
                name = entry.split(None, 1)[1]
                base = os.path.join(args.log_dir, name)
                with open(base + ".player", "w") as f:
                    f.write(engine.answer("gogui-rules_board") or "")
                    f.write("\n")
                open(base + ".ready", "w").close()
                while not os.path.exists(base + ".go"):
                    time.sleep(0.05)
                continue
            break
        if entry == "engine":
            response = engine.send(f"{cmd_id} genmove {color}".strip())
            reply(response)
            continue
        played = engine.answer(f"play {color} {entry}")
        if played is None:
            reply(f"?{cmd_id} scripted move {entry} is illegal\n\n")
        else:
            reply(f"={cmd_id} {entry}\n\n")
    engine.proc.stdin.close()
    engine.proc.wait()


if __name__ == "__main__":
    main()
