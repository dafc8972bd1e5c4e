//! Format detection by content.
//!
//! Every non-blank line among the first [`SAMPLE_LINES`] is tested against each format's
//! line shape (byte-prefix checks, the same ones the parsers use). A format's score is the
//! share of lines it explains, weighted by how specific the shape is. Formats whose shape is
//! just a glyph (`>>`/`<<`, `> `/`< `) are told apart by vocabulary, never by the glyph alone:
//! `>> uciok` is an engine line for python-chess-style logs but `>> uci` is a GUI line in a
//! Stockfish debug log. A kibitzer JSONL recording is not detected here: callers check
//! `recording::reader::looks_like_recording` first.

use super::LogFormat;
use super::clock::{date_time, seconds_frac};
use super::formats::probes;
use super::lines::{Lines, find, is_blank, trim_start};
use super::vocab::side_of;

pub const SAMPLE_LINES: usize = 400;

/// The detected format and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Detection {
    pub format: LogFormat,
    /// Share of sampled lines the format explains, 0.0 to 1.0.
    pub confidence: f32,
    /// Human-readable reason, e.g. `38/40 lines look like "<ms> >first : cmd"`.
    pub evidence: String,
}

#[derive(Default)]
struct Counts {
    lines: u32,
    hits: Vec<(LogFormat, f32, &'static str)>,
}

impl Counts {
    fn add(&mut self, f: LogFormat, w: f32, shape: &'static str) {
        match self.hits.iter_mut().find(|h| h.0 == f) {
            Some(h) => h.1 += w,
            None => self.hits.push((f, w, shape)),
        }
    }
    fn get(&self, f: LogFormat) -> f32 {
        self.hits.iter().find(|h| h.0 == f).map_or(0.0, |h| h.1)
    }
}

const PYCHESS_WORDS: [&[u8]; 5] = [
    b"SubProcess.",
    b"setOptionInitialBoard",
    b"create_subprocess_exec",
    b"GameModel at",
    b"pychess",
];

const LOG_LEVELS: [&[u8]; 5] = [b"DEBUG", b"INFO", b"WARNING", b"ERROR", b"CRITICAL"];

/// `asctime logger (file:line) LEVEL ` or `asctime logger LEVEL ` (lichess-bot's file format).
fn lichess_bot_wrapper(line: &[u8]) -> bool {
    let Some((_, used)) = date_time(line) else {
        return false;
    };
    let Some(rest) = line.get(used..).and_then(|r| r.strip_prefix(b" ")) else {
        return false;
    };
    let mut words = rest.split(|&c| c == b' ');
    let Some(logger) = words.next() else {
        return false;
    };
    if !logger.first().is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let mut next = words.next().unwrap_or(&[]);
    if next.starts_with(b"(") {
        next = words.next().unwrap_or(&[]);
    }
    LOG_LEVELS.contains(&next)
}

/// Counts what each format's probes see in one line.
fn probe_line(line: &[u8], c: &mut Counts) {
    gui_and_runner_logs(line, c);
    dated_logs(line, c);
    python_chess_and_lc0_logs(line, c);
    tool_logs(line, c);
}

/// XBoard's debug file, cutechess (its debug lines and its stdout), fastchess.
fn gui_and_runner_logs(line: &[u8], c: &mut Counts) {
    use LogFormat as F;
    if probes::xboard(line) {
        c.add(F::XboardDebug, 2.0, "<ms> >first : cmd");
    }
    if line.starts_with(b"StartChildProcess")
        || line.starts_with(b"recognized '")
        || line.starts_with(b"Reset(")
        || line.starts_with(b"GameEnds(")
        || line.starts_with(b"shuffleOpenings")
        || line.starts_with(b"Version: xboard")
        || line.starts_with(b"<ICS: ")
        || line.starts_with(b">ICS: ")
    {
        c.add(F::XboardDebug, 1.0, "<ms> >first : cmd");
    }
    match probes::cutechess(line) {
        Some(true) => c.add(F::CutechessCli, 2.0, "<ms> >Name(id): cmd"),
        Some(false) => c.add(F::CutechessGui, 2.0, ">Name(id): cmd"),
        None => {}
    }
    if [
        &b"Started game "[..],
        b"Finished game ",
        b"Terminating process of engine ",
        b"Score of ",
        b"Elo difference: ",
        b"Finished match",
        b"...      ",
    ]
    .iter()
    .any(|p| line.starts_with(p))
    {
        c.add(
            F::CutechessCliStdout,
            2.0,
            "Started game / Finished game lines",
        );
    }
    if probes::fastchess(line) {
        c.add(F::Fastchess, 2.0, "[LEVEL] [time] <thread> name <--- cmd");
    }
}

/// Lines that open with a date or a time: Arena, lichess-bot, engine-side log4j, Polyglot.
fn dated_logs(line: &[u8], c: &mut Counts) {
    use LogFormat as F;
    if let Some((_, used)) = date_time(line) {
        let rest = line.get(used..).unwrap_or(&[]);
        if probes::arena_marker(rest) {
            c.add(F::Arena, 2.0, "date time,ms-->N:cmd");
        }
        if rest.starts_with(b":   ") {
            c.add(F::LichessBotLegacy, 1.5, "date time,ms:   message");
        }
        if line.get(10) == Some(&b'T') && find(rest, b" - ").is_some() {
            let w = if find(rest, b" - Received:").is_some() || find(rest, b" - Sent:").is_some() {
                2.0
            } else {
                1.0
            };
            c.add(
                F::EngineSideLog4j,
                w,
                "dateTtime,ms LEVEL Class:N - Received:/Sent:",
            );
        }
    }
    if lichess_bot_wrapper(line) {
        c.add(F::LichessBot, 1.0, "asctime logger (file:line) LEVEL");
    }
    if probes::polyglot(line) {
        c.add(
            F::Polyglot,
            2.0,
            "seconds.ms GUI->Adapter: / Adapter->Engine:",
        );
    }
}

/// python-chess's debug log and its arrows, and lc0's log file.
fn python_chess_and_lc0_logs(line: &[u8], c: &mut Counts) {
    use LogFormat as F;
    if probes::python_chess(line) {
        c.add(F::PythonChess, 2.0, "<XxxProtocol (pid=N)>: << / >>");
    } else if !probes::lc0(line)
        && let Some((src, payload)) = probes::python_chess_arrow(line)
    {
        // What follows the prefix decides, whatever the prefix is: a GUI command after `<<`
        // or an engine line after `>>` is python-chess's convention (a Stockfish or lc0
        // engine-side log has them the other way round).
        let side = std::str::from_utf8(payload).ok().and_then(side_of);
        let agrees = matches!(
            (src, side),
            (crate::recording::Source::Gui, Some(super::vocab::Side::Gui))
                | (
                    crate::recording::Source::Engine,
                    Some(super::vocab::Side::Engine)
                )
        );
        if agrees {
            c.add(
                F::PythonChess,
                2.5,
                "PREFIX << sent / >> received (python-chess arrows)",
            );
        }
    }
    if probes::lc0(line) {
        c.add(F::Lc0Logfile, 2.0, "time tid file.cc:N] >> / <<");
    }
}

/// Other GUIs' and tools' logs: Banksia, cchess, Nibbler, En Croissant, Edax, Inbetween,
/// PyChess, transcripts.
fn tool_logs(line: &[u8], c: &mut Counts) {
    use LogFormat as F;
    if let Some((tod, _, _, _)) = probes::banksia(line) {
        c.add(
            F::Banksia,
            if tod { 2.0 } else { 0.5 },
            "HH:MM:SS Name< cmd",
        );
    }
    if probes::cchess(line) {
        c.add(F::CChessCli, 1.5, "name <- cmd / name -> line");
    }
    if line.starts_with(b"deadline") {
        c.add(F::CChessCli, 1.5, "name <- cmd / name -> line");
    }
    if line.starts_with(b"--> ")
        || line.starts_with(b". ")
        || line.starts_with(b"Launching ")
        || line.starts_with(b"(failed) --> ")
        || line.starts_with(b"(ignore")
    {
        c.add(F::Nibbler, 2.0, "--> cmd / < line");
    }
    if line.starts_with(b"< ") {
        c.add(F::Nibbler, 0.5, "--> cmd / < line");
    }
    if line.starts_with(b"gui, ") || line.starts_with(b"engine, ") {
        c.add(F::EnCroissant, 2.0, "gui, cmd / engine, line");
    }
    if [&b"received< \""[..], b"sent> \"", b"error> \"", b"edax> "]
        .iter()
        .any(|p| line.starts_with(p))
    {
        c.add(F::Edax, 2.0, "received< \"cmd\" / sent> \"line\"");
    }
    if let Some((_, used)) = seconds_frac(line)
        && line
            .get(used..)
            .is_some_and(|r| r.starts_with(b": > ") || r.starts_with(b": < "))
    {
        c.add(F::Inbetween, 2.0, "seconds.ms: > cmd");
    }
    if PYCHESS_WORDS.iter().any(|w| find(line, w).is_some()) {
        c.add(F::Pychess, 3.0, "PyChess internals, unmarked traffic");
    }
    if super::formats::transcript_split(line).is_some() {
        c.add(F::Transcript, 1.0, "> / < transcript");
    }
}

/// Detects the format of a log from its first lines. Never panics; `None` when nothing fits.
pub fn detect(sample: &[u8]) -> Option<Detection> {
    let Sampled {
        mut c,
        unmarked_vocab,
        glyph_lines,
    } = Sampled::of(sample);
    if c.lines == 0 {
        return None;
    }
    c.weigh_wrapped();
    c.weigh_transcripts(&glyph_lines);
    c.weigh_unmarked(unmarked_vocab);
    c.best()
}

/// What the probes saw in a log's first lines.
struct Sampled<'s> {
    c: Counts,
    /// Lines with protocol vocabulary and no marker.
    unmarked_vocab: u32,
    /// Lines marked by glyphs alone (`> `, `<< `).
    glyph_lines: Vec<&'s [u8]>,
}

