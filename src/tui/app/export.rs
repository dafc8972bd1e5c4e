//! Getting lines out of the viewer: to the clipboard (OSC 52, when the config allows it) or
//! to a file, as text or as a recording that every other command reads (`check`, `decode`,
//! `replay`, `view` itself).

use super::App;
use super::command::Lines;
use crate::recording::{Event, Header};
use crate::tui::doc::Doc;
use crate::tui::plural;
use std::path::PathBuf;

/// Terminals take an OSC 52 payload of about this much and drop larger ones silently.
const OSC52_MAX: usize = 74_000;

impl App {
    /// `Y`: the marked lines, or the selected one.
    pub(super) fn copy_marked_or_line(&mut self, doc: &Doc) {
        let which = if self.marks.is_empty() {
            Lines::Line
        } else {
            Lines::Marked
        };
        self.copy_lines(doc, which);
    }

    pub(super) fn copy_lines(&mut self, doc: &Doc, which: Lines) {
        let rows = self.rows_of(which);
        if rows.is_empty() {
            self.complain("no line to copy");
            return;
        }
        let mut text = String::new();
        for &r in &rows {
            text.push_str(&doc.text(r as usize));
            text.push('\n');
        }
        let n = rows.len();
        let lines = plural(n, "line");
        if !self.opts.osc52 {
            self.complain(format!(
                "the clipboard is off (clipboard = \"osc52\" in view.toml turns it on); :write FILE saves the {lines}"
            ));
            return;
        }
        let seq = super::update::osc52(text.as_bytes());
        if seq.len() > OSC52_MAX {
            self.complain(format!(
                "{lines} are too much for the terminal's clipboard ({} bytes): :write FILE saves them",
                text.len()
            ));
            return;
        }
        self.osc52 = Some(seq);
        self.say(format!("copied {lines} to the clipboard"));
    }

    /// `:write [line|marked|shown] FILE`.
    pub(super) fn write_lines(&mut self, doc: &Doc, which: Lines, file: &str) {
        let rows = self.rows_of(which);
        if rows.is_empty() {
            self.complain("no line to write");
            return;
        }
        let path = expand_home(file);
        let recording = path.extension().is_some_and(|e| e == "jsonl");
        let bytes = if recording {
            recording_of(doc, &rows)
        } else {
            let mut out = Vec::new();
            for &r in &rows {
                match doc.event(r as usize) {
                    Some(ev) => out.extend_from_slice(&ev.line_bytes()),
                    None => out.extend_from_slice(doc.text(r as usize).as_bytes()),
                }
                out.push(b'\n');
            }
            out
        };
        match std::fs::write(&path, bytes) {
            Ok(()) => {
                let lines = plural(rows.len(), "line");
                self.say(if recording {
                    format!(
                        "wrote {lines} to {} as a recording (kibitzer check / view / replay read it)",
                        path.display()
                    )
                } else {
                    format!("wrote {lines} to {}", path.display())
                });
            }
            Err(e) => self.complain(format!("{}: {e}", path.display())),
        }
    }
}

fn expand_home(file: &str) -> PathBuf {
    match (file.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(file),
    }
}

/// The rows as a recording: the input's header (a log's gets a new one naming it), and each
/// row's event with its session label and wall-clock time, so that the recording is judged
/// as the same lines were in the input.
fn recording_of(doc: &Doc, rows: &[u32]) -> Vec<u8> {
    let header = doc.header.clone().unwrap_or_else(|| {
        let started = doc
            .wall_start
            .and_then(|ns| {
                chrono::DateTime::from_timestamp(
                    (ns / 1_000_000_000) as i64,
                    (ns % 1_000_000_000) as u32,
                )
            })
            .map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Nanos, true))
            .unwrap_or_default();
        let mut h = Header::new(concat!("kibitzer ", env!("CARGO_PKG_VERSION")), started);
        h.imported_from = Some(doc.format.clone());
        h.source_file = Some(doc.file.clone());
        h
    });
    let labels: Vec<Option<std::sync::Arc<str>>> = doc
        .decoder()
        .sessions()
        .map(|s| s.label.as_deref().map(std::sync::Arc::from))
        .collect();
    let recording = doc.header.is_some();
    let events = rows.iter().filter_map(|&r| {
        let mut ev: Event = doc.event(r as usize)?;
        if !recording {
            ev.session = labels
                .get(usize::from(doc.rows[r as usize].session()))
                .cloned()
                .flatten();
            ev.ts = doc.wall_start.map(|w| w + ev.t);
        }
        Some(ev)
    });
    let mut out = Vec::new();
    // Writing to a Vec cannot fail.
    let _ = crate::recording::writer::write_recording(&mut out, &header, events);
    out
}
