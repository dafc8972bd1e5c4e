//! Where each pane goes on a terminal of a given size, computed in one place: the frame is
//! drawn from it and the list's page size and text width are taken from it, so a key that
//! pages moves by what is on the screen.

use ratatui::layout::{Constraint, Layout, Rect};

/// What the whole screen is given to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Zoom {
    /// The list, the panes beside and below it.
    #[default]
    Normal,
    /// The list alone.
    List,
    /// One line: its text, decoding, findings, the board and the search.
    Line,
}

/// The choices the layout depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wants {
    pub zoom: Zoom,
    /// The board and search panes beside the list.
    pub panes: bool,
    pub violations: bool,
    /// The violations pane has the focus: on a short screen it comes up in place of the detail.
    pub violations_focused: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Plan {
    pub list: Rect,
    /// Board (top) and search (below) column.
    pub right: Option<Rect>,
    /// The detail pane (or the eval chart).
    pub detail: Option<Rect>,
    pub violations: Option<Rect>,
    /// The one line shown full screen.
    pub line: Option<Rect>,
    pub status: Rect,
    pub hint: Rect,
    /// The detail pane is left out for want of rows.
    pub detail_hidden: bool,
}

/// Below this many rows for the body, the detail pane gives its rows to the list.
const SHORT: u16 = 16;

/// The board and search column: a third of a wide screen, at least what the board needs.
pub fn right_width(width: u16) -> u16 {
    (width * 3 / 10).clamp(34, 80)
}

pub fn plan(width: u16, height: u16, w: Wants) -> Plan {
    let area = Rect::new(0, 0, width, height);
    let [body, status, hint] = Layout::vertical([
        Constraint::Min(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let mut p = Plan {
        status,
        hint,
        ..Plan::default()
    };
    match w.zoom {
        Zoom::List => {
            p.list = body;
            return p;
        }
        Zoom::Line => {
            p.line = Some(body);
            return p;
        }
        Zoom::Normal => {}
    }
    let short = body.height < SHORT;
    let bottom_h = if short {
        // A short screen keeps its rows for the list; the violations pane comes up when it
        // is asked for, and the detail of a line is one key away (enter).
        if w.violations && w.violations_focused {
            body.height / 2
        } else {
            0
        }
    } else {
        (body.height * 2 / 5)
            .max(7)
            .min(body.height.saturating_sub(5))
    };
    p.detail_hidden = short;
    let [top, bottom] =
        Layout::vertical([Constraint::Min(3), Constraint::Length(bottom_h)]).areas(body);
    if w.panes {
        let [l, r] =
            Layout::horizontal([Constraint::Min(20), Constraint::Length(right_width(width))])
                .areas(top);
        p.list = l;
        p.right = Some(r);
    } else {
        p.list = top;
    }
    if bottom_h == 0 {
        return p;
    }
    if short {
        p.violations = Some(bottom);
    } else if w.violations {
        let [d, v] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
            .areas(bottom);
        p.detail = Some(d);
        p.violations = Some(v);
    } else {
        p.detail = Some(bottom);
    }
    p
}
