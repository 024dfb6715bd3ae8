#!/usr/bin/env python3
"""Refits a trained net's score lead alone: the value head's last dense layer has two rows,
the win logit and the lead over 20, and this fits the lead's row (a weight for each of the
head's hidden units and a bias: a linear readout of them) again on the records given, with the loss
training uses (Huber, delta 1, on the lead over 20), and writes the net with that row
replaced and every other tensor byte for byte as it was. The search plays by the policy and
the win logit only, so the engine plays the same moves; what changes is the lead an analysis
reports (`kata-analyze`'s `scoreLead`, `shicho analysis`).

Why: the built-in net learnt its lead from the teacher's even games, so where a game is
lopsided (the games people review) its lead falls short of the teacher's by a third or
more. The hidden units know more than the row reads from them; records from lopsided games
(train/README.md: `x19-gg`) let a least-loss fit find it, without training the trunk again.

    python3 train/refit_lead.py --net src/go/network/data/net.safetensors \\
        --data target/netdata/*.bin --shares 9:0.72,13:0.10,19:0.18 \\
        --out refit.safetensors [--fixtures refit-fixtures.json]

Each file's held-out records (its last 5%, as train.py holds out) are scored before and
after (`lead` is the mean absolute error in points); the fit reads a sample of the others.
"""

import argparse
import importlib.util
import os
import sys

import torch
import torch.nn.functional as F

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("train", os.path.join(here, "train.py"))
train = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train)


def arguments():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--net", required=True, help="the exported net whose lead is refitted")
    ap.add_argument("--data", nargs="+", required=True, metavar="FILE[@SHARE]",
                    help="record files (`shicho-train net-data`); FILE@0.5 gives a file half of "
                         "its size's weight, the size's other files splitting the rest by records")
    ap.add_argument("--shares", default=None, metavar="SIZE:SHARE,...",
                    help="each board size's weight in the fit (default: by records)")
    ap.add_argument("--sample", type=int, default=40000,
                    help="training records drawn from each file for the fit")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True, help="the net with its lead refitted")
    ap.add_argument("--fixtures", default=None,
                    help="write fixtures of the refitted net (tests/network.rs reads them)")
    return ap


@torch.no_grad()
def hidden_units(net, d, index, batch=1024):
    """The value head's hidden units (after their ReLU) and the teacher's leads."""
    seen = {}
    hook = net.value_fc1.register_forward_hook(lambda m, i, out: seen.__setitem__("h", F.relu(out)))
    hidden, leads = [], []
    for a in range(0, len(index), batch):
        x, t = d.batch(index[a:a + batch], 0)
        net(x)
        hidden.append(seen["h"])
        leads.append(t["lead"])
    hook.remove()
    return torch.cat(hidden), torch.cat(leads)


def lead_error(hidden, lead, row):
    """The mean absolute error in points of the lead `row` (weights, then bias) reads."""
    return ((hidden @ row[:-1] + row[-1]) * 20.0 - lead).abs().mean().item()


def main():
    ap = arguments()
    args = ap.parse_args()
    if args.sample < 1:
        ap.error("--sample: at least one record a file")
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
    # them, as the engine reads it (`size_norms`). The dense layers are the same in all.
    nets = {size: net.eval() for size, net in train.load_sized(args.net, "cpu", data).items()}
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
    hidden, targets, weights = [], [], []
    for d, file_share in zip(data, file_shares):
        train_count = d.count - d.holdout
        size_records = sum(e.count - e.holdout for e in data if e.size == d.size)
        share = (shares[d.size] / sum(shares.values())) if shares else size_records / total
        share *= file_share if file_share is not None else (1 - given[d.size]) * train_count / max(1, records[d.size])
        index = torch.randperm(train_count, generator=draws)[:args.sample]
        h, lead = hidden_units(nets[d.size], d, index)
        hidden.append(h)
        targets.append(lead / 20.0)
        weights.append(torch.full((len(index),), share / len(index)))
    h = torch.cat(hidden)
    y = torch.cat(targets)
    w = torch.cat(weights)
    # The held-out records' hidden units, read once: the refit changes only what follows them.
    held_out = [hidden_units(nets[d.size], d, torch.arange(d.count - d.holdout, d.count))
                for d in data]
    layer = nets[data[0].size].value_fc2
    old_row = torch.cat([layer.weight.data[1], layer.bias.data[1:2]]).clone()
    row = old_row.clone().requires_grad_(True)
    inputs = torch.cat([h, torch.ones(len(h), 1)], dim=1)
    opt = torch.optim.LBFGS([row], max_iter=500, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = (F.huber_loss(inputs @ row, y, delta=1.0, reduction="none") * w).sum()
        loss.backward()
        return loss

    opt.step(closure)
    row = row.detach()
    for d, path, (h, lead) in zip(data, paths, held_out):
        print(f"held out {os.path.basename(path)} ({d.size}x{d.size}, {d.holdout} records): "
              f"lead {lead_error(h, lead, old_row):.3f} -> {lead_error(h, lead, row):.3f} points",
              flush=True)

    from safetensors import safe_open
    from safetensors.torch import save_file
    with safe_open(args.net, framework="pt") as f:
        meta = f.metadata() or {}
        tensors = {k: f.get_tensor(k) for k in f.keys()}
    weight, bias = tensors["value.fc2.weight"].clone(), tensors["value.fc2.bias"].clone()
    weight.view(2, -1)[1] = row[:-1].to(weight.dtype)
    bias[1] = row[-1].to(bias.dtype)
    tensors["value.fc2.weight"], tensors["value.fc2.bias"] = weight, bias
    meta["lead_refit"] = " ".join(os.path.basename(p) for p in args.data)
    save_file(tensors, args.out, metadata=meta)
    print(f"wrote {args.out}")
    if args.fixtures:
        # The refitted net as the engine reads it, to be sure the fixtures are the file's.
        train.write_fixtures(train.load_sized(args.out, "cpu", data), data, args.fixtures)
        print(f"wrote {args.fixtures}")


if __name__ == "__main__":
    main()
