//! fastchess logs, all three generations:
//!
//! - 2024: `[14:45:34]  <tid> sf1 <--- isready`, `[14:45:34] <fastchess>Warning; ...`
//! - mid-2024: `[Engine] [16:57:28.986690] <tid> sf1 <--- isready`, `[TRACE ] ... fastchess --- ...`
//! - 2025+: the same with a width-padded tid (`<  5>`).
//!
//! `name <--- cmd` is written to the engine, `[<stderr> ]name ---> line` read from it. A session
//! is one engine process: with `-concurrency N` each game thread (the `<tid>`) runs its own
//! instance of every engine, so a session is an engine name on a thread; the first thread to
//! run an engine gives its session the bare name, later ones `name [thread K]`. At the end the
//! main thread stops the instances one by one (`stop`, `quit`, the exit): those lines go to the
//! engine's first instance not yet told to quit. (2024's logs, without a level tag, read an
//! engine's output on a thread of its own: there a session is the engine name.) A numeric
//! suffix seen on some read lines
//! (`sf1 2 --->`) is dropped when the bare name is a known engine. With `realtime=false` fastchess re-logs buffered engine output:
//! lines stay in file order (so `t` may go backwards), and a read line that repeats one of the
//! same engine's last 64 read lines with a stamp no later than the newest one seen is dropped
//! and replaced by a `warning` event naming the line it duplicates. Tool lines continue on bare
//! `From;`/`Command;` (later `Position;`/`Moves;`) lines: the position and command they quote
//! complete the verdict of the warning before them, and the lines are kept as notes.

use super::Parser;
use crate::import::builder::{Builder, Sid};
use crate::import::clock::{Stamp, time_of_day};
use crate::import::lines::{find, trim, trim_start};
use crate::recording::{ProxyKind, Source};
use std::collections::{HashMap, VecDeque};

#[derive(Default)]
pub struct Fastchess {
    /// Per session: recent read lines (stamp, text, log line) and the newest stamp seen.
    recent: HashMap<String, (VecDeque<Recent>, i128)>,
    /// Per engine name: its instances in order of creation.
    instances: HashMap<Vec<u8>, Instances>,
    /// Since 2025 a game's end is two trace lines, `Game N between A and B finished` then
    /// `Game N finished with result R`: the players of the first, by game number.
    players: HashMap<Vec<u8>, Vec<u8>>,
    /// Which run of fastchess the lines belong to: `-log ... append=true` (or a log named
    /// twice) keeps every run in one file, each starting with fastchess naming itself.
    run: u32,
    /// The time of the last line read: where the previous run's log stops.
    last_t: u64,
    /// The runner's verdicts on engines not yet given to a game's result: (engine, the
    /// reason as fastchess's PGN words it, with `{side}` for the engine's colour).
    reasons: Vec<(Vec<u8>, String)>,
}

/// Verdicts kept for results to come: a game's verdict comes just before its result.
const REASONS_KEPT: usize = 16;

#[derive(Default)]
struct Instances {
    /// (thread, session label, told to quit) of each.
    each: Vec<(Vec<u8>, String, bool)>,
    /// The one the last `quit` went to: the lines after it are its exit.
    last_quit: Option<usize>,
}

/// (stamp, text, log line) of a read line.
type Recent = (i128, Vec<u8>, u64);

const DUP_WINDOW: usize = 64;

pub struct Parsed<'a> {
    pub level: &'a [u8],
    pub tod: Option<i128>,
    /// The thread the line was written on (empty for the main thread and 2024's
    /// `<fastchess>` lines).
    pub tid: &'a [u8],
    pub body: &'a [u8],
}

