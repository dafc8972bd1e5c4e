//! The report for a terminal: one table of every engine, then per engine what went wrong and
//! where to look. Every name and message from the inputs is escaped.

use super::model::{EngineReport, Report};
use crate::untrusted::Untrusted;
use std::fmt::Write as _;

/// Latency rows shown per engine in text (the JSON and HTML have them all).
const LATENCY_ORDER: &[&str] = &[
    "uci→uciok",
    "protover→feature done=1",
    "isready→readyok",
    "ping→pong",
    "go→bestmove",
    "on move→move",
    "stop→bestmove",
    "go→bestmove beyond movetime",
    "go→bestmove beyond reported time",
];

pub fn render(r: &Report, out: &mut String) {
    let i = &r.inputs;
    let _ = writeln!(
        out,
        "kibitzer report: {} file(s), {} session(s), {} game(s), {} engine(s); profile {}",
        i.files,
        i.sessions,
        i.games,
        r.engines.len(),
        r.profile
    );
    if i.unreadable > 0 {
        let _ = writeln!(out, "{} input(s) could not be read:", i.unreadable);
        for p in &i.unreadable_files {
            let _ = writeln!(out, "  {}: {}", Untrusted(&p.file), Untrusted(&p.error));
        }
    }
    if i.pgn_files > 0 {
        let _ = writeln!(
            out,
            "results and terminations from the runner: {} PGN file(s), {} game(s), {} matched to the inputs",
            i.pgn_files, i.pgn_games, i.pgn_games_matched
        );
        for g in &i.pgn_games_unmatched {
            let _ = writeln!(
                out,
                "  not matched: {}:{} {} - {} {}",
                Untrusted(&g.file),
                g.line,
                Untrusted(&g.white),
                Untrusted(&g.black),
                Untrusted(&g.result)
            );
        }
    }
    if i.not_recognised > 0 {
        let _ = writeln!(
            out,
            "{} file(s) in the directories are neither a recording nor a known log (passed over), e.g. {}",
            i.not_recognised,
            i.not_recognised_files
                .first()
                .map(|p| Untrusted(&p.file).to_string())
                .unwrap_or_default()
        );
    }
    out.push('\n');
    table(r, out);
    for e in &r.engines {
        engine(e, out);
    }
    let f = &r.findings;
    let _ = writeln!(
        out,
        "\n{} error(s), {} warning(s), {} note(s) over all engines",
        f.error, f.warning, f.note
    );
}

fn table(r: &Report, out: &mut String) {
    let names: Vec<String> = r
        .engines
        .iter()
        .map(|e| Untrusted(&e.engine).to_string())
        .collect();
    let w = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(
        out,
        "{:<w$}  {:<6} {:>8} {:>6} {:>15} {:>6} {:>6}  faults (kibitzer)",
        "engine", "proto", "sessions", "games", "+win =draw -loss", "errors", "warns"
    );
    for (e, name) in r.engines.iter().zip(&names) {
        let res = &e.results;
        let wdl = format!("+{} ={} -{}", res.wins, res.draws, res.losses);
        let faults: Vec<String> = e
            .endings
            .iter()
            .filter(|x| x.ending.is_fault() && x.kibitzer > 0)
            .map(|x| format!("{} {}", x.ending.as_str(), x.kibitzer))
            .collect();
        let _ = writeln!(
            out,
            "{:<w$}  {:<6} {:>8} {:>6} {:>15} {:>6} {:>6}  {}",
            name,
            e.protocols.join(","),
            e.sessions,
            e.games,
            wdl,
            e.findings.error,
            e.findings.warning,
            if faults.is_empty() {
                "-".to_owned()
            } else {
                faults.join(", ")
            }
        );
    }
}

fn engine(e: &EngineReport, out: &mut String) {
    let _ = writeln!(
        out,
        "\n== {} ({}): {} session(s), {} game(s), +{} ={} -{}{}",
        Untrusted(&e.engine),
        e.protocols.join(", "),
        e.sessions,
        e.games,
        e.results.wins,
        e.results.draws,
        e.results.losses,
        if e.results.unknown > 0 {
            format!(", {} without a known result", e.results.unknown)
        } else {
            String::new()
        }
    );
    endings(e, out);
    rules(e, out);
    hangs(e, out);
    if let Some(p) = &e.process {
        let _ = writeln!(out, "  process: {}", super::model::process_line(p));
    }
    runner_verdicts(e, out);
    latencies(e, out);
}

