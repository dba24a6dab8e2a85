//! Training samples: datagen's positions as feature lists, scores and results, split by game
//! into a training and a validation set.

use shatranj_chess::Color;
use shatranj_engine::eval::DEFAULT_PARAMS;
use shatranj_engine::eval::evaluate;
use shatranj_engine::games::datagen::{DataError, GameData, TrainingPosition, read_shard};
use shatranj_engine::nnue::{Inputs, active_features};
use std::path::{Path, PathBuf};

/// One position as the trainer sees it (70 bytes: tens of millions fit in memory).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// White-view features of the pieces, the first `count` valid.
    pub white: [u16; 32],
    pub count: u8,
    pub black_to_move: bool,
    /// Centipawns for the side to move.
    pub score: i16,
    /// The game's result for the side to move: 0 lost, 1 drawn, 2 won.
    pub result: u8,
}

impl Sample {
    pub fn from_position(t: &TrainingPosition) -> Sample {
        let (white, _) = active_features(&t.position);
        let mut features = [0u16; 32];
        for (slot, &f) in features.iter_mut().zip(&white) {
            *slot = f as u16;
        }
        Sample {
            white: features,
            count: white.len().min(32) as u8,
            black_to_move: t.position.turn() == Color::Black,
            score: t.score,
            result: (t.result_for_side_to_move() * 2.0) as u8,
        }
    }

    /// The first-layer rows of the side to move's view and of the other side's, as the
    /// engine reads them through `inputs` ([`Inputs::views`] and `View::row`: one
    /// definition for both).
    #[inline]
    pub fn views(&self, inputs: &Inputs) -> ([u16; 32], [u16; 32], usize) {
        let n = usize::from(self.count);
        let pieces = self.white[..n].iter().map(|&f| usize::from(f));
        let (white_view, black_view) = inputs.views(pieces);
        let mut white = [0u16; 32];
        let mut black = [0u16; 32];
        for ((w, b), &f) in white.iter_mut().zip(&mut black).zip(&self.white[..n]) {
            *w = white_view.row(usize::from(f)) as u16;
            *b = black_view.row(usize::from(f)) as u16;
        }
        if self.black_to_move {
            (black, white, n)
        } else {
            (white, black, n)
        }
    }

    /// The same position with the board flipped from side to side (files a↔h): as good a
    /// training position, with the same score and result, since castling rights are not
    /// among the inputs (the rules are symmetric under the flip otherwise). King-bucketed
    /// inputs mirror the board themselves, so for them the flip changes no row.
    ///
    /// (`self.white` keeps piece-squares, not rows: see [`Sample::views`].)
    pub fn mirrored(&self) -> Sample {
        let mut s = *self;
        for f in &mut s.white[..usize::from(self.count)] {
            *f ^= 7;
        }
        s
    }

    /// The result for the side to move as 0, 0.5 or 1.
    #[inline]
    pub fn result(&self) -> f32 {
        f32::from(self.result) / 2.0
    }
}

/// Samples split by game: a game whose index is a multiple of `every` goes to validation, so
/// no validation position has a near twin (from the same game) in training.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub train: Vec<Sample>,
    pub validation: Vec<Sample>,
    /// The classical evaluation of each validation position (the baseline a network must
    /// beat as a predictor of the same targets).
    pub validation_classical: Vec<i16>,
    pub games: u64,
}

impl Dataset {
    /// Adds the training positions of `game`, their scores multiplied by `score_factor`
    /// (see [`Source::score_factor`]).
    pub fn add_game(&mut self, game: &GameData, validation_every: u64, score_factor: f32) {
        self.games += 1;
        let sample = |t: &TrainingPosition| {
            let mut s = Sample::from_position(t);
            s.score = rescale(s.score, score_factor);
            s
        };
        let to_validation = validation_every > 0 && game.index.is_multiple_of(validation_every);
        if to_validation {
            for t in game.training_positions() {
                self.validation.push(sample(&t));
                let cp = evaluate(&DEFAULT_PARAMS, &t.position).clamp(-32_000, 32_000);
                self.validation_classical.push(cp as i16);
            }
        } else {
            self.train
                .extend(game.training_positions().map(|t| sample(&t)));
        }
    }
}

/// `score · factor`, rounded and kept within ±32,000 (beyond any search score).
fn rescale(score: i16, factor: f32) -> i16 {
    if factor == 1.0 {
        return score;
    }
    (f32::from(score) * factor)
        .round()
        .clamp(-32_000.0, 32_000.0) as i16
}

/// Shards to train on: a file or a folder of them, and a factor for their scores.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub path: PathBuf,
    /// Every score of these shards is multiplied by this before training. Data labelled by a
    /// network speaks that network's centipawns: gen1's shards, labelled at SCALE 400, score
    /// about 1.37× the classical evaluation (292/400 puts them back in its units), while
    /// classical and SCALE-fitted networks' data need 1.
    pub score_factor: f32,
}

impl Source {
    /// Shards whose scores are used as they are.
    pub fn new(path: impl Into<PathBuf>) -> Source {
        Source {
            path: path.into(),
            score_factor: 1.0,
        }
    }
}

impl std::str::FromStr for Source {
    type Err = String;

