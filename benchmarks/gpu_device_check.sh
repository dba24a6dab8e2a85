#!/usr/bin/env bash
# The GPU checks for a lent accelerator machine (an NVIDIA H200 through the `device` tool):
# GPU perft (the exact-count tests on the real GPU, then startpos perft 7-9 and Kiwipete 6-7
# with the device counters, and the host's CPU perft on all threads beside depths 7-8 and 6,
# then startpos perft 10 with the GPU's hash table),
# the bit-identity tests on the real GPU (classical shader and network shader) and the
# batch-size benchmark of both evaluations, outputs under $OUT. SKIP_EVAL=1 runs only the
# perft part (about 2-3 minutes).
#
# Two steps, so that no device time is spent compiling (the lent machine may lack Rust):
#
#   1. here, in the repo root:   benchmarks/gpu_device_check.sh --prepare
#        builds the release test binary and the benchmark example into .gpucheck/ (ignored by
#        git through .git/info/exclude) and downloads the Vulkan loader packages into .gl/ as
#        /work/.library/device/README.md describes.
#   2. on the device:  run(command="benchmarks/gpu_device_check.sh", carry=[".gpucheck", ".gl"],
#                          timeout_s=420)
#        unpacks the loader, runs the bit-identity tests with SHATRANJ_REQUIRE_GPU=1 and the
#        benchmark (batch 1 … 1M, CPU one thread / all threads / GPU, batch-1 latency) for the
#        classical evaluation and the network (the built-in one, or .gpucheck/net.nnue, which
#        --prepare copies from NET=path if set), and writes
#        $OUT/{env.txt, perft_identity.log, perft.jsonl, bit_identity.log, network_identity.log,
#        gpu_eval.jsonl, gpu_eval.txt, gpu_eval.png}: 8 files.
#   3. back here: python3 benchmarks/gpu_eval.py --from-json <files_at>/gpu_eval.jsonl --record
#        appends the table (with a plot) to benchmarks/RESULTS.md, with the swept crossover
#        beside the one `auto` calibrates for itself.
#
# Expected runtime on the device: about 6–8 minutes (the evaluation benchmark's 1M batches
# dominate, once per evaluation; every perft command has its own time limit, 5.5 minutes in
# all at worst, about 2.5 minutes as predicted in benchmarks/RESULTS.md; the evaluation from an
# array about 15 s, 60 s at most).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PREBUILT="$ROOT/.gpucheck"

