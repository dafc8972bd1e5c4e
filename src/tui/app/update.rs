//! Input to state: a key (with the prompt and the pending mark keys), a click or scroll, or
//! an [`Action`] from the key map, applied to the [`App`]. Kept apart from the state itself
//! (`mod.rs`), which only knows how to stay consistent with the document; everything a
//! keypress can mean is read here.

use super::{App, Focus, Pending, Prompt, PromptKind, ViolationItem, secs};
use crate::rules::Severity;
use crate::tui::doc::Doc;
use crate::tui::keys::{Action, Key};
use crate::tui::layout::Zoom;
use crate::tui::prompt::{Edit, LineEdit};
use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;

impl App {
    /// A key from the terminal.
    pub fn key(&mut self, doc: &Doc, ev: KeyEvent) {
        self.message = None;
        if self.prompt.is_some() {
            self.prompt_key(doc, &ev);
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
                Pending::ShowHidden(r) if c == 'y' => self.jump_to_row(doc, r as usize),
                Pending::ShowHidden(_) => self.say("the filters stay"),
            }
            return;
        }
        // Ctrl-C always quits, whatever the key config says: the way out must not depend on it.
        if ev.code == KeyCode::Char('c') && Key::of(&ev).ctrl {
            self.quit = true;
            return;
        }
        let action = self.keys.action(Key::of(&ev));
        // Digits no key is bound to make a count: `500G`, `5j`.
        if action.is_none()
            && let KeyCode::Char(d @ '0'..='9') = ev.code
            && !Key::of(&ev).ctrl
            && !self.show_help
        {
            let n = self
                .count
                .unwrap_or(0)
                .saturating_mul(10)
                .saturating_add(u64::from(d as u8 - b'0'));
            self.count = Some(n);
            self.say(format!("{n}"));
            return;
        }
        match action {
            Some(a) => self.update(doc, a),
            // Any key closes the help, bound or not.
            None => {
                self.count = None;
                self.show_help = false
            }
        }
    }

    fn prompt_key(&mut self, doc: &Doc, ev: &KeyEvent) {
        self.candidates.clear();
        let Some(p) = self.prompt.as_mut() else {
            return;
        };
        let kind = p.kind;
        let history = match kind {
            PromptKind::Search | PromptKind::HelpSearch => &mut self.histories.search,
            PromptKind::Filter | PromptKind::EditFilter(_) => &mut self.histories.filter,
            PromptKind::Command => &mut self.histories.command,
        };
        match p.edit.key(ev) {
            Edit::Done | Edit::Other => {}
            Edit::Cancel => {
                self.prompt = None;
                history.reset();
            }
            Edit::Older => match history.older(&p.edit.text()) {
                Some(t) => p.edit.set(t),
                None => self.message = Some(("no older entry".into(), false)),
            },
            Edit::Newer => {
                if let Some(t) = history.newer() {
                    p.edit.set(t);
                }
            }
            Edit::Complete => {
                let text = p.edit.text();
                if let Some(t) = self.complete_prompt(doc, kind, &text)
                    && let Some(p) = self.prompt.as_mut()
                {
                    p.edit.set(&t);
                }
            }
            Edit::Submit => {
                let text = p.edit.text();
                history.add(&text);
                self.prompt = None;
                if let Err(e) = self.histories.save() {
                    self.complain(e);
                }
                self.submit(doc, kind, &text);
            }
        }
    }

    fn submit(&mut self, doc: &Doc, kind: PromptKind, text: &str) {
        match kind {
            PromptKind::Search => self.start_search(doc, text),
            PromptKind::HelpSearch => self.help_search(text),
            PromptKind::Filter => self.add_filter(doc, text),
            PromptKind::EditFilter(i) => self.edit_filter(doc, i, text),
            PromptKind::Command => self.command(doc, text),
        }
    }

    fn open_prompt(&mut self, kind: PromptKind) {
        self.prompt = Some(Prompt {
            kind,
            edit: LineEdit::default(),
        });
    }

    /// Applies one action.
    pub fn update(&mut self, doc: &Doc, a: Action) {
        // A count before a motion that seeks repeats it (`3w`, `2n`, `5}`), stopping where
        // there is nothing further.
        let repeats = matches!(
            a,
            Action::NextViolation
                | Action::PrevViolation
                | Action::NextError
                | Action::PrevError
                | Action::NextWarning
                | Action::PrevWarning
                | Action::NextGap
                | Action::PrevGap
                | Action::NextGame
                | Action::PrevGame
                | Action::NextSearch
                | Action::PrevSearch
                | Action::SearchNext
                | Action::SearchPrev
                | Action::NextMark
                | Action::PrevMark
        ) && !self.show_help
            && self.zoom != Zoom::Line
            && self.focus == Focus::List;
        if repeats && let Some(n) = self.count.take() {
            for _ in 0..n.clamp(1, 10_000) {
                self.apply(doc, a);
                if self.message.as_ref().is_some_and(|(_, err)| *err) {
                    break;
                }
            }
            self.relayout();
            return;
        }
        self.apply(doc, a);
        // A pane shown or hidden changes the list's page.
        self.relayout();
    }

    fn apply(&mut self, doc: &Doc, a: Action) {
        if self.show_help {
            self.help_key(a);
            return;
        }
        let count = self.count.take();
        if self.zoom == Zoom::Line {
            self.line_view_key(a, count);
            return;
        }
        let handled = match self.focus {
            Focus::Violations if self.show_violations => self.violations_key(doc, a),
            Focus::Sessions if self.show_sessions => self.sessions_key(doc, a),
            Focus::Filters if self.show_filters => self.filters_key(doc, a),
            _ => false,
        };
        if !handled {
            self.list_key(doc, a, count);
        }
    }

    /// Keys while the help is shown: they scroll and search it, any other closes it.
    fn help_key(&mut self, a: Action) {
        // The drawing clamps the offset to the end of the text.
        let page = self.page.max(1);
        let most = crate::tui::draw::help_len(self);
        match a {
            Action::Down => self.help_offset += 1,
            Action::Up => self.help_offset = self.help_offset.saturating_sub(1),
            Action::PageDown | Action::HalfDown => self.help_offset += page,
            Action::PageUp | Action::HalfUp => {
                self.help_offset = self.help_offset.saturating_sub(page)
            }
            Action::Top => self.help_offset = 0,
            Action::Bottom => self.help_offset = most,
            Action::Search => self.open_prompt(PromptKind::HelpSearch),
            Action::SearchNext => self.help_step(true),
            Action::SearchPrev => self.help_step(false),
            // As in less, lnav and mitmproxy: q leaves the help, not the viewer.
            _ => self.show_help = false,
        }
        self.help_offset = self.help_offset.min(most);
    }

    /// Keys of the list, and of every pane without a key of its own. One arm an action, so
    /// the compiler names any action left without a meaning.
    fn list_key(&mut self, doc: &Doc, a: Action, count: Option<u64>) {
        let half = (self.page / 2).max(1);
        let times = usize::try_from(count.unwrap_or(1).max(1)).unwrap_or(usize::MAX);
        match a {
            Action::Quit => self.quit = true,
            Action::Up => self.go(self.cursor.saturating_sub(times)),
            Action::Down => self.go(self.cursor.saturating_add(times)),
            Action::PageUp | Action::PageDown => self.page_by(a == Action::PageDown, times),
            Action::HalfUp => self.go(self.cursor.saturating_sub(half)),
            Action::HalfDown => self.go(self.cursor + half),
            Action::Top | Action::Bottom if count.is_some() => {
                self.goto_line(doc, count.unwrap_or(1))
            }
            Action::Top => self.go(0),
            Action::Bottom => self.go_bottom(doc),
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
            Action::NextGap | Action::PrevGap => self.seek_gap(doc, a == Action::NextGap),
            Action::NextGame | Action::PrevGame => {
                let starts = doc.game_starts();
                self.seek_rows(a == Action::NextGame, "game", &starts);
            }
            Action::NextSearch | Action::PrevSearch => {
                self.seek_search(doc, a == Action::NextSearch)
            }
            Action::Search => self.open_prompt(PromptKind::Search),
            Action::SearchNext => self.search_step(doc, true),
            Action::SearchPrev => self.search_step(doc, false),
            Action::Filter => self.open_prompt(PromptKind::Filter),
            Action::Command => self.open_prompt(PromptKind::Command),
            Action::ClearFilter => self.clear_filters_and_search(doc),
            Action::FilterList => self.toggle_filter_list(),
            // Outside the filter list these say where they work.
            Action::ToggleFilter | Action::DeleteFilter => {
                self.complain("i opens the filter list, where this works")
            }
            Action::ScrollLeft => self.hscroll = self.hscroll.saturating_sub(8 * times),
            Action::ScrollRight => self.scroll_right(doc, times),
            Action::Wrap => self.toggle_wrap(),
            Action::Panes => self.toggle_panes(),
            Action::Mouse => self.toggle_mouse(),
            Action::CopyLines => self.copy_marked_or_line(doc),
            Action::Suspend => self.suspend = true,
            Action::SetMark => self.pending = Some(Pending::SetMark),
            Action::JumpMark => self.pending = Some(Pending::JumpMark),
            Action::NextMark | Action::PrevMark => self.seek_mark(a == Action::NextMark),
            Action::TimeMode => {
                self.time_mode = self.time_mode.next();
                self.say(format!("time: {}", self.time_mode.label()));
            }
            Action::FocusNext => self.focus_next(),
            Action::Violations => self.toggle_violations(),
            Action::Sessions => self.toggle_sessions(),
            Action::Chart => self.show_chart = !self.show_chart,
            Action::Copy => self.copy(doc),
            Action::Follow => self.toggle_autoscroll(),
            Action::Enter => self.open_line_view(),
            Action::Samples => self.toggle_samples(doc),
            Action::LineNumbers => self.line_numbers = !self.line_numbers,
            Action::ListOnly => self.toggle_list_only(),
            Action::DetailDown | Action::DetailUp => {
                self.scroll_detail(a == Action::DetailDown, times as u16)
            }
            Action::Escape if self.zoom == Zoom::List => self.zoom = Zoom::Normal,
            Action::Escape => self.escape(),
            Action::Help => {
                self.show_help = true;
                self.help_offset = 0;
            }
        }
    }

    fn go_bottom(&mut self, doc: &Doc) {
        self.go(self.view.len().saturating_sub(1));
        if !doc.done && !self.opts.follow {
            self.say("still indexing: G again for the lines read since");
        }
    }

    fn seek_gap(&mut self, doc: &Doc, forward: bool) {
        let gap = self.opts.gap_ns;
        let what = format!("silence longer than {}", secs(gap));
        self.seek(doc, forward, &what, |r, _| {
            r > 0 && doc.t(r).saturating_sub(doc.t(r - 1)) > gap
        })
    }

    fn seek_search(&mut self, doc: &Doc, forward: bool) {
        let mut starts: Vec<u32> = doc.searches.iter().map(|x| x.start).collect();
        starts.sort_unstable();
        self.seek_rows(forward, "search", &starts);
    }

    fn seek_mark(&mut self, forward: bool) {
        let mut marked: Vec<u32> = self.marks.values().copied().collect();
        marked.sort_unstable();
        self.seek_rows(forward, "mark", &marked);
    }

    fn clear_filters_and_search(&mut self, doc: &Doc) {
        self.search = None;
        self.search_text.clear();
        self.counting = None;
        self.session = None;
        self.clear_filters(doc);
        self.say("filters and search cleared");
    }

    fn toggle_filter_list(&mut self) {
        self.show_filters = !self.show_filters;
        self.focus = if self.show_filters {
            Focus::Filters
        } else {
            Focus::List
        };
        if self.show_filters && self.filters.is_empty() {
            self.say("no filter yet: f adds one");
        }
    }

    fn scroll_right(&mut self, doc: &Doc, times: usize) {
        if self.wrap {
            self.complain("long lines wrap: z scrolls them sideways instead");
            return;
        }
        // No further than shows the end of the longest line on the page.
        let longest = self
            .view
            .iter()
            .skip(self.offset)
            .take(self.page)
            .map(|r| {
                crate::tui::draw::visible(&doc.text(r as usize))
                    .chars()
                    .count()
            })
            .max()
            .unwrap_or(0);
        let most = longest.saturating_sub(self.text_width());
        self.hscroll = self.hscroll.saturating_add(8 * times).min(most);
    }

    fn toggle_wrap(&mut self) {
        self.wrap = !self.wrap;
        self.hscroll = 0;
        self.say(if self.wrap {
            "long lines wrap"
        } else {
            "long lines scroll sideways (left / right)"
        });
    }

    fn toggle_panes(&mut self) {
        self.panes = Some(!self.panes_shown());
        self.say(if self.panes_shown() {
            "board and search panes on"
        } else {
            "board and search panes off"
        });
    }

    fn toggle_mouse(&mut self) {
        self.mouse_capture = !self.mouse_capture;
        self.say(if self.mouse_capture {
            "mouse on: the wheel scrolls, a click selects"
        } else {
            "mouse off: the terminal selects text (M turns it on)"
        });
    }

    fn focus_next(&mut self) {
        self.focus = match self.focus {
            Focus::List if self.show_violations => Focus::Violations,
            Focus::List | Focus::Violations if self.show_sessions => Focus::Sessions,
            Focus::List | Focus::Violations | Focus::Sessions if self.show_filters => {
                Focus::Filters
            }
            _ => Focus::List,
        }
    }

    /// Shows and focuses the panel; hides it when it has the focus already.
    fn toggle_violations(&mut self) {
        if self.show_violations && self.focus == Focus::Violations {
            self.show_violations = false;
            self.focus = Focus::List;
        } else {
            self.show_violations = true;
            self.focus = Focus::Violations;
        }
    }

    fn toggle_sessions(&mut self) {
        self.show_sessions = !self.show_sessions;
        self.focus = if self.show_sessions {
            Focus::Sessions
        } else {
            Focus::List
        };
    }

    fn toggle_autoscroll(&mut self) {
        if !self.opts.follow {
            self.complain("auto-scroll needs --follow");
            return;
        }
        self.autoscroll = !self.autoscroll;
        self.say(if self.autoscroll {
            "auto-scroll on"
        } else {
            "auto-scroll off"
        });
        if self.autoscroll {
            self.go(self.view.len().saturating_sub(1));
        }
    }

    fn open_line_view(&mut self) {
        if let Some(r) = self.selected() {
            self.zoom = Zoom::Line;
            self.detail_scroll = (r, 0);
        }
    }

    fn toggle_list_only(&mut self) {
        self.zoom = if self.zoom == Zoom::List {
            Zoom::Normal
        } else {
            Zoom::List
        };
        if self.zoom == Zoom::List {
            self.say("the list alone: L brings the panes back");
        }
    }

    fn escape(&mut self) {
        if !self.stop_search() {
            self.cancel_filtering();
        }
        self.show_sessions = false;
        self.show_filters = false;
        self.focus = Focus::List;
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
                // A heading jumps to its first entry.
                let item = match self.violations.get(self.viol_cursor) {
                    Some(
                        ViolationItem::HangGroup { .. }
                        | ViolationItem::Group { .. }
                        | ViolationItem::RunnerGroup { .. }
                        | ViolationItem::UnreadableGroup { .. },
                    ) => self.violations.get(self.viol_cursor + 1),
                    other => other,
                };
                let row = match item {
                    Some(ViolationItem::Entry(i)) => {
                        doc.findings().get(*i).and_then(|f| doc.row_of_seq(f.seq))
                    }
                    Some(ViolationItem::Hang(i)) => doc.hangs.get(*i).and_then(|h| {
                        h.request_place
                            .as_ref()
                            .and_then(|p| doc.row_of_seq(p.seq))
                            .or_else(|| h.request_line.and_then(|l| doc.row_at_line(l)))
                    }),
                    Some(ViolationItem::Runner(s, k)) => doc
                        .decoder()
                        .sessions()
                        .nth(*s)
                        .and_then(|s| s.verdicts.get(*k))
                        .and_then(|v| doc.row_of_seq(v.at.seq)),
                    // The first line read after it (the unreadable line has no row).
                    Some(ViolationItem::Unreadable(i)) => doc.skipped.get(*i).map(|(line, _)| {
                        doc.row_at_line(*line)
                            .unwrap_or(doc.rows.len())
                            .min(doc.rows.len().saturating_sub(1))
                    }),
                    _ => None,
                };
                if let Some(row) = row.filter(|&r| r < doc.rows.len()) {
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
            // The popup's own list moves, never the traffic under it.
            Action::Top => self.session_cursor = 0,
            Action::Bottom => self.session_cursor = n - 1,
            Action::PageUp | Action::HalfUp => {
                self.session_cursor = self.session_cursor.saturating_sub(10)
            }
            Action::PageDown | Action::HalfDown => {
                self.session_cursor = (self.session_cursor + 10).min(n - 1)
            }
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
                if self.opts.osc52 {
                    self.osc52 = Some(osc52(p.text.as_bytes()));
                    self.say(format!("position {} · copied, printed on exit", p.text));
                } else {
                    self.say(format!("position {} · printed on exit", p.text));
                }
                self.copied = Some(p.text);
            }
            None => self.complain("no board at this line"),
        }
    }

    /// The wheel moves the page, not the selection (as in a browser or lnav); the selection
    /// only moves when it would leave the page.
    fn scroll_view(&mut self, by: usize, down: bool) {
        let page = self.page.max(1);
        let last = self.view.len().saturating_sub(page);
        self.offset = if down {
            (self.offset + by).min(last)
        } else {
            self.offset.saturating_sub(by)
        };
        let c = self.cursor.clamp(self.offset, self.offset + page - 1);
        if c != self.cursor {
            self.cursor = c.min(self.view.len().saturating_sub(1));
            self.autoscroll = self.opts.follow && self.cursor + 1 >= self.view.len();
        }
    }

    pub fn mouse(&mut self, doc: &Doc, m: MouseEvent) {
        let inside = |r: Rect| {
            m.column >= r.x && m.column < r.x + r.width && m.row >= r.y && m.row < r.y + r.height
        };
        // The line view scrolls its own text.
        if self.zoom == Zoom::Line {
            match m.kind {
                MouseEventKind::ScrollDown => self.scroll_detail(true, 3),
                MouseEventKind::ScrollUp => self.scroll_detail(false, 3),
                _ => {}
            }
            return;
        }
        match m.kind {
            MouseEventKind::ScrollDown => {
                if inside(self.areas.violations) {
                    self.viol_cursor =
                        (self.viol_cursor + 3).min(self.violations.len().saturating_sub(1));
                } else if inside(self.areas.detail) {
                    self.scroll_detail(true, 3);
                } else {
                    self.scroll_view(3, true);
                }
            }
            MouseEventKind::ScrollUp => {
                if inside(self.areas.violations) {
                    self.viol_cursor = self.viol_cursor.saturating_sub(3);
                } else if inside(self.areas.detail) {
                    self.scroll_detail(false, 3);
                } else {
                    self.scroll_view(3, false);
                }
            }
            // Sideways on a wheel that has it (or shift and the wheel).
            MouseEventKind::ScrollRight if !self.wrap => self.hscroll += 8,
            MouseEventKind::ScrollLeft => self.hscroll = self.hscroll.saturating_sub(8),
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

/// The OSC 52 sequence that puts `data` on the terminal's clipboard.
pub(super) fn osc52(data: &[u8]) -> String {
    format!("\x1b]52;c;{}\x07", base64(data))
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
