//! The traffic list, the viewer's main pane: one row per line of the session, with the
//! gutter marks, the time column in the chosen mode and the search highlight. Kept apart
//! from the other panes because it is the one that scrolls over the whole input and must
//! stay cheap per frame.

use super::{arrow, block, src_color, visible};
use crate::rules::Severity;
use crate::tui::app::{App, Focus, TimeMode};
use crate::tui::doc::Doc;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

fn time_cell(app: &App, doc: &Doc, view_i: usize, r: usize) -> String {
    let t = doc.t(r);
    match app.time_mode {
        TimeMode::SinceStart => format!("{:>11.6}", t as f64 / 1e9),
        TimeMode::Delta => {
            let prev = view_i
                .checked_sub(1)
                .and_then(|i| app.view.get(i))
                .map_or(t, |p| doc.t(p as usize));
            format!("+{:>10.6}", t.saturating_sub(prev) as f64 / 1e9)
        }
        TimeMode::Absolute => match doc.wall_start {
            Some(w) => {
                let ns = w + t;
                chrono::DateTime::from_timestamp(
                    (ns / 1_000_000_000) as i64,
                    (ns % 1_000_000_000) as u32,
                )
                .map_or_else(|| "?".into(), |d| d.format("%H:%M:%S%.3f").to_string())
            }
            None => format!("{:>11.6}", t as f64 / 1e9),
        },
        // An answer: since its request; a line of a search: since the search started.
        TimeMode::SinceRequest => match (doc.latency(r), doc.search_of(r)) {
            (Some(l), _) => format!("↳{:>10.6}", l as f64 / 1e9),
            (None, Some(x)) if x.start as usize != r => {
                let since = t.saturating_sub(doc.t(x.start as usize));
                format!("+{:>10.6}", since as f64 / 1e9)
            }
            _ => " ".repeat(11),
        },
    }
}

/// The text cell cut into pieces: (text, whether it is a search match).
fn segments(app: &App, text: &str) -> Vec<(String, bool)> {
    let Some(re) = &app.search else {
        return vec![(text.to_owned(), false)];
    };
    let mut out = Vec::new();
    let mut at = 0;
    for m in re.find_iter(text) {
        if m.start() > at {
            out.push((text[at..m.start()].to_owned(), false));
        }
        if m.end() > m.start() {
            out.push((m.as_str().to_owned(), true));
        }
        at = m.end();
    }
    if at < text.len() {
        out.push((text[at..].to_owned(), false));
    }
    out
}

/// The first `n` chars of the pieces left out (the line scrolled sideways).
fn skip_chars(segs: Vec<(String, bool)>, mut n: usize) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for (s, m) in segs {
        let len = s.chars().count();
        if n >= len {
            n -= len;
            continue;
        }
        out.push((s.chars().skip(n).collect(), m));
        n = 0;
    }
    out
}

/// The pieces cut into lines of `width` chars.
fn wrap_chars(segs: Vec<(String, bool)>, first: usize, width: usize) -> Vec<Vec<(String, bool)>> {
    let mut out: Vec<Vec<(String, bool)>> = Vec::new();
    let mut line: Vec<(String, bool)> = Vec::new();
    let mut room = first.max(1);
    for (s, m) in segs {
        let mut cur = String::new();
        for c in s.chars() {
            if room == 0 {
                if !cur.is_empty() {
                    line.push((std::mem::take(&mut cur), m));
                }
                out.push(std::mem::take(&mut line));
                room = width.max(1);
            }
            cur.push(c);
            room -= 1;
        }
        if !cur.is_empty() {
            line.push((cur, m));
        }
    }
    out.push(line);
    out
}

