//! Importers: turn the logs users already have (GUI debug files, tournament-manager output,
//! library logs, engine-side logs) into kibitzer recording events.
//!
//! Sans-IO: everything takes the whole log as one byte slice (the CLI memory-maps large files).
//! See `docs/import.md`-style notes in each format module; the conventions shared by all
//! importers are:
//!
//! - **Sessions.** Each engine in the log becomes its own [`ImportedSession`], labelled the way
//!   the log names it (cutechess `Name(id)`, xboard `first`/`second`, Arena `1`/`2`, fastchess
//!   names, python-chess `pid=N`, `engine` for single-engine logs). When a slot is reused by a
//!   new engine process the label gets a `#2`, `#3`... suffix. The producing tool's own lines that
//!   name no engine (game start/end, internals) go to a session labelled `[tool]`, e.g.
//!   `[cutechess]`.
//! - **Events.** Traffic lines become `gui` (to the engine), `engine` or `stderr` events; the
//!   tool's other lines become `proxy` events (`game_started`, `game_finished` with `result`,
//!   `engine_started`, `killed`, `engine_exit`, `warning`, `adjudication`, `note`). Every event
//!   carries `session` and the 1-based log `line`; `seq` counts from 1 per session. Traffic
//!   is always stored with an LF terminator: logs do not tell the wire terminator.
//! - **Time.** See [`clock`]: `t` is ns since the first stamp of the log, shared by all sessions;
//!   `header.started` is that stamp when the log gives a date, otherwise empty (left out of
//!   the file), and [`ImportedSession::clock`] says which.
//! - **Blank lines** are skipped silently. Lines no rule explains are listed in
//!   [`Imported::unclassified`] with a reason instead of being guessed at.

mod builder;
pub mod clock;
mod detect;
mod formats;
mod lines;
pub mod live;
mod queue;
pub mod verdict;
mod vocab;

pub use clock::{ClockKind, PLACEHOLDER_STARTED};
pub use detect::{Detection, SAMPLE_LINES as DETECT_SAMPLE_LINES, detect};

use crate::recording::{Event, Header};
use builder::Builder;
use thiserror::Error;

/// Every log format kibitzer imports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LogFormat {
    /// xboard/WinBoard `-debug` output (`211 >first : xboard`).
    XboardDebug,
    /// cutechess-cli stdout with `-debug` (`452 >SF(1): uci`).
    CutechessCli,
    /// cutechess-cli stdout without `-debug` (`Started game ...`, `Finished game ...`).
    CutechessCliStdout,
    /// The Cute Chess GUI "Engine Debug" pane (`>SF(1): uci`, no time).
    CutechessGui,
    /// fastchess `-log ... engine=true`, all three format generations.
    Fastchess,
    /// Arena's debug log (`2020-10-20 11:07:40.513-->1:uci`).
    Arena,
    /// PolyGlot's `polyglot.log` (both legs of the adapter).
    Polyglot,
    /// python-chess `chess.engine` logging under any logging prefix.
    PythonChess,
    /// lichess-bot's log file (python-chess lines under lichess-bot's format).
    LichessBot,
    /// lichess-bot 2022 console/log format (`2022-01-04 00:26:14,890:   move: 1`).
    LichessBotLegacy,
    /// Stockfish's "Debug Log File" (engine side: `>>` = received).
    StockfishDebug,
    /// lc0 `--logfile` (engine side).
    Lc0Logfile,
    /// Banksia engine logs (`21:46:26 Name< cmd`).
    Banksia,
    /// c-chess-cli `-log` (also the Qapla engine tester's `name <- cmd`).
    CChessCli,
    /// Nibbler's engine log.
    Nibbler,
    /// En Croissant `logs.csv` (`gui, cmd` / `engine, line`).
    EnCroissant,
    /// NBoard (Othello) `< `/`> ` transcripts.
    Nboard,
    /// Edax's own NBoard-mode log (`received< "..."`, `sent> "..."`).
    Edax,
    /// InBetween-style `295.092: < line`.
    Inbetween,
    /// PyChess log: no markers, direction from vocabulary.
    Pychess,
    /// Engine-side log4j-style logs (`... - Received: cmd` / `Sent: line`).
    EngineSideLog4j,
    /// Plain `>`/`<` transcripts (uci-proxy-gen, Substitute, hand-made); direction by vocabulary.
    Transcript,
}

