//! What the viewer shows, built by a reader thread: a compact index of the input (16 bytes a
//! line, and what changes less often beside it), and the one decoder and judge that `decode` and `check` run, fed the same events.
//!
//! The input is memory-mapped and each line's text is read from the map when it is drawn: a
//! recording's JSON line is parsed as the recording format defines it; a log event's text is
//! found in its log line (where an importer rewrote it, or for standard input, the text is
//! kept instead, back to back in one buffer). What the panes need besides (positions,
//! searches, answered requests) is kept where it changes, not per line. The UI thread draws from this under a lock: the reader appends in batches, so a
//! frame never waits for more than one batch.

use crate::protocol::Protocol;
use crate::recording::Event;
use crate::rules::{CheckOptions, Checker, Finding, HangVerdict, LatencyStats, Profile};
use crate::session::{Decoder, Fact, Owed, PosRef};
use std::borrow::Cow;
use std::collections::HashMap;

mod by_row;
mod marks;
mod row;
pub use marks::Answered;
use marks::{PosAt, owed_code};
pub use row::Row;
use row::{ANSWER, IN_MAP, MOVED, OPEN, Runs, T_BITS};

/// Rows read before the rest are reserved ([`Doc::reserve_for_the_rest`]).
const RESERVE_AT: usize = 1 << 16;

/// The input's map, and what it holds.
struct Mapped {
    file: crate::input::mapguard::MappedFile,
    /// A recording (rows point at JSON lines) or a log (rows point at their text).
    recording: bool,
    /// Pages before this were given back after the reader went past them.
    released: usize,
    /// How far into the map rows have been placed.
    read_to: usize,
}

/// A search: the line that started it and the one that ended it.
#[derive(Debug, Clone, Copy)]
pub struct SearchSpan {
    pub session: u16,
    pub start: u32,
    /// `u32::MAX` while it runs.
    pub end: u32,
}

/// What the CPU and memory chart needs of a process sample.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplePoint {
    pub row: u32,
    pub t: u64,
    /// CPU time of the engine's process tree so far (user and system), ms.
    pub cpu_ms: u64,
    pub rss_kib: u64,
}

/// Everything the reader built so far.
pub struct Doc {
    /// The file as messages name it.
    pub file: String,
    /// `recording` or the log format.
    pub format: String,
    pub rows: Vec<Row>,
    /// The rows' event numbers. One run for a recording or a log read whole.
    seqs: Runs,
    /// The rows' line numbers in the input (0: unknown).
    lines: Runs,
    /// Where the time's bits above a row's own change: (first row, t >> T_BITS). Empty
    /// unless the input runs past 78 hours.
    t_high: Vec<(u32, u64)>,
    map: Option<Mapped>,
    /// Texts not read from the map, each after its length (u32, little-endian).
    buffer: Vec<u8>,
    /// The kinds rows point at.
    kinds: Vec<&'static str>,
    /// Per session: (first row, position) each time the position changes.
    positions: Vec<Vec<PosAt>>,
    /// Latency of the lines that answered a request: (row, ns), in row order.
    latencies_by_row: Vec<(u32, u64)>,
    pub answered: Vec<Answered>,
    /// The pongs owed by answered pings (the one thing owed that carries text).
    pongs: Vec<String>,
    answered_by_open: by_row::ByRow,
    pub searches: Vec<SearchSpan>,
    search_counts: Vec<u64>,
    /// Per session, the search still running (index in `searches`).
    running: Vec<Option<usize>>,
    /// Findings by row index (into [`Doc::findings`]).
    pub row_findings: HashMap<u32, Vec<u32>>,
    /// The one decoder and judge every command runs.
    checker: Checker,
    /// Hang verdicts: at the end of the input, or live while following.
    pub hangs: Vec<HangVerdict>,
    pub latencies: Vec<LatencyStats>,
    /// Unreadable lines: (line, reason).
    pub skipped: Vec<(u64, String)>,
    /// The whole input is read (or, following, the engine exited).
    pub done: bool,
    /// Bytes read and total, when known.
    pub progress: Option<(u64, u64)>,
    pub error: Option<String>,
    /// Bumped whenever something changes: the UI redraws only then.
    pub generation: u64,
    /// Wall-clock ns of the first event, when the input tells.
    pub wall_start: Option<u64>,
    /// The recording's header (`None` for a log): lines saved from the viewer keep it.
    pub header: Option<crate::recording::Header>,
    /// What happened to a followed file (waiting for it, truncated, replaced), or how the
    /// input is read when that is not as asked (a recording's profile that does not parse).
    pub notice: Option<String>,
    /// Rows from which a followed file was read again (truncated or replaced): what was
    /// shown before belongs to another file.
    pub restarts: Vec<u32>,
    /// The proxy's process samples, in row order.
    pub samples: Vec<SamplePoint>,
}

