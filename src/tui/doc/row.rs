//! One line of the viewer's index in 16 bytes, and the values kept beside the rows as runs
//! (event numbers, line numbers, the high bits of times past 78 hours).

use crate::recording::{Eol, Source};
use crate::rules::Severity;

/// One line of the input: 16 bytes. What most rows share or count on by one (the event and
/// line numbers, the rare high bits of a time) is kept beside them (`Runs`, [`Doc::t`]).
///
/// [`Doc::t`]: super::Doc::t
#[derive(Debug, Clone, Copy)]
pub struct Row {
    /// Nanoseconds since the start of the input (the low [`T_BITS`] bits) and the session.
    time_session: u64,
    /// Offset of the text (40 bits: in the file for a recording, in the text buffer for a
    /// log), the flags below and the kind.
    packed: u64,
}

/// Bits of a row's time kept in the row: 78 hours in nanoseconds. Inputs longer than that
/// (a tournament's log over days) keep the rest in [`Doc::t`]'s table.
///
/// [`Doc::t`]: super::Doc::t
pub const T_BITS: u32 = 48;
const T_MASK: u64 = (1 << T_BITS) - 1;

const OFFSET_BITS: u32 = 40;
const OFFSET_MASK: u64 = (1 << OFFSET_BITS) - 1;
const SEV_SHIFT: u32 = 40; // 3 bits: 0 none, 1 + Severity
const SRC_SHIFT: u32 = 43; // 2 bits
const EOL_SHIFT: u32 = 45; // 2 bits
pub const MOVED: u64 = 1 << 47;
pub const OPEN: u64 = 1 << 48;
pub const ANSWER: u64 = 1 << 49;
/// The text is in the map (else in the buffer, after its length as 4 bytes): a recording's
/// JSON line, or a log row's text that ends its line (from the offset to the line's end,
/// before a `\r`: its length is read there, not kept; any other text goes to the buffer).
pub const IN_MAP: u64 = 1 << 50;
const KIND_SHIFT: u32 = 51; // 8 bits: index into the document's kinds

impl Row {
    pub fn new(t: u64, session: u16, place: u64, src: Source, eol: Eol, kind: u8) -> Row {
        let src = match src {
            Source::Gui => 0,
            Source::Engine => 1,
            Source::Stderr => 2,
            Source::Proxy => 3,
        };
        let eol = match eol {
            Eol::Lf => 0,
            Eol::Crlf => 1,
            Eol::None => 2,
        };
        Row {
            time_session: (t & T_MASK) | (u64::from(session) << T_BITS),
            packed: place
                | (src << SRC_SHIFT)
                | (eol << EOL_SHIFT)
                | (u64::from(kind) << KIND_SHIFT),
        }
    }

    /// The time's low `T_BITS` bits ([`Doc::t`] has the whole time).
    ///
    /// [`Doc::t`]: super::Doc::t
    pub fn t_low(&self) -> u64 {
        self.time_session & T_MASK
    }

    pub fn session(&self) -> u16 {
        (self.time_session >> T_BITS) as u16
    }

    pub fn offset(&self) -> u64 {
        self.packed & OFFSET_MASK
    }

    pub fn has(&self, flag: u64) -> bool {
        self.packed & flag != 0
    }

    pub fn set(&mut self, flag: u64) {
        self.packed |= flag;
    }

    pub fn kind(&self) -> u8 {
        (self.packed >> KIND_SHIFT) as u8
    }

    pub fn set_kind(&mut self, kind: u8) {
        self.packed = (self.packed & !(0xff << KIND_SHIFT)) | (u64::from(kind) << KIND_SHIFT);
    }

    pub fn src(&self) -> Source {
        match (self.packed >> SRC_SHIFT) & 3 {
            0 => Source::Gui,
            1 => Source::Engine,
            2 => Source::Stderr,
            _ => Source::Proxy,
        }
    }

    pub fn eol(&self) -> Eol {
        match (self.packed >> EOL_SHIFT) & 3 {
            0 => Eol::Lf,
            1 => Eol::Crlf,
            _ => Eol::None,
        }
    }

