//! Where a recording goes when the GUI did not say (`-o`): a fresh file per session in the
//! recordings directory, so a GUI that restarts the engine every game never overwrites one.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The recordings directory: `--dir`, else `$KIBITZER_DIR`, else
/// `$XDG_DATA_HOME/kibitzer/recordings`, else `~/.local/share/kibitzer/recordings`,
/// else `./kibitzer-recordings`.
pub fn recordings_dir(flag: Option<&Path>, env: impl Fn(&str) -> Option<OsString>) -> PathBuf {
    if let Some(d) = flag {
        return d.to_path_buf();
    }
    let non_empty = |k: &str| env(k).filter(|v| !v.is_empty());
    if let Some(d) = non_empty("KIBITZER_DIR") {
        return PathBuf::from(d);
    }
    if let Some(d) = non_empty("XDG_DATA_HOME") {
        return PathBuf::from(d).join("kibitzer").join("recordings");
    }
    if let Some(h) = non_empty("HOME") {
        return PathBuf::from(h).join(".local/share/kibitzer/recordings");
    }
    PathBuf::from("kibitzer-recordings")
}

/// Creates a recording file as a new inode: written under a temporary name beside it
/// (`O_EXCL`, so no planted file or symlink is ever opened) and renamed into place at once.
/// A reader still holding the file a previous session wrote there (a GUI restarting the
/// engine onto the same `-o`) keeps its own copy whole, instead of seeing it truncated
/// under it. `follow`: a symlink at `path` is followed (the user named it) rather than
/// replaced. A target that is no regular file (`/dev/null`, a FIFO) is opened as it is.
pub fn create_recording(path: &Path, follow: bool) -> std::io::Result<std::fs::File> {
    let target = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() && follow => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    };
    if std::fs::metadata(&target).is_ok_and(|m| !m.is_file())
        && !std::fs::symlink_metadata(&target).is_ok_and(|m| m.file_type().is_symlink())
    {
        return open_special(&target);
    }
    let (temp, f) = create_temp_beside(&target)?;
    // Held until the file is closed (see `input::wait_for_recorder`); taken before the name
    // exists, so no reader ever sees the file unmarked. A file system without locks only
    // loses the wait.
    let _ = f.lock_shared();
    if let Err(e) = std::fs::rename(&temp, &target) {
        let _ = std::fs::remove_file(&temp);
        return Err(e);
    }
    Ok(f)
}

/// A target that is no regular file, opened without blocking: a FIFO nobody reads would hold
/// the open (and the engine's start, and the signals that should end kibitzer) for ever.
/// With no reader it is an error (the engine then runs unrecorded, with a warning); with one,
/// writes block again as on any pipe.
fn open_special(target: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    let f = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(nix::libc::O_NONBLOCK)
        .open(target)
        .map_err(|e| {
            let fifo = std::fs::metadata(target).is_ok_and(|m| m.file_type().is_fifo());
            if fifo && e.raw_os_error() == Some(nix::libc::ENXIO) {
                std::io::Error::new(e.kind(), "a FIFO no process reads")
            } else {
                e
            }
        })?;
    let flags =
        nix::fcntl::fcntl(&f, nix::fcntl::FcntlArg::F_GETFL).map_err(std::io::Error::from)?;
    let flags = nix::fcntl::OFlag::from_bits_truncate(flags) & !nix::fcntl::OFlag::O_NONBLOCK;
    nix::fcntl::fcntl(&f, nix::fcntl::FcntlArg::F_SETFL(flags)).map_err(std::io::Error::from)?;
    Ok(f)
}

/// A new file `.NAME.kibitzer-PID-N.tmp` beside `target`, created with `O_EXCL` (no planted
/// file or link is ever opened), after the ones a dead kibitzer left there are removed.
pub fn create_temp_beside(target: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    remove_stale_temps(&dir, &name);
    let pid = std::process::id();
    create_exclusive(&dir, 0o644, |n| format!(".{name}.kibitzer-{pid}-{n}.tmp"))
}

