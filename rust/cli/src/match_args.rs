//! What `shatranj match` and `shatranj tune` share on the command line: the words after the
//! subcommand, taken as they are for the match runner's fastchess-style parser
//! (`shatranj_match::options`).
//!
//! Why the words bypass clap: fastchess's syntax (one dash, then a value or `key=value`
//! pairs) is not clap's, and the runner must read the same words from a state file when
//! it resumes; so clap only collects them, hyphens and all.

/// The fastchess-style words of a match-runner command. Each command flattens it and names
/// the argument in its own help (`mut_arg("options", …)`).
#[derive(clap::Args)]
pub struct MatchWords {
    #[arg(
        value_name = "OPTION",
        num_args = 0..,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub options: Vec<String>,
}
