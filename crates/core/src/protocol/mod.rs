//! Line -> typed message, for UCI, CECP (xboard/WinBoard v1 and v2) and NBoard, both directions.
//!
//! Sans-IO: [`parse`] is a pure function of (protocol, direction, line). Parsing never fails:
//! unparseable input becomes an `Unknown` message, and whatever was off on the line (missing or
//! garbled values, skipped tokens, legacy forms) is reported as [`Diagnostic`]s next to the
//! message. Every message prints back (`Display`) in the protocol's canonical form, and parsing
//! that form gives the same message again.
//!
//! The caller keeps the raw line next to the message; messages only keep what they mean.

pub mod c2w;
pub mod cecp;
mod cecp_engine;
mod cecp_gui;
pub mod detect;
mod json;
pub mod nboard;
pub mod tokens;
pub mod uci;
mod uci_info;
/// The keywords of a UCI `info` line, for code that masks or compares info lines.
pub use uci_info::INFO_KEYWORDS;

use std::fmt;

pub use detect::{Detection, Detector, detect};
pub use tokens::Moves;

/// The wire protocols kibitzer decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Protocol {
    Uci,
    /// CECP: the Chess Engine Communication Protocol of xboard/WinBoard (v1 and v2).
    Cecp,
    /// NBoard (Othello).
    Nboard,
}

impl Protocol {
    pub const ALL: [Protocol; 3] = [Protocol::Uci, Protocol::Cecp, Protocol::Nboard];

    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Cecp => "xboard",
            Protocol::Nboard => "nboard",
        }
    }

    /// Accepts the names users type: `uci`, `xboard` / `cecp` / `winboard`, `nboard`.
    pub fn from_name(name: &str) -> Option<Protocol> {
        let n = name.trim();
        if n.eq_ignore_ascii_case("uci") {
            Some(Protocol::Uci)
        } else if ["xboard", "cecp", "winboard", "wb"]
            .iter()
            .any(|k| n.eq_ignore_ascii_case(k))
        {
            Some(Protocol::Cecp)
        } else if n.eq_ignore_ascii_case("nboard") {
            Some(Protocol::Nboard)
        } else {
            None
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Direction of a line on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// GUI to engine.
    ToEngine,
    /// Engine to GUI.
    FromEngine,
}

/// Something that was off on a line: the message was still decoded as well as possible.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// The catalogue rule it breaks, when more specific than the protocol's `*-SYNTAX`.
    pub rule: Option<crate::rules::catalogue::RuleId>,
    pub message: String,
}

impl Diagnostic {
    pub fn new(message: impl Into<String>) -> Self {
        Diagnostic {
            rule: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Writes `word`, then ` text` unless text is empty (the printers' common shape).
pub(crate) fn word_text(f: &mut fmt::Formatter<'_>, word: &str, text: &str) -> fmt::Result {
    if text.is_empty() {
        f.write_str(word)
    } else {
        write!(f, "{word} {text}")
    }
}

/// Adds a diagnostic of the protocol's syntax rule; the helper keeps parser code short.
pub(crate) fn diag(out: &mut Vec<Diagnostic>, message: impl Into<String>) {
    out.push(Diagnostic::new(message));
}

/// Adds a diagnostic of a specific catalogue rule.
pub(crate) fn diag_rule(
    out: &mut Vec<Diagnostic>,
    rule: crate::rules::catalogue::RuleId,
    message: impl Into<String>,
) {
    out.push(Diagnostic {
        rule: Some(rule),
        message: message.into(),
    });
}

/// Runs a parser and files what it found from `rule` (its diagnostics all concern one rule of
/// the catalogue, e.g. the feature syntax).
pub(crate) fn under_rule<T>(
    d: &mut Vec<Diagnostic>,
    rule: crate::rules::catalogue::RuleId,
    parse: impl FnOnce(&mut Vec<Diagnostic>) -> T,
) -> T {
    let from = d.len();
    let v = parse(d);
    for x in &mut d[from..] {
        x.rule.get_or_insert(rule);
    }
    v
}

/// A decoded line of any protocol.
#[derive(Debug, Clone, PartialEq)]
pub enum Msg {
    Uci(uci::Msg),
    Cecp(cecp::Msg),
    Nboard(nboard::Msg),
}

impl Msg {
    /// Short stable name of the message kind, for display and filtering (`go`, `bestmove`,
    /// `info`, `feature`, `unknown`...).
    pub fn kind(&self) -> &'static str {
        match self {
            Msg::Uci(m) => m.kind(),
            Msg::Cecp(m) => m.kind(),
            Msg::Nboard(m) => m.kind(),
        }
    }

    pub fn protocol(&self) -> Protocol {
        match self {
            Msg::Uci(_) => Protocol::Uci,
            Msg::Cecp(_) => Protocol::Cecp,
            Msg::Nboard(_) => Protocol::Nboard,
        }
    }

    /// True for lines the parser could not make sense of.
    pub fn is_unknown(&self) -> bool {
        self.kind() == "unknown"
    }
}

impl fmt::Display for Msg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Msg::Uci(m) => m.fmt(f),
            Msg::Cecp(m) => m.fmt(f),
            Msg::Nboard(m) => m.fmt(f),
        }
    }
}

