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
