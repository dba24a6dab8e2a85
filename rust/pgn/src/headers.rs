//! The fast paths that look only at a game's tag section: scanning the tags without the
//! movetext, and a filter on them that decides before any move is parsed.

use super::parse::read_tag_section;
use super::split::RawGame;
use super::tags::{Tags, parse_tag};
use core::fmt;

/// The tag pairs of a game's text, in order, without reading its movetext. Lines that are
/// not tag pairs are passed over, as [`super::parse_game`] reports them.
pub fn scan_tags(raw: &RawGame) -> Vec<(String, String)> {
    let mut tags = Vec::new();
    for line in raw.text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            tags.extend(parse_tag(line));
        } else if !(trimmed.is_empty() || line.starts_with('%')) {
            break;
        }
    }
    tags
}

/// The tag pairs of a game's text into `tags` (emptied first), without reading its movetext:
/// what [`scan_tags`] reads, in one text with spans rather than a pair of strings each.
pub fn read_tags(raw: &RawGame, tags: &mut Tags) {
    tags.clear();
    read_tag_section(raw, tags, &mut Vec::new());
}

/// How a [`Condition`] compares a tag's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Test {
    Eq(String),
    Ne(String),
    Contains(String),
    NotContains(String),
    StartsWith(String),
    /// One of these values.
    In(Vec<String>),
    /// Numeric comparisons: the tag's value must parse as a number (an `Elo` of `?` fails).
    Ge(f64),
    Gt(f64),
    Le(f64),
    Lt(f64),
}

/// One test on one tag.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub tag: String,
    pub test: Test,
}

/// Why a filter could not be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilterError {
    UnknownOperator { op: String },
    NotANumber { tag: String, value: String },
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FilterError::UnknownOperator { op } => write!(
                f,
                "unknown filter operator {op:?} (want one of == != contains !contains startswith in >= > <= <)"
            ),
            FilterError::NotANumber { tag, value } => {
                write!(f, "filter on {tag}: {value:?} is not a number")
            }
        }
    }
}

impl std::error::Error for FilterError {}

impl Condition {
    /// `op` is one of `==`, `!=`, `contains`, `!contains`, `startswith`, `>=`, `>`, `<=`,
    /// `<` (a list of values is [`Condition::one_of`]).
    pub fn new(tag: &str, op: &str, value: &str) -> Result<Condition, FilterError> {
        let number = || {
            value
                .trim()
                .parse::<f64>()
                .map_err(|_| FilterError::NotANumber {
                    tag: tag.to_owned(),
                    value: value.to_owned(),
                })
        };
        let test = match op {
            "==" | "=" => Test::Eq(value.to_owned()),
            "!=" => Test::Ne(value.to_owned()),
            "contains" => Test::Contains(value.to_owned()),
            "!contains" | "not contains" => Test::NotContains(value.to_owned()),
            "startswith" => Test::StartsWith(value.to_owned()),
            ">=" => Test::Ge(number()?),
            ">" => Test::Gt(number()?),
            "<=" => Test::Le(number()?),
            "<" => Test::Lt(number()?),
            _ => {
                return Err(FilterError::UnknownOperator { op: op.to_owned() });
            }
        };
        Ok(Condition {
            tag: tag.to_owned(),
            test,
        })
    }

    pub fn one_of(tag: &str, values: Vec<String>) -> Condition {
        Condition {
            tag: tag.to_owned(),
            test: Test::In(values),
        }
    }

    /// Whether `value` (the tag's, `None` when the game lacks the tag) passes. A missing tag
    /// passes only `!=` and `!contains`.
    pub fn accepts(&self, value: Option<&str>) -> bool {
        let Some(v) = value else {
            return matches!(self.test, Test::Ne(_) | Test::NotContains(_));
        };
        let num = || v.trim().parse::<f64>().ok();
        match &self.test {
            Test::Eq(x) => v == x,
            Test::Ne(x) => v != x,
            Test::Contains(x) => v.contains(x.as_str()),
            Test::NotContains(x) => !v.contains(x.as_str()),
            Test::StartsWith(x) => v.starts_with(x.as_str()),
            Test::In(xs) => xs.iter().any(|x| x == v),
            Test::Ge(x) => num().is_some_and(|n| n >= *x),
            Test::Gt(x) => num().is_some_and(|n| n > *x),
            Test::Le(x) => num().is_some_and(|n| n <= *x),
            Test::Lt(x) => num().is_some_and(|n| n < *x),
        }
    }
}

