//! `kibitzer view --follow`: a recording that a real `kibitzer record` is still writing, with
//! a scripted engine that goes silent, read by the viewer's own reader; the hang verdict must
//! grow while nothing new arrives. And the follow screen, drawn at a fixed moment.

use crate::common;

use kibitzer::recording::{Event, Source};
use kibitzer::rules::Profile;
use kibitzer::tui::{App, Doc, KeyMap, Options, Theme, draw::draw, load};
use ratatui::{Terminal, backend::TestBackend};
use std::io::Write;
use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Waits (generously: CI is a loaded 2-core machine) until `pred` holds on the document.
fn wait_for(doc: &Mutex<Doc>, what: &str, pred: impl Fn(&Doc) -> bool) {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(60) {
        if pred(&load::lock(doc)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let d = load::lock(doc);
    let rows: Vec<String> = (0..d.rows.len()).map(|i| d.text(i).into_owned()).collect();
    panic!(
        "timed out waiting for {what}; rows {rows:?}, hangs {:?}",
        d.hangs
    );
}

fn owed_readyok_ns(d: &Doc) -> Option<u64> {
    d.hangs
        .iter()
        .find(|h| h.owed.as_deref() == Some("readyok"))
        .and_then(|h| h.waiting_ns)
}

#[test]
fn follows_a_live_recording_and_the_hang_verdict_grows_while_the_engine_is_silent() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("live.jsonl");
    let engine = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/engines/scenario_engine.py"
    );
    let mut child = common::kibitzer()
        .args(["record", "-o"])
        .arg(&rec)
        .args(["--", "python3", engine, "no-readyok"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while std::fs::metadata(&rec).map_or(true, |m| m.len() == 0) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no recording appeared"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let decoder = Doc::new_decoder(None, Vec::new());
    let doc = Arc::new(Mutex::new(Doc::new(
        "live.jsonl",
        "recording",
        decoder,
        Profile::named("cutechess").unwrap(),
    )));
    let stop = Arc::new(AtomicBool::new(false));
    let reader = {
        let (doc, stop, rec) = (doc.clone(), stop.clone(), rec.clone());
        std::thread::spawn(move || load::follow(&rec, None, &doc, &stop, &|| {}))
    };
    let mut gui = child.stdin.take().unwrap();
    // `debug off` decides no protocol: the decoder keeps it until `uci` does, then decodes it
    // at its own time.
    gui.write_all(b"debug off\n").unwrap();
    gui.flush().unwrap();
    // The gap between the two lines is measured from when the proxy recorded the first (its
    // start may be slow on a loaded machine), so it is at least the pause by construction.
    let begun = Instant::now();
    while !std::fs::read_to_string(&rec).is_ok_and(|t| t.contains("\"debug off\"")) {
        assert!(
            begun.elapsed() < Duration::from_secs(60),
            "debug off never recorded"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(300));
    gui.write_all(b"uci\n").unwrap();
    gui.flush().unwrap();
    wait_for(&doc, "uciok", |d| {
        (0..d.rows.len()).any(|i| d.text(i) == "uciok")
    });
    {
        let d = load::lock(&doc);
        let find = |t: &str| (0..d.rows.len()).find(|&i| d.text(i) == t).unwrap();
        let (di, ui) = (find("debug off"), find("uci"));
        let (debug, uci) = (d.t(di), d.t(ui));
        assert_eq!(d.kind(di), "debug", "decoded once the protocol was known");
        assert!(
            uci - debug >= 250_000_000,
            "each line keeps its own time: {debug} then {uci}"
        );
    }
    gui.write_all(b"isready\n").unwrap();
    gui.flush().unwrap();
    wait_for(&doc, "a verdict owing readyok for a second", |d| {
        owed_readyok_ns(d).is_some_and(|w| w >= 1_000_000_000)
    });
    // The proxy's samples of the silent engine are recorded meanwhile; the traffic is not.
    let traffic =
        |d: &kibitzer::tui::doc::Doc| (0..d.rows.len()).filter(|&i| d.kind(i) != "sample").count();
    let (first, rows) = {
        let d = load::lock(&doc);
        (owed_readyok_ns(&d).unwrap(), traffic(&d))
    };
    wait_for(&doc, "the verdict to grow by a second", |d| {
        owed_readyok_ns(d).is_some_and(|w| w >= first + 1_000_000_000)
    });
    {
        let d = load::lock(&doc);
        assert_eq!(
            traffic(&d),
            rows,
            "no new traffic was recorded: the clock made it grow"
        );
        let h = d
            .hangs
            .iter()
            .find(|h| h.owed.as_deref() == Some("readyok"))
            .unwrap();
        assert!(
            h.summary
                .starts_with("engine owes readyok for `isready` since"),
            "{}",
            h.summary
        );
        assert!(!d.done);
    }
    // The GUI leaves: the engine ends, and the viewer's reader with it.
    drop(gui);
    wait_for(&doc, "the end of the session", |d| d.done);
    reader.join().unwrap();
    stop.store(true, Ordering::Relaxed);
    let _ = child.wait();
}

#[test]
fn follow_screen() {
    let decoder = Doc::new_decoder(None, Vec::new());
    let mut doc = Doc::new(
        "live.jsonl",
        "recording",
        decoder,
        Profile::named("cutechess").unwrap(),
    );
    let lines = [
        (Source::Gui, "uci", 0),
        (Source::Engine, "id name Scripted", 40),
        (Source::Engine, "uciok", 41),
        (Source::Gui, "isready", 50),
        (Source::Engine, "readyok", 52),
        (Source::Gui, "position startpos moves e2e4", 60),
        (Source::Gui, "go movetime 1000", 61),
        (
            Source::Engine,
            "info depth 1 score cp -20 nodes 20 nps 2000 time 10 pv e7e5 g1f3",
            80,
        ),
    ];
    for (i, (src, text, ms)) in lines.into_iter().enumerate() {
        let ev = Event::line(i as u64 + 1, ms * 1_000_000, src, text);
        doc.push(&ev, Some(i as u64 + 2));
    }
    doc.live_verdicts(12_461_000_000);
    let opts = Options {
        follow: true,
        ..Options::default()
    };
    let mut a = App::new(KeyMap::default(), Theme::default(), opts);
    a.set_size(120, 36);
    a.sync(&doc);
    assert_eq!(
        a.selected(),
        Some(doc.rows.len() - 1),
        "auto-scroll keeps the last line"
    );
    let mut t = Terminal::new(TestBackend::new(120, 36)).unwrap();
    t.draw(|f| {
        draw(f, &a, &doc);
    })
    .unwrap();
    let screen = format!("{}", t.backend());
    assert!(screen.contains("engine owes bestmove"), "{screen}");
    insta::assert_snapshot!("follow_mode", t.backend());
}

/// The rows' texts and kinds, to compare two documents.
fn rows_of(d: &Doc) -> Vec<(String, &'static str)> {
    (0..d.rows.len())
        .map(|i| (d.text(i).into_owned(), d.kind(i)))
        .collect()
}

#[test]
fn follows_a_gui_log_that_appears_grows_is_truncated_and_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("xboard.debug");
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log"
    );
    let text = std::fs::read(fixture).unwrap();
    let whole = load::read_file(
        std::path::Path::new(fixture),
        None,
        None,
        Profile::named("cutechess").unwrap(),
    )
    .unwrap();
    let want = rows_of(&whole);
    assert!(want.len() > 100);
    let opts = kibitzer::rules::CheckOptions::new(Profile::named("cutechess").unwrap());
    let doc = Arc::new(Mutex::new(Doc::for_follow(&log, &opts)));
    let stop = Arc::new(AtomicBool::new(false));
    let reader = {
        let (doc, stop, log) = (doc.clone(), stop.clone(), log.clone());
        std::thread::spawn(move || load::follow(&log, None, &doc, &stop, &|| {}))
    };
    // Not there yet: the viewer says it waits.
    wait_for(&doc, "the waiting notice", |d| {
        d.notice
            .as_deref()
            .is_some_and(|n| n.contains("waiting for"))
    });
    // The GUI writes the first half, then the rest, a line at a time at the cut.
    let cut = text.len() / 2;
    let cut = cut + text[cut..].iter().position(|&b| b == b'\n').unwrap() + 1;
    std::fs::write(&log, &text[..cut]).unwrap();
    wait_for(&doc, "the first half", |d| {
        d.notice.is_none() && d.format == "xboard-debug (following)" && d.rows.len() > 20
    });
    let mut f = std::fs::OpenOptions::new().append(true).open(&log).unwrap();
    for line in text[cut..].split_inclusive(|&b| b == b'\n') {
        f.write_all(line).unwrap();
    }
    drop(f);
    wait_for(&doc, "every line of the log", |d| {
        d.rows.len() >= want.len()
    });
    assert_eq!(
        rows_of(&load::lock(&doc)),
        want,
        "followed, the log reads as it does whole"
    );
    let before = load::lock(&doc).rows.len();
    // Truncated (the GUI started a new log in the same file): read again from the start.
    std::fs::write(&log, &text[..cut]).unwrap();
    wait_for(&doc, "the truncation notice", |d| {
        d.notice.as_deref().is_some_and(|n| n.contains("truncated")) && d.rows.len() > before + 20
    });
    {
        // The search pane forgets the searches of the file as it was before.
        let d = load::lock(&doc);
        assert_eq!(d.restarts, [u32::try_from(before).unwrap()]);
        let had = (0..before)
            .rev()
            .find_map(|r| kibitzer::tui::pv::search_at(&d, r));
        assert!(had.is_some(), "a search before the truncation");
        let first_search = d
            .searches
            .iter()
            .map(|x| x.start as usize)
            .find(|&s| s >= before);
        let probe = first_search
            .map_or(before + 20, |s| s.saturating_sub(1))
            .max(before);
        assert_eq!(kibitzer::tui::pv::search_at(&d, probe), None);
    }
    // Replaced (rotation: a new file under the name): the new one is read.
    let next = dir.path().join("xboard.debug.new");
    std::fs::write(&next, &text).unwrap();
    let before = load::lock(&doc).rows.len();
    std::fs::rename(&next, &log).unwrap();
    wait_for(&doc, "the replacement notice", |d| {
        d.notice.as_deref().is_some_and(|n| n.contains("replaced"))
            && d.rows.len() >= before + want.len()
    });
    stop.store(true, Ordering::Relaxed);
    reader.join().unwrap();
}
