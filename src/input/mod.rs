//! Opens whatever the user points kibitzer at: a kibitzer recording, or any log an importer
//! understands. Every command goes through here, so none needs a separate import step.

pub mod cleanup;
pub mod follow;
mod format;
pub mod judged;
mod log;
pub mod mapguard;
pub mod pipeline;
pub mod progress;

pub use format::{FormatChoice, format_names, input_format};
pub use log::{MappedLog, open_log};

use crate::import::{self, LogFormat};
use crate::protocol::Protocol;
use crate::recording::{Event, Header, Reader, Source, reader::looks_like_recording};
use crate::session::SessionDetector;
use anyhow::{Context, Result, bail};
use std::io::BufReader;
pub use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// Logs bigger than this get a progress bar on stderr while importing.
pub const PROGRESS_THRESHOLD: u64 = 32 << 20;

/// A kibitzer recording, read one event at a time.
pub type RecordingReader = Reader<BufReader<std::fs::File>>;

/// Largest copy of standard input (or a pipe) kept in the temporary directory, unless
/// `KIBITZER_SPOOL_LIMIT` says otherwise (bytes, or with a K, M or G suffix; 0 for no limit).
pub const DEFAULT_SPOOL_LIMIT: u64 = 4 << 30;

/// How much of standard input is looked at before the rest is copied: enough for format
/// detection, so that input that is neither a recording nor a known log fails at once instead
/// of after filling the disk (`yes | kibitzer dump -`).
const SPOOL_HEAD: usize = 1 << 20;

/// The file a command reads: the user's path when it is a regular file; standard input (`-`)
/// or a pipe (`<(zcat game.log.gz)`) copied to a temporary file first, since logs are
/// memory-mapped and recordings read twice (detection, then decoding). The copy is removed
/// when this is dropped, and by a signal handler when the command is interrupted.
pub struct InputFile {
    path: PathBuf,
    /// The name messages use: what the user typed, `<stdin>` for standard input.
    shown: String,
    spooled: bool,
    /// A regular file's length when it was opened: one that is shorter once read was
    /// rewritten meanwhile (a GUI restarting its engine onto the same `-o` file).
    len_at_open: Option<u64>,
    _cleanup: Option<cleanup::Registered>,
}

/// How long a reader waits for a recorder that is finishing a recording.
pub const RECORDER_FINISHING: std::time::Duration = std::time::Duration::from_secs(3);

/// Waits (up to `limit`) while `kibitzer record` is finishing the recording at `path`.
///
/// The GUI sees the engine's exit the moment it happens (the engine is the GUI's own child),
/// so the GUI, or a script after it, may read the file while the recorder still writes its
/// last events. The recorder holds an exclusive lock on the file while it runs; a reader that
/// finds it held asks whether the engine still runs (the recorder is the engine's child until
/// the engine exits): a live recording is read at once, a finishing one when it is complete.
/// True when the file is free or became free.
pub fn wait_for_recorder(path: &Path, limit: std::time::Duration) -> bool {
    let Ok(f) = std::fs::File::open(path) else {
        return true;
    };
    let deadline = std::time::Instant::now() + limit;
    loop {
        match f.try_lock_shared() {
            Ok(()) => return true,
            Err(std::fs::TryLockError::WouldBlock)
                if std::time::Instant::now() < deadline && recorder_finishing(&f) =>
            {
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
            Err(_) => return false,
        }
    }
}

/// Has the engine of the recording being written to `f` exited? The header names the
/// recorder's pid, the `spawned` event the engine's; while the engine runs it is the
/// recorder's parent (the kernel reparents the recorder before the engine's exit is visible).
fn recorder_finishing(f: &std::fs::File) -> bool {
    use std::io::{BufRead, Seek};
    let mut r = BufReader::new(f);
    if r.seek(std::io::SeekFrom::Start(0)).is_err() {
        return false;
    }
    let pid_in = |line: &str| {
        serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| v.get("pid")?.as_i64())
    };
    let mut lines = r.lines().take(64).map_while(Result::ok);
    let Some(recorder) = lines.next().as_deref().and_then(pid_in) else {
        return false;
    };
    let Some(engine) = lines
        .find(|l| l.contains("\"kind\":\"spawned\""))
        .as_deref()
        .and_then(pid_in)
    else {
        return false;
    };
    let stat = std::fs::read_to_string(format!("/proc/{recorder}/stat")).unwrap_or_default();
    let ppid = stat
        .rsplit_once(')')
        .and_then(|(_, rest)| rest.split_ascii_whitespace().nth(1))
        .and_then(|p| p.parse::<i64>().ok());
    ppid.is_some_and(|p| p != engine)
}