if [ "${1:-}" = "--prepare" ]; then
    set -e
    mkdir -p "$PREBUILT"
    # .git is a file in a worktree: ask git where the exclude file is.
    exclude="$(git rev-parse --git-path info/exclude)"
    mkdir -p "$(dirname "$exclude")"
    grep -qxF '/.gpucheck/' "$exclude" 2>/dev/null || echo '/.gpucheck/' >>"$exclude"
    cargo build --release -p shatranj-gpu --example gpu_eval --example gpu_perft
    cp target/release/examples/gpu_eval "$PREBUILT/gpu_eval"
    cp target/release/examples/gpu_perft "$PREBUILT/gpu_perft"
    # Each test binary's path comes from cargo's JSON messages.
    for test in bit_identity network_identity perft; do
        test_bin=$(cargo test --release -p shatranj-gpu --test "$test" --no-run --message-format=json \
            | TEST="$test" python3 -c 'import json,os,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == os.environ["TEST"]:
        print(m["executable"])')
        cp "$test_bin" "$PREBUILT/$test"
    done
    if [ -n "${NET:-}" ]; then cp "$NET" "$PREBUILT/net.nnue"; fi
    # Line tables are most of the size, and everything carried counts against the 64 MiB.
    strip --strip-debug "$PREBUILT/gpu_eval" "$PREBUILT/gpu_perft" "$PREBUILT/bit_identity" \
        "$PREBUILT/network_identity" "$PREBUILT/perft" 2>/dev/null || true
    if [ ! -d .gl ] || ! ls .gl/*.deb >/dev/null 2>&1; then
        grep -qxF '/.gl/' "$exclude" || echo '/.gl/' >>"$exclude"
        mkdir -p .gl /tmp/amd64/partial
        o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
        # shellcheck disable=SC2086
        apt-get $o update
        # shellcheck disable=SC2086
        (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2)
    fi
    du -sh "$PREBUILT" .gl
    echo "prepared: now run benchmarks/gpu_device_check.sh on the device, carrying .gpucheck and .gl"
    exit 0
fi

OUT="${OUT:-$ROOT/gpu-check-out}"
mkdir -p "$OUT"
status=0

# The Vulkan loader, if this machine lacks one.
if ! ldconfig -p 2>/dev/null | grep -q libvulkan; then
    for f in .gl/*.deb; do [ -e "$f" ] && dpkg -x "$f" /; done
    ldconfig
fi
if [ -d /usr/local/nvidia/share/vulkan/icd.d ] && [ -z "${VK_DRIVER_FILES:-}" ]; then
    export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
export SHATRANJ_WGPU_BACKEND="${SHATRANJ_WGPU_BACKEND:-vulkan}"

{
    date -u
    nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.current,pcie.link.width.current --format=csv 2>&1
    lscpu 2>/dev/null | grep -E 'Model name|^CPU\(s\)'
    ldconfig -p | grep libvulkan
    echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-}"
} >"$OUT/env.txt" 2>&1
cat "$OUT/env.txt"

if [ -x "$PREBUILT/bit_identity" ]; then
    test_cmd=("$PREBUILT/bit_identity")
    net_test_cmd=("$PREBUILT/network_identity")
    bench_cmd=("$PREBUILT/gpu_eval")
    perft_test_cmd=("$PREBUILT/perft")
    perft_cmd=("$PREBUILT/gpu_perft")
else
    # No prebuilt binaries: build here (needs cargo on this machine).
    cargo build --release -p shatranj-gpu --example gpu_eval --example gpu_perft || exit 1
    test_cmd=(cargo test --release -p shatranj-gpu --test bit_identity --)
    net_test_cmd=(cargo test --release -p shatranj-gpu --test network_identity --)
    bench_cmd=(target/release/examples/gpu_eval)
    perft_test_cmd=(cargo test --release -p shatranj-gpu --test perft --)
    perft_cmd=(target/release/examples/gpu_perft)
fi

# GPU perft first: exact counts, then speed with the counters, the CPU on every thread beside
# it (perft 9 on the CPU would take minutes, so it runs on the GPU alone).
echo "== GPU perft: exact counts (SHATRANJ_REQUIRE_GPU=1) =="
SHATRANJ_REQUIRE_GPU=1 timeout 60 "${perft_test_cmd[@]}" --nocapture --test-threads 1 2>&1 | tee "$OUT/perft_identity.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "== GPU perft: speed =="
kiwipete='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
{
    timeout 60 "${perft_cmd[@]}" --cpu-threads "$(nproc)" 7 8 || status=1
    timeout 90 "${perft_cmd[@]}" 9 || status=1
    timeout 30 "${perft_cmd[@]}" --fen "$kiwipete" --cpu-threads "$(nproc)" 6 || status=1
    timeout 30 "${perft_cmd[@]}" --fen "$kiwipete" 7 || status=1
    timeout 30 "${perft_cmd[@]}" --bitboards halves 8 || status=1
    # perft(10) with a 2 GiB table on the GPU (the issue's aim: 60 s or less); stopped after
    # 60 s with the share done and the time the whole count would take at that pace.
    timeout 80 "${perft_cmd[@]}" --hash 2048 --time-limit 60 10 || status=1
} >"$OUT/perft.jsonl"
cat "$OUT/perft.jsonl"
if [ "${SKIP_EVAL:-0}" = "1" ]; then
    exit $status
fi

echo "== bit identity, classical (SHATRANJ_REQUIRE_GPU=1) =="
SHATRANJ_REQUIRE_GPU=1 "${test_cmd[@]}" --nocapture --test-threads 1 2>&1 | tee "$OUT/bit_identity.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "== bit identity, network (SHATRANJ_REQUIRE_GPU=1) =="
SHATRANJ_REQUIRE_GPU=1 "${net_test_cmd[@]}" --nocapture --test-threads 1 2>&1 | tee "$OUT/network_identity.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1

# The network measured: the built-in one if the build has it, else a carried file.
evaluations=(classical)
if "${bench_cmd[@]}" --max-batch 1 --min-time 0 --latency-calls 1 --eval-file '<default>' >/dev/null 2>&1; then
    evaluations+=('<default>')
elif [ -f "$PREBUILT/net.nnue" ]; then
    evaluations+=("$PREBUILT/net.nnue")
fi

echo "== benchmark (${evaluations[*]}) =="
{
    printf '{"kind": "machine", "cpu": "%s", "threads": %s}\n' \
        "$(lscpu | sed -n 's/^Model name: *//p' | head -1)" "$(nproc)"
    for e in "${evaluations[@]}"; do
        "${bench_cmd[@]}" --max-batch 1048576 --min-time 0.3 --latency-calls 5000 --eval-file "$e" || exit 1
    done
} >"$OUT/gpu_eval.jsonl"
[ $? -eq 0 ] || status=1
cat "$OUT/gpu_eval.jsonl"
# --- evaluation from an array (issue 34 item 6; gpueval) ---
# The network from 32-byte compact records, the path of shatranj.evaluate(array), at batch
# 1 ... 1M, 0.5 s per size, with the context's counters (submits, bytes, chunks in flight,
# timestamps: upload / kernel / readback). Appended to gpu_eval.jsonl (no extra file); the
# prediction it checks is in benchmarks/RESULTS.md ("network evaluation from an array").
echo "== evaluation from an array (${evaluations[-1]}) =="
timeout 60 "${bench_cmd[@]}" --array-only --max-batch 1048576 --min-time 0.5 --latency-calls 2000 \
    --eval-file "${evaluations[-1]}" | tee -a "$OUT/gpu_eval.jsonl" | grep '"batch": 1048576'
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
# --- end of evaluation from an array ---

if command -v python3 >/dev/null; then
    python3 benchmarks/gpu_eval.py --from-json "$OUT/gpu_eval.jsonl" --plot "$OUT/gpu_eval.png" \
        | tee "$OUT/gpu_eval.txt"
fi
exit $status
