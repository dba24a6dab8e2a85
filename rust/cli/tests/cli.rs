//! The `shatranj perft` command as a user sees it: output format, exit codes, errors.

use std::process::{Command, Output};

fn shatranj(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shatranj"))
        .args(args)
        .output()
        .expect("run shatranj")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn perft_prints_nodes_and_speed_like_stockfish() {
    let o = shatranj(&["perft", "3", "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Nodes searched: 8902");
    assert!(
        lines[1].starts_with("Time: ") && lines[1].contains(" Mnps ("),
        "{out}"
    );
}

#[test]
fn divide_lists_every_root_move_then_the_total() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = shatranj(&["perft", "2", "--divide", "--quiet", "--fen", fen]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let split: Vec<(&str, u64)> = out
        .lines()
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let (m, n) = l.split_once(": ").expect("`move: count`");
            (m, n.parse().expect("count"))
        })
        .collect();
    assert_eq!(split.len(), 48);
    assert!(
        split.iter().any(|&(m, _)| m == "e1g1"),
        "castling written as the king's move"
    );
    assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 2039);
    assert!(out.contains("\nNodes searched: 2039\n"), "{out}");
}

#[test]
fn threads_and_hash_give_the_same_count() {
    for args in [
        &["perft", "5", "--quiet"][..],
        &["perft", "5", "--quiet", "--threads", "2", "--hash", "8"][..],
    ] {
        let o = shatranj(args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(
            stdout(&o).starts_with("Nodes searched: 4865609\n"),
            "{args:?}: {}",
            stdout(&o)
        );
    }
}

#[test]
fn bad_input_is_one_line_on_stderr_and_status_2() {
    let cases: [&[&str]; 7] = [
        &["perft", "3", "--threads", "100000"],
        &["perft", "3", "--hash", "lots"],
        &[
            "perft",
            "3",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        ],
        &[
            "perft",
            "3",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        ],
        &["perft", "three"],
        &["perft", "0"],
        &["perft", "-1"],
    ];
    for args in cases {
        let o = shatranj(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(
            !err.contains("panicked") && !err.contains("backtrace"),
            "{err}"
        );
        assert!(stdout(&o).is_empty());
    }
    // The FEN error names the field and the offending text.
    let o = shatranj(&[
        "perft",
        "3",
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    ]);
    let err = stderr(&o);
    assert!(
        err.contains("side to move") && err.contains("\"x\""),
        "{err}"
    );
}

#[test]
fn a_closed_pipe_is_not_a_crash() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_shatranj"))
        .args(["perft", "3", "--divide", "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take()); // The reader goes away, as with `| head -0`.
    let status = child.wait().expect("wait");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read");
    assert!(status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bench_prints_a_stable_signature() {
    let nodes = |o: &Output| -> u64 {
        let out = stdout(o);
        let line = out
            .lines()
            .find(|l| l.starts_with("Nodes searched: "))
            .unwrap_or_else(|| panic!("no signature in {out}"));
        line["Nodes searched: ".len()..].trim().parse().unwrap()
    };
    let a = shatranj(&["bench", "4"]);
    let b = shatranj(&["bench", "4"]);
    assert!(a.status.success(), "{}", stderr(&a));
    assert!(stdout(&a).contains("Nodes/second: "));
    assert_eq!(nodes(&a), nodes(&b));
    assert!(nodes(&a) > 0);
    let bad = shatranj(&["bench", "0"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn selfplay_writes_pgn_and_a_summary_and_refuses_bad_settings() {
    let dir = std::env::temp_dir().join(format!("shatranj-selfplay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let openings = dir.join("openings.txt");
    std::fs::write(
        &openings,
        "# two openings\ne2e4 e7e5\n6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\n",
    )
    .unwrap();
    let o = shatranj(&[
        "selfplay",
        "--games",
        "2",
        "--concurrency",
        "2",
        "--depth",
        "3",
        "--max-plies",
        "30",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = stdout(&o);
    for needle in [
        "Games: 2",
        "Games/second:",
        "Evaluations:",
        "Results: +",
        "Evaluator: cpu (inline)",
    ] {
        assert!(summary.contains(needle), "{needle} missing in {summary}");
    }
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 2);
    assert!(text.contains("[Round \"0\"]") && text.contains("[Round \"1\"]"));
    assert!(text.contains("1. e4 e5"));
    assert!(text.contains("[FEN \"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\"]"));
    assert!(text.contains("1. Ra8# 1-0"));

    for (args, needle) in [
        (vec!["selfplay", "--games", "1"], "--depth D or --nodes K"),
        (
            vec!["selfplay", "--depth", "2", "--device", "tpu"],
            "unknown evaluation device",
        ),
        (
            vec!["selfplay", "--depth", "2", "--openings", "/nonexistent/x"],
            "cannot read",
        ),
    ] {
        let o = shatranj(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    }
    // A GPU that is not there (no adapter of that name) is a one-line error, not a panic.
    let o = Command::new(env!("CARGO_BIN_EXE_shatranj"))
        .args([
            "selfplay", "--games", "1", "--depth", "2", "--device", "gpu",
        ])
        .env("SHATRANJ_WGPU_ADAPTER", "no such adapter 0x5e1f")
        .output()
        .expect("run shatranj");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no GPU adapter"), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("shatranj-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `datagen` writes shards and a manifest naming its recipe, and a second run of the same job
/// plays nothing.
#[test]
fn datagen_writes_shards_a_rerun_resumes() {
    let dir = temp("datagen");
    let out = dir.join("data");
    let args = [
        "datagen",
        "--out",
        out.to_str().unwrap(),
        "--seed",
        "9",
        "--games",
        "3",
        "--shard-games",
        "2",
        "--soft-nodes",
        "200",
        "--hard-nodes",
        "2000",
        "--balance-depth",
        "1",
        "--max-plies",
        "40",
        "--threads",
        "2",
        "--quiet",
        "--eval-file",
        "classical",
    ];
    let o = shatranj(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Games: 3 played"), "{}", stdout(&o));
    let manifest = std::fs::read_to_string(out.join("manifest.tsv")).unwrap();
    assert_eq!(manifest.lines().count(), 3, "{manifest}");
    assert!(manifest.contains("s9-000000000-000000002.sgd\t9\t0\t2\t2\t"));
    assert!(manifest.contains("--soft-nodes 200"), "{manifest}");
    let again = shatranj(&args);
    assert!(
        stdout(&again).contains("0 played, 3 found"),
        "{}",
        stdout(&again)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `train` makes a network from the trainer's fixture that `bench` then searches with; a bad
/// network file is a one-line error with status 2.
#[test]
fn train_writes_a_network_that_bench_loads() {
    let dir = temp("train");
    let net = dir.join("net.nnue");
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/../train/tests/data/tiny.sgd");
    let o = shatranj(&[
        "train",
        "--data",
        fixture,
        "--out",
        net.to_str().unwrap(),
        "--hidden",
        "32",
        "--epochs",
        "2",
        "--batch",
        "1024",
        "--validation-every",
        "10",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("epoch   2:"), "{text}");
    assert!(
        text.contains("Baseline: the classical evaluation"),
        "{text}"
    );
    assert!(text.contains("Quantised vs float"), "{text}");
    assert!(net.with_extension("ckpt").exists());
    let bench = |eval: &str| shatranj(&["bench", "4", "--eval-file", eval]);
    let a = bench(net.to_str().unwrap());
    assert!(a.status.success(), "{}", stderr(&a));
    assert!(stderr(&a).contains("evaluation: network"), "{}", stderr(&a));
    let signature = |o: &Output| {
        stdout(o)
            .lines()
            .find(|l| l.starts_with("Nodes searched"))
            .map(str::to_string)
    };
    assert_eq!(signature(&a), signature(&bench(net.to_str().unwrap())));
    assert_ne!(signature(&a), signature(&bench("classical")));

    std::fs::write(dir.join("bad.nnue"), b"SHTRNNUE but nothing else").unwrap();
    for bad in [dir.join("bad.nnue"), dir.join("missing.nnue")] {
        let o = bench(bad.to_str().unwrap());
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
        assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `shatranj train` for one epoch on the trainer's fixture into `out`, with `extra` arguments.
fn train_on_fixture(out: &std::path::Path, extra: &[&str]) -> Output {
    let fixture = concat!(env!("CARGO_MANIFEST_DIR"), "/../train/tests/data/tiny.sgd");
    let mut args = vec![
        "train",
        "--data",
        fixture,
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "1",
        "--batch",
        "1024",
        "--validation-every",
        "10",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    shatranj(&args)
}

/// `train --factoriser` writes a plain architecture-3 file (the factor folded in) and a
/// version-5 checkpoint; without `--king-buckets` it is a usage error.
#[test]
fn train_with_the_factoriser_writes_architecture_3() {
    let dir = temp("train-factoriser");
    let net = dir.join("fac.nnue");
    let train = |extra: &[&str]| {
        let mut args = vec!["--hidden", "32", "--factoriser"];
        args.extend_from_slice(extra);
        train_on_fixture(&net, &args)
    };
    let o = train(&[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("required"), "{}", stderr(&o));
    let o = train(&["--king-buckets", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("factoriser: true"), "{}", stdout(&o));
    let bytes = std::fs::read(&net).unwrap();
    assert_eq!(u16::from_le_bytes([bytes[10], bytes[11]]), 3);
    let ckpt = std::fs::read(net.with_extension("ckpt")).unwrap();
    assert_eq!(ckpt[8..12], 5u32.to_le_bytes());
    let b = shatranj(&["bench", "4", "--eval-file", net.to_str().unwrap()]);
    assert!(b.status.success(), "{}", stderr(&b));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `train --init`: a plain network seeds a factorised king-bucket run, which says where it
/// started, and a wider run; a wider network (it cannot seed a narrower run), or a missing
/// file, is refused before any training, with the reason.
#[test]
fn train_starts_from_the_network_it_is_given() {
    let dir = temp("train-init");
    let train = |out: &str, extra: &[&str]| train_on_fixture(&dir.join(out), extra);
    let o = train("plain.nnue", &["--hidden", "32"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let plain = dir.join("plain.nnue");
    let plain = plain.to_str().unwrap();
    let o = train(
        "seeded.nnue",
        &[
            "--hidden",
            "32",
            "--king-buckets",
            "2",
            "--factoriser",
            "--init",
            plain,
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Starting from"), "{}", stdout(&o));
    let bytes = std::fs::read(dir.join("seeded.nnue")).unwrap();
    assert_eq!(u16::from_le_bytes([bytes[10], bytes[11]]), 3);
    let o = train("wide.nnue", &["--hidden", "64", "--init", plain]);
    assert!(o.status.success(), "{}", stderr(&o));
    let wide = dir.join("wide.nnue");
    let o = train(
        "narrow.nnue",
        &["--hidden", "32", "--init", wide.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("64 hidden"), "{}", stderr(&o));
    let missing = dir.join("missing.nnue");
    let o = train("x.nnue", &["--init", missing.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("missing.nnue"), "{}", stderr(&o));
    assert!(!stdout(&o).contains("Data:"), "{}", stdout(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `train --scale`: `auto` fits the file's SCALE to the classical evaluation and says so, a
/// number is written as given (bytes 20..24 of the header), and anything else is a usage error.
#[test]
fn train_writes_the_scale_it_is_asked_for() {
    let dir = temp("train-scale");
    let train = |out: &std::path::Path, scale: &str| {
        train_on_fixture(out, &["--hidden", "32", "--scale", scale])
    };
    let file_scale = |path: &std::path::Path| {
        let bytes = std::fs::read(path).unwrap();
        u32::from_le_bytes(bytes[20..24].try_into().unwrap())
    };
    let fixed = dir.join("fixed.nnue");
    let o = train(&fixed, "333");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("SCALE 333 (training works at 400)"),
        "{}",
        stdout(&o)
    );
    assert_eq!(file_scale(&fixed), 333);

    let auto = dir.join("auto.nnue");
    let o = train(&auto, "auto");
    assert!(o.status.success(), "{}", stderr(&o));
    let line = stdout(&o)
        .lines()
        .find(|l| l.starts_with("SCALE "))
        .map(str::to_string)
        .unwrap_or_default();
    assert!(
        line.contains("fitted to the classical evaluation"),
        "{line}"
    );
    let fitted: u32 = line["SCALE ".len()..]
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(file_scale(&auto), fitted);
    // The weights do not depend on SCALE: the two files differ only in the header's SCALE.
    let (a, b) = (
        std::fs::read(&fixed).unwrap(),
        std::fs::read(&auto).unwrap(),
    );
    assert_eq!(a[24..], b[24..]);

    for bad in ["0", "4097", "big"] {
        let o = train(&dir.join("bad.nnue"), bad);
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(stderr(&o).contains("auto"), "{bad}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Opening the GPU without a display leaves no driver noise on stderr (Mesa's
/// "`XDG_RUNTIME_DIR` is invalid" from its window-system code).
#[test]
fn opening_the_gpu_is_quiet() {
    let o = Command::new(env!("CARGO_BIN_EXE_shatranj"))
        .args([
            "selfplay",
            "--games",
            "1",
            "--depth",
            "1",
            "--max-plies",
            "4",
            "--device",
            "gpu",
            "--quiet",
        ])
        .env_remove("XDG_RUNTIME_DIR")
        .output()
        .expect("run shatranj");
    let err = stderr(&o);
    assert!(!err.contains("XDG_RUNTIME_DIR"), "{err}");
    if std::env::var("SHATRANJ_REQUIRE_GPU").as_deref() == Ok("1") {
        assert!(o.status.success(), "{err}");
    }
}

#[test]
fn the_gpu_device_prints_what_the_cpu_prints() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let run = |device: &str| {
        shatranj(&[
            "perft", "3", "--divide", "--quiet", "--fen", fen, "--device", device,
        ])
    };
    let counts = |o: &Output| -> String {
        stdout(o)
            .lines()
            .filter(|l| !l.starts_with("Time: "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let cpu = run("cpu");
    assert!(cpu.status.success(), "{}", stderr(&cpu));
    let gpu = run("gpu");
    if gpu.status.success() {
        assert_eq!(counts(&gpu), counts(&cpu));
        assert!(stdout(&gpu).contains("(gpu: "), "{}", stdout(&gpu));
        // --hash sizes the GPU's table there: the same output.
        let hashed = shatranj(&[
            "perft", "4", "--divide", "--quiet", "--fen", fen, "--device", "gpu", "--hash", "4",
        ]);
        let cpu4 = shatranj(&["perft", "4", "--divide", "--quiet", "--fen", fen]);
        assert!(hashed.status.success(), "{}", stderr(&hashed));
        assert_eq!(counts(&hashed), counts(&cpu4));
        // A Chess960 position (castling with the rooks on f and h): the same output too.
        let fen960 = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let run960 = |device: &str| {
            shatranj(&[
                "perft",
                "3",
                "--divide",
                "--quiet",
                "--chess960",
                "--fen",
                fen960,
                "--device",
                device,
            ])
        };
        let (cpu960, gpu960) = (run960("cpu"), run960("gpu"));
        assert!(gpu960.status.success(), "{}", stderr(&gpu960));
        assert!(
            stdout(&cpu960).contains("Nodes searched: 12189"),
            "{}",
            stdout(&cpu960)
        );
        assert_eq!(counts(&gpu960), counts(&cpu960));
    } else {
        // No adapter: a one-line error and status 1, unless a GPU is required here.
        assert_ne!(
            std::env::var("SHATRANJ_REQUIRE_GPU").as_deref(),
            Ok("1"),
            "SHATRANJ_REQUIRE_GPU=1 but: {}",
            stderr(&gpu)
        );
        assert_eq!(gpu.status.code(), Some(1));
        assert!(stderr(&gpu).contains("GPU"), "{}", stderr(&gpu));
    }
    // `auto` never fails for want of a GPU, and counts the same.
    let auto = run("auto");
    assert!(auto.status.success(), "{}", stderr(&auto));
    assert_eq!(counts(&auto), counts(&cpu));
    let bad = run("tpu");
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn variant_perft_counts_the_variants_tree() {
    // python-chess's reference counts (data/perft/variants): atomic's start at depth 3 and
    // crazyhouse's "zh-drops" at depth 2, divided.
    let o = shatranj(&["perft", "3", "--variant", "atomic"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with("Nodes searched: 8902\n"),
        "{}",
        stdout(&o)
    );
    let fen = "2k5/8/8/8/8/8/8/4K3[Qn] w - - 0 1";
    let o = shatranj(&["perft", "2", "--variant", "zh", "--divide", "--fen", fen]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("\nQ@c7: "),
        "drops written as UCI drops: {out}"
    );
    assert!(out.contains("\nNodes searched: 3083\n"), "{out}");
}

#[test]
fn variant_perft_refuses_unknown_variants_and_bad_fens() {
    let o = shatranj(&["perft", "1", "--variant", "chess9000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown variant"), "{}", stderr(&o));
    let o = shatranj(&[
        "perft",
        "1",
        "--variant",
        "horde",
        "--fen",
        "k7/8/8/8/8/8/8/K7 w - - 0 1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("kings"), "{}", stderr(&o));
}
