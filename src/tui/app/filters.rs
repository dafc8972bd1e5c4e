//! The filter list (lnav's model): filters are added with `f`, listed with `i`, turned on
//! and off one by one, edited and deleted; a line is shown when every filter that is on lets
//! it through. A new set of filters that reads the text of the lines is applied a slice at a
//! time, with its progress on the status line, and Esc cancels it: on a 1 GB input a regular
//! expression over every line takes seconds, and the screen must keep answering meanwhile.

use super::{App, Focus, PromptKind};
use crate::tui::doc::Doc;
use crate::tui::filter::Filter;
use crate::tui::keys::Action;
use crate::tui::prompt::LineEdit;

/// One filter of the list.
#[derive(Debug, Clone)]
pub struct FilterEntry {
    pub text: String,
    pub filter: Filter,
    pub on: bool,
}

/// A new view being built for a new filter list.
#[derive(Debug, Clone)]
pub(super) struct Rebuilding {
    filters: Vec<FilterEntry>,
    view: Vec<u32>,
    next: usize,
}

/// The filter that keeps the proxy's process samples out of the list: put in the filter
/// list, on, when the input has samples (a few a second while an answer is owed, they would
/// bury the traffic); `P` or the filter list turn it off.
pub const SAMPLES_HIDDEN: &str = "!kind:sample";

impl App {
    /// Hides the process samples the first time the input is seen to have some.
    pub(super) fn hide_samples_once(&mut self, doc: &Doc) {
        if self.samples_seen || !doc.kinds().contains(&"sample") {
            return;
        }
        self.samples_seen = true;
        if let Ok(filter) = Filter::parse(SAMPLES_HIDDEN) {
            self.filters.push(FilterEntry {
                text: SAMPLES_HIDDEN.to_owned(),
                filter,
                on: true,
            });
            self.rebuild(doc);
        }
    }

    /// `P`: the process samples shown or hidden.
    pub(super) fn toggle_samples(&mut self, doc: &Doc) {
        let mut list = self.filters.clone();
        let shown = match list.iter_mut().find(|f| f.text == SAMPLES_HIDDEN) {
            Some(f) => {
                f.on = !f.on;
                !f.on
            }
            None => match Filter::parse(SAMPLES_HIDDEN) {
                Ok(filter) => {
                    list.push(FilterEntry {
                        text: SAMPLES_HIDDEN.to_owned(),
                        filter,
                        on: true,
                    });
                    false
                }
                Err(_) => return,
            },
        };
        self.apply_filters(doc, list);
        self.say(if shown {
            "process samples shown (P hides them)"
        } else {
            "process samples hidden (P shows them)"
        });
    }

    /// One line for the status bar: the filters in force.
    pub fn filter_summary(&self) -> String {
        let on: Vec<&str> = self
            .filters
            .iter()
            .filter(|f| f.on)
            .map(|f| f.text.as_str())
            .collect();
        let off = self.filters.len() - on.len();
        let mut s = match on.len() {
            0 => String::new(),
            1 => on[0].to_owned(),
            _ => on
                .iter()
                .map(|t| format!("({t})"))
                .collect::<Vec<_>>()
                .join(" and "),
        };
        if off > 0 {
            if !s.is_empty() {
                s.push(' ');
            }
            s.push_str(&format!("[{off} off]"));
        }
        s
    }

    /// Parses a filter typed at the prompt: a syntax error, or a `kind:` the input has no
    /// line of, is said and the filters in force stay.
    fn parse_filter(&mut self, doc: &Doc, text: &str) -> Option<Filter> {
        match Filter::parse(text) {
            Ok(f) => match f.unknown_kind(doc) {
                Some(e) if doc.done => {
                    self.complain(format!("filter: {e}"));
                    None
                }
                _ => Some(f),
            },
            Err(e) => {
                self.complain(format!("filter: {e}"));
                None
            }
        }
    }

    /// `f` then Enter: adds a filter (an empty one changes nothing).
    pub(super) fn add_filter(&mut self, doc: &Doc, text: &str) {
        if text.trim().is_empty() {
            return;
        }
        let Some(filter) = self.parse_filter(doc, text) else {
            return;
        };
        let mut list = self.filters.clone();
        list.push(FilterEntry {
            text: text.to_owned(),
            filter,
            on: true,
        });
        self.apply_filters(doc, list);
    }

    /// Enter on a filter of the list, then the prompt: replaces its text.
    pub(super) fn edit_filter(&mut self, doc: &Doc, i: usize, text: &str) {
        if text.trim().is_empty() {
            self.delete_filter(doc, i);
            return;
        }
        let Some(filter) = self.parse_filter(doc, text) else {
            return;
        };
        let mut list = self.filters.clone();
        if let Some(e) = list.get_mut(i) {
            *e = FilterEntry {
                text: text.to_owned(),
                filter,
                on: true,
            };
        }
        self.apply_filters(doc, list);
    }

