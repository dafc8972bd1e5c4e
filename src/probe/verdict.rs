//! The probe's recording read back and judged by the one judge (the same decoder, rules and
//! hang diagnosis as `kibitzer check`), each finding and hang verdict placed in the step whose
//! lines it is on.

use super::run::{Outcome, StepRun, Timeouts};
use crate::protocol::Protocol;
use crate::protocol::c2w::EngineProfile;
use crate::recording::{ProxyKind, Source};
use crate::replay::analysis;
use crate::rules::{CheckOptions, Finding, HangVerdict, Profile};
use std::path::Path;

/// The deadlines the judge holds the engine to: cutechess's, tightened to the probe's waits
/// so that every wait the probe gives up on is also a timeout finding.
pub fn profile(t: &Timeouts) -> Profile {
    let base = Profile::default_profile();
    let cap =
        |d: Option<std::time::Duration>, to: std::time::Duration| Some(d.map_or(to, |d| d.min(to)));
    Profile {
        name: "probe",
        uciok: cap(base.uciok, t.handshake),
        ping: cap(base.ping, t.ready),
        after_stop: cap(base.after_stop, t.answer),
        features: cap(base.features, t.handshake),
        quit: cap(base.quit, t.quit),
        ..base
    }
}

/// What the judge said, step by step.
pub struct Judged {
    /// Per step (same order as the runs): findings and hang verdicts on its lines, and the
    /// recording lines it spans.
    pub steps: Vec<StepJudged>,
    /// Findings before the first step (the engine's start) or after the last.
    pub outside: Vec<Finding>,
    pub hangs_outside: Vec<HangVerdict>,
    pub engine_name: Option<String>,
    pub engine_author: Option<String>,
    /// The last lines of the engine's stderr, per start (1 the first).
    pub stderr: std::collections::BTreeMap<u32, Vec<String>>,
}

/// Lines of an engine's stderr the card shows: enough for a Python traceback's last frames
/// and its exception, or an assertion with its location.
const STDERR_TAIL: usize = 8;

#[derive(Default)]
pub struct StepJudged {
    pub first_line: Option<u64>,
    pub last_line: Option<u64>,
    pub findings: Vec<Finding>,
    pub hangs: Vec<HangVerdict>,
}

/// Reads the recording at `path` and judges it under `profile` (and the `.c2w` profile the
/// GUI side followed, when it followed one).
pub fn judge(
    path: &Path,
    protocol: Protocol,
    profile: &Profile,
    c2w: Option<&EngineProfile>,
    runs: &[StepRun],
) -> anyhow::Result<Judged> {
    let events = crate::replay::read_back(path)?;
    // Where each step begins: the line of its note.
    let mut starts: Vec<u64> = Vec::new();
    let mut last_line = 0;
    let mut stderr: std::collections::BTreeMap<u32, Vec<String>> = Default::default();
    for (ev, line) in &events {
        if ev.src == Source::Stderr {
            let tail = stderr.entry(start_of(ev)).or_default();
            if tail.len() == STDERR_TAIL {
                tail.remove(0);
            }
            tail.push(ev.text.trim_end().to_owned());
        }
        let Some(line) = *line else { continue };
        last_line = line;
        if ev.src == Source::Proxy
            && ev.kind == Some(ProxyKind::Probe)
            && matches!(
                ev.probe.as_deref(),
                Some(crate::recording::ProbeFact::Step { .. })
            )
        {
            starts.push(line);
        }
    }
    let opts = CheckOptions {
        protocol: Some(protocol),
        c2w: c2w.cloned(),
        ..CheckOptions::new(profile.clone())
    };
    // Each start of the engine is judged by itself, up to its own end: what the first start
    // owed when it died is not also overdue at the end of the last.
    let mut by_start: std::collections::BTreeMap<u32, Vec<_>> = Default::default();
    for e in events {
        by_start.entry(start_of(&e.0)).or_default().push(e);
    }
    let mut analyses = by_start
        .into_values()
        .map(|evs| analysis::analyse(evs, &opts));
    let Some(mut a) = analyses.next() else {
        anyhow::bail!("the recording {} holds no event", path.display());
    };
    for more in analyses {
        a.findings.extend(more.findings);
        a.hangs.extend(more.hangs);
    }
    let mut steps: Vec<StepJudged> = runs.iter().map(|_| StepJudged::default()).collect();
    for (i, s) in starts.iter().enumerate() {
        if let Some(j) = ran_index(runs, i)
            && let Some(st) = steps.get_mut(j)
        {
            st.first_line = Some(*s);
            st.last_line = Some(starts.get(i + 1).map_or(last_line, |n| n - 1));
        }
    }
    let step_of = |line: Option<u64>| -> Option<usize> {
        let line = line?;
        let i = starts.partition_point(|s| *s <= line);
        i.checked_sub(1).and_then(|i| ran_index(runs, i))
    };
    let mut outside = Vec::new();
    // Replay's diagnostics say what a replay would need, not a protocol fault: `check` leaves
    // them out unless asked for by id, and so does the probe.
    for f in a.findings.into_iter().filter(|f| opts.filter.keeps(f)) {
        match step_of(f.line).and_then(|i| steps.get_mut(i)) {
            Some(st) => st.findings.push(f),
            None => outside.push(f),
        }
    }
    let mut hangs_outside = Vec::new();
    for h in a.hangs {
        match step_of(h.request_line).and_then(|i| steps.get_mut(i)) {
            Some(st) => st.hangs.push(h),
            None => hangs_outside.push(h),
        }
    }
    Ok(Judged {
        steps,
        outside,
        hangs_outside,
        engine_name: a.session.engine_name.clone(),
        engine_author: a.session.engine_author.clone(),
        stderr,
    })
}

/// The start of the engine an event belongs to: a restart's lines are the session `start N`.
fn start_of(ev: &crate::recording::Event) -> u32 {
    ev.session
        .as_deref()
        .and_then(|s| s.strip_prefix("start "))
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
}

/// The index among all steps of the `n`th step that ran (steps not run write no note).
fn ran_index(runs: &[StepRun], n: usize) -> Option<usize> {
    runs.iter()
        .enumerate()
        .filter(|(_, r)| !matches!(r.outcome, Outcome::NotRun(_)))
        .nth(n)
        .map(|(i, _)| i)
}

/// A finding that makes a step violated: warnings and errors; notes and chat are listed but
/// do not fail a step.
pub fn violates(f: &Finding) -> bool {
    f.severity.counts_against()
}