/// Strips the `[LEVEL ] [time] <tid> ` (or 2024 `[time]  <tid> `) prefix.
pub fn split_prefix(line: &[u8]) -> Option<Parsed<'_>> {
    let rest = line.strip_prefix(b"[")?;
    let close = rest.iter().position(|&c| c == b']')?;
    let first = rest.get(..close)?;
    let mut after = trim_start(rest.get(close + 1..)?);
    let (level, tod): (&[u8], _) = if let Some((tod, _)) = time_of_day(first) {
        (b"", Some(tod))
    } else {
        if !matches!(
            trim(first),
            b"Engine" | b"TRACE" | b"INFO" | b"WARN" | b"ERR" | b"FATAL"
        ) {
            return None;
        }
        let r = after.strip_prefix(b"[")?;
        let c = r.iter().position(|&c| c == b']')?;
        let tod = time_of_day(trim(r.get(..c)?)).map(|x| x.0);
        after = trim_start(r.get(c + 1..)?);
        (trim(first), tod)
    };
    // `<tid> ` or 2024's `<fastchess>Warning; ...` (no space).
    let r = after.strip_prefix(b"<")?;
    let c = r.iter().position(|&c| c == b'>')?;
    let tid = trim(r.get(..c)?);
    let mut body = r.get(c + 1..)?;
    if tid == b"fastchess" {
        // Normalise to the later shape.
        body = trim_start(body);
        return Some(Parsed {
            level: if level.is_empty() { b"WARN" } else { level },
            tod,
            tid: b"",
            body,
        });
    }
    Some(Parsed {
        level,
        tod,
        tid,
        // Since 2025 the thread is padded and followed by two spaces.
        body: trim_start(body),
    })
}

impl Fastchess {
    /// The session of a line of engine `name` on thread `tid`: what the GUI sent (`sent`) or
    /// read.
    fn engine_session(
        &mut self,
        name: &[u8],
        tid: &[u8],
        sent: Option<&[u8]>,
        b: &mut Builder,
    ) -> Sid {
        let mut name = name;
        if !self.instances.contains_key(name)
            && let Some(sp) = name.iter().rposition(|&c| c == b' ')
            && name
                .get(sp + 1..)
                .is_some_and(|d| !d.is_empty() && d.iter().all(u8::is_ascii_digit))
            && let Some(base) = name.get(..sp)
            && self.instances.contains_key(base)
        {
            name = base;
        }
        let engine = self.instances.entry(name.to_vec()).or_default();
        if let Some((_, label, quit)) = engine.each.iter_mut().find(|(t, _, _)| t == tid) {
            match sent.map(trim) {
                Some(b"quit") => *quit = true,
                // Restarted (after a crash or stall): running again, to be quit at the end.
                Some(b"uci") => *quit = false,
                _ => {}
            }
            return b.session(label);
        }
        // A thread that never ran this engine: the main thread stopping the instances at the
        // end, or a new game thread (its first line is the engine's start, `uci`).
        let cleanup = !engine.each.is_empty()
            && match sent.map(trim) {
                Some(cmd) => cmd == b"stop" || cmd == b"quit",
                None => engine.last_quit.is_some(),
            };
        if cleanup {
            let k = match sent.map(trim) {
                Some(cmd) => {
                    let k = engine
                        .each
                        .iter()
                        .position(|(_, _, quit)| !quit)
                        .unwrap_or(engine.each.len() - 1);
                    if cmd == b"quit" {
                        if let Some(e) = engine.each.get_mut(k) {
                            e.2 = true;
                        }
                        engine.last_quit = Some(k);
                    }
                    k
                }
                None => engine.last_quit.unwrap_or(0),
            };
            if let Some((_, label, _)) = engine.each.get(k) {
                return b.session(label);
            }
        }
        let plain = String::from_utf8_lossy(name);
        let label = match (engine.each.len(), self.run) {
            (0, 0 | 1) => plain.into_owned(),
            (n, 0 | 1) => format!("{plain} [thread {}]", n + 1),
            (0, run) => format!("{plain} [run {run}]"),
            (n, run) => format!("{plain} [thread {}, run {run}]", n + 1),
        };
        engine.each.push((tid.to_vec(), label.clone(), false));
        b.session(&label)
    }

    /// True when the read line repeats a recent one with an older stamp (realtime=false).
    fn duplicate_of(
        &mut self,
        label: &str,
        tod: Option<i128>,
        text: &[u8],
        line: u64,
    ) -> Option<u64> {
        let (recent, newest) = self.recent.entry(label.to_owned()).or_default();
        let stamp = tod.unwrap_or(i128::MAX);
        let dup = if stamp <= *newest && tod.is_some() {
            recent
                .iter()
                .find(|(s, t, _)| t == text && *s != stamp)
                .map(|x| x.2)
        } else {
            None
        };
        if dup.is_none() {
            if recent.len() == DUP_WINDOW {
                recent.pop_front();
            }
            recent.push_back((stamp, text.to_vec(), line));
            *newest = (*newest).max(tod.unwrap_or(*newest));
        }
        dup
    }

