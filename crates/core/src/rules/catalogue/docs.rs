//! `docs/rules.md`, generated from the catalogue.

use super::{Decidable, Family, RULES, Rule, Severity};
use std::fmt::{self, Write as _};

/// Renders `docs/rules.md`.
pub fn render_markdown() -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_markdown(&mut out);
    out
}

fn write_markdown(out: &mut String) -> fmt::Result {
    let decidable = RULES
        .iter()
        .filter(|r| r.decidable == Decidable::Traffic)
        .count();
    let done = RULES.iter().filter(|r| r.implemented).count();

    writeln!(out, "# Rule catalogue")?;
    writeln!(out)?;
    writeln!(
        out,
        "<!-- Generated from crates/core/src/rules/catalogue/; do not edit by hand. -->"
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "Every check `kibitzer check` performs has a stable id (ids may be added, never \
         renamed), the side at fault, a severity and the spec sentence it rests on."
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "This file is generated from `crates/core/src/rules/catalogue/`, and `cargo test` fails when it \
         is stale. After changing the catalogue or the set of implemented checks, regenerate \
         it with:"
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "    KIBITZER_BLESS=1 cargo test -p kibitzer-core --lib catalogue"
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "Severities, from least to most serious: {}. Side `either` means the engine or the \
         GUI, depending on the case. A rule is decidable from traffic when a recording or log \
         (lines both ways with timestamps, plus the proxy's own events: spawn, EOF, exit code \
         or signal, signals forwarded, kills) is enough to decide it. A rule a session breaks \
         again is one finding with its count and last line (`--every` lists each time).",
        [
            Severity::Chat,
            Severity::Note,
            Severity::Warning,
            Severity::Error
        ]
        .map(Severity::as_str)
        .join(", ")
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "{} rules; {decidable} decidable from traffic; {done} implemented.",
        RULES.len()
    )?;

    for family in Family::ALL {
        writeln!(out)?;
        writeln!(out, "## {}", family.title())?;
        for group in groups(family) {
            writeln!(out)?;
            writeln!(out, "### {group}")?;
            writeln!(out)?;
            writeln!(out, "| id | side | severity | check | source | status |")?;
            writeln!(out, "|---|---|---|---|---|---|")?;
            for r in RULES
                .iter()
                .filter(|r| r.family == family && r.group == group)
            {
                writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} |",
                    r.id,
                    r.side.as_str(),
                    r.severity.as_str(),
                    escape_cell(r.check),
                    escape_cell(r.source),
                    status(r),
                )?;
            }
        }
    }

    writeln!(out)?;
    writeln!(out, "## Not decidable from traffic")?;
    writeln!(out)?;
    writeln!(
        out,
        "These rules need something a recording does not hold; they can only come from the \
         live proxy, a replay or the program's own logs."
    )?;
    writeln!(out)?;
    for r in RULES.iter() {
        if let Decidable::NotFromTraffic(reason) = r.decidable {
            writeln!(out, "- **{}**: {}", r.id, escape_inline(reason))?;
        }
    }
    Ok(())
}

/// The family's groups in the order they first appear, so that the documentation follows the
/// design's tables.
fn groups(family: Family) -> Vec<&'static str> {
    let mut groups: Vec<&'static str> = Vec::new();
    for r in RULES.iter().filter(|r| r.family == family) {
        if !groups.contains(&r.group) {
            groups.push(r.group);
        }
    }
    groups
}

fn status(rule: &Rule) -> &'static str {
    // A check that exists wins: a rule a recording cannot decide may still be implemented by
    // the live proxy or the replayer.
    if rule.implemented {
        "implemented"
    } else if let Decidable::NotFromTraffic(_) = rule.decidable {
        "not decidable from traffic"
    } else {
        "not yet"
    }
}

/// Text for a table cell: a `|` would end the cell, even inside a code span, so GitHub
/// markdown wants it escaped everywhere.
pub(super) fn escape_cell(text: &str) -> String {
    escape_inline(text).replace('|', "\\|")
}

/// The design quotes spec placeholders such as `<x>` outside code spans, where markdown would
/// take them for HTML tags and drop them; inside code spans `&lt;` would show literally, so only
/// the text between spans is escaped.
fn escape_inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                out.push(c);
            }
            '<' if !in_code => out.push_str("&lt;"),
            _ => out.push(c),
        }
    }
    out
}

/// The first line (0-based) where a generated document and its committed copy differ: what a
/// stale-document test points at, since the whole file in an `assert_eq!` would bury it.
pub fn first_differing_line(committed: &str, rendered: &str) -> usize {
    committed
        .lines()
        .zip(rendered.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| committed.lines().count().min(rendered.lines().count()))
}
