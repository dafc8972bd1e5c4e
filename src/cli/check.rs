//! `kibitzer check FILE...`: every rule of the catalogue over recordings and logs, with the hang
//! verdict and latency figures; compiler-style lines or a JSON report; an exit status for CI.

use super::format::{ColorChoice, OutputFormat};
use crate::rules::report::{self, CheckReport, Counts, FileReport, SessionInfo, Standing, Totals};
use crate::rules::{CheckOptions, Finding, HangVerdict};
use crate::untrusted::Untrusted;
use anyhow::{Result, bail};
use clap::Args;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

/// Check recordings and logs against every protocol rule (see docs/rules.md): findings with
/// the rule id, the side at fault and the line; the hang verdict; latencies per request type.
///
/// Exit status: 0 no errors, 1 errors found, 2 an input could not be read or bad usage.
#[derive(Args)]
pub struct CheckArgs {
    /// Recordings or logs to check (`-` for standard input)
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output: compiler-style text or the JSON report (schema in docs/check-report.md)
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    /// Read the inputs as this format instead of detecting it: recording, or an importer name
    /// (see `kibitzer import --help`)
    #[arg(long, value_name = "NAME")]
    input_format: Option<String>,
    #[command(flatten)]
    judge: super::judging::JudgeFlags,
    /// Judge the input as it stood this many seconds after its start (the hang verdict then
    /// says who owed whom what at that moment)
    #[arg(long, value_name = "SECONDS")]
    at: Option<f64>,
    /// Colour: auto (on a terminal, unless NO_COLOR is set), always, never
    #[arg(long, value_enum, default_value = "auto")]
    color: ColorChoice,
    /// Write the report to FILE instead of standard output
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print only the hang verdicts and the summary, not each finding
    #[arg(long)]
    summary_only: bool,
}

pub fn run(a: CheckArgs) -> Result<i32> {
    let judging = a.judge.judging()?;
    // An unknown name is refused before any input is read.
    crate::input::FormatChoice::from_name(a.input_format.as_deref())?;
    let at_ns = match a.at {
        Some(s) if s.is_finite() && s >= 0.0 => Some((s * 1e9) as u64),
        Some(s) => bail!("--at {s}: expected seconds since the start, 0 or more"),
        None => None,
    };
    let color = a.color.enabled();
    let mut files = Vec::new();
    for path in &a.files {
        let shown = if path.as_os_str() == "-" {
            "<stdin>".to_owned()
        } else {
            path.display().to_string()
        };
        let report = match check_file(path, &a, &judging.options, at_ns) {
            Ok(mut r) => {
                r.rule_counts = report::rule_counts(&r.findings);
                r.counts = Counts::of(&r.findings);
                r
            }
            Err(e) => FileReport {
                file: shown,
                format: None,
                error: Some(format!("{e:#}")),
                sessions: Vec::new(),
                findings: Vec::new(),
                hangs: Vec::new(),
                runner_verdicts: Vec::new(),
                rule_counts: Vec::new(),
                latencies: Vec::new(),
                skipped_lines: Vec::new(),
                lost_lines: 0,
                c2w_from_header: None,
                counts: Counts::default(),
            },
        };
        files.push(report);
    }
    let mut totals = Totals {
        files: files.len(),
        ..Totals::default()
    };
    for f in &files {
        totals.unreadable_files += usize::from(f.error.is_some());
        totals.hangs += f.hangs.len();
        let c = &mut totals.findings;
        c.error += f.counts.error;
        c.warning += f.counts.warning;
        c.note += f.counts.note;
        c.chat += f.counts.chat;
    }
    let report = CheckReport {
        schema: report::SCHEMA,
        tool: concat!("kibitzer ", env!("CARGO_PKG_VERSION")).to_owned(),
        profile: judging.options.profile.name.to_owned(),
        c2w: judging.c2w_file.as_ref().map(|f| f.display().to_string()),
        files,
        totals,
    };
    if let Some(o) = &a.output {
        for f in &a.files {
            super::output::refuse_same_file(f, o)?;
        }
    }
    let first_input = a.files.first().cloned().unwrap_or_default();
    let mut out = super::output::Sink::open(a.output.as_deref(), &first_input)?;
    let written = match a.format {
        OutputFormat::Json => serde_json::to_writer_pretty(&mut out, &report)
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n")),
        OutputFormat::Text => {
            let mut text = String::new();
            render_text(&report, &a, color, &mut text);
            crate::untrusted::write_guarded(&mut out, &text, color)
        }
    };
    let unreadable = report
        .files
        .iter()
        .any(|f| f.error.is_some() || f.lost_lines > 0);
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
        // An output file is replaced only by the report of inputs that could all be read:
        // a typo in an input's name must not destroy yesterday's report.
        _ if unreadable && a.output.is_some() => drop(out),
        _ => out.finish()?,
    }
    for f in &report.files {
        if let Some(e) = &f.error {
            crate::eprintln_safe!("kibitzer: {e}");
        }
    }
    if unreadable && let Some(o) = &a.output {
        crate::eprintln_safe!(
            "kibitzer: {} left as it was: an input could not be read",
            o.display()
        );
    }
    Ok(if unreadable {
        2
    } else {
        report.totals.findings.standing().exit_status()
    })
}

