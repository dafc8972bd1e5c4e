//! A recording that `kibitzer record` is still writing, read as it grows: at its end the
//! reader waits for more instead of ending (the recorder may be half-way through a line), and
//! lets the caller do something meanwhile (the viewer's live hang verdict). Its events and
//! unreadable lines come out as every other input's do ([`Item`]).

use super::{ControlFlow, Item, Skipped};
use crate::recording::{Event, Reader, Source};
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the end of a growing file is looked at again.
const POLL: Duration = Duration::from_millis(100);

/// A file that is still being written: at its end, waits for more instead of ending, and
/// between polls lets `idle` run.
struct Tail<'a> {
    file: std::fs::File,
    stop: &'a AtomicBool,
    idle: &'a mut dyn FnMut(),
}

impl Read for Tail<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.file.read(buf)?;
            if n > 0 || self.stop.load(Ordering::Relaxed) {
                return Ok(n);
            }
            (self.idle)();
            std::thread::sleep(POLL);
        }
    }
}

/// Reads the recording at `path` as it is written, giving each event (with its line) and
/// each unreadable line to `f` until `f` breaks or `stop` is set; `idle` runs whenever the
/// reader waits at the end of the file. Errors: the file cannot be opened, or is no
/// recording.
pub fn follow(
    path: &Path,
    stop: &AtomicBool,
    idle: &mut dyn FnMut(),
    mut f: impl FnMut(Item<'_>) -> ControlFlow<()>,
) -> anyhow::Result<()> {
    let file = std::fs::File::open(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let tail = Tail { file, stop, idle };
    let mut reader = Reader::new(std::io::BufReader::new(tail))
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut ev = Event::line(0, 0, Source::Proxy, String::new());
    while let Some(item) = reader.read_into(&mut ev) {
        let flow = match item {
            Ok(()) => f(Item::Event(&ev, Some(reader.line()))),
            Err(issue) => f(Item::Skipped(&Skipped::from_issue(&issue))),
        };
        if flow.is_break() || stop.load(Ordering::Relaxed) {
            break;
        }
    }
    Ok(())
}
