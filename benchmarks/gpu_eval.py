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
<default>) is measured in its own run of the example and gets its own table; for a network the
GPU is also timed on compact positions packed beforehand ("GPU, compact input": the 32-byte
upload alone).
On a machine without a GPU, Mesa's lavapipe (Debian `mesa-vulkan-drivers`) runs the shader on
the CPU: its numbers prove the shader runs and agrees, not how fast a GPU is.

    python3 benchmarks/gpu_eval.py [--max-batch 1048576] [--min-time 0.3] [--record]
                                   [--plot benchmarks/gpu_eval.png] [--json out.jsonl]
                                   [--eval-file classical --eval-file <default> ...]
    python3 benchmarks/gpu_eval.py --quick      # up to 16k positions, short timings
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
from typing import Any, Dict, List, Optional

from common import ROOT, append_results, cpu_model, git_commit, utc_stamp

DEVICES = [
    ("cpu1", "CPU, 1 thread"),
    ("cpu", "CPU, all threads"),
    ("gpu", "GPU"),
    ("gpu-compact", "GPU, compact input"),
]


def evaluation_of(row: Dict[str, Any]) -> str:
    """The evaluation a measurement is of (runs recorded before networks existed: classical)."""
    return str(row.get("evaluation", "classical"))


def of(rows: List[Dict[str, Any]], evaluation: str) -> List[Dict[str, Any]]:
    return [r for r in rows if evaluation_of(r) == evaluation]


def build_example() -> Path:
    subprocess.run(
        ["cargo", "build", "--release", "-p", "shatranj-gpu", "--example", "gpu_eval"],
        cwd=ROOT,
        check=True,
    )
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "release" / "examples" / "gpu_eval"


def run_example(binary: Path, args: argparse.Namespace, evaluation: str) -> List[Dict[str, Any]]:
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


def default_evaluations(binary: Path) -> List[str]:
    """classical, and the built-in network if this build has one (the example says so by
    loading it)."""
    probe = subprocess.run(
        [str(binary), "--max-batch", "1", "--min-time", "0", "--latency-calls", "1",
         "--eval-file", "<default>"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return ["classical"] + (["<default>"] if probe.returncode == 0 else [])


def crossover(rows: List[Dict[str, Any]]) -> Optional[int]:
    """The smallest batch size from which the GPU is at least as fast as the CPU on all threads
    at that size and every larger one measured; None if the GPU never gets there."""
    rate = {(r["device"], r["batch"]): r["positions_per_s"] for r in rows if r["kind"] == "throughput"}
    batches = sorted({b for (d, b) in rate if d == "gpu"})
    best: Optional[int] = None
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


def table(rows: List[Dict[str, Any]]) -> str:
    tp = [r for r in rows if r["kind"] == "throughput"]
    rate = {(r["device"], r["batch"]): r for r in tp}
    have = [d for d, _ in DEVICES if any(r["device"] == d for r in tp)]
    names = dict(DEVICES)
    lines = [
        "| batch | " + " | ".join(names[d] for d in have) + (" | GPU / CPU all |" if "gpu" in have else " |"),
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


def plot(rows: List[Dict[str, Any]], path: Path, title: str) -> bool:
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
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-batch", type=int, default=1 << 20, help="largest batch (default 1048576)")
    ap.add_argument("--min-time", type=float, default=0.3, help="seconds per measurement (default 0.3)")
    ap.add_argument("--latency-calls", type=int, default=2000, help="batch-1 round trips timed")
    ap.add_argument("--quick", action="store_true", help="up to 16384 positions, 0.05 s each")
    ap.add_argument("--plot", type=Path, default=ROOT / "benchmarks" / "gpu_eval.png")
    ap.add_argument("--json", type=Path, help="also write the raw measurements (JSON lines)")
    ap.add_argument("--no-build", action="store_true", help="use the already-built example")
    ap.add_argument("--binary", type=Path, help="run this gpu_eval binary (implies --no-build)")
    ap.add_argument("--from-json", type=Path, help="report the measurements of an earlier --json run")
    ap.add_argument("--record", action="store_true", help="append the results to benchmarks/RESULTS.md")
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
        rows = [json.loads(line) for line in args.from_json.read_text().splitlines() if line.strip()]
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
        described = next(
            (r["describe"] for r in part if r["kind"] == "evaluation"), evaluation
        )
        out += ["", f"**Evaluation: {evaluation}** ({described})", "", table(part), ""]
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
                f"Crossover (GPU ≥ CPU on all threads from this batch size on): "
                f"{cross:,}" if cross is not None else "Crossover: none — the GPU never beat the CPU here"
            )
            if cross is not None and not software:
                out.append(f"(to fix it rather than let `auto` measure it: `SHATRANJ_GPU_CROSSOVER={cross}`)")
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
