//! Reading a big log on a thread of its own while the caller decodes and judges what has
//! been read so far: parsing a log's lines is about half of the work of `check` on a log, so
//! on two cores the two halves overlap. The caller sees the same events in the
//! same order, one at a time, as when the input is read in place; small inputs (and one-core
//! machines) are read in place.
//!
//! The reading side can also detect each session's protocol on the way
//! ([`SessionDetector`], which spares a front end the separate detection pass over a whole
//! log, see [`super::judged`]) and parse each line into its message ahead of the decoder
//! ([`Ahead`]). Events, and the messages parsed ahead, go back to the reading thread once
//! used, to be refilled or freed there: the allocator is cheapest on the thread that
//! allocated, and that thread is the less busy one.

use super::mapguard::MappedFile;
use super::{Item, MappedLog, Skipped};
use crate::import::Unclassified;
use crate::protocol::{Msg, Protocol};
use crate::recording::{Event, Reader, Source};
use crate::session::{Ahead, Parsed, SessionDetector};
use anyhow::{Context, Result};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// Inputs smaller than this are read in place: a thread costs more than it saves on them.
const PARALLEL_FROM_BYTES: u64 = 4 << 20;

/// Events handed over at a time: enough to make the hand-over cheap, few enough that the
/// decoding side starts at once.
const BATCH: usize = 1024;

/// Batches in flight: bounds the memory the reading side may run ahead by.
const IN_FLIGHT: usize = 8;

/// With fewer batches than this waiting for the caller, the caller is about to wait for the
/// reading side: the next batch's lines are left for the caller to parse. Parsing ahead is
/// the part of the work either side can do, so it goes to whichever is behind, on any
/// machine and any load.
const STARVING: usize = 2;

/// Every session's protocol as a pass over the whole log finds it
/// ([`MappedLog::protocols`]).
pub type Detected = Vec<(Option<String>, Protocol, String)>;

/// What the reading side does besides reading.
#[derive(Debug, Default, Clone, Copy)]
pub struct ReadOptions {
    /// Detect each log session's protocol over the whole log ([`End::detected`]).
    pub detect: bool,
    /// Parse each line ahead ([`Slot::ahead`]), when a log is read on a thread of its own.
    pub ahead: bool,
    /// Read in place whatever the input's size (the reference the threaded reading is held
    /// to).
    pub in_place: bool,
    /// Say where each event is in the input file ([`Slot::at`]).
    pub locate: bool,
}

/// One event (or unreadable line) as the caller gets it.
///
/// A slot is filled on the reading thread's core and read on the caller's, then comes back to
/// be filled again: it is laid out as declared (`repr(C)`), from a cache-line boundary, so
/// that a line's round trip moves few cache lines: the message (two lines, written on both
/// sides), the event's everyday fields (one), where the line is (one). A recording's event has
/// its rare fields written only when they hold something ([`Event::reset_line`]); a log's
/// event is swapped in whole out of the importer's queue (swapping only the fields that differ
/// was tried: the compares cost what it saved).
#[repr(C, align(64))]
pub struct Slot {
    /// With [`ReadOptions::ahead`]: the line's message, parsed ahead (take it). Once the line
    /// is decoded, the message the caller is done with goes back in its place
    /// ([`Slot::give_back`]), to be parsed into again on the reading side.
    pub ahead: Option<Parsed>,
    pub ev: Event,
    /// Its line in a recording (a log's events carry their own `line`).
    pub line: Option<u64>,
    /// With [`ReadOptions::locate`]: the byte offset in the input file of a recording
    /// event's line, or of a log event's text when that is the end of its line verbatim.
    pub at: Option<u64>,
    /// Instead of an event: a recording line that could not be read (boxed: rare, and a
    /// slot crosses from one core to the other twice per line).
    pub skipped: Option<Box<Skipped>>,
}

impl Slot {
    fn new(ev: Event) -> Slot {
        Slot {
            ev,
            line: None,
            skipped: None,
            ahead: None,
            at: None,
        }
    }

