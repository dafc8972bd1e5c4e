//! The bottom pane: everything known about the selected line (its exact bytes, the typed
//! fields, its findings, the request it opened or closed), or in its place the eval chart of
//! the game the line belongs to. Both answer "what about this line?", so they share a pane.

use super::{block, sev_color, src_color, visible};
use crate::protocol::{self, Dir};
use crate::recording::{Eol, Event, Source};
use crate::tui::app::{App, secs};
use crate::tui::board;
use crate::tui::doc::Doc;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph};

/// The exact bytes of a line: control bytes, CR and invalid UTF-8 escaped, the ending named.
fn bytes_line(ev: &Event) -> String {
    let mut s = crate::untrusted::escape_bytes(&ev.line_bytes()).into_owned();
    match ev.eol {
        Eol::Lf => s.push_str("\\n"),
        Eol::Crlf => s.push_str("\\r\\n"),
        Eol::None => s.push_str("  (no line ending)"),
    }
    s
}

/// The message's typed fields, as `decode --format json` gives them in `msg` (one model, one
/// printer): `depth 10 · score cp 31 · pv e2e4 e7e5`.
fn fields(msg: &protocol::Msg) -> String {
    fn value(v: &serde_json::Value) -> String {
        match v {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(a) => a.iter().map(value).collect::<Vec<_>>().join(" "),
            serde_json::Value::Object(o) => o
                .iter()
                .map(|(k, v)| match v {
                    serde_json::Value::Bool(true) => k.clone(),
                    _ => format!("{k} {}", value(v)),
                })
                .collect::<Vec<_>>()
                .join(", "),
            other => other.to_string(),
        }
    }
    match serde_json::to_value(msg) {
        Ok(serde_json::Value::Object(o)) => o
            .iter()
            .filter(|(k, _)| k.as_str() != "type")
            .map(|(k, v)| match v {
                serde_json::Value::Bool(true) => k.clone(),
                serde_json::Value::Object(_) => format!("{k} ({})", value(v)),
                _ => format!("{k} {}", value(v)),
            })
            .collect::<Vec<_>>()
            .join(" · "),
        _ => String::new(),
    }
}

pub(super) fn detail(f: &mut Frame, app: &App, doc: &Doc, sel: Option<usize>, area: Rect) {
    let Some(r) = sel else {
        f.render_widget(Paragraph::new("").block(block(app, "detail", false)), area);
        return;
    };
    scrolled(f, app, "detail", detail_lines(app, doc, r), area);
}

/// `lines` in a pane that scrolls (`[` `]`, or j/k in the line view), its title saying
/// which rows are shown when they are not all.
pub(super) fn scrolled(f: &mut Frame, app: &App, title: &str, lines: Vec<Line>, area: Rect) {
    let inner_w = area.width.saturating_sub(2);
    let inner_h = usize::from(area.height.saturating_sub(2));
    let rows = super::wrap::fold(lines, inner_w);
    let most = rows.len().saturating_sub(inner_h);
    app.detail_max.set(u16::try_from(most).unwrap_or(u16::MAX));
    let from = usize::from(app.detail_offset()).min(most);
    let title = if most == 0 {
        title.to_owned()
    } else {
        let to = (from + inner_h).min(rows.len());
        let keys = if app.zoom == crate::tui::layout::Zoom::Line {
            "j/k"
        } else {
            "[ ]"
        };
        format!(
            "{title} · {}-{to}/{}{} {keys}",
            from + 1,
            rows.len(),
            if to < rows.len() { " ↓" } else { "" },
        )
    };
    let b = block(app, &title, false);
    let shown: Vec<Line> = rows.into_iter().skip(from).take(inner_h).collect();
    f.render_widget(Paragraph::new(shown).block(b), area);
}

