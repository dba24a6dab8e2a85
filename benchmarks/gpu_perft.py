#!/usr/bin/env python3
"""GPU perft beside the CPU perft: `shatranj perft DEPTH --device gpu` against
`shatranj perft DEPTH --device cpu --threads N` on the same host, in one sitting, with the ratio.

For every (position, depth) both counts are checked against each other and against the known
value; a mismatch is an error. The GPU's counters (submits, leaves per submit, bytes each way,
buffers created after warm-up) come from the `gpu_perft` example when it is built
(`cargo build --release -p shatranj-gpu --example gpu_perft`), one JSON line per count.

Standard library only.

    python3 benchmarks/gpu_perft.py                      # startpos 5-6, Kiwipete 4-5
    python3 benchmarks/gpu_perft.py --depths 7 8 --threads 16 --json out.jsonl
    python3 benchmarks/gpu_perft.py --bin target/debug/shatranj --quick
    python3 benchmarks/gpu_perft.py --hash 256 --depths 6     # the GPU with a 256 MiB table

With `--hash MB` the GPU counts with a hash table of that size (the CPU without one, so that
the ratio is the table's gain over the plain CPU perft), and the counters line adds the
table's probes and hit rates at the batches' roots and two plies above the leaves.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
KNOWN: dict[str, dict[int, int]] = {
    STARTPOS: {
        4: 197_281,
        5: 4_865_609,
        6: 119_060_324,
        7: 3_195_901_860,
        8: 84_998_978_956,
        9: 2_439_530_234_167,
    },
    KIWIPETE: {3: 97_862, 4: 4_085_603, 5: 193_690_690, 6: 8_031_647_685, 7: 374_190_009_323},
}
NAMES = {STARTPOS: "startpos", KIWIPETE: "kiwipete"}


def find_binary(explicit: str | None, name: str, example: bool = False) -> Path | None:
    if explicit:
        return Path(explicit)
    sub = "examples/" if example else ""
    for profile in ("release", "ci", "debug"):
        p = REPO / "target" / profile / f"{sub}{name}"
        if p.exists():
            return p
    return None


def run_cli(
    binary: Path, fen: str, depth: int, device: str, threads: int, hash_mb: int = 0
) -> dict[str, float]:
    cmd = [
        str(binary),
        "perft",
        str(depth),
        "--fen",
        fen,
        "--device",
        device,
        "--quiet",
        "--threads",
        str(threads),
        "--hash",
        str(hash_mb),
    ]
    t = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    wall = time.perf_counter() - t
    nodes = int(re.search(r"Nodes searched: (\d+)", out).group(1))
    secs = float(re.search(r"Time: ([\d.]+) s", out).group(1))
    return {"nodes": nodes, "seconds": secs, "wall": wall, "nps": nodes / max(secs, 1e-9)}


def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--bin", help="the shatranj binary (default: target/{release,ci,debug}/shatranj)"
    )
    ap.add_argument("--example", help="the gpu_perft example binary (for counters)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1, help="CPU perft threads")
    ap.add_argument("--depths", type=int, nargs="*", help="startpos depths (Kiwipete: one less)")
    ap.add_argument("--quick", action="store_true", help="startpos 4-5, Kiwipete 3-4")
    ap.add_argument("--json", help="also write one JSON line per count here")
    ap.add_argument(
        "--hash",
        type=int,
        default=0,
        metavar="MB",
        help="the GPU's hash table in MiB (default 0: none)",
    )
    args = ap.parse_args()

    binary = find_binary(args.bin, "shatranj")
    if binary is None:
        print("no shatranj binary: cargo build --release -p shatranj-cli", file=sys.stderr)
        return 2
    example = find_binary(args.example, "gpu_perft", example=True)
    depths = args.depths or ([4, 5] if args.quick else [5, 6])
    runs = [(STARTPOS, d) for d in depths] + [(KIWIPETE, d - 1) for d in depths]
    rows: list[dict] = []
    failed = False
    print(
        f"{'position':<9} {'depth':>5} {'nodes':>16} {'GPU s':>9} {'GPU Mnps':>10} "
        f"{'CPU s':>9} {'CPU Mnps':>10} {'GPU/CPU':>8}"
    )
    for fen, depth in runs:
        gpu = run_cli(binary, fen, depth, "gpu", 1, args.hash)
        cpu = run_cli(binary, fen, depth, "cpu", args.threads)
        known = KNOWN.get(fen, {}).get(depth)
        ok = gpu["nodes"] == cpu["nodes"] and (known is None or known == gpu["nodes"])
        failed |= not ok
        row = {
            "position": NAMES[fen],
            "depth": depth,
            "nodes": gpu["nodes"],
            "ok": ok,
            "gpu_hash_mb": args.hash,
            "gpu_seconds": gpu["seconds"],
            "gpu_nps": gpu["nps"],
            "cpu_seconds": cpu["seconds"],
            "cpu_nps": cpu["nps"],
            "cpu_threads": args.threads,
            "ratio": gpu["nps"] / max(cpu["nps"], 1e-9),
        }
        if example is not None:
            line = (
                subprocess.run(
                    [str(example), "--fen", fen, "--hash", str(args.hash), str(depth)],
                    check=True,
                    capture_output=True,
                    text=True,
                )
                .stdout.strip()
                .splitlines()[-1]
            )
            row["counters"] = json.loads(line)
        rows.append(row)
        flag = "" if ok else "  MISMATCH"
        print(
            f"{NAMES[fen]:<9} {depth:>5} {gpu['nodes']:>16,} {gpu['seconds']:>9.3f} "
            f"{gpu['nps'] / 1e6:>10.1f} {cpu['seconds']:>9.3f} {cpu['nps'] / 1e6:>10.1f} "
            f"{row['ratio']:>7.2f}x{flag}"
        )
        if "counters" in row:
            c = row["counters"]
            print(
                f"          counters: {c['submits']} submits, {c['leaves_per_submit']:,} leaves "
                f"per submit, {c['bytes_uploaded']:,} B up, {c['bytes_read_back']:,} B back, "
                f"{c['overflows']} splits, {c['buffers_created_after_warmup']} buffers after "
                f"warm-up, {c['nps'] / 1e6:.1f} Mnps"
            )
            if c.get("hash_bytes"):
                rate = lambda h, p: 100.0 * h / p if p else 0.0  # noqa: E731
                print(
                    f"          table {c['hash_bytes'] >> 20} MiB: roots {c['root_hits']:,}/"
                    f"{c['root_probes']:,} hit ({rate(c['root_hits'], c['root_probes']):.1f} %), "
                    f"two plies up {c['leaf_hits']:,}/{c['leaf_probes']:,} "
                    f"({rate(c['leaf_hits'], c['leaf_probes']):.1f} %)"
                )
    if args.json:
        with open(args.json, "a") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    if failed:
        print("count mismatch", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