    /// A run of fastchess begins (it names itself and its version). Engines of an earlier
    /// run in the same log are done with: their logs stop where that run's lines stop, and
    /// the new run's engines are sessions of their own (`NAME [run N]`).
    fn run_begins(&mut self, b: &mut Builder) {
        self.run = self.run.max(1) + u32::from(!self.instances.is_empty());
        let mut labels: Vec<String> = self
            .instances
            .drain()
            .flat_map(|(_, i)| i.each.into_iter().map(|(_, label, _)| label))
            .collect();
        labels.sort();
        for label in labels {
            let sid = b.session(&label);
            b.proxy(
                sid,
                ProxyKind::LogEnds,
                self.last_t,
                b"the runner's log stops here: a new run of fastchess begins in the same log",
            );
        }
        self.players.clear();
        self.recent.clear();
        self.reasons.clear();
    }

    /// A verdict line that ends a game, kept for the game's result line: fastchess's trace
    /// log gives the reason (`Engine crash disconnects`, `Illegal move e4e5 played by
    /// illegal`) only there, in its own words, and the result on a line of its own.
    fn note_reason(&mut self, msg: &[u8]) {
        let msg = msg.strip_prefix(b"Warning; ").unwrap_or(msg);
        let text = String::from_utf8_lossy(msg);
        let reason = if let Some(rest) = text.strip_prefix("Engine ") {
            if let Some(name) = rest.strip_suffix(" disconnects") {
                Some((name.to_owned(), "{side} disconnects".to_owned()))
            } else {
                rest.strip_suffix(" stalls")
                    .map(|name| (name.to_owned(), "{side}'s connection stalls".to_owned()))
            }
        } else if let Some(rest) = text.strip_prefix("Illegal move ") {
            rest.split_once(" played by ").map(|(mv, name)| {
                (
                    name.to_owned(),
                    format!("{{side}} makes an illegal move: {mv}"),
                )
            })
        } else {
            None
        };
        if let Some((name, why)) = reason {
            if self.reasons.len() == REASONS_KEPT {
                self.reasons.remove(0);
            }
            self.reasons.push((name.into_bytes(), why));
        }
    }

    /// `Engine X disconnects`: fastchess's `isready` to the engine on this thread failed
    /// otherwise than by a timeout (match.cpp `validConnection`): its pipes are closed. The
    /// log has no exit status; this is the engine's end as the runner saw it, in its session.
    fn engine_gone(&mut self, tid: &[u8], msg: &[u8], t: u64, b: &mut Builder) {
        let Some(name) = msg
            .strip_prefix(b"Engine ")
            .and_then(|r| r.strip_suffix(b" disconnects"))
        else {
            return;
        };
        let Some(label) = self
            .instances
            .get(name)
            .and_then(|i| i.each.iter().find(|(t, _, _)| t == tid))
            .map(|(_, label, _)| label.clone())
        else {
            return;
        };
        let sid = b.session(&label);
        let text = format!(
            "the engine's output ended, as fastchess found it (`{}`)",
            String::from_utf8_lossy(msg)
        );
        b.proxy(sid, ProxyKind::EngineEof, t, text.as_bytes());
    }

    /// The latest verdict on either player, taken for their game's result.
    fn take_reason(&mut self, white: &[u8], black: &[u8]) -> Option<String> {
        let i = self
            .reasons
            .iter()
            .rposition(|(name, _)| name == white || name == black)?;
        let (name, why) = self.reasons.remove(i);
        let side = if name == white { "White" } else { "Black" };
        Some(why.replace("{side}", side))
    }

