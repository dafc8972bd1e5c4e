//! The detail of a process sample the proxy recorded: its one-line summary, and for a
//! capture every thread and the `--on-hang` command's output. All of it comes from the
//! engine's processes (thread names, kernel stacks, a debugger's output), so all of it is
//! escaped like engine output.

use super::visible;
use crate::recording::Event;
use crate::tui::app::App;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// Command output past this many lines is left out (the recording keeps it whole).
const OUTPUT_LINES: usize = 400;

pub(super) fn lines(app: &App, ev: &Event, out: &mut Vec<Line<'static>>) {
    let Some(s) = ev.sample.as_deref() else {
        return;
    };
    let dim = Style::default().fg(app.theme.dim);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    out.push(Line::from(vec![
        Span::styled("sample ", dim),
        Span::raw(visible(&s.summary())),
    ]));
    let Some(c) = &s.capture else {
        return;
    };
    out.push(Line::from(vec![
        Span::styled(
            "capture ",
            Style::default()
                .fg(app.theme.hang)
                .add_modifier(Modifier::BOLD),
        ),
        Span::raw(visible(&c.reason)),
    ]));
    for th in &c.threads {
        out.push(Line::from(vec![
            Span::styled("thread ", dim),
            Span::styled(format!("{} ", th.tid), dim),
            Span::styled(visible(&th.name), bold),
            Span::raw(format!(" {}", visible(&th.state))),
            Span::styled(
                th.wchan
                    .as_deref()
                    .map_or(String::new(), |w| format!(" · wchan {}", visible(w))),
                Style::default(),
            ),
            Span::raw(
                th.syscall
                    .as_deref()
                    .map_or(String::new(), |w| format!(" · syscall {}", visible(w))),
            ),
        ]));
        if let Some(stack) = &th.kernel_stack {
            for frame in stack.lines() {
                out.push(Line::styled(format!("    {}", visible(frame)), dim));
            }
        }
    }
    if let Some(cmd) = &c.command {
        out.push(Line::from(vec![
            Span::styled("--on-hang ", dim),
            Span::raw(visible(cmd)),
            Span::styled(
                c.command_status
                    .as_deref()
                    .map_or(String::new(), |x| format!(" ({})", visible(x))),
                dim,
            ),
        ]));
    }
    if let Some(output) = &c.command_output {
        let n = output.lines().count();
        for l in output.lines().take(OUTPUT_LINES) {
            out.push(Line::raw(format!("  {}", visible(l))));
        }
        if n > OUTPUT_LINES {
            out.push(Line::styled(
                format!(
                    "  … {} more (:write line FILE.jsonl keeps them)",
                    n - OUTPUT_LINES
                ),
                dim,
            ));
        }
    }
}
