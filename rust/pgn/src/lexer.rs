//! Movetext tokens.
//!
//! The lexer cuts movetext into comments, parentheses, NAGs and words (a word is any run of
//! characters up to whitespace or one of `{ } ( ) ; $`); what a word is — a move number, a
//! result, a suffix like `!?` or SAN — is the parser's business. Lines beginning with `%` are
//! escape lines (PGN 6) and are skipped. Brace comments lose one space after `{` and one
//! before `}`, as python-chess reads them, so `{ text }` is `text`.

/// A movetext token.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `{ … }`, possibly over several lines.
    Comment(&'a str),
    /// `{` never closed: the comment ran to the end of the text.
    UnterminatedComment(&'a str),
    /// `; …` to the end of the line.
    LineComment(&'a str),
    Open,
    Close,
    /// `$` and what follows it up to the next delimiter.
    Nag(&'a str),
    Word(&'a str),
}

fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'{' | b'}' | b'(' | b')' | b';' | b'$')
}

/// Line breaks in `text` (a comment is usually a dozen bytes: a plain loop beats memchr's
/// setup).
fn newlines(text: &str) -> usize {
    text.bytes().filter(|&c| c == b'\n').count()
}

/// Tokens of `text` with the 1-based line each starts on.
pub struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    line_start: bool,
}

impl<'a> Lexer<'a> {
    /// `first_line` is the line number of the text's first line.
    pub fn new(text: &'a str, first_line: usize) -> Lexer<'a> {
        Lexer {
            text,
            pos: 0,
            line: first_line,
            line_start: true,
        }
    }

    /// The line the lexer has reached.
    pub fn line(&self) -> usize {
        self.line
    }

    fn skip_to_line_end(&mut self) -> usize {
        let bytes = self.text.as_bytes();
        let start = self.pos;
        self.pos = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        start
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = (Token<'a>, usize);

    fn next(&mut self) -> Option<(Token<'a>, usize)> {
        let bytes = self.text.as_bytes();
        loop {
            let &b = bytes.get(self.pos)?;
            if self.line_start && b == b'%' {
                self.skip_to_line_end();
                continue;
            }
            self.line_start = false;
            if b == b'\n' {
                self.pos += 1;
                self.line += 1;
                self.line_start = true;
                continue;
            }
            if b.is_ascii_whitespace() {
                self.pos += 1;
                continue;
            }
            let line = self.line;
            let start = self.pos;
            self.pos += 1;
            let token = match b {
                b'(' => Token::Open,
                b')' => Token::Close,
                b'{' => {
                    let body = &self.text[self.pos..];
                    if let Some(end) = memchr::memchr(b'}', body.as_bytes()) {
                        let inner = &body[..end];
                        self.line += newlines(inner);
                        self.pos += end + 1;
                        let inner = inner.strip_prefix(' ').unwrap_or(inner);
                        Token::Comment(inner.strip_suffix(' ').unwrap_or(inner))
                    } else {
                        self.line += newlines(body);
                        self.pos = bytes.len();
                        Token::UnterminatedComment(body)
                    }
                }
                b';' => {
                    let from = self.skip_to_line_end();
                    Token::LineComment(self.text[from..self.pos].trim())
                }
                b'}' => Token::Word("}"),
                _ => {
                    while self.pos < bytes.len() && !is_delimiter(bytes[self.pos]) {
                        self.pos += 1;
                    }
                    if b == b'$' {
                        Token::Nag(&self.text[start + 1..self.pos])
                    } else {
                        Token::Word(&self.text[start..self.pos])
                    }
                }
            };
            return Some((token, line));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Token::*;

    /// Every kind of token, with the line each starts on.
    #[test]
    fn tokens_and_lines() {
        let text = "1.e4 {a\nb } e5! ; rest of line\n% escape ( ) \n(2...Nf6$14)$3 }{ open";
        let got: Vec<_> = Lexer::new(text, 10).collect();
        let want = vec![
            (Word("1.e4"), 10),
            (Comment("a\nb"), 10),
            (Word("e5!"), 11),
            (LineComment("rest of line"), 11),
            (Open, 13),
            (Word("2...Nf6"), 13),
            (Nag("14"), 13),
            (Close, 13),
            (Nag("3"), 13),
            (Word("}"), 13),
            (UnterminatedComment(" open"), 13),
        ];
        assert_eq!(got, want);
    }

    /// One space is trimmed on each side of a brace comment, as python-chess does.
    #[test]
    fn comment_trimming() {
        for (text, want) in [
            ("{ x }", "x"),
            ("{x}", "x"),
            ("{  x  }", " x "),
            ("{ }", ""),
            ("{}", ""),
        ] {
            let got: Vec<_> = Lexer::new(text, 1).map(|(t, _)| t).collect();
            assert_eq!(got, vec![Comment(want)], "{text:?}");
        }
    }
}
