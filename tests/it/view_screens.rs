//! The same documents at 60x15, 80x24, 160x45 and 250x70: a MultiPV analysis, a log of two
//! games, a line with three findings, and a hang with the engine's process samples. What
//! each screen must show is asserted; the snapshots keep the rest of the look under review.

use crate::view_app::{app_with, open};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use kibitzer::tui::{App, Doc, Options, draw::draw};
use ratatui::{Terminal, backend::TestBackend};

pub(crate) const MULTIPV: &str =
    "tests/fixtures/real/python-chess-stockfish-analysis-multipv3.jsonl";
pub(crate) const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (160, 45), (250, 70)];

/// A viewer of `doc` at `w` x `h` with line `line` of the input selected.
fn at(doc: &Doc, line: u64, w: u16, h: u16) -> App {
    let opts = Options {
        start_line: Some(line),
        ..Options::default()
    };
    app_with(doc, opts, w, h)
}

pub(crate) fn keys(a: &mut App, doc: &Doc, text: &str) {
    for c in text.chars() {
        let code = match c {
            '\n' => KeyCode::Enter,
            '\x1b' => KeyCode::Esc,
            '\t' => KeyCode::Tab,
            c => KeyCode::Char(c),
        };
        a.key(doc, KeyEvent::new(code, KeyModifiers::NONE));
    }
}

/// One frame drawn at `w` x `h`.
fn frame(a: &App, doc: &Doc, w: u16, h: u16) -> ratatui::buffer::Buffer {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| {
        draw(f, a, doc);
    })
    .unwrap();
    t.backend().buffer().clone()
}

/// The screen as text, one row a line.
pub(crate) fn screen(a: &App, doc: &Doc, w: u16, h: u16) -> String {
    let buf = frame(a, doc, w, h);
    let mut out = String::new();
    for y in 0..h {
        let mut skip = 0;
        for x in 0..w {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let s = buf[(x, y)].symbol();
            skip = unicode_width(s).saturating_sub(1);
            out.push_str(s);
        }
        out.push('\n');
    }
    out
}

/// The runs of text drawn with the search's match colour, a string a run.
fn match_cells(a: &App, doc: &Doc, w: u16, h: u16) -> Vec<String> {
    let buf = frame(a, doc, w, h);
    let mut runs = Vec::new();
    for y in 0..h {
        let mut run = String::new();
        for x in 0..w {
            if buf[(x, y)].bg == a.theme.match_bg {
                run.push_str(buf[(x, y)].symbol());
            } else if !run.is_empty() {
                runs.push(std::mem::take(&mut run));
            }
        }
        if !run.is_empty() {
            runs.push(run);
        }
    }
    runs
}

fn unicode_width(s: &str) -> usize {
    // Only the board's pieces and the gutter's shapes are drawn here, all one column wide.
    usize::from(!s.is_empty())
}

#[test]
fn the_search_pane_shows_every_multipv_line_best_first() {
    let doc = open(MULTIPV);
    // Line 89 is the last report before `bestmove` (line 90): the search still runs.
    let a = at(&doc, 89, 160, 45);
    let s = screen(&a, &doc, 160, 45);
    assert!(s.contains("running"), "{s}");
    let one = s.find("1 +0.41 d17/20 1. d4 Nf6").expect(&s);
    let two = s.find("2 ≥+0.36 d17/22 1. Nf3").expect(&s);
    let three = s.find("3 +0.26 d16/23 1. e4 c5").expect(&s);
    assert!(one < two && two < three, "{s}");
    // On `bestmove` the search has ended: the pane says how, and keeps the lines.
    let a = at(&doc, 90, 160, 45);
    let s = screen(&a, &doc, 160, 45);
    assert!(s.contains("bestmove d2d4 ponder g8f6"), "{s}");
    assert!(!s.contains("running"), "{s}");
    assert!(s.contains("1 +0.41 d17/20"), "{s}");
    for (w, h) in SIZES {
        let a = at(&doc, 90, w, h);
        insta::assert_snapshot!(format!("multipv_{w}x{h}"), screen(&a, &doc, w, h));
    }
}

