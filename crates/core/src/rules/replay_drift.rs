//! `replay`'s rules over two sessions: drift between the recorded engine and the replayed one,
//! and recorded setups that cannot give the same searches twice. Warnings, never a verdict of
//! their own; judged here, with the other rules, from the two decoded sessions `replay` hands
//! over.

use crate::rules::catalogue::{RuleId, Side};
use crate::rules::{Finding, Place};
use crate::session::{Handshake, Session};

/// What the original alone tells, known before anything runs: the judge's findings of the
/// `REPLAY-NONDETERMINISTIC-SETUP` rule among `original` (the original's findings), each
/// saying what `--deterministic` does about it.
pub fn before(original: &[Finding], deterministic: bool) -> Vec<Finding> {
    original
        .iter()
        .filter(|f| f.rule == RuleId::ReplayNondeterministicSetup)
        .map(|f| Finding {
            message: if deterministic {
                format!("{} (--deterministic rewrites what it can)", f.message)
            } else {
                format!("{}; --deterministic rewrites these", f.message)
            },
            ..f.clone()
        })
        .collect()
}

/// Identity, options and features of the replayed engine (`b`) against the recorded one:
/// findings placed where the replayed engine finished introducing itself.
pub fn drift(a: &Session, b: &Session) -> Vec<Finding> {
    let at = match b.handshake {
        Handshake::Done(at) | Handshake::Started(at) => Place {
            line: None,
            seq: at.seq,
            t: at.t,
        },
        Handshake::NotStarted => Place::default(),
    };
    let finding = |id, message| Finding::new(id, Some(Side::Engine), at, None, message);
    let mut out = Vec::new();
    if a.engine_name.is_some() && b.engine_name.is_some() && a.engine_name != b.engine_name {
        out.push(finding(
            RuleId::ReplayBinaryChanged,
            format!(
                "the recorded engine was `{}`, this one is `{}`",
                a.engine_name.as_deref().unwrap_or_default(),
                b.engine_name.as_deref().unwrap_or_default()
            ),
        ));
    }
    let mut drift = Vec::new();
    let gone: Vec<String> = a
        .options
        .iter()
        .filter(|x| b.option(&x.name).is_none())
        .map(|x| format!("`{}`", x.name))
        .collect();
    if !gone.is_empty() {
        drift.push(format!(
            "options gone: {}",
            shorten(&gone.iter().collect::<Vec<_>>())
        ));
    }
    let new: Vec<String> = b
        .options
        .iter()
        .filter(|y| a.option(&y.name).is_none())
        .map(|y| format!("`{}`", y.name))
        .collect();
    if !new.is_empty() {
        drift.push(format!(
            "options new: {}",
            shorten(&new.iter().collect::<Vec<_>>())
        ));
    }
    for x in &a.options {
        match b.option(&x.name) {
            None => {}
            Some(y) if y != x => drift.push(format!(
                "option `{}` changed: `{}` -> `{}`",
                x.name,
                describe_option(x),
                describe_option(y)
            )),
            Some(_) => {}
        }
    }
    // A feature may be announced several times (`option=...` once per option): compared as
    // sets of name=value.
    let set = |s: &Session| -> Vec<String> {
        let mut v: Vec<String> = s
            .features
            .iter()
            .filter(|f| f.name != "done")
            .map(|f| format!("{}={}", f.name, f.value))
            .collect();
        v.sort();
        v.dedup();
        v
    };
    let (fa, fb) = (set(a), set(b));
    let gone: Vec<&String> = fa.iter().filter(|f| !fb.contains(f)).collect();
    let new: Vec<&String> = fb.iter().filter(|f| !fa.contains(f)).collect();
    for (what, list) in [("no longer announced", gone), ("newly announced", new)] {
        if !list.is_empty() {
            drift.push(format!("features {what}: {}", shorten(&list)));
        }
    }
    if !drift.is_empty() {
        out.push(finding(RuleId::ReplayOptionDrift, drift.join("; ")));
    }
    out
}

/// The first few of a list, and how many more.
fn shorten(list: &[&String]) -> String {
    const SHOWN: usize = 4;
    let mut s = list
        .iter()
        .take(SHOWN)
        .map(|x| x.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    if list.len() > SHOWN {
        s.push_str(&format!(" and {} more", list.len() - SHOWN));
    }
    s
}

fn describe_option(o: &crate::protocol::uci::OptionDecl) -> String {
    let mut s = format!("{:?}", o.kind).to_lowercase();
    if let Some(d) = &o.default {
        s.push_str(&format!(" default {d}"));
    }
    if let (Some(min), Some(max)) = (&o.min, &o.max) {
        s.push_str(&format!(" min {min} max {max}"));
    }
    s
}