    fn tool_line(&mut self, level: &[u8], tid: &[u8], body: &[u8], t: u64, b: &mut Builder) {
        let msg = body.strip_prefix(b"fastchess --- ").unwrap_or(body);
        if is_banner(msg) {
            self.run_begins(b);
        }
        if let Some(rest) = msg.strip_prefix(b"Game ") {
            let number_end = rest.iter().position(|&c| c == b' ').unwrap_or(rest.len());
            let (number, after) = rest.split_at(number_end);
            if let Some(players) = after
                .strip_prefix(b" between ")
                .and_then(|p| p.strip_suffix(b" finished"))
            {
                self.players.insert(number.to_vec(), players.to_vec());
            } else if let Some(result) = after.strip_prefix(b" finished with result ")
                && let Some(players) = self.players.remove(number)
                && let Some(and) = find(&players, b" and ")
            {
                // Read as fastchess prints it on its standard output, which names the players
                // (white first) with the result.
                let (white, black) = (&players[..and], &players[and + 5..]);
                let mut line = [
                    &b"Finished game "[..],
                    number,
                    b" (",
                    white,
                    b" vs ",
                    black,
                    b"): ",
                    trim(result),
                ]
                .concat();
                if let Some(why) = self.take_reason(white, black) {
                    line.extend_from_slice(format!(" {{{why}}}").as_bytes());
                }
                let sid = b.tool();
                let result = game_result(&line);
                if let Some(e) = b.proxy(sid, ProxyKind::GameFinished, t, &line) {
                    e.result = result;
                    // The reason's verdict line was read already: one verdict, not two.
                    e.verdict = None;
                }
                return;
            }
        }
        self.note_reason(msg);
        self.engine_gone(tid, msg, t, b);
        let kind = if matches!(level, b"WARN" | b"ERR" | b"FATAL")
            || msg.starts_with(b"Warning;")
            || msg.starts_with(b"Failed")
        {
            ProxyKind::Warning
        } else if msg.starts_with(b"Playing game")
            || msg.starts_with(b"Started game")
            || (msg.starts_with(b"Game ") && msg.ends_with(b" starting"))
        {
            ProxyKind::GameStarted
        } else if msg.starts_with(b"Finished game") {
            ProxyKind::GameFinished
        } else if find(msg, b"adjudicat").is_some() {
            ProxyKind::Adjudication
        } else {
            ProxyKind::Note
        };
        let sid = b.tool();
        let result = game_result(msg);
        if let Some(e) = b.proxy(sid, kind, t, msg)
            && kind == ProxyKind::GameFinished
        {
            e.result = result;
        }
    }
}

/// A bare line continuing a fastchess warning: `From; position ... moves ...`,
/// `Command; go ...`, or the later `Position; fen ...` / `Moves; e2e4 ...` pair.
enum Quoted {
    Position(String),
    Command(String),
    StartPosition(String),
    Moves(String),
}

fn continuation(line: &[u8]) -> Option<Quoted> {
    let text = |r: &[u8]| String::from_utf8_lossy(trim(r)).into_owned();
    if let Some(r) = line.strip_prefix(b"From;") {
        Some(Quoted::Position(text(r)))
    } else if let Some(r) = line.strip_prefix(b"Command;") {
        Some(Quoted::Command(text(r)))
    } else if let Some(r) = line.strip_prefix(b"Position;") {
        Some(Quoted::StartPosition(text(r)))
    } else {
        line.strip_prefix(b"Moves;").map(|r| Quoted::Moves(text(r)))
    }
}

impl Quoted {
    fn apply(self, v: &mut crate::recording::RunnerVerdict) {
        match self {
            Quoted::Position(p) => v.position = Some(p),
            Quoted::Command(c) => v.command = Some(c),
            Quoted::StartPosition(p) => v.position = Some(format!("position {p}")),
            Quoted::Moves(m) => {
                if let Some(p) = v.position.as_mut()
                    && !m.is_empty()
                {
                    p.push_str(" moves ");
                    p.push_str(&m);
                }
            }
        }
    }
}

/// `fastchess alpha 1.8.2 261129`, `fastchess 1.4.0-alpha`: the first line of a run, the
/// program's name and a version (a word that starts with a digit) and little else.
fn is_banner(msg: &[u8]) -> bool {
    msg.strip_prefix(b"fastchess ").is_some_and(|rest| {
        let words: Vec<&[u8]> = rest.split(|&c| c == b' ').collect();
        words.len() <= 4
            && words
                .iter()
                .any(|w| w.first().is_some_and(u8::is_ascii_digit))
    })
}

