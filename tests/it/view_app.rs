//! `kibitzer view` without a terminal: `App::update` on real recordings and logs, and the
//! main screens drawn into a fixed-size `TestBackend` and compared with insta snapshots.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use kibitzer::rules::Profile;
use kibitzer::tui::{Action, App, Doc, KeyMap, Options, Theme, draw::draw, load::read_file};
use ratatui::{Terminal, backend::TestBackend};
use std::path::Path;

const W: u16 = 120;
const H: u16 = 36;

/// The input as the viewer reads it, judged under the cutechess profile.
pub(crate) fn open(path: &str) -> Doc {
    read_file(
        Path::new(path),
        None,
        None,
        Profile::named("cutechess").unwrap(),
    )
    .unwrap()
}

/// A viewer over `doc` on a `w` x `h` terminal.
pub(crate) fn app_with(doc: &Doc, opts: Options, w: u16, h: u16) -> App {
    let mut a = App::new(KeyMap::default(), Theme::default(), opts);
    a.set_size(w, h);
    a.sync(doc);
    a
}

fn app(doc: &Doc) -> App {
    app_with(doc, Options::default(), W, H)
}

/// Types `keys` as the terminal would send them.
fn keys(a: &mut App, doc: &Doc, keys: &str) {
    for c in keys.chars() {
        let code = match c {
            '\n' => KeyCode::Enter,
            '\x1b' => KeyCode::Esc,
            '\t' => KeyCode::Tab,
            c => KeyCode::Char(c),
        };
        a.key(doc, KeyEvent::new(code, KeyModifiers::NONE));
    }
}

fn screen(a: &App, doc: &Doc) -> TestBackend {
    let mut t = Terminal::new(TestBackend::new(W, H)).unwrap();
    t.draw(|f| {
        draw(f, a, doc);
    })
    .unwrap();
    t.backend().clone()
}

fn selected_text(a: &App, doc: &Doc) -> String {
    doc.text(a.selected().unwrap()).into_owned()
}

#[test]
fn moving_around_a_uci_game() {
    let doc = open("recordings/stockfish-uci-game.jsonl");
    let mut a = app(&doc);
    assert_eq!(a.selected(), Some(0));
    keys(&mut a, &doc, "jjj");
    assert_eq!(a.selected(), Some(3));
    keys(&mut a, &doc, "k");
    assert_eq!(a.selected(), Some(2));
    keys(&mut a, &doc, "G");
    assert_eq!(a.selected(), Some(doc.rows.len() - 1));
    keys(&mut a, &doc, "g");
    assert_eq!(a.selected(), Some(0));
    a.update(&doc, Action::PageDown);
    assert_eq!(a.selected(), Some(a.page));
    // Next search: the first `go`, with the board and the search of that line.
    keys(&mut a, &doc, "g)");
    assert!(
        selected_text(&a, &doc).starts_with("go"),
        "{}",
        selected_text(&a, &doc)
    );
    keys(&mut a, &doc, "}");
    assert!(
        a.message
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("game"))
    );
}

#[test]
fn the_illegal_bestmove_is_one_key_away() {
    let doc = open("tests/fixtures/corpus/python-chess__python-chess-429__1.log");
    let mut a = app(&doc);
    keys(&mut a, &doc, "e");
    assert_eq!(selected_text(&a, &doc), "bestmove a1a1 ponder c6a5");
    let f = doc.findings_of(a.selected().unwrap());
    assert_eq!(f[0].rule, "UCI-BESTMOVE-ILLEGAL");
    // And from the violations panel: the error group comes first, Enter jumps to its line.
    keys(&mut a, &doc, "gx");
    assert_eq!(a.focus, kibitzer::tui::app::Focus::Violations);
    keys(&mut a, &doc, "\n");
    assert_eq!(selected_text(&a, &doc), "bestmove a1a1 ponder c6a5");
    insta::assert_snapshot!("violation_selected", screen(&a, &doc));
}