impl Doc {
    /// A document judged under `profile` alone (no `.c2w` profile), decoding with `decoder`.
    pub fn new(
        file: impl Into<String>,
        format: impl Into<String>,
        decoder: Decoder,
        profile: Profile,
    ) -> Doc {
        Doc::with_checker(
            file,
            format,
            Checker::new(&CheckOptions::new(profile), decoder),
        )
    }

    fn with_checker(file: impl Into<String>, format: impl Into<String>, checker: Checker) -> Doc {
        Doc {
            file: file.into(),
            format: format.into(),
            rows: Vec::new(),
            seqs: Runs::default(),
            lines: Runs::default(),
            t_high: Vec::new(),
            map: None,
            buffer: Vec::new(),
            kinds: vec!["-"],
            positions: Vec::new(),
            latencies_by_row: Vec::new(),
            answered: Vec::new(),
            pongs: Vec::new(),
            answered_by_open: by_row::ByRow::default(),
            searches: Vec::new(),
            search_counts: Vec::new(),
            running: Vec::new(),
            row_findings: HashMap::new(),
            checker,
            hangs: Vec::new(),
            latencies: Vec::new(),
            skipped: Vec::new(),
            done: false,
            progress: None,
            error: None,
            generation: 0,
            wall_start: None,
            header: None,
            notice: None,
            restarts: Vec::new(),
            samples: Vec::new(),
        }
    }

    /// The document of an opened input, judged as `check` judges it under `opts`: a
    /// recording made under a Chess Academy profile (`record --c2w`, `probe --c2w`) is held
    /// to the profile its header carries (a header whose profile does not parse is read
    /// without it). `presets` are the sessions' protocols as detected.
    pub fn for_input(
        input: &crate::input::Input,
        opts: &CheckOptions,
        presets: Vec<(Option<String>, Protocol, String)>,
    ) -> Doc {
        let (opts, note) = opts.for_input(input.recording_header());
        let decoder = opts.decoder(presets).retain_searches(false);
        let mut doc = Doc::with_checker(
            input.shown(),
            input.format_name(),
            Checker::new(&opts, decoder),
        );
        doc.header = input.recording_header().cloned();
        // What `check` and `decode` say on stderr, the status bar says.
        doc.notice = note;
        doc
    }

    /// The document of a file to be followed (`--follow`) that is not open yet: its format is
    /// known once its first lines are, and each session's protocol as its lines come.
    pub fn for_follow(path: &std::path::Path, opts: &CheckOptions) -> Doc {
        let decoder = opts.decoder(Vec::new()).retain_searches(false);
        Doc::with_checker(
            path.display().to_string(),
            "following",
            Checker::new(opts, decoder),
        )
    }

    /// The decoder, with every session decoded so far.
    pub fn decoder(&self) -> &Decoder {
        self.checker.decoder()
    }

    /// Every finding so far, in the order found ([`Doc::row_findings`] indexes them).
    pub fn findings(&self) -> &[Finding] {
        self.checker.findings()
    }

    /// Reads the lines' text from this map of the input (`recording`: a kibitzer recording,
    /// else the log the events are imported from) instead of keeping it.
    pub fn use_map(&mut self, file: crate::input::mapguard::MappedFile, recording: bool) {
        self.map = Some(Mapped {
            file,
            recording,
            released: 0,
            read_to: 0,
        });
    }