/// Conditions that must all hold (an empty filter takes every game).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeaderFilter {
    pub conditions: Vec<Condition>,
}

impl HeaderFilter {
    pub fn is_empty(&self) -> bool {
        self.conditions.is_empty()
    }

    /// Whether a game with these tags passes (the first tag of a name counts).
    pub fn accepts(&self, tags: &[(String, String)]) -> bool {
        self.conditions.iter().all(|c| {
            let value = tags
                .iter()
                .find(|(k, _)| *k == c.tag)
                .map(|(_, v)| v.as_str());
            c.accepts(value)
        })
    }

    /// Whether the game whose text is `raw` passes, reading only its tag section.
    pub fn accepts_raw(&self, raw: &RawGame) -> bool {
        if self.is_empty() {
            return true;
        }
        // The tags in one text (two allocations), not a pair of strings each.
        let mut tags = Tags::with_capacity(512, 24);
        read_tags(raw, &mut tags);
        self.accepts_tags(&tags)
    }

    /// Whether a game with these tags passes.
    pub fn accepts_tags(&self, tags: &Tags) -> bool {
        self.conditions.iter().all(|c| c.accepts(tags.get(&c.tag)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_tags_reads_what_scan_tags_reads() {
        let texts = [
            "[Event \"a\"]\n[Site \"b\"]\n\n1. e4 *\n",
            "[Event \"a\"]\n\n[Round \"3\"]\n% escape\n[Bad tag\n[White \"w \\\"q\\\"\"]\n1. e4\n[Black \"x\"]\n",
            "1. d4 d5 *\n",
            "",
        ];
        let mut tags = Tags::new();
        tags.push("Stale", "left from the game before");
        for text in texts {
            let raw = raw(text);
            read_tags(&raw, &mut tags);
            assert_eq!(tags.to_vec(), scan_tags(&raw), "{text:?}");
        }
    }

    fn raw(text: &str) -> RawGame {
        RawGame {
            text: text.to_owned(),
            first_line: 1,
        }
    }

    #[test]
    fn tags_without_movetext() {
        let g = raw(
            "[Event \"Rated Blitz game\"]\n%escape\n[WhiteElo \"2100\"]\n\n1. e4 [X \"y\"] *\n",
        );
        assert_eq!(
            scan_tags(&g),
            vec![
                ("Event".to_owned(), "Rated Blitz game".to_owned()),
                ("WhiteElo".to_owned(), "2100".to_owned())
            ]
        );
        assert!(scan_tags(&raw("1. e4 *\n")).is_empty());
    }

    #[test]
    fn filters() {
        let g = raw("[Event \"Rated Blitz game\"]\n[WhiteElo \"2100\"]\n[BlackElo \"?\"]\n\n*\n");
        let f = |conds: &[(&str, &str, &str)]| HeaderFilter {
            conditions: conds
                .iter()
                .map(|(t, o, v)| Condition::new(t, o, v).unwrap())
                .collect(),
        };
        assert!(
            f(&[
                ("Event", "contains", "Rated Blitz"),
                ("WhiteElo", ">=", "2000")
            ])
            .accepts_raw(&g)
        );
        assert!(
            !f(&[
                ("Event", "contains", "Rated Blitz"),
                ("WhiteElo", ">=", "2200")
            ])
            .accepts_raw(&g)
        );
        assert!(!f(&[("BlackElo", ">=", "0")]).accepts_raw(&g));
        assert!(f(&[("Site", "!=", "x")]).accepts_raw(&g));
        assert!(!f(&[("Site", "==", "x")]).accepts_raw(&g));
        assert!(f(&[]).accepts_raw(&g));
        assert!(
            HeaderFilter {
                conditions: vec![Condition::one_of(
                    "WhiteElo",
                    vec!["1".into(), "2100".into()]
                )]
            }
            .accepts_raw(&g)
        );
        assert_eq!(
            Condition::new("WhiteElo", ">=", "abc"),
            Err(FilterError::NotANumber {
                tag: "WhiteElo".into(),
                value: "abc".into()
            })
        );
        assert!(matches!(
            Condition::new("X", "~", "a"),
            Err(FilterError::UnknownOperator { .. })
        ));
    }
}