impl InputFile {
    /// `format` is the forced input format, if any (it decides whether a spooled input can be
    /// rejected early).
    pub fn open(path: &Path, format: FormatChoice) -> Result<InputFile> {
        if path.as_os_str() == "-" {
            let stdin = std::io::stdin();
            return InputFile::spool_plain_or_gzip(stdin.lock(), "<stdin>", format);
        }
        let shown = path.display().to_string();
        let meta = std::fs::metadata(path).with_context(|| format!("cannot open {shown}"))?;
        if meta.is_dir() {
            bail!("{shown} is a directory, not a log or a recording");
        }
        if meta.is_file() && !is_gzip_file(path) {
            wait_for_recorder(path, RECORDER_FINISHING);
            return Ok(InputFile {
                path: path.to_path_buf(),
                shown,
                spooled: false,
                len_at_open: Some(meta.len()),
                _cleanup: None,
            });
        }
        let file = std::fs::File::open(path).with_context(|| format!("cannot open {shown}"))?;
        InputFile::spool_plain_or_gzip(file, &shown, format)
    }

    /// Bug reports attach `.gz` logs and recordings: gzip data (by its magic bytes, whatever
    /// the name) is decompressed into the temporary copy, and read like any other input.
    fn spool_plain_or_gzip(
        from: impl std::io::Read,
        name: &str,
        format: FormatChoice,
    ) -> Result<InputFile> {
        use std::io::BufRead;
        let mut r = BufReader::new(from);
        let head = r
            .fill_buf()
            .with_context(|| format!("cannot read {name}"))?;
        if head.starts_with(&GZIP_MAGIC) {
            let mut gz = flate2::bufread::MultiGzDecoder::new(r);
            return InputFile::spool(&mut gz, name, format)
                .with_context(|| format!("{name}: gzip-compressed"));
        }
        InputFile::spool(&mut r, name, format)
    }

    /// An error when the file is shorter now than when it was opened: what was read after
    /// the cut belongs to whatever rewrote it, not to the input (a torn last write, by
    /// contrast, leaves the file as long as it was).
    fn check_not_shrunk(&self) -> std::io::Result<()> {
        let Some(then) = self.len_at_open else {
            return Ok(());
        };
        let now = std::fs::metadata(&self.path).map_or(0, |m| m.len());
        if now < then {
            return Err(std::io::Error::other(format!(
                "{} shrank while it was read ({then} bytes when opened, {now} now): it was                  rewritten meanwhile (a GUI restarting its engine onto the same file?), so                  what was read after the cut is not this input",
                self.shown
            )));
        }
        Ok(())
    }

    /// An input read as a stream: no file behind it.
    fn unnamed(shown: &str) -> InputFile {
        InputFile {
            path: PathBuf::new(),
            shown: shown.to_owned(),
            spooled: false,
            len_at_open: None,
            _cleanup: None,
        }
    }

    /// Where to read the input.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The input's name for messages (`FILE:LINE: ...`).
    pub fn shown(&self) -> &str {
        &self.shown
    }

