//! The one-line prompts (`/` search, `f` filter, `:` command): readline-style editing and
//! a history per prompt, kept across runs in the user's state directory.
//!
//! Editing keys are the ones a shell user's fingers already know (Emacs mode of readline):
//! they are not in the key table because they only mean something while typing.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::{Path, PathBuf};

/// What a key did to the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    /// The key was an editing key (the text or the cursor may have changed).
    Done,
    /// Enter: submit the text.
    Submit,
    /// Esc, Ctrl-C, Ctrl-G: close the prompt.
    Cancel,
    /// Up / Down, Ctrl-P / Ctrl-N: an older or newer history entry.
    Older,
    Newer,
    /// Tab: complete.
    Complete,
    /// Not an editing key.
    Other,
}

/// A line being typed, with its cursor (a char index) and the last killed text (Ctrl-Y).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineEdit {
    chars: Vec<char>,
    cursor: usize,
    killed: String,
}

impl LineEdit {
    pub fn new(text: &str) -> LineEdit {
        let chars: Vec<char> = text.chars().collect();
        LineEdit {
            cursor: chars.len(),
            chars,
            killed: String::new(),
        }
    }

    pub fn text(&self) -> String {
        self.chars.iter().collect()
    }

    /// The cursor, in chars from the start.
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// Replaces the text (a history entry, a completion); the cursor goes to the end.
    pub fn set(&mut self, text: &str) {
        self.chars = text.chars().collect();
        self.cursor = self.chars.len();
    }

    fn word_start(&self) -> usize {
        let mut i = self.cursor;
        while i > 0 && !self.chars[i - 1].is_alphanumeric() {
            i -= 1;
        }
        while i > 0 && self.chars[i - 1].is_alphanumeric() {
            i -= 1;
        }
        i
    }

    fn word_end(&self) -> usize {
        let n = self.chars.len();
        let mut i = self.cursor;
        while i < n && !self.chars[i].is_alphanumeric() {
            i += 1;
        }
        while i < n && self.chars[i].is_alphanumeric() {
            i += 1;
        }
        i
    }

    /// Ctrl-W kills back to the previous whitespace, as in a shell.
    fn blank_word_start(&self) -> usize {
        let mut i = self.cursor;
        while i > 0 && self.chars[i - 1].is_whitespace() {
            i -= 1;
        }
        while i > 0 && !self.chars[i - 1].is_whitespace() {
            i -= 1;
        }
        i
    }

    fn kill(&mut self, from: usize, to: usize) {
        if from < to {
            self.killed = self.chars.drain(from..to).collect();
            self.cursor = from;
        }
    }

    /// Applies one key.
    pub fn key(&mut self, ev: &KeyEvent) -> Edit {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let alt = ev.modifiers.contains(KeyModifiers::ALT);
        let n = self.chars.len();
        match ev.code {
            KeyCode::Enter => return Edit::Submit,
            KeyCode::Esc => return Edit::Cancel,
            KeyCode::Up => return Edit::Older,
            KeyCode::Down => return Edit::Newer,
            KeyCode::Tab => return Edit::Complete,
            KeyCode::Left if ctrl || alt => self.cursor = self.word_start(),
            KeyCode::Right if ctrl || alt => self.cursor = self.word_end(),
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(n),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = n,
            KeyCode::Backspace if ctrl || alt => self.kill(self.word_start(), self.cursor),
            KeyCode::Backspace => {
                if self.cursor > 0 {
                    self.cursor -= 1;
                    self.chars.remove(self.cursor);
                }
            }
            KeyCode::Delete => {
                if self.cursor < n {
                    self.chars.remove(self.cursor);
                }
            }
            KeyCode::Char(c) if ctrl => match c.to_ascii_lowercase() {
                'a' => self.cursor = 0,
                'e' => self.cursor = n,
                'b' => self.cursor = self.cursor.saturating_sub(1),
                'f' => self.cursor = (self.cursor + 1).min(n),
                'h' => {
                    if self.cursor > 0 {
                        self.cursor -= 1;
                        self.chars.remove(self.cursor);
                    }
                }
                'd' => {
                    if self.cursor < n {
                        self.chars.remove(self.cursor);
                    } else if n == 0 {
                        return Edit::Cancel;
                    }
                }
                'k' => self.kill(self.cursor, n),
                'u' => self.kill(0, self.cursor),
                'w' => self.kill(self.blank_word_start(), self.cursor),
                'y' => {
                    let k: Vec<char> = self.killed.chars().collect();
                    let len = k.len();
                    self.chars.splice(self.cursor..self.cursor, k);
                    self.cursor += len;
                }
                't' => {
                    // Transposes the two chars before the cursor (at the end) or around it.
                    if n >= 2 && self.cursor > 0 {
                        let at = self.cursor.min(n - 1);
                        self.chars.swap(at - 1, at);
                        self.cursor = (at + 1).min(n);
                    }
                }
                'p' => return Edit::Older,
                'n' => return Edit::Newer,
                'c' | 'g' => return Edit::Cancel,
                'j' | 'm' => return Edit::Submit,
                _ => return Edit::Other,
            },
            KeyCode::Char(c) if alt => match c {
                'b' => self.cursor = self.word_start(),
                'f' => self.cursor = self.word_end(),
                'd' => self.kill(self.cursor, self.word_end()),
                _ => return Edit::Other,
            },
            KeyCode::Char(c) => {
                self.chars.insert(self.cursor, c);
                self.cursor += 1;
            }
            _ => return Edit::Other,
        }
        Edit::Done
    }
}

