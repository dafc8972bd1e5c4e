//! A log (not a recording), mapped in memory and parsed as it is read.

use super::{FormatChoice, InputFile, mapguard};
use crate::import::{self, LogFormat};
use crate::protocol::Protocol;
use crate::recording::Event;
use crate::session::SessionDetector;
use anyhow::{Context, Result, bail};

/// A log (not a recording) mapped in memory, whose events are parsed as they are read.
pub struct MappedLog {
    shown: String,
    map: mapguard::MappedFile,
    format: LogFormat,
}

impl MappedLog {
    /// A page of the map vanished (the file shrank) while it was read.
    pub(super) fn shrunk(&self) -> bool {
        self.map.shrunk()
    }

    pub fn format(&self) -> LogFormat {
        self.format
    }

    /// Gives back the resident pages of `from..to` (already parsed): see
    /// [`mapguard::release`].
    pub fn release(&self, from: usize, to: usize) {
        self.map.release(from, to);
    }

    /// Size of the log in bytes.
    pub fn size(&self) -> usize {
        self.map.bytes().len()
    }

    /// The events in log order, parsed as they are taken ([`import::stream`]); each call
    /// starts again from the top.
    pub fn events(&self) -> Result<import::EventStream<'_>> {
        import::stream(self.map.bytes(), Some(self.format)).with_context(|| self.shown.clone())
    }

    /// An error when the file shrank while it was read: what was read past its new end is
    /// not the log, so the output cannot be trusted.
    pub fn check_unchanged(&self) -> Result<()> {
        if self.map.shrunk() {
            bail!(
                "{}: the file shrank while it was read (a program is still writing or rotating \
                 it); the output above is incomplete: copy the log and read the copy",
                self.shown
            );
        }
        Ok(())
    }

    /// The protocol of each session, as [`crate::session::Decoder::with_detected`] takes it, from a pass over
    /// the whole log (a session can start anywhere in it); nothing to find when the user
    /// forces a protocol.
    pub fn protocols(
        &self,
        forced: Option<Protocol>,
    ) -> Result<Vec<(Option<String>, Protocol, String)>> {
        let mut detector = SessionDetector::default();
        if forced.is_none() {
            self.events()?.for_each(|ev| detector.push(&ev));
        }
        self.check_unchanged()?;
        Ok(detector.finish())
    }
}

/// Opens a log for streaming (`format`: `None` to detect it, or a format name; a recording is
/// not a log here: see [`super::open_recording`]).
pub fn open_log(file: &InputFile, format: FormatChoice) -> Result<MappedLog> {
    let forced = format.log();
    let shown = file.shown().to_owned();
    let f = std::fs::File::open(file.path()).with_context(|| format!("cannot open {shown}"))?;
    if f.metadata().map(|m| m.len()).unwrap_or(0) == 0 {
        bail!("{shown}: the file is empty");
    }
    let map = mapguard::MappedFile::map(&f).with_context(|| format!("cannot map {shown}"))?;
    let format = import::stream(map.bytes(), forced)
        .with_context(|| shown.clone())?
        .format();
    if let Some(forced) = forced {
        refuse_wrong_format(map.bytes(), forced, &shown)?;
    }
    Ok(MappedLog { shown, map, format })
}

/// A forced `--input-format` under which the first lines of the log hold no traffic, while
/// the log's own format would find some, is a mistake, not an empty session: say so, and what
/// the log looks like instead. (A format without traffic, such as cutechess-cli's plain
/// output, is not refused: detection agrees with it.)
fn refuse_wrong_format(map: &[u8], forced: LogFormat, shown: &str) -> Result<()> {
    const SAMPLE: usize = 1 << 20;
    let end = if map.len() <= SAMPLE {
        map.len()
    } else {
        memchr::memrchr(b'\n', &map[..SAMPLE]).map_or(SAMPLE, |i| i + 1)
    };
    let sample = &map[..end];
    let traffic = |format: LogFormat| -> Result<(usize, Vec<import::Unclassified>)> {
        let mut events = import::stream(sample, Some(format)).with_context(|| shown.to_owned())?;
        let n = events.by_ref().filter(Event::is_traffic).count();
        Ok((n, events.take_unclassified()))
    };
    let (found, unclassified) = traffic(forced)?;
    if found > 0 {
        return Ok(());
    }
    let Some(d) = import::detect(map).filter(|d| d.format != forced) else {
        return Ok(());
    };
    if traffic(d.format)?.0 == 0 {
        return Ok(());
    }
    let why = unclassified
        .first()
        .map(|u| format!(" (line {}: {})", u.line, u.reason))
        .unwrap_or_default();
    bail!(
        "{shown}: read as {forced}, not one protocol line was found{why}; it looks like {} ({}): \
         leave out --input-format or give that one",
        d.format,
        d.evidence
    )
}
