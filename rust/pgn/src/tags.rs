//! Tag pairs: `[Name "value"]`.
//!
//! Names follow python-chess's pattern (a letter or digit, then letters, digits and
//! `_ + # = : -`). In values `\"` and `\\` are the PGN standard's escapes; the writer escapes
//! the same two characters, so a value survives a round trip.

/// Parses one tag-pair line; `None` when it is not one.
pub fn parse_tag(line: &str) -> Option<(String, String)> {
    let (name, value) = split_tag(line)?;
    let mut out = String::with_capacity(value.len());
    unescape_into(value, &mut out);
    Some((name.to_owned(), out))
}

/// The common spelling, `[Name "value"]` with nothing around it and no escape in the value,
/// read bytewise; `None` for anything else (which [`split_tag`] reads, or refuses).
fn plain_tag(line: &str) -> Option<(&str, &str)> {
    let b = line.as_bytes();
    if b.len() < 5 || b[0] != b'[' || !b.ends_with(b"\"]") {
        return None;
    }
    let name_len = b[1..]
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || b"_+#=:-".contains(&c))
        .count();
    let open = 1 + name_len;
    if open + 2 > b.len() - 2
        || name_len == 0
        || !b[1].is_ascii_alphanumeric()
        || b.get(open..open + 2) != Some(b" \"")
    {
        return None;
    }
    let value = &b[open + 2..b.len() - 2];
    if value.contains(&b'\\') {
        return None;
    }
    // Byte offsets at ASCII characters: both are char boundaries.
    Some((&line[1..open], &line[open + 2..b.len() - 2]))
}

/// A tag-pair line's name and its value as written (escapes still in it).
fn split_tag(line: &str) -> Option<(&str, &str)> {
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
    Some((name, value))
}

/// Appends `value` with its `\"` and `\\` escapes undone.
fn unescape_into(value: &str, out: &mut String) {
    if !value.contains('\\') {
        out.push_str(value);
        return;
    }
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some('"' | '\\')) {
            out.extend(chars.next());
        } else {
            out.push(c);
        }
    }
}

/// A game's tag pairs, in order. Names and values lie one after another in one text, so a
/// game's tags cost two allocations however many there are (a lichess game has 17; a
/// `String` each for names and values was a third of the reader's allocations).
#[derive(Clone, Default)]
pub struct Tags {
    text: String,
    /// For each pair, where its name ends and where its value ends in `text` (a name
    /// begins where the previous value ended).
    ends: Vec<(u32, u32)>,
}

impl Tags {
    pub fn new() -> Tags {
        Tags::default()
    }

    /// Room for `pairs` pairs of `bytes` bytes in all.
    pub fn with_capacity(bytes: usize, pairs: usize) -> Tags {
        Tags {
            text: String::with_capacity(bytes),
            ends: Vec::with_capacity(pairs),
        }
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Removes every pair, keeping the room.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// The pairs in order.
    pub fn iter(&self) -> TagIter<'_> {
        TagIter {
            tags: self,
            index: 0,
            start: 0,
        }
    }

    /// The value of the first tag called `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|&(k, _)| k == name).map(|(_, v)| v)
    }

    /// Adds a pair at the end (an existing one of that name stays).
    pub fn push(&mut self, name: &str, value: &str) {
        self.text.push_str(name);
        let name_end = Self::end(self.text.len());
        self.text.push_str(value);
        self.ends.push((name_end, Self::end(self.text.len())));
    }

    /// Adds the pair a tag-pair line holds; false (nothing added) when it is not one.
    pub fn push_line(&mut self, line: &str) -> bool {
        if let Some((name, value)) = plain_tag(line) {
            self.push(name, value);
            return true;
        }
        let Some((name, value)) = split_tag(line) else {
            return false;
        };
        self.text.push_str(name);
        let name_end = Self::end(self.text.len());
        unescape_into(value, &mut self.text);
        self.ends.push((name_end, Self::end(self.text.len())));
        true
    }

    /// Sets a tag: replaces the first one of that name, or adds it at the end.
    pub fn set(&mut self, name: &str, value: &str) {
        if self.get(name).is_none() {
            self.push(name, value);
            return;
        }
        let mut out = Tags::new();
        let mut done = false;
        for (k, v) in self.iter() {
            if k == name && !done {
                out.push(k, value);
                done = true;
            } else {
                out.push(k, v);
            }
        }
        *self = out;
    }

    /// The pairs as owned strings.
    pub fn to_vec(&self) -> Vec<(String, String)> {
        self.iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect()
    }

    fn end(at: usize) -> u32 {
        u32::try_from(at).expect("tags under 4 GB per game")
    }
}

