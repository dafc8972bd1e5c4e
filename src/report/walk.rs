//! The inputs of a report: files as named, directories walked (sorted, so a report lists its
//! places the same way on every machine), and `-` for a list of paths on standard input (what
//! `find ... -print` or a farm's job list gives).

use super::collect::Found;
use anyhow::{Context, Result};
use std::io::BufRead;
use std::path::{Path, PathBuf};

/// One file to judge.
#[derive(Debug, Clone)]
pub struct Input {
    pub path: PathBuf,
    /// Its name in the report.
    pub shown: String,
    pub found: Found,
    /// A directory met in the walk that could not be read: reported as unreadable, and the
    /// walk goes on.
    pub unreadable: Option<String>,
}

/// Files in a directory that are never engine traffic: notes, reports, profiles. Anything
/// else found is tried, and passed over when it is no recording or log; the runner's PGNs are
/// read for the games' results ([`super::runner_games`]).
const NOT_INPUTS: &[&str] = &[
    "md", "json", "html", "htm", "c2w", "ini", "png", "svg", "pdf", "toml",
];

/// Expands the command line's inputs.
pub fn inputs(named: &[PathBuf]) -> Result<Vec<Input>> {
    let mut out = Walk::default();
    for p in named {
        if p.as_os_str() == "-" {
            let stdin = std::io::stdin();
            for line in stdin.lock().lines() {
                let line = line.context("cannot read the list of inputs on standard input")?;
                let line = line.trim_end_matches('\r');
                if line.is_empty() {
                    continue;
                }
                // A FIFO in a list of files (`find DIR | kibitzer report -`) would be waited
                // on for ever; the walk itself passes them over.
                let p = Path::new(line);
                if std::fs::metadata(p).is_ok_and(|m| is_special(&m)) {
                    out.inputs.push(Input {
                        path: p.to_path_buf(),
                        shown: p.display().to_string(),
                        found: Found::Named,
                        unreadable: Some(
                            "not a regular file (a FIFO, socket or device): not read".to_owned(),
                        ),
                    });
                    continue;
                }
                add(p, &mut out)?;
            }
        } else {
            add(p, &mut out)?;
        }
    }
    Ok(out.inputs)
}

/// A FIFO, socket or device: not a file to read to its end.
fn is_special(m: &std::fs::Metadata) -> bool {
    !m.is_file() && !m.is_dir()
}

/// The inputs found so far, and the files already found (by device and inode: a link to a
/// file the walk meets anyway is one input, not two).
#[derive(Default)]
struct Walk {
    inputs: Vec<Input>,
    seen: std::collections::HashSet<(u64, u64)>,
}

fn add(p: &Path, out: &mut Walk) -> Result<()> {
    if p.is_dir() {
        walk(p, out).with_context(|| format!("cannot read the directory {}", p.display()))
    } else {
        out.inputs.push(Input {
            path: p.to_path_buf(),
            shown: p.display().to_string(),
            found: Found::Named,
            unreadable: None,
        });
        Ok(())
    }
}

/// Depth first, entries by name; symbolic links to directories are not followed (no loops).
/// A subdirectory that cannot be read is an unreadable input of its own; the named directory
/// itself is an error.
fn walk(dir: &Path, out: &mut Walk) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<std::io::Result<_>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        let path = e.path();
        let kind = e.file_type()?;
        if kind.is_dir() {
            if let Err(err) = walk(&path, out) {
                out.inputs.push(Input {
                    shown: path.display().to_string(),
                    path,
                    found: Found::Walked,
                    unreadable: Some(format!("cannot read the directory: {err}")),
                });
            }
        } else if (kind.is_file() || (kind.is_symlink() && path.is_file())) && wanted(&name) {
            use std::os::unix::fs::MetadataExt;
            if let Ok(m) = std::fs::metadata(&path)
                && !out.seen.insert((m.dev(), m.ino()))
            {
                continue;
            }
            out.inputs.push(Input {
                shown: path.display().to_string(),
                path,
                found: Found::Walked,
                unreadable: None,
            });
        }
    }
    Ok(())
}

/// Not one of [`NOT_INPUTS`], plain or gzipped.
fn wanted(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let plain = lower.strip_suffix(".gz").unwrap_or(&lower);
    plain
        .rsplit_once('.')
        .is_none_or(|(_, ext)| !NOT_INPUTS.contains(&ext))
}