    /// The mapped input, when the text comes from it, and how far it is read.
    /// Gives back the resident pages of the map that reading has gone past (they are read
    /// again when drawn): a 1 GB input does not stay resident while it is indexed.
    pub fn release_read_pages(&mut self) {
        if let Some(m) = self.map.as_mut() {
            let at = m.read_to;
            if at >= m.released + crate::input::mapguard::RELEASE_EVERY {
                m.file.release(m.released, at);
                m.released = at;
            }
        }
    }

    pub fn map(&self) -> Option<(&[u8], usize)> {
        self.map.as_ref().map(|m| (m.file.bytes(), m.read_to))
    }

    /// Bytes of text kept in memory (the rest is read from the map).
    pub fn kept_bytes(&self) -> usize {
        self.buffer.len()
    }

    /// The input shrank under the map: lines past its new end read as zeros.
    pub fn map_shrunk(&self) -> bool {
        self.map.as_ref().is_some_and(|m| m.file.shrunk())
    }

    /// A decoder as `check` sets it up, keeping the games (for the boards) but neither the
    /// lines nor finished searches and answered requests: the document keeps those compactly.
    pub fn new_decoder(
        protocol: Option<Protocol>,
        presets: Vec<(Option<String>, Protocol, String)>,
    ) -> Decoder {
        Decoder::new(protocol)
            .with_detected(presets)
            .retain_searches(false)
    }

    fn intern(&mut self, kind: &'static str) -> u8 {
        // Kinds are a few dozen literals: the same one is the same pointer, compared before
        // the text (comparing texts was a twentieth of indexing a big log).
        let same = |k: &&str| std::ptr::eq(k.as_ptr(), kind.as_ptr()) && k.len() == kind.len();
        if let Some(i) = self.kinds.iter().position(same) {
            return i as u8;
        }
        match self.kinds.iter().position(|k| *k == kind) {
            Some(i) => i as u8,
            None if self.kinds.len() < 255 => {
                self.kinds.push(kind);
                (self.kinds.len() - 1) as u8
            }
            None => 0,
        }
    }

    /// The kinds of the lines read so far (and `-`).
    pub fn kinds(&self) -> &[&'static str] {
        &self.kinds
    }

