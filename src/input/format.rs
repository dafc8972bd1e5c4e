//! `--input-format`: what the user says an input is, read once from its name.

use crate::import::LogFormat;
use anyhow::{Context, Result, bail};

/// What `--input-format` asks of an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FormatChoice {
    /// Tell a recording from a log, and the log's format, by the content.
    #[default]
    Detect,
    /// A kibitzer recording.
    Recording,
    /// A log in a format kibitzer imports.
    Log(LogFormat),
}

impl FormatChoice {
    /// `--input-format NAME`; none or `auto` to detect.
    pub fn from_name(name: Option<&str>) -> Result<FormatChoice> {
        Ok(match name {
            None | Some("auto") => FormatChoice::Detect,
            Some("recording" | "kibitzer" | "jsonl") => FormatChoice::Recording,
            Some(name) => FormatChoice::Log(LogFormat::from_name(name).with_context(|| {
                format!(
                    "unknown format `{name}`; known: recording, {}",
                    LogFormat::names().join(", ")
                )
            })?),
        })
    }

    /// The log format it names, when it names one.
    pub fn log(self) -> Option<LogFormat> {
        match self {
            FormatChoice::Log(f) => Some(f),
            FormatChoice::Detect | FormatChoice::Recording => None,
        }
    }
}

/// `--input-format NAME`, or its earlier spelling `--format NAME` (dump, import, export):
/// at most one input format.
pub fn input_format(new: Option<&str>, old: Option<&str>) -> Result<FormatChoice> {
    let name = match (new, old) {
        (Some(x), Some(y)) if x != y => {
            bail!("--input-format {x} and --format {y} name two input formats")
        }
        (x, Some(y)) => {
            if x.is_none() {
                crate::eprintln_safe!(
                    "kibitzer: --format {y} for the input is the earlier spelling of \
                     --input-format {y} (--format names the output in every command)"
                );
            }
            x.or(Some(y))
        }
        (x, None) => x,
    };
    FormatChoice::from_name(name)
}

/// The names `--format` accepts for an input, for messages.
pub fn format_names() -> String {
    format!("auto, recording, {}", LogFormat::names().join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_format_names_are_read_once_into_a_choice() {
        for (name, choice) in [
            (None, FormatChoice::Detect),
            (Some("auto"), FormatChoice::Detect),
            (Some("recording"), FormatChoice::Recording),
            (Some("jsonl"), FormatChoice::Recording),
        ] {
            assert_eq!(FormatChoice::from_name(name).ok(), Some(choice), "{name:?}");
        }
        for name in LogFormat::names() {
            let choice = FormatChoice::from_name(Some(name)).ok();
            assert!(
                choice.and_then(FormatChoice::log).is_some(),
                "{name}: {choice:?}"
            );
        }
        assert!(FormatChoice::from_name(Some("nonsense")).is_err());
        assert!(input_format(Some("recording"), Some("cutechess")).is_err());
        assert_eq!(
            input_format(Some("recording"), Some("recording")).ok(),
            Some(FormatChoice::Recording)
        );
    }
}