#[test]
fn filter_search_marks_and_time() {
    let doc = open("recordings/stockfish-uci-game.jsonl");
    let mut a = app(&doc);
    keys(&mut a, &doc, "fengine kind:bestmove\n");
    assert!(!a.view.is_empty());
    assert!(a.view.iter().all(|r| doc.kind(r as usize) == "bestmove"));
    let shown = a.view.len();
    // A bad filter says why and keeps the one in force.
    keys(&mut a, &doc, "f");
    a.prompt.as_mut().unwrap().edit.set("sev:loud");
    keys(&mut a, &doc, "\n");
    assert!(
        a.message
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("severity"))
    );
    assert_eq!(a.view.len(), shown);
    insta::assert_snapshot!("filter_active", screen(&a, &doc));
    a.update(&doc, Action::ClearFilter);
    assert_eq!(a.view.len(), doc.rows.len());
    // Regex search, n and N.
    keys(&mut a, &doc, "/ponder h\n");
    let first = a.selected().unwrap();
    assert!(doc.text(first).contains("ponder h"));
    keys(&mut a, &doc, "n");
    let second = a.selected().unwrap();
    assert!(second > first && doc.text(second).contains("ponder h"));
    keys(&mut a, &doc, "N");
    assert_eq!(a.selected(), Some(first));
    // Marks.
    keys(&mut a, &doc, "magG'a");
    assert_eq!(a.selected(), Some(first));
    keys(&mut a, &doc, "'z");
    assert!(
        a.message
            .as_ref()
            .is_some_and(|(m, _)| m.contains("no mark 'z'"))
    );
    // Time column modes cycle.
    let modes: Vec<_> = (0..4)
        .map(|_| {
            keys(&mut a, &doc, "t");
            a.time_mode
        })
        .collect();
    assert_eq!(
        modes.last(),
        Some(&kibitzer::tui::app::TimeMode::SinceStart)
    );
    assert_eq!(
        modes.iter().collect::<std::collections::HashSet<_>>().len(),
        4
    );
}

#[test]
fn silence_gaps_and_copy() {
    let doc = open("recordings/stockfish-uci-game.jsonl");
    let mut a = app(&doc);
    keys(&mut a, &doc, "s");
    if let Some(r) = a.selected().filter(|&r| r > 0) {
        assert!(doc.t(r) - doc.t(r - 1) > 1_000_000_000);
    }
    keys(&mut a, &doc, "g))jjj");
    keys(&mut a, &doc, "y");
    let fen = a.copied.clone().expect("a FEN");
    assert_eq!(fen.split(' ').count(), 6, "{fen}");
    // The clipboard is off unless the config turns it on.
    assert!(a.osc52.is_none());
    insta::assert_snapshot!("uci_game", screen(&a, &doc));
    a.opts.osc52 = true;
    keys(&mut a, &doc, "y");
    assert!(
        a.osc52
            .as_ref()
            .is_some_and(|s| s.starts_with("\x1b]52;c;"))
    );
}

#[test]
fn help_is_generated_from_the_keys_and_closes_on_any_key() {
    let doc = open("recordings/stockfish-uci-game.jsonl");
    let mut a = app(&doc);
    keys(&mut a, &doc, "?");
    assert!(a.show_help);
    let s = screen(&a, &doc);
    insta::assert_snapshot!("help", s);
    keys(&mut a, &doc, "j");
    assert!(a.show_help, "j scrolls the help");
    keys(&mut a, &doc, "x");
    assert!(!a.show_help);
    keys(&mut a, &doc, "?h");
    assert!(!a.show_help, "a key bound to nothing closes it too");
}

#[test]
fn cecp_and_nboard_games_show_their_boards() {
    let doc = open("recordings/fairymax-cecp-game.jsonl");
    let mut a = app(&doc);
    keys(&mut a, &doc, "))))jj");
    assert!(kibitzer::tui::board::position_at(&doc, a.selected().unwrap()).is_some());
    insta::assert_snapshot!("cecp_game", screen(&a, &doc));
    let doc = open("recordings/nboard-scripted-engine.jsonl");
    let mut a = app(&doc);
    keys(&mut a, &doc, "G");
    let p =
        kibitzer::tui::board::position_at(&doc, a.selected().unwrap()).expect("an Othello board");
    assert_eq!(p.kind, kibitzer::session::GameKind::Othello);
    insta::assert_snapshot!("nboard_game", screen(&a, &doc));
}

