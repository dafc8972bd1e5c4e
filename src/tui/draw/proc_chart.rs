//! Beside the eval chart, when the recording has the proxy's process samples: the engine's
//! CPU use between consecutive samples (100% = one CPU busy) and its resident memory, over
//! the recording's time, the selected line's time marked. A silence with the CPU at 100% is
//! a search that will not stop; at 0%, an engine waiting for something.

use super::block;
use crate::tui::app::App;
use crate::tui::doc::Doc;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::widgets::{Axis, Chart, Dataset, GraphType};

pub(super) fn proc_chart(f: &mut Frame, app: &App, doc: &Doc, sel: Option<usize>, area: Rect) {
    let t = &app.theme;
    let secs = |ns: u64| ns as f64 / 1e9;
    let cpu: Vec<(f64, f64)> = doc
        .samples
        .windows(2)
        .filter(|w| w[1].t > w[0].t)
        .map(|w| {
            let ms = w[1].cpu_ms.saturating_sub(w[0].cpu_ms) as f64;
            let wall_ms = (w[1].t - w[0].t) as f64 / 1e6;
            (secs(w[1].t), 100.0 * ms / wall_ms)
        })
        .collect();
    let rss: Vec<(f64, f64)> = doc
        .samples
        .iter()
        .map(|s| (secs(s.t), s.rss_kib as f64 / 1024.0))
        .collect();
    let x0 = rss.first().map_or(0.0, |p| p.0);
    let x1 = rss.last().map_or(1.0, |p| p.0).max(x0 + 0.001);
    let now = sel.map(|r| secs(doc.t(r)).clamp(x0, x1));
    // Whole hundreds: several busy threads go past one CPU (a sample's timing makes one busy
    // thread read a little over 100%).
    let peak = cpu.iter().map(|p| p.1).fold(0.0f64, f64::max);
    let cpu_top = if peak <= 110.0 {
        100.0
    } else {
        (peak / 100.0).ceil() * 100.0
    };
    let cpu: Vec<(f64, f64)> = cpu.into_iter().map(|(x, y)| (x, y.min(cpu_top))).collect();
    // The values at the selected line: the last sample at or before it.
    let at = |pts: &[(f64, f64)]| {
        let x = now?;
        pts.iter().rev().find(|p| p.0 <= x).map(|p| p.1)
    };
    let cpu_title = match at(&cpu) {
        Some(v) => format!("engine CPU · {v:.0}%"),
        None => "engine CPU".to_owned(),
    };
    let rss_title = match at(&rss) {
        Some(v) => format!("engine memory · {v:.1} MiB"),
        None => "engine memory".to_owned(),
    };
    let rss_top = rss.iter().map(|p| p.1).fold(1.0f64, f64::max) * 1.1;
    let [top, bottom] =
        Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(area);
    let x_axis = || {
        Axis::default()
            .bounds([x0, x1])
            .labels([format!("{x0:.1}s"), format!("{x1:.1}s")])
            .style(Style::default().fg(t.dim))
    };
    for (data, top_v, title, unit, rect) in [
        (&cpu, cpu_top, cpu_title.as_str(), "%", top),
        (&rss, rss_top, rss_title.as_str(), " MiB", bottom),
    ] {
        let cursor = now.map(|x| [(x, 0.0), (x, top_v)]);
        let mut sets = vec![
            Dataset::default()
                .marker(Marker::Braille)
                .graph_type(GraphType::Line)
                .style(Style::default().fg(t.eval_line))
                .data(data),
        ];
        if let Some(c) = &cursor {
            sets.push(
                Dataset::default()
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(Style::default().fg(t.focus))
                    .data(c),
            );
        }
        let chart = Chart::new(sets)
            .block(block(app, title, false))
            .x_axis(x_axis())
            .y_axis(
                Axis::default()
                    .bounds([0.0, top_v])
                    .labels(["0".to_owned(), format!("{top_v:.0}{unit}")])
                    .style(Style::default().fg(t.dim)),
            );
        f.render_widget(chart, rect);
    }
}