#[test]
fn a_new_game_clears_the_search_pane() {
    let doc = open("tests/fixtures/fastchess/concurrent.log.gz");
    let mut a = app_with(&doc, Options::default(), 160, 45);
    // The last line of the first game has a search; the first board line of the next has not.
    keys(&mut a, &doc, "}");
    let first = a.selected().unwrap();
    keys(&mut a, &doc, "}");
    let second = a.selected().unwrap();
    assert!(second > first);
    let s = screen(&a, &doc, 160, 45);
    assert!(s.contains("no search in this game yet"), "{s}");
    assert!(!s.contains("Qg3#"), "{s}");
}

pub(crate) const HANG: &str = "tests/fixtures/forensics/spin-capture.jsonl";

#[test]
fn the_hang_verdict_is_in_the_violations_pane_and_jumps_to_the_request() {
    let doc = open(HANG);
    let mut a = app_with(&doc, Options::default(), 160, 45);
    let s = screen(&a, &doc, 160, 45);
    assert!(s.contains("hang 1 hang verdict"), "{s}");
    assert!(
        s.contains("L11 TIMEOUT [SPINNING]: engine owes bestmove"),
        "{s}"
    );
    keys(&mut a, &doc, "xj\n");
    assert_eq!(doc.text(a.selected().unwrap()), "go movetime 300");
    assert_eq!(doc.line(a.selected().unwrap()), 11);
    for (w, h) in SIZES {
        let mut a = app_with(&doc, Options::default(), w, h);
        keys(&mut a, &doc, "xj\n");
        let s = screen(&a, &doc, w, h);
        // However narrow, the status bar keeps the position, the counts and the verdict.
        let status = s.lines().nth(usize::from(h) - 2).unwrap();
        assert!(status.contains("L11"), "{w}x{h}: {status}");
        assert!(
            status.contains("E ") && status.contains("N"),
            "{w}x{h}: {status}"
        );
        assert!(status.contains("TIMEOUT [SPINNING]"), "{w}x{h}: {status}");
        insta::assert_snapshot!(format!("hang_{w}x{h}"), s);
    }
}

#[test]
fn the_status_bar_drops_what_matters_least_first() {
    let doc = open("tests/fixtures/fastchess/concurrent.log.gz");
    for (w, h) in SIZES {
        let mut a = app_with(&doc, Options::default(), w, h);
        keys(&mut a, &doc, "/bestmove\n");
        let s = screen(&a, &doc, w, h);
        let status = s.lines().nth(usize::from(h) - 2).unwrap().trim_end();
        assert!(status.contains(" lines"), "{w}x{h}: {status}");
        assert!(
            status.ends_with("N") || status.contains("N ·"),
            "{w}x{h}: {status}"
        );
        assert!(
            status.chars().count() <= usize::from(w),
            "{w}x{h}: {status}"
        );
    }
}

#[test]
fn the_detail_scrolls_and_says_it_is_cut_and_enter_shows_the_whole_line() {
    let doc = open(HANG);
    let mut a = at(&doc, 11, 80, 24);
    let s = screen(&a, &doc, 80, 24);
    // Three findings do not fit in the pane: the title says which rows are shown.
    assert!(s.contains("detail · 1-6/"), "{s}");
    assert!(s.contains("↓ [ ]"), "{s}");
    keys(&mut a, &doc, "]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]");
    let s = screen(&a, &doc, 80, 24);
    assert!(!s.contains("↓ [ ]"), "{s}");
    assert!(s.contains("still owed"), "{s}");
    // Another line starts at its top.
    keys(&mut a, &doc, "kj");
    assert!(screen(&a, &doc, 80, 24).contains("detail · 1-6/"));
    // Enter: the line alone, every finding with its spec sentence.
    for (w, h) in SIZES {
        let mut a = at(&doc, 11, w, h);
        keys(&mut a, &doc, "\n");
        let s = screen(&a, &doc, w, h);
        assert!(s.contains("line 11 · esc closes"), "{w}x{h}: {s}");
        insta::assert_snapshot!(format!("line_view_{w}x{h}"), s);
    }
    let mut a = at(&doc, 11, 160, 45);
    keys(&mut a, &doc, "\n");
    let s = screen(&a, &doc, 160, 45);
    for rule in [
        "error[X-HANG]",
        "warning[UCI-BESTMOVE-LATE]",
        "warning[X-HANG-SPINNING]",
    ] {
        assert!(s.contains(rule), "{rule}: {s}");
    }
    assert_eq!(s.matches("spec: ").count(), 3, "{s}");
    // With no room for the board, its FEN is the line view's last line.
    let mut small = at(&doc, 11, 60, 15);
    keys(&mut small, &doc, "\n");
    screen(&small, &doc, 60, 15);
    keys(&mut small, &doc, "G");
    let s = screen(&small, &doc, 60, 15);
    assert!(
        s.contains("board  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"),
        "{s}"
    );
    // q leaves the line view, not the viewer.
    keys(&mut a, &doc, "q");
    assert!(!a.quit);
    assert!(screen(&a, &doc, 160, 45).contains("traffic"));
}