    /// Hands back a message parsed ahead that the caller is done with (the decoder's
    /// `take_spent`), in the slot's `ahead`, which the caller has taken: the reading side
    /// parses into it again. A message parsed ahead and left untaken stays (it is reused as
    /// well), and `msg` is dropped.
    pub fn give_back(&mut self, msg: Option<Msg>) {
        if self.ahead.is_none() {
            self.ahead = msg.map(Parsed::returned);
        }
    }

    pub fn item(&self) -> Item<'_> {
        match &self.skipped {
            Some(s) => Item::Skipped(s),
            None => Item::Event(&self.ev, self.line),
        }
    }
}

/// What the reading side found besides the events, once it is done.
#[derive(Default)]
pub struct End {
    pub unclassified: Vec<Unclassified>,
    /// A log's start date once read through.
    pub started: Option<String>,
    /// With [`ReadOptions::detect`], when the whole log was parsed.
    pub detected: Option<Detected>,
    /// The input was read on a thread of its own.
    pub threaded: bool,
}

/// The reading side of one kind of input.
trait Fill {
    /// Reuses or drops the slots in `batch` and fills it with up to `max` new ones; false
    /// once the input is exhausted (the slots filled before are still to be passed on).
    /// `eager`: do the work that either side may do (parse each line ahead).
    fn fill(&mut self, batch: &mut Vec<Slot>, max: usize, eager: bool) -> bool;
    fn end(self) -> End;
}

/// Streams `log`'s events to `f` in log order until `f` stops.
pub fn read_log(
    log: &MappedLog,
    opts: ReadOptions,
    f: &mut impl FnMut(&mut Slot) -> std::io::Result<ControlFlow<()>>,
) -> Result<(std::io::Result<()>, End)> {
    let threaded = threaded(log.size() as u64, opts);
    let make = || -> Result<LogFill<'_>> {
        let mut events = log.events()?;
        if opts.locate {
            events.locate_texts();
        }
        Ok(LogFill {
            log,
            events,
            detector: opts.detect.then(SessionDetector::default),
            // On one thread the decoder parses as cheaply as a parser ahead of it would.
            ahead: (opts.ahead && threaded).then(Ahead::default),
            ended: false,
            released: 0,
        })
    };
    run(make, threaded, f)
}

/// Streams a recording's events and unreadable lines to `f` in file order until `f` stops.
/// A recording file of `size` bytes is read on a thread of its own as a log is (with its lines
/// parsed ahead when `opts` asks); a stream (`size` unknown) in place, line by line.
pub fn read_recording<R: std::io::BufRead + Send>(
    reader: Reader<R>,
    size: Option<u64>,
    opts: ReadOptions,
    f: &mut impl FnMut(&mut Slot) -> std::io::Result<ControlFlow<()>>,
) -> Result<(std::io::Result<()>, End)> {
    read_recording_from(reader, size, None, opts, f)
}

/// [`read_recording`] from the file's map, which `reader` reads: the pages read past are
/// given back as the reading goes.
pub fn read_mapped_recording(
    reader: Reader<&[u8]>,
    mapped: &MappedFile,
    opts: ReadOptions,
    f: &mut impl FnMut(&mut Slot) -> std::io::Result<ControlFlow<()>>,
) -> Result<(std::io::Result<()>, End)> {
    let size = Some(mapped.bytes().len() as u64);
    read_recording_from(reader, size, Some(mapped), opts, f)
}

fn read_recording_from<R: std::io::BufRead + Send>(
    reader: Reader<R>,
    size: Option<u64>,
    mapped: Option<&MappedFile>,
    opts: ReadOptions,
    f: &mut impl FnMut(&mut Slot) -> std::io::Result<ControlFlow<()>>,
) -> Result<(std::io::Result<()>, End)> {
    let threaded = size.is_some_and(|s| threaded(s, opts));
    let make = move || -> Result<RecordingFill<'_, R>> {
        Ok(RecordingFill {
            reader,
            ahead: (opts.ahead && threaded).then(Ahead::default),
            locate: opts.locate,
            mapped,
            released: 0,
        })
    };
    run(make, threaded, f)
}

