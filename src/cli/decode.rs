use crate::input::ControlFlow;
use crate::input::Skipped;
use crate::input::judged::{Line, judge_lines};
use crate::recording::{Event, Source};
use crate::rules::{Checker, Finding};
use crate::session::{Decoded, Decoder, Handshake, Session};
use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

/// Print the decoded session: the transcript with each message's kind, the position after
/// every move, diagnostics inline, and a summary (protocol, engine, games, open obligations).
#[derive(Args)]
pub struct DecodeArgs {
    /// Recording or log file to decode (`-` for standard input)
    file: PathBuf,
    /// `json` or `text` for the output, and/or the input format: auto (default), recording,
    /// or an importer name (see `kibitzer import --help`); may be given twice, e.g.
    /// `--format json --format cutechess-cli`
    #[arg(long, value_name = "NAME")]
    format: Vec<String>,
    /// Read the input as this format instead of detecting it: recording, or an importer name
    #[arg(long, value_name = "NAME")]
    input_format: Option<String>,
    /// Write to FILE instead of standard output (`json`/`text` here still select the output,
    /// as in earlier versions)
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<String>,
    /// Earlier spelling of `--format json|text`
    #[arg(short = 'O', value_enum, hide = true)]
    output_kind: Option<OutputKind>,
    /// Shorthand for `--format json`
    #[arg(long)]
    json: bool,
    /// Print only the summary
    #[arg(long)]
    summary_only: bool,
    /// The findings shown under each line are `check`'s, judged and filtered the same way
    #[command(flatten)]
    judge: super::judging::JudgeFlags,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OutputKind {
    Text,
    Json,
}

/// Splits `--format` values into the output kind (`json`, `text`) and the input format (any
/// other name), each given at most once.
fn split_formats(values: &[String]) -> Result<(Option<OutputKind>, Option<&str>)> {
    let (mut output, mut input) = (None, None);
    for v in values {
        match OutputKind::from_str(v, true) {
            Ok(kind) => {
                if output.replace(kind).is_some_and(|k| k != kind) {
                    bail!("--format gives two outputs; use one of json, text");
                }
            }
            Err(_) => {
                if crate::input::FormatChoice::from_name(Some(v)).is_err() {
                    bail!(
                        "unknown format `{v}`; known: json, text (the output), {}",
                        crate::input::format_names()
                    );
                }
                if let Some(old) = input.replace(v.as_str())
                    && old != v
                {
                    bail!("--format gives two input formats: `{old}` and `{v}`");
                }
            }
        }
    }
    Ok((output, input))
}

pub fn run(a: DecodeArgs) -> Result<i32> {
    let judging = a.judge.judging()?;
    let (format_output, format_input) = split_formats(&a.format)?;
    let input_format = crate::input::input_format(a.input_format.as_deref(), format_input)?;
    // `--output json|text` selected the output before `-o FILE` named a file.
    let (output_kind, output_file) = match a.output.as_deref() {
        Some(v) => match OutputKind::from_str(v, true) {
            Ok(k) => {
                crate::eprintln_safe!(
                    "kibitzer: decode -o {v} is the earlier spelling of --format {v} (-o names \
                     the output file in every command; `-o ./{v}` writes a file of that name)"
                );
                (Some(k), None)
            }
            Err(_) => (None, Some(std::path::PathBuf::from(v))),
        },
        None => (None, None),
    };
    if let Some(k) = a.output_kind {
        let name = if k == OutputKind::Json {
            "json"
        } else {
            "text"
        };
        crate::eprintln_safe!(
            "kibitzer: decode -O {name} is the earlier spelling of --format {name}"
        );
    }
    let kinds = [a.output_kind, output_kind, format_output];
    let mut chosen = kinds.iter().flatten();
    let output = match (chosen.next(), chosen.next()) {
        (Some(o), Some(f)) if o != f => bail!("--output and --format ask for different outputs"),
        (o, _) => o.copied().unwrap_or(OutputKind::Text),
    };
    let mut out = Printer {
        out: super::output::Sink::open(output_file.as_deref(), &a.file)?,
        json: a.json || output == OutputKind::Json,
        summary_only: a.summary_only,
        buf: String::new(),
    };
    let input = crate::input::Input::open_with(&a.file, input_format)?;
    if out.json {
        match out.header() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(0),
            r => r?,
        }
    }
    let (opts, note) = judging.options.for_input(input.recording_header());
    if let Some(note) = note {
        crate::eprintln_safe!("kibitzer: {}: {note}", input.shown());
    }
    // The summary needs the games, the open obligations and how many searches there were,
    // not every finished search and answered request: those would grow with the input.
    let decoder = opts
        .decoder(input.protocols(opts.protocol)?)
        .retain_searches(false);
    let mut checker = Checker::new(&opts, decoder);
    let shown = input.shown().to_owned();
    let ahead = crate::input::pipeline::ReadOptions {
        ahead: true,
        ..Default::default()
    };
    let (outcome, stopped) = judge_lines(&input, ahead, &mut checker, None, |checker, l| {
        match l {
            Line::Judged {
                ev, first_finding, ..
            } => out.line(checker, ev, first_finding)?,
            Line::Unreadable(s) => out.skipped(&shown, s)?,
        }
        Ok(ControlFlow::Continue(()))
    })?;
    let result = stopped.and_then(|()| out.summary(checker, &shown, &outcome.skipped));
    match result {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(outcome.status(0)),
        Err(e) => return Err(e.into()),
    }
    out.out.finish()?;
    Ok(outcome.status(0))
}

