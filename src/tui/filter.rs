//! The filter language (documented in docs/view.md).
//!
//! Terms separated by spaces all have to match; `or` (or `|`) between them makes either
//! enough; `!` (or `not`) negates the term or the parenthesised group after it;
//! `(`…`)` groups. A term with spaces or parentheses is quoted: `"set depth"`, `re:"a(b)"`.
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
//!
//! `and` binds tighter than `or`: `engine kind:info or sev:error` is
//! `(engine and kind:info) or sev:error`.

use super::doc::Doc;
use crate::recording::Source;
use crate::rules::Severity;
use crate::rules::catalogue::RuleId;
use regex::{Regex, RegexBuilder};

#[derive(Debug, Clone)]
enum Term {
    Src(Source),
    Kind(String),
    Rules(Vec<RuleId>),
    Sev(Severity),
    Open,
    Latency(u64),
    Session(u16),
    Text(Regex),
}

#[derive(Debug, Clone)]
enum Node {
    Term(Term),
    Not(Box<Node>),
    All(Vec<Node>),
    Any(Vec<Node>),
}

/// A parsed filter.
#[derive(Debug, Clone)]
pub struct Filter {
    root: Option<Node>,
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Open,
    Close,
    Or,
    And,
    Not,
    /// A term (quotes removed), and whether it was quoted (then it is never an operator).
    Word(String),
}

fn tokens(text: &str) -> Result<Vec<Tok>, String> {
    let mut out = Vec::new();
    let mut it = text.chars().peekable();
    while let Some(&c) = it.peek() {
        match c {
            c if c.is_whitespace() => {
                it.next();
            }
            '(' => {
                it.next();
                out.push(Tok::Open);
            }
            ')' => {
                it.next();
                out.push(Tok::Close);
            }
            '!' => {
                it.next();
                out.push(Tok::Not);
            }
            _ => {
                let mut word = String::new();
                let mut quoted = false;
                while let Some(&c) = it.peek() {
                    if c.is_whitespace() || c == '(' || c == ')' {
                        break;
                    }
                    it.next();
                    if c == '"' {
                        quoted = true;
                        loop {
                            match it.next() {
                                Some('\\') => match it.next() {
                                    Some(e @ ('"' | '\\')) => word.push(e),
                                    Some(e) => {
                                        word.push('\\');
                                        word.push(e);
                                    }
                                    None => return Err("a `\\` ends the filter".into()),
                                },
                                Some('"') => break,
                                Some(c) => word.push(c),
                                None => return Err(format!("unclosed quote in `{text}`")),
                            }
                        }
                    } else {
                        word.push(c);
                    }
                }
                out.push(match word.to_ascii_lowercase().as_str() {
                    _ if quoted => Tok::Word(word),
                    "or" | "|" | "||" => Tok::Or,
                    "and" | "&&" => Tok::And,
                    "not" => Tok::Not,
                    _ => Tok::Word(word),
                });
            }
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.at)
    }

    fn any(&mut self) -> Result<Node, String> {
        let mut alts = vec![self.all()?];
        while self.peek() == Some(&Tok::Or) {
            self.at += 1;
            alts.push(self.all()?);
        }
        Ok(if alts.len() == 1 {
            alts.remove(0)
        } else {
            Node::Any(alts)
        })
    }

    fn all(&mut self) -> Result<Node, String> {
        let mut parts = Vec::new();
        loop {
            match self.peek() {
                None | Some(Tok::Close) | Some(Tok::Or) => break,
                Some(Tok::And) => {
                    self.at += 1;
                    continue;
                }
                _ => parts.push(self.unary()?),
            }
        }
        match parts.len() {
            0 => Err(match self.peek() {
                Some(Tok::Or) | None if self.at > 0 => "`or` needs a term on each side".into(),
                Some(Tok::Close) => "`()` has nothing inside".into(),
                _ => "a term is missing".into(),
            }),
            1 => Ok(parts.remove(0)),
            _ => Ok(Node::All(parts)),
        }
    }

    fn unary(&mut self) -> Result<Node, String> {
        match self.toks.get(self.at).cloned() {
            Some(Tok::Not) => {
                self.at += 1;
                match self.peek() {
                    None | Some(Tok::Close) | Some(Tok::Or) | Some(Tok::And) => {
                        Err("`!` needs a term or a group after it".into())
                    }
                    _ => Ok(Node::Not(Box::new(self.unary()?))),
                }
            }
            Some(Tok::Open) => {
                self.at += 1;
                let inner = self.any()?;
                if self.peek() != Some(&Tok::Close) {
                    return Err("a `(` is not closed".into());
                }
                self.at += 1;
                Ok(inner)
            }
            Some(Tok::Word(w)) => {
                self.at += 1;
                Ok(Node::Term(term(&w)?))
            }
            _ => Err("a term is missing".into()),
        }
    }
}

impl Filter {
    /// Parses `text`; the error says which term is wrong and why.
    pub fn parse(text: &str) -> Result<Filter, String> {
        let toks = tokens(text)?;
        if toks.is_empty() {
            return Ok(Filter { root: None });
        }
        let mut p = Parser { toks, at: 0 };
        let root = p.any()?;
        if p.at < p.toks.len() {
            return Err("a `)` has no `(`".into());
        }
        Ok(Filter { root: Some(root) })
    }

    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// Whether it looks at the text of lines (a regular expression): then a pass over a big
    /// input reads every line again, and the viewer runs it a slice at a time.
    pub fn reads_text(&self) -> bool {
        fn reads(n: &Node) -> bool {
            match n {
                Node::Term(Term::Text(_)) => true,
                Node::Term(_) => false,
                Node::Not(n) => reads(n),
                Node::All(v) | Node::Any(v) => v.iter().any(reads),
            }
        }
        self.root.as_ref().is_some_and(reads)
    }