impl LogFormat {
    pub const ALL: &'static [LogFormat] = &[
        LogFormat::XboardDebug,
        LogFormat::CutechessCli,
        LogFormat::CutechessCliStdout,
        LogFormat::CutechessGui,
        LogFormat::Fastchess,
        LogFormat::Arena,
        LogFormat::Polyglot,
        LogFormat::PythonChess,
        LogFormat::LichessBot,
        LogFormat::LichessBotLegacy,
        LogFormat::StockfishDebug,
        LogFormat::Lc0Logfile,
        LogFormat::Banksia,
        LogFormat::CChessCli,
        LogFormat::Nibbler,
        LogFormat::EnCroissant,
        LogFormat::Nboard,
        LogFormat::Edax,
        LogFormat::Inbetween,
        LogFormat::Pychess,
        LogFormat::EngineSideLog4j,
        LogFormat::Transcript,
    ];

    /// The `--format NAME` spelling (also stored as `header.imported_from`).
    pub fn name(self) -> &'static str {
        match self {
            LogFormat::XboardDebug => "xboard-debug",
            LogFormat::CutechessCli => "cutechess-cli",
            LogFormat::CutechessCliStdout => "cutechess-cli-stdout",
            LogFormat::CutechessGui => "cutechess-gui",
            LogFormat::Fastchess => "fastchess",
            LogFormat::Arena => "arena",
            LogFormat::Polyglot => "polyglot",
            LogFormat::PythonChess => "python-chess",
            LogFormat::LichessBot => "lichess-bot",
            LogFormat::LichessBotLegacy => "lichess-bot-legacy",
            LogFormat::StockfishDebug => "stockfish-debug",
            LogFormat::Lc0Logfile => "lc0-logfile",
            LogFormat::Banksia => "banksia",
            LogFormat::CChessCli => "c-chess-cli",
            LogFormat::Nibbler => "nibbler",
            LogFormat::EnCroissant => "en-croissant",
            LogFormat::Nboard => "nboard",
            LogFormat::Edax => "edax",
            LogFormat::Inbetween => "inbetween",
            LogFormat::Pychess => "pychess",
            LogFormat::EngineSideLog4j => "engine-side-log4j",
            LogFormat::Transcript => "transcript",
        }
    }

    /// Parses a `--format` name; also accepts a few common aliases.
    pub fn from_name(name: &str) -> Option<LogFormat> {
        let n = name.trim().to_ascii_lowercase();
        let alias = match n.as_str() {
            "xboard" | "winboard" | "winboard-debug" | "xboard.debug" => "xboard-debug",
            "cutechess" => "cutechess-cli",
            "qapla" => "c-chess-cli",
            "inbetween-probable" => "inbetween",
            "encroissant" => "en-croissant",
            "lc0" => "lc0-logfile",
            "stockfish" => "stockfish-debug",
            "log4j" => "engine-side-log4j",
            "uci-proxy-gen" | "substitute" => "transcript",
            other => other,
        };
        LogFormat::ALL.iter().copied().find(|f| f.name() == alias)
    }

    /// All `--format` names, for help texts.
    pub fn names() -> Vec<&'static str> {
        LogFormat::ALL.iter().map(|f| f.name()).collect()
    }

    /// Short name of the producing tool, used for the `[tool]` session.
    pub fn tool(self) -> &'static str {
        match self {
            LogFormat::XboardDebug => "xboard",
            LogFormat::CutechessCli | LogFormat::CutechessCliStdout | LogFormat::CutechessGui => {
                "cutechess"
            }
            LogFormat::PythonChess => "python-chess",
            LogFormat::LichessBot | LogFormat::LichessBotLegacy => "lichess-bot",
            LogFormat::StockfishDebug | LogFormat::Lc0Logfile | LogFormat::EngineSideLog4j => {
                "engine"
            }
            other => other.name(),
        }
    }
}

impl std::fmt::Display for LogFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A log line no rule of the format explains.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Unclassified {
    /// 1-based line number in the log.
    pub line: u64,
    pub text: String,
    pub reason: &'static str,
}

/// One engine (or the tool itself) of an imported log, ready to write as a recording.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedSession {
    pub label: String,
    /// `imported_from` and `label` are set; `source_file` is left for the caller.
    pub header: Header,
    pub events: Vec<Event>,
    /// What `header.started` and the events' `t` are based on.
    pub clock: ClockKind,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub format: LogFormat,
    pub sessions: Vec<ImportedSession>,
    pub unclassified: Vec<Unclassified>,
}