#[test]
fn sessions_of_a_multi_engine_log_are_switchable() {
    let doc = open("tests/fixtures/corpus/cutechess-cli__cutechess-464__1.log");
    let mut a = app(&doc);
    assert!(doc.decoder().sessions().len() >= 2);
    let all = a.view.len();
    keys(&mut a, &doc, "l");
    keys(&mut a, &doc, "j\n");
    assert!(a.view.len() < all);
    assert!(a.view.iter().all(|r| doc.rows[r as usize].session() == 0));
    keys(&mut a, &doc, "lk\n");
    assert_eq!(a.view.len(), all);
}

#[test]
fn themes_colour_the_screen() {
    let doc = open("tests/fixtures/corpus/python-chess__python-chess-429__1.log");
    for (name, error) in [
        ("dark", ratatui::style::Color::Rgb(0xff, 0x5f, 0x5f)),
        (
            "high-contrast",
            ratatui::style::Color::Rgb(0xd5, 0x5e, 0x00),
        ),
    ] {
        let theme = kibitzer::tui::config::theme(name).unwrap();
        let mut a = App::new(KeyMap::default(), theme, Options::default());
        a.set_size(W, H);
        a.sync(&doc);
        let b = screen(&a, &doc);
        let buf = b.buffer();
        let gutter = (0..H)
            .map(|y| &buf[(1, y)])
            .find(|c| c.symbol() == "●")
            .expect("the error's gutter mark");
        assert_eq!(gutter.fg, error, "{name}");
    }
}

#[test]
fn a_mapped_recording_keeps_the_text_of_an_event_spread_over_lines() {
    // jq or a pretty-printer may spread an event over several lines: no one line of the map
    // holds it, so its text is kept, and the events around it still read from the map.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("spread.jsonl");
    let header = std::fs::read_to_string("recordings/stockfish-uci-game.jsonl").unwrap();
    let header = header.lines().next().unwrap();
    std::fs::write(
        &f,
        format!(
            "{header}\n{}\n{{\n  \"seq\": 2,\n  \"t\": 7,\n  \"src\": \"engine\",\n  \"text\": \"id name Spread\"\n}}\n{}\n",
            r#"{"seq":1,"t":5,"src":"gui","text":"uci"}"#,
            r#"{"seq":3,"t":9,"src":"engine","text":"uciok"}"#
        ),
    )
    .unwrap();
    let p = || Profile::named("cutechess").unwrap();
    let mapped = kibitzer::tui::load::read_file_with(&f, None, None, p(), true).unwrap();
    let kept = kibitzer::tui::load::read_file_with(&f, None, None, p(), false).unwrap();
    assert!(mapped.map().is_some());
    let texts: Vec<String> = (0..mapped.rows.len())
        .map(|i| mapped.text(i).into_owned())
        .collect();
    assert_eq!(texts, ["uci", "id name Spread", "uciok"]);
    for i in 0..kept.rows.len() {
        assert_eq!(mapped.event(i), kept.event(i), "row {i}");
    }
}

#[test]
fn a_mapped_recording_reads_back_every_line_as_kept_text_does() {
    for f in [
        "recordings/stockfish-uci-game.jsonl",
        "recordings/fairymax-cecp-game.jsonl",
        "recordings/gnuchess-cecp-game.jsonl",
        "recordings/nboard-scripted-engine.jsonl",
    ] {
        let p = || Profile::named("cutechess").unwrap();
        let mapped =
            kibitzer::tui::load::read_file_with(Path::new(f), None, None, p(), true).unwrap();
        let kept =
            kibitzer::tui::load::read_file_with(Path::new(f), None, None, p(), false).unwrap();
        assert!(mapped.map().is_some() && kept.map().is_none());
        assert_eq!(mapped.rows.len(), kept.rows.len());
        let rec =
            kibitzer::recording::read_all(std::io::BufReader::new(std::fs::File::open(f).unwrap()))
                .unwrap();
        assert_eq!(rec.events.len(), kept.rows.len(), "{f}");
        for (i, ev) in rec.events.iter().enumerate() {
            assert_eq!(mapped.event(i).as_ref(), Some(ev), "{f} row {i}");
            assert_eq!(kept.text(i), ev.text, "{f} row {i}");
            assert_eq!(mapped.kind(i), kept.kind(i));
            assert_eq!(mapped.pos(i), kept.pos(i));
        }
    }
}

