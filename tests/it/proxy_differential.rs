//! The proxy against the bare engine: every scenario of `tests/diff/harness.py` run both ways,
//! with what the GUI observes compared (docs/proxy.md, row by row). A failing scenario prints
//! both sides' observations.

fn scenario(name: &str, runs: Option<u32>) {
    let harness = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/diff/harness.py");
    let mut cmd = std::process::Command::new("python3");
    cmd.arg(harness)
        .arg("--kibitzer")
        .arg(env!("CARGO_BIN_EXE_kibitzer"))
        .arg(name);
    if let Some(n) = runs {
        cmd.arg("--runs").arg(n.to_string());
    }
    let out = cmd.output().expect("python3 runs the harness");
    let report = String::from_utf8_lossy(&out.stdout);
    let line = report
        .lines()
        .find(|l| l.contains(&format!("\"scenario\": \"{name}\"")))
        .unwrap_or_else(|| {
            panic!(
                "no result for {name}: {report}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    let v: serde_json::Value = serde_json::from_str(line).expect("the harness prints JSON");
    assert_eq!(v["ok"], true, "{name}: {}", line);
    assert!(out.status.success(), "{name}: {report}");
}

macro_rules! scenarios {
    ($($test:ident => $name:literal $(, $runs:literal)?;)*) => {$(
        #[test]
        fn $test() {
            #[allow(unused_mut, unused_assignments)]
            let mut runs = None;
            $(runs = Some($runs);)?
            scenario($name, runs);
        }
    )*};
}

scenarios! {
    engine_death_by_sigsegv_is_seen_as_such => "crash-segv";
    engine_death_by_sigabrt_is_seen_as_such => "crash-abrt";
    engine_death_by_sigkill_is_seen_as_such => "crash-kill";
    exit_code_is_the_engines => "exit-code";
    engine_closing_its_output_is_eof_at_once => "close-stdout";
    engine_closing_its_input_fails_the_guis_writes => "close-stdin";
    a_burst_then_exit_arrives_whole => "burst";
    an_engine_that_never_reads_blocks_the_gui_near_where_the_bare_one_does => "no-read";
    an_engine_that_ignores_eof_runs_on_to_its_last_line => "ignore-eof";
    signals_with_handlers_reach_the_engine => "signals";
    sigterm_reaches_the_engine => "sigterm";
    sigint_reaches_the_engine => "sigint";
    sigkill_reaches_the_engine => "sigkill";
    sigstop_stops_the_engine => "sigstop";
    sigtstp_stops_the_engine => "sigtstp";
    signals_the_gui_ignored_stay_ignored => "ignored-signals";
    a_forked_child_keeps_the_output_open => "fork-child";
    a_killed_gui_takes_the_engine_down => "gui-killed";
    a_gui_closing_its_read_end_kills_the_engine_by_sigpipe => "gui-closes-read-end";
    a_subreaper_gui_is_left_no_live_stray => "subreaper";
    round_trip_stays_near_the_bare_engines => "round-trip", 200;
    a_crashing_engine_never_kills_a_fastchess_like_gui => "crash-storm", 200;
    a_gui_that_writes_without_pause_dies_no_more_often_than_bare => "crash-storm-tight", 100;
}
