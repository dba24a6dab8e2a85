//! `shatranj train`: a network from datagen's shards, with checkpoints, resume and Ctrl-C.

use clap::Args;
use shatranj_engine::games::datagen::DataError;
use shatranj_engine::nnue::file::Quantisation;
use shatranj_engine::nnue::{Inputs, KingBuckets, Network, OutputBuckets};
use shatranj_train::{FileScale, TrainConfig, TrainError, TrainJob, Trainer, data, loss_of_scores};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// `--output-buckets`: a count some [`OutputBuckets`] has.
fn output_buckets(s: &str) -> Result<OutputBuckets, String> {
    s.parse::<usize>()
        .ok()
        .and_then(OutputBuckets::with_count)
        .ok_or_else(|| format!("expected 1 or 8 output buckets, got {s:?}"))
}

/// `--king-buckets`: a preset count or a 32-square map.
fn king_buckets(s: &str) -> Result<KingBuckets, String> {
    s.parse::<KingBuckets>().map_err(|e| e.to_string())
}

// Independent command-line switches, not a state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Args)]
pub struct TrainArgs {
    /// Shard files or folders of them (repeat for several); PATH=FACTOR multiplies those
    /// shards' scores by FACTOR, for data labelled in another network's units (gen1's data:
    /// 0.73).
    #[arg(long, required = true)]
    data: Vec<data::Source>,
    /// Where to write the quantised network.
    #[arg(long)]
    out: PathBuf,
    /// Hidden neurons (a multiple of 32).
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Output layers: 1, or 8 chosen by the number of pieces on the board (a network file of
    /// architecture 2).
    #[arg(long, default_value = "1", value_parser = output_buckets)]
    output_buckets: OutputBuckets,
    /// King-bucketed, horizontally mirrored inputs (a network file of architecture 3): a
    /// preset by its number of buckets (1, 2, 4 or 8), or 32 comma-separated buckets, one
    /// per king square of files a-d, rank 1 first. Each side's inputs are chosen by its own
    /// king's bucket, the board mirrored when that king is on files e-h (so --mirror adds
    /// nothing with them).
    #[arg(long, value_parser = king_buckets)]
    king_buckets: Option<KingBuckets>,
    /// With --king-buckets: train one block of 768 inputs shared by every king bucket (the
    /// factor) beside the buckets' own, so what a piece on a square is worth is learnt from
    /// every position and each bucket learns only its king's difference. The factor is added
    /// into every bucket when the network is written: the file is plain architecture 3.
    #[arg(long, requires = "king_buckets")]
    factoriser: bool,
    /// Start from this network's weights, not random ones: a fine-tune on new data, or a
    /// king-bucketed run seeded by a plain network (its rows become every bucket's, or the
    /// factor with --factoriser), or a wider run (the new neurons start silent: random
    /// first-layer rows, zero output weights). Output buckets must match, and the network's
    /// hidden size be at most --hidden.
    #[arg(long, conflicts_with = "resume")]
    init: Option<PathBuf>,
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    epochs: u32,
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Starting learning rate (a cosine falls to LR · `FINAL_LR`).
    #[arg(long, default_value_t = 1e-3)]
    lr: f32,
    #[arg(long, default_value_t = 0.01)]
    final_lr: f32,
    /// `AdamW` weight decay.
    #[arg(long, default_value_t = 0.01)]
    weight_decay: f32,
    /// Weight of the game result in the target (the rest is the search score).
    #[arg(long, default_value_t = 0.3)]
    wdl: f32,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output weights are quantised × QB (gen1 was trained with 64, later nets with 128).
    #[arg(long, default_value_t = Quantisation::default().qb)]
    qb: i32,
    /// The file's SCALE (centipawns per unit of output): `auto` fits it so that the network's
    /// scores match the classical evaluation's on the validation positions, the centipawns the
    /// search's margins are tuned in; a number writes that (gen1 was written with 400).
    /// Training itself always works at 400.
    #[arg(long, default_value = "auto")]
    scale: FileScale,
    /// Train on each position or its mirror image (files a↔h), chosen at random each epoch.
    #[arg(long)]
    mirror: bool,
    /// Games whose index is a multiple of this are the validation set (0: none).
    #[arg(long, default_value_t = 50)]
    validation_every: u64,
    /// Worker threads; 0 means one per core.
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The checkpoint, saved after every epoch and on Ctrl-C (default: OUT with .ckpt).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Continue from the checkpoint (its settings win, but for --epochs).
    #[arg(long)]
    resume: bool,
    /// Write the epoch with the lowest validation loss to OUT, not the last one.
    #[arg(long)]
    keep_best: bool,
    /// Never draw a progress bar.
    #[arg(long)]
    quiet: bool,
}

pub enum TrainCliError {
    Data(DataError),
    Train(TrainError),
    Interrupted(PathBuf),
}

impl TrainCliError {
    pub fn exit_code(&self) -> u8 {
        match self {
            TrainCliError::Train(TrainError::Config(_)) => 2,
            TrainCliError::Interrupted(_) => 130,
            _ => 1,
        }
    }
}

impl fmt::Display for TrainCliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainCliError::Data(e) => write!(f, "{e}"),
            TrainCliError::Train(e) => write!(f, "{e}"),
            TrainCliError::Interrupted(p) => write!(
                f,
                "interrupted; the checkpoint {} resumes it (--resume)",
                p.display()
            ),
        }
    }
}