/// Whether an input of `size` bytes is read on a thread of its own.
pub fn threaded(size: u64, opts: ReadOptions) -> bool {
    !opts.in_place
        && size >= PARALLEL_FROM_BYTES
        && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

fn run<F: Fill>(
    make: impl FnOnce() -> Result<F> + Send,
    threaded: bool,
    f: &mut impl FnMut(&mut Slot) -> std::io::Result<ControlFlow<()>>,
) -> Result<(std::io::Result<()>, End)> {
    if !threaded {
        let mut filler = make()?;
        // One slot at a time, as the input is read: a live recording on standard input is
        // passed on line by line.
        let mut batch = Vec::with_capacity(1);
        let stopped = loop {
            let more = filler.fill(&mut batch, 1, true);
            match pass_on(&mut batch, f) {
                Ok(ControlFlow::Continue(())) if more => {}
                Ok(_) => break Ok(()),
                Err(e) => break Err(e),
            }
        };
        return Ok((stopped, filler.end()));
    }
    // Batches sent and not yet taken by the caller.
    let waiting = &AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (to_caller, batches) = mpsc::sync_channel::<Vec<Slot>>(IN_FLIGHT);
        let (give_back, returned) = mpsc::channel::<Vec<Slot>>();
        let reader = std::thread::Builder::new()
            .name("kibitzer-read".into())
            .spawn_scoped(scope, move || -> Result<End> {
                let mut filler = make()?;
                let mut batch = Vec::with_capacity(BATCH);
                loop {
                    let eager = waiting.load(Ordering::Relaxed) >= STARVING;
                    let more = filler.fill(&mut batch, BATCH, eager);
                    if !batch.is_empty() {
                        waiting.fetch_add(1, Ordering::Relaxed);
                        if to_caller.send(batch).is_err() {
                            // The caller stopped reading.
                            break;
                        }
                    }
                    if !more {
                        break;
                    }
                    batch = returned
                        .try_recv()
                        .unwrap_or_else(|_| Vec::with_capacity(BATCH));
                }
                Ok(filler.end())
            })
            .context("cannot start the reading thread")?;
        let mut stopped = Ok(());
        for mut batch in batches.iter() {
            waiting.fetch_sub(1, Ordering::Relaxed);
            match pass_on(&mut batch, f) {
                Ok(ControlFlow::Continue(())) => {}
                Ok(ControlFlow::Break(())) => break,
                Err(e) => {
                    stopped = Err(e);
                    break;
                }
            }
            // The reading side may have finished and gone: then the batch is simply dropped.
            let _ = give_back.send(batch);
        }
        // Ends the reading side's wait if the caller stopped early.
        drop(batches);
        let mut end = match reader.join() {
            Ok(r) => r?,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        end.threaded = true;
        Ok((stopped, end))
    })
}

/// Every slot of `batch` to `f`, until it stops.
fn pass_on(
    batch: &mut [Slot],
    f: &mut impl FnMut(&mut Slot) -> std::io::Result<ControlFlow<()>>,
) -> std::io::Result<ControlFlow<()>> {
    for i in 0..batch.len() {
        if let Some(later) = batch.get(i + PREFETCH_SLOT_AHEAD) {
            prefetch_slot(later);
        }
        if let Some(later) = batch.get(i + PREFETCH_AHEAD) {
            prefetch(later);
        }
        if let Some(later) = batch.get(i + PREFETCH_PV_AHEAD) {
            prefetch_pv(later);
        }
        let Some(slot) = batch.get_mut(i) else { break };
        if f(slot)?.is_break() {
            return Ok(ControlFlow::Break(()));
        }
    }
    Ok(ControlFlow::Continue(()))
}

/// How many slots ahead of the one being decoded its text and message are asked for.
const PREFETCH_AHEAD: usize = 4;

