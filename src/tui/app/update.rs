//! Input to state: a key (with the prompt and the pending mark keys), a click or scroll, or
//! an [`Action`] from the key map, applied to the [`App`]. Kept apart from the state itself
//! (`mod.rs`), which only knows how to stay consistent with the document; everything a
//! keypress can mean is read here.

use super::{App, Focus, Pending, PromptKind, Searching, ViolationItem, secs};
use crate::rules::Severity;
use crate::tui::doc::Doc;
use crate::tui::filter::Filter;
use crate::tui::keys::{Action, Key};
use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use regex::RegexBuilder;

impl App {
    /// A key from the terminal.
    pub fn key(&mut self, doc: &Doc, ev: KeyEvent) {
        self.message = None;
        if let Some((kind, text)) = self.prompt.as_mut() {
            let kind = *kind;
            match ev.code {
                KeyCode::Enter => {
                    let text = std::mem::take(text);
                    self.prompt = None;
                    self.submit(doc, kind, &text);
                }
                KeyCode::Esc => self.prompt = None,
                KeyCode::Backspace => {
                    text.pop();
                }
                KeyCode::Char('c') if Key::of(&ev).ctrl => self.prompt = None,
                KeyCode::Char(c) => text.push(c),
                _ => {}
            }
            return;
        }
        if let Some(p) = self.pending.take()
            && let KeyCode::Char(c) = ev.code
        {
            match p {
                Pending::SetMark => {
                    if let Some(r) = self.selected() {
                        self.marks.insert(c, r as u32);
                        self.say(format!("mark '{c}' set"));
                    }
                }
                Pending::JumpMark => match self.marks.get(&c) {
                    Some(&r) => self.jump_to_row(doc, r as usize),
                    None => self.complain(format!("no mark '{c}'")),
                },
            }
            return;
        }
        // Ctrl-C always quits, whatever the key config says: the way out must not depend on it.
        if ev.code == KeyCode::Char('c') && Key::of(&ev).ctrl {
            self.quit = true;
            return;
        }
        match self.keys.action(Key::of(&ev)) {
            Some(a) => self.update(doc, a),
            // Any key closes the help, bound or not.
            None => self.show_help = false,
        }
    }

    fn submit(&mut self, doc: &Doc, kind: PromptKind, text: &str) {
        match kind {
            PromptKind::Search => {
                if text.is_empty() {
                    self.search = None;
                    self.search_text.clear();
                    return;
                }
                match RegexBuilder::new(text).case_insensitive(true).build() {
                    Ok(re) => {
                        self.search = Some(re);
                        self.search_text = text.to_owned();
                        self.search_step(doc, true);
                    }
                    Err(e) => self.complain(format!("search: {e}")),
                }
            }
            PromptKind::Filter => match Filter::parse(text) {
                Ok(f) => {
                    self.filter = (!f.is_empty()).then_some(f);
                    self.filter_text = text.to_owned();
                    self.rebuild(doc);
                    self.say(format!("{} lines shown", self.view.len()));
                }
                Err(e) => self.complain(format!("filter: {e}")),
            },
        }
    }

    fn search_step(&mut self, doc: &Doc, forward: bool) {
        let Some(re) = self.search.clone() else {
            self.complain("no search: / starts one");
            return;
        };
        self.searching = Some(Searching {
            re,
            forward,
            next: if forward {
                self.cursor + 1
            } else {
                self.cursor
            },
        });
        self.work(doc);
    }

    pub fn is_searching(&self) -> bool {
        self.searching.is_some()
    }

    /// A search in progress looks at the lines for a while, then lets the screen answer: on a
    /// big recording each line is parsed again, and a search that finds nothing reads them
    /// all. `true` while there is more to do (Esc cancels).
    pub fn work(&mut self, doc: &Doc) -> bool {
        const SLICE: std::time::Duration = std::time::Duration::from_millis(40);
        let Some(mut s) = self.searching.take() else {
            return false;
        };
        let start = std::time::Instant::now();
        let n = self.view.len();
        let mut looked = 0usize;
        loop {
            let i = if s.forward {
                if s.next >= n {
                    break;
                }
                s.next
            } else {
                if s.next == 0 {
                    break;
                }
                s.next - 1
            };
            if s.re.is_match(&doc.text(self.view[i] as usize)) {
                self.go(i);
                self.message = None;
                return false;
            }
            s.next = if s.forward { i + 1 } else { i };
            looked += 1;
            if looked.is_multiple_of(1024) && start.elapsed() > SLICE {
                let done = if s.forward { s.next } else { n - s.next };
                self.message = Some((
                    format!(
                        "searching /{}/ … {}% (esc stops)",
                        self.search_text,
                        done * 100 / n.max(1)
                    ),
                    false,
                ));
                self.searching = Some(s);
                return true;
            }
        }
        let way = if s.forward { "further" } else { "earlier" };
        self.complain(format!("no {way} match of /{}/", self.search_text));
        false
    }

