//! Opens whatever the user points kibitzer at: a kibitzer recording, or any log an importer
//! understands. Every command goes through here, so none needs a separate import step.

use crate::import::{self, LogFormat};
use crate::protocol::Protocol;
use crate::recording::{Event, Header, Reader, Source, reader::looks_like_recording};
use crate::session::SessionDetector;
use anyhow::{Context, Result, bail};
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// Logs bigger than this get a progress bar on stderr while importing.
pub const PROGRESS_THRESHOLD: u64 = 32 << 20;

/// A kibitzer recording, read one event at a time.
pub type RecordingReader = Reader<BufReader<std::fs::File>>;

/// The file a command reads: the user's path when it is a regular file; standard input (`-`)
/// or a pipe (`<(zcat game.log.gz)`) copied to a temporary file first, since logs are
/// memory-mapped and recordings read twice (detection, then decoding). The copy is removed
/// when this is dropped.
pub struct InputFile {
    path: PathBuf,
    spooled: bool,
}

impl InputFile {
    pub fn open(path: &Path) -> Result<InputFile> {
        if path.as_os_str() == "-" {
            let stdin = std::io::stdin();
            return InputFile::spool(&mut stdin.lock(), "standard input");
        }
        let meta =
            std::fs::metadata(path).with_context(|| format!("cannot open {}", path.display()))?;
        if meta.is_dir() {
            bail!(
                "{} is a directory, not a log or a recording",
                path.display()
            );
        }
        if meta.is_file() {
            return Ok(InputFile {
                path: path.to_path_buf(),
                spooled: false,
            });
        }
        let mut file =
            std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let name = path
            .file_name()
            .map_or("pipe".into(), |n| n.to_string_lossy().into_owned());
        InputFile::spool(&mut file, &name)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    fn spool(from: &mut impl std::io::Read, name: &str) -> Result<InputFile> {
        let dir = std::env::temp_dir();
        let pid = std::process::id();
        for n in 0..100u32 {
            let path = dir.join(format!("kibitzer-input-{pid}-{n}"));
            let mut file = match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(f) => f,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(e).with_context(|| {
                        format!(
                            "cannot create a temporary copy of {name} in {}",
                            dir.display()
                        )
                    });
                }
            };
            // From here on the guard removes the copy, whatever happens.
            let spool = InputFile {
                path,
                spooled: true,
            };
            let copied = std::io::copy(from, &mut file)
                .and_then(|n| std::io::Write::flush(&mut file).map(|()| n))
                .with_context(|| format!("cannot copy {name} to {}", spool.path.display()))?;
            if copied == 0 {
                bail!("nothing to read: {name} is empty");
            }
            return Ok(spool);
        }
        bail!(
            "cannot create a temporary copy of {name} in {}",
            dir.display()
        )
    }
}

impl Drop for InputFile {
    fn drop(&mut self) {
        if self.spooled {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The names `--format` accepts for an input, for messages.
pub fn format_names() -> String {
    format!("auto, recording, {}", LogFormat::names().join(", "))
}

/// What `--format` asked for: `None` to autodetect, `Some(None)` a recording, `Some(Some(f))`
/// an importer.
pub(crate) fn forced_format(format: Option<&str>) -> Result<Option<Option<LogFormat>>> {
    Ok(match format {
        None | Some("auto") => None,
        Some("recording" | "kibitzer" | "jsonl") => Some(None),
        Some(name) => Some(Some(LogFormat::from_name(name).with_context(|| {
            format!(
                "unknown format `{name}`; known: recording, {}",
                LogFormat::names().join(", ")
            )
        })?)),
    })
}

/// A streaming reader when `path` is a kibitzer recording (or `--format recording` says so),
/// `None` for any other log. Recordings can be gigabytes: callers that can work one event at
/// a time should use this rather than [`load`].
pub fn open_recording(path: &Path, format: Option<&str>) -> Result<Option<RecordingReader>> {
    let is_recording = match forced_format(format)? {
        Some(f) => f.is_none(),
        None => {
            let file = std::fs::File::open(path)
                .with_context(|| format!("cannot open {}", path.display()))?;
            let mut head = vec![0u8; 4096];
            let n = std::io::Read::read(&mut &file, &mut head).unwrap_or(0);
            looks_like_recording(&head[..n])
        }
    };
    if !is_recording {
        return Ok(None);
    }
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    Reader::new(BufReader::with_capacity(256 * 1024, file))
        .map(Some)
        .with_context(|| format!("{}: not a readable kibitzer recording", path.display()))
}

/// The protocol of each session of the recording at `path`, as [`crate::session::Decoder::with_detected`]
/// takes it, found before decoding so that a streamed recording is decoded from its first
/// line. A recording made by `record` is one session, so its first lines are enough (and
/// `record --protocol` may have named it); an imported recording can start a session
/// anywhere, so it is read through. Nothing to find when the user forces a protocol.
pub fn recording_protocols(
    path: &Path,
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
    if let Some(mut first_pass) = open_recording(path, Some("recording"))? {
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

/// A log (not a recording) mapped in memory, whose events are parsed as they are read.
pub struct MappedLog {
    path: PathBuf,
    map: memmap2::Mmap,
    format: LogFormat,
}

impl MappedLog {
    pub fn format(&self) -> LogFormat {
        self.format
    }

    /// Size of the log in bytes.
    pub fn size(&self) -> usize {
        self.map.len()
    }

    /// The events in log order, parsed as they are taken ([`import::stream`]); each call
    /// starts again from the top.
    pub fn events(&self) -> Result<import::EventStream<'_>> {
        import::stream(&self.map, Some(self.format))
            .with_context(|| format!("{}", self.path.display()))
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
        Ok(detector.finish())
    }
}

/// Opens a log for streaming (`format`: `None` to detect it, or a format name; a recording is
/// not a log here: see [`open_recording`]).
pub fn open_log(path: &Path, format: Option<&str>) -> Result<MappedLog> {
    let forced = forced_format(format)?.flatten();
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    if file.metadata().map(|m| m.len()).unwrap_or(0) == 0 {
        bail!("{}: the file is empty", path.display());
    }
    // SAFETY: the map is read-only; a log truncated while we read it would fault (SIGBUS).
    // Logs given to kibitzer are closed files, which the docs state.
    #[allow(unsafe_code)]
    let map = unsafe { memmap2::Mmap::map(&file) }
        .with_context(|| format!("cannot map {}", path.display()))?;
    let format = import::stream(&map, forced)
        .with_context(|| format!("{}", path.display()))?
        .format();
    Ok(MappedLog {
        path: path.to_path_buf(),
        map,
        format,
    })
}

pub fn progress_bar(len: u64, path: &Path) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(len),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{msg} [{bar:40}] {bytes}/{total_bytes} {binary_bytes_per_sec} eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(format!("importing {}", path.display()));
    bar
}

/// The header of the recording an imported log becomes: the first engine session's (the tool's
/// own session when there is none), for the whole log.
pub fn imported_header(path: &Path, format: LogFormat, sessions: &[(String, Header)]) -> Header {
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
    header.source_file = Some(path.display().to_string());
    header
}
