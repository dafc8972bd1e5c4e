//! The recording model: a header plus a stream of events.
//!
//! Both the proxy (`capture/`) and the log importers (`import/`) produce these, and every later
//! stage (decode, check, view, export) consumes them, so this is the one shared vocabulary.

use serde::{Deserialize, Serialize};

/// Current version of the JSONL recording format (`docs/recording-format.md`).
pub const FORMAT_VERSION: u32 = 1;

/// Who produced a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// GUI to engine (the proxy's stdin).
    Gui,
    /// Engine to GUI (the engine's stdout).
    Engine,
    /// The engine's stderr.
    Stderr,
    /// Something the proxy or the importing tool observed itself (spawn, EOF, exit, signals...).
    Proxy,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Gui => "gui",
            Source::Engine => "engine",
            Source::Stderr => "stderr",
            Source::Proxy => "proxy",
        }
    }

    /// The transcript arrow: `->` towards the engine, `<-` from it.
    pub fn arrow(self) -> &'static str {
        match self {
            Source::Gui => "->",
            Source::Engine => "<-",
            Source::Stderr => "<!",
            Source::Proxy => "**",
        }
    }
}

/// How a recorded line ended on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Eol {
    #[default]
    Lf,
    Crlf,
    /// No line terminator: the stream ended (or the line was cut at the size limit, see
    /// [`Event::more`]) before a newline arrived.
    None,
}

impl Eol {
    pub fn bytes(self) -> &'static [u8] {
        match self {
            Eol::Lf => b"\n",
            Eol::Crlf => b"\r\n",
            Eol::None => b"",
        }
    }
    pub fn is_lf(&self) -> bool {
        *self == Eol::Lf
    }
}

/// First line of a recording.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Header {
    /// Always `"recording"`; lets a reader tell a kibitzer file from any other JSONL.
    pub kibitzer: String,
    pub version: u32,
    /// Producing tool and version, e.g. `kibitzer 0.1.0`.
    pub tool: String,
    /// Wall-clock time of `t = 0`, RFC 3339 with nanoseconds (UTC). Empty (and left out of
    /// the file) for an imported log that gives no date: a made-up 1970 date would be read as
    /// a real one by people and tools.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub started: String,
    /// Engine command line (for imports: as far as the log tells).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub argv: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Pid of the recording proxy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// User-given session label (`record --label`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Protocol hint (`uci`, `xboard`, `nboard`) if the user gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// For imports: the log format the events came from (`xboard-debug`, `cutechess-cli`...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub imported_from: Option<String>,
    /// For imports: the original file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_file: Option<String>,
    /// For `kibitzer replay`: the recording or log this session replays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay_of: Option<ReplayOf>,
    /// `record --c2w`: the Chess Academy profile the engine was started from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub c2w: Option<C2wNote>,
}

/// Where a replayed session comes from (`kibitzer replay`'s recordings).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct ReplayOf {
    /// The original recording or log, as named on the command line.
    pub file: String,
    /// Its `started`, when it is a recording (a log has none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started: Option<String>,
    /// The session of a log that was replayed (`--session`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// How it was paced (`sync`, `recorded`, `fast`).
    pub pace: String,
    /// The determinism rewrites were applied (`--deterministic`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deterministic: bool,
}

/// The `.c2w` profile a recording's engine was started from (`record --c2w`), with its text so
/// that the recording can be checked against it after the file changed or went away.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct C2wNote {
    /// The profile's path, absolute.
    pub file: String,
    /// `EngineName` and `EngineVersion`.
    pub name: String,
    pub version: String,
    /// The profile as read.
    pub text: String,
}

impl Header {
    /// `started` as Unix nanoseconds, if it is a valid RFC 3339 time after 1970-01-02 (imports
    /// of logs without a date carry a 1970 placeholder, which is not a real start time).
    pub fn start_unix_ns(&self) -> Option<u64> {
        let dt = chrono::DateTime::parse_from_rfc3339(&self.started).ok()?;
        let ns = u64::try_from(dt.timestamp_nanos_opt()?).ok()?;
        (ns >= 86_400_000_000_000).then_some(ns)
    }

    pub fn new(tool: impl Into<String>, started: impl Into<String>) -> Self {
        Header {
            kibitzer: "recording".into(),
            version: FORMAT_VERSION,
            tool: tool.into(),
            started: started.into(),
            ..Default::default()
        }
    }
}

