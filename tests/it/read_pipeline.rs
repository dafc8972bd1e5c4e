//! A big input is read on a thread of its own while it is decoded and judged, and a log is
//! judged in one pass, its sessions' protocols detected on the way (`input::pipeline`,
//! `input::judged`). Both are held to the plain way: the input read in place, and a log's
//! protocols detected by a pass of their own before it is judged.

use crate::common::kibitzer;
use kibitzer::input::judged::JudgeInput;
use kibitzer::input::pipeline::ReadOptions;
use kibitzer::input::{ControlFlow, Input, Item};
use kibitzer::recording::Event;
use kibitzer::rules::catalogue::RuleId;
use kibitzer::rules::report::CheckReport;
use kibitzer::rules::{CheckOptions, Checked, Checker, Finding, Profile};
use std::path::{Path, PathBuf};

fn options() -> CheckOptions {
    CheckOptions::new(Profile::default_profile())
}

/// The plain way: detection over the whole log first, then one pass judged under it.
fn two_passes(path: &Path, opts: &CheckOptions) -> Checked {
    let input = Input::open(path, None).unwrap();
    let detected = input.protocols(None).unwrap();
    let decoder = opts
        .decoder(detected)
        .retain_history(false)
        .retain_searches(false);
    let mut checker = Checker::new(opts, decoder);
    let in_place = ReadOptions {
        in_place: true,
        ..ReadOptions::default()
    };
    let (_, stopped) = input
        .read_slots(in_place, |slot| {
            if let Item::Event(ev, line) = slot.item() {
                checker.push(ev, line);
            }
            Ok(ControlFlow::Continue(()))
        })
        .unwrap();
    stopped.unwrap();
    checker.into_checked(None)
}

fn one_pass(path: &Path, opts: &CheckOptions) -> (Checked, usize) {
    let mut restarts = 0;
    let judged = JudgeInput {
        input_format: kibitzer::input::FormatChoice::Detect,
        opts,
        c2w_named: false,
        at_ns: None,
        keep_games: false,
        read_on_thread: true,
    }
    .run(path, |_, _| {}, |_, _| {}, || restarts += 1)
    .unwrap();
    (judged.checked, restarts)
}

fn same(a: &Checked, b: &Checked, what: &str) {
    assert_eq!(a.findings, b.findings, "{what}: findings");
    assert_eq!(a.hangs, b.hangs, "{what}: hang verdicts");
    assert_eq!(a.latencies, b.latencies, "{what}: latencies");
    let protocols = |c: &Checked| -> Vec<_> {
        c.decoder
            .sessions()
            .map(|s| (s.label.clone(), s.protocol, s.protocol_reason.clone()))
            .collect()
    };
    assert_eq!(protocols(a), protocols(b), "{what}: sessions");
}

fn logs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut all = Vec::new();
    for dir in ["corpus", "logs"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "log") {
                all.push(p);
            }
        }
    }
    all.sort();
    all
}