/// Writes the transcript and the summaries in the chosen output form.
struct Printer<W> {
    out: W,
    json: bool,
    summary_only: bool,
    buf: String,
}

impl<W: Write> Printer<W> {
    /// A judged line: its transcript line and the findings it drew, from `from` on.
    fn line(&mut self, checker: &Checker, ev: &Event, from: usize) -> std::io::Result<()> {
        if self.summary_only {
            return Ok(());
        }
        let new = &checker.findings()[from..];
        if self.json {
            json_line(ev, checker.decoded(), checker.decoder(), &mut self.out)?;
            return json_findings(new, &mut self.out);
        }
        self.buf.clear();
        text_line(ev, checker.decoded(), checker.decoder(), &mut self.buf);
        text_findings(new, Some(ev.seq), &mut self.buf);
        crate::untrusted::write_guarded(&mut self.out, &self.buf, false)
    }

    /// The first line of the JSON output: which schema the lines follow.
    fn header(&mut self) -> std::io::Result<()> {
        let v = serde_json::json!({
            "type": "header",
            "schema": JSON_SCHEMA,
            "tool": concat!("kibitzer ", env!("CARGO_PKG_VERSION")),
        });
        serde_json::to_writer(&mut self.out, &v)?;
        self.out.write_all(b"\n")
    }

    /// An unreadable line, where it was: on stderr, and in the transcript.
    fn skipped(&mut self, shown: &str, s: &Skipped) -> std::io::Result<()> {
        crate::eprintln_safe!("{shown}:{}: {}", s.line, s.reason);
        if self.summary_only {
            return Ok(());
        }
        if self.json {
            #[derive(serde::Serialize)]
            struct JsonSkipped<'a> {
                #[serde(rename = "type")]
                kind: &'static str,
                #[serde(flatten)]
                skipped: &'a Skipped,
            }
            let line = JsonSkipped {
                kind: "skipped",
                skipped: s,
            };
            serde_json::to_writer(&mut self.out, &line)?;
            return self.out.write_all(b"\n");
        }
        self.buf.clear();
        super::dump::format_skipped(s, &mut self.buf);
        self.buf.push('\n');
        crate::untrusted::write_guarded(&mut self.out, &self.buf, false)
    }

    /// Writes the buffer: JSON exactly, text through the terminal guard.
    fn write_text(&mut self, json: bool) -> std::io::Result<()> {
        if json {
            self.out.write_all(self.buf.as_bytes())
        } else {
            crate::untrusted::write_guarded(&mut self.out, &self.buf, false)
        }
    }

    fn summary(
        &mut self,
        mut checker: Checker,
        shown: &str,
        skipped: &[Skipped],
    ) -> std::io::Result<()> {
        // What only the end tells: deadlines never met, how each session ended.
        let from = checker.finish(None);
        if !self.summary_only {
            let end = &checker.findings()[from..];
            if self.json {
                json_findings(end, &mut self.out)?;
            } else if !end.is_empty() {
                self.buf.clear();
                self.buf.push_str("\nat the end of the input:\n");
                text_findings(end, None, &mut self.buf);
                self.write_text(false)?;
            }
        }
        let checked = checker.into_checked(None);
        if !skipped.is_empty() {
            self.buf.clear();
            let lost = skipped.iter().filter(|s| !s.torn_tail).count();
            if self.json {
                let v = serde_json::json!({
                    "type": "input",
                    "file": shown,
                    "skipped": skipped.len(),
                    "lost": lost,
                    "lines": skipped.iter().map(|s| s.line).collect::<Vec<_>>(),
                });
                self.buf.push_str(&v.to_string());
                self.buf.push('\n');
            } else {
                let lines: Vec<String> = skipped.iter().map(|s| s.line.to_string()).collect();
                let _ = writeln!(
                    self.buf,
                    "\n{shown}: {} line(s) skipped (line {}){}",
                    skipped.len(),
                    lines.join(", "),
                    if lost == 0 {
                        ", a torn last line only"
                    } else {
                        ""
                    }
                );
            }
            self.write_text(self.json)?;
        }
        let findings = checked.findings;
        if !self.summary_only {
            self.buf.clear();
            repeats(&findings, self.json, &mut self.buf);
            self.write_text(self.json)?;
        }
        for s in &checked.decoder.finish() {
            self.buf.clear();
            let counts = severity_counts(&findings, s.label.as_deref());
            if self.json {
                json_summary(s, counts, &mut self.buf);
            } else {
                text_summary(s, counts, &mut self.buf);
            }
            self.write_text(self.json)?;
        }
        self.out.flush()
    }
}