#[test]
fn mouse_wheel_and_clicks() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let doc = open("tests/fixtures/corpus/python-chess__python-chess-429__1.log");
    let mut a = app(&doc);
    a.areas = draw_areas(&a, &doc);
    let ev = |kind, column, row| MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    };
    // The wheel moves the page, not the selection, until the selection would leave it.
    let game = open("recordings/stockfish-uci-game.jsonl");
    let mut b = app(&game);
    b.areas = draw_areas(&b, &game);
    b.mouse(&game, ev(MouseEventKind::ScrollDown, 10, 5));
    assert_eq!((b.offset, b.selected()), (3, Some(3)));
    keys(&mut b, &game, "jj");
    b.mouse(&game, ev(MouseEventKind::ScrollDown, 10, 5));
    assert_eq!((b.offset, b.selected()), (6, Some(6)));
    b.mouse(&game, ev(MouseEventKind::ScrollUp, 10, 5));
    assert_eq!((b.offset, b.selected()), (3, Some(6)));
    b.mouse(&game, ev(MouseEventKind::ScrollUp, 10, 5));
    assert_eq!((b.offset, b.selected()), (0, Some(6)));
    // The list has a border and a header: screen row 2 is its first line.
    let l = a.areas.list;
    a.mouse(
        &doc,
        ev(
            MouseEventKind::Down(MouseButton::Left),
            l.x + 5,
            l.y + 2 + 4,
        ),
    );
    assert_eq!(a.selected(), Some(4));
    // A click on the violations panel's first finding jumps to its line.
    keys(&mut a, &doc, "g");
    let v = a.areas.violations;
    a.mouse(
        &doc,
        ev(MouseEventKind::Down(MouseButton::Left), v.x + 3, v.y + 2),
    );
    assert_eq!(selected_text(&a, &doc), "bestmove a1a1 ponder c6a5");
}

fn draw_areas(a: &App, doc: &Doc) -> kibitzer::tui::app::Areas {
    let mut t = Terminal::new(TestBackend::new(W, H)).unwrap();
    let mut areas = a.areas;
    t.draw(|f| areas = draw(f, a, doc)).unwrap();
    areas
}

#[test]
fn a_small_terminal_still_draws_and_pages_follow_its_height() {
    let doc = open("recordings/stockfish-uci-game.jsonl");
    let mut a = app(&doc);
    let big = a.page;
    a.set_size(60, 16);
    assert!(a.page < big);
    a.update(&doc, Action::PageDown);
    assert_eq!(a.selected(), Some(a.page));
    let mut t = Terminal::new(TestBackend::new(60, 16)).unwrap();
    t.draw(|f| {
        draw(f, &a, &doc);
    })
    .unwrap();
    let s = format!("{}", t.backend());
    assert!(s.contains("traffic"), "{s}");
    assert!(
        !s.contains("┌ board"),
        "no room for the board at 60 columns"
    );
    // Tiny terminals draw what fits, with every panel open, and never panic.
    keys(&mut a, &doc, "?");
    for (w, h) in [(20, 6), (8, 3), (1, 1), (200, 2)] {
        a.set_size(w, h);
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        for k in ["", "?", "l", "c", "x"] {
            keys(&mut a, &doc, k);
            t.draw(|f| {
                draw(f, &a, &doc);
            })
            .unwrap();
        }
    }
}

#[test]
fn the_eval_chart_plots_the_game_from_whites_side() {
    let doc = open("recordings/stockfish-uci-long-game.jsonl");
    let mut a = app(&doc);
    keys(&mut a, &doc, "G");
    let (pts, ply) = kibitzer::tui::board::eval_series(&doc, a.selected().unwrap(), 10.0).unwrap();
    assert!(
        pts.len() > 20 && ply > 20,
        "{} points, ply {ply}",
        pts.len()
    );
    assert!(
        pts.iter().all(|(_, y)| (-10.0..=10.0).contains(y)),
        "mates and big scores clamped"
    );
    assert!(pts.iter().any(|(_, y)| *y < 0.0) || pts.iter().any(|(_, y)| *y > 0.0));
    keys(&mut a, &doc, "c");
    assert!(a.show_chart);
    let s = format!("{}", screen(&a, &doc));
    assert!(s.contains("eval chart"), "{s}");
}

