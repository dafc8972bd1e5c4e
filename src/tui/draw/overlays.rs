//! The windows drawn over the panes: the session picker and the help screen (generated from
//! the key table, so it cannot drift from the bindings).

use super::{block, visible};
use crate::rules::Severity;
use crate::tui::app::App;
use crate::tui::app::command::COMMANDS;
use crate::tui::doc::Doc;
use crate::tui::keys::Action;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, List, ListItem, ListState, Paragraph};

fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

pub(super) fn sessions(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let mut items = vec![ListItem::new("all sessions")];
    for (i, s) in doc.decoder().sessions().enumerate() {
        items.push(ListItem::new(format!(
            "{} {} {} {} · {} lines · {} errors",
            i + 1,
            visible(s.label.as_deref().unwrap_or("-")),
            s.protocol.map_or("?", |p| p.name()),
            visible(s.engine_name.as_deref().unwrap_or("")),
            s.counts.iter().sum::<u64>(),
            doc.findings()
                .iter()
                .filter(|f| f.severity == Severity::Error && f.session == s.label)
                .count(),
        )));
    }
    let r = centered(area, 70, (items.len() as u16 + 2).min(20));
    f.render_widget(Clear, r);
    let list = List::new(items)
        .block(block(app, "sessions · enter: show only this one", true))
        .highlight_style(
            Style::default()
                .bg(t.selected_bg)
                .add_modifier(Modifier::BOLD),
        );
    let mut state = ListState::default().with_selected(Some(app.session_cursor));
    f.render_stateful_widget(list, r, &mut state);
}

/// The filter list: each filter, on or off.
pub(super) fn filters(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let mut items: Vec<ListItem> = app
        .filters
        .iter()
        .enumerate()
        .map(|(i, e)| {
            ListItem::new(format!(
                "{} {:>2}  {}",
                if e.on { "[x]" } else { "[ ]" },
                i + 1,
                visible(&e.text)
            ))
        })
        .collect();
    if items.is_empty() {
        items.push(ListItem::new("no filter: f adds one"));
    }
    let key = |a| app.keys.key_for(a).unwrap_or_else(|| "-".into());
    let title = format!(
        "filters · {} on/off · {} delete · enter edit · {} add",
        key(Action::ToggleFilter),
        key(Action::DeleteFilter),
        key(Action::Filter)
    );
    let r = centered(area, 76, (items.len() as u16 + 2).min(16));
    f.render_widget(Clear, r);
    let list = List::new(items)
        .block(block(app, &title, true))
        .highlight_style(
            Style::default()
                .bg(t.selected_bg)
                .add_modifier(Modifier::BOLD | Modifier::REVERSED),
        );
    let mut state = ListState::default().with_selected(Some(app.filter_cursor));
    f.render_stateful_widget(list, r, &mut state);
}

