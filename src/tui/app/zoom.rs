//! The line view (one line on the whole screen) and the scrolling of the detail it shares
//! with the detail pane; paging the list; searching the help.

use super::App;
use crate::tui::keys::Action;
use crate::tui::layout::Zoom;

impl App {
    /// Keys of the line view: they scroll it; esc, q or enter close it.
    pub(super) fn line_view_key(&mut self, a: Action, count: Option<u64>) {
        let times = u16::try_from(count.unwrap_or(1).max(1)).unwrap_or(u16::MAX);
        let page = self.height.saturating_sub(4).max(1);
        match a {
            Action::Down | Action::DetailDown => self.scroll_detail(true, times),
            Action::Up | Action::DetailUp => self.scroll_detail(false, times),
            Action::PageDown | Action::HalfDown => {
                self.scroll_detail(true, page.saturating_mul(times))
            }
            Action::PageUp | Action::HalfUp => {
                self.scroll_detail(false, page.saturating_mul(times))
            }
            Action::Top => self.scroll_detail(false, u16::MAX),
            Action::Bottom => self.scroll_detail(true, u16::MAX),
            Action::Quit | Action::Escape | Action::Enter => {
                self.zoom = Zoom::Normal;
                self.relayout();
            }
            Action::Help => {
                self.show_help = true;
                self.help_offset = 0;
            }
            _ => self.say("the line view: j/k scroll it, esc closes it"),
        }
    }

    /// Scrolls the detail of the selected line by `n` rows, within what it has.
    pub(super) fn scroll_detail(&mut self, down: bool, n: u16) {
        let Some(r) = self.selected() else {
            return;
        };
        let now = self.detail_offset();
        let most = self.detail_max.get();
        let to = if down {
            now.saturating_add(n).min(most)
        } else {
            now.saturating_sub(n)
        };
        if down && now >= most {
            self.say("the end of the detail");
        }
        self.detail_scroll = (r, to);
    }

    /// A page down or up as less turns it: the view moves by a page and the cursor with it,
    /// keeping its row on the screen; at the end (or the top) the cursor goes to the last
    /// (or first) line.
    pub(super) fn page_by(&mut self, down: bool, times: usize) {
        let page = self.page.max(1);
        let by = page.saturating_mul(times);
        let last_offset = self.view.len().saturating_sub(page);
        let to = if down {
            self.offset.saturating_add(by).min(last_offset)
        } else {
            self.offset.saturating_sub(by)
        };
        let moved = to.abs_diff(self.offset);
        let cursor = match (moved, down) {
            (0, true) => self.view.len().saturating_sub(1),
            (0, false) => 0,
            (m, true) => self.cursor.saturating_add(m),
            (m, false) => self.cursor.saturating_sub(m),
        };
        self.offset = to;
        self.go(cursor);
    }

    /// `/` in the help: the first line from the top of the help's page that matches.
    pub(super) fn help_search(&mut self, text: &str) {
        match regex::RegexBuilder::new(text)
            .case_insensitive(true)
            .build()
        {
            Ok(re) => {
                let first = crate::tui::draw::help_texts(self)
                    .get(self.help_offset)
                    .is_some_and(|t| re.is_match(t));
                self.help_query = Some(re);
                if !first {
                    self.help_step(true);
                }
            }
            Err(e) => self.complain(format!("search: {e}")),
        }
    }

    /// `n` / `N` in the help: the next or previous line that matches, at the top of the page.
    pub(super) fn help_step(&mut self, forward: bool) {
        let Some(re) = self.help_query.clone() else {
            self.complain("no search yet: / searches the help");
            return;
        };
        let texts: Vec<String> = crate::tui::draw::help_texts(self);
        let here = self.help_offset;
        let found = if forward {
            (here + 1..texts.len()).find(|&i| re.is_match(&texts[i]))
        } else {
            (0..here).rev().find(|&i| re.is_match(&texts[i]))
        };
        match found {
            Some(i) => {
                self.help_offset = i;
                self.say(format!("help: line {} of {}", i + 1, texts.len()));
            }
            None => self.complain(format!("not found further in the help: {}", re.as_str())),
        }
    }
}