/// How many slots ahead an `info` line's PV is asked for: its box was asked for at
/// [`PREFETCH_AHEAD`], so the PV's address can be read without waiting by now.
const PREFETCH_PV_AHEAD: usize = 2;

/// The cache lines an `info` line's fields span (the box is cache-line aligned).
const INFO_LINES: usize = std::mem::size_of::<crate::protocol::uci::Info>().div_ceil(64);

/// The bytes of a slot's text asked for at most.
const TEXT_PREFETCHED: usize = 512;

/// How many slots ahead of the one being decoded the slot itself is asked for: it must be
/// there before its text and message can be asked for.
const PREFETCH_SLOT_AHEAD: usize = 12;

/// Asks the cache for a slot: the reading thread wrote it on the other core, and the
/// hardware's own prefetching did not bring it in time (the first read of each slot was
/// two thirds of this loop's time on a big log).
#[inline]
fn prefetch_slot(slot: &Slot) {
    prefetch_lines(std::ptr::from_ref(slot).cast(), std::mem::size_of::<Slot>());
}

/// Asks the cache for what the caller reads first of a slot: its text and its message parsed
/// ahead, written on the reading thread's core moments ago. The slots are read in order and
/// the hardware fetches them ahead on its own, but not what they point to: the first read of
/// a line's text was a third of the judge's time on a big log.
#[inline]
fn prefetch(slot: &Slot) {
    // A PV makes an info line several cache lines long, and each is read.
    let text = &slot.ev.text;
    prefetch_lines(text.as_ptr(), text.len().min(TEXT_PREFETCHED));
    if let Some(Parsed {
        msg: Msg::Uci(crate::protocol::uci::Msg::Info(info)),
        ..
    }) = &slot.ahead
    {
        // All of it: the decoder looks at the rare fields too, and with the box's first four
        // lines only, the first read of the fields past them was the hottest spot of
        // `uci_engine` on a 1 GB log.
        let p = std::ptr::from_ref::<crate::protocol::uci::Info>(info).cast();
        prefetch_lines(p, 64 * INFO_LINES);
    }
}

/// Asks the cache for the PV of an `info` line parsed ahead: a buffer of its own, which the
/// decoder copies (once the box came in time, that copy's first read of it was 4.7% of the
/// viewer's samples on a 1 GB log, and under 1% with this).
#[inline]
fn prefetch_pv(slot: &Slot) {
    if let Some(Parsed {
        msg: Msg::Uci(crate::protocol::uci::Msg::Info(info)),
        ..
    }) = &slot.ahead
        && let Some(pv) = &info.pv
    {
        let pv = pv.as_str();
        prefetch_lines(pv.as_ptr(), pv.len().min(TEXT_PREFETCHED));
    }
}

/// Asks the cache for each 64-byte line of the `len` bytes from `p`.
#[inline(always)]
fn prefetch_lines(p: *const u8, len: usize) {
    for line in 0..len.div_ceil(64) {
        crate::swar::prefetch(p.wrapping_add(64 * line));
    }
}

/// Fills `batch` with up to `max` slots where they are, reusing the slots it holds (a slot is
/// half a kilobyte: moving each new event through a fresh one was a tenth of the reading
/// side's time). `one` fills a slot and says false once the input is exhausted; the result
/// is false then.
fn fill_slots(batch: &mut Vec<Slot>, max: usize, mut one: impl FnMut(&mut Slot) -> bool) -> bool {
    let mut filled = 0;
    let more = loop {
        if filled == max {
            break true;
        }
        if batch.len() == filled {
            batch.push(Slot::new(Event::line(0, 0, Source::Proxy, String::new())));
        }
        let Some(slot) = batch.get_mut(filled) else {
            break true;
        };
        if !one(slot) {
            break false;
        }
        filled += 1;
    };
    batch.truncate(filled);
    more
}

