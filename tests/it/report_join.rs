//! `report` with the runner's truth beside the engines' recordings: a real fastchess
//! tournament (tests/fixtures/fastchess-tournament: a crashing, a hanging and an illegal-move
//! engine among two healthy ones, every engine under `kibitzer record`, run 1 killed mid-game,
//! run 2 complete). The engine-side recordings cannot know results (UCI carries none); with
//! fastchess's PGNs the report gives every engine's results and terminations as fastchess
//! gave them, each fault explained by kibitzer's own finding. The expected figures are
//! fastchess's own (its PGNs, tabled in the fixture's README).

use super::common::kibitzer;
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/fastchess-tournament")
}

fn report(args: &[&str]) -> (i32, Value) {
    let out = kibitzer()
        .args(["report", "--format", "json", "--profile", "fastchess"])
        .args(args)
        .current_dir(dir())
        .output()
        .expect("run kibitzer report");
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "report --format json: {e}; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), v)
}

fn engine<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["engine"] == name)
        .unwrap_or_else(|| panic!("no engine {name} in {v:#}"))
}

/// (wins, draws, losses, unknown).
fn results(e: &Value) -> (u64, u64, u64, u64) {
    let r = &e["results"];
    let n = |k: &str| r[k].as_u64().unwrap();
    (n("wins"), n("draws"), n("losses"), n("unknown"))
}