    /// The worst finding on the line.
    pub fn sev(&self) -> Option<Severity> {
        match (self.packed >> SEV_SHIFT) & 7 {
            1 => Some(Severity::Chat),
            2 => Some(Severity::Note),
            3 => Some(Severity::Warning),
            4 => Some(Severity::Error),
            _ => None,
        }
    }

    pub fn set_sev(&mut self, s: Severity) {
        if self.sev() < Some(s) {
            self.packed = (self.packed & !(7 << SEV_SHIFT)) | ((s as u64 + 1) << SEV_SHIFT);
        }
    }

    /// The line changed the board.
    pub fn moved(&self) -> bool {
        self.has(MOVED)
    }

    /// The line is a request still owed an answer at the end of the input.
    pub fn open(&self) -> bool {
        self.has(OPEN)
    }
}

/// A number per row that mostly counts on by one from row to row (event numbers, line
/// numbers), kept as runs: (first row, its number), the rows after it numbered on by one until
/// the next run. One run for a recording read whole.
pub struct Runs {
    runs: Vec<(u32, u64)>,
    /// Every run starts after the last one's numbers: [`Runs::row_of`] can bisect.
    sorted: bool,
    /// No run starts below the last one's numbers, and no row is numbered 0:
    /// [`Runs::first_at_least`] can bisect.
    monotone: bool,
}

impl Default for Runs {
    fn default() -> Runs {
        Runs {
            runs: Vec::new(),
            sorted: true,
            monotone: true,
        }
    }
}

impl Runs {
    /// Numbers row `r` (the next one) `n`: on in its run, or a new run.
    pub fn push(&mut self, r: u32, n: u64) {
        if let Some(&(r0, n0)) = self.runs.last() {
            let ran = u64::from(r - r0);
            if n0.checked_add(ran) == Some(n) {
                return;
            }
            let last = n0.saturating_add(ran - 1);
            self.sorted &= n > last;
            self.monotone &= n >= last;
        }
        self.monotone &= n != 0;
        self.runs.push((r, n));
    }

    /// The number of row `r` (0 before the first run).
    pub fn get(&self, r: usize) -> u64 {
        let k = self
            .runs
            .partition_point(|&(r0, _)| r0 as usize <= r)
            .saturating_sub(1);
        self.runs
            .get(k)
            .map_or(0, |&(r0, n0)| n0.saturating_add((r - r0 as usize) as u64))
    }

    /// The row numbered `n` among the first `rows`; the last such row when numbers repeat or
    /// go back (a hand-edited recording).
    pub fn row_of(&self, n: u64, rows: usize) -> Option<usize> {
        let run_end = |k: usize| self.runs.get(k + 1).map_or(rows, |&(r, _)| r as usize);
        let row_in = |k: usize| {
            let (r0, n0) = *self.runs.get(k)?;
            let r = (r0 as usize).checked_add(usize::try_from(n.checked_sub(n0)?).ok()?)?;
            (r < run_end(k)).then_some(r)
        };
        if self.sorted {
            let k = self.runs.partition_point(|&(_, s)| s <= n);
            return row_in(k.checked_sub(1)?);
        }
        (0..self.runs.len()).rev().find_map(row_in)
    }

    /// The first row whose number is at least `n` (rows numbered 0, unknown, left out).
    pub fn first_at_least(&self, n: u64, rows: usize) -> Option<usize> {
        if !self.monotone {
            return (0..rows).find(|&r| {
                let x = self.get(r);
                x != 0 && x >= n
            });
        }
        // Runs numbered on from below `n`: the row numbered `n` is in the last of them, if
        // that run reaches it; else the next run starts past `n`.
        let k = self.runs.partition_point(|&(_, s)| s < n);
        if let Some(&(r0, n0)) = k.checked_sub(1).and_then(|i| self.runs.get(i)) {
            let r = (r0 as usize).saturating_add(usize::try_from(n - n0).unwrap_or(usize::MAX));
            let end = self.runs.get(k).map_or(rows, |&(r, _)| r as usize);
            if r < end {
                return Some(r);
            }
        }
        self.runs
            .get(k)
            .map(|&(r, _)| r as usize)
            .filter(|&r| r < rows)
    }
}
