//! `kibitzer report`: many inputs judged into one per-engine report; text, JSON, HTML (looked
//! at in a real browser), exact merges, the same report on one thread and on every core.

use super::common::{kibitzer, schema};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `kibitzer report ARGS` in the repository root with `stdin` as its standard input:
/// (exit status, stdout, stderr).
fn report(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = kibitzer()
        .arg("report")
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kibitzer report");
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        input.write_all(stdin.as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn json(args: &[&str], stdin: &str) -> (i32, Value) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = report(&all, stdin);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (code, v)
}

fn engine<'a>(r: &'a Value, name: &str) -> &'a Value {
    r["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["engine"] == name)
        .unwrap_or_else(|| panic!("no engine {name} in {:#}", r["engines"]))
}

/// The shipped recordings of real sessions, as relative paths.
fn real_files() -> Vec<String> {
    let mut files: Vec<String> = ["tests/fixtures/real", "recordings"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root().join(d)).unwrap().flatten())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .map(|p| p.strip_prefix(root()).unwrap().display().to_string())
        .collect();
    files.sort();
    files
}

#[test]
fn a_directory_of_real_sessions_is_reported_per_engine() {
    let (code, r) = json(&["tests/fixtures/real"], "");
    schema::load("report.schema.json").validate(&r).unwrap();
    // GNU Chess's missing `feature done=1` is the one error of these sessions.
    assert_eq!(code, 1);
    let jsonl = std::fs::read_dir(root().join("tests/fixtures/real"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .count();
    // The PGNs and the README beside the recordings are no inputs.
    assert_eq!(r["inputs"]["files"], jsonl);
    assert_eq!(r["inputs"]["not_recognised"], 0);
    assert_eq!(r["inputs"]["unreadable"], 0);
    let gnu = engine(&r, "GNU Chess");
    let timeout = gnu["rules"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["rule"] == "CECP-FEATURE-TIMEOUT")
        .expect("GNU Chess's feature timeout");
    assert_eq!(timeout["severity"], "error");
    assert_eq!(timeout["count"], 1);
    assert_eq!(
        timeout["places"][0]["view"],
        "kibitzer view tests/fixtures/real/xboard-fairymax-vs-gnuchess.second.jsonl +4"
    );
    // XBoard's game: Fairy-Max (first) against GNU Chess, which won it by mate, as the PGN says.
    let pgn =
        std::fs::read_to_string(root().join("tests/fixtures/real/xboard-fairymax-vs-gnuchess.pgn"))
            .unwrap();
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert_eq!(gnu["games"], 1);
    assert_eq!(gnu["results"]["wins"], 1);
    let endings = gnu["endings"].as_array().unwrap();
    assert!(
        endings
            .iter()
            .any(|e| e["ending"] == "checkmate" && e["kibitzer"] == 1),
        "{endings:?}"
    );
    // python-chess analysed with Stockfish, and played it against itself with ponder on.
    let sf = engine(&r, "Stockfish 15.1");
    assert!(sf["protocols"].as_array().unwrap().contains(&"uci".into()));
    let go = sf["latencies"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["request"] == "go→bestmove")
        .expect("go latencies");
    assert!(go["count"].as_u64().unwrap() > 10, "{go}");
    assert!(go["p50_ms"].as_f64().unwrap() <= go["p99_ms"].as_f64().unwrap());
}

#[test]
fn the_report_of_two_halves_merged_is_the_report_of_the_whole() {
    let files = real_files();
    let (a, b) = files.split_at(files.len() / 2);
    let dir = tempfile::tempdir().unwrap();
    let half = |list: &[String], name: &str| {
        let out = dir.path().join(name);
        let (code, _, err) = report(
            &["--format", "json", "-o", out.to_str().unwrap(), "-"],
            &(list.join("\n") + "\n"),
        );
        assert!(code < 2, "{err}");
        out
    };
    let (ha, hb) = (half(a, "a.json"), half(b, "b.json"));
    let (_, whole) = json(&["-"], &(files.join("\n") + "\n"));
    let (_, merged) = json(&["--merge", ha.to_str().unwrap(), hb.to_str().unwrap()], "");
    assert_eq!(merged, whole);
    // Flags in any order: `--merge` before the other flags, the reports after them.
    let out = dir.path().join("m.json");
    let (code, _, err) = report(
        &[
            "--merge",
            "--format",
            "json",
            "-o",
            out.to_str().unwrap(),
            ha.to_str().unwrap(),
            hb.to_str().unwrap(),
        ],
        "",
    );
    assert!(code < 2, "{err}");
    let written: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(written, whole);
    // A named report is merged without the flag too; the flag with no report is a usage error.
    let (_, merged) = json(&[ha.to_str().unwrap(), hb.to_str().unwrap()], "");
    assert_eq!(merged, whole);
    let (code, _, err) = report(&["--merge", &a[0]], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no report"), "{err}");
    assert!(whole["inputs"]["files"].as_u64().unwrap() > 20);
    // Reports judged under other deadlines do not merge.
    let other = dir.path().join("other.json");
    let (code, _, _) = report(
        &[
            "--format",
            "json",
            "--profile",
            "xboard",
            "-o",
            other.to_str().unwrap(),
            &a[0],
        ],
        "",
    );
    assert!(code < 2);
    let (code, _, err) = report(
        &["--merge", ha.to_str().unwrap(), other.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("merge only when judged alike"), "{err}");
    // A report edited into nonsense (a histogram bucket no latency falls in) is refused, not
    // trusted or panicked over.
    let mut bad: Value = serde_json::from_str(&std::fs::read_to_string(&ha).unwrap()).unwrap();
    let timed = bad["engines"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|e| !e["latencies"].as_array().unwrap().is_empty())
        .expect("an engine with latencies");
    timed["latencies"][0]["histogram"]["buckets"][0][0] = u32::MAX.into();
    let forged = dir.path().join("forged.json");
    std::fs::write(&forged, bad.to_string()).unwrap();
    let (code, _, err) = report(
        &["--merge", ha.to_str().unwrap(), forged.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("not a report kibitzer made"), "{err}");
}

#[test]
fn one_thread_and_every_core_give_the_same_report() {
    let (_, one) = json(&["--jobs", "1", "tests/fixtures/real", "recordings"], "");
    let (_, all) = json(&["--jobs", "2", "tests/fixtures/real", "recordings"], "");
    assert_eq!(one, all);
}

#[test]
fn unreadable_inputs_are_bad_input_and_stray_files_in_a_directory_are_passed_over() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        root().join("recordings/stockfish-uci-game.jsonl"),
        dir.path().join("game.jsonl"),
    )
    .unwrap();
    // Found in a directory, a file that is no recording or log is passed over.
    std::fs::write(dir.path().join("core.bin"), [0u8, 1, 2, 0xff, 0xfe, b'\n']).unwrap();
    let d = dir.path().to_str().unwrap();
    let (code, r) = json(&[d], "");
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["inputs"]["files"], 1);
    assert_eq!(r["inputs"]["not_recognised"], 1);
    // Named, it is bad input: exit status 2, and it says which file.
    let bin = dir.path().join("core.bin");
    let (code, _, err) = report(&[d, bin.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(err.contains("core.bin"), "{err}");
    // A file that was meant to be read and cannot be (a torn gzip download) is bad input
    // even in a directory: only what no importer recognises is passed over.
    std::fs::write(dir.path().join("game2.jsonl.gz"), b"\x1f\x8b\x08\x00 torn").unwrap();
    let (code, r) = json(&[d], "");
    assert_eq!(code, 2, "{r:#}");
    assert_eq!(r["inputs"]["unreadable"], 1);
    assert_eq!(r["inputs"]["not_recognised"], 1);
    let (code, _, err) = report(&["no/such/file.jsonl"], "");
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.jsonl"), "{err}");
}

/// A recording whose engine calls itself something hostile.
fn hostile_recording(dir: &Path) -> PathBuf {
    let name = "Evil\u{1b}[2J\u{202e}<script>alert(1)</script>";
    let events = [
        ("gui", "uci".to_owned()),
        ("engine", format!("id name {name}")),
        ("engine", "uciok".to_owned()),
        ("gui", "isready".to_owned()),
        ("engine", "readyok".to_owned()),
        ("gui", "quit".to_owned()),
    ];
    let mut text = String::from(
        r#"{"kibitzer":"recording","version":1,"tool":"kibitzer 0.1.0","started":"2026-11-26T00:00:00Z","argv":["evil"]}"#,
    );
    text.push('\n');
    for (i, (src, line)) in events.iter().enumerate() {
        let ev = serde_json::json!({"seq": i + 1, "t": (i as u64 + 1) * 1_000_000, "src": src, "text": line});
        text.push_str(&ev.to_string());
        text.push('\n');
    }
    let p = dir.join("evil.jsonl");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn an_engines_name_is_escaped_in_text_and_html() {
    let dir = tempfile::tempdir().unwrap();
    let p = hostile_recording(dir.path());
    let (code, text, err) = report(&[p.to_str().unwrap()], "");
    assert!(code < 2, "{err}");
    assert!(text.contains("Evil\\x1b[2J\\u202e<script>"), "{text}");
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text:?}"
    );
    let (_, html, _) = report(&["--format", "html", p.to_str().unwrap()], "");
    assert!(html.contains("Evil\\x1b[2J\\u202e&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.contains("<script>alert") && !html.contains('\u{1b}'));
}

/// Chromium, which the HTML test needs (Debian package `chromium`; .ci/test installs it).
fn chromium() -> PathBuf {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(out) = Command::new("sh")
            .args(["-c", &format!("command -v {name}")])
            .output()
            && out.status.success()
        {
            return PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        }
    }
    panic!("chromium is needed for the HTML report test: apt-get install chromium");
}

/// Runs headless Chromium with `args`, killed after a generous bound (the machine is busy);
/// returns (stdout, stderr). Its output goes to files: a page's DOM fills a pipe nobody reads.
fn headless(args: &[&str], dir: &Path, name: &str) -> (String, String) {
    let out = dir.join(format!("{name}.out"));
    let err = dir.join(format!("{name}.err"));
    let mut child = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--user-data-dir={}", dir.join(name).display()))
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("start chromium");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(180) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium took over 180 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    (
        std::fs::read_to_string(&out).unwrap_or_default(),
        std::fs::read_to_string(&err).unwrap_or_default(),
    )
}

#[test]
fn the_html_report_renders_and_sorts_in_a_real_browser() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    let (code, _, err) = report(
        &[
            "--format",
            "html",
            "-o",
            page.to_str().unwrap(),
            "tests/fixtures/real",
            "recordings",
        ],
        "",
    );
    assert!(code < 2, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing is fetched.
    for fetch in ["src=\"http", "href=\"http", "@import", "url("] {
        assert!(!html.contains(fetch), "{fetch}");
    }
    let url = format!("file://{}", page.display());
    // The errors column (7), most first: the script ran and sorted the rows.
    let (dom, _) = headless(
        &["--dump-dom", &format!("{url}#sort=7-desc")],
        dir.path(),
        "dom",
    );
    assert!(
        dom.contains("data-sorted=\"7 desc\""),
        "not sorted: {}",
        &dom[..dom.len().min(2000)]
    );
    let table = &dom[dom.find("id=\"engines\"").unwrap()..];
    let body = &table[table.find("<tbody>").unwrap()..];
    let first_row = &body[..body.find("</tr>").unwrap()];
    assert!(first_row.contains("GNU Chess"), "{first_row}");
    let png = dir.path().join("shot.png");
    let (_, err) = headless(
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1200,1600",
            &url,
        ],
        dir.path(),
        "shot",
    );
    let shot = std::fs::read(&png).unwrap_or_else(|e| panic!("no screenshot ({e}): {err}"));
    assert!(shot.starts_with(b"\x89PNG"), "not a PNG");
    // A blank page compresses to a few kilobytes; the tables and charts do not.
    assert!(shot.len() > 30_000, "screenshot of {} bytes", shot.len());
}

#[test]
fn a_runners_log_names_the_engine_at_fault_and_the_winner_is_not_blamed() {
    let (code, r) = json(
        &["tests/fixtures/logs/fastchess__illegal-move-quoted.log"],
        "",
    );
    assert_eq!(code, 1);
    let ending = |e: &Value, name: &str| {
        e["endings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["ending"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("no {name} in {:#}", e["endings"]))
    };
    // fastchess: `Finished game 1 (Stockfish 15.1 vs BuggyFish 0.1): 1-0 {Black makes an
    // illegal move}`; kibitzer replays the position and agrees.
    let buggy = engine(&r, "BuggyFish 0.1");
    assert_eq!(buggy["results"]["losses"], 1);
    let illegal = ending(buggy, "illegal-move");
    assert_eq!(
        (illegal["kibitzer"].as_u64(), illegal["runner"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(
        illegal["places"][0]["view"],
        "kibitzer view tests/fixtures/logs/fastchess__illegal-move-quoted.log +21"
    );
    let verdicts = &buggy["runner_verdicts"][0];
    assert_eq!(verdicts["kind"], "illegal move");
    assert_eq!(verdicts["kibitzer_disagrees"], 0);
    let sf = engine(&r, "Stockfish 15.1");
    assert_eq!(sf["results"]["wins"], 1);
    assert_eq!(ending(sf, "opponent-fault")["runner"], 1);
    assert!(
        sf["endings"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["ending"] != "illegal-move"),
        "{:#}",
        sf["endings"]
    );
}

/// A tournament the test knows the truth of: 150 games among Stockfish, Toga II, Fairy-Max,
/// HoiChess, Phalanx and three Stockfish wrappers that break one rule in a few games each,
/// played by python-chess through `kibitzer record` (scripts/make-tournament.py), with what
/// really happened in `truth.json`.
#[test]
fn a_tournaments_report_matches_what_its_games_really_contained() {
    let dir = "tests/fixtures/tournament";
    let truth: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join(dir).join("truth.json")).unwrap(),
    )
    .unwrap();
    let (code, r) = json(&[dir], "");
    assert_eq!(code, 1, "the faulty engines' errors");
    schema::load("report.schema.json").validate(&r).unwrap();
    let files = truth["files"].as_object().map_or(0, |f| f.len());
    assert_eq!(r["inputs"]["files"], files);
    assert_eq!(r["inputs"]["unreadable"], 0);
    let count = |e: &Value, ending: &str, who: &str| -> u64 {
        e["endings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["ending"] == ending)
            .map_or(0, |x| x[who].as_u64().unwrap())
    };
    let names: Vec<&str> = r["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["engine"].as_str().unwrap())
        .collect();
    let true_names: Vec<&String> = truth["engines"].as_object().unwrap().keys().collect();
    assert_eq!(names.len(), true_names.len(), "{names:?} vs {true_names:?}");
    for (name, t) in truth["engines"].as_object().unwrap() {
        let e = engine(&r, name);
        let n = |v: &Value| v.as_u64().unwrap();
        assert_eq!(e["sessions"], t["sessions"], "{name}");
        assert_eq!(
            n(&e["games"]),
            t["game_list"].as_array().unwrap().len() as u64,
            "{name}"
        );
        let res = &e["results"];
        let te = &t["endings"];
        if t["protocol"] == "xboard" {
            // The GUI sends CECP engines the result: every one is known, and how it ended.
            assert_eq!(
                (n(&res["wins"]), n(&res["draws"]), n(&res["losses"])),
                (n(&t["wins"]), n(&t["draws"]), n(&t["losses"])),
                "{name}"
            );
            assert_eq!(
                count(e, "checkmate", "kibitzer"),
                n(&te["checkmate"]),
                "{name}"
            );
            assert_eq!(count(e, "draw", "runner"), n(&te["draw"]), "{name}");
            assert_eq!(
                count(e, "adjudication", "runner"),
                n(&te["adjudication"]),
                "{name}"
            );
            // Games its opponent forfeited: the opponent's fault, not this engine's.
            assert_eq!(
                count(e, "opponent-fault", "runner"),
                n(&te["time forfeit"]) + n(&te["illegal move"]) + n(&te["disconnect"]),
                "{name}"
            );
        } else {
            // UCI carries no result: what kibitzer knows is what the engine's own traffic
            // shows (the mates it gave, the draws on its board, the games it forfeited).
            assert!(n(&res["wins"]) <= n(&t["wins"]), "{name}: {res}");
            assert!(n(&res["draws"]) <= n(&t["draws"]), "{name}: {res}");
            assert!(n(&res["losses"]) <= n(&t["losses"]), "{name}: {res}");
            assert!(
                count(e, "checkmate", "kibitzer") <= n(&te["checkmate"]),
                "{name}"
            );
        }
        let faults: Vec<&Value> = truth["faults"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["engine"] == *name && f["happened"] == true)
            .collect();
        let kibitzer_ending = match t["faulty"].as_str() {
            Some("illegal") => Some(("illegal-move", "UCI-BESTMOVE-ILLEGAL")),
            Some("timeout") => Some(("time-forfeit", "X-CLOCK-UNDERFLOW")),
            Some("crash") => Some(("disconnect", "X-ENGINE-EXIT")),
            _ => None,
        };
        for healthy_fault in ["illegal-move", "time-forfeit", "disconnect", "stall"] {
            if kibitzer_ending.is_none_or(|(k, _)| k != healthy_fault) {
                assert_eq!(
                    count(e, healthy_fault, "kibitzer"),
                    0,
                    "{name}: {healthy_fault}"
                );
            }
        }
        let Some((ending, rule)) = kibitzer_ending else {
            assert!(faults.is_empty(), "{name}");
            assert_eq!(e["findings"]["error"], 0, "{name}: {:#}", e["rules"]);
            continue;
        };
        // Every injected fault is found, in its game, and named by its rule.
        assert!(!faults.is_empty(), "{name}");
        assert_eq!(count(e, ending, "kibitzer"), faults.len() as u64, "{name}");
        assert!(n(&res["losses"]) >= faults.len() as u64, "{name}: {res}");
        let row = e["rules"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["rule"] == rule)
            .unwrap_or_else(|| panic!("{name}: no {rule} in {:#}", e["rules"]));
        assert_eq!(row["severity"], "error");
        assert_eq!(n(&row["count"]), faults.len() as u64, "{name}");
        assert_eq!(
            e["findings"]["error"],
            faults.len(),
            "{name}: {:#}",
            e["rules"]
        );
        let places: Vec<&str> = e["endings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["ending"] == ending)
            .unwrap()["places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["file"].as_str().unwrap())
            .collect();
        for f in &faults {
            let file = format!("{dir}/{}", f["file"].as_str().unwrap());
            assert!(
                places.contains(&file.as_str()),
                "{name}: {file} not in {places:?}"
            );
        }
    }
}

/// A real fastchess tournament, two games at a time (`scripts/make-fastchess-log.sh`): each
/// game thread runs its own instance of each engine, so each instance is a session of its own,
/// and every game takes fastchess's own result (its PGN is the truth). Read as one engine per
/// name, the two instances' lines ran together: 153 errors and 204 games from 4.
#[test]
fn a_fastchess_log_of_games_side_by_side_gives_each_engine_its_own_games() {
    let pgn =
        std::fs::read_to_string(root().join("tests/fixtures/fastchess/concurrent.pgn")).unwrap();
    // (wins, draws, losses) per fastchess name, from the PGN's tags.
    let mut truth: std::collections::HashMap<String, [u64; 3]> = Default::default();
    let tag = |game: &str, name: &str| -> String {
        let key = format!("[{name} \"");
        let at = game.find(&key).unwrap() + key.len();
        game[at..].split('"').next().unwrap().to_owned()
    };
    let games: Vec<&str> = pgn.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 20);
    for g in &games {
        let (white, black, result) = (tag(g, "White"), tag(g, "Black"), tag(g, "Result"));
        let (w, b) = match result.as_str() {
            "1-0" => (0, 2),
            "0-1" => (2, 0),
            "1/2-1/2" => (1, 1),
            r => panic!("result {r}"),
        };
        truth.entry(white).or_default()[w] += 1;
        truth.entry(black).or_default()[b] += 1;
    }
    let (code, r) = json(&["tests/fixtures/fastchess/concurrent.log.gz"], "");
    assert_eq!(code, 0, "{r:#}");
    for (name, label) in [("Stockfish 15.1", "sf"), ("Toga II 3.0", "toga")] {
        let e = engine(&r, name);
        let [wins, draws, losses] = truth[label];
        assert_eq!(e["sessions"], 2, "{name}: one session per game thread");
        assert_eq!(e["games"], 20, "{name}");
        assert_eq!(e["results"]["wins"], wins, "{name}");
        assert_eq!(e["results"]["draws"], draws, "{name}");
        assert_eq!(e["results"]["losses"], losses, "{name}");
        assert_eq!(e["results"]["unknown"], 0, "{name}");
        assert_eq!(e["findings"]["error"], 0, "{name}: {:#}", e["rules"]);
        assert_eq!(e["findings"]["warning"], 0, "{name}: {:#}", e["rules"]);
    }
}

/// A slice of a real 1,000-game fastchess log (scripts/make-fastchess-log.sh's set-up, 1,500
/// nodes a move, two games side by side): its head, where the engines start, then the lines
/// around games 687 and 688, whose openings are mate in one. In 687 Stockfish (White) mates at
/// once and Fairy-Stockfish never moves; in 688 Fairy-Stockfish (White) mates and Stockfish
/// never moves. The engine that never moved has no game in its session, only the runner's
/// `Game N finished with result 1-0`: it still lost that game. (Game 685 ends, 1-0, Stockfish
/// White, at the slice's start.)
#[test]
fn a_game_an_engine_never_moved_in_still_counts_for_it() {
    let (code, r) = json(&["tests/fixtures/fastchess/never-moved.log.gz"], "");
    assert!(code <= 1, "{r:#}");
    let sf = engine(&r, "Stockfish 15.1");
    let fsf = engine(&r, "Fairy-Stockfish 11.1 LB 64");
    // Stockfish: won 685 and 687, lost 688 (which it never moved in).
    assert_eq!(sf["results"]["wins"], 2, "{sf:#}");
    assert_eq!(sf["results"]["losses"], 1, "{sf:#}");
    // Fairy-Stockfish: won 688, lost 685 and 687 (which it never moved in).
    assert_eq!(fsf["results"]["wins"], 1, "{fsf:#}");
    assert_eq!(fsf["results"]["losses"], 2, "{fsf:#}");
}