    pub fn kind(&self, r: usize) -> &'static str {
        self.rows
            .get(r)
            .and_then(|row| self.kinds.get(usize::from(row.kind())))
            .copied()
            .unwrap_or("-")
    }

    /// Where the event's text is: (offset, flags) in the map, or kept in the buffer. `at`:
    /// where the reader found it in the mapped file (see
    /// [`crate::input::pipeline::Slot::at`]): a recording's line, or a log event's text when
    /// it is the end of its line verbatim. Anything else (a log line an importer rewrote, a
    /// recording event spread over several lines) is kept.
    fn place_text(&mut self, ev: &Event, at: Option<u64>) -> u64 {
        if let Some(m) = self.map.as_mut()
            && let Some(at) = at.filter(|&a| a < m.file.bytes().len() as u64)
        {
            m.read_to = m.read_to.max(at as usize);
            return at | IN_MAP;
        }
        let at = self.buffer.len() as u64;
        let bytes = ev.line_bytes();
        let len = u32::try_from(bytes.len()).unwrap_or(u32::MAX);
        self.buffer.extend_from_slice(&len.to_le_bytes());
        self.buffer.extend_from_slice(&bytes[..len as usize]);
        at
    }

    /// The message of the last line pushed, once the decoder is done with it: it goes back to
    /// the reading thread, which parses the next lines into it.
    pub fn take_spent(&mut self) -> Option<crate::protocol::Msg> {
        self.checker.take_spent()
    }

    /// Decodes and judges one event and adds its row.
    pub fn push(&mut self, ev: &Event, line: Option<u64>) {
        self.push_ahead(ev, line, None, &mut None);
    }

    /// [`Doc::push`] with the line's message parsed ahead by the reading thread.
    pub fn push_ahead(
        &mut self,
        ev: &Event,
        line: Option<u64>,
        at: Option<u64>,
        ahead: &mut Option<crate::session::Parsed>,
    ) -> usize {
        let placed = self.place_text(ev, at);
        let from = self.checker.push_ahead(ev, line, ahead);
        if self.wall_start.is_none() {
            self.wall_start = ev.ts.map(|ts| ts.saturating_sub(ev.t));
        }
        let r = self.rows.len() as u32;
        if let Some(s) = ev.sample.as_deref() {
            self.samples.push(SamplePoint {
                row: r,
                t: ev.t,
                cpu_ms: s.user_ms + s.sys_ms,
                rss_kib: s.rss_kib,
            });
        }
        let kind = match (&self.checker.decoded().msg, ev.kind) {
            (Some(m), _) => m.kind(),
            (None, Some(k)) => k.as_str(),
            (None, None) => "-",
        };
        // An NBoard `hint` asks for searches as `go` does: its `search` lines get a span too.
        let hint = matches!(
            self.checker.decoded().msg,
            Some(crate::protocol::Msg::Nboard(
                crate::protocol::nboard::Msg::Hint(_)
            ))
        );
        let kind = self.intern(kind);
        let d = self.checker.decoded();
        let session = d.session;
        let pos = d.position;
        let moved = d.moved;
        if self.rows.len() == RESERVE_AT {
            self.reserve_for_the_rest();
        }
        self.seqs.push(r, ev.seq);
        self.lines.push(r, line.or(ev.line).unwrap_or(0));
        let high = ev.t >> T_BITS;
        if self.t_high.last().map_or(0, |&(_, h)| h) != high {
            self.t_high.push((r, high));
        }
        let mut row = Row::new(
            ev.t,
            u16::try_from(session).unwrap_or(u16::MAX),
            placed,
            ev.src,
            ev.eol,
            kind,
        );
        if moved {
            row.set(MOVED);
        }
        self.rows.push(row);
        // Positions, where they change.
        if self.positions.len() <= session {
            self.positions.resize_with(session + 1, Vec::new);
        }
        let changes = &mut self.positions[session];
        let at = PosAt::new(r, pos);
        if changes.last().is_none_or(|p| p.pos() != at.pos()) {
            changes.push(at);
        }
        let earlier: Vec<(u64, &'static str)> = self
            .checker
            .decoded()
            .earlier
            .iter()
            .map(|e| (e.at.seq, e.msg.kind()))
            .collect();
        for (seq, kind) in earlier {
            let k = self.intern(kind);
            if let Some(i) = self.row_of_seq(seq) {
                self.rows[i].set_kind(k);
            }
        }
        self.track_answers(r, ev.t);
        self.track_searches(session, r, hint);
        self.place_findings(from);
        self.generation += 1;
        from
    }

    fn track_answers(&mut self, r: u32, t: u64) {
        let facts = std::mem::take(&mut self.checker.decoded_mut().facts);
        for o in facts.iter().filter_map(|f| match f {
            Fact::Closed(o) => Some(o),
            _ => None,
        }) {
            let open_row = self.row_of_seq(o.opened.seq).map_or(u32::MAX, |x| x as u32);
            if !o.cancelled && open_row != r && !self.rows[r as usize].has(ANSWER) {
                self.latencies_by_row
                    .push((r, t.saturating_sub(o.opened.t)));
                self.rows[r as usize].set(ANSWER);
            }
            self.answered_by_open
                .insert(open_row, self.answered.len() as u32);
            let code = owed_code(&o.owed, &mut self.pongs);
            self.answered
                .push(Answered::new(open_row, r, code, o.cancelled));
            let s = usize::from(self.rows[r as usize].session());
            if matches!(o.owed, Owed::BestMove | Owed::Move | Owed::NboardMove) {
                if let Some(i) = self.running.get_mut(s).and_then(Option::take) {
                    self.searches[i].end = r;
                }
            } else if matches!(o.owed, Owed::Pong(_)) {
                // A hint has no last line: the pong to a ping sent after it fences its
                // searches ("NBoard will think the analysis relates to the current position").
                let hint = self.running.get(s).copied().flatten().filter(|&i| {
                    let start = self.searches[i].start;
                    start < open_row && self.kind(start as usize) == "hint"
                });
                if let Some(i) = hint {
                    self.searches[i].end = r;
                    self.running[s] = None;
                }
            }
        }
        self.checker.decoded_mut().facts = facts;
    }

    fn track_searches(&mut self, session: usize, r: u32, hint: bool) {
        let count = self
            .decoder()
            .session(session)
            .map_or(0, |s| s.search_count);
        if self.search_counts.len() <= session {
            self.search_counts.resize(session + 1, 0);
        }
        if count > self.search_counts[session] || hint {
            self.search_counts[session] = count.max(self.search_counts[session]);
            if self.running.len() <= session {
                self.running.resize(session + 1, None);
            }
            // A new search ends the one before it in the same session.
            if let Some(i) = self.running[session].take() {
                self.searches[i].end = r;
            }
            self.running[session] = Some(self.searches.len());
            self.searches.push(SearchSpan {
                session: u16::try_from(session).unwrap_or(u16::MAX),
                start: r,
                end: u32::MAX,
            });
        }
    }

    /// The board after row `r`.
    pub fn pos(&self, r: usize) -> Option<PosRef> {
        let row = self.rows.get(r)?;
        let changes = self.positions.get(usize::from(row.session()))?;
        let i = changes.partition_point(|p| p.row as usize <= r);
        changes.get(i.checked_sub(1)?)?.pos()
    }

    /// How long after its request row `r` came, when it answered one.
    pub fn latency(&self, r: usize) -> Option<u64> {
        let row = self.rows.get(r)?;
        if !row.has(ANSWER) {
            return None;
        }
        let i = self
            .latencies_by_row
            .binary_search_by_key(&(r as u32), |(x, _)| *x)
            .ok()?;
        Some(self.latencies_by_row[i].1)
    }

    /// The request row `r` opened, once answered or withdrawn.
    pub fn answer_of(&self, r: usize) -> Option<&Answered> {
        let i = self.answered_by_open.get(r as u32)?;
        self.answered.get(i as usize)
    }

    /// The rows where a game begins (its first line with a board), sorted.
    pub fn game_starts(&self) -> Vec<u32> {
        let mut v = Vec::new();
        for changes in &self.positions {
            let mut last = None;
            for at in changes {
                if let Some(p) = at.pos() {
                    if last != Some(p.game) {
                        v.push(at.row);
                    }
                    last = Some(p.game);
                }
            }
        }
        v.sort_unstable();
        v
    }

    /// The search row `r` belongs to: the last one of its session started at or before it and
    /// not ended before it (looking back over at most a few searches of other sessions).
    pub fn search_of(&self, r: usize) -> Option<&SearchSpan> {
        let session = self.rows.get(r)?.session();
        let i = self.searches.partition_point(|x| x.start as usize <= r);
        self.searches[..i]
            .iter()
            .rev()
            .take(64)
            .find(|x| x.session == session)
            .filter(|x| x.end as usize >= r)
    }

    /// What the request of `a` was owed.
    pub fn owed(&self, a: &Answered) -> Owed {
        a.owed(&self.pongs)
    }

    /// The requests row `r` answered or withdrew.
    pub fn answers_by(&self, r: usize) -> &[Answered] {
        let r = r as u32;
        let lo = self.answered.partition_point(|a| a.close_row < r);
        let hi = self.answered.partition_point(|a| a.close_row <= r);
        &self.answered[lo..hi]
    }

    /// The kept bytes of a row whose text is in the buffer.
    fn kept(&self, row: &Row) -> Option<&[u8]> {
        let off = row.offset() as usize;
        let len = u32::from_le_bytes(self.buffer.get(off..off + 4)?.try_into().ok()?) as usize;
        self.buffer.get(off + 4..off + 4 + len)
    }

    /// The event of row `r` as read again (a recording's line from the map; for a log, its
    /// text with the row's source and ending).
    pub fn event(&self, r: usize) -> Option<Event> {
        let row = self.rows.get(r)?;
        let bytes = match (&self.map, row.has(IN_MAP)) {
            (Some(m), true) if m.recording => {
                let line = rest_of_line(m.file.bytes(), row.offset() as usize)?;
                return serde_json::from_slice::<Event>(line).ok();
            }
            (Some(m), true) => rest_of_line(m.file.bytes(), row.offset() as usize)?,
            _ => self.kept(row)?,
        };
        let mut ev = Event::line(
            self.seq(r),
            self.t(r),
            row.src(),
            String::from_utf8_lossy(bytes),
        );
        if std::str::from_utf8(bytes).is_err() {
            ev.hex = Some(crate::recording::event::to_hex(bytes));
        }
        ev.eol = row.eol();
        Some(ev)
    }

    /// The lines the input could not be read at just before row `r` (after row `r - 1`),
    /// each with its reason and, when the input is mapped, its bytes as they are in the file.
    pub fn unreadable_before(&self, r: usize) -> Vec<(u64, &str, Option<&[u8]>)> {
        if self.skipped.is_empty() {
            return Vec::new();
        }
        let (Some(row), here) = (self.rows.get(r), self.line(r)) else {
            return Vec::new();
        };
        let before = r.checked_sub(1).map_or(0, |p| self.line(p));
        if here == 0 {
            return Vec::new();
        }
        let lo = self.skipped.partition_point(|(l, _)| *l <= before);
        let hi = self.skipped.partition_point(|(l, _)| *l < here);
        let map = self
            .map
            .as_ref()
            .filter(|_| row.has(IN_MAP))
            .map(|m| m.file.bytes());
        self.skipped[lo..hi]
            .iter()
            .map(|(l, why)| {
                let raw = map.and_then(|m| line_back(m, row.offset() as usize, here - l));
                (*l, why.as_str(), raw)
            })
            .collect()
    }

    /// The text of row `r` (invalid UTF-8 replaced; [`Doc::event`] has the exact bytes).
    pub fn text(&self, r: usize) -> Cow<'_, str> {
        let Some(row) = self.rows.get(r) else {
            return Cow::Borrowed("");
        };
        match (&self.map, row.has(IN_MAP)) {
            (Some(m), true) if m.recording => Cow::Owned(
                self.event(r)
                    .map_or_else(|| "(unreadable: the file changed)".to_owned(), |e| e.text),
            ),
            (Some(m), true) => rest_of_line(m.file.bytes(), row.offset() as usize)
                .map_or(Cow::Borrowed(""), String::from_utf8_lossy),
            _ => self
                .kept(row)
                .map_or(Cow::Borrowed(""), String::from_utf8_lossy),
        }
    }

    /// Files findings from index `from` on under their rows.
    fn place_findings(&mut self, from: usize) {
        for i in from..self.checker.findings().len() {
            let f = &self.checker.findings()[i];
            let (seq, sev) = (f.seq, f.severity);
            let Some(r) = self.row_of_seq(seq) else {
                continue;
            };
            self.rows[r].set_sev(sev);
            self.row_findings
                .entry(r as u32)
                .or_default()
                .push(i as u32);
        }
    }

    /// The row of event `seq` (events come in `seq` order; imported logs of several engines
    /// too, as the importer numbers them in file order).
    pub fn row_of_seq(&self, seq: u64) -> Option<usize> {
        self.seqs.row_of(seq, self.rows.len())
    }

    /// Makes room for the rows of the rest of a mapped input, from the size of the lines read
    /// so far: a vector grown by doubling holds both copies for a moment, 100 MB of rows on
    /// a 1 GB input that way.
    fn reserve_for_the_rest(&mut self) {
        let Some(m) = &self.map else { return };
        let (read, total) = (m.read_to.max(1), m.file.bytes().len());
        let expected = self.rows.len().saturating_mul(total / read + 1);
        // A tenth more for lines shorter than the first ones; an estimate far off is only
        // address space, never touched.
        let want = expected.saturating_add(expected / 10);
        self.rows
            .reserve_exact(want.saturating_sub(self.rows.len()).min(u32::MAX as usize));
    }

    /// The event number of row `r`.
    pub fn seq(&self, r: usize) -> u64 {
        self.seqs.get(r)
    }

    /// The line of the input row `r` was read from (0: unknown).
    pub fn line(&self, r: usize) -> u64 {
        self.lines.get(r)
    }

    /// The first row read from line `n` of the input or a later one.
    pub fn row_at_line(&self, n: u64) -> Option<usize> {
        self.lines.first_at_least(n, self.rows.len())
    }

    /// The time of row `r`, in nanoseconds since the start of the input.
    pub fn t(&self, r: usize) -> u64 {
        let Some(row) = self.rows.get(r) else {
            return 0;
        };
        let high = match self.t_high.partition_point(|&(r0, _)| r0 as usize <= r) {
            0 => 0,
            k => self.t_high[k - 1].1,
        };
        (high << T_BITS) | row.t_low()
    }

    /// An unreadable line of the input.
    pub fn skip(&mut self, line: u64, reason: String) {
        self.skipped.push((line, reason));
        self.generation += 1;
    }

    /// Live hang verdicts at `now` (ns since the start) while the input is still written.
    pub fn live_verdicts(&mut self, now: u64) {
        if !self.checker.is_finished() {
            let v = self.checker.verdicts_at(now);
            if v != self.hangs {
                self.hangs = v;
                self.generation += 1;
            }
        }
    }

    /// The end of the input: deadlines never met, session-level rules, the hang verdicts.
    pub fn finish(&mut self, at: Option<u64>) {
        if self.checker.is_finished() {
            return;
        }
        let from = self.checker.finish(at);
        self.hangs = self.checker.hangs().to_vec();
        self.latencies = self.checker.latencies().to_vec();
        self.place_findings(from);
        let dec = self.checker.decoder();
        let open: Vec<u64> = (0..dec.sessions().len())
            .flat_map(|s| dec.open_obligations(s).map(|o| o.opened.seq))
            .collect();
        for seq in open {
            if let Some(r) = self.row_of_seq(seq) {
                self.rows[r].set(OPEN);
            }
        }
        self.done = true;
        self.generation += 1;
    }

    /// Findings on row `r`, worst first.
    pub fn findings_of(&self, r: usize) -> Vec<&Finding> {
        let mut v: Vec<&Finding> = self
            .row_findings
            .get(&(r as u32))
            .into_iter()
            .flatten()
            .filter_map(|&i| self.findings().get(i as usize))
            .collect();
        v.sort_by_key(|f| std::cmp::Reverse(f.severity));
        v
    }

    /// Counts of findings by severity: error, warning, note.
    pub fn counts(&self) -> [usize; 3] {
        let c = crate::rules::report::Counts::of(self.findings());
        [c.error, c.warning, c.note]
    }
}

/// The map's bytes from `at` to the end of that line, before a `\r`: a recording's JSON line,
/// or a log row's text (which ends its line: [`IN_MAP`]).
/// The line `back` lines before the one that holds byte `at`.
fn line_back(map: &[u8], at: usize, back: u64) -> Option<&[u8]> {
    let mut start = memchr::memrchr(b'\n', map.get(..at)?).map_or(0, |i| i + 1);
    for _ in 0..back {
        let end = start.checked_sub(1)?;
        start = memchr::memrchr(b'\n', &map[..end]).map_or(0, |i| i + 1);
    }
    rest_of_line(map, start)
}

fn rest_of_line(map: &[u8], at: usize) -> Option<&[u8]> {
    let rest = map.get(at..)?;
    let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
    Some(rest[..end].strip_suffix(b"\r").unwrap_or(&rest[..end]))
}

#[cfg(test)]
mod tests;