#[derive(Debug, Error, PartialEq)]
pub enum ImportError {
    #[error("the log is empty")]
    Empty,
    #[error("could not recognise the log format ({0}); pass --input-format NAME, one of: {names}", names = LogFormat::names().join(", "))]
    Unrecognised(String),
}

/// Imports a whole log. With `format: None` the format is detected from the content.
pub fn import(data: &[u8], format: Option<LogFormat>) -> Result<Imported, ImportError> {
    let format = format_of(data, format)?;
    let mut parser = formats::parser_for(format, data);
    let mut b = Builder::new(format);
    for line in lines::Lines::new(data) {
        feed(parser.as_mut(), &mut b, line);
    }
    parser.finish(&mut b);
    let unclassified = std::mem::take(&mut b.unclassified);
    Ok(Imported {
        format,
        sessions: b.finish(),
        unclassified,
    })
}

/// The log format to parse `data` with: `format`, or the one its content shows.
fn format_of(data: &[u8], format: Option<LogFormat>) -> Result<LogFormat, ImportError> {
    if lines::is_blank(data) {
        return Err(ImportError::Empty);
    }
    match format {
        Some(f) => Ok(f),
        None => detect(data)
            .map(|d| d.format)
            .ok_or_else(|| ImportError::Unrecognised("no known line shape matched".into())),
    }
}

/// The events of a log in log order, handed out while it is parsed instead of collected
/// first, for consumers that take one event at a time (`kibitzer decode`): memory stays
/// bounded however long the log. They are the events [`import`] gives, merged across sessions
/// in line order (same line: session order) and numbered from 1 in that order; `ts` is left
/// unset (the log's start date may only show late).
pub fn stream(data: &[u8], format: Option<LogFormat>) -> Result<EventStream<'_>, ImportError> {
    let format = format_of(data, format)?;
    let parser = formats::parser_for(format, data);
    let edits = parser.edits_earlier_lines();
    let mut builder = Builder::new(format);
    builder.set_final_events(!edits);
    Ok(EventStream {
        format,
        lines: lines::Lines::new(data),
        parser,
        builder,
        hold: 0,
        seq: 0,
        done: false,
        read: 0,
        batch_lines: match edits {
            true => STREAM_BATCH_LINES,
            false => STREAM_FINAL_BATCH_LINES,
        },
        window_lines: STREAM_WINDOW_LINES,
        spans: None,
        data,
    })
}

/// See [`stream`].
pub struct EventStream<'a> {
    format: LogFormat,
    lines: lines::Lines<'a>,
    parser: Box<dyn formats::Parser>,
    builder: Builder,
    /// Events of lines before this can be handed out ([`Builder::hold_from`]).
    hold: u64,
    seq: u64,
    done: bool,
    /// Bytes of the log parsed so far.
    read: usize,
    batch_lines: usize,
    window_lines: u64,
    /// With [`EventStream::locate_texts`]: the lines whose events are not all handed out
    /// yet, as (line number, offset of the line, offset past its text), in line order.
    spans: Option<std::collections::VecDeque<(u64, usize, usize)>>,
    data: &'a [u8],
}

/// Lines parsed between two hand-outs.
const STREAM_BATCH_LINES: usize = 4096;

/// Lines parsed between two hand-outs when every event is final once pushed: few enough that
/// the events (and the lines they came from) are still in the cache when they are handed
/// out. Holding 4096 lines' events made moving them out a tenth of reading a big log.
const STREAM_FINAL_BATCH_LINES: usize = 256;

/// How many lines back a session's last event may still be edited by a parser (a wrapped line
/// joined to the one before it): events of older lines are settled.
const STREAM_WINDOW_LINES: u64 = 4096;

impl EventStream<'_> {
    pub fn format(&self) -> LogFormat {
        self.format
    }

    /// The lines no rule explained, so far (all of them once the stream is exhausted).
    pub fn take_unclassified(&mut self) -> Vec<Unclassified> {
        std::mem::take(&mut self.builder.unclassified)
    }

    /// Bytes of the log parsed so far, for progress.
    pub fn bytes_read(&self) -> usize {
        self.read
    }

    /// Each session's label and header, as [`import`] gives them once the whole log is read
    /// (parsers fill headers in as they go).
    pub fn session_headers(&self) -> Vec<(String, Header)> {
        self.builder.session_headers()
    }

    /// The log's start, as [`ImportedSession::header`] gives it: its first date stamp (known
    /// once that line is read), else [`PLACEHOLDER_STARTED`].
    pub fn started(&self) -> String {
        self.builder.clock.started()
    }

    /// Smaller batches and windows, so that short test logs cross many hand-outs.
    #[cfg(test)]
    fn with_sizes(mut self, batch_lines: usize, window_lines: u64) -> Self {
        self.batch_lines = batch_lines.max(1);
        self.window_lines = window_lines;
        self
    }
}

