//! One frame, drawn from the state alone (no side effects but the returned areas, which the
//! mouse needs).

use super::app::{App, Areas, Focus, PromptKind, TimeMode, ViolationItem, secs};
use super::board::{self, Position};
use super::doc::Doc;
use crate::protocol::{self, Dir};
use crate::recording::{Eol, Event, Source};
use crate::rules::Severity;
use crate::session::GameKind;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, Borders, Chart, Clear, Dataset, GraphType, List, ListItem, ListState, Paragraph,
    Wrap,
};

pub fn draw(f: &mut Frame, app: &App, doc: &Doc) -> Areas {
    let area = f.area();
    let [body, status, hint] = Layout::vertical([
        Constraint::Min(6),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    let bottom_h = (body.height * 2 / 5)
        .max(7)
        .min(body.height.saturating_sub(5));
    let [top, bottom] =
        Layout::vertical([Constraint::Min(5), Constraint::Length(bottom_h)]).areas(body);
    let wide = area.width >= 90;
    let (list_area, right) = if wide {
        let [l, r] = Layout::horizontal([Constraint::Min(40), Constraint::Length(34)]).areas(top);
        (l, Some(r))
    } else {
        (top, None)
    };
    let (detail_area, viol_area) = if app.show_violations {
        let [d, v] = Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)])
            .areas(bottom);
        (d, Some(v))
    } else {
        (bottom, None)
    };
    let sel = app.selected();
    traffic(f, app, doc, list_area);
    if app.show_chart {
        chart(f, app, doc, sel, detail_area);
    } else {
        detail(f, app, doc, sel, detail_area);
    }
    if let Some(r) = right {
        let [b, s] = Layout::vertical([Constraint::Length(12), Constraint::Min(3)]).areas(r);
        board_pane(f, app, doc, sel, b);
        search_pane(f, app, doc, sel, s);
    }
    if let Some(v) = viol_area {
        violations(f, app, doc, v);
    }
    status_bar(f, app, doc, status);
    hint_line(f, app, hint);
    if app.show_sessions {
        sessions(f, app, doc, area);
    }
    if app.show_help {
        help(f, app, area);
    }
    Areas {
        list: list_area,
        violations: viol_area.unwrap_or_default(),
    }
}

fn block<'a>(app: &App, title: &'a str, focused: bool) -> Block<'a> {
    let t = &app.theme;
    Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(if focused { t.focus } else { t.border }))
        .title(Span::styled(
            format!(" {title} "),
            Style::default().fg(t.title).add_modifier(Modifier::BOLD),
        ))
}

pub fn sev_color(app: &App, s: Severity) -> Color {
    match s {
        Severity::Error => app.theme.error,
        Severity::Warning => app.theme.warning,
        Severity::Note => app.theme.note,
        Severity::Chat => app.theme.chat,
    }
}

fn src_color(app: &App, s: Source) -> Color {
    match s {
        Source::Gui => app.theme.gui,
        Source::Engine => app.theme.engine,
        Source::Stderr => app.theme.stderr,
        Source::Proxy => app.theme.proxy,
    }
}

fn arrow(app: &App, s: Source) -> &'static str {
    match (s, app.opts.ascii) {
        (Source::Gui, false) => "→",
        (Source::Engine, false) => "←",
        (Source::Gui, true) => ">",
        (Source::Engine, true) => "<",
        (Source::Stderr, _) => "!",
        (Source::Proxy, _) => "*",
    }
}

/// Untrusted text made visible: control and format characters escaped by the one
/// output-safety rule ([`crate::untrusted`]), so every line stays one line and nothing an
/// engine wrote reaches the terminal (ratatui would silently drop them, making two
/// different names look the same).
pub fn visible(text: &str) -> String {
    crate::untrusted::escape(text).into_owned()
}

