#!/usr/bin/env python3
"""Batched evaluation speed against batch size: CPU on one thread, CPU on every thread, GPU.

Runs the Rust example `rust/gpu/examples/gpu_eval.rs` (built here in release mode), which
times `CpuBatchEvaluator` and `GpuEvaluator` side by side at batch sizes 1, 4, 16, ... up to
--max-batch, checks every GPU batch against the CPU's scores, and measures the round trip of
a batch of one on the GPU. This script prints the table, finds the crossover (the smallest
batch size from which the GPU beats the CPU on all threads at every larger size — a check on
the crossover `device="auto"` measures for itself, also printed), draws a PNG plot
(matplotlib, if installed) and with --record appends a section to benchmarks/RESULTS.md.

Each --eval-file (default: classical and, when the binary has one, the built-in network
<default>) is measured in its own run of the example and gets its own table. The GPU is also
timed from compact records packed beforehand ("GPU, from an array": the path of
shatranj.evaluate(array), 32 bytes a position), with the context's counters per call (submits,
positions per submit, bytes each way, buffers created, chunks in flight, and the device's own
upload / kernel / readback time where it has timestamp queries) in a second table.
--python-array measures the same from Python: shatranj.pack_positions, then
shatranj.evaluate(array) on the CPU and the GPU, at batch sizes up to --max-batch (the
installed module; records of 16,384 random-game positions repeated to fill a batch).
On a machine without a GPU, Mesa's lavapipe (Debian `mesa-vulkan-drivers`) runs the shader on
the CPU: its numbers prove the shader runs and agrees, not how fast a GPU is.

    python3 benchmarks/gpu_eval.py [--max-batch 1048576] [--min-time 0.3] [--record]
                                   [--plot benchmarks/gpu_eval.png] [--json out.jsonl]
                                   [--eval-file classical --eval-file <default> ...]
    python3 benchmarks/gpu_eval.py --quick      # up to 16k positions, short timings
    python3 benchmarks/gpu_eval.py --python-array [--eval-file classical] [--max-batch N]
    python3 benchmarks/gpu_eval.py --from-json out.jsonl --record   # report a run made elsewhere
                                                                    # (benchmarks/gpu_device_check.sh)

Environment: SHATRANJ_WGPU_BACKEND / SHATRANJ_WGPU_ADAPTER / SHATRANJ_WGPU_POWER pick the
adapter (see README); CARGO_TARGET_DIR is honoured.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from common import ROOT, append_results, cpu_model, git_commit, utc_stamp

DEVICES = [
    ("cpu1", "CPU, 1 thread"),
    ("cpu", "CPU, all threads"),
    ("gpu", "GPU"),
    ("gpu-compact", "GPU, from an array"),
    ("py-cpu", "Python array, CPU"),
    ("py-gpu", "Python array, GPU"),
]


def evaluation_of(row: dict[str, Any]) -> str:
    """The evaluation a measurement is of (runs recorded before networks existed: classical)."""
    return str(row.get("evaluation", "classical"))


def of(rows: list[dict[str, Any]], evaluation: str) -> list[dict[str, Any]]:
    return [r for r in rows if evaluation_of(r) == evaluation]


def build_example() -> Path:
    subprocess.run(
        ["cargo", "build", "--release", "-p", "shatranj-gpu", "--example", "gpu_eval"],
        cwd=ROOT,
        check=True,
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "release" / "examples" / "gpu_eval"


def run_example(binary: Path, args: argparse.Namespace, evaluation: str) -> list[dict[str, Any]]:
    cmd = [
        str(binary),
        "--max-batch", str(args.max_batch),
        "--min-time", str(args.min_time),
        "--latency-calls", str(args.latency_calls),
        "--eval-file", evaluation,
    ]  # fmt: skip
    print("running:", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    rows = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0:
        sys.exit(f"gpu_eval failed with exit code {proc.returncode}")
    return rows


def default_evaluations(binary: Path) -> list[str]:
    """classical, and the built-in network if this build has one (the example says so by
    loading it)."""
    probe = subprocess.run(
        [str(binary), "--max-batch", "1", "--min-time", "0", "--latency-calls", "1",
         "--eval-file", "<default>"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return ["classical"] + (["<default>"] if probe.returncode == 0 else [])


def crossover(rows: list[dict[str, Any]]) -> int | None:
    """The smallest batch size from which the GPU is at least as fast as the CPU on all threads
    at that size and every larger one measured; None if the GPU never gets there."""
    rate = {
        (r["device"], r["batch"]): r["positions_per_s"] for r in rows if r["kind"] == "throughput"
    }
    batches = sorted({b for (d, b) in rate if d == "gpu"})
    best: int | None = None
    for b in reversed(batches):
        if rate[("gpu", b)] >= rate.get(("cpu", b), float("inf")):
            best = b
        else:
            break
    return best


def fmt_rate(x: float) -> str:
    if x >= 1e9:
        return f"{x / 1e9:.2f} G/s"
    if x >= 1e6:
        return f"{x / 1e6:.2f} M/s"
    if x >= 1e3:
        return f"{x / 1e3:.1f} k/s"
    return f"{x:.0f} /s"


def table(rows: list[dict[str, Any]]) -> str:
    tp = [r for r in rows if r["kind"] == "throughput"]
    rate = {(r["device"], r["batch"]): r for r in tp}
    have = [d for d, _ in DEVICES if any(r["device"] == d for r in tp)]
    names = dict(DEVICES)
    lines = [
        "| batch | "
        + " | ".join(names[d] for d in have)
        + (" | GPU / CPU all |" if "gpu" in have else " |"),
        "|---:|" + "---:|" * len(have) + ("---:|" if "gpu" in have else ""),
    ]
    for b in sorted({r["batch"] for r in tp}):
        cells = [fmt_rate(rate[(d, b)]["positions_per_s"]) if (d, b) in rate else "–" for d in have]
        line = f"| {b:,} | " + " | ".join(cells) + " |"
        if "gpu" in have and ("gpu", b) in rate and ("cpu", b) in rate:
            ratio = rate[("gpu", b)]["positions_per_s"] / rate[("cpu", b)]["positions_per_s"]
            line += f" {ratio:.2f}× |"
        lines.append(line)
    return "\n".join(lines)


def counters_table(rows: list[dict[str, Any]]) -> str:
    """Per call, from the counters over each measurement's calls (empty without any)."""
    cs = sorted((r for r in rows if r["kind"] == "counters"), key=lambda r: r["batch"])
    if not cs:
        return ""
    lines = [
        "| batch | submits / call | positions / submit | bytes up / call | bytes back / call "
        "| buffers created | chunks in flight | packing tasks / call | upload µs | kernel µs | readback µs |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in cs:
        calls = max(r["calls"], 1)
        timed = max(r["timed_submits"], 1)
        per = r["timed_submits"] / calls  # timed submits per call
        us = lambda key: f"{r[key] / timed * per / 1e3:,.1f}" if r["timed_submits"] else "–"  # noqa: E731
        lines.append(
            f"| {r['batch']:,} | {r['submits'] / calls:g} | {r['positions'] / max(r['submits'], 1):,.0f} "
            f"| {r['bytes_uploaded'] / calls:,.0f} | {r['bytes_read_back'] / calls:,.0f} | {r['buffers_created']} "
            f"| {r['max_in_flight']} | {r['pack_tasks'] / calls:g} | {us('upload_ns')} | {us('kernel_ns')} "
            f"| {us('readback_ns')} |"
        )
    return "\n".join(lines)


def python_array_rows(args: argparse.Namespace, evaluation: str) -> list[dict[str, Any]]:
    """shatranj.evaluate(array) from Python, CPU and GPU, batch 1 ... --max-batch."""
    import random
    import time

    import numpy as np

    import shatranj

    rng = random.Random(0xA77A)
    fens: list[str] = []
    while len(fens) < 16384:
        board = shatranj.Board()
        for _ in range(rng.randrange(1, 200)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.randrange(3) == 0:
                fens.append(board.fen())
    fens = fens[:16384]
    start = time.perf_counter()
    unique = shatranj.pack_positions(fens)
    pack_s = time.perf_counter() - start
    records = np.tile(unique, (args.max_batch // len(unique) + 1, 1))[: args.max_batch]
    rows: list[dict[str, Any]] = [
        {"kind": "evaluation", "evaluation": evaluation, "describe": f"{evaluation} (from Python)"},
        {"kind": "pack", "evaluation": evaluation, "positions": len(fens), "seconds": pack_s,
         "positions_per_s": len(fens) / pack_s},
    ]  # fmt: skip
    info = shatranj.gpu_info()
    if info:
        rows.append({"kind": "adapter", **info})
    devices = [("py-cpu", "cpu")] + ([("py-gpu", "gpu")] if info else [])
    eval_file = None if evaluation == "<default>" else evaluation  # None: the built-in network
    batch = 1
    while batch <= args.max_batch:
        part = records[:batch]
        reference = shatranj.evaluate(part, device="cpu", eval_file=eval_file)
        for name, device in devices:
            if not np.array_equal(
                shatranj.evaluate(part, device=device, eval_file=eval_file), reference
            ):
                sys.exit(f"{device} scores differ from the CPU's at batch size {batch}")
            shatranj.evaluate(part, device=device, eval_file=eval_file)  # warm-up
            calls, t0 = 0, time.perf_counter()
            while calls < 2 or time.perf_counter() - t0 < args.min_time:
                shatranj.evaluate(part, device=device, eval_file=eval_file)
                calls += 1
            secs = time.perf_counter() - t0
            rows.append({"kind": "throughput", "evaluation": evaluation, "device": name,
                         "describe": device, "batch": batch, "calls": calls, "seconds": secs,
                         "positions_per_s": batch * calls / secs, "per_call_us": secs / calls * 1e6})  # fmt: skip
            print(json.dumps(rows[-1]), flush=True)
        batch = (
            batch * 4 if batch * 4 <= args.max_batch or batch == args.max_batch else args.max_batch
        )
    return rows


def plot(rows: list[dict[str, Any]], path: Path, title: str) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (pip install matplotlib): no plot", file=sys.stderr)
        return False
    fig, ax = plt.subplots(figsize=(7, 4.5))
    evaluations = sorted({evaluation_of(r) for r in rows if r["kind"] == "throughput"})
    styles = ["-", "--", ":", "-."]
    for k, evaluation in enumerate(evaluations):
        for device, label in DEVICES:
            pts = sorted(
                (r["batch"], r["positions_per_s"])
                for r in of(rows, evaluation)
                if r["kind"] == "throughput" and r["device"] == device
            )
            if pts:
                name = label if len(evaluations) == 1 else f"{label} ({Path(evaluation).name})"
                ax.plot(
                    [p[0] for p in pts],
                    [p[1] for p in pts],
                    marker="o",
                    linestyle=styles[k % len(styles)],
                    label=name,
                )
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("batch size (positions)")
    ax.set_ylabel("positions / s")
    ax.set_title(title, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument(
        "--max-batch", type=int, default=1 << 20, help="largest batch (default 1048576)"
    )
    ap.add_argument(
        "--min-time", type=float, default=0.3, help="seconds per measurement (default 0.3)"
    )
    ap.add_argument("--latency-calls", type=int, default=2000, help="batch-1 round trips timed")
    ap.add_argument("--quick", action="store_true", help="up to 16384 positions, 0.05 s each")
    ap.add_argument("--plot", type=Path, default=ROOT / "benchmarks" / "gpu_eval.png")
    ap.add_argument("--json", type=Path, help="also write the raw measurements (JSON lines)")
    ap.add_argument("--no-build", action="store_true", help="use the already-built example")
    ap.add_argument("--binary", type=Path, help="run this gpu_eval binary (implies --no-build)")
    ap.add_argument(
        "--from-json", type=Path, help="report the measurements of an earlier --json run"
    )
    ap.add_argument(
        "--record", action="store_true", help="append the results to benchmarks/RESULTS.md"
    )
    ap.add_argument(
        "--python-array",
        action="store_true",
        help="time shatranj.evaluate(array) from Python instead",
    )
    ap.add_argument(
        "--eval-file",
        action="append",
        default=None,
        help="an evaluation to measure (repeatable): classical, <default> or a network file",
    )
    args = ap.parse_args()
    if args.quick:
        args.max_batch = min(args.max_batch, 1 << 14)
        args.min_time = 0.05
        args.latency_calls = min(args.latency_calls, 200)

    if args.from_json:
        rows = [
            json.loads(line) for line in args.from_json.read_text().splitlines() if line.strip()
        ]
    elif args.python_array:
        rows = [
            r
            for e in (args.eval_file or ["classical", "<default>"])
            for r in python_array_rows(args, e)
        ]
    else:
        target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        if args.binary:
            binary = args.binary
        elif args.no_build:
            binary = target / "release" / "examples" / "gpu_eval"
        else:
            binary = build_example()
        evaluations = args.eval_file or default_evaluations(binary)
        rows = [r for e in evaluations for r in run_example(binary, args, e)]
    if args.json and not args.from_json:
        rows.insert(0, {"kind": "machine", "cpu": cpu_model(), "threads": os.cpu_count()})
        args.json.write_text("".join(json.dumps(r) + "\n" for r in rows))

    adapter = next((r for r in rows if r["kind"] == "adapter"), None)
    no_gpu = next((r for r in rows if r["kind"] == "no_gpu"), None)
    cpu_desc = next((r["describe"] for r in rows if r.get("device") == "cpu"), "cpu")
    if adapter:
        gpu_line = (
            f"{adapter['name']} ({adapter['backend']}, {adapter['device_type']}, "
            f"{adapter['driver']} {adapter['driver_info']})".strip()
        )
    else:
        gpu_line = f"none ({no_gpu['reason'] if no_gpu else 'unknown'})"
    software = bool(adapter and adapter["device_type"] == "cpu")

    machine = next((r for r in rows if r["kind"] == "machine"), None)
    if machine:
        cpu_line = f"{machine['cpu']}, {machine['threads']} threads ({cpu_desc})"
    else:
        cpu_line = (
            f"{cpu_model()}, {os.cpu_count()} logical CPUs ({cpu_desc}); "
            f"load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )
    out = [
        f"- CPU: {cpu_line}",
        f"- GPU adapter: {gpu_line}",
    ]
    if software:
        out.append(
            "- **software adapter** (lavapipe runs the shader on the same CPU cores): the GPU "
            "column proves the shader runs and matches the CPU bit for bit, not GPU speed"
        )
    evaluations = list(dict.fromkeys(evaluation_of(r) for r in rows if r["kind"] == "throughput"))
    for evaluation in evaluations:
        part = of(rows, evaluation)
        described = next((r["describe"] for r in part if r["kind"] == "evaluation"), evaluation)
        out += ["", f"**Evaluation: {evaluation}** ({described})", "", table(part), ""]
        counted = counters_table(part)
        if counted:
            out += ["GPU from an array, per call (the context's counters):", "", counted, ""]
        pack = next((r for r in part if r["kind"] == "pack"), None)
        if pack:
            out.append(f"shatranj.pack_positions from FENs: {fmt_rate(pack['positions_per_s'])}")
        latency = next((r for r in part if r["kind"] == "latency"), None)
        if latency:
            out.append(
                f"GPU round trip of a batch of one ({latency['calls']} calls): median "
                f"{latency['median_us']:.1f} µs, p10 {latency['p10_us']:.1f} µs, p90 "
                f"{latency['p90_us']:.1f} µs, min {latency['min_us']:.1f} µs"
            )
        cross = crossover(part)
        if adapter:
            out.append(
                f"Crossover (GPU ≥ CPU on all threads from this batch size on): {cross:,}"
                if cross is not None
                else "Crossover: none — the GPU never beat the CPU here"
            )
            if cross is not None and not software:
                out.append(
                    f"(to fix it rather than let `auto` measure it: `SHATRANJ_GPU_CROSSOVER={cross}`)"
                )
        calibration = next((r for r in part if r["kind"] == "calibration"), None)
        if calibration is None and len(evaluations) == 1:
            calibration = next((r for r in rows if r["kind"] == "calibration"), None)
        if calibration:
            c = calibration["crossover"]
            out.append(
                "`auto`'s own calibration (`shatranj_gpu::calibrate`) chose: "
                + (f"{c:,}" if c < 2**62 else "never (the GPU is not faster per position)")
            )
    out.append("All GPU scores matched the CPU's." if adapter else "")
    report = "\n".join(out).rstrip() + "\n"
    print()
    print(report)

    title = f"shatranj batched evaluation — {machine['cpu'] if machine else cpu_model()}; GPU: {adapter['name'] if adapter else 'none'}"
    plotted = plot(rows, args.plot, title)
    if plotted:
        print(f"plot: {args.plot}")

    if args.record:
        stamp = utc_stamp()
        cmd = "python3 benchmarks/gpu_eval.py " + " ".join(sys.argv[1:])
        text = (
            f"\n## {stamp} — batched evaluation, CPU vs GPU (`benchmarks/gpu_eval.py`)\n\n"
            f"- command: `{cmd.strip()}`\n- commit: `{git_commit()}`\n" + report
        )
        if plotted:
            try:
                rel = args.plot.resolve().relative_to(ROOT / "benchmarks")
                text += f"\n![throughput against batch size]({rel})\n"
            except ValueError:
                pass
        print(f"appended to {append_results(text)}")


if __name__ == "__main__":
    main()
