//! The filter bar's language (documented in docs/view.md).
//!
//! Terms separated by spaces; a line is shown when every term matches; `!` before a term
//! negates it:
//!
//! | term | matches |
//! |---|---|
//! | `gui`, `engine`, `stderr`, `proxy` | the line's sender (`>` and `<` too) |
//! | `kind:NAME` | the decoded kind (`kind:bestmove`, `kind:info`) |
//! | `rule:ID` | a finding of that rule on the line; `*` at the end matches a prefix |
//! | `sev:LEVEL` | a finding of that severity or worse (`chat`, `note`, `warning`, `error`) |
//! | `open` | a request still owed an answer at the end |
//! | `lat>X` | an answer that came more than X after its request (`lat>500ms`, `lat>2s`) |
//! | `session:N` | session N (1-based, as in the session list) |
//! | anything else | a regular expression on the text (case-insensitive); `re:X` forces it |

use super::doc::Doc;
use crate::recording::Source;
use crate::rules::Severity;
use regex::{Regex, RegexBuilder};

#[derive(Debug, Clone)]
enum Term {
    Src(Source),
    Kind(String),
    Rule { id: String, prefix: bool },
    Sev(Severity),
    Open,
    Latency(u64),
    Session(u16),
    Text(Regex),
}

/// A parsed filter.
#[derive(Debug, Clone)]
pub struct Filter {
    terms: Vec<(bool, Term)>,
}

impl Filter {
    /// Parses `text`; the error says which term is wrong and why.
    pub fn parse(text: &str) -> Result<Filter, String> {
        let mut terms = Vec::new();
        for word in text.split_ascii_whitespace() {
            let (neg, w) = match word.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, word),
            };
            terms.push((neg, term(w)?));
        }
        Ok(Filter { terms })
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn matches(&self, doc: &Doc, r: usize) -> bool {
        self.terms
            .iter()
            .all(|(neg, t)| term_matches(t, doc, r) != *neg)
    }
}

fn term(w: &str) -> Result<Term, String> {
    let lower = w.to_ascii_lowercase();
    Ok(match lower.as_str() {
        "gui" | ">" | "->" => Term::Src(Source::Gui),
        "engine" | "<" | "<-" => Term::Src(Source::Engine),
        "stderr" => Term::Src(Source::Stderr),
        "proxy" => Term::Src(Source::Proxy),
        "open" => Term::Open,
        _ => {
            if let Some(k) = lower.strip_prefix("kind:") {
                Term::Kind(k.to_owned())
            } else if let Some(id) = w.get(5..).filter(|_| lower.starts_with("rule:")) {
                let id = id.to_ascii_uppercase();
                match id.strip_suffix('*') {
                    Some(p) => Term::Rule {
                        id: p.to_owned(),
                        prefix: true,
                    },
                    None => Term::Rule { id, prefix: false },
                }
            } else if let Some(s) = lower.strip_prefix("sev:") {
                Term::Sev(
                    Severity::from_name(s).ok_or_else(|| {
                        format!("`{w}`: severity is chat, note, warning or error")
                    })?,
                )
            } else if let Some(x) = lower.strip_prefix("lat>") {
                Term::Latency(
                    duration_ns(x)
                        .ok_or_else(|| format!("`{w}`: a duration like 500ms, 2s or 1.5s"))?,
                )
            } else if let Some(n) = lower.strip_prefix("session:") {
                match n.parse::<u16>() {
                    Ok(n) if n >= 1 => Term::Session(n - 1),
                    _ => return Err(format!("`{w}`: sessions are numbered from 1")),
                }
            } else {
                let re = w.strip_prefix("re:").unwrap_or(w);
                Term::Text(
                    RegexBuilder::new(re)
                        .case_insensitive(true)
                        .build()
                        .map_err(|e| format!("`{re}`: {e}"))?,
                )
            }
        }
    })
}

/// `500ms`, `2s`, `1.5s`, `250` (milliseconds) in ns.
pub fn duration_ns(x: &str) -> Option<u64> {
    let (num, scale) = if let Some(n) = x.strip_suffix("ms") {
        (n, 1e6)
    } else if let Some(n) = x.strip_suffix("us") {
        (n, 1e3)
    } else if let Some(n) = x.strip_suffix('s') {
        (n, 1e9)
    } else {
        (x, 1e6)
    };
    let v: f64 = num.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some((v * scale) as u64)
}

fn term_matches(t: &Term, doc: &Doc, r: usize) -> bool {
    let row = &doc.rows[r];
    match t {
        Term::Src(s) => row.src() == *s,
        Term::Kind(k) => doc.kind(r).eq_ignore_ascii_case(k),
        Term::Rule { id, prefix } => doc.findings_of(r).iter().any(|f| {
            if *prefix {
                f.rule.as_str().starts_with(id.as_str())
            } else {
                f.rule.as_str() == id
            }
        }),
        Term::Sev(s) => row.sev().is_some_and(|x| x >= *s),
        Term::Open => row.open(),
        Term::Latency(ns) => doc.latency(r).is_some_and(|l| l > *ns),
        Term::Session(s) => row.session == *s,
        Term::Text(re) => re.is_match(&doc.text(r)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_terms_say_what_is_wrong() {
        assert!(Filter::parse("sev:bad").unwrap_err().contains("severity"));
        assert!(Filter::parse("lat>fast").unwrap_err().contains("duration"));
        assert!(Filter::parse("(").unwrap_err().contains('('));
        assert!(Filter::parse("session:0").is_err());
        assert!(Filter::parse("gui !kind:info lat>2s rule:UCI-* bestmove").is_ok());
    }

    #[test]
    fn durations() {
        assert_eq!(duration_ns("500ms"), Some(500_000_000));
        assert_eq!(duration_ns("1.5s"), Some(1_500_000_000));
        assert_eq!(duration_ns("20"), Some(20_000_000));
        assert_eq!(duration_ns("x"), None);
    }
}