/// What the proxy (or an importer) observed, for `source: proxy` events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProxyKind {
    /// The engine process started (`pid`).
    Spawned,
    /// The engine could not be started (`message`).
    SpawnFailed,
    /// The GUI closed the proxy's stdin; the engine's stdin was closed in turn.
    GuiEof,
    /// The engine closed its stdout.
    EngineEof,
    /// The engine process ended (`code` or `signal`).
    EngineExit,
    /// A signal the proxy received and forwarded to the engine (`signal`).
    Signal,
    /// Writing to the engine or to the GUI failed (`message`); the bytes were recorded anyway.
    WriteError,
    /// The engine closed its stdin and ran on: the GUI's writes fail from then on.
    EngineStdinClosed,
    /// The proxy killed the engine (e.g. it outlived the GUI's EOF past the grace period).
    Killed,
    /// The proxy killed what the engine left running (children still alive after the engine
    /// itself exited): it follows the engine's end and is no sign that the GUI or the proxy
    /// gave up on the engine.
    LeftoverKilled,
    /// Processes the engine started were still running when it exited (names and pids in
    /// `text`); the proxy left them running.
    Leftover,
    /// The proxy stopped the engine because it printed more than a run may keep (`text`
    /// says the bound); the `killed` events that stop it follow.
    FloodStopped,
    /// Importer: an engine started / was loaded.
    EngineStarted,
    /// Importer: a game started (`message` holds what the log said).
    GameStarted,
    /// Importer: a game ended (`result`, `message`).
    GameFinished,
    /// Importer: a warning or error line of the producing tool.
    Warning,
    /// Importer: an adjudication or a time loss decided by the tool.
    Adjudication,
    /// Importer: any other non-traffic line of the producing tool, kept as text.
    Note,
    /// Importer: the producing tool's log stops for this session (the tool was stopped, and a
    /// new run of it begins, appended to the same log). Nothing after it was observed: what
    /// the session still owed is judged at this moment, never measured into the next run.
    LogEnds,
    /// The proxy's look at the engine's processes (`sample`); a capture when an answer is
    /// overdue. Written as a `note` carrying the `sample` object, so that readers that
    /// predate samples read a note; read back as this kind.
    #[serde(rename = "note", skip_deserializing)]
    Sample,
    /// What `kibitzer probe` did or found that the traffic does not show (`probe`), written as
    /// a `note` carrying the `probe` object; read back as this kind.
    #[serde(rename = "note", skip_deserializing)]
    Probe,
}

impl ProxyKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProxyKind::Spawned => "spawned",
            ProxyKind::SpawnFailed => "spawn_failed",
            ProxyKind::GuiEof => "gui_eof",
            ProxyKind::EngineEof => "engine_eof",
            ProxyKind::EngineExit => "engine_exit",
            ProxyKind::Signal => "signal",
            ProxyKind::WriteError => "write_error",
            ProxyKind::EngineStdinClosed => "engine_stdin_closed",
            ProxyKind::Killed => "killed",
            ProxyKind::LeftoverKilled => "leftover_killed",
            ProxyKind::Leftover => "leftover",
            ProxyKind::FloodStopped => "flood_stopped",
            ProxyKind::EngineStarted => "engine_started",
            ProxyKind::GameStarted => "game_started",
            ProxyKind::GameFinished => "game_finished",
            ProxyKind::Warning => "warning",
            ProxyKind::Adjudication => "adjudication",
            ProxyKind::Note => "note",
            ProxyKind::LogEnds => "log_ends",
            ProxyKind::Sample => "sample",
            ProxyKind::Probe => "probe",
        }
    }

    /// The kind as the file spells it: a sample is a `note` there (readers that predate
    /// samples know that kind).
    pub fn wire_str(self) -> &'static str {
        match self {
            ProxyKind::Sample | ProxyKind::Probe => "note",
            k => k.as_str(),
        }
    }
}

/// The most room an event's text keeps when the event is filled again
/// ([`Event::refill_from_bytes`]).
const KEPT_TEXT_ROOM: usize = 4 * 1024;

/// The longest text one event holds: a longer line is recorded in pieces of this size, each
/// but the last marked [`Event::more`].
pub const PIECE_BYTES: usize = 4 * 1024 * 1024;