    /// Applies one action.
    pub fn update(&mut self, doc: &Doc, a: Action) {
        if self.show_help {
            match a {
                Action::Down => self.help_offset += 1,
                Action::Up => self.help_offset = self.help_offset.saturating_sub(1),
                Action::Quit => self.quit = true,
                _ => self.show_help = false,
            }
            return;
        }
        let handled = match self.focus {
            Focus::Violations if self.show_violations => self.violations_key(doc, a),
            Focus::Sessions if self.show_sessions => self.sessions_key(doc, a),
            _ => false,
        };
        if handled {
            return;
        }
        let half = (self.page / 2).max(1);
        match a {
            Action::Quit => self.quit = true,
            Action::Up => self.go(self.cursor.saturating_sub(1)),
            Action::Down => self.go(self.cursor + 1),
            Action::PageUp => self.go(self.cursor.saturating_sub(self.page.max(1))),
            Action::PageDown => self.go(self.cursor + self.page.max(1)),
            Action::HalfUp => self.go(self.cursor.saturating_sub(half)),
            Action::HalfDown => self.go(self.cursor + half),
            Action::Top => self.go(0),
            Action::Bottom => {
                self.go(self.view.len().saturating_sub(1));
                if !doc.done && !self.opts.follow {
                    self.say("still indexing: G again for the lines read since");
                }
            }
            Action::NextViolation | Action::PrevViolation => self.seek(
                doc,
                a == Action::NextViolation,
                "line with a finding",
                |_, r| r.sev().is_some_and(|s| s >= Severity::Note),
            ),
            Action::NextError | Action::PrevError => {
                self.seek(doc, a == Action::NextError, "error", |_, r| {
                    r.sev() == Some(Severity::Error)
                })
            }
            Action::NextWarning | Action::PrevWarning => {
                self.seek(doc, a == Action::NextWarning, "warning", |_, r| {
                    r.sev() >= Some(Severity::Warning)
                })
            }
            Action::NextGap | Action::PrevGap => {
                let gap = self.opts.gap_ns;
                let what = format!("silence longer than {}", secs(gap));
                self.seek(doc, a == Action::NextGap, &what, |r, row| {
                    r > 0 && row.t.saturating_sub(doc.rows[r - 1].t) > gap
                })
            }
            Action::NextGame | Action::PrevGame => {
                let starts = doc.game_starts();
                self.seek_rows(a == Action::NextGame, "game", &starts);
            }
            Action::NextSearch | Action::PrevSearch => {
                let mut starts: Vec<u32> = doc.searches.iter().map(|x| x.start).collect();
                starts.sort_unstable();
                self.seek_rows(a == Action::NextSearch, "search", &starts);
            }
            Action::Search => self.prompt = Some((PromptKind::Search, String::new())),
            Action::SearchNext => self.search_step(doc, true),
            Action::SearchPrev => self.search_step(doc, false),
            Action::Filter => self.prompt = Some((PromptKind::Filter, self.filter_text.clone())),
            Action::ClearFilter => {
                self.filter = None;
                self.filter_text.clear();
                self.search = None;
                self.search_text.clear();
                self.session = None;
                self.rebuild(doc);
            }
            Action::SetMark => self.pending = Some(Pending::SetMark),
            Action::JumpMark => self.pending = Some(Pending::JumpMark),
            Action::NextMark | Action::PrevMark => {
                let mut marked: Vec<u32> = self.marks.values().copied().collect();
                marked.sort_unstable();
                self.seek_rows(a == Action::NextMark, "mark", &marked);
            }
            Action::TimeMode => {
                self.time_mode = self.time_mode.next();
                self.say(format!("time: {}", self.time_mode.label()));
            }
            Action::FocusNext => {
                self.focus = match self.focus {
                    Focus::List if self.show_violations => Focus::Violations,
                    Focus::List | Focus::Violations if self.show_sessions => Focus::Sessions,
                    _ => Focus::List,
                }
            }
            // Shows and focuses the panel; hides it when it has the focus already.
            Action::Violations => {
                if self.show_violations && self.focus == Focus::Violations {
                    self.show_violations = false;
                    self.focus = Focus::List;
                } else {
                    self.show_violations = true;
                    self.focus = Focus::Violations;
                }
            }
            Action::Sessions => {
                self.show_sessions = !self.show_sessions;
                self.focus = if self.show_sessions {
                    Focus::Sessions
                } else {
                    Focus::List
                };
            }
            Action::Chart => self.show_chart = !self.show_chart,
            Action::Copy => self.copy(doc),
            Action::Follow => {
                if self.opts.follow {
                    self.autoscroll = !self.autoscroll;
                    self.say(if self.autoscroll {
                        "auto-scroll on"
                    } else {
                        "auto-scroll off"
                    });
                    if self.autoscroll {
                        self.go(self.view.len().saturating_sub(1));
                    }
                } else {
                    self.complain("auto-scroll needs --follow");
                }
            }
            Action::Enter => {}
            Action::Escape => {
                if self.searching.take().is_some() {
                    self.say("search stopped");
                }
                self.show_sessions = false;
                self.focus = Focus::List;
            }
            Action::Help => {
                self.show_help = true;
                self.help_offset = 0;
            }
        }
    }

