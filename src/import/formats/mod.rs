//! One parser per log format family. Each sees the non-blank lines of the log in order and
//! feeds the [`Builder`].

use super::LogFormat;
use super::builder::Builder;

mod arena;
mod banksia;
mod cutechess;
mod engine_side;
mod fastchess;
mod markers;
mod polyglot;
mod pychess;
mod pylog;
mod transcript;
mod xboard;

pub trait Parser {
    fn line(&mut self, line: &[u8], b: &mut Builder);
    fn finish(&mut self, _b: &mut Builder) {}
    /// The parser may edit an event of an earlier line ([`Builder::last_event_mut`],
    /// [`Builder::append_to_last`]: a wrapped line joined to the one before it, a verdict the
    /// next line completes). A stream then holds each session's last event back for a window
    /// of lines; the events of a parser that never does go out once their line is parsed,
    /// while they are still in the cache.
    fn edits_earlier_lines(&self) -> bool {
        false
    }
}

/// The parser for `format`; `data` lets vocabulary-driven formats look at the whole log first.
pub fn parser_for(format: LogFormat, data: &[u8]) -> Box<dyn Parser> {
    match format {
        LogFormat::XboardDebug => Box::new(xboard::Xboard::default()),
        LogFormat::CutechessCli | LogFormat::CutechessCliStdout | LogFormat::CutechessGui => {
            Box::new(cutechess::Cutechess)
        }
        LogFormat::Fastchess => Box::new(fastchess::Fastchess::default()),
        LogFormat::Arena => Box::new(arena::Arena::default()),
        LogFormat::Polyglot => Box::new(polyglot::Polyglot),
        LogFormat::PythonChess | LogFormat::LichessBot | LogFormat::LichessBotLegacy => {
            Box::new(pylog::PyLog::default())
        }
        LogFormat::StockfishDebug => Box::new(transcript::Transcript::stockfish()),
        LogFormat::Transcript => Box::new(transcript::Transcript::by_vocabulary(data)),
        LogFormat::Lc0Logfile => Box::new(engine_side::Lc0),
        LogFormat::EngineSideLog4j => Box::new(engine_side::Log4j),
        LogFormat::Banksia => Box::new(banksia::Banksia::default()),
        LogFormat::CChessCli => Box::new(markers::CChessCli),
        LogFormat::Nibbler => Box::new(markers::Nibbler),
        LogFormat::EnCroissant => Box::new(markers::EnCroissant),
        LogFormat::Edax => Box::new(markers::Edax),
        LogFormat::Inbetween => Box::new(markers::Inbetween),
        LogFormat::Nboard => Box::new(transcript::Transcript::nboard(data)),
        LogFormat::Pychess => Box::new(pychess::Pychess::default()),
    }
}

pub use transcript::orientation as transcript_orientation;
pub use transcript::split as transcript_split;

/// Line-shape tests for detection, shared with the parsers so both agree.
pub mod probes {
    use crate::import::clock::seconds_frac;

    pub fn xboard(line: &[u8]) -> bool {
        super::xboard::split_prefix(line).is_some()
    }

    /// `Some(true)`: cutechess-cli `-debug` line (with ms); `Some(false)`: GUI pane line.
    pub fn cutechess(line: &[u8]) -> Option<bool> {
        super::cutechess::split_traffic(line).map(|(stamp, ..)| stamp.is_some())
    }

    pub fn fastchess(line: &[u8]) -> bool {
        super::fastchess::split_prefix(line).is_some()
    }

    pub fn arena_marker(rest: &[u8]) -> bool {
        super::arena::marker(rest).is_some() || rest.starts_with(b"**")
    }

    pub fn polyglot(line: &[u8]) -> bool {
        let Some((_, used)) = seconds_frac(line) else {
            return false;
        };
        let Some(rest) = line.get(used..).and_then(|r| r.strip_prefix(b" ")) else {
            return false;
        };
        [
            &b"GUI->Adapter:"[..],
            b"Adapter->GUI:",
            b"Adapter->Engine:",
            b"Engine->Adapter:",
            b"POLYGLOT ",
        ]
        .iter()
        .any(|p| rest.starts_with(p))
    }

    pub fn python_chess(line: &[u8]) -> bool {
        super::pylog::anchor(line).is_some()
    }

    /// python-chess's arrows after a prefix without its `<XxxProtocol (pid=N)>` anchor: the
    /// source and payload of the first `<< ` / `>> ` that starts a word after some prefix.
    pub fn python_chess_arrow(line: &[u8]) -> Option<(crate::recording::Source, &[u8])> {
        super::pylog::arrow(line).and_then(|(at, src, payload)| (at > 0).then_some((src, payload)))
    }

    pub fn lc0(line: &[u8]) -> bool {
        super::engine_side::lc0_prefix(line).is_some()
    }

    /// `Some((has time, ...))` for a Banksia traffic line.
    pub fn banksia(line: &[u8]) -> Option<(bool, (), (), ())> {
        super::banksia::split(line).map(|(tod, ..)| (tod.is_some(), (), (), ()))
    }

    pub fn cchess(line: &[u8]) -> bool {
        super::markers::cchess_split(line).is_some()
    }
}