const INDENT: &str = "                 ";

fn text_line(ev: &Event, d: &Decoded, dec: &Decoder, out: &mut String) {
    super::dump::format_event(ev, ev.t, out);
    if let Some(m) = &d.msg {
        out.push_str("  [");
        out.push_str(m.kind());
        out.push(']');
    }
    out.push('\n');
    if d.moved
        && let Some(p) = dec.position_string(d.session)
    {
        let _ = writeln!(out, "{INDENT}= {p}");
    }
}

/// A time since the start as the transcript's time column shows it: `12.345678`.
struct TranscriptTime(u64);

impl std::fmt::Display for TranscriptTime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}.{:06}",
            self.0 / 1_000_000_000,
            (self.0 / 1000) % 1_000_000
        )
    }
}

/// Findings under the line they were found at: `error[UCI-...] engine: ...`, with the line
/// they are about when it is an earlier one (a deadline passes later than its request), by
/// the time the transcript shows it at.
fn text_findings(findings: &[Finding], at_seq: Option<u64>, out: &mut String) {
    for f in findings {
        let _ = write!(
            out,
            "{INDENT}{}[{}] {}: {}",
            f.severity.as_str(),
            f.rule,
            f.side.as_str(),
            f.message
        );
        if at_seq != Some(f.seq) {
            // Named by the time the transcript shows it at.
            let _ = write!(out, " (the line at {})", TranscriptTime(f.t_ns));
        }
        out.push('\n');
    }
}

/// The rules broken again after the finding shown (folded, as `check` folds them): the
/// transcript showed the first time; here is how often, and the last line.
fn repeats(findings: &[Finding], json: bool, out: &mut String) {
    #[derive(serde::Serialize)]
    struct JsonRepeats<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        rule: crate::rules::RuleId,
        #[serde(skip_serializing_if = "Option::is_none")]
        session: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        line: Option<u64>,
        seq: u64,
        count: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        last_line: Option<u64>,
    }
    let folded: Vec<&Finding> = findings.iter().filter(|f| f.count > 1).collect();
    if folded.is_empty() {
        return;
    }
    if !json {
        out.push_str("\nbroken again after the line shown (--every shows each time):\n");
    }
    for f in folded {
        if json {
            let r = JsonRepeats {
                kind: "repeats",
                rule: f.rule,
                session: f.session.as_deref(),
                line: f.line,
                seq: f.seq,
                count: f.count,
                last_line: f.last_line,
            };
            if let Ok(s) = serde_json::to_string(&r) {
                out.push_str(&s);
                out.push('\n');
            }
        } else {
            // Named by time, as the transcript names lines.
            let _ = writeln!(
                out,
                "{INDENT}{}[{}] {}: {} times, the first at {}",
                f.severity.as_str(),
                f.rule,
                f.side.as_str(),
                f.count,
                TranscriptTime(f.t_ns)
            );
        }
    }
}

