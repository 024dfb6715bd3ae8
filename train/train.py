#!/usr/bin/env python3
"""Trains shicho's network on the records `shicho-train net-data` writes, and exports it as
safetensors for the engine (batch norm folded into the convolutions).

    python3 train/train.py --data DIR/t9-9.bin DIR/t13-13.bin ... --blocks 6 --channels 64 \
        --minutes 3 --out net.safetensors [--fixtures fixtures.json]

The net (the engine's `search::network::model` evaluates the same): a 3x3 stem, residual
blocks of two 3x3 convolutions, a policy head (a 1x1 convolution, then one logit a point,
and the pass logit from the head's mean and max over the board) and a value head (a 1x1
convolution pooled to its mean, its mean scaled by the board's size and its max, then two
dense layers: the win logit and the score lead over 20) with each point's owner (tanh of
a 1x1 convolution of the value head's map). Every board size trains the same weights; a
batch holds one size. The eight symmetries of the board augment the data.

Losses: the policy's cross-entropy against the teacher's whole distribution; the win's
against the teacher's win rate; the owner's squared error; the lead's Huber loss, scaled.
One record in twenty is held out: the log gives its policy loss, its top-1 agreement with
the teacher's favourite move and the value's loss, by board size.

`--init NET` continues from an exported net rather than random weights: the export keeps no
batch-norm statistics, so they are measured again on the records (`recalibrate`), which
leaves the net's outputs as they were; the learning rate's schedule then starts again.
"""

import argparse
import json
import math
import os
import random
import sys
import time