    /// Keys of the violations panel; `false` leaves the action to the list.
    fn violations_key(&mut self, doc: &Doc, a: Action) -> bool {
        let n = self.violations.len();
        match a {
            Action::Up => self.viol_cursor = self.viol_cursor.saturating_sub(1),
            Action::Down => self.viol_cursor = (self.viol_cursor + 1).min(n.saturating_sub(1)),
            Action::Top => self.viol_cursor = 0,
            Action::Bottom => self.viol_cursor = n.saturating_sub(1),
            Action::PageUp => self.viol_cursor = self.viol_cursor.saturating_sub(10),
            Action::PageDown => self.viol_cursor = (self.viol_cursor + 10).min(n.saturating_sub(1)),
            Action::Enter => {
                let f = match self.violations.get(self.viol_cursor) {
                    Some(ViolationItem::Entry(i)) => Some(*i),
                    // A group header jumps to its first finding.
                    Some(ViolationItem::Group { .. }) => {
                        match self.violations.get(self.viol_cursor + 1) {
                            Some(ViolationItem::Entry(i)) => Some(*i),
                            _ => None,
                        }
                    }
                    None => None,
                };
                if let Some(row) = f
                    .and_then(|i| doc.findings().get(i))
                    .and_then(|f| doc.row_of_seq(f.seq))
                {
                    self.jump_to_row(doc, row);
                    self.focus = Focus::List;
                }
            }
            _ => return false,
        }
        true
    }

    fn sessions_key(&mut self, doc: &Doc, a: Action) -> bool {
        let n = doc.decoder().sessions().len() + 1;
        match a {
            Action::Up => self.session_cursor = self.session_cursor.saturating_sub(1),
            Action::Down => self.session_cursor = (self.session_cursor + 1).min(n - 1),
            Action::Enter => {
                self.session = match self.session_cursor {
                    0 => None,
                    i => Some(u16::try_from(i - 1).unwrap_or(u16::MAX)),
                };
                self.rebuild(doc);
                self.show_sessions = false;
                self.focus = Focus::List;
                self.say(match self.session {
                    None => "all sessions".to_owned(),
                    Some(s) => format!("session {}", s + 1),
                });
            }
            _ => return false,
        }
        true
    }

    /// `y`: the position at the cursor to the clipboard (OSC 52) and to standard output on
    /// exit.
    fn copy(&mut self, doc: &Doc) {
        match self
            .selected()
            .and_then(|r| crate::tui::board::position_at(doc, r))
        {
            Some(p) => {
                self.osc52 = Some(format!("\x1b]52;c;{}\x07", base64(p.text.as_bytes())));
                self.say(format!("copied {}", p.text));
                self.copied = Some(p.text);
            }
            None => self.complain("no board at this line"),
        }
    }

    pub fn mouse(&mut self, doc: &Doc, m: MouseEvent) {
        let inside = |r: Rect| {
            m.column >= r.x && m.column < r.x + r.width && m.row >= r.y && m.row < r.y + r.height
        };
        match m.kind {
            MouseEventKind::ScrollDown => {
                if inside(self.areas.violations) {
                    self.viol_cursor =
                        (self.viol_cursor + 3).min(self.violations.len().saturating_sub(1));
                } else {
                    self.go(self.cursor + 3);
                }
            }
            MouseEventKind::ScrollUp => {
                if inside(self.areas.violations) {
                    self.viol_cursor = self.viol_cursor.saturating_sub(3);
                } else {
                    self.go(self.cursor.saturating_sub(3));
                }
            }
            MouseEventKind::Down(MouseButton::Left) => {
                let l = self.areas.list;
                // The list has a border and a header line.
                if inside(l) && m.row >= l.y + 2 {
                    self.focus = Focus::List;
                    self.go(self.offset + usize::from(m.row - l.y - 2));
                }
                let v = self.areas.violations;
                if inside(v) && m.row > v.y {
                    self.focus = Focus::Violations;
                    let first = self
                        .viol_cursor
                        .saturating_sub(usize::from(v.height.saturating_sub(3)));
                    self.viol_cursor = (first + usize::from(m.row - v.y - 1))
                        .min(self.violations.len().saturating_sub(1));
                    self.violations_key(doc, Action::Enter);
                }
            }
            _ => {}
        }
    }
}

fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= c.len() {
                out.push(T[(n >> (18 - 6 * k)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_the_rfc_examples() {
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
        ] {
            assert_eq!(super::base64(i.as_bytes()), o);
        }
    }
}