/// Everything said about row `r`: where and when, the bytes, the decoding, each finding
/// with its spec sentence, the runner's verdict, the request it opened or answered.
pub(super) fn detail_lines(app: &App, doc: &Doc, r: usize) -> Vec<Line<'static>> {
    let Some(ev) = doc.event(r) else {
        return vec![Line::raw(
            "the line can no longer be read: the file changed",
        )];
    };
    let mut lines = what_and_where(app, doc, r, &ev);
    findings_and_verdict(app, doc, r, &mut lines);
    requests(app, doc, r, &mut lines);
    super::sample::lines(app, &ev, &mut lines);
    lines
}

/// Where and when the line is, who wrote it, its bytes, and its decoded fields.
fn what_and_where(app: &App, doc: &Doc, r: usize, ev: &Event) -> Vec<Line<'static>> {
    let t = &app.theme;
    let row = &doc.rows[r];
    let seq = doc.seq(r);
    let session = doc.decoder().session(usize::from(row.session()));
    let dim = Style::default().fg(t.dim);
    let who = match row.src() {
        Source::Gui => "GUI → engine",
        Source::Engine => "engine → GUI",
        Source::Stderr => "engine stderr",
        Source::Proxy => "proxy",
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(
            if doc.line(r) > 0 {
                format!("line {} · ", doc.line(r))
            } else {
                String::new()
            },
            dim,
        ),
        Span::styled(
            format!("event {seq} · {:.6} s · ", doc.t(r) as f64 / 1e9),
            dim,
        ),
        Span::styled(who, Style::default().fg(src_color(app, row.src()))),
        Span::styled(
            format!(" · {}", doc.kind(r)),
            Style::default().add_modifier(Modifier::BOLD),
        ),
    ])];
    lines.push(Line::from(vec![
        Span::styled("bytes  ", dim),
        Span::raw(bytes_line(ev)),
    ]));
    if let (Some(s), Some(dir)) = (
        session.and_then(|s| s.protocol),
        match row.src() {
            Source::Gui => Some(Dir::ToEngine),
            Source::Engine => Some(Dir::FromEngine),
            _ => None,
        },
    ) {
        let (msg, _) = protocol::parse(s, dir, &ev.text);
        lines.push(Line::from(vec![
            Span::styled("fields ", dim),
            Span::raw(visible(&fields(&msg))),
        ]));
    }
    lines
}

/// Each finding of the line with its spec sentence, and the runner's own verdict stated on
/// it.
fn findings_and_verdict(app: &App, doc: &Doc, r: usize, lines: &mut Vec<Line<'static>>) {
    let t = &app.theme;
    let dim = Style::default().fg(t.dim);
    let seq = doc.seq(r);
    let session = doc.decoder().session(usize::from(doc.rows[r].session()));
    for fnd in doc.findings_of(r) {
        lines.push(Line::from(vec![
            Span::styled(
                format!("{}[{}] ", fnd.severity.as_str(), fnd.rule),
                Style::default()
                    .fg(sev_color(app, fnd.severity))
                    .add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!("{}: {}", fnd.side.as_str(), visible(&fnd.message))),
        ]));
        if let Some(rule) = Some(fnd.rule.rule())
            && rule.source != "—"
        {
            lines.push(Line::styled(format!("  spec: {}", rule.source), dim));
        }
    }
    // The runner's own verdict stated on this line, and what kibitzer found about it.
    if let Some(v) = session.and_then(|s| s.verdicts.iter().find(|v| v.at.seq == seq)) {
        let check = super::kibitzer_on(v).map_or(String::new(), |s| format!(" · {s}"));
        lines.push(Line::from(vec![
            Span::styled(
                format!("runner[{}] ", v.verdict.kind.as_str()),
                Style::default().fg(t.hang).add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!(
                "{}{check}",
                visible(v.verdict.engine.as_deref().unwrap_or("engine"))
            )),
        ]));
    }
}