#[test]
fn follow_auto_scroll_toggles() {
    let doc = open("recordings/stockfish-uci-game.jsonl");
    let mut a = App::new(
        KeyMap::default(),
        Theme::default(),
        Options {
            follow: true,
            ..Options::default()
        },
    );
    a.set_size(W, H);
    a.sync(&doc);
    assert_eq!(a.selected(), Some(doc.rows.len() - 1));
    keys(&mut a, &doc, "F");
    assert!(!a.autoscroll);
    keys(&mut a, &doc, "gF");
    assert!(a.autoscroll);
    assert_eq!(a.selected(), Some(doc.rows.len() - 1));
    // Without --follow, F says why it does nothing.
    let mut b = app(&doc);
    keys(&mut b, &doc, "F");
    assert!(
        b.message
            .as_ref()
            .is_some_and(|(m, err)| *err && m.contains("--follow"))
    );
}

#[test]
fn a_mapped_log_reads_back_every_event_text_as_kept_text_does() {
    let mut logs: Vec<std::path::PathBuf> = Vec::new();
    for dir in ["tests/fixtures/corpus", "tests/fixtures/logs"] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "log") {
                logs.push(p);
            }
        }
    }
    assert!(logs.len() > 20);
    let (mut kept_total, mut text_total) = (0, 0);
    for f in &logs {
        let p = || Profile::named("cutechess").unwrap();
        let mapped = kibitzer::tui::load::read_file_with(f, None, None, p(), true).unwrap();
        let kept = kibitzer::tui::load::read_file_with(f, None, None, p(), false).unwrap();
        assert_eq!(mapped.rows.len(), kept.rows.len());
        for i in 0..kept.rows.len() {
            assert_eq!(mapped.text(i), kept.text(i), "{} row {i}", f.display());
            assert_eq!(mapped.event(i), kept.event(i), "{} row {i}", f.display());
            text_total += kept.text(i).len();
        }
        kept_total += mapped.kept_bytes();
    }
    // Most of the text is read from the log itself, not copied.
    assert!(
        kept_total * 3 < text_total,
        "kept {kept_total} of {text_total} bytes"
    );
}

#[test]
fn since_the_request_shows_latencies_and_search_time() {
    let doc = open("recordings/stockfish-uci-game.jsonl");
    let mut a = app(&doc);
    keys(&mut a, &doc, "ttt");
    assert_eq!(a.time_mode, kibitzer::tui::app::TimeMode::SinceRequest);
    // The first bestmove answers its go: the time column is the latency.
    keys(&mut a, &doc, "g");
    a.prompt = None;
    keys(&mut a, &doc, "/^bestmove\n");
    let r = a.selected().unwrap();
    let lat = doc.latency(r).expect("bestmove answers go");
    let s = format!("{}", screen(&a, &doc));
    assert!(s.contains(&format!("↳{:>10.6}", lat as f64 / 1e9)), "{s}");
    // The info line before it is inside the search: time since its go.
    keys(&mut a, &doc, "k");
    let s = format!("{}", screen(&a, &doc));
    let x = doc.search_of(r - 1).expect("in a search");
    let since = doc.t(r - 1) - doc.t(x.start as usize);
    assert!(s.contains(&format!("+{:>10.6}", since as f64 / 1e9)), "{s}");
}

#[test]
fn an_empty_recording_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("empty.jsonl");
    let header = std::fs::read_to_string("recordings/stockfish-uci-game.jsonl").unwrap();
    std::fs::write(&p, format!("{}\n", header.lines().next().unwrap())).unwrap();
    let doc = read_file(&p, None, None, Profile::named("cutechess").unwrap()).unwrap();
    assert!(doc.rows.is_empty() && doc.done);
    let mut a = app(&doc);
    keys(&mut a, &doc, "jGgevs}/x\n");
    let s = format!("{}", screen(&a, &doc));
    assert!(s.contains("the input has no lines"), "{s}");
}

