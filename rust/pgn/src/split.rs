//! Where one game's text ends and the next begins, decided line by line.
//!
//! A game is its tag section and movetext; it ends at a blank line outside a comment (as in
//! python-chess) or at the end of the input. Two recoveries go further than python-chess,
//! which would merge games: a tag-pair line where movetext was expected starts the next game
//! (a file that lost the blank line between games), and so does a tag-pair line after a blank
//! line inside a `{` comment (a comment never closed would otherwise swallow the rest of
//! the file).

/// What to do with a line just fed to a [`GameSplitter`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LineAction {
    /// Outside any game (blank lines and `%` lines between games): drop it.
    Skip,
    /// Part of the current game: keep it.
    Take,
    /// The current game ended with this line (a blank line), which belongs to no game.
    End,
    /// The current game ended before this line, which begins the next game: finish the game,
    /// then feed the same line again.
    EndBefore,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    BetweenGames,
    Tags { blank: bool },
    Movetext,
}

/// The line-by-line state machine that splits PGN text into games.
#[derive(Clone, Debug)]
pub struct GameSplitter {
    state: State,
    in_comment: bool,
    blank_in_comment: bool,
    first_line: bool,
}

impl Default for GameSplitter {
    fn default() -> Self {
        GameSplitter::new()
    }
}

/// The raw text of one game, with the line number its first line had in the input.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RawGame {
    pub text: String,
    pub first_line: usize,
}

fn is_blank(line: &str) -> bool {
    line.trim().is_empty()
}

/// A line that looks like a tag pair: `[Name "value"]`.
pub(crate) fn looks_like_tag(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('[') && t.ends_with(']') && t.contains('"')
}

impl GameSplitter {
    pub fn new() -> GameSplitter {
        GameSplitter {
            state: State::BetweenGames,
            in_comment: false,
            blank_in_comment: false,
            first_line: true,
        }
    }

    /// A splitter for text that does not start the input (no byte-order mark to drop).
    pub(crate) fn not_first_line(&mut self) {
        self.first_line = false;
    }

    /// Whether a game has begun and not yet ended.
    pub fn in_game(&self) -> bool {
        self.state != State::BetweenGames
    }

    /// Decides what `line` (with or without its line break) is. After `End` or `EndBefore`
    /// the splitter is between games.
    pub fn feed(&mut self, line: &str) -> LineAction {
        let line = if self.first_line {
            self.first_line = false;
            line.trim_start_matches('\u{feff}')
        } else {
            line
        };
        match self.state {
            State::BetweenGames => {
                if is_blank(line) || line.starts_with('%') {
                    return LineAction::Skip;
                }
                if line.starts_with('[') {
                    self.state = State::Tags { blank: false };
                    LineAction::Take
                } else {
                    self.state = State::Movetext;
                    self.scan(line);
                    LineAction::Take
                }
            }
            State::Tags { blank } => {
                if line.starts_with('%') {
                    LineAction::Take
                } else if is_blank(line) {
                    // One blank line may separate tags from tags or from the movetext; a
                    // second one ends a game that has no movetext.
                    if blank {
                        self.end()
                    } else {
                        self.state = State::Tags { blank: true };
                        LineAction::Take
                    }
                } else if line.starts_with('[') {
                    self.state = State::Tags { blank: false };
                    LineAction::Take
                } else {
                    self.state = State::Movetext;
                    self.scan(line);
                    LineAction::Take
                }
            }
            State::Movetext => {
                if self.in_comment {
                    if is_blank(line) {
                        self.blank_in_comment = true;
                        return LineAction::Take;
                    }
                    if self.blank_in_comment && looks_like_tag(line) {
                        return self.end_before();
                    }
                    self.blank_in_comment = false;
                    self.scan(line);
                    return LineAction::Take;
                }
                if is_blank(line) {
                    self.end()
                } else if line.starts_with('%') {
                    LineAction::Take
                } else if looks_like_tag(line) {
                    self.end_before()
                } else {
                    self.scan(line);
                    LineAction::Take
                }
            }
        }
    }

    fn end(&mut self) -> LineAction {
        self.reset();
        LineAction::End
    }

    fn end_before(&mut self) -> LineAction {
        self.reset();
        LineAction::EndBefore
    }

    fn reset(&mut self) {
        self.state = State::BetweenGames;
        self.in_comment = false;
        self.blank_in_comment = false;
    }

    /// Follows `{ … }` comments through a movetext line (`;` comments end the line), as the
    /// lexer will read them. Jumps between the three bytes that matter (a movetext line of a
    /// database game is a few thousand bytes, read here once more before the parse).
    fn scan(&mut self, line: &str) {
        let mut rest = line.as_bytes();
        if memchr::memchr(b';', rest).is_none() {
            // Without `;` the state after the line is the last brace's: after a `{` the
            // line ends inside a comment whether or not it began in one, after a `}` outside
            // (a `}` outside a comment is a stray word). Two passes over the line instead of
            // one search per comment.
            if let Some(i) = memchr::memrchr2(b'{', b'}', rest) {
                self.in_comment = rest[i] == b'{';
            }
            return;
        }
        loop {
            if self.in_comment {
                match find_byte(b'}', rest) {
                    Some(i) => {
                        self.in_comment = false;
                        rest = &rest[i + 1..];
                    }
                    None => return,
                }
            } else {
                match find_open_or_semicolon(rest) {
                    Some(i) if rest[i] == b'{' => {
                        self.in_comment = true;
                        rest = &rest[i + 1..];
                    }
                    _ => return,
                }
            }
        }
    }
}

fn find_byte(b: u8, hay: &[u8]) -> Option<usize> {
    memchr::memchr(b, hay)
}

fn find_open_or_semicolon(hay: &[u8]) -> Option<usize> {
    memchr::memchr2(b'{', b';', hay)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte-at-a-time scan the fast one replaces.
    fn scan_slowly(mut in_comment: bool, line: &str) -> bool {
        for b in line.bytes() {
            if in_comment {
                if b == b'}' {
                    in_comment = false;
                }
            } else if b == b'{' {
                in_comment = true;
            } else if b == b';' {
                break;
            }
        }
        in_comment
    }

    /// The comment state after a line is the same as scanning it byte by byte, over random
    /// lines of braces, semicolons and text (fixed seed).
    #[test]
    fn scan_matches_the_byte_loop() {
        let seed = 0x0005_DEEC_E66D_u64;
        println!("splitter scan seed {seed:#x}");
        let mut next = crate::xorshift(seed);
        let alphabet = b"{};ab ";
        for _ in 0..20_000 {
            let len = (next() % 24) as usize;
            let line: String = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize] as char)
                .collect();
            for start in [false, true] {
                let mut s = GameSplitter::new();
                s.in_comment = start;
                s.scan(&line);
                assert_eq!(s.in_comment, scan_slowly(start, &line), "{line:?} {start}");
            }
        }
    }
}