    fn delete_filter(&mut self, doc: &Doc, i: usize) {
        if i < self.filters.len() {
            let mut list = self.filters.clone();
            list.remove(i);
            self.filter_cursor = self.filter_cursor.min(list.len().saturating_sub(1));
            self.apply_filters(doc, list);
        }
    }

    /// Turns every filter off and forgets them (Ctrl-L).
    pub(super) fn clear_filters(&mut self, doc: &Doc) {
        self.filters.clear();
        self.filter_cursor = 0;
        self.rebuild(doc);
    }

    /// Shows the lines `list` lets through: at once when no filter reads the text, else a
    /// slice at a time (see [`App::work`]).
    fn apply_filters(&mut self, doc: &Doc, list: Vec<FilterEntry>) {
        let slow = list.iter().any(|f| f.on && f.filter.reads_text());
        self.rebuilding = Some(Rebuilding {
            filters: list,
            view: Vec::new(),
            next: 0,
        });
        if !slow {
            while self.rebuild_step(doc, None) {}
        } else {
            self.work(doc);
        }
    }

    pub fn is_filtering(&self) -> bool {
        self.rebuilding.is_some()
    }

    /// Builds the new view for up to `slice` (all of it with `None`); `true` while there is
    /// more to do.
    pub(super) fn rebuild_step(&mut self, doc: &Doc, slice: Option<std::time::Duration>) -> bool {
        let Some(mut b) = self.rebuilding.take() else {
            return false;
        };
        let start = std::time::Instant::now();
        let n = doc.rows.len();
        while b.next < n {
            let r = b.next;
            let shown = self.session.is_none_or(|s| doc.rows[r].session() == s)
                && b.filters.iter().all(|f| !f.on || f.filter.matches(doc, r));
            if shown {
                b.view.push(r as u32);
            }
            b.next += 1;
            if let Some(slice) = slice
                && b.next.is_multiple_of(1024)
                && start.elapsed() > slice
            {
                self.message = Some((
                    format!("filtering … {}% (esc cancels)", b.next * 100 / n.max(1)),
                    false,
                ));
                self.rebuilding = Some(b);
                return true;
            }
        }
        self.filters = b.filters;
        let view = std::mem::take(&mut b.view);
        let total = doc.rows.len();
        self.set_view(doc, super::View::of(view, total));
        let msg = if self.filters.iter().any(|f| f.on) {
            format!("{} shown", crate::tui::plural(self.view.len(), "line"))
        } else {
            "no filter on: every line shown".to_owned()
        };
        self.say(msg);
        false
    }

    /// Esc while a filter is applied: the filters in force stay.
    pub(super) fn cancel_filtering(&mut self) -> bool {
        if self.rebuilding.take().is_some() {
            self.say("filter cancelled: the filters in force stay");
            true
        } else {
            false
        }
    }

    /// Keys of the filter list; `false` leaves the action to the list.
    pub(super) fn filters_key(&mut self, doc: &Doc, a: Action) -> bool {
        let n = self.filters.len();
        match a {
            Action::Up => self.filter_cursor = self.filter_cursor.saturating_sub(1),
            Action::Down => self.filter_cursor = (self.filter_cursor + 1).min(n.saturating_sub(1)),
            // The list's own cursor, never the traffic under it.
            Action::Top => self.filter_cursor = 0,
            Action::Bottom => self.filter_cursor = n.saturating_sub(1),
            Action::PageDown | Action::ToggleFilter => {
                if let Some(f) = self.filters.get(self.filter_cursor) {
                    let mut list = self.filters.clone();
                    list[self.filter_cursor].on = !f.on;
                    self.apply_filters(doc, list);
                }
            }
            Action::DeleteFilter => self.delete_filter(doc, self.filter_cursor),
            Action::Enter => {
                if let Some(f) = self.filters.get(self.filter_cursor) {
                    self.prompt = Some(super::Prompt {
                        kind: PromptKind::EditFilter(self.filter_cursor),
                        edit: LineEdit::new(&f.text),
                    });
                }
            }
            Action::Filter => {
                self.prompt = Some(super::Prompt {
                    kind: PromptKind::Filter,
                    edit: LineEdit::default(),
                });
            }
            Action::FilterList | Action::Escape => {
                self.focus = Focus::List;
                self.show_filters = false;
            }
            _ => return false,
        }
        true
    }
}
