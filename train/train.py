#!/usr/bin/env python3
"""Trains shicho's network on the records `shicho-train net-data` writes, and exports it as
safetensors for the engine (batch norm folded into the convolutions: once with the running
statistics, and once more for each trained board size with that size's own, which the
engine evaluates the size with; `--one-norm` leaves those out).

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

`--widen C` (with `--init`) widens that net's trunk to C channels, keeping what it computes
(Net2Net), so that a larger net starts from a trained one. `--checkpoint FILE` keeps the
whole run (weights, optimizer, random state, step) every few minutes and when a signal
stops it; the same command goes on from there, so a long run on a CPU adds up over sittings.

Beyond that recipe, each off by default (train/README.md says how to measure each): auxiliary
heads the engine never runs, which only shape the trunk and are not exported (the softened
policy, the opponent's reply, short-term win rates), surprise weighting of the draws, an
average of the weights exported in place of the last ones, and global-pooling blocks in the
trunk (a net the engine cannot read yet: format version 2).

Under `torchrun` (more processes, on one machine or several) each process computes its
share of every batch and the gradients are averaged across them (DistributedDataParallel:
gloo on CPUs, NCCL on GPUs); `--batch` stays the whole batch, and only the first process
writes the log and the outputs.
"""

import argparse
import json
import math
import os
import random
import signal
import sys
import time

# The score lead's loss weight in today's recipe (--lead-weight's default).
LEAD_WEIGHT = 0.5


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
    ap.add_argument("--widen", type=int, default=None, metavar="C",
                    help="with --init: widen the net's trunk to C channels before training "
                    "(Net2Net: each new channel a copy of an old one, its readers' weights shared "
                    "among the copies, so the wider net starts where the narrow one was)")
    ap.add_argument("--checkpoint", metavar="FILE",
                    help="keep the run's whole state here (every --checkpoint-every minutes, and on "
                    "SIGTERM or SIGINT, which then stop the run); a run given a FILE that exists "
                    "goes on from it, with the same options. Removed once the net is written")
    ap.add_argument("--checkpoint-every", type=float, default=10.0, metavar="MINUTES")
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
    ap.add_argument("--log-every", type=int, default=500, metavar="STEPS",
                    help="a training batch's losses in the log every this many steps")
    more = ap.add_argument_group("beyond today's recipe (each off by default; train/README.md measures them)")
    more.add_argument("--soft-policy-weight", type=float, default=0.0, metavar="W",
                      help="an auxiliary policy head learns the teacher's policy softened, p^(1/4) "
                      "renormalised, at this weight (KataGo's soft policy: 8)")
    more.add_argument("--reply-weight", type=float, default=0.0, metavar="W",
                      help="an auxiliary policy head learns the opponent's reply, the next "
                      "position's label, at this weight (KataGo: 0.15); with --soft-policy-weight "
                      "a soft reply head too. Needs records of net-data --aux-targets")
    more.add_argument("--short-term-weight", type=float, default=0.0, metavar="W",
                      help="auxiliary value heads learn the teacher's short-term win rates (its "
                      "later win rates averaged over about 6 and 16 plies on 9x9), each at this "
                      "weight (KataGo's td values: 0.6). Needs records of net-data --aux-targets")
    more.add_argument("--surprise-share", type=float, default=0.0, metavar="S",
                      help="draw positions with chances (1-S) + S * surprise, a position's "
                      "surprise the KL divergence from the teacher's policy to the net's when it "
                      "was last drawn over the recent mean (KataGo: 0.5)")
    more.add_argument("--ema-decay", type=float, default=0.0, metavar="D",
                      help="export an exponential moving average of the weights with this decay "
                      "a step (e.g. 0.999), its batch norms measured again, in place of the last "
                      "weights; the log scores both")
    more.add_argument("--lead-weight", type=float, default=LEAD_WEIGHT, metavar="W",
                      help="the score lead's loss (Huber on the lead over 20 points) at this "
                      "weight beside the policy's and the value's (today's recipe: 0.5)")
    more.add_argument("--one-norm", action="store_true",
                      help="export only the batch norms' statistics of every size together, "
                      "not each trained size's own beside them (the engine reads each size's "
                      "where the file has them)")
    more.add_argument("--gpool-blocks", type=int, default=0, metavar="N",
                      help="N trunk blocks pool a share of their channels over the board (mean, "
                      "mean scaled by the board's size, max) into biases for the rest (KataGo's "
                      "global pooling). Exported as format version 2")
    more.add_argument("--gpool-channels", type=int, default=None, metavar="C",
                      help="the channels a pooling block pools (default: a third of --channels)")
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


