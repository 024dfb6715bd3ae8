#!/usr/bin/env python3
"""Refits one of a trained net's analysis outputs alone and writes the net with every other
tensor byte for byte as it was. The search plays by the policy and the win logit only, so
the engine plays the same moves; what changes is what an analysis reports (`kata-analyze`,
`shicho analysis`).

`--part lead`: the score lead. The value head's last dense layer has two rows, the win logit
and the lead over 20; this fits the lead's row (a weight for each of the head's hidden units
and a bias: a linear readout of them) again, with the loss training uses (Huber, delta 1, on
the lead over 20). Why: the net learnt its lead from the teacher's even games, so where a
game is lopsided (the games people review) its lead fell short of the teacher's by a third
or more. The hidden units know more than the row reads from them; records from lopsided
games (train/README.md: `g19-a`) let a least-loss fit find it, without training the trunk
again.

`--part ownership`: each point's owner, the tanh of a 1x1 convolution of the value head's map
(a weight for each of the head's channels and a bias), fitted under absolute error. Why:
training fits the owner by squared error, whose best answer where the net is unsure is the
mean of what the teacher might say, drawn towards 0; an analysis is judged by its mean
absolute difference from the teacher's map (issue 90), whose best answer is the median,
nearer +1 or -1 wherever most of the teacher's answers lie on one side. With
`--ownership-channels K` the head gets a 1x1 convolution of the trunk of its own (K
channels, a ReLU, then the owner's convolution reading them: a version 3 file), fitted from
random weights the same way, since the value head's map holds what the win rate needs and
less of the board's shape; a net that has one has it refitted.

    python3 train/refit.py --part ownership --net src/go/network/data/net.safetensors \\
        --data target/netdata/*.bin --shares 9:0.72,13:0.10,19:0.18 \\
        --out refit.safetensors [--fixtures refit-fixtures.json]

Each file's held-out records (its last 5%, as train.py holds out) are scored before and
after (`lead`: the mean absolute error in points; `ownership`: the mean absolute difference
from the teacher's owners over the board's points); the fit reads a sample of the others.
"""

import argparse
import copy
import importlib.util
import math
import os
import sys

import torch
import torch.nn.functional as F

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("train", os.path.join(here, "train.py"))
train = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train)

# The ownership fit: Adam on batches of records, each batch from one file drawn by its
# share, the learning rate on a cosine from OWNER_LR. The head has a few hundred or
# thousand numbers, so a few thousand steps settle it.
OWNER_STEPS = 6000
OWNER_BATCH = 512
OWNER_LR = 3e-3


def arguments():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", required=True, choices=["lead", "ownership"],
                    help="the output refitted: the score lead or each point's owner")
    ap.add_argument("--ownership-channels", type=int, default=None, metavar="K",
                    help="with --part ownership: give the head a 1x1 convolution of the trunk "
                         "of its own, K channels wide")
    ap.add_argument("--net", required=True, help="the exported net refitted")
    ap.add_argument("--data", nargs="+", required=True, metavar="FILE[@SHARE]",
                    help="record files (`shicho-train net-data`); FILE@0.5 gives a file half of "
                         "its size's weight, the size's other files splitting the rest by records")
    ap.add_argument("--shares", default=None, metavar="SIZE:SHARE,...",
                    help="each board size's weight in the fit (default: by records)")
    ap.add_argument("--sample", type=int, default=40000,
                    help="training records drawn from each file for the fit")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="the net with the part refitted")
    ap.add_argument("--fixtures", default=None,
                    help="write fixtures of the refitted net (tests/network.rs reads them)")
    return ap


@torch.no_grad()
def value_head(net, d, index, part, batch=1024, trunk=False):
    """What the refitted part reads, its targets and the net's own answers: for the lead,
    the value head's hidden units (after their ReLU), the teacher's leads and the net's;
    for the ownership, the value head's map (after its ReLU), or with `trunk` the trunk's
    output, in bfloat16 to keep a large sample in memory, the teacher's owners and the
    net's."""
    layer = net.value_fc1 if part == "lead" else net.value_conv
    seen = {}
    if trunk:
        hook = layer.register_forward_hook(lambda m, i, out: seen.__setitem__("h", i[0]))
    else:
        hook = layer.register_forward_hook(lambda m, i, out: seen.__setitem__("h", F.relu(out)))
    inputs, targets, answers = [], [], []
    for a in range(0, len(index), batch):
        x, t = d.batch(index[a:a + batch], 0)
        _, _, lead, owner, _ = net(x)
        if part == "lead":
            inputs.append(seen["h"])
            targets.append(t["lead"])
            answers.append(lead)
        else:
            inputs.append(seen["h"].to(torch.bfloat16))
            targets.append(t["owner"])
            answers.append(owner)
    hook.remove()
    return torch.cat(inputs), torch.cat(targets), torch.cat(answers)


