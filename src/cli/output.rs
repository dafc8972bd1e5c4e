//! Files a command writes (`import -o`, `export -o`): written beside the target under a
//! temporary name and renamed into place only when the command succeeded, so a failure, an
//! unreadable input or an interrupted run never truncates what was there before. An output
//! that is the input itself (the same file, or a link to it) is refused before anything is
//! opened.

use crate::input::cleanup::Registered;
use anyhow::{Context, Result, bail};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Refuses to write `output` when it is the same file as `input` (hard link or symlink
/// included). `-` as input (standard input) never clashes.
pub fn refuse_same_file(input: &Path, output: &Path) -> Result<()> {
    if input.as_os_str() == "-" {
        return Ok(());
    }
    if let (Ok(i), Ok(o)) = (std::fs::metadata(input), std::fs::metadata(output))
        && i.dev() == o.dev()
        && i.ino() == o.ino()
    {
        bail!(
            "{} is the input {}: writing it would destroy what is being read; choose another output file",
            output.display(),
            input.display()
        );
    }
    Ok(())
}

/// An output file being written; [`commit`](Self::commit) puts it in place, dropping it
/// without committing removes the temporary file and leaves the target untouched.
pub struct AtomicFile {
    target: PathBuf,
    /// `None` when the target is no regular file (`/dev/null`, a FIFO, a terminal): written
    /// directly, since nothing may be renamed over a device.
    temp: Option<PathBuf>,
    writer: Option<BufWriter<File>>,
    _cleanup: Option<Registered>,
}

impl AtomicFile {
    pub fn create(target: &Path) -> Result<AtomicFile> {
        // A symlinked output keeps being a symlink: the file it points to is replaced.
        let target = match std::fs::canonicalize(target) {
            Ok(real) => real,
            Err(_) => target.to_path_buf(),
        };
        if target.is_dir() {
            bail!("{} is a directory, not an output file", target.display());
        }
        if std::fs::metadata(&target).is_ok_and(|m| !m.is_file()) {
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open(&target)
                .with_context(|| format!("cannot open {}", target.display()))?;
            return Ok(AtomicFile {
                target,
                temp: None,
                writer: Some(BufWriter::with_capacity(256 * 1024, f)),
                _cleanup: None,
            });
        }
        let (temp, f) = crate::capture::output_path::create_temp_beside(&target)
            .with_context(|| format!("cannot create {}", target.display()))?;
        let cleanup = Registered::new(&temp);
        Ok(AtomicFile {
            target,
            temp: Some(temp),
            writer: Some(BufWriter::with_capacity(256 * 1024, f)),
            _cleanup: Some(cleanup),
        })
    }

    /// Flushes, syncs and renames the file into place.
    pub fn commit(mut self) -> Result<()> {
        let Some(w) = self.writer.take() else {
            bail!("{}: output already closed", self.target.display());
        };
        let file = w
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("cannot write {}", self.target.display()))?;
        let Some(temp) = self.temp.take() else {
            return Ok(());
        };
        file.sync_all()
            .with_context(|| format!("cannot write {}", self.target.display()))?;
        // Keep the permissions an existing target had (a rename would replace them).
        if let Ok(meta) = std::fs::metadata(&self.target) {
            let _ = std::fs::set_permissions(&temp, meta.permissions());
        }
        std::fs::rename(&temp, &self.target)
            .with_context(|| format!("cannot put {} in place", self.target.display()))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.writer.as_mut() {
            Some(w) => w.write(buf),
            None => Err(std::io::Error::other("output closed")),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self.writer.as_mut() {
            Some(w) => w.write_all(buf),
            None => Err(std::io::Error::other("output closed")),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.writer.as_mut() {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.writer.take().is_some()
            && let Some(temp) = &self.temp
        {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// Where a command's output goes: standard output, or a file given with `-o` (written
/// beside the target and put in place when the command finishes, see [`AtomicFile`]).
pub enum Sink {
    Stdout(BufWriter<std::io::StdoutLock<'static>>),
    File(AtomicFile),
}

impl Sink {
    /// `-o FILE` (refused when it is the input), else standard output.
    pub fn open(output: Option<&Path>, input: &Path) -> Result<Sink> {
        match output {
            Some(p) if p.as_os_str() != "-" => {
                refuse_same_file(input, p)?;
                Ok(Sink::File(AtomicFile::create(p)?))
            }
            _ => Ok(Sink::Stdout(BufWriter::with_capacity(
                256 * 1024,
                std::io::stdout().lock(),
            ))),
        }
    }

    /// Flushes standard output, or puts the file in place.
    pub fn finish(self) -> Result<()> {
        match self {
            Sink::Stdout(mut w) => match w.flush() {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
                _ => Ok(()),
            },
            Sink::File(f) => f.commit(),
        }
    }
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Sink::Stdout(w) => w.write(buf),
            Sink::File(f) => f.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match self {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::File(f) => f.write_all(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Sink::Stdout(w) => w.flush(),
            Sink::File(f) => f.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_file_leaves_the_target_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("keep.jsonl");
        std::fs::write(&target, "precious").unwrap();
        {
            let mut f = AtomicFile::create(&target).unwrap();
            f.write_all(b"half").unwrap();
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        let mut f = AtomicFile::create(&target).unwrap();
        f.write_all(b"new").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_device_is_written_in_place_never_replaced() {
        let mut f = AtomicFile::create(Path::new("/dev/null")).unwrap();
        f.write_all(b"discarded").unwrap();
        f.commit().unwrap();
        let meta = std::fs::metadata("/dev/null").unwrap();
        assert!(!meta.is_file(), "/dev/null was replaced by a file");
        assert!(
            std::fs::read_dir("/dev")
                .unwrap()
                .flatten()
                .all(|e| { !e.file_name().to_string_lossy().contains("kibitzer") })
        );
    }

    #[test]
    fn the_input_itself_is_refused_as_output() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("s.jsonl");
        std::fs::write(&input, "x").unwrap();
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        assert!(refuse_same_file(&input, &input).is_err());
        assert!(refuse_same_file(&input, &link).is_err());
        assert!(refuse_same_file(&input, &dir.path().join("other")).is_ok());
        assert!(refuse_same_file(Path::new("-"), &input).is_ok());
    }
}