impl EventStream<'_> {
    /// The next event, moved into `out` (whose old event is dropped): false at the end.
    /// An event is a few hundred bytes; a caller that keeps its slots spares the copies
    /// that returning one by value and storing it again cost.
    pub fn next_into(&mut self, out: &mut Event) -> bool {
        if !self.refill() || !self.builder.pop_into(out) {
            return false;
        }
        self.seq += 1;
        out.seq = self.seq;
        true
    }

    /// From now on, [`EventStream::text_at`] says where each event's text is in the log.
    pub fn locate_texts(&mut self) {
        self.spans.get_or_insert_default();
    }

    /// Where the text of `e`, the event handed out last, is in the log: its offset when the
    /// text is the end of its line, verbatim, as an imported line's message usually is (the
    /// log's prefix before it). A caller that keeps the log mapped then keeps no copy of the
    /// text, and needs no pass of its own over the log to find it.
    pub fn text_at(&mut self, e: &Event) -> Option<u64> {
        let spans = self.spans.as_mut()?;
        let n = e.line?;
        // Events come in line order: the lines before this one are done with.
        while spans.front().is_some_and(|&(no, _, _)| no < n) {
            spans.pop_front();
        }
        let &(no, start, end) = spans.front()?;
        if no != n || e.hex.is_some() {
            return None;
        }
        let line = self.data.get(start..end)?;
        line.ends_with(e.text.as_bytes())
            .then(|| (end - e.text.len()) as u64)
    }

    /// Parses lines until an event is ready: false once the log is exhausted.
    fn refill(&mut self) -> bool {
        loop {
            if self.builder.ready_before(self.hold) {
                return true;
            }
            if self.done {
                return false;
            }
            for _ in 0..self.batch_lines {
                let Some(line) = self.lines.next() else {
                    self.parser.finish(&mut self.builder);
                    self.done = true;
                    break;
                };
                self.read = line.end;
                if let Some(spans) = self.spans.as_mut() {
                    spans.push_back((line.no, line.start, line.start + line.bytes.len()));
                }
                feed(self.parser.as_mut(), &mut self.builder, line);
            }
            if let Some(spans) = self.spans.as_mut() {
                // Lines whose events are all handed out (or that made none) are done with:
                // a long run of lines without events must not pile up here.
                let first = self.builder.first_queued_line().unwrap_or(u64::MAX);
                while spans.front().is_some_and(|&(no, _, _)| no < first) {
                    spans.pop_front();
                }
            }
            let settled_before = match self.done || self.builder.events_are_final() {
                true => u64::MAX,
                false => self.builder.line.saturating_sub(self.window_lines),
            };
            self.hold = self.builder.hold_from(settled_before);
        }
    }
}

impl Iterator for EventStream<'_> {
    type Item = Event;

    fn next(&mut self) -> Option<Event> {
        let mut e = Event::line(0, 0, crate::recording::Source::Proxy, String::new());
        self.next_into(&mut e).then_some(e)
    }
}

/// Hands one line of the log to its parser: blank lines are skipped, and the builder stamps
/// the line's number on what the parser makes of it.
/// The longest log line parsed. A log line is one protocol line and a prefix; a longer one
/// (a file with no newline, a runaway engine) is reported unclassified and skipped rather than
/// copied into events and messages several times over. Recordings have their own bound,
/// [`crate::recording::reader::MAX_LINE_BYTES`].
pub const MAX_LOG_LINE_BYTES: usize = 16 << 20;

/// The reason given for a line past [`MAX_LOG_LINE_BYTES`].
pub const LINE_TOO_LONG: &str = "a line longer than 16 MiB, skipped (its first 200 bytes shown)";

fn feed(parser: &mut dyn formats::Parser, b: &mut Builder, line: lines::Line<'_>) {
    if line.bytes.len() > MAX_LOG_LINE_BYTES {
        b.line = line.no;
        b.unclassified(&line.bytes[..200], LINE_TOO_LONG);
        return;
    }
    if lines::is_blank(line.bytes) {
        return;
    }
    b.line = line.no;
    parser.line(line.bytes, b);
}

#[cfg(test)]
mod tests;
