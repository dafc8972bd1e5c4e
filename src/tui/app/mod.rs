//! The viewer's state and its one update function: every key, click and reader notification
//! becomes an [`Action`](super::keys::Action) (or a prompt edit) applied to it, without a
//! terminal, so it is unit tested directly. Drawing (`draw/`) only reads this state.
//!
//! This file is the state and what keeps it consistent with the document as lines arrive
//! (the shown rows, the cursor, the grouped findings); `update.rs` is what each input does
//! to it.

pub mod command;
mod complete;
mod export;
mod filters;
mod search;
mod update;
pub mod view;
mod zoom;

use super::doc::{Doc, Row};
use super::keys::KeyMap;
use super::prompt::{Histories, LineEdit};
use super::theme::Theme;
use crate::rules::{Finding, Severity};
pub use filters::FilterEntry;
use ratatui::layout::Rect;
use regex::Regex;
use std::collections::BTreeMap;
pub use view::View;

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
    Filters,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    Search,
    /// `/` in the help: a regex over the help's lines.
    HelpSearch,
    Filter,
    /// Editing filter `i` of the list.
    EditFilter(usize),
    /// `:` commands.
    Command,
}

/// A prompt being typed.
#[derive(Debug, Clone)]
pub struct Prompt {
    pub kind: PromptKind,
    pub edit: LineEdit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pending {
    SetMark,
    JumpMark,
    /// `:N` landed on a line a filter hides: `y` shows it.
    ShowHidden(u32),
}

/// An entry of the violations panel: grouped by severity (worst first), then rule.
#[derive(Debug, Clone, PartialEq)]
pub enum ViolationItem {
    /// The heading of the hang verdicts: first, as in `check`'s report of a stuck session.
    HangGroup { count: usize },
    /// A hang verdict (index in [`Doc::hangs`]).
    Hang(usize),
    Group {
        severity: Severity,
        rule: crate::rules::catalogue::RuleId,
        count: usize,
    },
    /// A finding (index in [`Doc::findings`]).
    Entry(usize),
    /// The heading of the runner's own verdicts (`check`'s `runner[...]` lines).
    RunnerGroup { count: usize },
    /// A runner verdict: session index, verdict index in it.
    Runner(usize, usize),
    /// The heading of the lines the input could not be read at.
    UnreadableGroup { count: usize },
    /// An unreadable line (index in [`Doc::skipped`]).
    Unreadable(usize),
}

/// Options from the command line.
#[derive(Debug, Clone)]
pub struct Options {
    /// A silence gap is longer than this (ns).
    pub gap_ns: u64,
    pub ascii: bool,
    pub follow: bool,
    /// Select this line of the input once it is read (`kibitzer view FILE +LINE`).
    pub start_line: Option<u64>,
    /// Where the prompts' history is kept (`None`: not kept, as in tests).
    pub history: Option<std::path::PathBuf>,
    /// Copies go to the terminal's clipboard with OSC 52 (config `clipboard = "osc52"`).
    pub osc52: bool,
    /// Capture the mouse (config `mouse = false` leaves it to the terminal).
    pub mouse: bool,
    /// No colours (`NO_COLOR`): what colour told apart is told by shape and reverse video.
    pub no_color: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            gap_ns: 1_000_000_000,
            ascii: false,
            follow: false,
            start_line: None,
            history: None,
            osc52: false,
            mouse: true,
            no_color: false,
        }
    }
}

/// Where the last frame put things, for the mouse.
#[derive(Debug, Clone, Copy, Default)]
pub struct Areas {
    pub list: Rect,
    pub violations: Rect,
    /// The detail pane (the wheel scrolls it).
    pub detail: Rect,
}