#[test]
fn one_pass_judges_every_log_as_two_passes_do() {
    let opts = options();
    let all = logs();
    assert!(all.len() > 25, "{} logs", all.len());
    let mut again = Vec::new();
    for path in &all {
        let (one, restarts) = one_pass(path, &opts);
        same(&one, &two_passes(path, &opts), &path.display().to_string());
        if restarts > 0 {
            again.push(path.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    // Most logs show each engine's start: their sessions open with the GUI's handshake, and
    // one pass is enough (the corpus's fragments of bug reports often start later, or with an
    // engine's banner).
    assert!(
        again.len() * 2 < all.len(),
        "judged twice: {again:?} of {} logs",
        all.len()
    );
}

/// Sessions whose first line does not decide, or decides otherwise than the whole session
/// does, are judged again under the whole log's detection.
#[test]
fn a_log_whose_sessions_open_undecided_is_judged_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mid.log");
    // A: its first line (`stop`) says nothing; B: an `info` line first, the GUI's `uci` later.
    std::fs::write(
        &path,
        "1 >A(1): stop\n2 >A(1): uci\n3 <A(1): id name A\n4 <A(1): uciok\n\
         5 <B(2): info depth 3 score cp 10 pv e2e4\n6 >B(2): uci\n7 <B(2): uciok\n\
         8 >B(2): isready\n9 <B(2): readyok\n",
    )
    .unwrap();
    let opts = options();
    let (one, restarts) = one_pass(&path, &opts);
    assert_eq!(restarts, 1);
    same(&one, &two_passes(&path, &opts), "mid.log");
}

/// A cutechess-cli log of `games` games between three engines (each game two of them), big
/// enough to be read on a thread of its own.
fn big_cutechess_log(path: &Path, games: usize) {
    let moves = [
        "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6",
    ];
    let mut out = String::new();
    let mut ms = 0u64;
    for g in 0..games {
        let pair = [(g % 3) + 1, ((g + 1) % 3) + 1];
        for (side, e) in pair.iter().enumerate() {
            let id = g * 2 + side;
            for (dir, text) in [
                ('>', "uci".to_owned()),
                ('<', format!("id name Engine{e}")),
                ('<', "uciok".to_owned()),
                ('>', "isready".to_owned()),
                ('<', "readyok".to_owned()),
            ] {
                out.push_str(&format!("{ms} {dir}Engine{e}({id}): {text}\n"));
            }
        }
        for ply in 0..moves.len() {
            let side = ply % 2;
            let label = format!("Engine{}({})", pair[side], g * 2 + side);
            out.push_str(&format!(
                "{ms} >{label}: position startpos moves {}\n",
                moves[..ply].join(" ")
            ));
            out.push_str(&format!("{ms} >{label}: go wtime 60000 btime 60000\n"));
            for d in 1..=12 {
                ms += 3;
                let pv = moves[ply..].join(" ");
                out.push_str(&format!(
                    "{ms} <{label}: info depth {d} score cp {} nodes {} time {} pv {pv}\n",
                    20 - d,
                    d * 900,
                    d * 3
                ));
            }
            out.push_str(&format!("{ms} <{label}: bestmove {}\n", moves[ply]));
        }
        out.push_str(&format!(
            "{ms} Finished game {} (Engine{} vs Engine{}): 1/2-1/2 {{Draw by adjudication}}\n",
            g + 1,
            pair[0],
            pair[1]
        ));
    }
    std::fs::write(path, out).unwrap();
}

/// Every event and unreadable line, as the reader handed them over.
fn everything(path: &Path, in_place: bool) -> (Vec<Event>, Vec<u64>, bool) {
    let input = Input::open(path, None).unwrap();
    let mut events = Vec::new();
    let mut skipped = Vec::new();
    let opts = ReadOptions {
        in_place,
        ahead: true,
        ..ReadOptions::default()
    };
    let (outcome, stopped) = input
        .read_slots(opts, |slot| {
            match slot.item() {
                Item::Event(ev, _) => events.push(ev.clone()),
                Item::Skipped(s) => skipped.push(s.line),
            }
            // Messages parsed ahead are handed back, as the judge does.
            if let Some(p) = slot.ahead.take() {
                slot.give_back(Some(p.msg));
            }
            Ok(ControlFlow::Continue(()))
        })
        .unwrap();
    stopped.unwrap();
    (events, skipped, outcome.threaded)
}

#[test]
fn a_big_log_read_on_a_thread_gives_what_reading_in_place_gives() {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        panic!("this test needs two cores (the reading thread is used only then)");
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("big.log");
    big_cutechess_log(&log, 700);
    assert!(std::fs::metadata(&log).unwrap().len() > 5 << 20);
    let (events, skipped, threaded) = everything(&log, false);
    assert!(threaded, "the log was not read on a thread");
    let (events_in_place, skipped_in_place, threaded) = everything(&log, true);
    assert!(!threaded);
    assert!(events.len() > 100_000, "{}", events.len());
    assert!(events == events_in_place, "other events");
    assert!(skipped.is_empty() && skipped_in_place.is_empty());
    // A recording is read on a thread too, its unreadable lines in their place among the
    // events, as reading it in place gives them.
    let recording = dir.path().join("big.jsonl");
    let out = kibitzer()
        .args(["import", "-o"])
        .arg(&recording)
        .arg(&log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut text = std::fs::read_to_string(&recording).unwrap();
    let cut = text.len() / 2;
    let at = cut + text[cut..].find('\n').unwrap() + 1;
    text.insert_str(at, "{\"seq\":1,\"t\":\n");
    std::fs::write(&recording, text).unwrap();
    let (events, skipped, threaded) = everything(&recording, false);
    assert!(threaded, "the recording was not read on a thread");
    assert_eq!(skipped.len(), 1);
    assert_eq!(events.len(), events_in_place.len());
    let (recording_in_place, skipped_in_place, threaded) = everything(&recording, true);
    assert!(!threaded);
    assert!(events == recording_in_place, "other events");
    assert_eq!(skipped, skipped_in_place);
    // The one pass on a thread judges as the two passes in place do.
    let opts = options();
    let (one, restarts) = one_pass(&log, &opts);
    assert_eq!(restarts, 0);
    same(&one, &two_passes(&log, &opts), "big.log");
}

/// The real binary on one core (no reading thread) and on two says the same.
#[test]
fn check_and_decode_say_the_same_on_one_core_and_on_two() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("big.log");
    big_cutechess_log(&log, 600);
    for args in [
        &["check", "--format", "json"][..],
        &["decode", "--format", "json", "--summary-only"][..],
    ] {
        let both = kibitzer().args(args).arg(&log).output().unwrap();
        let one = std::process::Command::new("taskset")
            .args(["-c", "0", env!("CARGO_BIN_EXE_kibitzer")])
            .args(args)
            .arg(&log)
            .output()
            .unwrap();
        assert_eq!(both.status.code(), one.status.code(), "{args:?}");
        assert!(both.stdout == one.stdout, "{args:?}: the outputs differ");
        assert!(both.stdout.len() > 1000, "{args:?}");
    }
}

/// `check --format json` and `extra` on `path` by the real binary, on two cores (the input
/// read on a thread of its own) or on one (`taskset -c 0`: no reading thread); the report,
/// which must say there are findings.
fn check_json_on(path: &Path, one_core: bool, extra: &[&str]) -> Vec<u8> {
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        panic!("this test needs two cores (the reading thread is used only then)");
    }
    let mut cmd = if one_core {
        let mut c = std::process::Command::new("taskset");
        c.args(["-c", "0", env!("CARGO_BIN_EXE_kibitzer")]);
        c
    } else {
        kibitzer()
    };
    let out = cmd
        .args(["check", "--format", "json"])
        .args(extra)
        .arg(path)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// A cutechess-cli log of `games` games whose PVs the reading side checks ahead and gets
/// wrong on purpose: every third game is antichess (the reading side plays chess), some PVs
/// end in an illegal move, and in every fourth game the GUI sends the next position while
/// the engine still searches the last one, whose PVs the reading side checks from the new one.
fn big_log_with_pv_faults(path: &Path, games: usize) {
    let moves = [
        "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6",
    ];
    let mut out = String::new();
    let mut ms = 0u64;
    for g in 0..games {
        let label = |side: usize| format!("Engine{}({})", side + 1, g * 2 + side);
        for side in 0..2 {
            let mut lines = vec![
                ('>', "uci".to_owned()),
                (
                    '<',
                    "option name UCI_Variant type combo default chess var chess var antichess"
                        .to_owned(),
                ),
                ('<', "uciok".to_owned()),
            ];
            if g % 3 == 2 {
                lines.push(('>', "setoption name UCI_Variant value antichess".to_owned()));
            }
            lines.extend([('>', "isready".to_owned()), ('<', "readyok".to_owned())]);
            for (dir, text) in lines {
                out.push_str(&format!("{ms} {dir}{}: {text}\n", label(side)));
            }
        }
        for ply in 0..moves.len() {
            let l = label(ply % 2);
            let position =
                |ply: usize| format!("position startpos moves {}", moves[..ply].join(" "));
            out.push_str(&format!(
                "{ms} >{l}: {}\n{ms} >{l}: go wtime 60000 btime 60000\n",
                position(ply)
            ));
            let early = g % 4 == 1 && ply == 4;
            for d in 1..=12 {
                ms += 3;
                if early && d == 6 {
                    out.push_str(&format!(
                        "{ms} >{l}: {}\n{ms} >{l}: go wtime 60000 btime 60000\n",
                        position(ply + 1)
                    ));
                }
                let mut pv = moves[ply..].join(" ");
                if (g + ply + d) % 29 == 0 {
                    pv.push_str(" e1e3");
                }
                out.push_str(&format!(
                    "{ms} <{l}: info depth {d} score cp {} pv {pv}\n",
                    20 - d
                ));
            }
            out.push_str(&format!("{ms} <{l}: bestmove {}\n", moves[ply]));
        }
        out.push_str(&format!(
            "{ms} Finished game {} (Engine1 vs Engine2): 1/2-1/2 {{Draw by adjudication}}\n",
            g + 1
        ));
    }
    std::fs::write(path, out).unwrap();
}

/// The PVs the reading side checked ahead change nothing: `check` on one core, where nothing
/// is checked ahead, finds the same illegal PVs.
#[test]
fn pvs_checked_ahead_are_judged_as_on_one_core() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("faults.log");
    big_log_with_pv_faults(&log, 500);
    assert!(std::fs::metadata(&log).unwrap().len() > 5 << 20);
    let (both, one) = (
        check_json_on(&log, false, &[]),
        check_json_on(&log, true, &[]),
    );
    let report: CheckReport = serde_json::from_slice(&both).unwrap();
    let found = |rule: RuleId, why: &str| {
        report.files[0]
            .findings
            .iter()
            .filter(|f| f.rule == rule && f.message.contains(why))
            .count()
    };
    // Each fault is there to be found: the illegal last move; a7a6, legal in chess, where
    // antichess has Black capture; the position sent during a search.
    let e1e3 = found(RuleId::UciInfoPvIllegal, "'e1e3'");
    let a7a6 = found(RuleId::UciInfoPvIllegal, "'a7a6'");
    let early = found(RuleId::UciPositionWhileSearching, "");
    assert!(
        e1e3 > 100 && a7a6 > 100 && early > 100,
        "{e1e3} {a7a6} {early}"
    );
    assert!(both == one, "the outputs differ");
}

/// The viewer reads a big log the same way (its lines parsed ahead on the reading thread,
/// their messages handed back): its rows are the events read in place, its findings `check`'s.
#[test]
fn the_viewer_indexes_a_big_log_read_on_a_thread_as_check_judges_it() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("big.log");
    big_cutechess_log(&log, 700);
    let (events, _, _) = everything(&log, true);
    let doc =
        kibitzer::tui::load::read_file(&log, None, None, Profile::named("cutechess").unwrap())
            .unwrap();
    assert_eq!(doc.rows.len(), events.len());
    for (i, ev) in events.iter().enumerate().step_by(997) {
        assert_eq!(doc.text(i), ev.text, "row {i}");
    }
    let out = kibitzer()
        .args(["check", "--format", "json"])
        .arg(&log)
        .output()
        .unwrap();
    let report: CheckReport = serde_json::from_slice(&out.stdout).unwrap();
    let rule_lines = |f: &Finding| (f.rule, f.line);
    let mut from_check: Vec<_> = report.files[0].findings.iter().map(rule_lines).collect();
    let mut from_view: Vec<_> = doc.findings().iter().map(rule_lines).collect();
    from_check.sort();
    from_view.sort();
    assert!(!from_check.is_empty());
    assert_eq!(from_view, from_check);
}

