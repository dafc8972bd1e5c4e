//! The judge's rules of the bytes themselves and of the proxy's own events (EOFs, exits,
//! kills, write errors), whatever the protocol.

use super::*;
use crate::session::{LineText, Session};

/// Rules of the bytes themselves, whatever the protocol.
pub(super) fn transport(
    tr: &mut Tracker,
    ev: &Event,
    facts: Option<LineText>,
    profile: &Profile,
    counts_for_flood: bool,
    out: &mut Out<'_>,
) {
    let facts = facts.unwrap_or_else(|| LineText::of(&ev.text));
    line_form(tr, ev, &facts, out);
    if ev.src != Source::Engine {
        return;
    }
    wrong_protocol(tr, ev, &facts, out);
    count_burst(tr, ev, out);
    if counts_for_flood {
        count_flood(tr, ev, profile, out);
    }
}

/// How the line is written: its ending, its length, its encoding, control characters.
fn line_form(tr: &mut Tracker, ev: &Event, facts: &LineText, out: &mut Out<'_>) {
    let who = if ev.src == Source::Gui {
        "GUI"
    } else {
        "engine"
    };
    if ev.eol == Eol::Crlf
        && tr.first(if ev.src == Source::Gui {
            "crlf-gui"
        } else {
            "crlf-engine"
        })
    {
        out.add(
            RuleId::XLineEnding,
            format!("the {who} ends lines with CR LF (reported once)"),
        );
    }
    if ev.more
        && tr.first(if ev.src == Source::Gui {
            "long-gui"
        } else {
            "long-engine"
        })
    {
        out.add(
            RuleId::XLineTooLong,
            format!(
                "the {who} sent a line longer than {} MiB, recorded in pieces (reported once)",
                crate::recording::PIECE_BYTES >> 20
            ),
        );
    }
    if ev.eol == Eol::None && !ev.more {
        out.add(
            RuleId::XLineNoTerminator,
            format!("the {who}'s last line has no line ending"),
        );
    }
    if ev.hex.is_some() && tr.first(RuleId::XNonUtf8) {
        out.add(
            RuleId::XNonUtf8,
            format!("the {who} sent bytes that are not UTF-8 (reported once)"),
        );
    }
    if facts.control && tr.first(RuleId::XControlChars) {
        out.add(
            RuleId::XControlChars,
            format!("the {who} sent control characters (reported once)"),
        );
    }
}

/// An engine line that speaks another protocol than the session's, or runs two together.
fn wrong_protocol(tr: &mut Tracker, ev: &Event, facts: &LineText, out: &mut Out<'_>) {
    match tr.protocol {
        Some(Protocol::Uci) => {
            if facts.padded && tr.first(RuleId::XLeadingWhitespace) {
                out.add(
                    RuleId::XLeadingWhitespace,
                    "a line with leading or trailing whitespace (legal in UCI, trips some GUIs; reported once)",
                );
            }
            // Two messages run together: `info ... bestmove e2e4`, `0readyok`.
            if let Some(k) = facts.ran_together {
                out.add(
                    RuleId::XLineInterleaved,
                    format!(
                        "`{}` inside another line: two messages ran together",
                        k.as_str()
                    ),
                );
            }
            if facts.cecp_answer && tr.first(RuleId::XProtocolMismatch) {
                out.add(
                    RuleId::XProtocolMismatch,
                    "the engine answers with CECP (`feature`) in a UCI session",
                );
            }
        }
        Some(Protocol::Cecp) => {
            let t = ev.text.trim();
            let lower = t.to_ascii_lowercase();
            // `Error (unknown command): protover` in CECP's own form is a protocol-1 engine,
            // which the spec still serves; a UCI engine refuses in its own words.
            let v1_refusal = t.starts_with("Error (")
                && t.split_once("):")
                    .is_some_and(|(_, c)| c.split_whitespace().next() == Some("protover"));
            let rejects_cecp = (lower.contains("unknown command") || lower.contains("error"))
                && (lower.contains("xboard") || lower.contains("protover"))
                && !v1_refusal;
            if (t == "uciok"
                || t.starts_with("id name ")
                || t.starts_with("option name ")
                || rejects_cecp)
                && tr.first(RuleId::XProtocolMismatch)
            {
                out.add(
                    RuleId::XProtocolMismatch,
                    "the engine answers with UCI in a CECP session",
                );
            }
        }
        _ => {}
    }
}