def lead_error(hidden, lead, row):
    """The mean absolute error in points of the lead `row` (weights, then bias) reads."""
    return ((hidden @ row[:-1] + row[-1]) * 20.0 - lead).abs().mean().item()


class OwnershipHead(torch.nn.Module):
    """The owner of each point from the maps it reads: the value head's (`conv` None) or
    the trunk's through a 1x1 convolution and a ReLU of its own (`conv`)."""

    def __init__(self, out, conv=None):
        super().__init__()
        self.conv, self.out = conv, out

    def forward(self, maps):
        maps = maps.float()
        if self.conv is not None:
            maps = F.relu(self.conv(maps))
        return torch.tanh(self.out(maps)).squeeze(1)


@torch.no_grad()
def owner_error(maps, owner, head, batch=4096):
    """The mean absolute difference of `head`'s owners from the teacher's."""
    total = sum((head(maps[a:a + batch]) - owner[a:a + batch]).abs().sum().item()
                for a in range(0, len(maps), batch))
    return total / owner.numel()


def fit_lead(samples, row):
    """The lead's row refitted by least Huber loss over every sample at once (each record
    weighted by its file's share over its file's sample)."""
    h = torch.cat([s[0] for s in samples])
    y = torch.cat([s[1] for s in samples]) / 20.0
    w = torch.cat([torch.full((len(s[0]),), s[2] / len(s[0])) for s in samples])
    row = row.clone().requires_grad_(True)
    inputs = torch.cat([h, torch.ones(len(h), 1)], dim=1)
    opt = torch.optim.LBFGS([row], max_iter=500, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = (F.huber_loss(inputs @ row, y, delta=1.0, reduction="none") * w).sum()
        loss.backward()
        return loss

    opt.step(closure)
    return row.detach()


def fit_ownership(samples, head, seed):
    """`head` (an OwnershipHead, changed in place) refitted by least absolute error: the
    files drawn by their shares, a batch of one file's records a step."""
    draws = torch.Generator().manual_seed(seed)
    shares = torch.tensor([s[2] for s in samples])
    opt = torch.optim.Adam(head.parameters(), lr=OWNER_LR)
    for step in range(OWNER_STEPS):
        for g in opt.param_groups:
            g["lr"] = OWNER_LR * 0.5 * (1 + math.cos(math.pi * step / OWNER_STEPS))
        maps, owner, _ = samples[torch.multinomial(shares, 1, generator=draws).item()]
        index = torch.randint(0, len(maps), (OWNER_BATCH,), generator=draws)
        loss = (head(maps[index]) - owner[index]).abs().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return head


def main():
    ap = arguments()
    args = ap.parse_args()
    if args.sample < 1:
        ap.error("--sample: at least one record a file")
    if args.ownership_channels is not None and (args.part != "ownership" or args.ownership_channels < 1):
        ap.error("--ownership-channels: a number of channels, with --part ownership")
    paths, file_shares = [], []
    for item in args.data:
        path, at, share = item.rpartition("@") if "@" in item else ("", "", "")
        if not at:
            path, share = item, None
        else:
            try:
                share = float(share)
            except ValueError:
                ap.error(f"--data: {item!r}: the share after @ is not a number")
            if not 0 < share < 1:
                ap.error(f"--data: {item!r}: a file's share is between 0 and 1")
        paths.append(path)
        file_shares.append(share)
    for path in [args.net] + paths:
        if not os.path.isfile(path):
            ap.error(f"{path}: no such file")
    data = [train.SizeData(p, "cpu") for p in paths]
    # The net each size is evaluated with: its own batch-norm statistics where the file has
    # them, as the engine reads it (`size_norms`). The refitted layers are the same in all.
    nets = {size: net.eval() for size, net in train.load_sized(args.net, "cpu", data).items()}
    net = nets[data[0].size]
    has_conv = net.owner_conv is not None
    if has_conv and args.ownership_channels not in (None, net.owner_conv.out_channels):
        ap.error(f"--ownership-channels: the net's ownership head has {net.owner_conv.out_channels} "
                 f"channels of its own, refitted as they are")
    # Whether the owners read the trunk (a head of its own, new or refitted).
    trunk = args.part == "ownership" and (has_conv or args.ownership_channels is not None)
    sizes = sorted({d.size for d in data})
    shares = train.parse_shares(args.shares, ap.error)
    if shares is not None and sorted(shares) != sizes:
        ap.error(f"--shares names sizes {sorted(shares)}, the data has {sizes}")
    # A size's share, split between its files: those given a share take it, the others
    # the rest by their training records.
    records = {s: sum(d.count - d.holdout for d, f in zip(data, file_shares)
                      if d.size == s and f is None) for s in sizes}
    given = {s: sum(f for d, f in zip(data, file_shares) if d.size == s and f is not None)
             for s in sizes}
    for s in sizes:
        if given[s] > 0 and (given[s] >= 1 if records[s] else abs(given[s] - 1) > 1e-9):
            ap.error(f"--data: the shares given to {s}x{s} files leave nothing for the others "
                     f"or do not add up to 1")
    total = sum(d.count - d.holdout for d in data)
    # A generator of its own: loading a net draws from torch's (each Net starts random).
    draws = torch.Generator().manual_seed(args.seed)
    samples = []  # (inputs, targets, the file's share) a file
    for d, file_share in zip(data, file_shares):
        train_count = d.count - d.holdout
        size_records = sum(e.count - e.holdout for e in data if e.size == d.size)
        share = (shares[d.size] / sum(shares.values())) if shares else size_records / total
        share *= file_share if file_share is not None else (1 - given[d.size]) * train_count / max(1, records[d.size])
        index = torch.randperm(train_count, generator=draws)[:args.sample]
        inputs, targets, _ = value_head(nets[d.size], d, index, args.part, trunk=trunk)
        samples.append((inputs, targets, share))
    # The held-out records, read once: the refit changes only what follows them, and the
    # net's own answers score it before.
    held_out = [value_head(nets[d.size], d, torch.arange(d.count - d.holdout, d.count), args.part,
                           trunk=trunk) for d in data]
    if args.part == "lead":
        old = torch.cat([net.value_fc2.weight.data[1], net.value_fc2.bias.data[1:2]]).clone()
        new = fit_lead(samples, old)
        error, unit = lead_error, "points"
    else:
        if trunk and not has_conv:
            # A new head, from random weights of its own seed.
            torch.manual_seed(args.seed)
            k = args.ownership_channels
            new = OwnershipHead(torch.nn.Conv2d(k, 1, 1), torch.nn.Conv2d(net.channels, k, 1))
        else:
            new = OwnershipHead(copy.deepcopy(net.owner_out), copy.deepcopy(net.owner_conv))
        new = fit_ownership(samples, new, args.seed)
        error, unit = owner_error, "of the owner's mean absolute difference"
    for d, path, (inputs, targets, answers) in zip(data, paths, held_out):
        before = (answers - targets).abs().mean().item()
        print(f"held out {os.path.basename(path)} ({d.size}x{d.size}, {d.holdout} records): "
              f"{args.part} {before:.4f} -> {error(inputs, targets, new):.4f} {unit}",
              flush=True)

    from safetensors import safe_open
    from safetensors.torch import save_file
    with safe_open(args.net, framework="pt") as f:
        meta = f.metadata() or {}
        tensors = {k: f.get_tensor(k) for k in f.keys()}
    if args.part == "lead":
        weight, bias = tensors["value.fc2.weight"].clone(), tensors["value.fc2.bias"].clone()
        weight.view(2, -1)[1] = new[:-1].to(weight.dtype)
        bias[1] = new[-1].to(bias.dtype)
        tensors["value.fc2.weight"], tensors["value.fc2.bias"] = weight, bias
    else:
        for name, layer in (("ownership.out", new.out), ("ownership.conv", new.conv)):
            if layer is not None:
                tensors[name + ".weight"] = layer.weight.detach().float().contiguous()
                tensors[name + ".bias"] = layer.bias.detach().float().contiguous()
        if new.conv is not None:
            # Version 3 (train.py's export says why), pooling blocks kept where there are.
            meta.update({"version": "3", "ownership_channels": str(new.conv.out_channels)})
    meta[f"{args.part}_refit"] = " ".join(os.path.basename(p) for p in args.data)
    save_file(tensors, args.out, metadata=meta)
    print(f"wrote {args.out}")
    if args.fixtures:
        # The refitted net as the engine reads it, to be sure the fixtures are the file's.
        train.write_fixtures(train.load_sized(args.out, "cpu", data), data, args.fixtures)
        print(f"wrote {args.fixtures}")


if __name__ == "__main__":
    main()