impl<'s> Sampled<'s> {
    fn of(sample: &'s [u8]) -> Sampled<'s> {
        let mut c = Counts::default();
        let mut unmarked_vocab = 0u32;
        let mut bytes = 0usize;
        let mut glyph_lines: Vec<&[u8]> = Vec::new();
        for line in Lines::new(sample) {
            if c.lines as usize >= SAMPLE_LINES || bytes > 4 << 20 {
                break;
            }
            let l = line.bytes;
            bytes += l.len();
            // A line this long shows no line shape (and would cost its length in every probe).
            if is_blank(l) || l.len() > 64 << 10 {
                continue;
            }
            c.lines += 1;
            probe_line(l, &mut c);
            if std::str::from_utf8(l).ok().and_then(side_of).is_some() {
                unmarked_vocab += 1;
            }
            if super::formats::transcript_split(l).is_some() {
                glyph_lines.push(l);
            }
        }
        Sampled {
            c,
            unmarked_vocab,
            glyph_lines,
        }
    }
}

impl Counts {
    /// Formats whose lines wrap others': cutechess-cli's debug lines over its plain stdout
    /// lines, which both share; python-chess lines under a recognisable lichess-bot wrapper.
    fn weigh_wrapped(&mut self) {
        use LogFormat as F;
        let c = self;
        if c.get(F::CutechessCli) > 0.0 {
            let s = c.get(F::CutechessCliStdout) / 2.0;
            c.add(F::CutechessCli, s, "");
        }
        let py = c.get(F::PythonChess);
        if py > 0.0 {
            if c.get(F::LichessBotLegacy) > 0.0
                && c.get(F::LichessBotLegacy) >= c.get(F::LichessBot)
            {
                let s = c.get(F::LichessBotLegacy) + py;
                c.add(F::LichessBotLegacy, s, "");
            } else if c.get(F::LichessBot) > 0.0 {
                let s = py;
                c.add(F::LichessBot, s, "");
            }
        } else {
            // Without python-chess lines a lichess-bot wrapper alone is too weak a sign.
            c.hits
                .retain(|h| h.0 != F::LichessBot && h.0 != F::LichessBotLegacy || h.1 >= 3.0);
        }
    }