fn time_cell(app: &App, doc: &Doc, view_i: usize, r: usize) -> String {
    let row = &doc.rows[r];
    match app.time_mode {
        TimeMode::SinceStart => format!("{:>11.6}", row.t as f64 / 1e9),
        TimeMode::Delta => {
            let prev = view_i
                .checked_sub(1)
                .and_then(|i| app.view.get(i))
                .map_or(row.t, |&p| doc.rows[p as usize].t);
            format!("+{:>10.6}", row.t.saturating_sub(prev) as f64 / 1e9)
        }
        TimeMode::Absolute => match doc.wall_start {
            Some(w) => {
                let ns = w + row.t;
                chrono::DateTime::from_timestamp(
                    (ns / 1_000_000_000) as i64,
                    (ns % 1_000_000_000) as u32,
                )
                .map_or_else(|| "?".into(), |d| d.format("%H:%M:%S%.3f").to_string())
            }
            None => format!("{:>11.6}", row.t as f64 / 1e9),
        },
        // An answer: since its request; a line of a search: since the search started.
        TimeMode::SinceRequest => match (doc.latency(r), doc.search_of(r)) {
            (Some(l), _) => format!("↳{:>10.6}", l as f64 / 1e9),
            (None, Some(x)) if x.start as usize != r => {
                let since = row.t.saturating_sub(doc.rows[x.start as usize].t);
                format!("+{:>10.6}", since as f64 / 1e9)
            }
            _ => " ".repeat(11),
        },
    }
}