pub struct App {
    pub keys: KeyMap,
    pub theme: Theme,
    pub opts: Options,
    /// Rows shown (indices into [`Doc::rows`]), in order.
    pub view: View,
    /// Rows of the document already looked at for `view`.
    seen: usize,
    /// The document was complete when `view` was last rebuilt.
    seen_done: bool,
    pub cursor: usize,
    pub offset: usize,
    /// The filter list: a line is shown when every filter that is on lets it through.
    pub filters: Vec<FilterEntry>,
    pub filter_cursor: usize,
    /// A new view being built a slice at a time (a filter that reads the text).
    rebuilding: Option<filters::Rebuilding>,
    pub search: Option<Regex>,
    pub search_text: String,
    pub prompt: Option<Prompt>,
    pub histories: Histories,
    /// A search that has not reached its match yet (see [`App::work`]).
    searching: Option<search::Searching>,
    /// The matches of the search among the shown lines, counted in the background.
    counting: Option<search::Count>,
    pending: Option<Pending>,
    /// A count typed before a key (`500G`, `5j`).
    pub count: Option<u64>,
    /// Columns the text is scrolled right by; long lines wrap instead when `wrap` is on.
    pub hscroll: usize,
    pub wrap: bool,
    /// The board and search panes: `None` follows the width (shown from 90 columns).
    pub panes: Option<bool>,
    /// Mouse capture wanted; the terminal loop applies a change.
    pub mouse_capture: bool,
    /// Ctrl-Z: the terminal loop suspends the viewer.
    pub suspend: bool,
    pub marks: BTreeMap<char, u32>,
    pub focus: Focus,
    pub show_help: bool,
    pub help_offset: usize,
    pub show_violations: bool,
    pub show_sessions: bool,
    pub show_filters: bool,
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
    /// The terminal's width (from the last frame).
    pub width: u16,
    pub height: u16,
    /// What the screen is given to: everything, the list alone, or one line.
    pub zoom: crate::tui::layout::Zoom,
    /// The detail's rows scrolled past, and the row they were scrolled on (another line
    /// starts at its top).
    pub detail_scroll: (usize, u16),
    /// How far the detail (or the line view) can scroll: set by the last frame.
    pub detail_max: std::cell::Cell<u16>,
    /// What Tab found to complete at the prompt, when several things fit.
    pub candidates: Vec<String>,
    /// The last search of the help (`n` `N` in the help go on with it).
    pub help_query: Option<regex::Regex>,
    /// The input's line numbers in a column (less -N).
    pub line_numbers: bool,
    /// The input was seen to have process samples (and they were hidden once).
    samples_seen: bool,
    pub areas: Areas,
}

impl App {
    pub fn new(keys: KeyMap, theme: Theme, opts: Options) -> App {
        let autoscroll = opts.follow;
        let histories = Histories::load(opts.history.as_deref());
        let mouse_capture = opts.mouse;
        let theme = if opts.no_color {
            Theme::no_color()
        } else {
            theme
        };
        App {
            keys,
            theme,
            opts,
            view: View::default(),
            seen: 0,
            seen_done: false,
            cursor: 0,
            offset: 0,
            filters: Vec::new(),
            filter_cursor: 0,
            rebuilding: None,
            search: None,
            search_text: String::new(),
            prompt: None,
            histories,
            searching: None,
            counting: None,
            pending: None,
            count: None,
            hscroll: 0,
            wrap: false,
            panes: None,
            mouse_capture,
            suspend: false,
            marks: BTreeMap::new(),
            focus: Focus::List,
            show_help: false,
            help_offset: 0,
            show_violations: true,
            show_sessions: false,
            show_filters: false,
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
            width: 120,
            areas: Areas::default(),
            height: 0,
            zoom: crate::tui::layout::Zoom::Normal,
            detail_scroll: (0, 0),
            detail_max: std::cell::Cell::new(0),
            samples_seen: false,
            line_numbers: false,
            help_query: None,
            candidates: Vec::new(),
        }
    }

    /// The terminal's size: sets how many lines a page of the traffic list has (as `draw`
    /// lays it out).
    pub fn set_size(&mut self, width: u16, height: u16) {
        self.width = width;
        self.height = height;
        self.relayout();
    }