/// Entries kept per prompt.
const KEEP: usize = 500;

/// The history of one prompt, oldest first, and where Up/Down are in it.
#[derive(Debug, Clone, Default)]
pub struct History {
    entries: Vec<String>,
    /// The entry shown (`None`: the line being typed, kept in `draft`).
    at: Option<usize>,
    draft: String,
}

impl History {
    pub fn entries(&self) -> &[String] {
        &self.entries
    }

    /// Adds a submitted line (moved to the end when it was there already).
    pub fn add(&mut self, text: &str) {
        self.at = None;
        if text.trim().is_empty() || text.contains(['\n', '\r']) {
            return;
        }
        self.entries.retain(|e| e != text);
        self.entries.push(text.to_owned());
        if self.entries.len() > KEEP {
            self.entries.drain(..self.entries.len() - KEEP);
        }
    }

    /// Starts browsing from the line being typed.
    pub fn reset(&mut self) {
        self.at = None;
    }

    /// Up: the previous entry (that starts with what was typed, as a shell's history
    /// search does when the line is not empty). `None` at the oldest.
    pub fn older(&mut self, typed: &str) -> Option<&str> {
        if self.at.is_none() {
            self.draft = typed.to_owned();
        }
        let before = self.at.unwrap_or(self.entries.len());
        let i = (0..before)
            .rev()
            .find(|&i| self.entries[i].starts_with(self.draft.as_str()))?;
        self.at = Some(i);
        Some(&self.entries[i])
    }

    /// Down: the next entry, or back to the line that was being typed.
    pub fn newer(&mut self) -> Option<&str> {
        let from = self.at? + 1;
        match (from..self.entries.len()).find(|&i| self.entries[i].starts_with(self.draft.as_str()))
        {
            Some(i) => {
                self.at = Some(i);
                Some(&self.entries[i])
            }
            None => {
                self.at = None;
                Some(&self.draft)
            }
        }
    }
}

/// The histories of the three prompts and the file they live in.
#[derive(Debug, Clone, Default)]
pub struct Histories {
    pub search: History,
    pub filter: History,
    pub command: History,
    /// Where they are saved (`None`: not saved, as in tests).
    path: Option<PathBuf>,
}

/// `$XDG_STATE_HOME/kibitzer/view-history` (or `~/.local/state/...`).
pub fn default_history_path() -> Option<PathBuf> {
    std::env::var_os("XDG_STATE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/state")))
        .map(|d| d.join("kibitzer").join("view-history"))
}

impl Histories {
    /// Reads the file (one entry per line: `search TEXT`, `filter TEXT`, `command TEXT`).
    /// A missing or unreadable file is an empty history: the viewer works without it.
    pub fn load(path: Option<&Path>) -> Histories {
        let mut h = Histories {
            path: path.map(Path::to_path_buf),
            ..Histories::default()
        };
        let Some(text) = path.and_then(|p| std::fs::read(p).ok()) else {
            return h;
        };
        for line in String::from_utf8_lossy(&text).lines() {
            let Some((kind, entry)) = line.split_once(' ') else {
                continue;
            };
            if let Some(list) = h.of_name(kind) {
                list.add(entry);
            }
        }
        h
    }

