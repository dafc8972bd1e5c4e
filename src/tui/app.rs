//! The viewer's state and its one update function: every key, click and reader notification
//! becomes an [`Action`] (or a prompt edit) applied here, without a terminal, so it is unit
//! tested directly. Drawing (`draw.rs`) only reads this state.

use super::doc::{Doc, Row};
use super::filter::Filter;
use super::keys::{Action, Key, KeyMap};
use super::theme::Theme;
use crate::rules::{Finding, Severity};
use crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Rect;
use regex::{Regex, RegexBuilder};
use std::collections::BTreeMap;

/// What the time column shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TimeMode {
    #[default]
    SinceStart,
    Delta,
    Absolute,
    /// For answers, the time since their request.
    SinceRequest,
}

impl TimeMode {
    pub fn label(self) -> &'static str {
        match self {
            TimeMode::SinceStart => "since start",
            TimeMode::Delta => "delta",
            TimeMode::Absolute => "wall clock",
            TimeMode::SinceRequest => "since the request (↳ answers, + in a search)",
        }
    }

    fn next(self) -> TimeMode {
        match self {
            TimeMode::SinceStart => TimeMode::Delta,
            TimeMode::Delta => TimeMode::Absolute,
            TimeMode::Absolute => TimeMode::SinceRequest,
            TimeMode::SinceRequest => TimeMode::SinceStart,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Focus {
    #[default]
    List,
    Violations,
    Sessions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    Search,
    Filter,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    SetMark,
    JumpMark,
}

/// A regex search under way: where it goes on from.
#[derive(Debug, Clone)]
struct Searching {
    re: Regex,
    forward: bool,
    /// Forward: the next view position to look at; backward: one past it.
    next: usize,
}

/// An entry of the violations panel: grouped by severity (worst first), then rule.
#[derive(Debug, Clone, PartialEq)]
pub enum ViolationItem {
    Group {
        severity: Severity,
        rule: crate::rules::catalogue::RuleId,
        count: usize,
    },
    /// A finding (index in [`Doc::findings`]).
    Entry(usize),
}

/// Options from the command line.
#[derive(Debug, Clone)]
pub struct Options {
    /// A silence gap is longer than this (ns).
    pub gap_ns: u64,
    pub ascii: bool,
    pub follow: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            gap_ns: 1_000_000_000,
            ascii: false,
            follow: false,
        }
    }
}

/// Where the last frame put things, for the mouse.
#[derive(Debug, Clone, Copy, Default)]
pub struct Areas {
    pub list: Rect,
    pub violations: Rect,
}

pub struct App {
    pub keys: KeyMap,
    pub theme: Theme,
    pub opts: Options,
    /// Rows shown (indices into [`Doc::rows`]), in order.
    pub view: Vec<u32>,
    /// Rows of the document already looked at for `view`.
    seen: usize,
    /// The document was complete when `view` was last rebuilt.
    seen_done: bool,
    pub cursor: usize,
    pub offset: usize,
    pub filter: Option<Filter>,
    pub filter_text: String,
    pub search: Option<Regex>,
    pub search_text: String,
    pub prompt: Option<(PromptKind, String)>,
    /// A search that has not reached its match yet (see [`App::work`]).
    searching: Option<Searching>,
    pending: Option<Pending>,
    pub marks: BTreeMap<char, u32>,
    pub focus: Focus,
    pub show_help: bool,
    pub help_offset: usize,
    pub show_violations: bool,
    pub show_sessions: bool,
    pub show_chart: bool,
    pub time_mode: TimeMode,
    pub violations: Vec<ViolationItem>,
    /// Findings grouped last time, and when: regrouping sorts them all, so while the input is
    /// read it happens at most twice a second.
    violations_seen: (usize, bool, Option<std::time::Instant>),
    pub viol_cursor: usize,
    pub session_cursor: usize,
    /// Only this session's lines (`None`: every session).
    pub session: Option<u16>,
    /// Keep the cursor on the last line as lines arrive (`--follow`).
    pub autoscroll: bool,
    /// One line for the status bar: what the last action did, or why it could not.
    pub message: Option<(String, bool)>,
    /// The position copied with `y`, printed when the viewer exits.
    pub copied: Option<String>,
    /// An OSC 52 sequence for the terminal loop to write.
    pub osc52: Option<String>,
    pub quit: bool,
    /// Lines the traffic list shows (from the last frame).
    pub page: usize,
    pub areas: Areas,
}

