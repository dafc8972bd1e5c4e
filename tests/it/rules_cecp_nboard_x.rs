//! Every implemented CECP, NBoard and cross-protocol (`X-`) rule of docs/rules.md, through
//! `kibitzer check`: each fires on a short realistic session that breaks it, with the side and
//! severity of the catalogue, and stays silent on the closest correct session (its near miss).
//!
//! The cases are tables: a failure names the rule, the case and which transcript (firing or near
//! miss) went wrong, and a table reports all its failures at once. The coverage test reads
//! docs/rules.md: a rule marked implemented without a firing and a near-miss case here fails it.
//!
//! Rules of these families that docs/rules.md does not mark implemented, and are not tested:
//!
//! - not decidable from traffic: CECP-PONG-BEFORE-PENDING, X-STDERR-MIXED,
//!   X-PIPE-DEADLOCK

use crate::common;
use crate::rules_cecp_nboard_x_support::*;

use common::transcript::*;
use kibitzer::rules::Severity;
use kibitzer::rules::report::CheckReport;
use std::collections::BTreeMap;

use crate::rules_cecp_game::{
    cecp_game_state_cases, cecp_new_state_cases, cecp_output_termination_and_syntax_cases,
};
use crate::rules_cecp_handshake::{cecp_handshake_and_feature_cases, cecp_ping_cases};
use crate::rules_cecp_moves::{cecp_move_cases, cecp_time_control_cases};
use crate::rules_nboard::nboard_cases;
use crate::rules_x::{cross_protocol_timing_and_lifecycle_cases, cross_protocol_transport_cases};

// ---------------------------------------------------------------------------------------------
// Healthy sessions and coverage
// ---------------------------------------------------------------------------------------------

/// Findings of severity warning or error, as `RULE: message` lines.
fn serious(report: &CheckReport) -> Vec<String> {
    findings(report)
        .filter(|x| x.severity >= Severity::Warning)
        .map(|x| format!("{}: {}", x.rule, x.message))
        .collect()
}

const HEALTHY_XBOARD: &str = r#"
0.000 ! spawned fairymax
0.001 > xboard
0.002 > protover 2
0.010 < feature ping=1 setboard=1 usermove=1 myname="Toy 1.0" done=1
0.011 > accepted ping
0.012 > accepted setboard
0.013 > accepted usermove
0.014 > accepted myname
0.015 > accepted done
0.020 > new
0.021 > random
0.022 > level 40 5 0
0.023 > post
0.024 > hard
0.030 > ping 1
0.031 < pong 1
0.040 > time 30000
0.041 > otim 30000
0.042 > usermove e2e4
0.300 < 1 20 5 120 e7e5
0.500 < move e7e5
0.600 > ping 2
0.601 < pong 2
0.700 > time 29950
0.701 > otim 29900
0.702 > usermove g1f3
1.000 < 2 15 20 900 b8c6 f1b5
1.200 < move b8c6
1.300 > ping 3
1.301 < pong 3
1.400 > result 1/2-1/2 {Draw agreed}
1.401 > quit
1.450 ! engine_exit code=0 engine exited with code 0
"#;

#[test]
fn a_healthy_xboard_game_breaks_no_rule() {
    for profile in ["cutechess", "xboard", "spec", "fastchess", "python-chess"] {
        let report = check(HEALTHY_XBOARD, &["--profile", profile], None);
        assert_eq!(
            serious(&report),
            Vec::<String>::new(),
            "profile {profile}: {:?}",
            rules_fired(&report)
        );
        assert!(
            hangs(&report).is_empty(),
            "profile {profile}: {:?}",
            hangs(&report)
        );
        assert_eq!(report.files[0].sessions[0].protocol, Some("xboard"));
    }
}

