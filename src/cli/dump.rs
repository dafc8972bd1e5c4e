use crate::input::ControlFlow;
use crate::input::{Item, Skipped};
use crate::recording::{Eol, Event, ProxyKind};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;

/// Print a recording (or any supported log) as a readable transcript, one line per event.
///
/// Columns: seconds since start (or since the previous event), direction
/// (`->` GUI to engine, `<-` engine to GUI, `<!` engine stderr, `**` proxy), text.
#[derive(Args)]
pub struct DumpArgs {
    /// Recording or log file to print (`-` for standard input)
    file: PathBuf,
    /// Read the input as this format instead of detecting it: recording, or an importer name
    /// (see `kibitzer import --help`)
    #[arg(long, value_name = "NAME")]
    input_format: Option<String>,
    /// Earlier spelling of `--input-format`
    #[arg(long, value_name = "NAME", hide = true)]
    format: Option<String>,
    /// Write to FILE instead of standard output
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Show the time since the previous event instead of since the start
    #[arg(long)]
    since_prev: bool,
    /// Leave out proxy events (spawn, EOF, exit, signals)
    #[arg(long)]
    no_proxy: bool,
    /// Show the proxy's samples of the engine's processes, and each thread of a capture
    /// (without it a capture is one line and samples are left out)
    #[arg(long)]
    samples: bool,
}

pub fn run(a: DumpArgs) -> Result<i32> {
    let format = crate::input::input_format(a.input_format.as_deref(), a.format.as_deref())?;
    let mut out = super::output::Sink::open(a.output.as_deref(), &a.file)?;
    // Recordings and logs stream: dumping a multi-gigabyte file needs no memory.
    let input = crate::input::Input::open_once(&a.file, format)?;
    let shown = input.shown().to_owned();
    let mut prev_t = 0u64;
    let mut line = String::new();
    let (outcome, stopped) = input.read(|item| {
        line.clear();
        match item {
            Item::Event(e, _) => {
                if a.no_proxy && !e.is_traffic() {
                    return Ok(ControlFlow::Continue(()));
                }
                let capture = e.sample.as_ref().is_some_and(|s| s.capture.is_some());
                if e.kind == Some(ProxyKind::Sample) && !capture && !a.samples {
                    return Ok(ControlFlow::Continue(()));
                }
                let shown_t = if a.since_prev {
                    e.t.saturating_sub(prev_t)
                } else {
                    e.t
                };
                prev_t = e.t;
                format_event(e, shown_t, &mut line);
                if a.samples {
                    format_capture(e, &mut line);
                }
            }
            Item::Skipped(s) => {
                crate::eprintln_safe!("{shown}:{}: {}", s.line, s.reason);
                format_skipped(s, &mut line);
            }
        }
        line.push('\n');
        crate::untrusted::write_guarded(&mut out, &line, false).map(ControlFlow::Continue)
    })?;
    for u in &outcome.unclassified {
        crate::eprintln_safe!(
            "{shown}:{}: unclassified line ({}): {}",
            u.line,
            u.reason,
            u.text
        );
    }
    match stopped {
        Ok(()) => {}
        // `kibitzer dump x | head` is normal use, not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(outcome.status(0)),
        Err(e) => return Err(e.into()),
    }
    out.finish()?;
    Ok(outcome.status(0))
}

/// `           ?  !! line 12 skipped: malformed event: ...`: where an unreadable line was.
pub fn format_skipped(s: &Skipped, out: &mut String) {
    use std::fmt::Write as _;
    let _ = write!(out, "{:>12} !! line {} skipped: {}", "?", s.line, s.reason);
}

/// `t` (ns) as seconds with six decimals, the whole part right-aligned in five columns:
/// `format!("{:>5}.{:06}")` without the formatting machinery, since it runs on every line.
pub fn push_seconds(out: &mut String, t: u64) {
    let mut whole = itoa::Buffer::new();
    let whole = whole.format(t / 1_000_000_000);
    for _ in whole.len()..5 {
        out.push(' ');
    }
    out.push_str(whole);
    out.push('.');
    let mut frac = itoa::Buffer::new();
    let frac = frac.format((t / 1000) % 1_000_000);
    for _ in frac.len()..6 {
        out.push('0');
    }
    out.push_str(frac);
}