fn traffic(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let sessions = doc.decoder().sessions().len();
    let title = format!(
        "traffic · {} · time {}",
        if app.filter.is_some() || app.session.is_some() {
            format!("{} of {} lines", app.view.len(), doc.rows.len())
        } else {
            format!("{} lines", doc.rows.len())
        },
        app.time_mode.label()
    );
    let b = block(app, &title, app.focus == Focus::List);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let height = usize::from(inner.height.saturating_sub(1));
    let mut lines = vec![Line::styled(
        format!(
            "   {:<11} {}{}{:<12} text",
            "time",
            if sessions > 1 { "s  " } else { "" },
            "   ",
            "kind"
        ),
        Style::default().fg(t.dim),
    )];
    for (k, &r) in app.view.iter().enumerate().skip(app.offset).take(height) {
        let row = &doc.rows[r as usize];
        let text = doc.text(r as usize);
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
            .find(|(_, m)| **m == r)
            .map_or(" ".to_owned(), |(c, _)| c.to_string());
        let color = src_color(app, row.src());
        let mut text_style = Style::default().fg(color);
        if app.search.as_ref().is_some_and(|re| re.is_match(&text)) {
            text_style = text_style.bg(t.match_bg);
        }
        let mut spans = vec![
            gutter,
            Span::styled(mark, Style::default().fg(t.focus)),
            Span::raw(" "),
            Span::styled(
                time_cell(app, doc, k, r as usize),
                Style::default().fg(t.dim),
            ),
            Span::raw(" "),
        ];
        if sessions > 1 {
            spans.push(Span::styled(
                format!("{:<2} ", row.session + 1),
                Style::default().fg(t.dim),
            ));
        }
        spans.extend([
            Span::styled(
                format!("{} ", arrow(app, row.src())),
                Style::default().fg(color),
            ),
            Span::styled(
                format!("{:<12} ", doc.kind(r as usize)),
                Style::default().fg(t.dim),
            ),
            Span::styled(visible(&text), text_style),
        ]);
        if row.open() {
            spans.push(Span::styled("  ⏳ unanswered", Style::default().fg(t.hang)));
        }
        let mut line = Line::from(spans);
        if selected {
            line = line.style(
                Style::default()
                    .bg(t.selected_bg)
                    .add_modifier(Modifier::BOLD),
            );
        }
        lines.push(line);
    }
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

fn detail(f: &mut Frame, app: &App, doc: &Doc, sel: Option<usize>, area: Rect) {
    let t = &app.theme;
    let b = block(app, "detail", false);
    let Some(r) = sel else {
        f.render_widget(Paragraph::new("").block(b), area);
        return;
    };
    let row = &doc.rows[r];
    let Some(ev) = doc.event(r) else {
        f.render_widget(
            Paragraph::new("the line can no longer be read: the file changed").block(b),
            area,
        );
        return;
    };
    let session = doc.decoder().session(usize::from(row.session));
    let dim = Style::default().fg(t.dim);
    let who = match row.src() {
        Source::Gui => "GUI → engine",
        Source::Engine => "engine → GUI",
        Source::Stderr => "engine stderr",
        Source::Proxy => "proxy",
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(
            if row.line > 0 {
                format!("line {} · ", row.line)
            } else {
                String::new()
            },
            dim,
        ),
        Span::styled(
            format!("event {} · {:.6} s · ", row.seq, row.t as f64 / 1e9),
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
        Span::raw(bytes_line(&ev)),
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
    // The request this line made: answered (when, by which line), or still owed.
    let line_of = |i: u32| {
        doc.rows
            .get(i as usize)
            .map(|x| x.line)
            .filter(|&l| l > 0)
            .map(|l| format!(" (line {l})"))
            .unwrap_or_default()
    };
    let t_of = |i: u32| doc.rows.get(i as usize).map_or(row.t, |x| x.t);
    if let Some(a) = doc.answer_of(r) {
        let after = secs(t_of(a.close_row).saturating_sub(row.t));
        let state = if a.cancelled {
            format!("withdrawn after {after}{}", line_of(a.close_row))
        } else {
            format!("answered after {after}{}", line_of(a.close_row))
        };
        lines.push(Line::from(vec![
            Span::styled("opens  ", dim),
            Span::styled(
                format!("engine owes {}: {state}", a.owed),
                Style::default().fg(t.hang),
            ),
        ]));
    }
    if let Some(o) = doc
        .decoder()
        .open_obligations(usize::from(row.session))
        .find(|o| o.opened.seq == row.seq)
    {
        lines.push(Line::from(vec![
            Span::styled("opens  ", dim),
            Span::styled(
                format!("engine owes {}: still owed", o.owed),
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
                    if a.cancelled { "withdraws" } else { "answers" },
                    doc.text(a.open_row as usize).trim(),
                    line_of(a.open_row),
                    secs(row.t.saturating_sub(t_of(a.open_row)))
                ),
                Style::default().fg(t.hang),
            ),
        ]));
    }
    f.render_widget(
        Paragraph::new(lines).block(b).wrap(Wrap { trim: false }),
        area,
    );
}

fn board_pane(f: &mut Frame, app: &App, doc: &Doc, sel: Option<usize>, area: Rect) {
    let t = &app.theme;
    let pos = sel.and_then(|r| board::position_at(doc, r));
    let title = match &pos {
        Some(p) => format!("board · game {} ply {}", p.game + 1, p.ply),
        None => "board".to_owned(),
    };
    let b = block(app, &title, false);
    let Some(p) = pos else {
        f.render_widget(
            Paragraph::new(Line::styled(
                "no board at this line",
                Style::default().fg(t.dim),
            ))
            .block(b),
            area,
        );
        return;
    };
    let mut lines = Vec::new();
    for (rank, cells) in p.cells.iter().enumerate() {
        let mut spans = vec![Span::styled(
            match p.kind {
                GameKind::Chess => format!("{} ", 8 - rank),
                GameKind::Othello => format!("{} ", rank + 1),
            },
            Style::default().fg(t.dim),
        )];
        for (file, &c) in cells.iter().enumerate() {
            spans.push(square(app, &p, file, rank, c));
        }
        lines.push(Line::from(spans));
    }
    lines.push(Line::styled(
        "  a b c d e f g h",
        Style::default().fg(t.dim),
    ));
    lines.push(Line::from(vec![
        Span::raw(
            p.to_move
                .map(|s| format!("{s} to move"))
                .unwrap_or_default(),
        ),
        Span::styled(
            p.last_san
                .as_ref()
                .map(|m| format!(" · last {m}"))
                .unwrap_or_default(),
            Style::default().fg(t.dim),
        ),
    ]));
    f.render_widget(Paragraph::new(lines).block(b), area);
}

fn square<'a>(app: &App, p: &Position, file: usize, rank: usize, c: char) -> Span<'a> {
    let t = &app.theme;
    let bg = if p.last.contains(&(file, rank)) {
        t.last_move
    } else if p.kind == GameKind::Othello {
        Color::Rgb(0x2e, 0x7d, 0x32)
    } else if (file + rank).is_multiple_of(2) {
        t.light_square
    } else {
        t.dark_square
    };
    let (glyph, fg) = match (p.kind, c) {
        (_, '.') => (" ".to_owned(), t.fg),
        (GameKind::Othello, '*') => (
            if app.opts.ascii { "*" } else { "●" }.to_owned(),
            Color::Black,
        ),
        (GameKind::Othello, _) => (
            if app.opts.ascii { "O" } else { "●" }.to_owned(),
            Color::White,
        ),
        (GameKind::Chess, c) => {
            let fg = if c.is_ascii_uppercase() {
                t.white_piece
            } else {
                t.black_piece
            };
            let g = if app.opts.ascii {
                c.to_string()
            } else {
                match c.to_ascii_lowercase() {
                    'k' => "♚",
                    'q' => "♛",
                    'r' => "♜",
                    'b' => "♝",
                    'n' => "♞",
                    'p' => "♟",
                    _ => "?",
                }
                .to_owned()
            };
            (g, fg)
        }
    };
    Span::styled(format!("{glyph} "), Style::default().fg(fg).bg(bg))
}

fn search_pane(f: &mut Frame, app: &App, doc: &Doc, sel: Option<usize>, area: Rect) {
    let t = &app.theme;
    let dim = Style::default().fg(t.dim);
    let Some(s) = sel.and_then(|r| board::search_at(doc, r)) else {
        let b = block(app, "search", false);
        f.render_widget(
            Paragraph::new(Line::styled("no search yet", dim)).block(b),
            area,
        );
        return;
    };
    let title = format!(
        "search · {} · {}",
        visible(&s.request),
        if s.running { "running" } else { "ended" }
    );
    let b = block(app, &title, false);
    let mut lines = Vec::new();
    let n = |v: Option<u64>| v.map_or("-".to_owned(), human);
    lines.push(Line::from(vec![
        Span::styled("depth ", dim),
        Span::raw(match (s.depth, s.seldepth) {
            (Some(d), Some(sd)) => format!("{d}/{sd}"),
            (Some(d), None) => d.to_string(),
            _ => "-".into(),
        }),
        Span::styled("  score ", dim),
        Span::styled(
            visible(s.score.as_deref().unwrap_or("-")),
            Style::default().add_modifier(Modifier::BOLD),
        ),
    ]));
    lines.push(Line::from(vec![
        Span::styled("nodes ", dim),
        Span::raw(n(s.nodes)),
        Span::styled("  nps ", dim),
        Span::raw(n(s.nps)),
        Span::styled("  time ", dim),
        Span::raw(s.time_ms.map_or("-".into(), |ms| secs(ms * 1_000_000))),
    ]));
    lines.push(Line::from(vec![
        Span::styled("pv ", dim),
        Span::raw(visible(&s.pv)),
    ]));
    f.render_widget(
        Paragraph::new(lines).block(b).wrap(Wrap { trim: true }),
        area,
    );
}

/// `1.2M`, `850k`, `42`.
fn human(v: u64) -> String {
    match v {
        0..10_000 => v.to_string(),
        10_000..10_000_000 => format!("{}k", v / 1000),
        _ => format!("{:.1}M", v as f64 / 1e6),
    }
}

fn chart(f: &mut Frame, app: &App, doc: &Doc, sel: Option<usize>, area: Rect) {
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
    let cursor = [(ply as f64, -CLAMP), (ply as f64, CLAMP)];
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
                .bounds([-CLAMP, CLAMP])
                .labels(["-10", "0", "+10"])
                .style(Style::default().fg(t.dim)),
        );
    f.render_widget(c, area);
}

fn violations(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let c = doc.counts();
    let title = format!(
        "violations · {} errors {} warnings {} notes",
        c[0], c[1], c[2]
    );
    let b = block(app, &title, app.focus == Focus::Violations);
    let items: Vec<ListItem> = app
        .violations
        .iter()
        .map(|it| match it {
            ViolationItem::Group {
                severity,
                rule,
                count,
            } => ListItem::new(Line::from(vec![
                Span::styled(
                    format!("{} ", severity.as_str()),
                    Style::default().fg(sev_color(app, *severity)),
                ),
                Span::styled(
                    format!("{rule} ×{count}"),
                    Style::default().add_modifier(Modifier::BOLD),
                ),
            ])),
            ViolationItem::Entry(i) => {
                let fnd = &doc.findings()[*i];
                ListItem::new(Line::from(vec![
                    Span::styled(
                        format!(
                            "  {} ",
                            fnd.line
                                .map_or(format!("#{}", fnd.seq), |l| format!("L{l}"))
                        ),
                        Style::default().fg(t.dim),
                    ),
                    Span::raw(format!("{}: {}", fnd.side.as_str(), visible(&fnd.message))),
                ]))
            }
        })
        .collect();
    if items.is_empty() {
        let msg = if doc.done {
            "no findings"
        } else {
            "checking…"
        };
        f.render_widget(
            Paragraph::new(Line::styled(msg, Style::default().fg(t.dim))).block(b),
            area,
        );
        return;
    }
    let list = List::new(items).block(b).highlight_style(
        Style::default()
            .bg(if app.focus == Focus::Violations {
                t.selected_bg
            } else {
                t.bg
            })
            .add_modifier(Modifier::BOLD),
    );
    let mut state = ListState::default().with_selected(Some(app.viol_cursor));
    f.render_stateful_widget(list, area, &mut state);
}

fn status_bar(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
    let t = &app.theme;
    let base = Style::default().fg(t.status_fg).bg(t.status_bg);
    let sessions: Vec<String> = doc
        .decoder()
        .sessions()
        .filter(|s| s.protocol.is_some() || s.counts[0] + s.counts[1] > 0)
        .map(|s| {
            let p = s.protocol.map_or("?", |p| p.name());
            match (&s.label, &s.engine_name) {
                (Some(l), _) => format!("{}: {p}", visible(l)),
                (None, Some(e)) => format!("{p} {}", visible(e)),
                (None, None) => p.to_owned(),
            }
        })
        .collect();
    let c = doc.counts();
    // The live state and the hang verdict first: they are what a stuck session is about.
    let mut spans = Vec::new();
    if !doc.done {
        spans.push(Span::styled(
            if app.opts.follow {
                format!(
                    " following{} ",
                    if app.autoscroll { " ●" } else { " (paused)" }
                )
            } else {
                match doc.progress {
                    Some((a, b)) if b > 0 && a > 0 => format!(" indexing {}% ", a * 100 / b),
                    _ => " indexing… ".to_owned(),
                }
            },
            base.add_modifier(Modifier::BOLD | Modifier::REVERSED),
        ));
    } else if app.opts.follow {
        spans.push(Span::styled(
            " ended ",
            base.add_modifier(Modifier::REVERSED),
        ));
    }
    // Lines the input could not be read at: `check` exits 2 on them, the viewer says so.
    if let Some((first, reason)) = doc.skipped.first() {
        let n = doc.skipped.len();
        spans.push(Span::styled(
            format!(
                " {n} unreadable line{} (line {first}: {}) ",
                if n == 1 { "" } else { "s" },
                visible(reason)
            ),
            base.fg(Color::Black)
                .bg(t.error)
                .add_modifier(Modifier::BOLD),
        ));
    }
    for h in &doc.hangs {
        let short = h.summary.split("; ").next().unwrap_or(&h.summary);
        spans.push(Span::styled(
            format!(" {}: {} ", visible(h.label), visible(short)),
            base.fg(Color::Black)
                .bg(t.hang)
                .add_modifier(Modifier::BOLD),
        ));
    }
    spans.extend([
        Span::styled(
            format!(" {} ", visible(&doc.file)),
            base.add_modifier(Modifier::BOLD),
        ),
        Span::styled(format!("· {} · ", doc.format), base),
        Span::styled(
            match (sessions.len(), app.session) {
                (0, _) => "no session".to_owned(),
                (1, _) => sessions[0].clone(),
                (n, None) => format!("{n} sessions"),
                (n, Some(s)) => format!(
                    "session {}/{n} {}",
                    s + 1,
                    sessions.get(usize::from(s)).cloned().unwrap_or_default()
                ),
            },
            base,
        ),
        Span::styled(format!(" · {} lines · ", doc.rows.len()), base),
        Span::styled(
            format!("{}E ", c[0]),
            base.fg(if c[0] > 0 { Color::Red } else { t.status_fg }),
        ),
        Span::styled(format!("{}W ", c[1]), base),
        Span::styled(format!("{}N ", c[2]), base),
    ]);
    if !app.filter_text.is_empty() {
        spans.push(Span::styled(
            format!(" · filter: {}", app.filter_text),
            base,
        ));
    }
    f.render_widget(Paragraph::new(Line::from(spans)).style(base), area);
}

fn hint_line(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let line = if let Some((kind, text)) = &app.prompt {
        Line::from(vec![
            Span::styled(
                match kind {
                    PromptKind::Search => "/",
                    PromptKind::Filter => "filter: ",
                },
                Style::default().fg(t.focus).add_modifier(Modifier::BOLD),
            ),
            Span::raw(visible(text)),
            Span::styled("█", Style::default().fg(t.focus)),
        ])
    } else if let Some((m, err)) = &app.message {
        Line::styled(
            visible(m),
            Style::default().fg(if *err { t.error } else { t.fg }),
        )
    } else {
        Line::styled(
            "? help  / search  f filter  v/V finding  e/E error  s/S silence  {/} game  x violations  l sessions  c chart  y copy  q quit",
            Style::default().fg(t.dim),
        )
    };
    f.render_widget(Paragraph::new(line), area);
}

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

fn sessions(f: &mut Frame, app: &App, doc: &Doc, area: Rect) {
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

/// The help screen, generated from the key table.
fn help(f: &mut Frame, app: &App, area: Rect) {
    let t = &app.theme;
    let mut lines: Vec<Line> = app
        .keys
        .help_lines()
        .into_iter()
        .map(|(k, h)| {
            Line::from(vec![
                Span::styled(format!("{k:>22}  "), Style::default().fg(t.focus)),
                Span::raw(h),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    for l in [
        "filter terms (all must match, ! negates): gui engine stderr proxy",
        "  kind:NAME  rule:ID (ID* prefix)  sev:LEVEL  open  lat>500ms  session:N  REGEX",
        "marks: m then a letter sets, ' then the letter jumps",
    ] {
        lines.push(Line::styled(l, Style::default().fg(t.dim)));
    }
    let r = centered(area, 92, area.height.saturating_sub(2));
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(block(app, "help · any key closes", true))
            .scroll((app.help_offset as u16, 0)),
        r,
    );
}