fn check_file(
    path: &std::path::Path,
    a: &CheckArgs,
    opts: &CheckOptions,
    at_ns: Option<u64>,
) -> Result<FileReport> {
    let judged = crate::input::judged::JudgeInput {
        input_format: crate::input::FormatChoice::from_name(a.input_format.as_deref())?,
        opts,
        c2w_named: a.judge.c2w.is_some(),
        at_ns,
        keep_games: false,
        read_on_thread: true,
    }
    .run(
        path,
        |_, _| {},
        |shown, s| crate::eprintln_safe!("{shown}:{}: {}", s.line, s.reason),
        || {},
    )?;
    let mut checked = judged.checked;
    checked.sort_findings();
    let sessions = checked
        .decoder
        .sessions()
        .filter(|s| s.protocol.is_some() || s.counts[0] + s.counts[1] > 0)
        .map(|s| SessionInfo {
            label: s.label.clone(),
            protocol: s.protocol.map(|p| p.name()),
            engine: s.engine_name.clone(),
        })
        .collect();
    let runner_verdicts = checked
        .decoder
        .sessions()
        .flat_map(|s| s.verdicts.iter().cloned())
        .collect();
    Ok(FileReport {
        file: judged.shown,
        format: Some(judged.format.to_owned()),
        error: None,
        sessions,
        runner_verdicts,
        rule_counts: Vec::new(),
        counts: Counts::default(),
        findings: checked.findings,
        hangs: checked.hangs,
        latencies: checked.latencies,
        skipped_lines: judged.skipped,
        lost_lines: judged.lost,
        c2w_from_header: judged.c2w_from_header,
    })
}

use crate::style::{self, Painter as Style};

/// `FILE:LINE: runner[illegal move] sf1: "Warning; ..." (kibitzer agrees: ...)`
fn verdict_line(
    file: &str,
    v: &crate::session::verdicts::VerdictSeen,
    st: &Style,
    out: &mut String,
) {
    use crate::session::verdicts::VerdictCheck;
    let file = Untrusted(file);
    let at = v
        .line
        .map(|l| format!("{file}:{l}"))
        .unwrap_or_else(|| file.to_string());
    let who = v.verdict.engine.as_deref().unwrap_or("engine");
    let _ = write!(
        out,
        "{at}: {}[{}] {}: \"{}\"",
        st.paint(style::RUNNER, "runner"),
        v.verdict.kind.as_str(),
        Untrusted(who),
        Untrusted(&v.text)
    );
    match &v.kibitzer {
        Some(VerdictCheck::Agrees(why)) => {
            let _ = write!(out, " (kibitzer agrees: {})", Untrusted(why));
        }
        Some(VerdictCheck::Disagrees(why)) => {
            let _ = write!(
                out,
                " ({}: {})",
                st.paint(style::ERROR, "kibitzer disagrees"),
                Untrusted(why)
            );
        }
        None => {}
    }
    out.push('\n');
}

fn render_text(r: &CheckReport, a: &CheckArgs, color: bool, out: &mut String) {
    let st = Style::new(color);
    for f in &r.files {
        if f.error.is_some() {
            continue;
        }
        if !a.summary_only {
            for x in &f.findings {
                finding_line(&f.file, x, &st, out);
            }
        }
        for h in &f.hangs {
            hang_line(&f.file, h, &st, out);
        }
        for v in &f.runner_verdicts {
            verdict_line(&f.file, v, &st, out);
        }
        summary(f, &r.profile, r.c2w.as_deref(), &st, out);
    }
    if r.files.len() > 1 {
        let t = &r.totals;
        let _ = writeln!(
            out,
            "\n{} file(s), {} unreadable: {} error(s), {} warning(s), {} note(s), {} hang verdict(s)",
            t.files,
            t.unreadable_files,
            t.findings.error,
            t.findings.warning,
            t.findings.note,
            t.hangs
        );
    }
}

/// `FILE:LINE: error[UCI-BESTMOVE-ILLEGAL] engine: bestmove e1g1 is illegal in <FEN>`
fn finding_line(file: &str, x: &Finding, st: &Style, out: &mut String) {
    let file = Untrusted(file).to_string();
    let (at, session) = place(&file, x.line, Some(x.seq), x.session.as_deref());
    let _ = writeln!(
        out,
        "{} {}[{}] {}{session}: {}",
        st.paint(style::BOLD, &at),
        st.severity(x.severity),
        st.paint(style::BOLD, x.rule.as_str()),
        x.side.as_str(),
        Untrusted(&x.message)
    );
    if let Some(n) = x.repeats_note() {
        let _ = writeln!(out, "    ... {n} (--every shows each)");
    }
}