/// Decodes one line (without its line terminator; a trailing `\r` is tolerated).
pub fn parse(protocol: Protocol, dir: Dir, line: &str) -> (Msg, Vec<Diagnostic>) {
    parse_reusing(protocol, dir, line, &mut Spare::default())
}

/// Buffers of messages the caller is done with, for the next lines to reuse: a long session
/// is mostly `info` lines, and reusing their boxes keeps the parser from allocating per line.
#[derive(Debug, Default)]
pub struct Spare {
    uci_info: uci::InfoSpare,
}

impl Spare {
    /// Keeps what `msg` owns that a later line can reuse.
    pub fn reclaim(&mut self, msg: Msg) {
        if let Msg::Uci(uci::Msg::Info(info)) = msg {
            self.uci_info.reclaim(info);
        }
    }
}

/// [`parse`], reusing what `spare` holds.
pub fn parse_reusing(
    protocol: Protocol,
    dir: Dir,
    line: &str,
    spare: &mut Spare,
) -> (Msg, Vec<Diagnostic>) {
    let mut diags = Vec::new();
    let msg = match protocol {
        Protocol::Uci => Msg::Uci(uci::parse_reusing(
            dir,
            line,
            &mut diags,
            &mut spare.uci_info,
        )),
        Protocol::Cecp => Msg::Cecp(cecp::parse(dir, line, &mut diags)),
        Protocol::Nboard => Msg::Nboard(nboard::parse(dir, line, &mut diags)),
    };
    (msg, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocol_names_round_trip_and_aliases() {
        for p in Protocol::ALL {
            assert_eq!(Protocol::from_name(p.name()), Some(p));
        }
        assert_eq!(Protocol::from_name("WinBoard"), Some(Protocol::Cecp));
        assert_eq!(Protocol::from_name("cecp"), Some(Protocol::Cecp));
        assert_eq!(Protocol::from_name("usi"), None);
    }

    #[test]
    fn parse_dispatches_by_protocol() {
        let (m, d) = parse(Protocol::Uci, Dir::FromEngine, "bestmove e2e4");
        assert_eq!(m.kind(), "bestmove");
        assert!(d.is_empty());
        let (m, _) = parse(Protocol::Cecp, Dir::FromEngine, "feature ping=1 done=1");
        assert_eq!(m.kind(), "feature");
        let (m, _) = parse(Protocol::Nboard, Dir::FromEngine, "=== F5");
        assert_eq!(m.kind(), "===");
        assert_eq!(m.to_string(), "=== F5");
    }
}