/// The request this line made (answered when and by which line, or still owed), and the
/// requests it answered.
fn requests(app: &App, doc: &Doc, r: usize, lines: &mut Vec<Line<'static>>) {
    let t = &app.theme;
    let dim = Style::default().fg(t.dim);
    let row = &doc.rows[r];
    let seq = doc.seq(r);
    let line_of = |i: u32| {
        Some(doc.line(i as usize))
            .filter(|&l| l > 0)
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default()
    };
    let t_of = |i: u32| doc.t(i as usize);
    let row_t = doc.t(r);
    if let Some(a) = doc.answer_of(r) {
        let after = secs(t_of(a.close_row).saturating_sub(row_t));
        let state = if a.cancelled() {
            format!("withdrawn after {after}{}", line_of(a.close_row))
        } else {
            format!("answered after {after}{}", line_of(a.close_row))
        };
        lines.push(Line::from(vec![
            Span::styled("opens  ", dim),
            Span::styled(
                format!("engine owes {}: {state}", visible(&doc.owed(a).to_string())),
                Style::default().fg(t.hang),
            ),
        ]));
    }
    if let Some(o) = doc
        .decoder()
        .open_obligations(usize::from(row.session()))
        .find(|o| o.opened.seq == seq)
    {
        lines.push(Line::from(vec![
            Span::styled("opens  ", dim),
            Span::styled(
                format!("engine owes {}: still owed", visible(&o.owed.to_string())),
                Style::default().fg(t.hang),
            ),
        ]));
    }
    for a in doc
        .answers_by(r)
        .iter()
        .filter(|a| a.open_row as usize != r)
    {
        lines.push(Line::from(vec![
            Span::styled("closes ", dim),
            Span::styled(
                format!(
                    "{} `{}`{} after {}",
                    if a.cancelled() {
                        "withdraws"
                    } else {
                        "answers"
                    },
                    visible(doc.text(a.open_row as usize).trim()),
                    line_of(a.open_row),
                    secs(row_t.saturating_sub(t_of(a.open_row)))
                ),
                Style::default().fg(t.hang),
            ),
        ]));
    }
}

pub(super) fn chart(f: &mut Frame, app: &App, doc: &Doc, sel: Option<usize>, area: Rect) {
    let t = &app.theme;
    const CLAMP: f64 = 10.0;
    let Some((pts, ply)) = sel.and_then(|r| board::eval_series(doc, r, CLAMP)) else {
        f.render_widget(
            Paragraph::new(Line::styled(
                "no game at this line",
                Style::default().fg(t.dim),
            ))
            .block(block(app, "eval chart", false)),
            area,
        );
        return;
    };
    let max_x = pts.last().map_or(1.0, |p| p.0).max(1.0);
    // The scale fits the game: a ±0.7 game is not a flat line on a ±10 axis.
    let biggest = pts.iter().map(|p| p.1.abs()).fold(0.0f64, f64::max);
    let bound = [0.5, 1.0, 2.0, 3.0, 5.0, CLAMP]
        .into_iter()
        .find(|&b| biggest <= b)
        .unwrap_or(CLAMP);
    let label = |v: f64| {
        if bound < 1.0 {
            format!("{v:+.1}")
        } else {
            format!("{v:+.0}")
        }
    };
    let cursor = [(ply as f64, -bound), (ply as f64, bound)];
    let zero = [(0.0, 0.0), (max_x, 0.0)];
    let data = vec![
        Dataset::default()
            .marker(Marker::Dot)
            .graph_type(GraphType::Line)
            .style(Style::default().fg(t.dim))
            .data(&zero),
        Dataset::default()
            .name("eval (pawns, mate = ±10)")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::default().fg(t.eval_line))
            .data(&pts),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::default().fg(t.focus))
            .data(&cursor),
    ];
    let c = Chart::new(data)
        .block(block(
            app,
            "eval chart · White's view · c: back to detail",
            false,
        ))
        .x_axis(
            Axis::default()
                .bounds([0.0, max_x])
                .labels(["0".to_owned(), format!("{max_x:.0}")])
                .style(Style::default().fg(t.dim)),
        )
        .y_axis(
            Axis::default()
                .bounds([-bound, bound])
                .labels([label(-bound), "0".to_owned(), label(bound)])
                .style(Style::default().fg(t.dim)),
        );
    f.render_widget(c, area);
}