/// `FILE:LINE:` (or the event number, or the file alone) and ` [session]`.
fn place(
    file: &str,
    line: Option<u64>,
    seq: Option<u64>,
    session: Option<&str>,
) -> (String, String) {
    let at = match (line, seq) {
        (Some(l), _) => format!("{file}:{l}:"),
        (None, Some(s)) => format!("{file}: event {s}:"),
        (None, None) => format!("{file}:"),
    };
    let session = session
        .map(|s| format!(" [{}]", Untrusted(s)))
        .unwrap_or_default();
    (at, session)
}

fn hang_line(file: &str, h: &HangVerdict, st: &Style, out: &mut String) {
    let file = Untrusted(file).to_string();
    let (at, session) = place(&file, h.request_line, None, h.session.as_deref());
    let _ = writeln!(
        out,
        "{} {}{session} {}: {}",
        st.paint(style::BOLD, &at),
        st.paint(style::STALL, &format!("hang[{}]", h.class.as_str())),
        Untrusted(h.label),
        Untrusted(&h.summary)
    );
}

fn ms(v: f64) -> String {
    if v >= 1000.0 {
        format!("{:.2} s", v / 1000.0)
    } else {
        format!("{v:.1} ms")
    }
}

fn summary(f: &FileReport, profile: &str, c2w: Option<&str>, st: &Style, out: &mut String) {
    let protocols: Vec<String> = f
        .sessions
        .iter()
        .map(|s| {
            let p = s.protocol.unwrap_or("unknown protocol");
            match (&s.label, &s.engine) {
                (Some(l), _) => format!("{}: {p}", Untrusted(l)),
                (None, Some(e)) => format!("{p}, {}", Untrusted(e)),
                (None, None) => p.to_owned(),
            }
        })
        .collect();
    let c2w = c2w
        .or(f.c2w_from_header.as_deref())
        .map(|c| format!("; c2w {}", Untrusted(c)))
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "\n{} ({}; {}; profile {profile}{c2w})",
        st.paint(style::BOLD, &Untrusted(&f.file).to_string()),
        f.format.as_deref().unwrap_or("?"),
        if protocols.is_empty() {
            "no sessions".to_owned()
        } else {
            protocols.join("; ")
        }
    );
    if !f.rule_counts.is_empty() {
        let width = f
            .rule_counts
            .iter()
            .map(|c| c.rule.as_str().len())
            .max()
            .unwrap_or(4);
        for c in &f.rule_counts {
            let _ = writeln!(
                out,
                "  {:<width$}  {:>5}  {} ({})",
                c.rule,
                c.count,
                st.severity(c.severity),
                c.side.as_str()
            );
        }
    }
    if !f.latencies.is_empty() {
        let width = f
            .latencies
            .iter()
            .map(|l| l.request.chars().count())
            .max()
            .unwrap_or(8);
        let _ = writeln!(
            out,
            "  {:<width$}  {:>6}  {:>10}  {:>10}  {:>10}  {:>10}  allowed",
            "latency", "n", "p50", "p90", "p99", "max"
        );
        for l in &f.latencies {
            let pad = " ".repeat(width - l.request.chars().count());
            let _ = writeln!(
                out,
                "  {}{pad}  {:>6}  {:>10}  {:>10}  {:>10}  {:>10}  {}",
                l.request,
                l.count,
                ms(l.p50_ms),
                ms(l.p90_ms),
                ms(l.p99_ms),
                ms(l.max_ms),
                l.allowed_ms.map_or("-".to_owned(), ms)
            );
        }
    }
    if !f.skipped_lines.is_empty() {
        let _ = writeln!(
            out,
            "  {} unreadable line(s) skipped (line {})",
            f.skipped_lines.len(),
            f.skipped_lines
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let c = f.counts;
    let verdict = match c.standing() {
        Standing::Failed => st.paint(style::ERROR, "FAILED"),
        Standing::PassedWithWarnings => st.paint(style::WARNING, "passed with warnings"),
        Standing::Passed => st.paint(style::GOOD, "passed"),
    };
    let _ = writeln!(
        out,
        "  {verdict}: {} error(s), {} warning(s), {} note(s){}",
        c.error,
        c.warning,
        c.note,
        if f.hangs.is_empty() {
            String::new()
        } else {
            format!(", {} hang verdict(s)", f.hangs.len())
        }
    );
    if !f.runner_verdicts.is_empty() {
        let _ = writeln!(
            out,
            "  the runner's own verdicts: {} (shown above as runner[...])",
            f.runner_verdicts.len()
        );
    }
}