/// A new file in `dir`, named `name(n)` for the first `n` whose name is free, created with
/// `O_EXCL` and permissions `mode`: the one way kibitzer makes a file of its own (temporary
/// outputs, the copy of a piped input, the viewer's history), so no planted file or link is
/// ever written through.
pub fn create_exclusive(
    dir: &Path,
    mode: u32,
    name: impl Fn(u32) -> String,
) -> std::io::Result<(PathBuf, std::fs::File)> {
    use std::os::unix::fs::OpenOptionsExt;
    for n in 0..100u32 {
        let path = dir.join(name(n));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .open(&path)
        {
            Ok(f) => return Ok((path, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(format!(
        "cannot create a file of kibitzer's in {}: 100 names taken",
        dir.display()
    )))
}

/// Removes `.NAME.kibitzer-PID-N.tmp` files beside `name` whose process is gone: what a
/// kibitzer killed with SIGKILL left behind while writing an output (no handler runs then).
pub fn remove_stale_temps(dir: &Path, name: &str) {
    let prefix = format!(".{name}.kibitzer-");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(rest) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|r| r.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some(pid) = rest
            .split_once('-')
            .and_then(|(p, n)| n.parse::<u32>().ok().and(p.parse::<i32>().ok()))
        else {
            continue;
        };
        let gone = matches!(
            nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None),
            Err(nix::errno::Errno::ESRCH)
        );
        if gone && pid > 0 {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// `20261121-224400.123-stockfish-4242[-label].jsonl`: sorts by time, says which engine.
pub fn file_name(
    now: chrono::DateTime<chrono::Local>,
    engine: &OsString,
    pid: u32,
    label: Option<&str>,
) -> String {
    let base = Path::new(engine)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name = format!(
        "{}-{}-{pid}",
        now.format("%Y%m%d-%H%M%S%.3f"),
        sanitize(&base)
    );
    if let Some(l) = label.filter(|l| !l.is_empty()) {
        name.push('-');
        name.push_str(&sanitize(l));
    }
    name.push_str(".jsonl");
    name
}

fn sanitize(s: &str) -> String {
    let cleaned: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    if cleaned.is_empty() {
        "engine".into()
    } else {
        cleaned
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_recording_is_a_new_inode_and_never_written_through_a_planted_link() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        // A reader holding the previous session's file keeps it whole.
        let path = dir.path().join("r.jsonl");
        std::fs::write(&path, "old session\n").unwrap();
        let held = std::fs::File::open(&path).unwrap();
        let before = std::fs::metadata(&path).unwrap().ino();
        let mut f = super::create_recording(&path, true).unwrap();
        std::io::Write::write_all(&mut f, b"new\n").unwrap();
        assert_ne!(std::fs::metadata(&path).unwrap().ino(), before);
        assert_eq!(held.metadata().unwrap().len(), 12);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        // A symlink planted at a generated name is replaced, not followed.
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let planted = dir.path().join("gen.jsonl");
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        super::create_recording(&planted, false).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(
            !std::fs::symlink_metadata(&planted)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        // No temporary file is left beside it.
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
        // What a SIGKILLed kibitzer left goes; a live one's temporary file stays.
        let dead = dir.path().join(".r.jsonl.kibitzer-999999999-0.tmp");
        let live = dir
            .path()
            .join(format!(".r.jsonl.kibitzer-{}-7.tmp", std::process::id()));
        std::fs::write(&dead, "x").unwrap();
        std::fs::write(&live, "x").unwrap();
        super::create_recording(&path, true).unwrap();
        assert!(!dead.exists() && live.exists());
        // A device is written as it is.
        super::create_recording(std::path::Path::new("/dev/null"), true).unwrap();
    }

    use super::*;

    #[test]
    fn dir_precedence() {
        let env = |k: &str| match k {
            "KIBITZER_DIR" => Some(OsString::from("/k")),
            "HOME" => Some(OsString::from("/home/u")),
            _ => None,
        };
        assert_eq!(
            recordings_dir(Some(Path::new("/flag")), env),
            PathBuf::from("/flag")
        );
        assert_eq!(recordings_dir(None, env), PathBuf::from("/k"));
        let no_k = |k: &str| {
            if k == "HOME" {
                Some(OsString::from("/home/u"))
            } else {
                None
            }
        };
        assert_eq!(
            recordings_dir(None, no_k),
            PathBuf::from("/home/u/.local/share/kibitzer/recordings")
        );
    }

    #[test]
    fn names_are_safe_and_descriptive() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-11-21T22:44:00.5+00:00")
            .unwrap()
            .with_timezone(&chrono::Local);
        let n = file_name(
            now,
            &OsString::from("/usr/games/stockfish"),
            42,
            Some("my game/1"),
        );
        assert!(n.ends_with("-stockfish-42-my_game_1.jsonl"), "{n}");
        assert!(!n.contains('/'));
    }
}