/// A recording of `games` UCI games over 4 MB, so that it is read on a thread of its own,
/// whose engine lines hold what the byte rules look for, in every kind of text: messages run
/// together (`info ... bestmove e2e4`, `0readyok`), DEL, a control byte written as a JSON
/// escape, leading spaces, and text with other escapes.
fn big_recording_with_text_faults(path: &Path, games: usize) {
    use std::io::Write;
    let header = r#"{"kibitzer":"recording","version":1,"tool":"kibitzer 0.1.0","started":"2026-11-22T02:37:31.690212505Z","argv":["/usr/games/stockfish"],"cwd":"/","pid":1,"host":"vm","protocol":"uci"}"#;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    writeln!(out, "{header}").unwrap();
    let (mut seq, mut t) = (0u64, 0u64);
    let mut line = |out: &mut std::io::BufWriter<std::fs::File>, src: &str, text: &str| {
        seq += 1;
        t += 1_000_000;
        let text = serde_json::to_string(text).unwrap();
        writeln!(
            out,
            r#"{{"seq":{seq},"t":{t},"ts":{},"src":"{src}","text":{text}}}"#,
            1_795_315_051_763_825_583 + t
        )
        .unwrap();
    };
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
    ];
    for g in 0..games {
        for (src, text) in [
            ("gui", "uci"),
            ("engine", "id name Faulty"),
            ("engine", "uciok"),
            ("gui", "isready"),
            ("engine", "readyok"),
        ] {
            line(&mut out, src, text);
        }
        for ply in 0..moves.len() {
            let position = format!("position startpos moves {}", moves[..ply].join(" "));
            line(&mut out, "gui", position.trim_end());
            line(&mut out, "gui", "go movetime 100");
            for d in 1..=12 {
                let pv = moves[ply..].join(" ");
                let info = format!("info depth {d} score cp {d} nodes {} pv {pv}", d * 1000);
                let text = match (g + ply * 7 + d) % 29 {
                    0 => format!("{info} bestmove {}", moves[ply]),
                    1 => format!("{info}\u{7f}"),
                    2 => format!("{info}\u{7}"),
                    3 => format!(" {info}"),
                    4 => format!("info string \"quoted\" \\ {d}"),
                    5 => "0readyok".to_owned(),
                    _ => info,
                };
                line(&mut out, "engine", &text);
            }
            line(&mut out, "engine", &format!("bestmove {}", moves[ply]));
        }
    }
}

/// The facts of a big recording's texts that the reading thread works out for the lines it
/// parses ahead are the ones the decoder works out alone: the same findings on two cores and
/// on one, for every kind of text.
#[test]
fn a_big_recordings_text_faults_are_judged_as_on_one_core() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("faults.jsonl");
    big_recording_with_text_faults(&rec, 400);
    assert!(std::fs::metadata(&rec).unwrap().len() > 5 << 20);
    let every = ["--every"];
    let (both, one) = (
        check_json_on(&rec, false, &every),
        check_json_on(&rec, true, &every),
    );
    let report: CheckReport = serde_json::from_slice(&both).unwrap();
    let found = |rule: RuleId| {
        report.files[0]
            .findings
            .iter()
            .filter(|f| f.rule == rule)
            .count()
    };
    // Messages run together are reported on every line; control bytes and padding once.
    let interleaved = found(RuleId::XLineInterleaved);
    assert!(interleaved > 2000, "{interleaved}");
    assert_eq!(found(RuleId::XControlChars), 1);
    assert_eq!(found(RuleId::XLeadingWhitespace), 1);
    assert!(both == one, "the outputs differ");
}