def record_layout(n, aux_targets=(), short_term=0):
    """Byte offsets of a record's fields for a board of n points; `aux_targets` are the
    fields `net-data --aux-targets` appends, in its order, with `short_term` horizons."""
    planes = (n * BINARY_PLANES + 7) // 8
    lengths = {"reply_policy": 2 * (n + 1), "short_term_win": 4 * short_term}
    fields = {}
    at = 0
    for name, length in [("planes", planes), ("globals", 4 * GLOBALS), ("policy", 2 * (n + 1)),
                         ("win", 4), ("lead", 4), ("owner", n)] + [(a, lengths[a]) for a in aux_targets]:
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
        # Records of net-data --aux-targets carry targets for the auxiliary heads too.
        aux_targets = meta.get("aux_targets", [])
        self.horizons = meta.get("short_term_horizons", [])
        fields, length = record_layout(n, aux_targets, len(self.horizons))
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
        self.reply = self.short_term = None
        if "reply_policy" in aux_targets:
            reply = field("reply_policy").view(np.uint16).astype(np.float32) / 65535.0
            self.reply = torch.from_numpy(reply).to(device)
        if "short_term_win" in aux_targets:
            self.short_term = torch.from_numpy(field("short_term_win").view(np.float32).copy()).to(device)
        self.count = count
        # The held-out records: every 20th game-ordered record would split games across the
        # sets; a block at the end keeps whole games out instead.
        self.holdout = max(1, count // 20)

    def batch(self, index, symmetry, aux=False):
        """The inputs and the targets (policy, win, lead, owner; with `aux` the records'
        auxiliary ones too) of the records `index`, in one of the 8 symmetries."""
        planes = self.planes[index].float()
        globals_ = self.globals[index]
        b = planes.shape[0]
        s = self.size
        x = torch.cat([planes, globals_[:, :, None, None].expand(b, GLOBALS, s, s)], dim=1)
        owner = self.owner[index]
        x, owner = (transform(t, symmetry) for t in (x, owner))

        def policy_of(table):
            board = transform(table[index, : s * s].view(b, s, s), symmetry)
            return torch.cat([board.reshape(b, -1), table[index, s * s:]], dim=1)

        targets = {"policy": policy_of(self.policy), "win": self.win[index],
                   "lead": self.lead[index], "owner": owner}
        if aux and self.reply is not None:
            targets["reply"] = policy_of(self.reply)
        if aux and self.short_term is not None:
            targets["short_term"] = self.short_term[index]
        return x, targets


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


class PoolingBlock(nn.Module):
    """A block whose first convolution gives `pooled_ch` of its channels to global pooling
    (KataGo's gpool): their mean, size-scaled mean and max over the board become, through a
    dense layer, a bias on each of the other channels, so every point sees the whole board
    (a ko threat, the score) within one block. The second convolution reads those others."""

    def __init__(self, ch, pooled_ch):
        super().__init__()
        self.conv1 = Conv(ch, ch - pooled_ch, 3)
        self.pool_conv = Conv(ch, pooled_ch, 3)
        # No bias of its own: conv1's (its batch norm's) is added beside it.
        self.pool_linear = nn.Linear(3 * pooled_ch, ch - pooled_ch, bias=False)
        self.conv2 = Conv(ch - pooled_ch, ch, 3)

    def forward(self, x, torus):
        g = F.relu(self.pool_conv(x, torus))
        y = F.relu(self.conv1(x, torus) + self.pool_linear(pooled(g))[:, :, None, None])
        return F.relu(x + self.conv2(y, torus))


def pooled(h):
    """Mean, mean scaled by the board's size, and max over the board: (B, 3C)."""
    area = h.shape[-1] * h.shape[-2]
    mean = h.mean(dim=(2, 3))
    return torch.cat([mean, mean * (math.sqrt(area) - 14.0) / 10.0, h.amax(dim=(2, 3))], dim=1)


def pooling_block_indices(blocks, n):
    """Where n pooling blocks (fewer than `blocks`) go: spread evenly, at least a block apart,
    never first (KataGo's b6c96 has them 3rd and 5th of 6, as here)."""
    assert 0 <= n < blocks
    return [int((k + 1) * blocks / (n + 1) + 0.5) for k in range(n)]


# The auxiliary policy heads, in their output channels' order. Each learns a target of its
# own from the policy head's map; the engine runs none of them.
SOFT, REPLY, SOFT_REPLY = "soft", "reply", "soft_reply"


class Net(nn.Module):
    def __init__(self, blocks, channels, head=32, hidden=64, pooling=(), pooled_channels=0,
                 ownership_channels=0):
        super().__init__()
        self.blocks_n, self.channels, self.head, self.hidden = blocks, channels, head, hidden
        self.pooling, self.pooled_channels = tuple(pooling), pooled_channels
        self.stem = Conv(INPUTS, channels, 3)
        self.blocks = nn.ModuleList(PoolingBlock(channels, pooled_channels) if i in self.pooling
                                    else Block(channels) for i in range(blocks))
        self.policy_conv = Conv(channels, head, 1)
        self.policy_out = nn.Conv2d(head, 1, 1)
        self.policy_pass = nn.Linear(3 * head, 1)
        self.value_conv = Conv(channels, head, 1)
        self.value_fc1 = nn.Linear(3 * head, hidden)
        self.value_fc2 = nn.Linear(hidden, 2)
        # The ownership head reads the value head's map, or with `ownership_channels` a 1x1
        # convolution of the trunk of its own (train/refit.py fits one on a trained net).
        self.owner_conv = nn.Conv2d(channels, ownership_channels, 1) if ownership_channels else None
        self.owner_out = nn.Conv2d(ownership_channels or head, 1, 1)
        self.aux_policies = []
        self.short_term_n = 0

    def add_aux_heads(self, policies, short_term):
        """Heads for training only (never exported): `policies` names the auxiliary policies,
        `short_term` counts the short-term win rates. Made after the rest, so that a net
        without them draws the same initial weights as before they existed."""
        self.aux_policies = list(policies)
        if self.aux_policies:
            self.aux_policy_out = nn.Conv2d(self.head, len(self.aux_policies), 1)
            self.aux_policy_pass = nn.Linear(3 * self.head, len(self.aux_policies))
        self.short_term_n = short_term
        if short_term:
            self.short_term_out = nn.Linear(self.hidden, short_term)
        return self

    def forward(self, x, torus=False):
        """The engine's outputs (policy logits, win logit, lead, owner) and a dict of the
        auxiliary heads' logits (empty without them)."""
        h = F.relu(self.stem(x, torus))
        for block in self.blocks:
            h = block(h, torus)
        p = F.relu(self.policy_conv(h, torus))
        # In the order of the code before the auxiliary heads: p's gradients add up in the
        # order its uses were made, and the last bits of a run's weights follow that order.
        board_logits = self.policy_out(p).flatten(1)
        p_pooled = pooled(p)
        logits = torch.cat([board_logits, self.policy_pass(p_pooled)], dim=1)
        v = F.relu(self.value_conv(h, torus))
        hidden = F.relu(self.value_fc1(pooled(v)))
        out = self.value_fc2(hidden)
        owner_map = v if self.owner_conv is None else F.relu(self.owner_conv(h))
        owner = torch.tanh(self.owner_out(owner_map)).squeeze(1)
        aux = {}
        if self.aux_policies:
            board = self.aux_policy_out(p).flatten(2)  # B K HW
            both = torch.cat([board, self.aux_policy_pass(p_pooled)[:, :, None]], dim=2)
            aux.update((name, both[:, k]) for k, name in enumerate(self.aux_policies))
        if self.short_term_n:
            aux["short_term"] = self.short_term_out(hidden)
        return logits, out[:, 0], out[:, 1] * 20.0, owner, aux


def softened(policy):
    """KataGo's soft policy target: p^(1/4) renormalised, which lifts the moves the teacher
    gives little so that the head must rank them too. Moves the label leaves out (under
    0.1%, or illegal) stay at zero (KataGo floors them at 1e-7, which on a board of stones
    would put mass on occupied points); a row of zeros (no label) stays zero."""
    soft = policy.pow(0.25)
    return soft / soft.sum(dim=1, keepdim=True).clamp_min(1e-12)


def cross_entropy(logits, target):
    """Per position."""
    return -(target * F.log_softmax(logits, dim=1)).sum(dim=1)


# The parts every log line names itself; the others (auxiliary heads) follow by name.
MAIN_PARTS = ("policy", "value", "owner", "top1", "lead")


def losses(net, x, t, options=None, lead_weight=LEAD_WEIGHT):
    """The total loss to minimise and its parts (scalars; 'surprise' is per position, each
    one's KL divergence from the teacher's policy to the net's, detached). `t`: a batch's
    targets; `options`: the command line's, for the auxiliary heads' weights and surprise
    weighting (None: today's recipe, nothing of them computed); `lead_weight`: the score
    lead's loss's weight in the total."""
    logits, win_logit, lead_out, owner_out, aux = net(x)
    policy = t["policy"]
    log_p = F.log_softmax(logits, dim=1)
    policy_loss = -(policy * log_p).sum(dim=1).mean()
    value_loss = F.binary_cross_entropy_with_logits(win_logit, t["win"])
    owner_loss = ((owner_out - t["owner"]) ** 2).mean()
    lead_loss = F.huber_loss(lead_out / 20.0, t["lead"] / 20.0, delta=1.0)
    total = policy_loss + value_loss + 0.5 * owner_loss + lead_weight * lead_loss
    agree = (logits.argmax(dim=1) == policy.argmax(dim=1)).float().mean()
    # The lead's mean absolute error in points, what an analysis's reader sees (the Huber
    # loss above is in units of 20 points): reported, not trained on.
    lead_error = (lead_out - t["lead"]).abs().mean().detach()
    parts = {"policy": policy_loss, "value": value_loss, "owner": owner_loss, "top1": agree,
             "lead": lead_error}
    if options is None:
        return total, parts
    if SOFT in aux:
        parts[SOFT] = cross_entropy(aux[SOFT], softened(policy)).mean()
        total = total + options.soft_policy_weight * parts[SOFT]
    if REPLY in aux:
        # Positions with no next label (the game's last) have a row of zeros: no loss.
        parts[REPLY] = cross_entropy(aux[REPLY], t["reply"]).mean()
        total = total + options.reply_weight * parts[REPLY]
    if SOFT_REPLY in aux:
        parts[SOFT_REPLY] = cross_entropy(aux[SOFT_REPLY], softened(t["reply"])).mean()
        total = total + options.soft_policy_weight * options.reply_weight * parts[SOFT_REPLY]
    if "short_term" in aux:
        each = F.binary_cross_entropy_with_logits(aux["short_term"].float(), t["short_term"],
                                                  reduction="none").mean(dim=0)
        for k, loss in enumerate(each):
            parts[f"short_term{k}"] = loss
        total = total + options.short_term_weight * each.sum()
    if options.surprise_share > 0:
        entropy = torch.special.xlogy(policy, policy).sum(dim=1)
        parts["surprise"] = (entropy - (policy * log_p.float()).sum(dim=1)).detach()
    return total, parts


def fold(conv):
    """The weights and bias of a Conv with its batch norm folded in (eval statistics)."""
    bn = conv.bn
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    w = conv.conv.weight * scale[:, None, None, None]
    b = bn.bias - bn.running_mean * scale
    return w.detach().float().contiguous(), b.detach().float().contiguous()


def named_layers(net):
    """The tensors' names in the exported file: the convolutions with a batch norm, then the
    layers without. The auxiliary heads are not among them: the engine has no use for them."""
    convs = [("stem", net.stem)]
    plain = []
    for i, block in enumerate(net.blocks):
        convs += [(f"blocks.{i}.conv1", block.conv1), (f"blocks.{i}.conv2", block.conv2)]
        if isinstance(block, PoolingBlock):
            convs.append((f"blocks.{i}.pool.conv", block.pool_conv))
            plain.append((f"blocks.{i}.pool.linear", block.pool_linear))
    convs += [("policy.conv", net.policy_conv), ("value.conv", net.value_conv)]
    plain += [("policy.out", net.policy_out), ("policy.pass", net.policy_pass),
              ("value.fc1", net.value_fc1), ("value.fc2", net.value_fc2),
              ("ownership.out", net.owner_out)]
    if net.owner_conv is not None:
        plain.append(("ownership.conv", net.owner_conv))
    return convs, plain


def export(net, path, meta, sized=None):
    """`sized`: {size: the net with that size's own batch-norm statistics} (`size_norms`),
    whose folded convolutions are written beside the others as `size{N}.NAME`."""
    from safetensors.torch import save_file
    tensors = {}

    def put_conv(name, conv):
        tensors[name + ".weight"], tensors[name + ".bias"] = fold(conv)

    convs, plain = named_layers(net)
    for name, conv in convs:
        put_conv(name, conv)
    for size, own in sorted((sized or {}).items()):
        for name, conv in named_layers(own)[0]:
            put_conv(f"size{size}.{name}", conv)
    for name, layer in plain:
        tensors[name + ".weight"] = layer.weight.detach().float().contiguous()
        if layer.bias is not None:
            tensors[name + ".bias"] = layer.bias.detach().float().contiguous()
    tensors = {k: v.cpu() for k, v in tensors.items()}
    metadata = {"format": "shicho-net", "version": "1", "blocks": str(net.blocks_n),
                "channels": str(net.channels), "head_channels": str(net.head),
                "value_hidden": str(net.hidden), "binary_planes": str(BINARY_PLANES),
                "globals": str(GLOBALS)}
    if net.pooling:
        # Version 2: version 1 and pooling blocks (PoolingBlock; their tensors
        # blocks.I.pool.conv and blocks.I.pool.linear), which an engine reading version 1
        # alone refuses by its version rather than running it without its pooling.
        metadata.update({"version": "2", "pooling_blocks": ",".join(map(str, net.pooling)),
                         "pooled_channels": str(net.pooled_channels)})
    if net.owner_conv is not None:
        # Version 3: an ownership head of its own (its tensors ownership.conv, then
        # ownership.out reading it), with or without pooling blocks; an engine reading
        # versions 1 and 2 alone would read the owners from the value head's map.
        metadata.update({"version": "3", "ownership_channels": str(net.owner_conv.out_channels)})
    if sized:
        # An engine that knows no `size_norms` reads the statistics of all sizes together,
        # as before; the tensors it does not know it leaves alone.
        metadata["size_norms"] = ",".join(str(size) for size in sorted(sized))
    metadata.update({k: str(v) for k, v in meta.items()})
    save_file(tensors, path, metadata=metadata)


@torch.no_grad()
def evaluate(net, data, options=None, batch=1024):
    """Each size's held-out losses: {size: {part: mean}} (with `options`, the auxiliary
    heads' too). `net`: one net, or {size: net} (`size_norms`)."""
    out = {}
    for d in data:
        sized = net[d.size] if isinstance(net, dict) else net
        sized.eval()
        start = d.count - d.holdout
        totals = {}
        seen = 0
        for a in range(start, d.count, batch):
            index = torch.arange(a, min(d.count, a + batch), device=d.planes.device)
            x, targets = d.batch(index, 0, aux=options is not None)
            _, parts = losses(sized, x, targets, options)
            k = len(index)
            for name, value in parts.items():
                if name != "surprise":
                    totals[name] = totals.get(name, 0.0) + value.item() * k
            seen += k
        out[d.size] = {name: value / max(1, seen) for name, value in totals.items()}
        sized.train()
    return out


def report(net, data, say, options=None, label=""):
    for size, m in evaluate(net, data, options).items():
        say(f"held out {size}x{size}{label}: policy {m['policy']:.4f} value {m['value']:.4f} "
            f"owner {m['owner']:.4f} top1 {m['top1']:.4f} lead {m['lead']:.3f}")
        aux = [f"{name} {value:.4f}" for name, value in m.items()
               if name not in MAIN_PARTS]
        if aux:
            say(f"held out {size}x{size}{label} auxiliary heads: " + " ".join(aux))


def load(path, device, size=None):
    """A net exported by `export`: each folded convolution's batch norm set to the identity
    (scale 1, shift the folded bias), so the net computes what the engine computes. With
    `size`, that size's own convolutions where the file has them (`size_norms`)."""
    from safetensors import safe_open
    with safe_open(path, framework="pt") as f:
        meta = f.metadata() or {}
        tensors = {k: f.get_tensor(k) for k in f.keys()}
    if meta.get("format") != "shicho-net":
        sys.exit(f"{path}: not a shicho net")
    if meta.get("version") not in ("1", "2", "3"):
        sys.exit(f"{path}: network version {meta.get('version')}; this reads versions 1 to 3")
    pooling = [int(i) for i in meta.get("pooling_blocks", "").split(",") if i]
    net = Net(int(meta["blocks"]), int(meta["channels"]), int(meta["head_channels"]),
              int(meta["value_hidden"]), pooling, int(meta.get("pooled_channels", 0)),
              int(meta.get("ownership_channels", 0)))

    if size is not None and str(size) in meta.get("size_norms", "").split(","):
        prefix = f"size{size}."
    else:
        prefix = ""

    def put_conv(name, conv):
        name = prefix + name
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
        if layer.bias is not None:
            layer.bias.data.copy_(tensors[name + ".bias"])
    return net.to(device)


def size_norms_of(path):
    """The sizes `path` has batch-norm statistics of their own for."""
    from safetensors import safe_open
    with safe_open(path, framework="pt") as f:
        return [int(n) for n in (f.metadata() or {}).get("size_norms", "").split(",") if n]


def load_sized(path, device, data):
    """The net of `path` for each size of `data`: {size: net} (the same net for every size
    where the file has one set of statistics)."""
    return {d.size: load(path, device, d.size) for d in data}


@torch.no_grad()
def size_norms(net, data, batch, layout, batches=32):
    """{size: a copy of `net` whose batch norms have that size's statistics alone}: a batch
    holds one size, so in training each size was normalized by its own statistics, which
    the running statistics (every size's batches in turn) match for none (on 19x19 held
    out, 0.25 of policy loss and 0.05 of value loss between them, train/README.md)."""
    import copy
    sized = {}
    for d in data:
        own = copy.deepcopy(net)
        measure_batch_norms(own, [d], [1.0], batches, batch, layout)
        sized[d.size] = own
    return sized


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
        x, _ = d.batch(torch.randint(0, d.count - d.holdout, (batch,), device=d.planes.device), 0)
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
def widened(net, channels, seed, noise=0.01):
    """`net` with its trunk (the stem, and both convolutions of every block) widened to
    `channels` (Net2Net, Chen et al. 2016). Each new channel copies an old one, batch norm
    included, and every layer reading the trunk divides an old channel's weights among its
    copies, so the wide net computes what the narrow one did, in training mode as in
    evaluation. The copies' incoming weights get a little noise (`noise` of the layer's
    weights' spread): identical copies would get identical updates and stay copies (Adam
    undoes any uneven split of the readers' weights), so the noise is what lets them learn
    apart. The heads keep their widths."""
    if net.pooling:
        sys.exit("--widen: a net with pooling blocks is not widened (yet)")
    if net.owner_conv is not None:
        sys.exit("--widen: a net with an ownership head of its own is not widened (yet)")
    if channels <= net.channels:
        sys.exit(f"--widen {channels}: the net already has {net.channels} channels")
    g = torch.Generator().manual_seed(seed)
    device = next(net.parameters()).device

    def mapping():
        """Which old channel each new one copies (the old ones first, as they were), and
        how many copies each old channel has."""
        extra = torch.randint(0, net.channels, (channels - net.channels,), generator=g)
        copies = torch.cat([torch.arange(net.channels), extra])
        return copies, torch.bincount(copies, minlength=net.channels).float()

    def copy_conv(dst, src, inputs=None, outputs=None):
        """`inputs`/`outputs`: (copies, counts) of the channels read/written, None where
        they keep their width."""
        w = src.conv.weight.detach().cpu()
        if inputs is not None:
            copies, counts = inputs
            w = w[:, copies] / counts[copies][None, :, None, None]
        if outputs is not None:
            copies, _ = outputs
            w = w[copies].clone()
            spread = w.std().item()
            w[net.channels:] += noise * spread * torch.randn(w[net.channels:].shape, generator=g)
        dst.conv.weight.copy_(w)
        for name in ("weight", "bias", "running_mean", "running_var"):
            t = getattr(src.bn, name).detach().cpu()
            getattr(dst.bn, name).copy_(t if outputs is None else t[outputs[0]])
        dst.bn.num_batches_tracked.copy_(src.bn.num_batches_tracked)

    wide = Net(net.blocks_n, channels, net.head, net.hidden)
    trunk = mapping()
    copy_conv(wide.stem, net.stem, outputs=trunk)
    for new, old in zip(wide.blocks, net.blocks):
        inner = mapping()
        copy_conv(new.conv1, old.conv1, inputs=trunk, outputs=inner)
        copy_conv(new.conv2, old.conv2, inputs=inner, outputs=trunk)
    copy_conv(wide.policy_conv, net.policy_conv, inputs=trunk)
    copy_conv(wide.value_conv, net.value_conv, inputs=trunk)
    for name in ("policy_out", "policy_pass", "value_fc1", "value_fc2", "owner_out"):
        getattr(wide, name).load_state_dict(getattr(net, name).state_dict())
    return wide.to(device)


@torch.no_grad()
def largest_difference(a, b, data):
    """The largest difference between two nets' outputs (policy, win rate, owner) on a
    held-out batch of each size, in evaluation mode."""
    worst = 0.0
    for d in data:
        index = torch.arange(d.count - d.holdout, min(d.count, d.count - d.holdout + 256), device=d.planes.device)
        x, _ = d.batch(index, 0)
        outs = []
        for net in (a, b):
            net.eval()
            logits, win_logit, _, owner, _ = net(x)
            outs.append((torch.softmax(logits, 1), torch.sigmoid(win_logit), owner))
            net.train()
        worst = max([worst] + [(p - q).abs().max().item() for p, q in zip(*outs)])
    return worst


@torch.no_grad()
def measure_batch_norms(net, data, weights, batches, batch, layout):
    """Sets every batch norm's running statistics to their average over `batches` training
    batches, the sizes drawn by the steps' shares: an average of weights has none of its
    own (its batch norms' statistics belong to no one set of weights)."""
    norms = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]
    for m in norms:
        m.reset_running_stats()
        m.momentum = None  # a plain average over the batches
    rng = random.Random(0)
    for _ in range(batches):
        d = rng.choices(data, weights=weights)[0]
        index = torch.randint(0, d.count - d.holdout, (batch,), device=d.planes.device)
        x, _ = d.batch(index, rng.randrange(8))
        net(x.contiguous(memory_format=layout))
    for m in norms:
        m.momentum = 0.1