/// One recorded event: a line in one direction, or a proxy observation.
///
/// `text` is the line without its terminator, decoded as UTF-8 (lossily when it is not valid
/// UTF-8, in which case `hex` holds the exact bytes). `bytes()` gives back exactly what went
/// over the wire, terminator included.
///
/// Laid out as declared (`repr(C)`, which is also the order of its JSON keys): the everyday
/// fields, `seq` to `text`, fill the first 64 bytes, and [`Event::reset_line`] writes the
/// rare ones after them only when they hold something.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[repr(C)]
pub struct Event {
    pub seq: u64,
    /// Nanoseconds since the header's `started`, from a monotonic clock.
    pub t: u64,
    /// Wall-clock time of the event, Unix nanoseconds (`started` + `t`). Redundant with `t`,
    /// but it makes every line self-contained for tools like lnav and for matching a
    /// recording against other logs. Absent when the start time is unknown (imports of logs
    /// without a date).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ts: Option<u64>,
    pub src: Source,
    #[serde(default)]
    pub text: String,
    /// Exact bytes (lowercase hex, without terminator) when `text` is not the exact line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    #[serde(default, skip_serializing_if = "Eol::is_lf")]
    pub eol: Eol,
    /// The line was cut at the proxy's line-size limit ([`PIECE_BYTES`]); the next event of
    /// the same source continues it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub more: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<ProxyKind>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<i32>,
    /// Signal name, e.g. `SIGINT`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    /// Game result for `game_finished` (`1-0`, `0-1`, `1/2-1/2`, `*`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// Imported logs: which engine/session of the log this event belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<std::sync::Arc<str>>,
    /// Imported logs: 1-based line number in the original log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// Imported logs: the producing tool's own verdict on an engine, when this line states
    /// one (fastchess "Illegal move aaaa played by sf1", cutechess "connection stalls"...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Box<RunnerVerdict>>,
    /// `sample` events: what the proxy saw of the engine's processes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<Box<super::sample::ProcSample>>,
    /// `probe` events: what the probe did or found that the traffic does not show.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probe: Option<Box<super::probe::ProbeFact>>,
}

/// What a runner (fastchess, cutechess, xboard, python-chess...) said went wrong with an
/// engine: kept typed so kibitzer can show it beside its own findings and check it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RunnerVerdict {
    pub kind: VerdictKind,
    /// The engine the runner blames, as the log names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// The move in question (illegal move, illegal PV move).
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "move")]
    pub mv: Option<String>,
    /// The `position ...` command the runner quotes with its verdict (fastchess `From;`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The `go ...` command the runner quotes with its verdict (fastchess `Command;`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerdictKind {
    /// The engine played a move the runner found illegal.
    IllegalMove,
    /// A move of the engine's principal variation was illegal.
    IllegalPv,
    /// The engine lost on time.
    TimeLoss,
    /// The engine stopped answering (connection stalls, not responsive, no uciok in time).
    Stall,
    /// The engine went away (disconnects, crashed, terminated).
    Disconnect,
    /// A false draw or win claim.
    FalseClaim,
    /// Output the runner could not use (no bestmove, invalid ponder move, unreadable score).
    BadOutput,
    /// Any other error line of the runner.
    Error,
}

impl VerdictKind {
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictKind::IllegalMove => "illegal move",
            VerdictKind::IllegalPv => "illegal PV move",
            VerdictKind::TimeLoss => "loss on time",
            VerdictKind::Stall => "stall",
            VerdictKind::Disconnect => "disconnect",
            VerdictKind::FalseClaim => "false claim",
            VerdictKind::BadOutput => "unusable output",
            VerdictKind::Error => "error",
        }
    }
}

/// How recordings made before `leftover_killed` existed worded the proxy's sweep of what an
/// engine left running, as `killed` events.
const LEGACY_LEFTOVER_KILL_TEXTS: [&str; 2] = [
    "still running after the engine exited",
    "ignored SIGTERM for",
];

impl Event {
    /// Reads an event of an earlier recording as this version writes it: the sweep of an
    /// engine's leftovers was a `killed` event told apart by its words only.
    pub fn upgrade_legacy(&mut self) {
        if self.kind == Some(ProxyKind::Killed)
            && LEGACY_LEFTOVER_KILL_TEXTS
                .iter()
                .any(|t| self.text.starts_with(t))
        {
            self.kind = Some(ProxyKind::LeftoverKilled);
        }
        if self.sample.is_some() && self.kind == Some(ProxyKind::Note) {
            self.kind = Some(ProxyKind::Sample);
        }
        if self.probe.is_some() && self.kind == Some(ProxyKind::Note) {
            self.kind = Some(ProxyKind::Probe);
        }
    }

