//! How completely `can_checkmate` decides the labelled set of hard dead-position cases
//! (`tests/data/dead_labelled.txt`, made by `dead_label`): of the sides that truly cannot
//! mate, the share it proves so; of those that can, how many it gets wrong (must be none);
//! and what each proof adds (the share with that proof switched off alone).
//!
//!     cargo run --release -p shatranj-chess --example dead_recall -- [FILE]

#[path = "../tests/support/labelled.rs"]
mod labelled;

use labelled::{Case, Label};
use shatranj_chess::dead::{
    DeadOptions, Proof, ProofRules, Tier, Winnability, analyse_with, winnability_with,
};
use shatranj_chess::{Budget, Color};
use std::collections::BTreeMap;
use std::time::Instant;

#[derive(Default)]
struct Tally {
    sides: usize,
    unwinnable: usize,
    beyond_material: usize,
    found: usize,
    found_beyond_material: usize,
    unsound: usize,
    helpmates: usize,
    winnable: usize,
}

impl Tally {
    fn add(&mut self, case: &Case, color: Color, answer: &Winnability) {
        self.sides += 1;
        let material = case.pos.has_insufficient_material(color);
        match (&case.labels[color.index()], answer) {
            (Label::Cannot(_), a) => {
                self.unwinnable += 1;
                self.beyond_material += usize::from(!material);
                if !a.can_checkmate() {
                    self.found += 1;
                    self.found_beyond_material += usize::from(!material);
                }
            }
            (Label::Can(_), a) => {
                self.winnable += 1;
                self.unsound += usize::from(!a.can_checkmate());
                self.helpmates += usize::from(matches!(a, Winnability::Helpmate(_)));
            }
        }
    }

    fn row(&self, name: &str) -> String {
        let pct = |a: usize, b: usize| {
            if b == 0 {
                "–".to_owned()
            } else {
                format!("{:.1}%", 100.0 * a as f64 / b as f64)
            }
        };
        format!(
            "| {name} | {} | {} | {} ({}) | {} | {} ({}) | {} | {} | {} |",
            self.sides,
            self.unwinnable,
            self.found,
            pct(self.found, self.unwinnable),
            self.beyond_material,
            self.found_beyond_material,
            pct(self.found_beyond_material, self.beyond_material),
            self.winnable,
            self.unsound,
            self.helpmates,
        )
    }
}

fn main() {
    let cases = match std::env::args().nth(1) {
        Some(path) => {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            labelled::parse(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
        }
        None => labelled::load(),
    };
    let options = DeadOptions::default();
    println!(
        "dead_recall: {} cases, quick tier {:?}, deep tier {:?}",
        cases.len(),
        options.quick,
        options.deep
    );
    println!();
    println!(
        "| kind | sides | unwinnable | found | beyond material | found | winnable | unsound | helpmate lines |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    let mut by_kind: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    let mut proofs: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut deep: Vec<u64> = Vec::new();
    let start = Instant::now();
    for case in &cases {
        for color in Color::ALL {
            let t = Instant::now();
            let analysis = analyse_with(&case.pos, color, &options);
            let ns = t.elapsed().as_nanos() as u64;
            if analysis.tier == Some(Tier::Deep) {
                deep.push(ns);
            }
            let answer = analysis.winnability;
            by_kind
                .entry(&case.kind)
                .or_default()
                .add(case, color, &answer);
            all.add(case, color, &answer);
            if let Winnability::Unwinnable(p) = answer {
                *proofs.entry(p.name()).or_default() += 1;
            } else if !case.labels[color.index()].can() {
                misses.push(format!("{} ({color:?})", case.pos.fen()));
            }
        }
    }
    let elapsed = start.elapsed();
    // Dead positions: both sides labelled "cannot", and both proved so.
    let dead = cases
        .iter()
        .filter(|c| c.labels.iter().all(|l| !l.can()))
        .collect::<Vec<_>>();
    let dead_found = dead.iter().filter(|c| c.pos.is_dead_position()).count();
    for (kind, tally) in &by_kind {
        println!("{}", tally.row(kind));
    }
    println!("{}", all.row("**all**"));
    println!();
    println!(
        "dead positions (both sides labelled cannot): {dead_found} of {} found by is_dead_position",
        dead.len()
    );
    println!(
        "{} calls in {:.2} s ({:.1} µs a call); proofs used: {}",
        all.sides,
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1e6 / all.sides as f64,
        proofs
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let deep_mean = deep.iter().sum::<u64>() as f64 / deep.len().max(1) as f64 / 1000.0;
    println!(
        "deep tier: reached by {} calls, mean {deep_mean:.1} µs a call (both tiers' time)",
        deep.len()
    );
    // What each proof adds: the share found with it switched off alone.
    let off: [(&str, DeadOptions); 5] = [
        ("material", with_rules(|r| r.material = false)),
        ("no_check", with_rules(|r| r.no_check = false)),
        (
            "no_mating_square",
            with_rules(|r| r.no_mating_square = false),
        ),
        (
            "search (both tiers)",
            DeadOptions {
                quick: Budget::NONE,
                deep: Budget::NONE,
                locked: Budget::NONE,
                ..options
            },
        ),
        (
            "deep tier",
            DeadOptions {
                deep: Budget::NONE,
                locked: Budget::NONE,
                ..options
            },
        ),
    ];
    println!();
    println!("| switched off | unwinnable sides found | unsound |");
    println!("|---|---:|---:|");
    for (name, opts) in off {
        let mut t = Tally::default();
        for case in &cases {
            for color in Color::ALL {
                t.add(case, color, &winnability_with(&case.pos, color, &opts));
            }
        }
        println!(
            "| {name} | {} of {} | {} |",
            t.found, t.unwinnable, t.unsound
        );
    }
    let _ = (Proof::GameOver, Tier::Quick);
    if !misses.is_empty() {
        println!();
        println!("unwinnable sides not found ({}):", misses.len());
        for m in misses.iter().take(40) {
            println!("  {m}");
        }
    }
}

fn with_rules(f: impl Fn(&mut ProofRules)) -> DeadOptions {
    let mut o = DeadOptions::default();
    f(&mut o.rules);
    o
}