    fn spool(from: &mut impl std::io::Read, name: &str, format: FormatChoice) -> Result<InputFile> {
        use std::io::{Read, Write};
        let limit = spool_limit()?;
        let mut head = Vec::with_capacity(64 * 1024);
        from.by_ref()
            .take(SPOOL_HEAD as u64)
            .read_to_end(&mut head)
            .with_context(|| format!("cannot read {name}"))?;
        if head.is_empty() {
            bail!("nothing to read: {name} is empty");
        }
        let at_end = head.len() < SPOOL_HEAD;
        reject_early(&head, at_end, name, format)?;
        let dir = std::env::temp_dir();
        let pid = std::process::id();
        // Owner-only: the copy holds whatever the input held (a private game, a log).
        let (path, mut file) = crate::capture::output_path::create_exclusive(&dir, 0o600, |n| {
            format!("kibitzer-input-{pid}-{n}")
        })
        .with_context(|| {
            format!(
                "cannot create a temporary copy of {name} in {}",
                dir.display()
            )
        })?;
        // From here on the guard removes the copy, whatever happens.
        let spool = InputFile {
            _cleanup: Some(cleanup::Registered::new(&path)),
            path,
            shown: name.to_owned(),
            spooled: true,
            len_at_open: None,
        };
        let room = if limit == 0 {
            u64::MAX
        } else {
            limit.saturating_sub(head.len() as u64)
        };
        let copied = file
            .write_all(&head)
            .and_then(|()| std::io::copy(&mut from.take(room.saturating_add(1)), &mut file))
            .and_then(|n| file.flush().map(|()| n))
            .with_context(|| format!("cannot copy {name} to {}", spool.path.display()))?;
        if limit != 0 && (head.len() as u64).saturating_add(copied) > limit {
            let instead = if name == "<stdin>" {
                "or give a file"
            } else {
                "or decompress it first"
            };
            bail!(
                "{name} is longer than {} (the limit for the temporary copy kibitzer keeps of \
                 standard input, pipes and gzip data; set KIBITZER_SPOOL_LIMIT, e.g. 20G or \
                 0 for none, {instead})",
                human_bytes(limit)
            );
        }
        Ok(spool)
    }
}

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

fn is_gzip_file(path: &Path) -> bool {
    use std::io::Read;
    let mut magic = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok_and(|()| magic == GZIP_MAGIC)
}

/// Refuses, from the first megabyte, input that can be neither a recording nor a log.
fn reject_early(head: &[u8], at_end: bool, name: &str, format: FormatChoice) -> Result<()> {
    if format != FormatChoice::Detect || looks_like_recording(head) {
        return Ok(());
    }
    let lines = memchr::memchr_iter(b'\n', head).count();
    if lines == 0 && !at_end {
        bail!(
            "{name}: no line break in the first {}: not a recording or a log",
            human_bytes(SPOOL_HEAD as u64)
        );
    }
    // Detection samples the first lines only, so when those are all here its verdict on
    // the head is its verdict on the whole input.
    if (at_end || lines > import::DETECT_SAMPLE_LINES + 1)
        && let Err(e) = import::stream(head, None)
    {
        // The error keeps its type: `report` passes over files no importer recognises.
        return Err(e).with_context(|| name.to_owned());
    }
    Ok(())
}

fn spool_limit() -> Result<u64> {
    match std::env::var("KIBITZER_SPOOL_LIMIT") {
        Err(_) => Ok(DEFAULT_SPOOL_LIMIT),
        Ok(v) => parse_bytes(&v).with_context(|| {
            format!("KIBITZER_SPOOL_LIMIT=`{v}` is not a size (bytes, or a number with K, M or G)")
        }),
    }
}

fn parse_bytes(v: &str) -> Result<u64> {
    let v = v.trim();
    let (num, unit) = match v.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => (&v[..i], v[i..].trim()),
        None => (v, ""),
    };
    let n: u64 = num.parse()?;
    let mult: u64 = match unit.to_ascii_uppercase().trim_end_matches(['B', 'I']) {
        "" => 1,
        "K" => 1 << 10,
        "M" => 1 << 20,
        "G" => 1 << 30,
        "T" => 1 << 40,
        _ => bail!("unknown unit"),
    };
    n.checked_mul(mult).context("too large")
}

fn human_bytes(n: u64) -> String {
    match n {
        n if n >= 1 << 30 && n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
        n if n >= 1 << 20 && n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
        n => format!("{n} bytes"),
    }
}