#[test]
fn panes_grow_with_the_width_and_l_gives_the_screen_to_the_list() {
    let doc = open(MULTIPV);
    let board_width = |s: &str| {
        let top = s.lines().next().unwrap();
        let at = top.find("┌ board").unwrap();
        top[at..].chars().count()
    };
    let narrow = screen(&at(&doc, 90, 120, 36), &doc, 120, 36);
    let wide = screen(&at(&doc, 90, 250, 70), &doc, 250, 70);
    assert_eq!(board_width(&narrow), 36);
    assert_eq!(board_width(&wide), 75);
    let mut a = at(&doc, 90, 160, 45);
    let before = a.page;
    keys(&mut a, &doc, "L");
    let s = screen(&a, &doc, 160, 45);
    assert!(!s.contains("┌ board") && !s.contains("┌ detail"), "{s}");
    assert!(s.contains("L: panes"), "{s}");
    assert_eq!(a.page, 45 - 2 - 3);
    assert!(a.page > before);
    keys(&mut a, &doc, "L");
    assert!(screen(&a, &doc, 160, 45).contains("┌ board"));
}

#[test]
fn a_two_game_log_at_every_size() {
    let doc = open("tests/fixtures/fastchess/concurrent.log.gz");
    for (w, h) in SIZES {
        let mut a = app_with(&doc, Options::default(), w, h);
        keys(&mut a, &doc, "}}");
        let s = screen(&a, &doc, w, h);
        if w < 90 {
            assert!(!s.contains("┌ board"), "{w}x{h}: {s}");
        } else {
            assert!(s.contains("no search in this game yet"), "{w}x{h}: {s}");
        }
        if h < 18 {
            assert!(s.contains("enter: detail"), "{w}x{h}: {s}");
        }
        insta::assert_snapshot!(format!("two_games_{w}x{h}"), s);
    }
}

#[test]
fn process_samples_are_hidden_at_first_and_a_capture_shows_its_threads_escaped() {
    let doc = open(HANG);
    let mut a = app_with(&doc, Options::default(), 160, 45);
    let s = screen(&a, &doc, 160, 45);
    assert!(!s.contains("* sample"), "{s}");
    assert!(s.contains("filter: !kind:sample"), "{s}");
    keys(&mut a, &doc, "P");
    let s = screen(&a, &doc, 160, 45);
    assert!(s.contains("* sample"), "{s}");
    // The capture: line 17 of the recording.
    keys(&mut a, &doc, ":17\n");
    assert_eq!(doc.line(a.selected().unwrap()), 17);
    keys(&mut a, &doc, "\n");
    let s = screen(&a, &doc, 160, 45);
    for want in [
        "sample ",
        "capture the engine has been silent for 2.0 s",
        "thread ",
        "python3 R",
        "--on-hang echo threads of $KIBITZER_ENGINE_PID",
        "threads of ",
        "red",
    ] {
        assert!(s.contains(want), "{want}: {s}");
    }
    // The command's colour codes are shown, not sent to the terminal.
    assert!(!s.contains('\x1b'), "{s}");
    assert!(
        s.contains("\\x1b[31mred") || s.contains("\\e[31mred"),
        "{s}"
    );
    keys(&mut a, &doc, "\x1bP");
    assert!(!screen(&a, &doc, 160, 45).contains("* sample"));
}