    /// A `kind:` that no line of the input has: an error once the input is all read (the
    /// filter would show nothing, and a typo should say so); the kinds it has are listed.
    pub fn unknown_kind(&self, doc: &Doc) -> Option<String> {
        fn first<'a>(n: &'a Node, doc: &Doc) -> Option<&'a str> {
            match n {
                Node::Term(Term::Kind(k)) => {
                    (!doc.kinds().iter().any(|x| x.eq_ignore_ascii_case(k))).then_some(k.as_str())
                }
                Node::Term(_) => None,
                Node::Not(n) => first(n, doc),
                Node::All(v) | Node::Any(v) => v.iter().find_map(|n| first(n, doc)),
            }
        }
        let k = first(self.root.as_ref()?, doc)?;
        let mut have: Vec<&str> = doc.kinds().to_vec();
        have.sort_unstable();
        have.dedup();
        Some(format!(
            "`kind:{k}`: no line {} that kind; kinds here: {}",
            if doc.done { "has" } else { "read so far has" },
            have.join(" ")
        ))
    }

    pub fn matches(&self, doc: &Doc, r: usize) -> bool {
        fn eval(n: &Node, doc: &Doc, r: usize) -> bool {
            match n {
                Node::Term(t) => term_matches(t, doc, r),
                Node::Not(n) => !eval(n, doc, r),
                Node::All(v) => v.iter().all(|n| eval(n, doc, r)),
                Node::Any(v) => v.iter().any(|n| eval(n, doc, r)),
            }
        }
        self.root.as_ref().is_none_or(|n| eval(n, doc, r))
    }
}

fn rules(w: &str, id: &str) -> Result<Vec<RuleId>, String> {
    let id = id.to_ascii_uppercase();
    let found: Vec<RuleId> = match id.strip_suffix('*') {
        Some(p) => RuleId::ALL
            .iter()
            .copied()
            .filter(|r| r.as_str().starts_with(p))
            .collect(),
        None => RuleId::ALL
            .iter()
            .copied()
            .filter(|r| r.as_str() == id)
            .collect(),
    };
    if found.is_empty() {
        return Err(format!(
            "`{w}`: no rule has that id (docs/rules.md lists them; `*` at the end matches a prefix)"
        ));
    }
    Ok(found)
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
                if k.is_empty() {
                    return Err(format!("`{w}`: which kind? e.g. kind:bestmove"));
                }
                Term::Kind(k.to_owned())
            } else if let Some(id) = w.get(5..).filter(|_| lower.starts_with("rule:")) {
                Term::Rules(rules(w, id)?)
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
        Term::Rules(ids) => doc.findings_of(r).iter().any(|f| ids.contains(&f.rule)),
        Term::Sev(s) => row.sev().is_some_and(|x| x >= *s),
        Term::Open => row.open(),
        Term::Latency(ns) => doc.latency(r).is_some_and(|l| l > *ns),
        Term::Session(s) => row.session() == *s,
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
        assert!(Filter::parse("(").unwrap_err().contains("term"));
        assert!(Filter::parse("(gui").unwrap_err().contains("not closed"));
        assert!(Filter::parse("gui)").unwrap_err().contains("no `(`"));
        assert!(Filter::parse("gui or").unwrap_err().contains("each side"));
        assert!(Filter::parse("!").unwrap_err().contains("after it"));
        assert!(Filter::parse("\"abc").unwrap_err().contains("quote"));
        assert!(
            Filter::parse("rule:NOPE-X")
                .unwrap_err()
                .contains("no rule")
        );
        assert!(Filter::parse("rule:ZZZ*").unwrap_err().contains("no rule"));
        assert!(Filter::parse("session:0").is_err());
        assert!(Filter::parse("gui !kind:info lat>2s rule:UCI-* bestmove").is_ok());
        assert!(
            Filter::parse("(kind:bestmove or kind:go) and !(stderr | proxy) re:\"a(b)\"").is_ok()
        );
    }

    #[test]
    fn operators_group_as_documented() {
        let shape = |t: &str| format!("{:?}", Filter::parse(t).unwrap().root.unwrap());
        // `and` binds tighter than `or`.
        let s = shape("engine kind:info or sev:error");
        assert!(s.starts_with("Any([All(["), "{s}");
        let s = shape("engine (kind:info or sev:error)");
        assert!(s.starts_with("All([Term(Src(Engine)), Any(["), "{s}");
        let s = shape("not (gui or engine)");
        assert!(s.starts_with("Not(Any(["), "{s}");
        // A quoted word is a term even when it reads like an operator.
        let s = shape("\"or\"");
        assert!(s.starts_with("Term(Text("), "{s}");
        // `|` inside a word is the regex's own alternation.
        let s = shape("cp|mate");
        assert!(s.starts_with("Term(Text("), "{s}");
    }

    #[test]
    fn durations() {
        assert_eq!(duration_ns("500ms"), Some(500_000_000));
        assert_eq!(duration_ns("1.5s"), Some(1_500_000_000));
        assert_eq!(duration_ns("20"), Some(20_000_000));
        assert_eq!(duration_ns("x"), None);
    }
}