/// (runner, kibitzer, explained) of one ending.
fn ending(e: &Value, name: &str) -> (u64, u64, u64) {
    e["endings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["ending"] == name)
        .map_or((0, 0, 0), |x| {
            let n = |k: &str| x[k].as_u64().unwrap_or(0);
            (n("runner"), n("kibitzer"), n("explained"))
        })
}

/// fastchess's results per engine over both PGNs (run 1's games 9 and 10 were cut by the
/// kill and have none: the engines that played them have two games without a result).
const RUNNER: &[(&str, (u64, u64, u64))] = &[
    ("Faulty Crash 1.0", (2, 0, 8)),
    ("Faulty Hang 1.0", (2, 0, 8)),
    ("Faulty Illegal 1.0", (2, 0, 8)),
    ("Stockfish 15.1", (15, 1, 0)),
    ("Toga II 3.0", (6, 1, 3)),
];

/// Every engine's wins, draws and losses are fastchess's.
fn assert_runners_results(v: &Value) {
    for (name, (w, d, l)) in RUNNER {
        let e = engine(v, name);
        let (ww, dd, ll, _) = results(e);
        assert_eq!((ww, dd, ll), (*w, *d, *l), "{name}: {e:#}");
    }
}

/// Each faulty engine's fault, as fastchess named it (8 games each) and as kibitzer must
/// explain it.
const FAULTS: &[(&str, &str)] = &[
    ("Faulty Crash 1.0", "disconnect"),
    ("Faulty Hang 1.0", "stall"),
    ("Faulty Illegal 1.0", "illegal-move"),
];

#[test]
fn recordings_and_the_runners_pgn_give_the_runners_results_each_fault_explained() {
    let (code, v) = report(&["recordings", "run1.pgn", "run2.pgn"]);
    assert_eq!(code, 1, "the faulty engines' errors");
    let inputs = &v["inputs"];
    assert_eq!(inputs["pgn_files"], 2);
    assert_eq!(
        inputs["pgn_games"], 28,
        "8 finished games in run 1, 20 in run 2"
    );
    assert_eq!(inputs["pgn_games_matched"], 28, "{inputs:#}");
    assert_runners_results(&v);
    for (name, fault) in FAULTS {
        let e = engine(&v, name);
        assert_eq!(
            ending(e, fault),
            (8, 8, 8),
            "{name}: fastchess's 8 {fault} games, each explained: {:#}",
            e["endings"]
        );
        // The two games it won were ended by its opponent's fault.
        assert_eq!(ending(e, "opponent-fault").0, 2, "{name}");
    }
    let sf = engine(&v, "Stockfish 15.1");
    assert_eq!(ending(sf, "checkmate"), (3, 3, 3), "{:#}", sf["endings"]);
    // The mates Toga II suffered: the last move never reached it, the runner's moves on
    // kibitzer's board show them.
    let toga = engine(&v, "Toga II 3.0");
    assert_eq!(
        ending(toga, "checkmate"),
        (3, 3, 3),
        "{:#}",
        toga["endings"]
    );
    assert_eq!(ending(sf, "adjudication").0, 1);
    // The games the kill cut have no result anywhere: unknown, never a loss.
    assert_eq!(results(engine(&v, "Toga II 3.0")).3, 2);
    assert_eq!(results(engine(&v, "Faulty Crash 1.0")).3, 2);
}

#[test]
fn without_the_pgn_the_report_does_not_invent_results() {
    let (_, v) = report(&["recordings"]);
    assert_eq!(v["inputs"]["pgn_games"], 0);
    for (name, _) in RUNNER {
        let e = engine(&v, name);
        for x in e["endings"].as_array().unwrap() {
            assert_eq!(
                x["runner"], 0,
                "{name}: nothing said the runner's verdict: {x:#}"
            );
        }
    }
    // Stockfish's wins by its opponents' faults are not known from its own traffic.
    assert!(results(engine(&v, "Stockfish 15.1")).0 < 15);
}

#[test]
fn a_pgn_of_other_games_is_not_matched() {
    // The same games on another day: same openings, moves and players, other times.
    let pgn = std::fs::read_to_string(dir().join("run2.pgn")).unwrap();
    let moved = pgn.replace("2026-11-29T", "2026-11-30T");
    let tmp = tempfile::tempdir().unwrap();
    let other = tmp.path().join("other-day.pgn");
    std::fs::write(&other, moved).unwrap();
    let (_, v) = report(&["recordings", other.to_str().unwrap()]);
    let inputs = &v["inputs"];
    assert_eq!(inputs["pgn_games"], 20);
    assert_eq!(inputs["pgn_games_matched"], 0, "{inputs:#}");
    assert_eq!(
        inputs["pgn_games_unmatched"].as_array().map(Vec::len),
        Some(5),
        "the first unmatched games are listed"
    );
}

#[test]
fn the_runners_appended_log_alone_gives_each_runs_results() {
    let (_, v) = report(&["tournament.log.gz"]);
    assert_runners_results(&v);
    // The log words each fault as fastchess's PGN does: each is the runner's, and explained
    // (the crash by fastchess finding the engine gone, the stall by the search that never
    // answered, the illegal move by kibitzer's own board).
    for (name, fault) in FAULTS {
        let e = engine(&v, name);
        let (runner, _, explained) = ending(e, fault);
        assert_eq!((runner, explained), (8, 8), "{name}: {:#}", e["endings"]);
    }
}

#[test]
fn a_stalled_engine_killed_after_quit_is_a_search_timeout_not_a_disconnect() {
    let out = kibitzer()
        .args([
            "check",
            "--profile",
            "fastchess",
            "recordings/20261129-025720.776-python3-12983-hang.jsonl.gz",
        ])
        .current_dir(dir())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("hang[search] TIMEOUT"), "{text}");
    assert!(text.contains("then: engine killed by SIGKILL"), "{text}");
    assert!(!text.contains("DISCONNECT"), "{text}");
}

#[test]
fn a_crash_right_after_quit_is_still_a_crash() {
    let check = |file: &str| {
        let out = kibitzer()
            .args(["check", "--profile", "fastchess", file])
            .current_dir(dir())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // fastchess sent `isready`, `stop` and `quit` as the engine died by SIGSEGV.
    let text = check("recordings/20261129-025846.577-python3-17325-crash.jsonl.gz");
    assert!(
        text.contains("X-ENGINE-EXIT") && text.contains("SIGSEGV"),
        "{text}"
    );
    // The near miss: an engine that exits by itself after `quit`.
    let text = check("recordings/20261129-030001.987-python3-17525-illegal.jsonl.gz");
    assert!(!text.contains("X-ENGINE-EXIT"), "{text}");
}
