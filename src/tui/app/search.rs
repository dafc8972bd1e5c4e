//! Search: `/` then a regular expression, `n`/`N` to the next and previous match (wrapping
//! at the ends, and saying so), and the number of matches among the shown lines, counted in
//! the background.
//!
//! Everything here that reads lines runs a slice at a time ([`App::work`]): on a big
//! recording each line is parsed again, and a search that finds nothing reads them all,
//! while the screen must keep answering (Esc stops).

use super::App;
use crate::tui::doc::Doc;
use regex::{Regex, RegexBuilder};
use std::time::{Duration, Instant};

/// How long one slice of background work may take before the screen is drawn again.
const SLICE: Duration = Duration::from_millis(40);

/// A search that has not reached its match yet.
#[derive(Debug, Clone)]
pub(super) struct Searching {
    re: Regex,
    forward: bool,
    /// Forward: the next view position to look at; backward: one past it.
    next: usize,
    /// Where the search started: after wrapping, it stops there.
    origin: usize,
    wrapped: bool,
}

/// The search's matches among the shown lines, as far as they are counted.
#[derive(Debug, Clone)]
pub(super) struct Count {
    re: Regex,
    /// The next view position to look at.
    next: usize,
    /// Rows that match, in order.
    matches: Vec<u32>,
    /// The message said "counting": it says the count once it is known.
    announce: bool,
}

impl App {
    /// `/` then Enter: a new search (an empty one clears it).
    pub(super) fn start_search(&mut self, doc: &Doc, text: &str) {
        if text.is_empty() {
            self.search = None;
            self.search_text.clear();
            self.counting = None;
            return;
        }
        match RegexBuilder::new(text).case_insensitive(true).build() {
            Ok(re) => {
                self.search = Some(re);
                self.search_text = text.to_owned();
                self.restart_count();
                self.search_step(doc, true);
            }
            Err(e) => self.complain(format!("search: {e}")),
        }
    }

    /// The count starts again (a new search, or a new set of shown lines).
    pub(super) fn restart_count(&mut self) {
        self.counting = self.search.clone().map(|re| Count {
            re,
            next: 0,
            matches: Vec::new(),
            announce: false,
        });
    }

    /// `n` / `N`.
    pub(super) fn search_step(&mut self, doc: &Doc, forward: bool) {
        let Some(re) = self.search.clone() else {
            self.complain("no search: / starts one");
            return;
        };
        // Once the matches are counted, the next one is looked up, not searched for.
        if let Some(c) = &self.counting
            && c.next >= self.view.len()
        {
            let here = self.selected().map_or(0, |r| r as u32);
            let n = c.matches.len();
            if n == 0 {
                self.complain(format!("no match of /{}/", self.search_text));
                return;
            }
            let (i, wrapped) = if forward {
                let i = c.matches.partition_point(|&m| m <= here);
                if i < n { (i, false) } else { (0, true) }
            } else {
                match c.matches.partition_point(|&m| m < here) {
                    0 => (n - 1, true),
                    i => (i - 1, false),
                }
            };
            let row = c.matches[i];
            if let Ok(v) = self.view.position(row) {
                self.go(v);
            }
            self.say_match(wrapped, forward);
            return;
        }
        let origin = self.cursor;
        self.searching = Some(Searching {
            re,
            forward,
            next: if forward { origin + 1 } else { origin },
            origin,
            wrapped: false,
        });
        self.work(doc);
    }

    /// "match 3 of 120" (and that the search went round the end).
    fn say_match(&mut self, wrapped: bool, forward: bool) {
        let count = self.match_count();
        let mut m = match count {
            Some((k, n, true)) => format!("/{}/ match {k} of {n}", self.search_text),
            Some((_, _, false)) => {
                if let Some(c) = self.counting.as_mut() {
                    c.announce = true;
                }
                format!("/{}/ (counting the matches…)", self.search_text)
            }
            None => format!("/{}/", self.search_text),
        };
        if wrapped {
            m.push_str(if forward {
                " · search hit the bottom, went on at the top"
            } else {
                " · search hit the top, went on at the bottom"
            });
        }
        self.say(m);
    }