@torch.no_grad()
def write_fixtures(nets, data, path, per_size=8):
    """Positions from the held-out records with the trained net's outputs (eval mode, batch
    norm not folded: the framework's own answers), plain and on a torus. Computed on the
    CPU in float32: a GPU's convolutions may round through TF32. `nets`: one net, or
    {size: net}."""
    import copy
    cases = []
    rng = random.Random(7)
    for d in data:
        net = copy.deepcopy(nets[d.size] if isinstance(nets, dict) else nets).cpu().float()
        net.eval()
        start = d.count - d.holdout
        for torus in (False, True):
            for _ in range(per_size if not torus else 2):
                i = rng.randrange(start, d.count)
                index = torch.tensor([i], device=d.planes.device)
                x, _ = d.batch(index, 0)
                logits, win_logit, lead, owner, _ = net(x.cpu().float(), torus)
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


class Distributed:
    """This process's place under torchrun (RANK, WORLD_SIZE and LOCAL_RANK in the
    environment; one process of one otherwise). Every process draws the same sizes,
    symmetries and whole batches (the same seeds), computes its slice of each batch, and
    DistributedDataParallel averages the gradients: one process with the same --batch
    computes the same steps, but for batch norm, which normalises each slice by its own
    statistics (as DDP does unless told otherwise)."""

    def __init__(self):
        self.rank = int(os.environ.get("RANK", "0"))
        self.world = int(os.environ.get("WORLD_SIZE", "1"))
        self.local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        self.dist = None

    def start(self, device):
        """Joins the other processes; the device this one uses."""
        if self.world == 1:
            return device
        import torch.distributed as dist
        self.dist = dist
        if device.startswith("cuda"):
            device = f"cuda:{self.local_rank}"
            torch.cuda.set_device(device)
        dist.init_process_group("nccl" if device.startswith("cuda") else "gloo")
        return device

    def wrap(self, net, device):
        if self.world == 1:
            return net
        from torch.nn.parallel import DistributedDataParallel
        return DistributedDataParallel(net, device_ids=[device] if device.startswith("cuda") else None)

    def slice(self, index):
        share = len(index) // self.world
        return index[self.rank * share:(self.rank + 1) * share]

    def gather(self, t):
        """Every process's `t`, concatenated in rank order (the whole batch's order)."""
        if self.world == 1:
            return t
        parts = [torch.empty_like(t) for _ in range(self.world)]
        self.dist.all_gather(parts, t)
        return torch.cat(parts)

    def mean(self, t):
        if self.world > 1:
            self.dist.all_reduce(t)
            t /= self.world
        return t

    def first_says(self, value, device):
        """The first process's `value` (a float), so that all stop at the same step."""
        if self.world == 1:
            return value
        t = torch.tensor([value], dtype=torch.float64, device=device)
        self.dist.broadcast(t, 0)
        return t.item()

    def finish(self):
        if self.dist is not None:
            self.dist.destroy_process_group()


