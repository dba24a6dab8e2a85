//! The annotated game of a review, in lichess's form: every main-line move gets its
//! evaluation as `[%eval …]` at the head of its comment; a judged move gets its NAG (`$6`
//! inaccuracy, `$2` mistake, `$4` blunder), lichess's advice comment (`(0.32 → -1.50)
//! Mistake. Nf3 was best.`) and the engine's line as a variation; the game gets the review's
//! tags ([`TAGS`]).
//!
//! What the game already had stays: comments (less an old `[%eval]`), NAGs and variations.

use super::{GameReview, MoveReview};
use shatranj_chess::Color;
use shatranj_pgn::{PgnGame, Tags};

/// The tags a review adds (replacing any of the same name), in this order: each side's
/// accuracy with one decimal (`"87.3"`), each side's ACPL (`"23"`), and the annotator. A
/// side without a scored move gets no accuracy or ACPL tag.
pub const TAGS: [&str; 5] = [
    "WhiteAccuracy",
    "BlackAccuracy",
    "WhiteACPL",
    "BlackACPL",
    "Annotator",
];

/// The annotated copy of `game` (whose main line `review` reviewed); `annotator` names the
/// reviewer in the `Annotator` tag (none without it).
pub fn annotate(game: &PgnGame, review: &GameReview, annotator: Option<&str>) -> PgnGame {
    let mut out = game.clone();
    let mut tags = Tags::new();
    for (k, v) in &game.tags {
        if !TAGS.contains(&k) {
            tags.push(k, v);
        }
    }
    for color in Color::ALL {
        let name = color.fold_wb("White", "Black");
        if let Some(a) = review.accuracy[color.index()] {
            tags.push(&format!("{name}Accuracy"), &format!("{a:.1}"));
        }
    }
    for color in Color::ALL {
        let name = color.fold_wb("White", "Black");
        if let Some(a) = review.acpl[color.index()] {
            tags.push(&format!("{name}ACPL"), &a.to_string());
        }
    }
    if let Some(who) = annotator {
        tags.push("Annotator", who);
    }
    out.tags = tags;

    let nodes: Vec<_> = game.mainline().collect();
    for (&id, m) in nodes.iter().zip(&review.moves) {
        let old = without_eval(game.comment(id));
        let mut parts = Vec::new();
        if let Some(e) = m.after {
            parts.push(format!("[%eval {}]", e.to_pgn()));
        }
        if !old.is_empty() {
            parts.push(old);
        }
        if let Some(advice) = m.advice {
            parts.push(advice_comment(m));
            out.node_mut(id).add_nag(advice.judgement.nag());
            let parent = game.node(id).parent().unwrap_or(PgnGame::ROOT);
            let mut at = parent;
            for &x in m.pv.iter().take(VARIATION_PLIES) {
                at = out.add_child(at, x);
            }
        }
        out.set_comment(id, &parts.join(" "));
    }
    out
}

/// The longest better line written as a variation (lichess's export takes 20 plies).
pub const VARIATION_PLIES: usize = 20;

/// Lichess's advice comment (lila's `Advice.makeComment`): the evaluations before and after
/// from White's side, the judgement or the mate sequence, and the best move in SAN.
pub fn advice_comment(m: &MoveReview) -> String {
    let Some(advice) = m.advice else {
        return String::new();
    };
    let evals: Vec<String> = [m.before, m.after]
        .iter()
        .flatten()
        .map(|e| e.to_comment())
        .collect();
    let mut out = String::new();
    if !evals.is_empty() {
        out.push('(');
        out.push_str(&evals.join(" → "));
        out.push_str(") ");
    }
    out.push_str(advice.description());
    out.push('.');
    if let Some(best) = &m.best_san {
        out.push_str(&format!(" {best} was best."));
    }
    out
}

/// A comment less its `[%eval …]` commands (a review replaces them), spaces tidied.
fn without_eval(comment: &str) -> String {
    let mut out = String::with_capacity(comment.len());
    let mut rest = comment;
    while let Some(i) = rest.find("[%eval") {
        out.push_str(&rest[..i]);
        match rest[i..].find(']') {
            Some(j) => rest = &rest[i + j + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn old_evals_are_dropped() {
        assert_eq!(without_eval("[%eval 0.3] [%clk 0:01:00]"), "[%clk 0:01:00]");
        assert_eq!(without_eval("good [%eval #-2,20] move"), "good move");
        assert_eq!(without_eval(""), "");
    }
}