impl App {
    pub fn new(keys: KeyMap, theme: Theme, opts: Options) -> App {
        let autoscroll = opts.follow;
        App {
            keys,
            theme,
            opts,
            view: Vec::new(),
            seen: 0,
            seen_done: false,
            cursor: 0,
            offset: 0,
            filter: None,
            filter_text: String::new(),
            search: None,
            search_text: String::new(),
            prompt: None,
            searching: None,
            pending: None,
            marks: BTreeMap::new(),
            focus: Focus::List,
            show_help: false,
            help_offset: 0,
            show_violations: true,
            show_sessions: false,
            show_chart: false,
            time_mode: TimeMode::default(),
            violations: Vec::new(),
            violations_seen: (usize::MAX, false, None),
            viol_cursor: 0,
            session_cursor: 0,
            session: None,
            autoscroll,
            message: None,
            copied: None,
            osc52: None,
            quit: false,
            page: 20,
            areas: Areas::default(),
        }
    }

    /// The terminal's size: sets how many lines a page of the traffic list has (the frame
    /// minus the bars, the bottom panes, borders and header; as `draw` lays it out).
    pub fn set_size(&mut self, _width: u16, height: u16) {
        let body = height.saturating_sub(2);
        let bottom = (body * 2 / 5).max(7).min(body.saturating_sub(5));
        self.page = usize::from(body.saturating_sub(bottom).saturating_sub(3)).max(1);
        self.scroll_to_cursor();
    }

    /// The selected row (index into [`Doc::rows`]).
    pub fn selected(&self) -> Option<usize> {
        self.view.get(self.cursor).map(|&r| r as usize)
    }

    fn shows(&self, doc: &Doc, r: usize) -> bool {
        self.session.is_none_or(|s| doc.rows[r].session == s)
            && self.filter.as_ref().is_none_or(|f| f.matches(doc, r))
    }

    /// Takes in what the reader added since the last call.
    pub fn sync(&mut self, doc: &Doc) {
        // Findings arrive for earlier lines too (deadlines, the end of the input): a filter
        // on them is re-evaluated once everything is read.
        if doc.done && !self.seen_done && (self.filter.is_some() || self.session.is_some()) {
            self.rebuild(doc);
        }
        self.seen_done = doc.done;
        if self.seen > doc.rows.len() {
            self.rebuild(doc);
        }
        for r in self.seen..doc.rows.len() {
            if self.shows(doc, r) {
                self.view.push(r as u32);
            }
        }
        self.seen = doc.rows.len();
        if self.autoscroll && self.opts.follow && !self.view.is_empty() {
            self.cursor = self.view.len() - 1;
        }
        self.cursor = self.cursor.min(self.view.len().saturating_sub(1));
        let (n, done, when) = self.violations_seen;
        let due = doc.done || when.is_none_or(|w| w.elapsed().as_millis() >= 500);
        if (n != doc.findings().len() || done != doc.done) && due {
            self.violations = violation_items(doc.findings());
            self.violations_seen = (
                doc.findings().len(),
                doc.done,
                Some(std::time::Instant::now()),
            );
            self.viol_cursor = self
                .viol_cursor
                .min(self.violations.len().saturating_sub(1));
        }
        self.scroll_to_cursor();
    }

    /// Rebuilds `view` after the filter or session changed, keeping the selected line when
    /// it is still shown (else the nearest one before it).
    fn rebuild(&mut self, doc: &Doc) {
        let keep = self.selected();
        self.view = (0..doc.rows.len())
            .filter(|&r| self.shows(doc, r))
            .map(|r| r as u32)
            .collect();
        self.seen = doc.rows.len();
        self.cursor = match keep {
            Some(r) => self
                .view
                .partition_point(|&v| (v as usize) <= r)
                .saturating_sub(1),
            None => 0,
        };
        self.scroll_to_cursor();
    }

