//! The `:` command line (mitmproxy's model: every key is a command, and every command can
//! be typed): `:500` goes to line 500 of the input, `:t 12.5` / `:t +3s` / `:t 14:03:22` to
//! a time, `:write FILE` and `:copy` get lines out, and every action of the key table runs by
//! its name (`:next_error`).

use super::App;
use crate::tui::doc::Doc;
use crate::tui::filter::duration_ns;
use crate::tui::keys::Action;

/// The commands besides the action names, for completion and the help screen.
pub const COMMANDS: &[(&str, &str)] = &[
    ("N", "go to line N of the input (also N then G)"),
    (
        "t TIME",
        "go to a time: 12.5 (seconds since the start), +3s / -500ms (from this line), 14:03:22 (wall clock)",
    ),
    (
        "write [line|marked|shown] FILE",
        "save lines (default: the shown ones); FILE.jsonl is a recording every command reads, else the lines' text",
    ),
    (
        "copy [line|marked|shown]",
        "copy lines to the clipboard (OSC 52: clipboard = \"osc52\" in view.toml)",
    ),
    ("filter TEXT", "add a filter (as f)"),
    ("search TEXT", "search (as /)"),
    ("wrap", "wrap long lines, or scroll them sideways"),
    (
        "mouse",
        "mouse capture on/off (off: the terminal selects text)",
    ),
    ("q", "quit"),
];

/// Which lines a `:write` or `:copy` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    Line,
    Marked,
    Shown,
}

impl App {
    /// Runs a `:` command.
    pub(super) fn command(&mut self, doc: &Doc, text: &str) {
        let text = text.trim();
        let (name, arg) = match text.split_once(char::is_whitespace) {
            Some((n, a)) => (n, a.trim()),
            None => (text, ""),
        };
        if name.is_empty() {
            return;
        }
        if let Ok(n) = name.parse::<u64>() {
            self.goto_line(doc, n);
            return;
        }
        match name {
            "t" | "time" => self.goto_time(doc, arg),
            "w" | "write" | "save" => {
                let (which, file) = lines_arg(arg, Lines::Shown);
                if file.is_empty() {
                    self.complain(":write needs a file: :write [line|marked|shown] FILE");
                } else {
                    self.write_lines(doc, which, file);
                }
            }
            "copy" | "y" => {
                let (which, rest) = lines_arg(arg, Lines::Line);
                if rest.is_empty() {
                    self.copy_lines(doc, which);
                } else {
                    self.complain(format!(":copy takes line, marked or shown, not `{rest}`"));
                }
            }
            "filter" | "f" => self.add_filter(doc, arg),
            "search" | "s" | "/" => self.start_search(doc, arg),
            "wrap" => self.update(doc, Action::Wrap),
            "mouse" => self.update(doc, Action::Mouse),
            "q" | "quit" | "q!" => self.quit = true,
            "h" | "help" => self.update(doc, Action::Help),
            _ => match Action::from_name(&name.replace('-', "_")) {
                Some(a) => {
                    for _ in 0..arg.parse::<usize>().unwrap_or(1).clamp(1, 1_000_000) {
                        self.update(doc, a);
                    }
                }
                None => self.complain(format!(
                    "no command `{name}`: :N, :t TIME, :write, :copy, :filter, :search, or an action name (? lists them)"
                )),
            },
        }
    }

    /// Command and action names that start with `text`, sorted.
    pub fn command_names(text: &str) -> Vec<String> {
        let mut names: Vec<&str> = COMMANDS
            .iter()
            .filter_map(|(c, _)| c.split(' ').next())
            .filter(|c| c.chars().all(|ch| ch.is_ascii_lowercase()))
            .chain(Action::ALL.iter().map(|a| a.name()))
            .filter(|n| n.starts_with(text))
            .collect();
        names.sort_unstable();
        names.dedup();
        names.into_iter().map(str::to_owned).collect()
    }

    /// Selects the first line at or after line `n` of the input.
    pub(super) fn goto_line(&mut self, doc: &Doc, n: u64) {
        let unreadable = doc.skipped.iter().find(|(l, _)| *l == n);
        match doc.row_at_line(n) {
            Some(r) if self.view.position(r as u32).is_err() => {
                self.pending = Some(super::Pending::ShowHidden(r as u32));
                self.say(format!(
                    "line {n} is hidden by the filter: y turns the filters off to show it"
                ));
            }
            Some(r) => {
                self.jump_to_row(doc, r);
                match unreadable {
                    Some((_, why)) => self.complain(format!(
                        "line {n} could not be read ({}): line {} is the next one",
                        crate::tui::draw::visible(why),
                        doc.line(r)
                    )),
                    None => self.say(format!("line {n}")),
                }
            }
            None if !doc.done => {
                self.opts.start_line = Some(n);
                self.say(format!(
                    "line {n} is not read yet: it is selected when it is"
                ));
            }
            None => self.complain(format!("line {n} is past the end of the input")),
        }
    }