    fn of_name(&mut self, name: &str) -> Option<&mut History> {
        match name {
            "search" => Some(&mut self.search),
            "filter" => Some(&mut self.filter),
            "command" => Some(&mut self.command),
            _ => None,
        }
    }

    /// Writes the file again (all three histories); an error is returned for the status
    /// line, never fatal.
    pub fn save(&self) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut out = String::new();
        for (name, h) in [
            ("search", &self.search),
            ("filter", &self.filter),
            ("command", &self.command),
        ] {
            for e in &h.entries {
                out.push_str(name);
                out.push(' ');
                out.push_str(e);
                out.push('\n');
            }
        }
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        // Written aside and renamed: two viewers closing at once never leave half a file.
        let (tmp, mut file) = crate::capture::output_path::create_temp_beside(path)
            .map_err(|e| format!("history {}: {e}", path.display()))?;
        let written = std::io::Write::write_all(&mut file, out.as_bytes())
            .and_then(|()| std::fs::rename(&tmp, path));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written.map_err(|e| format!("history {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(e: &mut LineEdit, keys: &[(KeyCode, KeyModifiers)]) {
        for (c, m) in keys {
            e.key(&KeyEvent::new(*c, *m));
        }
    }

    const N: KeyModifiers = KeyModifiers::NONE;
    const C: KeyModifiers = KeyModifiers::CONTROL;

    #[test]
    fn readline_keys_edit_the_line() {
        let mut e = LineEdit::new("kind:info engine");
        typed(&mut e, &[(KeyCode::Char('a'), C), (KeyCode::Char('!'), N)]);
        assert_eq!(e.text(), "!kind:info engine");
        typed(&mut e, &[(KeyCode::Char('e'), C), (KeyCode::Char('w'), C)]);
        assert_eq!(e.text(), "!kind:info ");
        typed(&mut e, &[(KeyCode::Char('y'), C)]);
        assert_eq!(e.text(), "!kind:info engine");
        typed(
            &mut e,
            &[
                (KeyCode::Left, N),
                (KeyCode::Left, N),
                (KeyCode::Char('k'), C),
            ],
        );
        assert_eq!(e.text(), "!kind:info engi");
        typed(&mut e, &[(KeyCode::Char('u'), C)]);
        assert_eq!(e.text(), "");
        let mut e = LineEdit::new("abc");
        typed(&mut e, &[(KeyCode::Home, N), (KeyCode::Delete, N)]);
        assert_eq!((e.text().as_str(), e.cursor()), ("bc", 0));
        typed(&mut e, &[(KeyCode::Right, N), (KeyCode::Char('h'), C)]);
        assert_eq!((e.text().as_str(), e.cursor()), ("c", 0));
    }

    #[test]
    fn history_walks_back_by_prefix_and_returns_to_the_draft() {
        let mut h = History::default();
        for e in ["bestmove", "kind:info", "best", "kind:info"] {
            h.add(e);
        }
        assert_eq!(h.entries(), ["bestmove", "best", "kind:info"]);
        assert_eq!(h.older(""), Some("kind:info"));
        assert_eq!(h.older(""), Some("best"));
        assert_eq!(h.newer(), Some("kind:info"));
        assert_eq!(h.newer(), Some(""));
        h.reset();
        assert_eq!(h.older("be"), Some("best"));
        assert_eq!(h.older("be"), Some("bestmove"));
        assert_eq!(h.older("be"), None);
    }

    #[test]
    fn histories_survive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/kibitzer/view-history");
        let mut h = Histories::load(Some(&path));
        h.search.add("ponder h");
        h.filter.add("engine kind:bestmove");
        h.command.add("500");
        h.save().unwrap();
        let h = Histories::load(Some(&path));
        assert_eq!(h.search.entries(), ["ponder h"]);
        assert_eq!(h.filter.entries(), ["engine kind:bestmove"]);
        assert_eq!(h.command.entries(), ["500"]);
    }
}
