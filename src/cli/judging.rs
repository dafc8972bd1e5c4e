//! The flags every decoding or judging command shares, spelled and checked once: clap knows
//! each enumerated value, so a typo is refused with the list of the right ones before
//! anything runs.

use crate::protocol::Protocol;
use crate::rules::{CheckOptions, FindingFilter, Profile, RuleId, Severity};
use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// A protocol named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProtocolArg {
    Uci,
    /// CECP (xboard/WinBoard)
    #[value(alias = "cecp", alias = "winboard", alias = "wb")]
    Xboard,
    Nboard,
}

impl From<ProtocolArg> for Protocol {
    fn from(p: ProtocolArg) -> Protocol {
        match p {
            ProtocolArg::Uci => Protocol::Uci,
            ProtocolArg::Xboard => Protocol::Cecp,
            ProtocolArg::Nboard => Protocol::Nboard,
        }
    }
}

/// The GUI whose deadlines apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfileArg {
    /// The protocol texts alone: no deadlines
    Spec,
    Xboard,
    Cutechess,
    Fastchess,
    PythonChess,
}

impl ProfileArg {
    pub fn profile(self) -> Profile {
        let name = match self {
            ProfileArg::Spec => "spec",
            ProfileArg::Xboard => "xboard",
            ProfileArg::Cutechess => "cutechess",
            ProfileArg::Fastchess => "fastchess",
            ProfileArg::PythonChess => "python-chess",
        };
        // Every variant names a profile (a test holds the lists together).
        Profile::named(name).unwrap_or_else(Profile::default_profile)
    }
}

/// A severity floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SeverityArg {
    Chat,
    Note,
    Warning,
    Error,
}

impl From<SeverityArg> for Severity {
    fn from(s: SeverityArg) -> Severity {
        match s {
            SeverityArg::Chat => Severity::Chat,
            SeverityArg::Note => Severity::Note,
            SeverityArg::Warning => Severity::Warning,
            SeverityArg::Error => Severity::Error,
        }
    }
}

/// `--protocol`, for every command that reads traffic.
#[derive(Args, Debug, Clone, Default)]
pub struct ProtocolFlag {
    /// Protocol of every session instead of detecting it
    #[arg(long, value_enum, ignore_case = true, value_name = "PROTOCOL")]
    pub protocol: Option<ProtocolArg>,
}

impl ProtocolFlag {
    pub fn get(&self) -> Option<Protocol> {
        self.protocol.map(Protocol::from)
    }
}

/// How findings are judged and which are shown: `check`, `decode` and `view`.
#[derive(Args, Debug, Clone)]
pub struct JudgeFlags {
    #[command(flatten)]
    pub protocol: ProtocolFlag,
    /// Deadlines of the GUI in use
    #[arg(long, value_enum, ignore_case = true, default_value = "cutechess")]
    pub profile: ProfileArg,
    /// Also hold CECP sessions to this Chess Academy `.c2w` engine profile, the one the GUI
    /// drove the engine with (the C2W- rules of docs/rules.md); a recording made with
    /// `record --c2w` is held to the profile in its header without this
    #[arg(long, value_name = "PROFILE")]
    pub c2w: Option<PathBuf>,
    /// Report only findings of this severity or worse
    #[arg(
        long,
        value_enum,
        ignore_case = true,
        value_name = "LEVEL",
        default_value = "note"
    )]
    pub min_severity: SeverityArg,
    /// Report only these rules (repeatable, or comma-separated)
    #[arg(long = "rule", value_name = "ID")]
    pub rules: Vec<String>,
    /// Leave these rules out (repeatable, or comma-separated)
    #[arg(long = "ignore", value_name = "ID")]
    pub ignore: Vec<String>,
    /// Do not check the moves of engine PVs (faster on long logs; game moves are still
    /// checked)
    #[arg(long)]
    pub no_pv_check: bool,
    /// Report every time a rule is broken; by default a rule broken again in the same session
    /// is one finding with its count and last line
    #[arg(long)]
    pub every: bool,
}

/// The options the flags ask for, with the `.c2w` profile read (its path, for reports).
pub struct Judging {
    pub options: CheckOptions,
    pub c2w_file: Option<PathBuf>,
}

impl JudgeFlags {
    pub fn judging(&self) -> Result<Judging> {
        let c2w = self.c2w.as_deref().map(super::c2w::load).transpose()?;
        let options = CheckOptions {
            protocol: self.protocol.get(),
            profile: self.profile.profile(),
            c2w: c2w.as_ref().map(|l| l.profile.clone()),
            pv_check: !self.no_pv_check,
            filter: FindingFilter {
                min: self.min_severity.into(),
                only: rule_ids(&self.rules)?,
                ignore: rule_ids(&self.ignore)?,
                replay: false,
            },
            fold_repeats: !self.every,
        };
        Ok(Judging {
            options,
            c2w_file: c2w.map(|l| l.file),
        })
    }
}

fn rule_ids(names: &[String]) -> Result<Vec<RuleId>> {
    names
        .iter()
        .flat_map(|n| n.split(','))
        .filter(|n| !n.trim().is_empty())
        .map(|n| match crate::rules::rule(n.trim()) {
            Some(r) => Ok(r.id),
            None => bail!(
                "unknown rule `{}`; the ids are listed in docs/rules.md",
                n.trim()
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_profile_flag_names_a_profile_and_every_profile_has_a_flag() {
        let names: Vec<&str> = ProfileArg::value_variants()
            .iter()
            .map(|v| {
                let p = v.profile();
                assert_eq!(
                    v.to_possible_value().map(|pv| pv.get_name().to_owned()),
                    Some(p.name.to_owned())
                );
                p.name
            })
            .collect();
        let mut want = Profile::NAMES.to_vec();
        let mut got = names.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn protocol_names_parse_as_the_protocol_module_reads_them() {
        for name in ["uci", "xboard", "cecp", "winboard", "wb", "nboard", "UCI"] {
            let arg = ProtocolArg::from_str(name, true).map(Protocol::from).ok();
            assert_eq!(arg, Protocol::from_name(name), "{name}");
        }
    }
}