/// `{"type":"finding", ...}` records: `check`'s findings, as its report gives them.
fn json_findings(findings: &[Finding], out: &mut impl Write) -> std::io::Result<()> {
    #[derive(serde::Serialize)]
    struct JsonFinding<'a> {
        #[serde(rename = "type")]
        kind: &'static str,
        #[serde(flatten)]
        finding: &'a Finding,
    }
    for f in findings {
        serde_json::to_writer(
            &mut *out,
            &JsonFinding {
                kind: "finding",
                finding: f,
            },
        )?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Findings of the session labelled `label` by severity: chat, note, warning, error.
fn severity_counts(findings: &[Finding], label: Option<&str>) -> [usize; 4] {
    let mut c = [0; 4];
    for f in findings.iter().filter(|f| f.session.as_deref() == label) {
        c[f.severity as usize] += usize::try_from(f.count).unwrap_or(usize::MAX);
    }
    c
}

/// The version of the JSON output (docs/decode-output.md): the first line says it.
const JSON_SCHEMA: &str = "kibitzer-decode/3";

/// One transcript line of `--json`. Fields in alphabetical order, as the first versions
/// printed them; serialized straight to text, without building a `Value` per line.
#[derive(serde::Serialize)]
struct JsonLine<'a> {
    /// The message in its canonical text form (what the first versions gave alone).
    #[serde(skip_serializing_if = "Option::is_none")]
    decoded: Option<Canonical<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    moved: bool,
    /// The message's typed fields.
    #[serde(skip_serializing_if = "Option::is_none")]
    msg: Option<&'a crate::protocol::Msg>,
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    protocol: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proxy: Option<&'static str>,
    seq: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    session: Option<&'a str>,
    src: Source,
    t: u64,
    text: &'a str,
    #[serde(rename = "type")]
    kind_of_line: &'static str,
}

/// A message's canonical text, written into the JSON string as it is formatted.
struct Canonical<'a>(&'a crate::protocol::Msg);

impl serde::Serialize for Canonical<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}

/// Serializes straight into the output: no text per line to build and copy.
fn json_line(ev: &Event, d: &Decoded, dec: &Decoder, out: &mut impl Write) -> std::io::Result<()> {
    let line = JsonLine {
        decoded: d.msg.as_ref().map(Canonical),
        kind: d.msg.as_ref().map(|m| m.kind()),
        moved: d.moved,
        msg: d.msg.as_ref(),
        position: d.moved.then(|| dec.position_string(d.session)).flatten(),
        protocol: d.msg.as_ref().map(|m| m.protocol().name()),
        proxy: ev.kind.map(|k| k.as_str()),
        seq: ev.seq,
        session: ev.session.as_deref(),
        src: ev.src,
        t: ev.t,
        text: &ev.text,
        kind_of_line: "line",
    };
    // serde_json hands write errors (a closed pipe among them) back as they were.
    serde_json::to_writer(&mut *out, &line)?;
    out.write_all(b"\n")
}

use crate::units::secs;

/// `  verdict (line 11): illegal move aaaa by sf1; kibitzer agrees: ...`
pub(crate) fn verdict_lines(s: &Session, out: &mut String) {
    use crate::session::verdicts::VerdictCheck;
    for v in &s.verdicts {
        let line = v.line.map(|l| format!(" (line {l})")).unwrap_or_default();
        let _ = write!(out, "  runner's verdict{line}: {}", v.verdict.kind.as_str());
        if let Some(m) = &v.verdict.mv {
            let _ = write!(out, " {m}");
        }
        if let Some(e) = &v.verdict.engine {
            let _ = write!(out, " by {e}");
        }
        match &v.kibitzer {
            Some(VerdictCheck::Agrees(why)) => {
                let _ = write!(out, "; kibitzer agrees: {why}");
            }
            Some(VerdictCheck::Disagrees(why)) => {
                let _ = write!(out, "; kibitzer DISAGREES: {why}");
            }
            None => {}
        }
        let _ = writeln!(out, "\n    \"{}\"", v.text);
    }
}