impl Drop for InputFile {
    fn drop(&mut self) {
        if self.spooled {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// A streaming reader when `file` is a kibitzer recording (or `--format recording` says so),
/// `None` for any other log. Recordings can be gigabytes: they are read one event at a time.
pub fn open_recording(file: &InputFile, format: FormatChoice) -> Result<Option<RecordingReader>> {
    let (path, shown) = (file.path(), file.shown());
    let is_recording = match format {
        FormatChoice::Recording => true,
        FormatChoice::Log(_) => false,
        FormatChoice::Detect => {
            let f = std::fs::File::open(path).with_context(|| format!("cannot open {shown}"))?;
            let mut head = vec![0u8; 4096];
            let n = std::io::Read::read(&mut &f, &mut head).unwrap_or(0);
            looks_like_recording(&head[..n])
        }
    };
    if !is_recording {
        return Ok(None);
    }
    let f = std::fs::File::open(path).with_context(|| format!("cannot open {shown}"))?;
    Reader::new(BufReader::with_capacity(256 * 1024, f))
        .map(Some)
        .with_context(|| format!("{shown}: not a readable kibitzer recording"))
}

/// The protocol of each session of the recording, as [`crate::session::Decoder::with_detected`]
/// takes it, found before decoding so that a streamed recording is decoded from its first
/// line. A recording made by `record` is one session, so its first lines are enough (and
/// `record --protocol` may have named it); an imported recording can start a session
/// anywhere, so it is read through. Nothing to find when the user forces a protocol.
pub fn recording_protocols(
    file: &InputFile,
    header: &Header,
    protocol: Option<Protocol>,
) -> Result<Vec<(Option<String>, Protocol, String)>> {
    let one_session = header.imported_from.is_none();
    let hint = header
        .protocol
        .as_deref()
        .and_then(|name| Some((Protocol::from_name(name)?, name)));
    if let (true, Some((p, name))) = (one_session, hint) {
        return Ok(vec![(None, p, format!("recorded with --protocol {name}"))]);
    }
    if protocol.is_some() {
        return Ok(Vec::new());
    }
    let mut detector = SessionDetector::default();
    if let Some(mut first_pass) = open_recording(file, FormatChoice::Recording)? {
        let mut ev = Event::line(0, 0, Source::Proxy, String::new());
        while let Some(item) = first_pass.read_into(&mut ev) {
            if item.is_ok() {
                detector.push(&ev);
                if one_session && detector.saturated() {
                    break;
                }
            }
        }
    }
    Ok(detector.finish())
}

/// A line of a recording that could not be read. Every command shows it (`FILE:LINE: ...` on
/// stderr or in its text output, a `skipped` object in JSON) and exits with status 2, except
/// for a torn last line, which is what a recorder killed mid-write leaves and is only noted.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    pub line: u64,
    pub reason: String,
    /// The file ends in the middle of this line.
    pub torn_tail: bool,
}

impl Skipped {
    fn from_issue(issue: &crate::recording::ReadIssue) -> Skipped {
        use crate::recording::IssueKind;
        match &issue.kind {
            IssueKind::Malformed(m) => Skipped {
                line: issue.line,
                reason: format!("malformed event: {m}"),
                torn_tail: false,
            },
            IssueKind::TornTail => Skipped {
                line: issue.line,
                reason: "incomplete last line ignored (the recording was cut off mid-write)".into(),
                torn_tail: true,
            },
        }
    }
}

/// What the reader passes on, in file order.
pub enum Item<'e> {
    /// An event, with its line in a recording (logs' events carry their own `line`).
    Event(&'e Event, Option<u64>),
    Skipped(&'e Skipped),
}

/// Any input a command reads, opened: a recording or a log, with its header.
pub struct Input {
    file: InputFile,
    body: Body,
}

enum Body {
    Recording(Header),
    Log(MappedLog),
    /// A recording on standard input, read as it arrives (commands that read once).
    Stream(Header, std::cell::RefCell<Option<Box<StdinRecording>>>),
}

/// Standard input after the bytes looked at to recognise it, read as one stream.
type StdinRecording = Reader<BufReader<Box<dyn std::io::Read + Send>>>;

/// What reading an input found besides its events.
#[derive(Debug, Default)]
pub struct ReadOutcome {
    /// Unreadable lines, torn tail included.
    pub skipped: Vec<Skipped>,
    /// Log lines no rule of the format explains (logs only; not errors).
    pub unclassified: Vec<import::Unclassified>,
    /// A log's start date once read through ([`import::EventStream::started`]).
    pub log_started: Option<String>,
    /// Recording lines whose time `t` is earlier than a line before them, and the first:
    /// (line, the latest time before, its time), in ns.
    pub backwards: u64,
    pub first_backwards: Option<(u64, u64, u64)>,
    /// [`Input::read_detecting`]: each session's protocol, as a pass of its own over the log
    /// would find it.
    pub detected: Option<pipeline::Detected>,
    /// The input was read on a thread of its own ([`pipeline`]).
    pub threaded: bool,
}

impl ReadOutcome {
    /// Lines that were lost (the torn tail of a killed recorder is not counted).
    pub fn lost_lines(&self) -> usize {
        self.skipped.iter().filter(|s| !s.torn_tail).count()
    }

    /// The exit status the convention gives a command that read this input: 2 when lines
    /// were lost, else `status`.
    pub fn status(&self, status: i32) -> i32 {
        if self.lost_lines() > 0 { 2 } else { status }
    }
}

impl Input {
    /// Opens `path` (`-` for standard input); `format` forces the input format.
    pub fn open_with(path: &Path, format: FormatChoice) -> Result<Input> {
        Input::from_file(InputFile::open(path, format)?, format)
    }

    /// [`Input::open_with`] the format `--input-format NAME` names (`None` to detect it).
    pub fn open(path: &Path, format: Option<&str>) -> Result<Input> {
        Input::open_with(path, FormatChoice::from_name(format)?)
    }

    fn from_file(file: InputFile, format: FormatChoice) -> Result<Input> {
        let body = match open_recording(&file, format)? {
            Some(reader) => Body::Recording(reader.header().clone()),
            None => Body::Log(open_log(&file, format)?),
        };
        Ok(Input { file, body })
    }

    /// [`Input::open`] for commands that read their input once (`dump`): a recording on
    /// standard input is then streamed as it arrives, never copied to disk; anything else is
    /// opened as [`Input::open`] does.
    pub fn open_once(path: &Path, format: FormatChoice) -> Result<Input> {
        let recording_allowed = format.log().is_none();
        if path.as_os_str() != "-" || !recording_allowed {
            return Input::open_with(path, format);
        }
        let mut stdin = std::io::stdin();
        let mut head = Vec::with_capacity(4096);
        std::io::Read::read_to_end(&mut std::io::Read::take(&mut stdin, 4096), &mut head)
            .context("cannot read <stdin>")?;
        if head.is_empty() {
            bail!("nothing to read: <stdin> is empty");
        }
        let mut recording = looks_like_recording(&head);
        let gzip = head.starts_with(&GZIP_MAGIC);
        let mut rest: Box<dyn std::io::Read + Send> =
            Box::new(std::io::Read::chain(std::io::Cursor::new(head), stdin));
        if gzip {
            // What is inside is known only once decompressed: a recording is streamed as it
            // is decompressed, a log spooled (its importer reads a file).
            let mut gz = flate2::bufread::MultiGzDecoder::new(BufReader::new(rest));
            let mut inner = Vec::with_capacity(4096);
            std::io::Read::read_to_end(&mut std::io::Read::take(&mut gz, 4096), &mut inner)
                .context("<stdin>: gzip-compressed")?;
            recording = looks_like_recording(&inner);
            rest = Box::new(std::io::Read::chain(std::io::Cursor::new(inner), gz));
        }
        if !recording {
            let file = InputFile::spool_plain_or_gzip(rest, "<stdin>", format)?;
            let body = Body::Log(open_log(&file, format)?);
            return Ok(Input { file, body });
        }
        let reader = Reader::new(BufReader::with_capacity(256 * 1024, rest))
            .context("<stdin>: not a readable kibitzer recording")?;
        let header = reader.header().clone();
        Ok(Input {
            file: InputFile::unnamed("<stdin>"),
            body: Body::Stream(header, std::cell::RefCell::new(Some(Box::new(reader)))),
        })
    }

    /// The name for messages.
    pub fn shown(&self) -> &str {
        self.file.shown()
    }

    /// The file read: the input itself, or its temporary copy (standard input, gzip).
    pub fn path(&self) -> &Path {
        self.file.path()
    }

    /// The recording's header; `None` for a log.
    pub fn recording_header(&self) -> Option<&Header> {
        match &self.body {
            Body::Recording(h) | Body::Stream(h, _) => Some(h),
            Body::Log(_) => None,
        }
    }

    /// The log, when the input is one.
    pub fn log(&self) -> Option<&MappedLog> {
        match &self.body {
            Body::Log(l) => Some(l),
            Body::Recording(_) | Body::Stream(..) => None,
        }
    }

    /// The log format name, or `recording`.
    pub fn format_name(&self) -> &'static str {
        match &self.body {
            Body::Log(l) => l.format().name(),
            Body::Recording(_) | Body::Stream(..) => "recording",
        }
    }

    /// Each session's protocol, for [`crate::session::Decoder::with_detected`].
    pub fn protocols(
        &self,
        forced: Option<Protocol>,
    ) -> Result<Vec<(Option<String>, Protocol, String)>> {
        match &self.body {
            Body::Recording(h) => recording_protocols(&self.file, h, forced),
            Body::Log(l) => l.protocols(forced),
            // Detected by the decoder as it reads: the stream cannot be read twice.
            Body::Stream(..) => Ok(Vec::new()),
        }
    }

    /// Streams every event and every unreadable line to `f`, in file order, until `f` says
    /// [`ControlFlow::Break`] (the rest of the input is not read). An error from `f` (the
    /// output was closed, say) stops the reading too and is returned as the inner error.
    pub fn read(
        &self,
        f: impl FnMut(Item<'_>) -> std::io::Result<ControlFlow<()>>,
    ) -> Result<(ReadOutcome, std::io::Result<()>)> {
        self.read_detecting(false, f)
    }

    /// [`Input::read`]; with `detect`, a log's sessions also have their protocols detected
    /// on the way, as [`Input::protocols`] would find them in a pass of its own
    /// ([`ReadOutcome::detected`], when the whole log was parsed).
    pub fn read_detecting(
        &self,
        detect: bool,
        mut f: impl FnMut(Item<'_>) -> std::io::Result<ControlFlow<()>>,
    ) -> Result<(ReadOutcome, std::io::Result<()>)> {
        let opts = pipeline::ReadOptions {
            detect,
            ..pipeline::ReadOptions::default()
        };
        self.read_slots(opts, |slot| f(slot.item()))
    }

    /// Streams every event and unreadable line to `f` as a [`pipeline::Slot`], which can
    /// carry what the reading side did ahead (`opts`), in file order until `f` stops. Big
    /// inputs are read on a thread of their own ([`pipeline`]).
    pub fn read_slots(
        &self,
        opts: pipeline::ReadOptions,
        mut f: impl FnMut(&mut pipeline::Slot) -> std::io::Result<ControlFlow<()>>,
    ) -> Result<(ReadOutcome, std::io::Result<()>)> {
        let mut skipped = Vec::new();
        let (mut backwards, mut first_backwards, mut latest) = (0, None, 0u64);
        let mut g = |slot: &mut pipeline::Slot| {
            match &slot.skipped {
                Some(s) => skipped.push(Skipped::clone(s)),
                // The proxy's clock only moves on: an edited or spliced recording may not.
                None if slot.line.is_some() => {
                    let t = slot.ev.t;
                    if t < latest {
                        backwards += 1;
                        first_backwards.get_or_insert((slot.line.unwrap_or(0), latest, t));
                    }
                    latest = latest.max(t);
                }
                None => {}
            }
            f(slot)
        };
        let (stopped, end) = match &self.body {
            Body::Recording(_) => {
                let Some(reader) = open_recording(&self.file, FormatChoice::Recording)? else {
                    bail!("{}: not a recording", self.shown());
                };
                let size = std::fs::metadata(self.file.path()).ok().map(|m| m.len());
                // A big recording is read from its map (no copy through a buffer).
                let mapped = size
                    .filter(|&s| pipeline::threaded(s, opts))
                    .and_then(|_| mapguard::MappedFile::open(self.file.path()));
                let (stopped, end) = match &mapped {
                    Some(m) => {
                        drop(reader);
                        let reader = Reader::new(m.bytes()).with_context(|| {
                            format!("{}: not a readable kibitzer recording", self.shown())
                        })?;
                        pipeline::read_mapped_recording(reader, m, opts, &mut g)?
                    }
                    None => pipeline::read_recording(reader, size, opts, &mut g)?,
                };
                let shrunk = mapped.as_ref().is_some_and(mapguard::MappedFile::shrunk);
                let stopped = stopped.and_then(|()| self.file.check_not_shrunk());
                let stopped = match stopped {
                    Ok(()) if shrunk => Err(std::io::Error::other(format!(
                        "{} shrank while it was read: what was read after the cut is not this \
                         input",
                        self.shown()
                    ))),
                    other => other,
                };
                (stopped, end)
            }
            Body::Stream(_, cell) => {
                let Some(reader) = cell.borrow_mut().take() else {
                    bail!("{}: standard input can be read only once", self.shown());
                };
                // Read as it arrives: a live recording is passed on line by line.
                pipeline::read_recording(*reader, None, opts, &mut g)?
            }
            Body::Log(log) => {
                let read = pipeline::read_log(log, opts, &mut g)?;
                log.check_unchanged()?;
                read
            }
        };
        // A log line too long to parse is traffic lost: every command says so, as it says
        // of a recording's unreadable line.
        skipped.extend(
            end.unclassified
                .iter()
                .filter(|u| u.reason == import::LINE_TOO_LONG)
                .map(|u| Skipped {
                    line: u.line,
                    reason: format!(
                        "a line longer than {} MiB, not read: what it said is lost",
                        import::MAX_LOG_LINE_BYTES >> 20
                    ),
                    torn_tail: false,
                }),
        );
        let outcome = ReadOutcome {
            skipped,
            unclassified: end.unclassified,
            log_started: end.started,
            backwards,
            first_backwards,
            detected: end.detected,
            threaded: end.threaded,
        };
        if let Some((line, before, t)) = outcome.first_backwards {
            crate::eprintln_safe!(
                "{}:{line}: time goes backwards here (t {:.6} s after {:.6} s{}): latencies \
                 measured across it read as 0",
                self.shown(),
                t as f64 / 1e9,
                before as f64 / 1e9,
                match outcome.backwards {
                    1 => String::new(),
                    n => format!("; {n} such lines in all"),
                }
            );
        }
        Ok((outcome, stopped))
    }
}

pub fn progress_bar(len: u64, shown: &str) -> indicatif::ProgressBar {
    progress::bar(len, progress::Counting::Bytes, format!("importing {shown}"))
}

/// The header of the recording an imported log becomes: the first engine session's (the tool's
/// own session when there is none), for the whole log.
pub fn imported_header(shown: &str, format: LogFormat, sessions: &[(String, Header)]) -> Header {
    let mut header = sessions
        .iter()
        .find(|(label, _)| !label.starts_with('['))
        .or(sessions.first())
        .map(|(_, h)| h.clone())
        .unwrap_or_else(|| {
            Header::new(
                concat!("kibitzer ", env!("CARGO_PKG_VERSION")),
                import::PLACEHOLDER_STARTED,
            )
        });
    header.label = None;
    header.imported_from = Some(format.name().to_owned());
    header.source_file = Some(shown.to_owned());
    header
}