def arguments():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True, help="the .bin files shicho-train net-data writes")
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--channels", type=int, default=64)
    ap.add_argument("--head", type=int, default=32)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--minutes", type=float, default=3.0,
                    help="training time, the learning rate's cosine schedule spread over it")
    ap.add_argument("--steps", type=int, default=None,
                    help="train this many steps instead, the schedule spread over them (reproducible on any machine)")
    ap.add_argument("--device", default=None,
                    help="cuda, cpu, ... (default: cuda where PyTorch sees a GPU, else cpu)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="the trained net's file (required unless --evaluate)")
    ap.add_argument("--init", metavar="WEIGHTS",
                    help="start from this exported net instead of random weights (its size, not "
                    "--blocks/--channels/--head); the schedule starts again from --lr")
    ap.add_argument("--evaluate", metavar="WEIGHTS",
                    help="train nothing: score this exported net on the held-out records")
    ap.add_argument("--shares", default=None, metavar="SIZE:SHARE,...",
                    help="each board size's share of the steps, e.g. 9:0.72,13:0.1,19:0.18 "
                    "(default: in proportion to its training records)")
    ap.add_argument("--bf16", choices=["auto", "on", "off"], default="auto",
                    help="bfloat16 autocast (auto: on a GPU, and on a CPU with bf16 instructions, "
                    "where it trains 2-6 times faster than float32)")
    ap.add_argument("--fixtures", default=None)
    ap.add_argument("--log", default=None)
    return ap


# Read before PyTorch loads (seconds), so that --help and a mistyped option answer at once,
# on a machine without PyTorch too; main() reads them again.
if __name__ == "__main__":
    arguments().parse_args()

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

BINARY_PLANES = 19
GLOBALS = 2
INPUTS = BINARY_PLANES + GLOBALS


def record_layout(n):
    """Byte offsets of a record's fields for a board of n points."""
    planes = (n * BINARY_PLANES + 7) // 8
    fields = {}
    at = 0
    for name, length in [("planes", planes), ("globals", 4 * GLOBALS), ("policy", 2 * (n + 1)),
                         ("win", 4), ("lead", 4), ("owner", n)]:
        fields[name] = (at, at + length)
        at += length
    return fields, at


class SizeData:
    """The records of one board size, decoded to tensors on the training device."""

    def __init__(self, path, device):
        meta = json.load(open(path[:-4] + ".json"))
        self.size = meta["size"]
        assert meta["binary_planes"] == BINARY_PLANES and meta["globals"] == GLOBALS, path
        n = self.size * self.size
        fields, length = record_layout(n)
        raw = np.fromfile(path, dtype=np.uint8)
        raw = raw[: len(raw) // length * length].reshape(-1, length)
        count = len(raw)

        def field(name):
            a, b = fields[name]
            return np.ascontiguousarray(raw[:, a:b])

        bits = np.unpackbits(field("planes"), axis=1, bitorder="little")[:, : n * BINARY_PLANES]
        planes = bits.reshape(count, self.size, self.size, BINARY_PLANES)  # y, x, plane
        self.planes = torch.from_numpy(planes).to(device).permute(0, 3, 1, 2).contiguous()  # N C H W u8
        self.globals = torch.from_numpy(field("globals").view(np.float32).copy()).to(device)
        policy = field("policy").view(np.uint16).astype(np.float32) / 65535.0
        self.policy = torch.from_numpy(policy).to(device)
        self.win = torch.from_numpy(field("win").view(np.float32).copy()).to(device).squeeze(1)
        self.lead = torch.from_numpy(field("lead").view(np.float32).copy()).to(device).squeeze(1)
        owner = field("owner").view(np.int8).astype(np.float32) / 100.0
        self.owner = torch.from_numpy(owner).to(device).view(count, self.size, self.size)
        self.count = count
        # The held-out records: every 20th game-ordered record would split games across the
        # sets; a block at the end keeps whole games out instead.
        self.holdout = max(1, count // 20)

    def batch(self, index, symmetry):
        planes = self.planes[index].float()
        globals_ = self.globals[index]
        b = planes.shape[0]
        s = self.size
        x = torch.cat([planes, globals_[:, :, None, None].expand(b, GLOBALS, s, s)], dim=1)
        board_policy = self.policy[index, : s * s].view(b, s, s)
        owner = self.owner[index]
        x, board_policy, owner = (transform(t, symmetry) for t in (x, board_policy, owner))
        policy = torch.cat([board_policy.reshape(b, -1), self.policy[index, s * s:]], dim=1)
        return x, policy, self.win[index], self.lead[index], owner


def transform(t, symmetry):
    """One of the 8 symmetries of the square on the last two dimensions."""
    if symmetry & 4:
        t = t.transpose(-1, -2)
    if symmetry & 2:
        t = t.flip(-1)
    if symmetry & 1:
        t = t.flip(-2)
    return t


class Conv(nn.Module):
    """A convolution followed by batch norm (folded away on export)."""

    def __init__(self, cin, cout, k):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=0, bias=False)
        self.bn = nn.BatchNorm2d(cout)
        self.k = k

    def forward(self, x, torus):
        if self.k == 3:
            x = F.pad(x, (1, 1, 1, 1), mode="circular" if torus else "constant")
        return self.bn(self.conv(x))


class Block(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = Conv(ch, ch, 3)
        self.conv2 = Conv(ch, ch, 3)

    def forward(self, x, torus):
        y = F.relu(self.conv1(x, torus))
        return F.relu(x + self.conv2(y, torus))


def pooled(h):
    """Mean, mean scaled by the board's size, and max over the board: (B, 3C)."""
    area = h.shape[-1] * h.shape[-2]
    mean = h.mean(dim=(2, 3))
    return torch.cat([mean, mean * (math.sqrt(area) - 14.0) / 10.0, h.amax(dim=(2, 3))], dim=1)


class Net(nn.Module):
    def __init__(self, blocks, channels, head=32, hidden=64):
        super().__init__()
        self.blocks_n, self.channels, self.head, self.hidden = blocks, channels, head, hidden
        self.stem = Conv(INPUTS, channels, 3)
        self.blocks = nn.ModuleList(Block(channels) for _ in range(blocks))
        self.policy_conv = Conv(channels, head, 1)
        self.policy_out = nn.Conv2d(head, 1, 1)
        self.policy_pass = nn.Linear(3 * head, 1)
        self.value_conv = Conv(channels, head, 1)
        self.value_fc1 = nn.Linear(3 * head, hidden)
        self.value_fc2 = nn.Linear(hidden, 2)
        self.owner_out = nn.Conv2d(head, 1, 1)

    def forward(self, x, torus=False):
        h = F.relu(self.stem(x, torus))
        for block in self.blocks:
            h = block(h, torus)
        p = F.relu(self.policy_conv(h, torus))
        logits = torch.cat([self.policy_out(p).flatten(1), self.policy_pass(pooled(p))], dim=1)
        v = F.relu(self.value_conv(h, torus))
        out = self.value_fc2(F.relu(self.value_fc1(pooled(v))))
        owner = torch.tanh(self.owner_out(v)).squeeze(1)
        return logits, out[:, 0], out[:, 1] * 20.0, owner


def losses(net, x, policy, win, lead, owner):
    logits, win_logit, lead_out, owner_out = net(x)
    policy_loss = -(policy * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value_loss = F.binary_cross_entropy_with_logits(win_logit, win)
    owner_loss = ((owner_out - owner) ** 2).mean()
    lead_loss = F.huber_loss(lead_out / 20.0, lead / 20.0, delta=1.0)
    total = policy_loss + value_loss + 0.5 * owner_loss + 0.5 * lead_loss
    agree = (logits.argmax(dim=1) == policy.argmax(dim=1)).float().mean()
    return total, policy_loss, value_loss, owner_loss, agree


def fold(conv):
    """The weights and bias of a Conv with its batch norm folded in (eval statistics)."""
    bn = conv.bn
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    w = conv.conv.weight * scale[:, None, None, None]
    b = bn.bias - bn.running_mean * scale
    return w.detach().float().contiguous(), b.detach().float().contiguous()


def named_layers(net):
    """The tensors' names in the exported file: the convolutions with a batch norm, then the
    layers without."""
    convs = [("stem", net.stem)]
    for i, block in enumerate(net.blocks):
        convs += [(f"blocks.{i}.conv1", block.conv1), (f"blocks.{i}.conv2", block.conv2)]
    convs += [("policy.conv", net.policy_conv), ("value.conv", net.value_conv)]
    plain = [("policy.out", net.policy_out), ("policy.pass", net.policy_pass),
             ("value.fc1", net.value_fc1), ("value.fc2", net.value_fc2),
             ("ownership.out", net.owner_out)]
    return convs, plain


def export(net, path, meta):
    from safetensors.torch import save_file
    tensors = {}

    def put_conv(name, conv):
        tensors[name + ".weight"], tensors[name + ".bias"] = fold(conv)

    convs, plain = named_layers(net)
    for name, conv in convs:
        put_conv(name, conv)
    for name, layer in plain:
        tensors[name + ".weight"] = layer.weight.detach().float().contiguous()
        tensors[name + ".bias"] = layer.bias.detach().float().contiguous()
    tensors = {k: v.cpu() for k, v in tensors.items()}
    metadata = {"format": "shicho-net", "version": "1", "blocks": str(net.blocks_n),
                "channels": str(net.channels), "head_channels": str(net.head),
                "value_hidden": str(net.hidden), "binary_planes": str(BINARY_PLANES),
                "globals": str(GLOBALS)}
    metadata.update({k: str(v) for k, v in meta.items()})
    save_file(tensors, path, metadata=metadata)


@torch.no_grad()
def evaluate(net, data, batch=1024):
    net.eval()
    out = {}
    for d in data:
        start = d.count - d.holdout
        totals = np.zeros(4)
        seen = 0
        for a in range(start, d.count, batch):
            index = torch.arange(a, min(d.count, a + batch), device=d.planes.device)
            x, policy, win, lead, owner = d.batch(index, 0)
            _, p, v, o, agree = losses(net, x, policy, win, lead, owner)
            k = len(index)
            totals += np.array([p.item(), v.item(), o.item(), agree.item()]) * k
            seen += k
        out[d.size] = totals / max(1, seen)
    net.train()
    return out


def report(net, data, say):
    for size, (p, v, o, agree) in evaluate(net, data).items():
        say(f"held out {size}x{size}: policy {p:.4f} value {v:.4f} owner {o:.4f} top1 {agree:.4f}")


def load(path, device):
    """A net exported by `export`: each folded convolution's batch norm set to the identity
    (scale 1, shift the folded bias), so the net computes what the engine computes."""
    from safetensors import safe_open
    with safe_open(path, framework="pt") as f:
        meta = f.metadata() or {}
        tensors = {k: f.get_tensor(k) for k in f.keys()}
    if meta.get("format") != "shicho-net":
        sys.exit(f"{path}: not a shicho net")
    net = Net(int(meta["blocks"]), int(meta["channels"]), int(meta["head_channels"]),
              int(meta["value_hidden"]))

    def put_conv(name, conv):
        conv.conv.weight.data.copy_(tensors[name + ".weight"])
        conv.bn.weight.data.fill_(1.0)
        conv.bn.bias.data.copy_(tensors[name + ".bias"])
        conv.bn.running_mean.zero_()
        conv.bn.running_var.fill_(1.0 - conv.bn.eps)

    convs, plain = named_layers(net)
    for name, conv in convs:
        put_conv(name, conv)
    for name, layer in plain:
        layer.weight.data.copy_(tensors[name + ".weight"].view_as(layer.weight))
        layer.bias.data.copy_(tensors[name + ".bias"])
    return net.to(device)


@torch.no_grad()
def recalibrate(net, data, weights, batch=2048):
    """Gives an exported net's batch norms the statistics of the data, keeping its function:
    `load` sets them to the identity, which training mode (normalizing by the batch's own
    statistics) would replace at the first step. Each convolution's output mean and variance
    over a batch of each size (averaged by the steps' shares) become the running statistics,
    and scale and shift undo them, so evaluation computes exactly what the file does and a
    training batch nearly so: the start of a warm run."""
    convs, _ = named_layers(net)
    sums = {name: [0.0, 0.0] for name, _ in convs}
    share = [0.0]  # the batch in flight's weight

    def hook_for(name):
        def hook(module, inputs, out):
            sums[name][0] = sums[name][0] + share[0] * out.mean(dim=(0, 2, 3))
            sums[name][1] = sums[name][1] + share[0] * out.var(dim=(0, 2, 3))
        return hook

    hooks = [conv.conv.register_forward_hook(hook_for(name)) for name, conv in convs]
    net.eval()
    total = sum(weights)
    for d, w in zip(data, weights):
        share[0] = w / total
        # Positions from all through the games, not the first records' openings.
        x, *_ = d.batch(torch.randint(0, d.count - d.holdout, (batch,), device=d.planes.device), 0)
        net(x)
    for h in hooks:
        h.remove()
    for name, conv in convs:
        mean, var = sums[name]
        bias = conv.bn.bias.data.clone()
        conv.bn.running_mean.copy_(mean)
        conv.bn.running_var.copy_(var)
        conv.bn.weight.data.copy_(torch.sqrt(var + conv.bn.eps))
        conv.bn.bias.data.copy_(bias + mean)
    net.train()


@torch.no_grad()
def write_fixtures(net, data, path, per_size=8):
    """Positions from the held-out records with the trained net's outputs (eval mode, batch
    norm not folded: the framework's own answers), plain and on a torus. Computed on the
    CPU in float32: a GPU's convolutions may round through TF32."""
    import copy
    net = copy.deepcopy(net).cpu().float()
    net.eval()
    cases = []
    rng = random.Random(7)
    for d in data:
        start = d.count - d.holdout
        for torus in (False, True):
            for _ in range(per_size if not torus else 2):
                i = rng.randrange(start, d.count)
                index = torch.tensor([i], device=d.planes.device)
                x, *_ = d.batch(index, 0)
                logits, win_logit, lead, owner = net(x.cpu().float(), torus)
                s = d.size
                planes = d.planes[i].permute(1, 2, 0).reshape(-1).cpu().numpy()  # point-major
                cases.append({
                    "size": s, "torus": torus,
                    "planes": "".join(str(int(b)) for b in planes),
                    "globals": d.globals[i].cpu().tolist(),
                    "policy": torch.softmax(logits[0], dim=0).cpu().tolist(),
                    "win": torch.sigmoid(win_logit[0]).item(),
                    "lead": lead[0].item(),
                    "owner": owner[0].reshape(-1).cpu().tolist(),
                })
    json.dump({"cases": cases}, open(path, "w"))
    net.train()


def parse_shares(spec, error):
    """`--shares` as {size: share}, or None for shares in proportion to each size's training
    records (which a new shard of one size moves for every size, as a 9x9 shard starved 19x19)."""
    if spec is None:
        return None
    given = {}
    for item in spec.split(","):
        size, sep, share = item.partition(":")
        try:
            size, share = int(size), float(share)
        except ValueError:
            error(f"--shares: {item!r} is not SIZE:SHARE")
        if not sep or not (0 < share < math.inf) or size in given:
            error(f"--shares: {item!r} needs a positive share, once per size")
        given[size] = share
    return given


def step_weights(shares, data, error):
    """The weight of each size's batches."""
    if shares is None:
        return [d.count - d.holdout for d in data]
    sizes = sorted(d.size for d in data)
    if sorted(shares) != sizes:
        error(f"--shares names sizes {sorted(shares)}, the data has {sizes}")
    return [shares[d.size] for d in data]


def main():
    ap = arguments()
    args = ap.parse_args()
    args.device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    # Checked before the records load, which takes a while.
    if not args.out and not args.evaluate:
        ap.error("--out is required unless --evaluate")
    shares = parse_shares(args.shares, ap.error)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.benchmark = True
    rng = random.Random(args.seed)
    log = open(args.log, "a") if args.log else sys.stderr

    def say(text):
        print(text, file=log, flush=True)

    data = [SizeData(p, args.device) for p in args.data]
    say(" ".join(f"{d.size}x{d.size}: {d.count} records" for d in data))
    if args.evaluate:
        report(load(args.evaluate, args.device), data, say)
        return
    weights = step_weights(shares, data, ap.error)
    if args.init:
        net = load(args.init, args.device)
        recalibrate(net, data, weights)
        say(f"started from {args.init}")
        report(net, data, say)
    else:
        net = Net(args.blocks, args.channels, args.head).to(args.device)
    params = sum(p.numel() for p in net.parameters())
    say(f"net: {net.blocks_n} blocks, {net.channels} channels, {params} parameters")
    on_gpu = args.device.startswith("cuda")
    if args.bf16 == "auto":
        use_amp = on_gpu or torch.ops.mkldnn._is_mkldnn_bf16_supported()
    else:
        use_amp = args.bf16 == "on"
    # oneDNN's CPU convolutions are fastest on channels-last tensors (up to 2x in float32 on
    # 19x19 here, nothing lost on 9x9).
    layout = torch.channels_last if not on_gpu else torch.contiguous_format
    net = net.to(memory_format=layout)
    say(f"bf16 autocast: {'on' if use_amp else 'off'}")
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    say("steps' shares: " + " ".join(f"{d.size}x{d.size} {w / sum(weights):.3f}" for d, w in zip(data, weights)))
    budget = args.minutes * 60
    started = time.time()
    step = 0
    while True:
        elapsed = time.time() - started
        progress = step / args.steps if args.steps else elapsed / budget
        if progress >= 1.0:
            break
        lr = args.lr * 0.5 * (1 + math.cos(math.pi * progress))
        for g in opt.param_groups:
            g["lr"] = lr
        d = rng.choices(data, weights=weights)[0]
        index = torch.randint(0, d.count - d.holdout, (args.batch,), device=args.device)
        x, policy, win, lead, owner = d.batch(index, rng.randrange(8))
        x = x.contiguous(memory_format=layout)
        with torch.autocast("cuda" if on_gpu else "cpu", dtype=torch.bfloat16, enabled=use_amp):
            total, p, v, o, agree = losses(net, x, policy, win, lead, owner)
        opt.zero_grad(set_to_none=True)
        total.backward()
        opt.step()
        step += 1
        if step % 500 == 0:
            say(f"step {step} {elapsed:.0f}s lr {lr:.5f} {d.size}x{d.size}: policy {p.item():.3f} "
                f"value {v.item():.3f} owner {o.item():.3f} top1 {agree.item():.3f}")
    say(f"trained {step} steps ({step * args.batch} samples) in {time.time() - started:.0f}s")
    report(net, data, say)
    export(net, args.out, {"steps": step, "samples": step * args.batch})
    if args.fixtures:
        write_fixtures(net, data, args.fixtures)
    say(f"wrote {args.out}")


if __name__ == "__main__":
    main()