#[test]
fn a_healthy_nboard_session_breaks_no_rule() {
    let t = format!(
        "0.000 ! spawned edax
         0.001 > nboard 2
         0.002 > set depth 6
         0.003 > set game {GGF_EXAMPLE}
         0.004 > ping 1
         0.005 < set myname Edax6
         0.006 < pong 1
         0.007 > go
         0.010 < status Edax is thinking
         0.020 < nodestats 35805 0.00
         0.500 < search D6 -1.00 0 6
         0.600 < === D6/-1.00/0.5
         0.610 < status Edax is waiting
         0.700 > move D6/-1.00/0.5
         0.800 > hint 2
         0.900 < search C4d6 0.5 0 4
         1.000 > learn
         1.100 < learned
         1.200 > quit
         1.300 ! engine_exit code=0 engine exited with code 0"
    );
    let report = check(&t, &[], None);
    assert_eq!(
        serious(&report),
        Vec::<String>::new(),
        "{:?}",
        rules_fired(&report)
    );
    assert!(hangs(&report).is_empty(), "{:?}", hangs(&report));
    assert_eq!(report.files[0].sessions[0].protocol, Some("nboard"));
}

/// Every case of this file, by rule: (firing transcripts, near-miss transcripts).
fn coverage() -> BTreeMap<&'static str, (usize, usize)> {
    let mut out: BTreeMap<&'static str, (usize, usize)> = BTreeMap::new();
    for c in [
        cecp_handshake_and_feature_cases(),
        cecp_ping_cases(),
        cecp_move_cases(),
        cecp_time_control_cases(),
        cecp_game_state_cases(),
        cecp_new_state_cases(),
        cecp_output_termination_and_syntax_cases(),
        nboard_cases(),
        cross_protocol_transport_cases(),
        cross_protocol_timing_and_lifecycle_cases(),
    ]
    .into_iter()
    .flatten()
    {
        let e = out.entry(c.rule).or_default();
        e.0 += usize::from(c.fires.is_some());
        e.1 += usize::from(c.near.is_some());
    }
    out
}

#[test]
fn the_tables_cover_every_implemented_rule() {
    let cat = catalogue();
    let implemented: Vec<&String> = cat
        .iter()
        .filter(|(_, r)| r.implemented)
        .map(|(id, _)| id)
        .collect();
    assert!(
        implemented.len() >= 70,
        "docs/rules.md lists only {} implemented CECP/NBoard/X rules: parse error?",
        implemented.len()
    );
    let cov = coverage();
    let mut missing = Vec::new();
    for id in &implemented {
        match cov.get(id.as_str()) {
            Some((f, n)) if *f > 0 && *n > 0 => {}
            Some((f, n)) => missing.push(format!("{id}: {f} firing, {n} near-miss case(s)")),
            None => missing.push(format!("{id}: no case")),
        }
    }
    for id in cov.keys() {
        if !cat.get(*id).is_some_and(|r| r.implemented) {
            missing.push(format!("{id}: has cases but is not an implemented rule"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// A search cut off while its output still flows is thinking, not stalled: `PENDING`, said
/// as "still searching"; the same search silent for seconds is a `STALL`.
#[test]
fn a_search_whose_output_still_flows_is_pending_not_stalled() {
    let pre = UCI_PRE.replace("go movetime 100", "go infinite");
    let mut thinking = pre.to_owned();
    for i in 0..130 {
        thinking.push_str(&format!(
            "{:.3} < info depth {} score cp 20 nodes 5000 pv e2e4\n",
            0.1 + f64::from(i) * 0.1,
            i + 1
        ));
    }
    let report = check(&thinking, &["--at", "13"], None);
    let h = &report.files[0].hangs;
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!((h[0].label, h[0].class.as_str()), ("PENDING", "search"));
    assert!(h[0].summary.contains("still searching"), "{}", h[0].summary);
    // Near miss: the output stopped 3 s before the cut.
    let report = check(&thinking, &["--at", "16"], None);
    let h = &report.files[0].hangs;
    assert_eq!(h[0].label, "STALL", "{}", h[0].summary);
    assert!(!h[0].summary.contains("still searching"));
}