    fn scroll_to_cursor(&mut self) {
        let page = self.page.max(1);
        if self.cursor < self.offset {
            self.offset = self.cursor;
        } else if self.cursor >= self.offset + page {
            self.offset = self.cursor + 1 - page;
        }
        self.offset = self
            .offset
            .min(self.view.len().saturating_sub(page))
            .min(self.cursor);
    }

    /// Moves the cursor to view position `i`.
    fn go(&mut self, i: usize) {
        self.cursor = i.min(self.view.len().saturating_sub(1));
        self.autoscroll = self.opts.follow && self.cursor + 1 >= self.view.len();
        self.scroll_to_cursor();
    }

    /// Selects row `r`; when the filter hides it, the filter is cleared first.
    pub fn jump_to_row(&mut self, doc: &Doc, r: usize) {
        if self.view.binary_search(&(r as u32)).is_err() && r < doc.rows.len() {
            self.filter = None;
            self.filter_text.clear();
            self.session = None;
            self.rebuild(doc);
            self.say("the line was hidden by the filter: filter cleared");
        }
        if let Ok(i) = self.view.binary_search(&(r as u32)) {
            self.go(i);
        }
    }

    fn say(&mut self, m: impl Into<String>) {
        self.message = Some((m.into(), false));
    }

    fn complain(&mut self, m: impl Into<String>) {
        self.message = Some((m.into(), true));
    }

    /// The next (or previous) shown line after the cursor that `pred` accepts.
    fn seek(&mut self, doc: &Doc, forward: bool, what: &str, pred: impl Fn(usize, &Row) -> bool) {
        let found = if forward {
            (self.cursor + 1..self.view.len()).find(|&i| {
                let r = self.view[i] as usize;
                pred(r, &doc.rows[r])
            })
        } else {
            (0..self.cursor).rev().find(|&i| {
                let r = self.view[i] as usize;
                pred(r, &doc.rows[r])
            })
        };
        match found {
            Some(i) => self.go(i),
            None => self.complain(format!(
                "no {} {what}",
                if forward { "further" } else { "earlier" }
            )),
        }
    }

    /// [`App::seek`] over a few known rows (sorted): the next (or previous) of them after the
    /// cursor that is shown, without looking at every line in between.
    fn seek_rows(&mut self, forward: bool, what: &str, rows: &[u32]) {
        let here = self.selected().map_or(0, |r| r as u32);
        let shown = |r: &&u32| self.view.binary_search(r).ok();
        let found = if forward {
            let from = rows.partition_point(|&r| r <= here);
            rows[from..].iter().find_map(|r| shown(&r))
        } else {
            let to = rows.partition_point(|&r| r < here);
            rows[..to].iter().rev().find_map(|r| shown(&r))
        };
        match found {
            Some(i) => self.go(i),
            None => self.complain(format!(
                "no {} {what}",
                if forward { "further" } else { "earlier" }
            )),
        }
    }

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
            .and_then(|r| super::board::position_at(doc, r))
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

/// Findings grouped by severity (worst first), then rule, in line order within a rule.
pub fn violation_items(findings: &[Finding]) -> Vec<ViolationItem> {
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&findings[a], &findings[b]);
        y.severity
            .cmp(&x.severity)
            .then(x.rule.as_str().cmp(y.rule.as_str()))
            .then(x.seq.cmp(&y.seq))
    });
    let mut out = Vec::with_capacity(order.len() + 16);
    let mut i = 0;
    while i < order.len() {
        let f = &findings[order[i]];
        let n = order[i..]
            .iter()
            .take_while(|&&j| findings[j].rule == f.rule && findings[j].severity == f.severity)
            .count();
        out.push(ViolationItem::Group {
            severity: f.severity,
            rule: f.rule,
            count: n,
        });
        out.extend(order[i..i + n].iter().map(|&j| ViolationItem::Entry(j)));
        i += n;
    }
    out
}

/// `1.234 s`, `12 ms`.
pub fn secs(ns: u64) -> String {
    if ns >= 1_000_000_000 {
        format!("{:.1} s", ns as f64 / 1e9)
    } else {
        format!("{} ms", ns / 1_000_000)
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