fn game_result(msg: &[u8]) -> Option<String> {
    ["1/2-1/2", "1-0", "0-1"]
        .into_iter()
        .find(|r| find(msg, r.as_bytes()).is_some())
        .map(str::to_owned)
}

impl Parser for Fastchess {
    fn edits_earlier_lines(&self) -> bool {
        true
    }

    fn line(&mut self, line: &[u8], b: &mut Builder) {
        let Some(p) = split_prefix(line) else {
            let t = b.t(None);
            let sid = b.tool();
            if let Some(quoted) = continuation(line) {
                // The commands fastchess quotes with a verdict tell which position the move
                // was judged in: they complete the verdict, and stay visible as a note.
                if let Some(v) = b.last_event_mut(sid).and_then(|e| e.verdict.as_deref_mut()) {
                    quoted.apply(v);
                }
                b.proxy(sid, ProxyKind::Note, t, line);
            } else {
                b.unclassified(line, "no fastchess [LEVEL] [time] <thread> prefix");
            }
            return;
        };
        let t = b.t(p.tod.map(Stamp::TimeOfDay));
        let body = p.body;
        let previous_t = std::mem::replace(&mut self.last_t, t);
        if body.starts_with(b"fastchess --- ") || p.level != b"Engine" && !p.level.is_empty() {
            if is_banner(body.strip_prefix(b"fastchess --- ").unwrap_or(body)) {
                self.last_t = previous_t;
            }
            self.tool_line(p.level, p.tid, body, t, b);
            self.last_t = t;
            return;
        }
        let (err, body) = match body.strip_prefix(b"<stderr> ") {
            Some(r) => (true, r),
            None => (false, body),
        };
        let send = find(body, b" <--- ");
        let recv = find(body, b" ---> ").or_else(|| body.strip_suffix(b" --->").map(<[u8]>::len));
        let (name, is_send, payload) = match (send, recv) {
            (Some(s), Some(r)) if r < s => (body.get(..r), false, body.get(r + 6..)),
            (Some(s), _) => (body.get(..s), true, body.get(s + 6..)),
            (None, Some(r)) => (body.get(..r), false, body.get(r + 6..)),
            (None, None) => {
                self.tool_line(p.level, p.tid, body, t, b);
                return;
            }
        };
        let (Some(name), payload) = (name, payload.unwrap_or(&[])) else {
            return;
        };
        // 2024's logs (no level tag) wrote what an engine said from a reader thread of its
        // own: their threads tell no instances apart.
        let thread = if p.level.is_empty() { &b""[..] } else { p.tid };
        let sid = self.engine_session(name, thread, is_send.then_some(payload), b);
        if is_send {
            b.traffic(sid, Source::Gui, t, payload);
            return;
        }
        let label = b
            .header(sid)
            .and_then(|h| h.label.clone())
            .unwrap_or_default();
        if let Some(orig) = self.duplicate_of(&label, p.tod, payload, b.line) {
            let msg = format!(
                "dropped duplicate of line {orig} (fastchess realtime=false re-log): {}",
                String::from_utf8_lossy(payload)
            );
            b.proxy(sid, ProxyKind::Warning, t, msg.as_bytes());
            return;
        }
        b.traffic(
            sid,
            if err { Source::Stderr } else { Source::Engine },
            t,
            payload,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_generations() {
        let p = split_prefix(b"[14:45:34]  <140128525702720> sf1 <--- isready").unwrap();
        assert_eq!((p.level, p.body), (&b""[..], &b"sf1 <--- isready"[..]));
        let p = split_prefix(b"[14:45:34] <fastchess>Warning; Illegal move").unwrap();
        assert_eq!(
            (p.level, p.body),
            (&b"WARN"[..], &b"Warning; Illegal move"[..])
        );
        let p =
            split_prefix(b"[Engine] [11:00:41.838297] <140261948802624> cdb2uci ---> ").unwrap();
        assert_eq!(p.body, b"cdb2uci ---> ");
        assert_eq!(p.tod, Some(39_641_838_297_000));
        let p = split_prefix(b"[TRACE ] [22:31:12.691824] <  2> fastchess --- Sending").unwrap();
        assert_eq!(
            (p.level, p.body),
            (&b"TRACE"[..], &b"fastchess --- Sending"[..])
        );
        assert!(split_prefix(b"[foo] x").is_none());
    }
}