    /// `PATH` or `PATH=FACTOR` (the factor a finite number in 0.1 ..= 10); a path that
    /// exists as written is taken whole, `=` and all.
    fn from_str(text: &str) -> Result<Source, String> {
        let Some((path, factor)) = text.rsplit_once('=').filter(|_| !Path::new(text).exists())
        else {
            return Ok(Source::new(text));
        };
        let score_factor: f32 = factor.trim().parse().map_err(|_| {
            format!("{text}: the score factor after '=' is not a number: {factor:?}")
        })?;
        if !(0.1..=10.0).contains(&score_factor) {
            return Err(format!(
                "{text}: the score factor {score_factor} is outside 0.1 ..= 10"
            ));
        }
        if path.is_empty() {
            return Err(format!("{text}: no path before '='"));
        }
        Ok(Source {
            path: path.into(),
            score_factor,
        })
    }
}

/// The shard files a path names: the file itself, or every `.sgd` file in the folder (sorted
/// by name, so the dataset's order does not depend on the file system).
pub fn shard_paths(path: &Path) -> Result<Vec<PathBuf>, DataError> {
    if path.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| DataError::File {
                path: path.to_path_buf(),
                error: Box::new(DataError::Io(e)),
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "sgd"))
            .collect();
        files.sort();
        Ok(files)
    } else {
        Ok(vec![path.to_path_buf()])
    }
}

/// Reads every game of every shard under `paths` (in parallel, in a fixed order).
pub fn load(paths: &[PathBuf], validation_every: u64) -> Result<Dataset, DataError> {
    let sources: Vec<Source> = paths.iter().map(Source::new).collect();
    load_sources(&sources, validation_every)
}

/// [`load`] with each source's scores rescaled by its factor.
pub fn load_sources(sources: &[Source], validation_every: u64) -> Result<Dataset, DataError> {
    use rayon::prelude::*;
    let mut files = Vec::new();
    for source in sources {
        files.extend(
            shard_paths(&source.path)?
                .into_iter()
                .map(|f| (f, source.score_factor)),
        );
    }
    let shards: Vec<Result<(Vec<GameData>, f32), DataError>> = files
        .par_iter()
        .map(|(f, factor)| read_shard(f).map(|games| (games, *factor)))
        .collect();
    let mut data = Dataset::default();
    for shard in shards {
        let (games, factor) = shard?;
        for g in games {
            data.add_game(&g, validation_every, factor);
        }
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shatranj_chess::Position;

    #[test]
    fn a_mirrored_sample_is_the_position_flipped_from_side_to_side() {
        let sample = |fen: &str| {
            Sample::from_position(&TrainingPosition {
                position: fen.parse().unwrap(),
                score: 33,
                winner: None,
                wdl: None,
            })
        };
        let sorted = |s: &Sample| {
            let mut v = s.white[..usize::from(s.count)].to_vec();
            v.sort_unstable();
            v
        };
        let a = sample("4k3/1p6/8/8/8/8/6P1/R3K3 b - - 0 1").mirrored();
        let b = sample("3k4/6p1/8/8/8/8/1P6/3K3R b - - 0 1");
        assert_eq!(sorted(&a), sorted(&b));
        assert_eq!((a.score, a.black_to_move), (b.score, b.black_to_move));
        assert_eq!(a.mirrored().mirrored(), a);
    }

    #[test]
    fn views_swap_with_the_side_to_move() {
        let pos: Position = "4k3/8/8/8/8/8/8/R3K3 b Q - 0 1".parse().unwrap();
        let s = Sample::from_position(&TrainingPosition {
            position: pos,
            score: -120,
            winner: Some(Color::White),
            wdl: None,
        });
        assert_eq!((s.count, s.black_to_move, s.result), (3, true, 0));
        let (us, them, n) = s.views(&Inputs::Plain);
        let (w, b) = active_features(&pos);
        let sorted = |v: &[u16]| {
            let mut v: Vec<usize> = v[..n].iter().map(|&f| usize::from(f)).collect();
            v.sort_unstable();
            v
        };
        let sorted_usize = |mut v: Vec<usize>| {
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&us), sorted_usize(b));
        assert_eq!(sorted(&them), sorted_usize(w));
    }

    #[test]
    fn a_source_scales_its_scores_and_nothing_else() {
        let tiny = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiny.sgd");
        let plain = load(&[tiny.into()], 10).unwrap();
        let source: Source = format!("{tiny}=0.73").parse().unwrap();
        assert_eq!(source.path, PathBuf::from(tiny));
        let scaled = load_sources(&[source], 10).unwrap();
        assert_eq!(plain.games, scaled.games);
        assert_eq!(plain.validation_classical, scaled.validation_classical);
        let pairs = plain
            .train
            .iter()
            .zip(&scaled.train)
            .chain(plain.validation.iter().zip(&scaled.validation));
        let mut changed = 0;
        for (p, s) in pairs {
            assert_eq!((p.white, p.count, p.result), (s.white, s.count, s.result));
            assert_eq!(s.score, (f32::from(p.score) * 0.73).round() as i16);
            changed += usize::from(p.score != s.score);
        }
        assert!(changed > 0, "no score changed");
        assert_eq!(plain.train.len(), scaled.train.len());
        assert_eq!(rescale(30_000, 2.0), 32_000);
        assert_eq!(rescale(-30_000, 2.0), -32_000);
    }

    #[test]
    fn sources_parse_a_path_and_an_optional_factor() {
        assert_eq!("data/a".parse::<Source>().unwrap(), Source::new("data/a"));
        let s: Source = "data/gen1=0.73".parse().unwrap();
        assert_eq!((s.path, s.score_factor), (PathBuf::from("data/gen1"), 0.73));
        for bad in [
            "data/a=",
            "data/a=x",
            "data/a=0",
            "data/a=11",
            "data/a=NaN",
            "=0.5",
        ] {
            let e = bad.parse::<Source>().unwrap_err();
            assert!(e.starts_with(bad), "{bad}: {e}");
        }
    }
}