    /// The choices the layout depends on.
    pub fn wants(&self) -> crate::tui::layout::Wants {
        crate::tui::layout::Wants {
            zoom: self.zoom,
            panes: self.panes_shown(),
            violations: self.show_violations,
            violations_focused: self.focus == Focus::Violations,
        }
    }

    pub fn plan(&self) -> crate::tui::layout::Plan {
        crate::tui::layout::plan(self.width, self.height, self.wants())
    }

    /// The page size after a change of size or of what is shown.
    pub fn relayout(&mut self) {
        // The list's borders and its header row.
        self.page = usize::from(self.plan().list.height.saturating_sub(3)).max(1);
        self.scroll_to_cursor();
    }

    /// Whether the board and search panes are drawn: from 90 columns unless the user said.
    pub fn panes_shown(&self) -> bool {
        self.zoom == crate::tui::layout::Zoom::Normal && self.panes.unwrap_or(self.width >= 90)
    }

    /// Columns of the traffic list's text column (as `draw` lays it out: the panes, the
    /// borders, and the gutter, time, arrow and kind before the text).
    pub fn text_width(&self) -> usize {
        let numbers = if self.line_numbers { 8 } else { 0 };
        usize::from(self.plan().list.width.saturating_sub(2 + 30 + numbers)).max(1)
    }

    /// Rows of the detail scrolled past for the selected line.
    pub fn detail_offset(&self) -> u16 {
        match self.selected() {
            Some(r) if r == self.detail_scroll.0 => self.detail_scroll.1.min(self.detail_max.get()),
            _ => 0,
        }
    }

    /// The selected row (index into [`Doc::rows`]).
    pub fn selected(&self) -> Option<usize> {
        self.view.get(self.cursor).map(|r| r as usize)
    }

    fn shows(&self, doc: &Doc, r: usize) -> bool {
        self.session.is_none_or(|s| doc.rows[r].session() == s)
            && self
                .filters
                .iter()
                .all(|f| !f.on || f.filter.matches(doc, r))
    }

    /// Whether some filter (or a session choice) hides lines.
    pub fn filtered(&self) -> bool {
        self.session.is_some() || self.filters.iter().any(|f| f.on)
    }

    /// Takes in what the reader added since the last call.
    pub fn sync(&mut self, doc: &Doc) {
        self.hide_samples_once(doc);
        // Findings arrive for earlier lines too (deadlines, the end of the input): a filter
        // on them is re-evaluated once everything is read.
        if doc.done && !self.seen_done && self.filtered() {
            self.rebuild(doc);
        }
        self.seen_done = doc.done;
        if doc.done
            && self
                .message
                .as_ref()
                .is_some_and(|(m, _)| m.starts_with("still indexing"))
        {
            self.message = None;
        }
        if self.seen > doc.rows.len() {
            self.rebuild(doc);
        }
        for r in self.seen..doc.rows.len() {
            if self.shows(doc, r) {
                self.view.push(r as u32);
            }
        }
        self.seen = doc.rows.len();
        if let Some(want) = self.opts.start_line {
            if let Some(r) = doc.row_at_line(want) {
                self.opts.start_line = None;
                self.autoscroll = false;
                self.jump_to_row(doc, r);
            } else if doc.done {
                self.opts.start_line = None;
                self.complain(format!("line {want} is past the end of the input"));
            }
        }

        if self.autoscroll && self.opts.follow && !self.view.is_empty() {
            self.cursor = self.view.len() - 1;
        }
        self.cursor = self.cursor.min(self.view.len().saturating_sub(1));
        let (n, done, when) = self.violations_seen;
        let due = doc.done || when.is_none_or(|w| w.elapsed().as_millis() >= 500);
        let items = doc.findings().len() + doc.skipped.len() + runner_count(doc) + doc.hangs.len();
        if (n != items || done != doc.done) && due {
            self.violations = hang_items(doc);
            self.violations.extend(violation_items(doc.findings()));
            self.violations.extend(other_items(doc));
            self.violations_seen = (items, doc.done, Some(std::time::Instant::now()));
            self.viol_cursor = self
                .viol_cursor
                .min(self.violations.len().saturating_sub(1));
        }
        self.scroll_to_cursor();
    }

