//! Deadlines the timing rules hold answers to: what the GUI in use waits before it gives up.
//!
//! The values are the default timeouts of the existing tools, read from their sources. The
//! protocol texts set almost none (CECP's feature window of 2 s, or an hour after `done=0`),
//! so `spec` judges only those; the others are what each runner does.

use crate::rules::catalogue::RuleId;
use serde::Serialize;
use std::time::Duration;

/// A named set of deadlines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Profile {
    pub name: &'static str,
    /// `uci` → `uciok`.
    pub uciok: Option<Duration>,
    /// `isready` → `readyok`, `ping` → `pong`.
    pub ping: Option<Duration>,
    /// `stop` (or the end of a `movetime`) → `bestmove`.
    pub after_stop: Option<Duration>,
    /// `protover 2` → `feature done=1` (an hour once the engine sent `done=0`).
    pub features: Option<Duration>,
    /// `quit` → the process exits.
    pub quit: Option<Duration>,
    /// What a timed search may overrun (`movetime`, `st`) before its answer is late.
    pub overrun: Duration,
    /// Engine lines per second, sustained over a second, above which output is a flood.
    pub flood_lines_per_second: u32,
    /// A GUI waiting longer than this without doing anything has no watchdog.
    pub watchdog: Duration,
}

const fn secs(s: u64) -> Option<Duration> {
    Some(Duration::from_secs(s))
}

impl Profile {
    pub const NAMES: [&'static str; 5] =
        ["spec", "xboard", "cutechess", "fastchess", "python-chess"];

    /// The profile `check` uses when none is named: cutechess, the most common runner, whose
    /// deadlines are neither the strictest nor the most lenient.
    pub fn default_profile() -> Profile {
        Profile::named("cutechess").unwrap_or_else(Profile::spec)
    }

    fn spec() -> Profile {
        Profile {
            name: "spec",
            uciok: None,
            ping: None,
            after_stop: None,
            features: secs(2),
            quit: None,
            overrun: Duration::from_millis(500),
            flood_lines_per_second: 1000,
            watchdog: Duration::from_secs(60),
        }
    }

    pub fn named(name: &str) -> Option<Profile> {
        let spec = Profile::spec();
        Some(match name.to_ascii_lowercase().as_str() {
            "spec" | "strict-spec" => spec,
            "xboard" | "winboard" => Profile {
                name: "xboard",
                // xboard 4.9's FEATURE_TIMEOUT is 10000 ms (common.h; older releases had
                // 1000), and XBoard 4.9.1 was seen waiting the 10 s for a silent GNU Chess;
                // it tracks pings but sets no deadline.
                features: Some(Duration::from_millis(10_000)),
                ..spec
            },
            "cutechess" | "cutechess-cli" => Profile {
                name: "cutechess",
                uciok: secs(35),
                ping: secs(15),
                after_stop: secs(15),
                features: secs(8),
                quit: secs(5),
                ..spec
            },
            "fastchess" => Profile {
                name: "fastchess",
                uciok: secs(10),
                ping: secs(60),
                after_stop: secs(10),
                quit: secs(60),
                ..spec
            },
            "python-chess" | "python_chess" | "lichess-bot" => Profile {
                name: "python-chess",
                uciok: secs(10),
                after_stop: secs(10),
                features: secs(2),
                ..spec
            },
            _ => return None,
        })
    }
}

impl Profile {
    /// What a rule weighs under this GUI, where that differs from the catalogue: python-chess
    /// refuses CECP engines without `ping` (and `setboard`), so there the missing feature is
    /// an error.
    pub fn severity_of(&self, rule: RuleId) -> Option<super::catalogue::Severity> {
        use super::catalogue::Severity;
        match (self.name, rule) {
            ("python-chess", RuleId::CecpPingNotDeclared) => Some(Severity::Error),
            _ => None,
        }
    }

    /// Applies [`Profile::severity_of`] to findings.
    /// How long this GUI waits for the answer to a request of `kind`, when it sets a limit.
    pub fn allowed(&self, kind: crate::session::Request) -> Option<std::time::Duration> {
        use crate::session::Request;
        match kind {
            Request::Uci => self.uciok,
            Request::IsReady | Request::Ping => self.ping,
            Request::Stop => self.after_stop,
            Request::Protover => self.features,
            _ => None,
        }
    }

    pub fn adjust(&self, findings: &mut [super::finding::Finding]) {
        for f in findings {
            if let Some(s) = self.severity_of(f.rule) {
                f.severity = s;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_profile_exists_and_differs_where_the_tools_do() {
        for n in Profile::NAMES {
            assert_eq!(Profile::named(n).map(|p| p.name), Some(n));
        }
        assert!(Profile::named("arena").is_none());
        assert_eq!(Profile::named("cutechess").unwrap().ping, secs(15));
        assert_eq!(Profile::named("fastchess").unwrap().ping, secs(60));
        assert_eq!(Profile::named("spec").unwrap().ping, None);
        assert_eq!(Profile::default_profile().name, "cutechess");
    }
}