    /// A traffic line with UTF-8 text and an LF terminator (the common case).
    pub fn line(seq: u64, t: u64, src: Source, text: impl Into<String>) -> Self {
        Event {
            seq,
            t,
            ts: None,
            src,
            text: text.into(),
            hex: None,
            eol: Eol::Lf,
            more: false,
            kind: None,
            pid: None,
            code: None,
            signal: None,
            result: None,
            session: None,
            line: None,
            verdict: None,
            sample: None,
            probe: None,
        }
    }

    /// A traffic line from exact bytes (without terminator).
    pub fn from_bytes(seq: u64, t: u64, src: Source, bytes: &[u8], eol: Eol) -> Self {
        let mut e = Event::line(seq, t, src, String::new());
        e.eol = eol;
        match std::str::from_utf8(bytes) {
            Ok(s) => e.text = s.to_owned(),
            Err(_) => {
                e.text = String::from_utf8_lossy(bytes).into_owned();
                e.hex = Some(to_hex(bytes));
            }
        }
        e
    }

    /// [`Event::from_bytes`] into an event that is done with: its text keeps its room (an
    /// importer fills millions of events, each moved and freed before).
    pub fn refill_from_bytes(&mut self, seq: u64, t: u64, src: Source, bytes: &[u8], eol: Eol) {
        // `reset_line` names every field: a field added later is thought of there.
        self.reset_line(seq, t, None, src);
        self.eol = eol;
        let (text, hex) = (&mut self.text, &mut self.hex);
        // A huge line's room is not kept for the short lines that follow.
        if text.capacity() > KEPT_TEXT_ROOM {
            *text = String::new();
        }
        text.clear();
        if bytes.is_ascii() {
            // Engine lines are nearly all ASCII, and the ASCII test is several times faster
            // than UTF-8 validation (which checked the first bytes one at a time).
            // SAFETY: ASCII bytes are valid UTF-8.
            #[allow(unsafe_code)]
            text.push_str(unsafe { std::str::from_utf8_unchecked(bytes) });
            return;
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => text.push_str(s),
            Err(_) => {
                text.push_str(&String::from_utf8_lossy(bytes));
                *hex = Some(to_hex(bytes));
            }
        }
    }

    /// Makes a reused event a plain traffic line (its text left as it is).
    #[inline]
    pub fn reset_line(&mut self, seq: u64, t: u64, ts: Option<u64>, src: Source) {
        let Event {
            seq: e_seq,
            t: e_t,
            ts: e_ts,
            src: e_src,
            text: _,
            hex,
            eol,
            more,
            kind,
            pid,
            code,
            signal,
            result,
            session,
            line,
            verdict,
            sample,
            probe,
        } = self;
        (*e_seq, *e_t, *e_ts, *e_src) = (seq, t, ts, src);
        // The rare fields sit in their own cache lines (the event is `repr(C)`, its everyday
        // fields first): written only when they hold something, those lines stay unwritten
        // when an event is filled again on one core and read on another.
        empty(hex);
        if *eol != Eol::Lf {
            *eol = Eol::Lf;
        }
        if *more {
            *more = false;
        }
        empty(kind);
        empty(pid);
        empty(code);
        empty(signal);
        empty(result);
        empty(session);
        empty(line);
        empty(verdict);
        empty(sample);
        empty(probe);
    }

    /// A proxy/importer observation.
    pub fn proxy(seq: u64, t: u64, kind: ProxyKind, message: impl Into<String>) -> Self {
        let mut e = Event::line(seq, t, Source::Proxy, message);
        e.kind = Some(kind);
        e
    }

    /// Fills `ts` from the recording's start time (Unix ns).
    pub fn with_epoch(mut self, start_unix_ns: Option<u64>) -> Self {
        self.ts = start_unix_ns.map(|s| s.saturating_add(self.t));
        self
    }

    pub fn is_traffic(&self) -> bool {
        self.src != Source::Proxy
    }