/// How the engine's games ended, as kibitzer and the runner say, and the runner's fault
/// verdicts kibitzer explains.
fn endings(e: &EngineReport, out: &mut String) {
    if !e.endings.is_empty() {
        let endings: Vec<String> = e
            .endings
            .iter()
            .map(|x| format!("{} {}/{}", x.ending.as_str(), x.kibitzer, x.runner))
            .collect();
        let _ = writeln!(out, "  endings (kibitzer/runner): {}", endings.join(", "));
        for x in e.endings.iter().filter(|x| !x.places.is_empty()) {
            for p in &x.places {
                let _ = writeln!(out, "    {}: {}", x.ending.as_str(), Untrusted(&p.view));
            }
        }
        let faults: Vec<String> = e
            .endings
            .iter()
            .filter(|x| x.ending.is_fault() && x.runner > 0)
            .map(|x| format!("{} {} of {}", x.ending.as_str(), x.explained, x.runner))
            .collect();
        if !faults.is_empty() {
            let _ = writeln!(
                out,
                "  the runner's fault verdicts kibitzer explains: {}",
                faults.join(", ")
            );
        }
        for x in e.endings.iter() {
            for p in &x.unexplained {
                let _ = writeln!(
                    out,
                    "    {} (runner), not explained: {}",
                    x.ending.as_str(),
                    Untrusted(&p.view)
                );
            }
        }
    }
}

/// Each rule broken, with the places of warnings and errors.
fn rules(e: &EngineReport, out: &mut String) {
    for row in &e.rules {
        let _ = writeln!(
            out,
            "  {} {} ({}): {} time(s) in {} session(s)",
            row.severity.as_str(),
            row.rule.as_str(),
            row.side.as_str(),
            row.count,
            row.sessions
        );
        if row.severity >= crate::rules::Severity::Warning {
            for p in &row.places {
                let _ = writeln!(out, "    {}", Untrusted(&p.view));
            }
        }
    }
}

fn hangs(e: &EngineReport, out: &mut String) {
    for h in &e.hangs {
        let _ = writeln!(
            out,
            "  hang {} {}{}: {} session(s)",
            h.class.as_str(),
            h.label,
            h.process
                .map(|p| format!(" ({})", p.as_str()))
                .unwrap_or_default(),
            h.count
        );
        for p in &h.places {
            let _ = writeln!(out, "    {}", Untrusted(&p.view));
        }
    }
}

/// What the runner said of the engine, and where kibitzer disagrees.
fn runner_verdicts(e: &EngineReport, out: &mut String) {
    for v in &e.runner_verdicts {
        let _ = writeln!(
            out,
            "  runner said {}: {} time(s){}",
            Untrusted(&v.kind),
            v.count,
            if v.kibitzer_disagrees > 0 {
                format!(", kibitzer disagrees with {}", v.kibitzer_disagrees)
            } else {
                String::new()
            }
        );
        for p in &v.places {
            let _ = writeln!(out, "    {}", Untrusted(&p.view));
        }
    }
}

/// The latencies' table, in the order of `LATENCY_ORDER`.
fn latencies(e: &EngineReport, out: &mut String) {
    let shown: Vec<_> = LATENCY_ORDER
        .iter()
        .filter_map(|k| e.latencies.iter().find(|l| l.request == *k))
        .collect();
    if !shown.is_empty() {
        let _ = writeln!(
            out,
            "  {:<34} {:>7} {:>9} {:>9} {:>9} {:>9}",
            "latency (ms)", "count", "p50", "p90", "p99", "max"
        );
        for l in shown {
            let _ = writeln!(
                out,
                "  {:<34} {:>7} {:>9.1} {:>9.1} {:>9.1} {:>9.1}",
                l.request, l.count, l.p50_ms, l.p90_ms, l.p99_ms, l.max_ms
            );
        }
    }
}