/// Buffered output arrives in blocks of the stdio buffer: many lines in one read whose bytes
/// add up to a multiple of 4 KiB.
fn count_burst(tr: &mut Tracker, ev: &Event, out: &mut Out<'_>) {
    let bytes = ev.text.len() as u64 + 1;
    if tr.burst.0 == ev.t {
        tr.burst.1 += bytes;
    } else {
        block_burst(tr, out);
        tr.burst = (ev.t, bytes);
    }
}

/// Floods: engine lines per second, over one-second windows.
fn count_flood(tr: &mut Tracker, ev: &Event, profile: &Profile, out: &mut Out<'_>) {
    let (start, n) = tr.flood_window;
    if ev.t.saturating_sub(start) >= 1_000_000_000 {
        tr.flood_window = (ev.t, 1);
    } else {
        tr.flood_window = (start, n + 1);
        if n + 1 > profile.flood_lines_per_second {
            let rule = if tr.protocol == Some(Protocol::Uci) {
                RuleId::UciInfoFlood
            } else {
                RuleId::XOutputFlood
            };
            if tr.first(rule) {
                out.add(
                    rule,
                    format!(
                        "more than {} lines within a second (reported once)",
                        profile.flood_lines_per_second
                    ),
                );
            }
        }
    }
}

/// The proxy's own observations: EOFs, exits, kills, write errors.
pub(super) fn proxy_event(
    tr: &mut Tracker,
    ev: &Event,
    sess: Option<&Session>,
    profile: &Profile,
    out: &mut Out<'_>,
) {
    let flag = |name: &str| sess.and_then(|s| s.feature_flag(name));
    let done = sess.is_some_and(|s| matches!(s.handshake, crate::session::Handshake::Done(_)));
    match ev.kind {
        Some(ProxyKind::Spawned | ProxyKind::EngineStarted) if tr.gui_protocol_lines == 0 => {
            tr.saw_start = true;
        }
        Some(ProxyKind::GuiEof) => tr.gui_eof = Some(ev.t),
        Some(ProxyKind::Sample) => {
            if let Some(sample) = &ev.sample {
                tr.add_sample(ev.t, sample);
                super::process::sampled(tr, ev.t, out);
            }
        }
        Some(ProxyKind::LogEnds) => tr.log_ends = Some(ev.t),
        Some(ProxyKind::EngineEof | ProxyKind::EngineExit)
            if tr.engine_eof.is_none() && tr.exit.is_none() && unflushed_until_exit(tr, ev.t) =>
        {
            ended_unflushed(tr, ev, out)
        }
        Some(ProxyKind::EngineEof) => tr.engine_eof = Some(ev.t),
        // The probe's `stop` or `isready` to an engine that died unannounced is the probe's
        // own write, which the engine's exit already says.
        Some(ProxyKind::WriteError)
            if ev.text.contains("to the engine")
                && !tr.gui_is_probe
                && tr.first(RuleId::XWriteToDeadPipe) =>
        {
            out.side = Some(Party::Gui);
            out.add(
                RuleId::XWriteToDeadPipe,
                format!(
                    "the GUI kept writing after the engine was gone: {}",
                    ev.text
                ),
            );
        }
        Some(ProxyKind::Signal)
            if ev.signal.as_deref() == Some("SIGINT")
                && flag("sigint") == Some(false)
                && tr.first(RuleId::CecpSigintDisabled) =>
        {
            out.side = Some(Party::Gui);
            out.add(
                RuleId::CecpSigintDisabled,
                "SIGINT sent to the engine although it set feature sigint=0",
            );
        }
        Some(ProxyKind::Signal | ProxyKind::Killed)
            if tr.done0 && !done && tr.first(RuleId::CecpDone0Honoured) =>
        {
            out.side = Some(Party::Gui);
            out.add(
                RuleId::CecpDone0Honoured,
                format!(
                    "the engine asked for time with feature done=0 and was stopped before done=1: {}",
                    ev.text
                ),
            );
        }
        Some(ProxyKind::LeftoverKilled | ProxyKind::Leftover)
            if tr.first(RuleId::XLeftoverProcess) =>
        {
            out.side = Some(Party::Engine);
            out.add(RuleId::XLeftoverProcess, ev.text.clone());
        }
        Some(ProxyKind::Probe) => probe_fact(ev, out),
        Some(ProxyKind::FloodStopped) => {
            out.side = Some(Party::Engine);
            out.add(RuleId::XOutputFloodStopped, ev.text.clone());
        }
        Some(ProxyKind::Killed) => killed(tr, ev, out),
        Some(ProxyKind::EngineExit) => engine_exit(tr, ev, profile, out),
        _ => {}
    }
}

