//! Tag pairs: `[Name "value"]`.
//!
//! Names follow python-chess's pattern (a letter or digit, then letters, digits and
//! `_ + # = : -`). In values `\"` and `\\` are the PGN standard's escapes; the writer escapes
//! the same two characters, so a value survives a round trip.

/// Parses one tag-pair line; `None` when it is not one.
pub fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let name_len = inner
        .bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b))
        .count();
    let name = &inner[..name_len];
    if !name.bytes().next()?.is_ascii_alphanumeric() {
        return None;
    }
    let rest = &inner[name_len..];
    let quoted = rest.trim_start();
    if quoted.len() == rest.len() {
        return None;
    }
    let value = quoted.strip_prefix('"')?.trim_end().strip_suffix('"')?;
    Some((name.to_owned(), unescape(value)))
}

fn unescape(value: &str) -> String {
    if !value.contains('\\') {
        return value.to_owned();
    }
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some('"' | '\\')) {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
    out
}

/// A value with `\` and `"` escaped and control characters turned into spaces, for writing.
pub fn escape(value: &str) -> std::borrow::Cow<'_, str> {
    if value.contains(|c: char| c == '\\' || c == '"' || c.is_control()) {
        let mut out = String::with_capacity(value.len() + 2);
        for c in value.chars() {
            match c {
                '\\' | '"' => {
                    out.push('\\');
                    out.push(c);
                }
                // A tag lies on one line: a line break or other control character cannot
                // be written inside it.
                c if c.is_control() => out.push(' '),
                c => out.push(c),
            }
        }
        out.into()
    } else {
        value.into()
    }
}

/// Whether `name` may be written as a tag name.
pub fn is_tag_name(name: &str) -> bool {
    name.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_+#=:-".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tag pairs as real files write them, and lines that are not tag pairs.
    #[test]
    fn tag_lines() {
        let cases: &[(&str, Option<(&str, &str)>)] = &[
            (
                "[Event \"F/S Return Match\"]",
                Some(("Event", "F/S Return Match")),
            ),
            ("[Site   \"\"]  ", Some(("Site", ""))),
            (
                "[White \"Say \\\"hi\\\" \\\\o/\"]",
                Some(("White", "Say \"hi\" \\o/")),
            ),
            ("[Annotator \"C:\\dir\"]", Some(("Annotator", "C:\\dir"))),
            ("[Event\"x\"]", None),
            ("[Event x]", None),
            ("[ \"x\"]", None),
            ("[Event \"x\"", None),
            ("Event \"x\"]", None),
            ("[_x \"y\"]", None),
        ];
        for &(line, want) in cases {
            let got = parse_tag(line);
            let want = want.map(|(k, v)| (k.to_owned(), v.to_owned()));
            assert_eq!(got, want, "{line}");
        }
    }

    #[test]
    fn escape_round_trips() {
        for v in ["plain", "a \"quote\"", "back\\slash", "\\\""] {
            let line = format!("[X \"{}\"]", escape(v));
            assert_eq!(parse_tag(&line), Some(("X".to_owned(), v.to_owned())));
        }
        assert!(is_tag_name("FEN") && is_tag_name("1a_+#=:-") && !is_tag_name("_x"));
        assert!(!is_tag_name("") && !is_tag_name("a b"));
    }
}