fn text_summary(s: &Session, counts: [usize; 4], out: &mut String) {
    let label = s
        .label
        .as_deref()
        .map(|l| format!(" [{l}]"))
        .unwrap_or_default();
    if s.is_runner() {
        // The tool's own messages are no protocol session: no handshake, no engine.
        let _ = writeln!(
            out,
            "\nrunner {}: {} message(s) of its own, {} verdict(s) on engines",
            s.label
                .as_deref()
                .unwrap_or_default()
                .trim_matches(['[', ']']),
            s.counts[3],
            s.verdicts.len()
        );
        verdict_lines(s, out);
        return;
    }
    let _ = write!(out, "\nsession{label}: ");
    match s.protocol {
        Some(p) => {
            let _ = write!(out, "{p} ({})", s.protocol_reason);
        }
        None => out.push_str("protocol unknown"),
    }
    if let Some(v) = s.version {
        let _ = write!(out, ", version {v}");
    }
    out.push('\n');
    let engine = s.engine_name.as_deref().unwrap_or("(no name)");
    let author = s
        .engine_author
        .as_deref()
        .map(|a| format!(" by {a}"))
        .unwrap_or_default();
    let hs = match s.handshake {
        Handshake::NotStarted => "not seen",
        Handshake::Started(_) => "NOT finished",
        Handshake::Done(_) => "done",
    };
    let _ = writeln!(out, "  engine: {engine}{author}; handshake {hs}");
    let [gui, eng, err, proxy] = s.counts;
    let [chat, notes, warnings, errors] = counts;
    let _ = writeln!(
        out,
        "  lines: {gui} gui, {eng} engine, {err} stderr, {proxy} proxy; {errors} error(s), {warnings} warning(s), {notes} note(s), {chat} chat"
    );
    let _ = writeln!(
        out,
        "  games: {}, searches: {}",
        s.games.len(),
        s.search_count
    );
    for (i, g) in s.games.iter().enumerate() {
        let result = g
            .outcome
            .as_ref()
            .map_or("*".to_owned(), |o| format!("{} ({})", o.result, o.reason));
        let unknown = g
            .board_unknown
            .as_deref()
            .map(|u| format!(", board unknown: {u}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "    game {}: {} {} plies, result {result}{unknown}",
            i + 1,
            g.variant,
            g.plies.len()
        );
    }
    verdict_lines(s, out);
    let end = s.last.map_or(0, |a| a.t);
    let mut any = false;
    for o in s.open_obligations() {
        any = true;
        let _ = writeln!(
            out,
            "  open: engine owes {} since {} (for '{}' at seq {})",
            o.owed,
            secs(end.saturating_sub(o.opened.t)),
            o.request,
            o.opened.seq
        );
    }
    if any {
        match s.last_engine {
            Some(l) => {
                let _ = writeln!(
                    out,
                    "  last engine output {} before the end",
                    secs(end.saturating_sub(l.t))
                );
            }
            None => out.push_str("  the engine never wrote to stdout\n"),
        }
    } else {
        out.push_str("  open: nothing owed at the end\n");
    }
}

fn json_summary(s: &Session, counts: [usize; 4], out: &mut String) {
    let end = s.last.map_or(0, |a| a.t);
    let open: Vec<_> = s
        .open_obligations()
        .map(|o| {
            serde_json::json!({
                "request": o.request,
                "answer": o.owed.to_string(),
                "since_seq": o.opened.seq,
                "waiting_ns": end.saturating_sub(o.opened.t),
            })
        })
        .collect();
    let games: Vec<_> = s
        .games
        .iter()
        .map(|g| {
            serde_json::json!({
                "variant": g.variant,
                "chess960": g.chess960,
                "start": g.start,
                "plies": g.plies.len(),
                "moves": g.plies.iter().map(|p| p.text()).collect::<Vec<_>>(),
                "result": g.outcome.as_ref().map(|o| o.result.as_str()),
                "board_unknown": g.board_unknown,
            })
        })
        .collect();
    let v = serde_json::json!({
        "type": "summary",
        "session": s.label,
        "protocol": s.protocol.map(|p| p.name()),
        "protocol_reason": s.protocol_reason,
        "version": s.version,
        "engine": s.engine_name,
        "author": s.engine_author,
        "handshake": s.handshake,
        "counts": { "gui": s.counts[0], "engine": s.counts[1], "stderr": s.counts[2], "proxy": s.counts[3] },
        "findings": { "chat": counts[0], "note": counts[1], "warning": counts[2], "error": counts[3] },
        "games": games,
        "searches": s.search_count,
        "open": open,
        "runner": s.is_runner(),
        "verdicts": s.verdicts,
    });
    out.push_str(&v.to_string());
    out.push('\n');
}