# The options a checkpoint's run must be given again to go on from it: those that decide
# its steps (where its output and log go, and how often it saves, may change).
FREE_OPTIONS = {"out", "fixtures", "log", "log_every", "checkpoint", "checkpoint_every", "device"}


def checkpoint_options(args):
    return {k: v for k, v in vars(args).items() if k not in FREE_OPTIONS}


def load_checkpoint(args, defaults):
    """The state `--checkpoint` holds, once its options are checked against this run's (an
    option newer than the checkpoint must be at its default, `defaults`)."""
    state = torch.load(args.checkpoint, map_location=args.device, weights_only=False)
    given, saved = checkpoint_options(args), state["options"]
    differ = [f"--{k.replace('_', '-')} {saved.get(k, defaults.get(k))} there, {v} here"
              for k, v in given.items() if saved.get(k, defaults.get(k)) != v]
    if differ:
        sys.exit(f"--checkpoint {args.checkpoint}: made by a run with other options ("
                 + "; ".join(differ) + "): give the same ones, or another file")
    return state


def aux_heads(args, data, error):
    """The auxiliary policies and the number of short-term win rates the flags ask for,
    checked against what the records carry."""
    policies = []
    if args.soft_policy_weight > 0:
        policies.append(SOFT)
    if args.reply_weight > 0:
        policies.append(REPLY)
        if args.soft_policy_weight > 0:
            policies.append(SOFT_REPLY)
    short_term = 0
    for flag, wanted, has in [("--reply-weight", args.reply_weight > 0, lambda d: d.reply is not None),
                              ("--short-term-weight", args.short_term_weight > 0,
                               lambda d: d.short_term is not None)]:
        missing = [path for path, d in zip(args.data, data) if wanted and not has(d)]
        if missing:
            error(f"{flag} needs records made by `shicho-train net-data --aux-targets` "
                  f"(train/run makes them when given it); not these: {' '.join(missing)}")
    if args.short_term_weight > 0:
        counts = {len(d.horizons) for d in data}
        if len(counts) != 1:
            error("--short-term-weight: the records' sizes have different numbers of horizons")
        short_term = counts.pop()
    return policies, short_term