    /// Rebuilds `view` after the filter or session changed, keeping the selected line when
    /// it is still shown (else the nearest one before it).
    fn rebuild(&mut self, doc: &Doc) {
        self.rebuilding = None;
        let view = if self.filtered() {
            View::Rows(
                (0..doc.rows.len())
                    .filter(|&r| self.shows(doc, r))
                    .map(|r| r as u32)
                    .collect(),
            )
        } else {
            View::All(doc.rows.len())
        };
        self.set_view(doc, view);
    }

    /// Puts a new view in place, keeping the selected line when it is still shown (else the
    /// nearest one before it); the search's matches are counted again.
    fn set_view(&mut self, doc: &Doc, view: View) {
        let keep = self.selected();
        self.view = view;
        self.seen = doc.rows.len();
        self.restart_count();
        self.cursor = match keep {
            Some(r) => self
                .view
                .partition_point(|v| (v as usize) <= r)
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
    pub(super) fn go(&mut self, i: usize) {
        let to = i.min(self.view.len().saturating_sub(1));
        if to != self.cursor {
            // Another line's detail starts at its top.
            self.detail_scroll = (0, 0);
        }
        self.cursor = to;
        self.autoscroll = self.opts.follow && self.cursor + 1 >= self.view.len();
        self.scroll_to_cursor();
    }

    /// Selects row `r`; when the filter hides it, the filter is cleared first.
    pub fn jump_to_row(&mut self, doc: &Doc, r: usize) {
        if self.view.position(r as u32).is_err() && r < doc.rows.len() {
            for f in &mut self.filters {
                f.on = false;
            }
            self.session = None;
            self.rebuild(doc);
            self.say("the line was hidden by the filter: filters turned off (i lists them)");
        }
        if let Ok(i) = self.view.position(r as u32) {
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
                let r = self.view.at(i);
                pred(r, &doc.rows[r])
            })
        } else {
            (0..self.cursor).rev().find(|&i| {
                let r = self.view.at(i);
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
        let shown = |r: &&u32| self.view.position(**r).ok();
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
        // Every time the rule was broken: a folded finding counts as often as it happened.
        let times = order[i..i + n]
            .iter()
            .map(|&j| usize::try_from(findings[j].count).unwrap_or(usize::MAX))
            .sum();
        out.push(ViolationItem::Group {
            severity: f.severity,
            rule: f.rule,
            count: times,
        });
        out.extend(order[i..i + n].iter().map(|&j| ViolationItem::Entry(j)));
        i += n;
    }
    out
}

/// The hang verdicts, each jumping to the request that was owed an answer.
fn hang_items(doc: &Doc) -> Vec<ViolationItem> {
    if doc.hangs.is_empty() {
        return Vec::new();
    }
    let mut out = vec![ViolationItem::HangGroup {
        count: doc.hangs.len(),
    }];
    out.extend((0..doc.hangs.len()).map(ViolationItem::Hang));
    out
}

fn runner_count(doc: &Doc) -> usize {
    doc.decoder().sessions().map(|s| s.verdicts.len()).sum()
}

/// After the findings: the runner's own verdicts and the unreadable lines, where `check`
/// lists them too.
fn other_items(doc: &Doc) -> Vec<ViolationItem> {
    let mut out = Vec::new();
    let runner = runner_count(doc);
    if runner > 0 {
        out.push(ViolationItem::RunnerGroup { count: runner });
        for (i, s) in doc.decoder().sessions().enumerate() {
            out.extend((0..s.verdicts.len()).map(|k| ViolationItem::Runner(i, k)));
        }
    }
    if !doc.skipped.is_empty() {
        out.push(ViolationItem::UnreadableGroup {
            count: doc.skipped.len(),
        });
        out.extend((0..doc.skipped.len()).map(ViolationItem::Unreadable));
    }
    out
}

/// `1.2 s`, `12 ms`.
pub use crate::units::secs_or_ms as secs;