    /// The exact line bytes without terminator.
    pub fn line_bytes(&self) -> Vec<u8> {
        match &self.hex {
            Some(h) => from_hex(h).unwrap_or_else(|| self.text.as_bytes().to_vec()),
            None => self.text.as_bytes().to_vec(),
        }
    }

    /// The exact bytes as they went over the wire, terminator included.
    pub fn wire_bytes(&self) -> Vec<u8> {
        let mut b = self.line_bytes();
        b.extend_from_slice(self.eol.bytes());
        b
    }
}

/// Empties `x`, writing it only when it holds something: a field left alone stays out of the
/// cache lines a refilled structure carries from one core to another.
#[inline(always)]
pub(crate) fn empty<T>(x: &mut Option<T>) {
    if x.is_some() {
        set_none(x);
    }
}

// Out of line: the drops it takes would otherwise fill the everyday path.
#[cold]
#[inline(never)]
fn set_none<T>(x: &mut Option<T>) {
    *x = None;
}

const HEX: &[u8; 16] = b"0123456789abcdef";

pub fn to_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}

/// Parses lowercase or uppercase hex; `None` on odd length or a non-hex digit.
pub fn from_hex(s: &str) -> Option<Vec<u8>> {
    let s = s.as_bytes();
    if !s.len().is_multiple_of(2) {
        return None;
    }
    fn val(c: u8) -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    }
    s.chunks(2)
        .map(|p| Some(val(p[0])? << 4 | val(p[1])?))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip() {
        let b = [0u8, 1, 0x7f, 0x80, 0xff, b'\r'];
        assert_eq!(from_hex(&to_hex(&b)).unwrap(), b);
        assert_eq!(from_hex("abc"), None);
        assert_eq!(from_hex("zz"), None);
    }

    #[test]
    fn an_event_filled_again_is_what_a_new_one_would_be() {
        let mut used = Event::proxy(7, 9, ProxyKind::EngineExit, "x".repeat(5000));
        used.ts = Some(1);
        used.hex = Some("00".into());
        (used.more, used.eol, used.pid, used.code) = (true, Eol::Crlf, Some(1), Some(2));
        (used.signal, used.result) = (Some("SIGINT".into()), Some("1-0".into()));
        used.session = Some("s".into());
        used.line = Some(3);
        for bytes in [&b"info depth 1"[..], b"bad \xff byte"] {
            used.refill_from_bytes(1, 2, Source::Engine, bytes, Eol::Lf);
            assert_eq!(
                used,
                Event::from_bytes(1, 2, Source::Engine, bytes, Eol::Lf)
            );
        }
        // A long line's room is not kept for the short ones after it.
        assert!(used.text.capacity() < 5000, "{}", used.text.capacity());
    }

    #[test]
    fn invalid_utf8_keeps_exact_bytes() {
        let e = Event::from_bytes(1, 0, Source::Engine, b"caf\xe9", Eol::Crlf);
        assert_eq!(e.text, "caf\u{fffd}");
        assert_eq!(e.wire_bytes(), b"caf\xe9\r\n");
        let json = serde_json::to_string(&e).unwrap();
        let back: Event = serde_json::from_str(&json).unwrap();
        assert_eq!(back, e);
    }

    #[test]
    fn common_line_serializes_compactly() {
        let e = Event::line(3, 1500, Source::Gui, "isready");
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"seq":3,"t":1500,"src":"gui","text":"isready"}"#
        );
        let e = e.with_epoch(Some(1_000_000_000));
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"seq":3,"t":1500,"ts":1000001500,"src":"gui","text":"isready"}"#
        );
    }

    #[test]
    fn an_earlier_recordings_sweep_of_leftovers_reads_as_leftover_killed() {
        let mut old = Event::line(
            1,
            0,
            Source::Proxy,
            "still running after the engine exited: sleep [pid 9]; sent SIGTERM",
        );
        old.kind = Some(ProxyKind::Killed);
        old.upgrade_legacy();
        assert_eq!(old.kind, Some(ProxyKind::LeftoverKilled));
        // The proxy's own kill of the engine stays what it was.
        let mut engine = Event::line(
            2,
            0,
            Source::Proxy,
            "engine still running 5.0 s after the GUI closed its input; sent SIGTERM",
        );
        engine.kind = Some(ProxyKind::Killed);
        engine.upgrade_legacy();
        assert_eq!(engine.kind, Some(ProxyKind::Killed));
    }
}