/// The message that came back in `slot` (spent, or never taken), to be parsed into again:
/// taken as the slot is filled, while its cache lines are at hand.
#[inline]
fn take_back(ahead: &mut Option<Ahead>, slot: &mut Slot) {
    if let (Some(a), Some(p)) = (ahead.as_mut(), slot.ahead.take()) {
        a.reclaim(p.msg);
    }
}

/// A log, parsed as it is read ([`crate::import::EventStream`]).
struct LogFill<'a> {
    log: &'a MappedLog,
    events: crate::import::EventStream<'a>,
    detector: Option<SessionDetector>,
    ahead: Option<Ahead>,
    /// The whole log was parsed.
    ended: bool,
    /// The map's pages before this were given back (parsed, never read again by this pass).
    released: usize,
}

impl Fill for LogFill<'_> {
    fn fill(&mut self, batch: &mut Vec<Slot>, max: usize, eager: bool) -> bool {
        let read = self.events.bytes_read();
        if read >= self.released + super::mapguard::RELEASE_EVERY {
            self.log.release(self.released, read);
            self.released = read;
        }
        let (events, log, detector, ahead) = (
            &mut self.events,
            self.log,
            &mut self.detector,
            &mut self.ahead,
        );
        let ended = &mut self.ended;
        fill_slots(batch, max, |slot| {
            take_back(ahead, slot);
            if !events.next_into(&mut slot.ev) {
                *ended = true;
                return false;
            }
            // A shrunk file reads as zeros from there on: stop at once rather than pass them
            // on (the caller's check of the map says what happened).
            if log.shrunk() {
                return false;
            }
            if let Some(d) = detector.as_mut() {
                d.push(&slot.ev);
            }
            slot.at = events.text_at(&slot.ev);
            slot.line = None;
            slot.skipped = None;
            slot.ahead = ahead.as_mut().and_then(|a| a.parse(&slot.ev, eager));
            true
        })
    }

    fn end(mut self) -> End {
        let ended = self.ended;
        End {
            unclassified: self.events.take_unclassified(),
            started: Some(self.events.started()),
            detected: self.detector.filter(|_| ended).map(SessionDetector::finish),
            threaded: false,
        }
    }
}

/// A recording, each slot's event read into again when it comes back.
struct RecordingFill<'a, R> {
    reader: Reader<R>,
    ahead: Option<Ahead>,
    locate: bool,
    /// The map the reader reads, if it reads one.
    mapped: Option<&'a MappedFile>,
    /// The map's pages before this were given back.
    released: usize,
}

impl<R: std::io::BufRead> Fill for RecordingFill<'_, R> {
    fn fill(&mut self, batch: &mut Vec<Slot>, max: usize, eager: bool) -> bool {
        if let (Some(m), Some(read)) = (self.mapped, self.reader.bytes_read()) {
            let read = usize::try_from(read).unwrap_or(usize::MAX);
            if read >= self.released + super::mapguard::RELEASE_EVERY {
                m.release(self.released, read);
                self.released = read;
            }
        }
        let (reader, ahead, locate, mapped) =
            (&mut self.reader, &mut self.ahead, self.locate, self.mapped);
        fill_slots(batch, max, |slot| {
            take_back(ahead, slot);
            // A shrunk file reads as zeros from there on: stop at once (the caller's check of
            // the map says what happened).
            if mapped.is_some_and(MappedFile::shrunk) {
                return false;
            }
            match reader.read_into(&mut slot.ev) {
                None => return false,
                Some(Ok(())) => {
                    slot.at = reader.line_at().filter(|_| locate);
                    slot.line = Some(reader.line());
                    slot.skipped = None;
                    slot.ahead = ahead.as_mut().and_then(|a| a.parse(&slot.ev, eager));
                }
                Some(Err(issue)) => {
                    slot.at = None;
                    slot.line = Some(issue.line);
                    slot.skipped = Some(Box::new(Skipped::from_issue(&issue)));
                    slot.ahead = None;
                }
            }
            true
        })
    }

    fn end(self) -> End {
        End::default()
    }
}