/// `   12.345678 -> position startpos moves e2e4`
pub fn format_event(e: &Event, t: u64, out: &mut String) {
    use std::fmt::Write as _;
    push_seconds(out, t);
    out.push(' ');
    if let Some(s) = &e.session {
        let _ = write!(out, "[{s}] ");
    }
    out.push_str(e.src.arrow());
    out.push(' ');
    if let Some(kind) = e.kind {
        out.push_str(kind.as_str());
        if !e.text.is_empty() {
            out.push_str(": ");
            push_escaped(out, &e.line_bytes());
        }
        if let Some(p) = e.pid {
            let _ = write!(out, " [pid {p}]");
        }
        if let Some(c) = e.code {
            let _ = write!(out, " [code {c}]");
        }
        if let Some(s) = &e.signal {
            let _ = write!(out, " [{s}]");
        }
        if let Some(r) = &e.result {
            let _ = write!(out, " [{r}]");
        }
        if let Some(sample) = &e.sample {
            out.push_str(" · ");
            push_escaped_str(out, &sample.summary());
        }
        return;
    }
    if e.hex.is_some() {
        push_escaped(out, &e.line_bytes());
    } else {
        push_escaped_str(out, &e.text);
    }
    match (e.eol, e.more) {
        (_, true) => out.push_str(" [continues]"),
        (Eol::Crlf, _) => out.push_str(" [CRLF]"),
        (Eol::None, _) => out.push_str(" [no newline]"),
        (Eol::Lf, _) => {}
    }
}

/// A capture's threads and `--on-hang` output, one indented line each, after its event.
fn format_capture(e: &Event, out: &mut String) {
    let Some(c) = e.sample.as_ref().and_then(|s| s.capture.as_ref()) else {
        return;
    };
    for th in &c.threads {
        out.push_str("\n            thread ");
        push_escaped_str(out, &th.summary());
        for frame in th.kernel_stack.iter().flat_map(|k| k.lines()) {
            out.push_str("\n              ");
            push_escaped_str(out, frame);
        }
    }
    if let Some(cmd) = &c.command {
        out.push_str("\n            --on-hang ");
        push_escaped_str(out, cmd);
        if let Some(st) = &c.command_status {
            out.push_str(": ");
            push_escaped_str(out, st);
        }
        for l in c.command_output.iter().flat_map(|o| o.lines()) {
            out.push_str("\n              ");
            push_escaped_str(out, l);
        }
    }
}

/// Control and format characters and invalid UTF-8 shown as escapes (the one output-safety
/// rule of [`crate::untrusted`]), so one event is one output line and nothing reaches the
/// terminal raw.
fn push_escaped(out: &mut String, bytes: &[u8]) {
    crate::untrusted::push_escaped_bytes(out, bytes);
}

fn push_escaped_str(out: &mut String, s: &str) {
    crate::untrusted::push_escaped(out, s);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recording::{ProxyKind, Source};

    #[test]
    fn seconds_read_as_the_format_macro_writes_them() {
        for t in [
            0,
            999,
            1_000,
            1_500_000_000,
            99_999_999_999_999,
            123_456_789_012_345,
            u64::MAX,
        ] {
            let mut s = String::new();
            push_seconds(&mut s, t);
            assert_eq!(
                s,
                format!("{:>5}.{:06}", t / 1_000_000_000, (t / 1000) % 1_000_000)
            );
        }
    }

    #[test]
    fn formats_lines_and_proxy_events() {
        let mut s = String::new();
        format_event(
            &Event::line(1, 1_500_000_000, Source::Gui, "uci"),
            1_500_000_000,
            &mut s,
        );
        assert_eq!(s, "    1.500000 -> uci");
        s.clear();
        let e = Event::from_bytes(2, 0, Source::Engine, b"a\x00b\xff", Eol::Crlf);
        format_event(&e, 0, &mut s);
        assert_eq!(s, "    0.000000 <- a\\x00b\\xff [CRLF]");
        s.clear();
        let mut x = Event::proxy(3, 0, ProxyKind::EngineExit, "engine killed by SIGKILL (9)");
        x.signal = Some("SIGKILL".into());
        format_event(&x, 0, &mut s);
        assert_eq!(
            s,
            "    0.000000 ** engine_exit: engine killed by SIGKILL (9) [SIGKILL]"
        );
    }
}