#[test]
fn the_cpu_and_memory_chart_is_beside_the_eval_chart() {
    let doc = open(HANG);
    for (w, h) in [(80, 24), (160, 45)] {
        let mut a = at(&doc, 11, w, h);
        keys(&mut a, &doc, "c");
        let s = screen(&a, &doc, w, h);
        assert!(s.contains("engine CPU"), "{s}");
        assert!(s.contains("engine memory"), "{s}");
        insta::assert_snapshot!(format!("process_chart_{w}x{h}"), s);
    }
    let doc = open(MULTIPV);
    let mut a = at(&doc, 90, 160, 45);
    keys(&mut a, &doc, "c");
    assert!(!screen(&a, &doc, 160, 45).contains("engine CPU"));
}

#[test]
fn habits_of_less_and_lnav() {
    let doc = open(MULTIPV);
    let mut a = app_with(&doc, Options::default(), 80, 24);
    // The help: q leaves it, not the viewer; / searches it, n goes on.
    keys(&mut a, &doc, "?/line numbers\n");
    assert!(a.show_help);
    assert!(screen(&a, &doc, 80, 24).contains("less -N"));
    // The match is marked where it is, in the search's colour, and only there.
    let marked = match_cells(&a, &doc, 80, 24);
    assert!(marked.iter().any(|m| m == "line numbers"), "{marked:?}");
    assert!(marked.iter().all(|m| m == "line numbers"), "{marked:?}");
    keys(&mut a, &doc, "q");
    assert!(!a.show_help && !a.quit);
    // PgDn pages as less does: the view moves a page, the cursor with it.
    let page = a.page;
    keys(&mut a, &doc, " ");
    assert_eq!((a.offset, a.cursor), (page, page));
    keys(&mut a, &doc, "3 ");
    assert_eq!((a.offset, a.cursor), (4 * page, 4 * page));
    // Counts on every motion: 3) is the third search on.
    keys(&mut a, &doc, "g3)");
    let third = doc.searches[2].start as usize;
    assert_eq!(a.selected(), Some(third));
    // The line numbers column.
    keys(&mut a, &doc, "g#");
    let s = screen(&a, &doc, 80, 24);
    assert!(s.contains("  # time"), "{s}");
    assert!(s.contains("  2    0.002088 * spawned"), "{s}");
    // :N onto a line the filter hides: said, and y shows it.
    keys(&mut a, &doc, "fkind:go\n:90\n");
    assert!(
        a.message
            .as_ref()
            .unwrap()
            .0
            .contains("hidden by the filter")
    );
    assert!(a.filtered());
    keys(&mut a, &doc, "y");
    assert!(!a.filtered());
    assert_eq!(doc.line(a.selected().unwrap()), 90);
}

/// Types `text` and presses Tab.
fn tab(a: &mut App, doc: &Doc, text: &str) {
    keys(a, doc, text);
    a.key(doc, KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
}

fn prompt_text(a: &App) -> String {
    a.prompt.as_ref().map(|p| p.edit.text()).unwrap_or_default()
}

#[test]
fn tab_completes_kinds_rules_sessions_commands_and_paths() {
    let doc = open(MULTIPV);
    let mut a = app_with(&doc, Options::default(), 80, 24);
    tab(&mut a, &doc, "fengine kind:best");
    assert_eq!(prompt_text(&a), "engine kind:bestmove ");
    keys(&mut a, &doc, "\x1b");
    tab(&mut a, &doc, "frule:UCI-BESTMOVE-");
    assert!(prompt_text(&a).starts_with("rule:UCI-BESTMOVE-"));
    assert!(a.candidates.len() > 1, "{:?}", a.candidates);
    let s = screen(&a, &doc, 80, 24);
    assert!(s.contains("tab · "), "{s}");
    assert!(s.contains("rule:UCI-BESTMOVE-ILLEGAL"), "{s}");
    keys(&mut a, &doc, "\x1b");
    tab(&mut a, &doc, "fsession:stock");
    assert_eq!(prompt_text(&a), "session:1 ");
    keys(&mut a, &doc, "\x1b");
    tab(&mut a, &doc, ":next_er");
    assert_eq!(prompt_text(&a), "next_error ");
    keys(&mut a, &doc, "\x1b");
    tab(&mut a, &doc, ":write tests/fixtures/forens");
    assert_eq!(prompt_text(&a), "write tests/fixtures/forensics/");
    a.key(&doc, KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE));
    assert_eq!(
        prompt_text(&a),
        "write tests/fixtures/forensics/spin-capture.jsonl "
    );
}