/// The help screen's lines: the key table (as configured), the commands, the filter
/// language.
pub fn help_lines(app: &App) -> Vec<Line<'static>> {
    let t = &app.theme;
    let key_style = Style::default().fg(t.focus);
    let mut lines: Vec<Line> = app
        .keys
        .help_lines()
        .into_iter()
        .map(|(k, h)| {
            Line::from(vec![
                Span::styled(format!("{k:>20}  "), key_style),
                Span::raw(h),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.push(Line::styled(
        "commands (:)",
        Style::default().add_modifier(Modifier::BOLD),
    ));
    for (c, h) in COMMANDS {
        lines.push(Line::from(vec![
            Span::styled(format!("{:>20}  ", format!(":{c}")), key_style),
            Span::raw(*h),
        ]));
    }
    lines.push(Line::raw(""));
    for l in [
        "filter terms: gui engine stderr proxy kind:NAME rule:ID (ID* prefix) sev:LEVEL",
        "  open lat>500ms session:N REGEX (\"quoted\" with spaces or parentheses)",
        "  all terms must match; or (|) between them; ! or not negates; ( ) groups",
        "prompts: left/right ctrl-a/e/b/f alt-b/f move, ctrl-k/u/w/y kill and yank,",
        "  up/down history; tab completes commands, filter words, kind: rule: sev: and",
        "  session: values (by number or engine name) and paths, listing the candidates",
        "a count before a key: 500G goes to line 500, 5j moves 5 lines",
        "marks: m then a letter sets, ' then the letter jumps",
    ] {
        lines.push(Line::styled(l, Style::default().fg(t.dim)));
    }
    lines
}

/// The help screen, generated from the key table.
pub(super) fn help(f: &mut Frame, app: &App, area: Rect) {
    let lines = help_lines(app);
    let r = centered(area, 96, area.height.saturating_sub(1).max(3));
    let shown = usize::from(r.height.saturating_sub(2));
    let max = lines.len().saturating_sub(shown);
    let at = app.help_offset.min(max);
    let title = format!(
        "help · {}-{} of {} · j/k pgup/pgdn scroll · / n N search · q or esc closes",
        at + 1,
        (at + shown).min(lines.len()),
        lines.len()
    );
    let lines = match &app.help_query {
        Some(re) => {
            let t = &app.theme;
            let matched = if app.opts.no_color {
                Style::default().add_modifier(Modifier::REVERSED | Modifier::UNDERLINED)
            } else {
                Style::default().bg(t.match_bg).add_modifier(Modifier::BOLD)
            };
            lines
                .into_iter()
                .map(|l| with_matches(l, re, matched))
                .collect()
        }
        None => lines,
    };
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(block(app, &title, true))
            .scroll((u16::try_from(at).unwrap_or(u16::MAX), 0)),
        r,
    );
}

/// The line with each match of `re` (over the whole line's text, across its spans) drawn in
/// `matched` on top of its own style.
fn with_matches(line: Line<'static>, re: &regex::Regex, matched: Style) -> Line<'static> {
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    let found: Vec<(usize, usize)> = re
        .find_iter(&text)
        .filter(|m| m.end() > m.start())
        .map(|m| (m.start(), m.end()))
        .collect();
    if found.is_empty() {
        return line;
    }
    let mut cuts: Vec<usize> = found.iter().flat_map(|&(a, b)| [a, b]).collect();
    let mut out = Vec::new();
    let mut at = 0;
    for span in line.spans {
        let end = at + span.content.len();
        cuts.retain(|&c| c > at);
        let mut from = at;
        for &c in cuts
            .iter()
            .take_while(|&&c| c < end)
            .chain(std::iter::once(&end))
        {
            let piece = &span.content[from - at..c - at];
            if !piece.is_empty() {
                let inside = found.iter().any(|&(a, b)| a <= from && from < b);
                let style = if inside {
                    span.style.patch(matched)
                } else {
                    span.style
                };
                out.push(Span::styled(piece.to_owned(), style));
            }
            from = c;
        }
        at = end;
    }
    Line::from(out).style(line.style)
}

/// What Tab found at the prompt, in columns, just above the status bar.
pub(super) fn candidates(f: &mut Frame, app: &App, status: Rect) {
    let width = usize::from(status.width.saturating_sub(2)).max(10);
    let col = app
        .candidates
        .iter()
        .map(|c| c.chars().count() + 2)
        .max()
        .unwrap_or(10)
        .min(width);
    let per_row = (width / col).max(1);
    let rows: Vec<Line> = app
        .candidates
        .chunks(per_row)
        .map(|chunk| {
            Line::raw(
                chunk
                    .iter()
                    .map(|c| format!("{c:<col$}"))
                    .collect::<String>(),
            )
        })
        .collect();
    let h = u16::try_from(rows.len().min(8)).unwrap_or(8) + 2;
    let y = status.y.saturating_sub(h.saturating_sub(1));
    let r = Rect::new(status.x, y, status.width, h.min(status.y + 1));
    let title = format!(
        "tab · {}",
        crate::tui::plural(app.candidates.len(), "candidate")
    );
    f.render_widget(Clear, r);
    f.render_widget(Paragraph::new(rows).block(block(app, &title, true)), r);
}