    /// Glyph-only transcripts: decide by vocabulary what kind they are.
    fn weigh_transcripts(&mut self, glyph_lines: &[&[u8]]) {
        use LogFormat as F;
        let c = self;
        let transcript = c.get(F::Transcript);
        if transcript <= 0.0 {
            return;
        }
        let joined: Vec<u8> = glyph_lines.join(&b"\n"[..]);
        let orientation = super::formats::transcript_orientation(&joined);
        let nboard_words = glyph_lines
            .iter()
            .filter(|l| {
                let p = trim_start(l.get(1..).unwrap_or(&[]));
                [
                    &b"nboard"[..],
                    b"set game",
                    b"set depth",
                    b"set myname",
                    b"nodestats",
                    b"===",
                    b"status ",
                ]
                .iter()
                .any(|w| p.starts_with(w))
            })
            .count();
        let all_double = glyph_lines
            .iter()
            .all(|l| l.starts_with(b">> ") || l.starts_with(b"<< ") || *l == b">>" || *l == b"<<");
        if nboard_words > 0 {
            c.add(
                F::Nboard,
                transcript + 0.5,
                "< / > lines with NBoard vocabulary",
            );
        } else if all_double && orientation == Some(true) {
            c.add(
                F::StockfishDebug,
                transcript + 0.5,
                ">> received / << sent, GUI vocabulary after >>",
            );
        }
        if nboard_words > 0 || all_double && orientation == Some(true) {
            c.hits.retain(|h| h.0 != F::Transcript);
        }
    }

    /// No markers at all but protocol vocabulary: PyChess-style.
    fn weigh_unmarked(&mut self, unmarked_vocab: u32) {
        use LogFormat as F;
        let c = self;
        if c.get(F::Pychess) == 0.0
            && unmarked_vocab * 3 >= c.lines
            && c.hits.iter().all(|h| h.1 < c.lines as f32 * 0.3)
        {
            c.add(
                F::Pychess,
                unmarked_vocab as f32,
                "unmarked protocol vocabulary",
            );
        }
    }

    /// The format most lines look like, when enough do.
    fn best(&self) -> Option<Detection> {
        let c = self;
        let best = c
            .hits
            .iter()
            .filter(|h| h.1 > 0.0)
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        let confidence = (best.1 / (2.0 * c.lines as f32)).clamp(0.0, 1.0);
        if confidence < 0.05 {
            return None;
        }
        let shape = c
            .hits
            .iter()
            .find(|h| h.0 == best.0 && !h.2.is_empty())
            .map_or("", |h| h.2);
        Some(Detection {
            format: best.0,
            confidence,
            evidence: format!(
                "{:.0}% of {} sampled lines look like {} ({})",
                confidence * 100.0,
                c.lines,
                best.0.name(),
                shape
            ),
        })
    }
}