#[test]
fn sessions_are_numbered_one_way_everywhere() {
    let doc = open("tests/fixtures/fastchess/concurrent.log.gz");
    let n = doc.decoder().sessions().len();
    assert!(n > 2);
    let mut a = app_with(&doc, Options::default(), 160, 45);
    keys(&mut a, &doc, "}");
    let r = a.selected().unwrap();
    let k = usize::from(doc.rows[r].session()) + 1;
    let s = screen(&a, &doc, 160, 45);
    let status = s.lines().nth(43).unwrap();
    assert!(status.contains(&format!("session {k}/{n} ")), "{status}");
    // The session list numbers them the same way, and its keys move its own cursor.
    let cursor = a.cursor;
    keys(&mut a, &doc, "lG");
    assert_eq!(a.cursor, cursor);
    assert_eq!(a.session_cursor, n);
    let s = screen(&a, &doc, 160, 45);
    assert!(s.contains(&format!("│{n} ")), "{s}");
    // session:K shows the lines the list marks K.
    keys(&mut a, &doc, "\x1bg");
    keys(&mut a, &doc, &format!("fsession:{k}\n"));
    assert!(a.filtered());
    let r = a.selected().unwrap();
    assert_eq!(usize::from(doc.rows[r].session()) + 1, k);
    let s = screen(&a, &doc, 160, 45);
    assert!(s.contains(&format!("session {k}/{n}")), "{s}");
}

#[test]
fn unreadable_lines_are_shown_raw_in_place_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("torn.jsonl");
    let good = std::fs::read_to_string("recordings/stockfish-uci-game.jsonl").unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    lines[5] = "{\"seq\":5,\"t\":";
    lines[9] = "garbage \u{1b}[31m";
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let doc = open(path.to_str().unwrap());
    let mut a = app_with(&doc, Options::default(), 120, 36);
    let s = screen(&a, &doc, 120, 36);
    assert!(
        s.contains("✗ unreadable line 6: {\"seq\":5,\"t\":  (malformed"),
        "{s}"
    );
    assert!(s.contains("{\"seq\":5,\"t\":"), "{s}");
    assert!(s.contains("✗ unreadable line 10: garbage"), "{s}");
    assert!(s.contains("garbage \\x1b[31m"), "{s}");
    assert!(!s.contains('\x1b'), "{s}");
    // :10 says why it lands on line 11.
    keys(&mut a, &doc, ":10\n");
    assert_eq!(doc.line(a.selected().unwrap()), 11);
    assert!(a.message.as_ref().unwrap().0.contains("could not be read"));
}

#[test]
fn esc_stops_a_search_and_its_count() {
    let dir = tempfile::tempdir().unwrap();
    let path = crate::view_power::long_recording(dir.path(), 300_000);
    let doc = open(path.to_str().unwrap());
    let mut a = app_with(&doc, Options::default(), 120, 36);
    keys(&mut a, &doc, "/no such line\n");
    a.work(&doc);
    assert!(a.is_searching());
    keys(&mut a, &doc, "\x1b");
    assert!(!a.is_searching());
    let s = screen(&a, &doc, 120, 36);
    assert!(!s.contains("matches…"), "{s}");
    assert!(s.contains("search stopped"), "{s}");
}

#[test]
fn the_wheel_scrolls_the_detail_under_it_and_the_line_view() {
    use crossterm::event::{MouseEvent, MouseEventKind};
    let doc = open(HANG);
    let mut a = at(&doc, 11, 80, 24);
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let mut areas = a.areas;
    t.draw(|f| areas = draw(f, &a, &doc)).unwrap();
    a.areas = areas;
    let d = a.areas.detail;
    assert!(d.height > 0);
    let wheel = |kind| MouseEvent {
        kind,
        column: d.x + 2,
        row: d.y + 2,
        modifiers: KeyModifiers::NONE,
    };
    let cursor = a.cursor;
    a.mouse(&doc, wheel(MouseEventKind::ScrollDown));
    assert_eq!(a.cursor, cursor);
    assert!(screen(&a, &doc, 80, 24).contains("detail · 4-9/"));
    keys(&mut a, &doc, "\n");
    screen(&a, &doc, 80, 24);
    a.mouse(&doc, wheel(MouseEventKind::ScrollDown));
    assert!(screen(&a, &doc, 80, 24).contains("line 11 · esc closes · 4-"));
}
