//! The line view (one line on the whole screen) and the scrolling of the detail it shares
//! with the detail pane.

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
}
