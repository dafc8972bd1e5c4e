//! The flags every reporting command shares, one definition so they spell and behave the same:
//! `--format text|json` and `--color auto|always|never`.

use clap::ValueEnum;
use std::io::IsTerminal;

/// `--format`: the text report, or the typed JSON one (each command's schema in `docs/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    Text,
    Json,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Whether a report written to `output` (standard output when `None` or `-`) gets
    /// colour: a file gets none unless asked for with `always`.
    pub fn enabled_for(self, output: Option<&std::path::Path>) -> bool {
        match output {
            Some(p) if p.as_os_str() != "-" => self == ColorChoice::Always,
            _ => self.enabled(),
        }
    }

    /// Whether standard output gets colour.
    pub fn enabled(self) -> bool {
        match self {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        }
    }
}