#[test]
fn games_searches_and_marks_jump_without_scanning_every_line() {
    let doc = open("tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log");
    let starts = doc.game_starts();
    assert_eq!(starts.len(), 2);
    let mut a = app(&doc);
    keys(&mut a, &doc, "}");
    assert_eq!(a.selected(), Some(starts[0] as usize));
    keys(&mut a, &doc, "}");
    assert_eq!(a.selected(), Some(starts[1] as usize));
    keys(&mut a, &doc, "{");
    assert_eq!(a.selected(), Some(starts[0] as usize));
    // Every search start in order, then no further one.
    keys(&mut a, &doc, "g");
    let mut seen = Vec::new();
    for _ in 0..doc.searches.len() + 1 {
        keys(&mut a, &doc, ")");
        seen.push(a.selected().unwrap() as u32);
    }
    seen.dedup();
    let mut want: Vec<u32> = doc
        .searches
        .iter()
        .map(|x| x.start)
        .filter(|&r| r > 0)
        .collect();
    want.sort_unstable();
    want.dedup();
    assert_eq!(seen, want);
    assert!(
        a.message
            .as_ref()
            .is_some_and(|(m, _)| m.contains("no further search"))
    );
    // Marks: u and U go through them in line order.
    keys(&mut a, &doc, "gjjjjjmbjjjjjjjjjjma");
    keys(&mut a, &doc, "gu");
    assert_eq!(a.selected(), Some(5));
    keys(&mut a, &doc, "u");
    assert_eq!(a.selected(), Some(15));
    keys(&mut a, &doc, "U");
    assert_eq!(a.selected(), Some(5));
}

#[test]
fn a_long_search_goes_on_in_slices_and_esc_stops_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = crate::view_power::long_recording(dir.path(), 150_000);
    let doc = read_file(&p, None, None, Profile::named("cutechess").unwrap()).unwrap();
    let mut a = app(&doc);
    keys(&mut a, &doc, "/no such line\n");
    assert!(
        a.is_searching(),
        "150,000 parsed lines take longer than one slice"
    );
    assert!(
        a.message
            .as_ref()
            .is_some_and(|(m, _)| m.contains("searching"))
    );
    keys(&mut a, &doc, "\x1b");
    assert!(!a.is_searching());
    assert_eq!(a.selected(), Some(0));
    // Left to run, it ends where it should.
    keys(&mut a, &doc, "/line 149998$\n");
    while a.work(&doc) {}
    assert_eq!(selected_text(&a, &doc), "info string line 149998");
    // The only match: n goes round the end to it again, and says so.
    keys(&mut a, &doc, "n");
    while a.work(&doc) {}
    assert_eq!(selected_text(&a, &doc), "info string line 149998");
    assert!(
        a.message
            .as_ref()
            .is_some_and(|(m, _)| m.contains("match 1 of 1") && m.contains("hit the bottom")),
        "{:?}",
        a.message
    );
}

#[test]
fn unreadable_lines_are_named_in_the_status_bar() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("torn.jsonl");
    let good = std::fs::read_to_string("recordings/stockfish-uci-game.jsonl").unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    // Two lines of the middle broken: not JSON any more.
    lines[5] = "{\"seq\":5,\"t\":";
    lines[9] = "garbage";
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let doc = read_file(&path, None, None, Profile::named("cutechess").unwrap()).unwrap();
    let a = app(&doc);
    let shown = screen(&a, &doc);
    let text: String = (0..H)
        .map(|y| {
            (0..W)
                .map(|x| shown.buffer()[(x, y)].symbol().to_owned())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains("2 unreadable lines (line 6:"), "{text}");
    // Near miss: the intact recording shows no such warning.
    let doc = open("recordings/stockfish-uci-game.jsonl");
    let a = app(&doc);
    let shown = screen(&a, &doc);
    let text: String = (0..H)
        .map(|y| {
            (0..W)
                .map(|x| shown.buffer()[(x, y)].symbol().to_owned())
                .collect::<String>()
        })
        .collect();
    assert!(!text.contains("unreadable"), "{text}");
}

#[test]
fn plus_line_opens_the_viewer_at_that_line_of_the_input() {
    let doc = open("recordings/stockfish-uci-game.jsonl");
    let mut a = App::new(
        KeyMap::default(),
        Theme::default(),
        Options {
            start_line: Some(40),
            ..Options::default()
        },
    );
    a.set_size(W, H);
    a.sync(&doc);
    let row = a.selected().unwrap();
    assert_eq!(doc.line(row), 40, "{}", selected_text(&a, &doc));
    // A line past the end is said, and leaves the cursor where it was.
    let mut b = App::new(
        KeyMap::default(),
        Theme::default(),
        Options {
            start_line: Some(10_000_000),
            ..Options::default()
        },
    );
    b.set_size(W, H);
    b.sync(&doc);
    assert_eq!(b.selected(), Some(0));
    let shown = format!("{:?}", screen(&b, &doc));
    assert!(shown.contains("past the end"), "{shown}");
}