    fn goto_time(&mut self, doc: &Doc, arg: &str) {
        let here = self.selected().map_or(0, |r| doc.t(r));
        let target = if let Some(rel) = arg.strip_prefix('+') {
            duration_secs(rel).map(|d| here.saturating_add(d))
        } else if let Some(rel) = arg.strip_prefix('-') {
            duration_secs(rel).map(|d| here.saturating_sub(d))
        } else if arg.contains(':') {
            match (doc.wall_start, wall_ns(arg)) {
                (Some(start), Some(ns)) => {
                    // A time of day: on the day the input started (or the next, past midnight).
                    const DAY: u64 = 86_400_000_000_000;
                    let day = start - start % DAY;
                    let mut at = day + ns;
                    if at < start.saturating_sub(DAY / 2) {
                        at += DAY;
                    }
                    Some(at.saturating_sub(start))
                }
                (None, Some(_)) => {
                    self.complain("this input has no wall-clock times: :t SECONDS or :t +3s");
                    return;
                }
                _ => None,
            }
        } else {
            duration_secs(arg)
        };
        let Some(t) = target else {
            self.complain(format!(
                ":t `{arg}`: a time such as 12.5, +3s, -500ms or 14:03:22"
            ));
            return;
        };
        if self.view.is_empty() {
            return;
        }
        let i = self
            .view
            .partition_point(|r| doc.t(r as usize) < t)
            .min(self.view.len() - 1);
        self.go(i);
        self.say(format!("time {:.3} s", doc.t(self.view.at(i)) as f64 / 1e9));
    }

    /// The rows a command takes.
    pub(super) fn rows_of(&self, which: Lines) -> Vec<u32> {
        match which {
            Lines::Line => self.selected().map(|r| r as u32).into_iter().collect(),
            Lines::Marked => {
                let mut m: Vec<u32> = self.marks.values().copied().collect();
                m.sort_unstable();
                m.dedup();
                m
            }
            Lines::Shown => self.view.to_vec(),
        }
    }
}

/// `[line|marked|shown] REST`.
fn lines_arg(arg: &str, default: Lines) -> (Lines, &str) {
    let (first, rest) = match arg.split_once(char::is_whitespace) {
        Some((f, r)) => (f, r.trim()),
        None => (arg, ""),
    };
    match first {
        "line" | "." => (Lines::Line, rest),
        "marked" | "marks" => (Lines::Marked, rest),
        "shown" | "all" | "filtered" => (Lines::Shown, rest),
        _ => (default, arg),
    }
}

/// `12.5`, `3s`, `500ms` as ns (a bare number is seconds here: it is a time, not a latency).
fn duration_secs(x: &str) -> Option<u64> {
    let x = x.trim();
    if x.ends_with('s') {
        return duration_ns(x);
    }
    let v: f64 = x.parse().ok()?;
    (v.is_finite() && v >= 0.0).then_some((v * 1e9) as u64)
}

/// `HH:MM[:SS[.fff]]` as ns since midnight (UTC, as the time column shows it).
fn wall_ns(x: &str) -> Option<u64> {
    let mut parts = x.trim().split(':');
    let h: u64 = parts.next()?.parse().ok()?;
    let m: u64 = parts.next()?.parse().ok()?;
    let s: f64 = match parts.next() {
        Some(s) => s.parse().ok()?,
        None => 0.0,
    };
    if parts.next().is_some() || h > 23 || m > 59 || !(0.0..60.0).contains(&s) {
        return None;
    }
    Some((h * 3600 + m * 60) * 1_000_000_000 + (s * 1e9) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse() {
        assert_eq!(duration_secs("12.5"), Some(12_500_000_000));
        assert_eq!(duration_secs("3s"), Some(3_000_000_000));
        assert_eq!(duration_secs("500ms"), Some(500_000_000));
        assert_eq!(duration_secs("x"), None);
        assert_eq!(wall_ns("14:03:22.5"), Some(50_602_500_000_000));
        assert_eq!(wall_ns("25:00"), None);
    }

    #[test]
    fn names_complete() {
        assert_eq!(App::command_names("next_er"), ["next_error"]);
        assert!(App::command_names("next_").len() > 5);
        assert!(App::command_names("sea").contains(&"search".to_owned()));
        assert_eq!(App::command_names("wri"), ["write"]);
        assert!(App::command_names("zzz").is_empty());
    }
}