/// The screen lines of one row: one, or several when long lines wrap.
fn row_lines(
    app: &App,
    doc: &Doc,
    k: usize,
    r: usize,
    sessions: usize,
    width: usize,
    numbers: usize,
) -> Vec<Line<'static>> {
    let t = &app.theme;
    let row = &doc.rows[r];
    let text = doc.text(r);
    let selected = k == app.cursor;
    let gutter = match row.sev() {
        Some(Severity::Error) => Span::styled("●", Style::default().fg(t.error)),
        Some(Severity::Warning) => Span::styled("▲", Style::default().fg(t.warning)),
        Some(Severity::Note) => Span::styled("•", Style::default().fg(t.note)),
        _ => Span::raw(" "),
    };
    let mark = app
        .marks
        .iter()
        .find(|(_, m)| **m == r as u32)
        .map_or(" ".to_owned(), |(c, _)| c.to_string());
    let color = src_color(app, row.src());
    let mut spans = vec![
        gutter,
        Span::styled(mark, Style::default().fg(t.focus)),
        Span::raw(" "),
    ];
    if numbers > 0 {
        let n = match doc.line(r) {
            0 => String::new(),
            l => l.to_string(),
        };
        spans.push(Span::styled(
            format!("{n:>numbers$} "),
            Style::default().fg(t.dim),
        ));
    }
    spans.extend([
        Span::styled(time_cell(app, doc, k, r), Style::default().fg(t.dim)),
        Span::raw(" "),
    ]);
    if sessions > 1 {
        spans.push(Span::styled(
            format!("{:<2} ", row.session() + 1),
            Style::default().fg(t.dim),
        ));
    }
    spans.extend([
        Span::styled(
            format!("{} ", arrow(app, row.src())),
            Style::default().fg(color),
        ),
        Span::styled(format!("{:<12} ", doc.kind(r)), Style::default().fg(t.dim)),
    ]);
    let prefix: usize = spans.iter().map(|s| s.content.chars().count()).sum();
    let text_style = Style::default().fg(color);
    let match_style = if app.opts.no_color {
        Style::default().add_modifier(Modifier::REVERSED | Modifier::UNDERLINED)
    } else {
        text_style.bg(t.match_bg).add_modifier(Modifier::BOLD)
    };
    let mut segs = segments(app, &visible(&text));
    if row.open() {
        segs.push(("  ⏳ unanswered".to_owned(), false));
    }
    let style_of = |m: bool| if m { match_style } else { text_style };
    let pieces = if app.wrap {
        wrap_chars(
            segs,
            width.saturating_sub(prefix),
            width.saturating_sub(prefix),
        )
    } else {
        vec![skip_chars(segs, app.hscroll)]
    };
    let line_style = if selected {
        if app.opts.no_color {
            Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else {
            Style::default()
                .bg(t.selected_bg)
                .add_modifier(Modifier::BOLD)
        }
    } else {
        Style::default()
    };
    let mut out = Vec::new();
    // Lines the input could not be read at, in place and marked, as they are in the file.
    for (line, why, raw) in doc.unreadable_before(r) {
        let text = raw.map_or_else(String::new, |b| visible(&String::from_utf8_lossy(b)));
        let shown: String = text.chars().skip(app.hscroll).collect();
        out.push(Line::from(vec![
            Span::styled("✗", Style::default().fg(t.error)),
            Span::styled(
                format!(" unreadable line {line}: "),
                Style::default().fg(t.error),
            ),
            Span::raw(shown),
            Span::styled(format!("  ({})", visible(why)), Style::default().fg(t.dim)),
        ]));
    }
    for (i, piece) in pieces.into_iter().enumerate() {
        let mut line_spans = if i == 0 {
            std::mem::take(&mut spans)
        } else {
            vec![Span::raw(" ".repeat(prefix))]
        };
        line_spans.extend(piece.into_iter().map(|(s, m)| Span::styled(s, style_of(m))));
        out.push(Line::from(line_spans).style(line_style));
    }
    out
}

pub(super) fn traffic(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let sessions = doc.decoder().sessions().len();
    let count = if app.filtered() {
        format!("{} of {} lines", app.view.len(), doc.rows.len())
    } else {
        format!("{} lines", doc.rows.len())
    };
    // Say what the screen has no room for, and the key that shows it; on a narrow screen
    // that goes before the time column's mode.
    let plan = app.plan();
    let mut hidden = Vec::new();
    match app.zoom {
        crate::tui::layout::Zoom::List => hidden.push("L: panes"),
        _ if plan.detail_hidden && plan.detail.is_none() => hidden.push("enter: detail"),
        _ => {}
    }
    if app.zoom == crate::tui::layout::Zoom::Normal && plan.right.is_none() && app.panes.is_none() {
        hidden.push("p: board");
    }
    let mut title = format!("traffic · {count}");
    if usize::from(area.width) >= 100 || hidden.is_empty() {
        title.push_str(&format!(" · time {}", app.time_mode.label()));
    }
    for h in hidden {
        title.push_str(" · ");
        title.push_str(h);
    }
    let b = block(app, &title, app.focus == Focus::List);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let height = usize::from(inner.height.saturating_sub(1));
    // less -N: the input's line numbers, as wide as the last one read.
    let numbers = if app.line_numbers {
        doc.line(doc.rows.len().saturating_sub(1)).to_string().len()
    } else {
        0
    };
    let mut lines = vec![Line::styled(
        format!(
            "   {}{:<11} {}{}{:<12} text",
            if numbers > 0 {
                format!("{:>numbers$} ", "#")
            } else {
                String::new()
            },
            "time",
            if sessions > 1 { "s  " } else { "" },
            "   ",
            "kind"
        ),
        Style::default().fg(t.dim),
    )];
    let width = usize::from(inner.width);
    // Wrapped rows take several screen lines: the rows from `offset` are drawn as long as
    // they fit, then rows are dropped from the top until the selected one is on the screen.
    let mut rows: std::collections::VecDeque<Vec<Line>> = std::collections::VecDeque::new();
    let mut first = app.offset;
    let mut used = 0usize;
    for k in app.offset..app.view.len() {
        let lines = row_lines(app, doc, k, app.view.at(k), sessions, width, numbers);
        used += lines.len();
        rows.push_back(lines);
        // Rows above the selected one give way until it is on the screen.
        while used > height && first < app.cursor && rows.len() > 1 {
            used -= rows.pop_front().map_or(0, |l| l.len());
            first += 1;
        }
        if used >= height && k >= app.cursor {
            break;
        }
    }
    lines.extend(rows.into_iter().flatten().take(height));
    if app.view.is_empty() {
        lines.push(Line::styled(
            match (doc.done, doc.rows.is_empty()) {
                (true, true) => "the input has no lines",
                (true, false) => "no line matches the filter",
                (false, _) => "reading…",
            },
            Style::default().fg(t.dim),
        ));
    }
    f.render_widget(Paragraph::new(lines), inner);
}