impl<K: AsRef<str>, V: AsRef<str>> FromIterator<(K, V)> for Tags {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(pairs: I) -> Tags {
        let mut tags = Tags::new();
        for (k, v) in pairs {
            tags.push(k.as_ref(), v.as_ref());
        }
        tags
    }
}

/// Tags are equal when their pairs are, in order (the text's layout does not count).
impl PartialEq for Tags {
    fn eq(&self, other: &Tags) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Tags {}

impl std::fmt::Debug for Tags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// The pairs of [`Tags`], in order.
pub struct TagIter<'a> {
    tags: &'a Tags,
    index: usize,
    start: usize,
}

impl<'a> Iterator for TagIter<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<(&'a str, &'a str)> {
        let &(name_end, value_end) = self.tags.ends.get(self.index)?;
        let (name_end, value_end) = (name_end as usize, value_end as usize);
        let text = &self.tags.text;
        let pair = (&text[self.start..name_end], &text[name_end..value_end]);
        self.index += 1;
        self.start = value_end;
        Some(pair)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.tags.ends.len() - self.index;
        (left, Some(left))
    }
}

impl ExactSizeIterator for TagIter<'_> {}

impl<'a> IntoIterator for &'a Tags {
    type Item = (&'a str, &'a str);
    type IntoIter = TagIter<'a>;

    fn into_iter(self) -> TagIter<'a> {
        self.iter()
    }
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
            ("[Event \"\"]", Some(("Event", ""))),
            ("[Event \"]", None),
            ("[E \"]", None),
            ("[Event \"\"\"]", Some(("Event", "\""))),
            ("[Event  \"two spaces\"]", Some(("Event", "two spaces"))),
            ("[Ev\u{e9}nt \"x\"]", None),
            ("[Event \"caf\u{e9}\"]", Some(("Event", "caf\u{e9}"))),
        ];
        for &(line, want) in cases {
            if let Some(plain) = plain_tag(line) {
                assert_eq!(Some(plain), want, "{line}");
            }
            let got = parse_tag(line);
            let want = want.map(|(k, v)| (k.to_owned(), v.to_owned()));
            assert_eq!(got, want, "{line}");
        }
    }

    /// Tags keep their pairs in order, find the first of a name, and replace in place.
    #[test]
    fn tags_hold_pairs_in_order() {
        let mut tags = Tags::new();
        assert!(tags.push_line("[Event \"A \\\"B\\\"\"]"));
        assert!(!tags.push_line("[Event x]"));
        tags.push("Site", "");
        tags.push("Event", "second");
        assert_eq!(tags.len(), 3);
        assert_eq!(tags.get("Event"), Some("A \"B\""));
        assert_eq!(tags.get("Site"), Some(""));
        assert_eq!(tags.get("Round"), None);
        tags.set("Event", "new");
        tags.set("Round", "1");
        let want = [
            ("Event", "new"),
            ("Site", ""),
            ("Event", "second"),
            ("Round", "1"),
        ];
        assert_eq!(tags.iter().collect::<Vec<_>>(), want);
        assert_eq!(tags, want.into_iter().collect::<Tags>());
        assert_ne!(tags, want[..3].iter().copied().collect::<Tags>());
        assert_eq!(format!("{tags:?}").matches("Event").count(), 2);
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