/// The engine ended, and everything it wrote came only then.
fn ended_unflushed(tr: &mut Tracker, ev: &Event, out: &mut Out<'_>) {
    tr.engine_eof = Some(ev.t);
    if tr.first(RuleId::XOutputNotFlushed) {
        out.side = Some(Party::Engine);
        out.add(
            RuleId::XOutputNotFlushed,
            "everything the engine wrote arrived only when it exited: its stdout is buffered, not flushed per line",
        );
    }
    if ev.kind == Some(ProxyKind::EngineExit) {
        tr.exit = Some((ev.t, ev.text.clone()));
        tr.exit_signal = ev.signal.clone();
    }
}

/// What `kibitzer probe` set up and saw that the traffic alone cannot show, kept typed in its
/// recording: `check` on that recording finds what the probe found.
fn probe_fact(ev: &Event, out: &mut Out<'_>) {
    if let Some(crate::recording::ProbeFact::DepthAfterNew {
        limit,
        before,
        after,
    }) = ev.probe.as_deref()
        && after <= limit
    {
        out.side = Some(Party::Engine);
        out.add(
            RuleId::CecpNewState,
            format!(
                "after `new`, a search on a clock went no deeper than {after}, within the \
                 depth limit of {limit} set before `new` (which `new` removes); on the \
                 same clock before the limit it went to depth {before}"
            ),
        );
    }
}

/// The proxy killed the engine: after `quit`, or after the GUI was gone.
fn killed(tr: &mut Tracker, ev: &Event, out: &mut Out<'_>) {
    if tr.quit.is_some() {
        tr.killed_after_quit = true;
        quit_rule(tr, out, "it had to be killed after `quit`");
    } else if tr.gui_eof.is_some() && tr.first(RuleId::XOrphanProcess) {
        out.side = Some(Party::Gui);
        out.add(
            RuleId::XOrphanProcess,
            format!("the engine outlived the GUI: {}", ev.text),
        );
    }
}

/// The engine's process exited: how, and how long after `quit`.
fn engine_exit(tr: &mut Tracker, ev: &Event, profile: &Profile, out: &mut Out<'_>) {
    tr.exit = Some((ev.t, ev.text.clone()));
    tr.exit_signal = ev.signal.clone();
    // A GUI that sent `quit` and then killed the engine (fastchess and cutechess do,
    // after their wait) had to: as when the proxy kills it.
    if tr.quit.is_some() && matches!(ev.signal.as_deref(), Some("SIGKILL" | "SIGTERM")) {
        tr.killed_after_quit = true;
    }
    if let (Some(q), Some(limit)) = (tr.quit, profile.quit)
        && ev.t.saturating_sub(q.t) > u64::try_from(limit.as_nanos()).unwrap_or(u64::MAX)
    {
        let why = format!(
            "it exited {} after `quit` ({} profile allows {})",
            secs(ev.t.saturating_sub(q.t)),
            profile.name,
            secs(u64::try_from(limit.as_nanos()).unwrap_or(0))
        );
        quit_rule(tr, out, &why);
    }
}

/// The burst of engine lines that just ended, if its bytes are whole 4 KiB blocks.
pub(super) fn block_burst(tr: &mut Tracker, out: &mut Out<'_>) {
    let bytes = tr.burst.1;
    if bytes >= 4096 && bytes.is_multiple_of(4096) && tr.first(RuleId::XOutputNotFlushed) {
        out.side = Some(Party::Engine);
        out.add(
            RuleId::XOutputNotFlushed,
            format!(
                "{bytes} bytes of engine output arrived at once, a whole number of 4 KiB blocks: stdout is buffered, not flushed per line (reported once)"
            ),
        );
    }
}

/// The answers the GUI waited for came only when the engine exited, after `quit`: what a
/// block-buffered stdout does. Judged from the whole session: an engine whose answers came
/// in time before `quit` flushes them, whatever it prints as it exits.
pub(super) fn unflushed_until_exit(tr: &Tracker, t: u64) -> bool {
    let (burst_t, _) = tr.burst;
    tr.owed_at_quit
        && !tr.answered_before_quit
        && tr
            .quit
            .is_some_and(|q| burst_t != u64::MAX && burst_t >= q.t)
        && t.saturating_sub(burst_t) < 50_000_000
}

pub(super) fn quit_rule(tr: &mut Tracker, out: &mut Out<'_>, why: &str) {
    let rule = match tr.protocol {
        Some(Protocol::Cecp) => RuleId::CecpQuitNoExit,
        _ => RuleId::UciQuitNoExit,
    };
    if tr.first(rule) {
        out.side = Some(Party::Engine);
        out.add(
            rule,
            format!("the engine did not exit promptly after `quit`: {why}"),
        );
    }
}
