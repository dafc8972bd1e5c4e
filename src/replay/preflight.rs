//! Drift between the recorded engine and the replayed one, and recorded setups that cannot
//! give the same searches twice: warnings, never a verdict of their own.

use super::analysis::Analysis;
use super::report::Warning;

/// Warnings about the original alone, known before anything runs.
pub fn before(o: &Analysis, deterministic: bool) -> Vec<Warning> {
    o.findings
        .iter()
        .filter(|f| f.rule == "REPLAY-NONDETERMINISTIC-SETUP")
        .map(|f| Warning {
            rule: "REPLAY-NONDETERMINISTIC-SETUP",
            message: if deterministic {
                format!("{} (--deterministic rewrites what it can)", f.message)
            } else {
                format!("{}; --deterministic rewrites these", f.message)
            },
        })
        .collect()
}

/// Identity, options and features of the replayed engine against the recorded one.
pub fn after(o: &Analysis, r: &Analysis) -> Vec<Warning> {
    let (a, b) = (&o.session, &r.session);
    let mut out = Vec::new();
    if a.engine_name.is_some() && b.engine_name.is_some() && a.engine_name != b.engine_name {
        out.push(Warning {
            rule: "REPLAY-BINARY-CHANGED",
            message: format!(
                "the recorded engine was `{}`, this one is `{}`",
                a.engine_name.as_deref().unwrap_or_default(),
                b.engine_name.as_deref().unwrap_or_default()
            ),
        });
    }
    let mut drift = Vec::new();
    for x in &a.options {
        match b.option(&x.name) {
            None => drift.push(format!("option `{}` is gone", x.name)),
            Some(y) if y != x => drift.push(format!(
                "option `{}` changed: `{}` -> `{}`",
                x.name,
                describe_option(x),
                describe_option(y)
            )),
            Some(_) => {}
        }
    }
    for y in &b.options {
        if a.option(&y.name).is_none() {
            drift.push(format!("option `{}` is new", y.name));
        }
    }
    let mut features: Vec<(&str, &str)> = a
        .features
        .iter()
        .map(|f| (f.name.as_str(), f.value.as_str()))
        .collect();
    features.dedup();
    for (name, value) in features {
        match b.feature(name) {
            None => drift.push(format!("feature `{name}` is no longer announced")),
            Some(f) if f.value != value && name != "myname" => {
                drift.push(format!("feature {name}={value} is now {name}={}", f.value))
            }
            Some(_) => {}
        }
    }
    if !drift.is_empty() {
        out.push(Warning {
            rule: "REPLAY-OPTION-DRIFT",
            message: drift.join("; "),
        });
    }
    out
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
