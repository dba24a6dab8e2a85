//! Training samples: datagen's positions as feature lists, scores and results, split by game
//! into a training and a validation set.

use shatranj_chess::Color;
use shatranj_engine::datagen::{DataError, GameData, TrainingPosition, read_shard};
use shatranj_engine::eval::evaluate;
use shatranj_engine::nnue::{active_features, black_view};
use shatranj_engine::params::DEFAULT_PARAMS;
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

    /// The features of the side to move's view and of the other side's.
    #[inline]
    pub fn views(&self) -> ([u16; 32], [u16; 32], usize) {
        let n = usize::from(self.count);
        let mut black = [0u16; 32];
        for (b, &w) in black.iter_mut().zip(&self.white[..n]) {
            *b = black_view(usize::from(w)) as u16;
        }
        if self.black_to_move {
            (black, self.white, n)
        } else {
            (self.white, black, n)
        }
    }

    /// The same position with the board flipped from side to side (files a↔h): as good a
    /// training position, with the same score and result, since castling rights are not
    /// among the inputs (the rules are symmetric under the flip otherwise).
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
    pub fn add_game(&mut self, game: &GameData, validation_every: u64) {
        self.games += 1;
        let to_validation = validation_every > 0 && game.index.is_multiple_of(validation_every);
        if to_validation {
            for t in game.training_positions() {
                self.validation.push(Sample::from_position(&t));
                let cp = evaluate(&DEFAULT_PARAMS, &t.position).clamp(-32_000, 32_000);
                self.validation_classical.push(cp as i16);
            }
        } else {
            self.train
                .extend(game.training_positions().map(|t| Sample::from_position(&t)));
        }
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
    use rayon::prelude::*;
    let mut files = Vec::new();
    for p in paths {
        files.extend(shard_paths(p)?);
    }
    let shards: Vec<Result<Vec<GameData>, DataError>> =
        files.par_iter().map(|f| read_shard(f)).collect();
    let mut data = Dataset::default();
    for games in shards {
        for g in games? {
            data.add_game(&g, validation_every);
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
            })
        };
        let sorted = |s: &Sample| {
            let mut v = s.white[..usize::from(s.count)].to_vec();
            v.sort();
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
        });
        assert_eq!((s.count, s.black_to_move, s.result), (3, true, 0));
        let (us, them, n) = s.views();
        let (w, b) = active_features(&pos);
        let sorted = |v: &[u16]| {
            let mut v: Vec<usize> = v[..n].iter().map(|&f| usize::from(f)).collect();
            v.sort();
            v
        };
        let sorted_usize = |mut v: Vec<usize>| {
            v.sort();
            v
        };
        assert_eq!(sorted(&us), sorted_usize(b));
        assert_eq!(sorted(&them), sorted_usize(w));
    }
}