    /// The search's place: (the match at or before the cursor, 1-based; the matches counted;
    /// whether the count is complete).
    pub fn match_count(&self) -> Option<(usize, usize, bool)> {
        let c = self.counting.as_ref()?;
        let here = self.selected().map_or(0, |r| r as u32);
        let k = c.matches.partition_point(|&m| m <= here);
        Some((k, c.matches.len(), c.next >= self.view.len()))
    }

    /// Whether a search is looking for its match.
    pub fn is_searching(&self) -> bool {
        self.searching.is_some()
    }

    /// Whether anything runs in the background (a search, a filter, a count).
    pub fn is_busy(&self) -> bool {
        self.searching.is_some()
            || self.rebuilding.is_some()
            || self
                .counting
                .as_ref()
                .is_some_and(|c| c.next < self.view.len())
    }

    /// Background work, a slice at a time, most urgent first: the search the user waits
    /// for, then a filter, then the match count. `true` while there is more to do.
    pub fn work(&mut self, doc: &Doc) -> bool {
        if self.searching.is_some() {
            return self.search_slice(doc);
        }
        if self.rebuilding.is_some() {
            return self.rebuild_step(doc, Some(SLICE)) || self.is_busy();
        }
        self.count_slice(doc)
    }

    fn count_slice(&mut self, doc: &Doc) -> bool {
        let Some(c) = self.counting.as_mut() else {
            return false;
        };
        let start = Instant::now();
        while let Some(r) = self.view.get(c.next) {
            if c.re.is_match(&doc.text(r as usize)) {
                c.matches.push(r);
            }
            c.next += 1;
            if c.next.is_multiple_of(1024) && start.elapsed() > SLICE {
                return true;
            }
        }
        if std::mem::take(&mut c.announce)
            && self
                .message
                .as_ref()
                .is_some_and(|(m, _)| m.ends_with("(counting the matches…)"))
        {
            self.say_match(false, true);
        }
        false
    }

    fn search_slice(&mut self, doc: &Doc) -> bool {
        let Some(mut s) = self.searching.take() else {
            return false;
        };
        let start = Instant::now();
        let n = self.view.len();
        let mut looked = 0usize;
        loop {
            // The next position to look at, wrapping once round the end.
            let i = if s.forward {
                if s.next >= n {
                    if s.wrapped || n == 0 {
                        break;
                    }
                    s.wrapped = true;
                    s.next = 0;
                }
                if s.wrapped && s.next > s.origin {
                    break;
                }
                s.next
            } else {
                if s.next == 0 {
                    if s.wrapped || n == 0 {
                        break;
                    }
                    s.wrapped = true;
                    s.next = n;
                }
                if s.wrapped && s.next <= s.origin {
                    break;
                }
                s.next - 1
            };
            if s.re.is_match(&doc.text(self.view.at(i))) {
                self.go(i);
                self.say_match(s.wrapped, s.forward);
                return self.is_busy();
            }
            s.next = if s.forward { i + 1 } else { i };
            looked += 1;
            if looked.is_multiple_of(1024) && start.elapsed() > SLICE {
                let done = if s.wrapped {
                    looked.min(n)
                } else if s.forward {
                    s.next.saturating_sub(s.origin)
                } else {
                    s.origin.saturating_sub(s.next)
                };
                self.message = Some((
                    format!(
                        "searching /{}/ … {}% (esc stops)",
                        self.search_text,
                        (done * 100 / n.max(1)).min(99)
                    ),
                    false,
                ));
                self.searching = Some(s);
                return true;
            }
        }
        self.complain(format!("no match of /{}/", self.search_text));
        self.is_busy()
    }

    /// Esc: stops a search under way.
    pub(super) fn stop_search(&mut self) -> bool {
        if self.searching.take().is_some() {
            // The count stops with it: a count left half done would read as the number.
            if self
                .counting
                .as_ref()
                .is_some_and(|c| c.next < self.view.len())
            {
                self.counting = None;
            }
            self.say("search stopped");
            true
        } else {
            false
        }
    }
}