def main():
    ap = arguments()
    args = ap.parse_args()
    args.device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    # Checked before the records load, which takes a while.
    if not args.out and not args.evaluate:
        ap.error("--out is required unless --evaluate")
    if args.gpool_blocks and args.init:
        ap.error("--gpool-blocks: --init takes the net's shape from its file")
    if args.widen is not None and not args.init:
        ap.error("--widen: widens the net --init gives")
    if args.checkpoint and args.evaluate:
        ap.error("--checkpoint: --evaluate trains nothing")
    if not args.checkpoint_every > 0:
        ap.error("--checkpoint-every: a positive number of minutes")
    if not 0 <= args.gpool_blocks < args.blocks:
        ap.error("--gpool-blocks: from 0 to one fewer than --blocks (the first block does not pool)")
    pooled_channels = args.gpool_channels or args.channels // 3
    if args.gpool_blocks and not 0 < pooled_channels < args.channels:
        ap.error("--gpool-channels: more than 0, fewer than --channels")
    if not 0 <= args.surprise_share <= 1:
        ap.error("--surprise-share: from 0 to 1")
    if not 0 <= args.ema_decay < 1:
        ap.error("--ema-decay: from 0 (off) to below 1")
    shares = parse_shares(args.shares, ap.error)
    procs = Distributed()
    if args.batch % procs.world:
        ap.error(f"--batch {args.batch} is not a multiple of the {procs.world} processes")
    args.device = procs.start(args.device)
    torch.manual_seed(args.seed)
    torch.backends.cudnn.benchmark = True
    rng = random.Random(args.seed)
    first = procs.rank == 0
    log = (open(args.log, "a") if args.log else sys.stderr) if first else None

    def say(text):
        if log:
            print(text, file=log, flush=True)

    data = [SizeData(p, args.device) for p in args.data]
    say(" ".join(f"{d.size}x{d.size}: {d.count} records" for d in data))
    if args.evaluate:
        if first:
            report(load(args.evaluate, args.device), data, say)
            if size_norms_of(args.evaluate):
                report(load_sized(args.evaluate, args.device, data), data, say,
                       label=" (each size's own statistics)")
        procs.finish()
        return
    weights = step_weights(shares, data, ap.error)
    policies, short_term = aux_heads(args, data, ap.error)
    # The losses see the options only when one asks for more than today's recipe computes.
    options = args if policies or short_term or args.surprise_share > 0 else None
    resume = None
    if args.checkpoint and os.path.exists(args.checkpoint):
        resume = load_checkpoint(args, {k: ap.get_default(k) for k in vars(args)})
    if args.init:
        net = load(args.init, args.device)
        recalibrate(net, data, weights)
        say(f"started from {args.init}")
        if first and resume is None:
            report(net, data, say)
        if args.widen:
            narrow, net = net, widened(net, args.widen, args.seed)
            say(f"widened to {args.widen} channels: outputs within "
                f"{largest_difference(narrow, net, data):.4f} of the narrow net's")
            if first and resume is None:
                report(net, data, say)
        net.add_aux_heads(policies, short_term).to(args.device)
    else:
        pooling = pooling_block_indices(args.blocks, args.gpool_blocks) if args.gpool_blocks else ()
        net = Net(args.blocks, args.channels, args.head, pooling=pooling,
                  pooled_channels=pooled_channels if pooling else 0)
        net = net.add_aux_heads(policies, short_term).to(args.device)
    params = sum(p.numel() for p in net.parameters())
    say(f"net: {net.blocks_n} blocks, {net.channels} channels, {params} parameters")
    if net.pooling:
        say(f"global pooling in blocks {list(net.pooling)}, {net.pooled_channels} channels each")
    if policies or short_term:
        say(f"auxiliary heads (not exported): {' '.join(policies)}"
            + (f" short-term win rates x{short_term}" if short_term else ""))
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
    if procs.world > 1:
        say(f"{procs.world} processes, {args.batch // procs.world} positions of each batch apiece")
    model = procs.wrap(net, args.device)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    say("steps' shares: " + " ".join(f"{d.size}x{d.size} {w / sum(weights):.3f}" for d, w in zip(data, weights)))
    # The average of the weights (--ema-decay), kept by the process that exports it.
    average = None
    if args.ema_decay > 0 and first:
        import copy
        average = copy.deepcopy(net)
        average_pairs = list(zip(average.parameters(), net.parameters()))
    if args.surprise_share > 0:
        for d in data:
            # Each position's surprise over the running mean, 1 (the mean) until it is drawn.
            d.surprise = torch.ones(d.count - d.holdout, device=args.device)
            d.surprise_mean = None
    budget = args.minutes * 60
    started = time.time()
    step = 0
    if resume is not None:
        net.load_state_dict(resume["net"])
        opt.load_state_dict(resume["optimizer"])
        if average is not None:
            average.load_state_dict(resume["average"])
        for d, surprise in zip(data, resume["surprise"]):
            if surprise is not None:
                d.surprise, d.surprise_mean = surprise
        rng.setstate(resume["python_rng"])
        torch.set_rng_state(resume["torch_rng"])
        if on_gpu:
            torch.cuda.set_rng_state(resume["cuda_rng"])
        step = resume["step"]
        started -= resume["elapsed"]
        say(f"went on from {args.checkpoint} at step {step} ({resume['elapsed']:.0f}s trained)")

    def checkpoint():
        if not first:
            return
        state = {"options": checkpoint_options(args), "step": step, "elapsed": time.time() - started,
                 "net": net.state_dict(), "optimizer": opt.state_dict(),
                 "average": average.state_dict() if average is not None else None,
                 "surprise": [(d.surprise, d.surprise_mean) if args.surprise_share > 0 else None
                              for d in data],
                 "python_rng": rng.getstate(), "torch_rng": torch.get_rng_state(),
                 "cuda_rng": torch.cuda.get_rng_state() if on_gpu else None}
        # Written aside and renamed: a run killed while writing keeps the checkpoint before.
        torch.save(state, args.checkpoint + ".part")
        os.replace(args.checkpoint + ".part", args.checkpoint)

    # A signal stops the run at the end of the step in flight, its state kept.
    stop_signalled = [False]
    if args.checkpoint:
        def request_stop(_signal, _frame):
            stop_signalled[0] = True
        signal.signal(signal.SIGTERM, request_stop)
        signal.signal(signal.SIGINT, request_stop)
    saved = time.time()
    while True:
        if args.checkpoint:
            if procs.first_says(float(stop_signalled[0]), args.device):
                checkpoint()
                say(f"stopped at step {step}: the same command goes on from {args.checkpoint}")
                procs.finish()
                sys.exit(3)
            if time.time() - saved > args.checkpoint_every * 60:
                checkpoint()
                saved = time.time()
        elapsed = time.time() - started
        if not args.steps:
            elapsed = procs.first_says(elapsed, args.device)  # so that all stop at one step
        progress = step / args.steps if args.steps else elapsed / budget
        if progress >= 1.0:
            break
        lr = args.lr * 0.5 * (1 + math.cos(math.pi * progress))
        for g in opt.param_groups:
            g["lr"] = lr
        d = rng.choices(data, weights=weights)[0]
        if args.surprise_share > 0:
            chances = (1 - args.surprise_share) + args.surprise_share * d.surprise
            index = torch.multinomial(chances, args.batch, replacement=True)
        else:
            index = torch.randint(0, d.count - d.holdout, (args.batch,), device=args.device)
        x, targets = d.batch(procs.slice(index), rng.randrange(8), aux=options is not None)
        x = x.contiguous(memory_format=layout)
        with torch.autocast("cuda" if on_gpu else "cpu", dtype=torch.bfloat16, enabled=use_amp):
            total, parts = losses(model, x, targets, options, args.lead_weight)
        opt.zero_grad(set_to_none=True)
        total.backward()
        opt.step()
        step += 1
        if average is not None:
            # The usual warm-up: the first steps' weights count for less than `decay` says.
            decay = min(args.ema_decay, (1 + step) / (10 + step))
            with torch.no_grad():
                for a, p in average_pairs:
                    a.lerp_(p, 1 - decay)
        if args.surprise_share > 0:
            surprise = procs.gather(parts["surprise"].float())
            mean = surprise.mean()
            d.surprise_mean = mean if d.surprise_mean is None else 0.99 * d.surprise_mean + 0.01 * mean
            # A position drawn twice keeps the larger (the same on every process, in any
            # order: the processes' surprises must agree for their draws to).
            d.surprise.scatter_reduce_(0, index, surprise / d.surprise_mean.clamp_min(1e-6),
                                       reduce="amax", include_self=False)
        if step % args.log_every == 0:
            names = [n for n in parts if n != "surprise"]
            values = procs.mean(torch.stack([parts[n].detach().float() for n in names])).tolist()
            m = dict(zip(names, values))
            aux_text = "".join(f" {n} {m[n]:.3f}" for n in names if n not in MAIN_PARTS)
            say(f"step {step} {elapsed:.0f}s lr {lr:.5f} {d.size}x{d.size}: policy {m['policy']:.3f} "
                f"value {m['value']:.3f} owner {m['owner']:.3f} top1 {m['top1']:.3f} lead {m['lead']:.2f}{aux_text}")
    say(f"trained {step} steps ({step * args.batch} samples) in {time.time() - started:.0f}s")
    if first:
        exported = net
        report(net, data, say, options, " (last weights)" if average is not None else "")
        if average is not None:
            measure_batch_norms(average, data, weights, 32, args.batch, layout)
            report(average, data, say, options, " (average, exported)")
            exported = average
        sized = None
        if not args.one_norm:
            sized = size_norms(exported, data, args.batch, layout)
            report(sized, data, say, options, " (each size's own statistics)")
        export(exported, args.out, {"steps": step, "samples": step * args.batch}, sized)
        if args.fixtures:
            write_fixtures(sized or exported, data, args.fixtures)
        say(f"wrote {args.out}")
        if args.checkpoint and os.path.exists(args.checkpoint):
            os.remove(args.checkpoint)
    procs.finish()


if __name__ == "__main__":
    main()