// A subcommand's entry owns the arguments clap parsed for it, as main hands them over.
#[allow(clippy::needless_pass_by_value)]
pub fn run(args: TrainArgs) -> Result<(), TrainCliError> {
    if args.threads > 0 {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .build_global();
    }
    let checkpoint = args
        .checkpoint
        .clone()
        .unwrap_or_else(|| args.out.with_extension("ckpt"));
    let stop = Arc::new(AtomicBool::new(false));
    {
        let s = Arc::clone(&stop);
        let _ = ctrlc::set_handler(move || s.store(true, Ordering::SeqCst));
    }
    // The starting network is read before the data, so a bad path fails at once.
    let init = args
        .init
        .as_deref()
        .map(Network::load)
        .transpose()
        .map_err(|e| TrainCliError::Train(TrainError::Net(e)))?;
    let loading = Instant::now();
    let dataset =
        data::load_sources(&args.data, args.validation_every).map_err(TrainCliError::Data)?;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "Data: {} games, {} training and {} validation positions, read in {:.1} s",
        dataset.games,
        dataset.train.len(),
        dataset.validation.len(),
        loading.elapsed().as_secs_f64()
    );
    let mut trainer = if args.resume {
        let mut t = Trainer::resume(&checkpoint).map_err(TrainCliError::Train)?;
        t.set_epochs(args.epochs);
        let _ = writeln!(out, "Resuming after epoch {}", t.epochs_done());
        t
    } else {
        let mut t = Trainer::new(TrainConfig {
            hidden: args.hidden,
            inputs: args.king_buckets.map_or(Inputs::Plain, Inputs::KingBuckets),
            buckets: args.output_buckets,
            epochs: args.epochs,
            batch_size: args.batch,
            lr: args.lr,
            final_lr_fraction: args.final_lr,
            weight_decay: args.weight_decay,
            wdl: args.wdl,
            seed: args.seed,
            mirror: args.mirror,
            factoriser: args.factoriser,
            quantisation: Quantisation {
                qb: args.qb,
                ..Quantisation::default()
            },
        })
        .map_err(TrainCliError::Train)?;
        if let (Some(path), Some(net)) = (&args.init, &init) {
            t.start_from(net).map_err(TrainCliError::Train)?;
            let _ = writeln!(out, "Starting from {} ({})", path.display(), net.hash_hex());
        }
        t
    };
    let _ = writeln!(out, "Settings: {:?}", trainer.config);
    if let Some(l) = loss_of_scores(
        &dataset.validation,
        &dataset.validation_classical,
        trainer.config.wdl,
    ) {
        let _ = writeln!(
            out,
            "Baseline: the classical evaluation's validation loss is {l:.6}"
        );
    }
    let _ = out.flush();
    drop(out);
    let bar = crate::progress::bar(
        args.quiet,
        1,
        "{spinner} epoch {prefix} [{elapsed_precise}] {bar:30} {pos}/{len} batches (eta {eta})  {msg}",
    );
    if args.scale == FileScale::Auto && dataset.validation.is_empty() {
        println!(
            "No validation positions to fit SCALE to: writing {}",
            trainer.config.quantisation.scale
        );
    }
    let job = TrainJob {
        out: args.out.clone(),
        checkpoint: checkpoint.clone(),
        keep_best: args.keep_best,
        scale: args.scale,
    };
    let outcome = job
        .run(
            &mut trainer,
            &dataset,
            &stop,
            |p| {
                if let Some(b) = &bar {
                    b.set_length(p.batches as u64);
                    b.set_position(p.batch as u64);
                    b.set_prefix(p.epoch.to_string());
                    b.set_message(format!(
                        "loss {:.5}, {:.0} samples/s",
                        p.loss, p.samples_per_second
                    ));
                }
            },
            |r| {
                if let Some(b) = &bar {
                    b.suspend(|| {});
                }
                let line = format!(
                    "epoch {:>3}: train loss {:.6}, validation loss {}, lr {:.2e}, {:.0} samples/s",
                    r.epoch,
                    r.train_loss,
                    r.validation_loss
                        .map_or("-".to_string(), |v| format!("{v:.6}")),
                    r.lr,
                    r.samples_per_second
                );
                match &bar {
                    Some(b) => b.println(line),
                    None => println!("{line}"),
                }
            },
        )
        .map_err(TrainCliError::Train)?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let Some(outcome) = outcome else {
        return Err(TrainCliError::Interrupted(checkpoint));
    };
    if let Some(best) = outcome.kept_best {
        println!("Kept the best epoch: validation loss {best:.6}");
    }
    let (net, scale, q) = (&outcome.network, outcome.scale, &outcome.quantisation);
    let kings = match net.inputs() {
        Inputs::Plain => String::new(),
        Inputs::KingBuckets(k) => format!("{} king buckets, mirrored, ", k.count()),
    };
    println!(
        "Network: {} ({} hidden, {kings}{} output buckets, sha256 {})",
        args.out.display(),
        net.hidden(),
        net.buckets().count(),
        net.hash_hex()
    );
    let training_scale = trainer.config.quantisation.scale;
    println!(
        "SCALE {scale}{} (training works at {training_scale})",
        if args.scale == FileScale::Auto && !dataset.validation.is_empty() {
            format!(
                ", fitted to the classical evaluation on {} validation positions",
                dataset.validation.len()
            )
        } else {
            String::new()
        }
    );
    println!(
        "Quantised vs float on {} validation positions: mean |diff| {:.2} cp, max {:.1} cp",
        q.positions, q.mean_abs, q.max_abs
    );
    if let (Some(float), Some(int)) = (outcome.float_loss, outcome.quantised_loss) {
        println!("Validation loss: float {float:.6}, quantised {int:.6}");
    }
    Ok(())
}
