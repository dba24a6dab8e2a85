#!/usr/bin/env python3
"""How far a trained network's integers are from its floats, for several QA and QB.

Reads the float weights of a `shatranj train` checkpoint (the parameters after its 80-byte
header: W1 768·H, b1 H, W2 2·H, b2 1, little-endian f32), quantises them as the trainer does
(round half away from zero, the output through SCReLU with integer division by QA) and
reports the mean and largest |quantised − float| in centipawns over the positions of a
datagen shard. Needs the package (`shatranj.nnue`) and numpy.

    python3 benchmarks/nnue_quantisation.py --checkpoint net.ckpt --hidden 128 \\
        --data data/nnue/gen1/s3-000014000-000014500.sgd
"""

from __future__ import annotations

import argparse

import numpy as np

from shatranj import nnue

CHECKPOINT_HEADER = 80
SETTINGS = [(255, 64), (255, 128), (255, 256), (181, 64), (511, 64), (1023, 64)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--hidden", type=int, required=True)
    ap.add_argument("--data", required=True, help="a datagen shard or folder")
    ap.add_argument("--positions", type=int, default=20_000)
    args = ap.parse_args()
    h, n_in = args.hidden, nnue.INPUTS
    values = np.fromfile(args.checkpoint, dtype="<f4", offset=CHECKPOINT_HEADER)
    p = values[: n_in * h + 3 * h + 1].astype(np.float64)
    w1 = p[: n_in * h].reshape(n_in, h)
    b1 = p[n_in * h : n_in * h + h]
    w2 = p[n_in * h + h : n_in * h + 3 * h].reshape(2, h)
    b2 = float(p[-1])
    rows = nnue.read_data(args.data).train[: args.positions]
    floats = nnue.float_evaluate(rows, w1, b1, w2, b2)
    us, them = rows.views()

    def rounded(x: np.ndarray) -> np.ndarray:
        return (np.sign(x) * np.floor(np.abs(x) + 0.5)).astype(np.int64)

    print(f"{len(rows)} positions of {args.data}")
    print("| QA | QB | mean |int - float| cp | max cp |")
    print("|---:|---:|---:|---:|")
    for qa, qb in SETTINGS:
        table = np.zeros((n_in + 1, h), np.int64)
        table[:n_in] = rounded(w1 * qa)
        bias, out_w = rounded(b1 * qa), rounded(w2 * qb)
        out_b = int(rounded(np.array(b2 * qa * qb)))
        acc_us = np.clip(bias + table[us].sum(axis=1), 0, qa)
        acc_them = np.clip(bias + table[them].sum(axis=1), 0, qa)
        total = (acc_us * acc_us) @ out_w[0] + (acc_them * acc_them) @ out_w[1]
        # Rust's integer division truncates towards zero.
        scaled = (np.trunc(total / qa).astype(np.int64) + out_b) * nnue.SCALE
        ints = np.trunc(scaled / (qa * qb))
        diff = np.abs(ints - floats)
        print(f"| {qa} | {qb} | {diff.mean():.1f} | {diff.max():.1f} |")


if __name__ == "__main__":
    main()
