//! The recorded engine as a table of answers (`replay --as-engine`): each GUI line of the
//! recording with what the engine said after it, until the GUI's next line, and when.
//! Incoming commands are matched by normalised content (clocks, movetimes and ping numbers
//! ignored) and order, as mitmproxy's server replay pops recorded responses per request.

use super::analysis::Analysis;
use crate::protocol::Protocol;
use crate::recording::{ProxyKind, Source};

/// One thing the recorded engine did, `delay` ns after the request it answered.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub delay: u64,
    pub what: Said,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Said {
    /// A line on stdout, exact bytes with its terminator.
    Stdout(Vec<u8>),
    Stderr(Vec<u8>),
    /// The engine ended: its exit code, or 128 + signal.
    Exit(i32),
}

/// A recorded GUI line and the engine's answers to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    pub request: String,
    pub key: String,
    /// The request's line in the recording.
    pub line: Option<u64>,
    pub answers: Vec<Answer>,
}

/// The recorded engine.
#[derive(Debug, Clone)]
pub struct Answers {
    pub protocol: Option<Protocol>,
    /// What the engine said before the GUI said anything (a banner).
    pub boot: Vec<Answer>,
    pub exchanges: Vec<Exchange>,
    /// What the engine did once the GUI closed its input (its exit, usually).
    pub after_eof: Vec<Answer>,
    used: Vec<bool>,
    cursor: usize,
}

impl Answers {
    pub fn from_analysis(a: &Analysis) -> Answers {
        let protocol = a.session.protocol;
        let mut boot = Vec::new();
        let mut exchanges: Vec<Exchange> = Vec::new();
        let mut after_eof = Vec::new();
        let mut base = 0;
        let mut eof = false;
        for (i, ev) in a.events.iter().enumerate() {
            let said = match ev.src {
                Source::Gui if !eof => {
                    base = ev.t;
                    exchanges.push(Exchange {
                        request: ev.text.clone(),
                        key: normalise(protocol, &ev.text),
                        line: a.line_of(i),
                        answers: Vec::new(),
                    });
                    continue;
                }
                Source::Gui => continue,
                Source::Engine => Said::Stdout(ev.wire_bytes()),
                Source::Stderr => Said::Stderr(ev.wire_bytes()),
                Source::Proxy => match ev.kind {
                    Some(ProxyKind::GuiEof) => {
                        eof = true;
                        base = ev.t;
                        continue;
                    }
                    Some(ProxyKind::EngineExit) => Said::Exit(match (ev.code, &ev.signal) {
                        (Some(c), _) => c,
                        (None, Some(s)) => signal_number(s).map_or(1, |n| 128 + n),
                        (None, None) => 0,
                    }),
                    _ => continue,
                },
            };
            let answer = Answer {
                delay: ev.t.saturating_sub(base),
                what: said,
            };
            match (eof, exchanges.last_mut()) {
                (true, _) => after_eof.push(answer),
                (false, Some(x)) => x.answers.push(answer),
                (false, None) => boot.push(answer),
            }
        }
        let used = vec![false; exchanges.len()];
        Answers {
            protocol,
            boot,
            exchanges,
            after_eof,
            used,
            cursor: 0,
        }
    }

    /// The recorded answers to `incoming`: the first unused recorded request with the same
    /// normalised form from where the last match was on, else an earlier unused one. `None`
    /// when nothing matches. A `pong` echoes the incoming ping's number.
    pub fn answer(&mut self, incoming: &str) -> Option<(&Exchange, Vec<Answer>)> {
        let key = normalise(self.protocol, incoming);
        let n = self.exchanges.len();
        let found = (self.cursor..n)
            .chain(0..self.cursor.min(n))
            .find(|&i| !self.used[i] && self.exchanges[i].key == key)?;
        self.used[found] = true;
        self.cursor = found + 1;
        let x = &self.exchanges[found];
        let mut answers = x.answers.clone();
        if let (Some(theirs), Some(ours)) = (ping_number(&x.request), ping_number(incoming)) {
            for a in &mut answers {
                if let Said::Stdout(bytes) = &mut a.what {
                    let text = String::from_utf8_lossy(bytes);
                    if text.split_whitespace().collect::<Vec<_>>() == ["pong", theirs] {
                        *bytes = text.replacen(theirs, ours, 1).into_bytes();
                    }
                }
            }
        }
        Some((x, answers))
    }

    /// Recorded requests matched so far, of all.
    pub fn used(&self) -> (usize, usize) {
        (self.used.iter().filter(|u| **u).count(), self.used.len())
    }
}

fn ping_number(text: &str) -> Option<&str> {
    match text.split_whitespace().collect::<Vec<_>>().as_slice() {
        ["ping", n] => Some(n),
        _ => None,
    }
}

fn signal_number(name: &str) -> Option<i32> {
    name.parse::<nix::sys::signal::Signal>()
        .ok()
        .map(|s| s as i32)
}

/// A command as matched: words separated by single spaces, with what varies from run to run
/// left out (clock values, movetimes, ping numbers).
pub fn normalise(protocol: Option<Protocol>, text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out: Vec<&str> = Vec::with_capacity(words.len());
    match (protocol, words.first().copied()) {
        (Some(Protocol::Uci), Some("go")) => {
            let mut it = words.iter();
            while let Some(w) = it.next() {
                if matches!(
                    *w,
                    "wtime" | "btime" | "winc" | "binc" | "movestogo" | "movetime"
                ) {
                    it.next();
                } else {
                    out.push(w);
                }
            }
        }
        (
            Some(Protocol::Cecp | Protocol::Nboard),
            Some(w @ ("time" | "otim" | "level" | "st" | "ping")),
        ) => out.push(w),
        _ => out = words,
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_and_ping_numbers_are_not_matched() {
        let uci = Some(Protocol::Uci);
        assert_eq!(
            normalise(uci, "go wtime 1000 btime 2000 winc 10 binc 10 movestogo 3"),
            "go"
        );
        assert_eq!(normalise(uci, "go  movetime 100 depth 5"), "go depth 5");
        assert_eq!(
            normalise(uci, "position startpos moves e2e4"),
            "position startpos moves e2e4"
        );
        let cecp = Some(Protocol::Cecp);
        assert_eq!(normalise(cecp, "time 3000"), "time");
        assert_eq!(normalise(cecp, "ping 17"), "ping");
        assert_eq!(normalise(cecp, "usermove e2e4"), "usermove e2e4");
    }
}
