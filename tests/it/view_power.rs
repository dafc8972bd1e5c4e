//! The viewer for people who live in lnav and mitmproxy: prompts that edit like readline and
//! remember, the `:` command line and counts, the filter language and the filter list,
//! work that runs in slices, getting lines out, long lines, narrow terminals and NO_COLOR.
//! Driven through `App::key` as the terminal would, drawn into a `TestBackend`.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use kibitzer::rules::Profile;
use kibitzer::tui::{App, Doc, Options, Theme, draw::draw, load::read_file};
use ratatui::{Terminal, backend::TestBackend, style::Modifier};
use std::path::Path;

const GAME: &str = "recordings/stockfish-uci-game.jsonl";

use crate::view_app::{app_with, open};

fn app(doc: &Doc) -> App {
    app_with(doc, Options::default(), 120, 36)
}

/// Types `text`: `\n` Enter, `\x1b` Esc, `⌃X` Ctrl-X, `«` Left, `»` Right, `↑` Up, `↓` Down,
/// `⇥` Tab.
fn keys(a: &mut App, doc: &Doc, text: &str) {
    let mut it = text.chars();
    while let Some(c) = it.next() {
        let (code, mods) = match c {
            '\n' => (KeyCode::Enter, KeyModifiers::NONE),
            '\x1b' => (KeyCode::Esc, KeyModifiers::NONE),
            '«' => (KeyCode::Left, KeyModifiers::NONE),
            '»' => (KeyCode::Right, KeyModifiers::NONE),
            '↑' => (KeyCode::Up, KeyModifiers::NONE),
            '↓' => (KeyCode::Down, KeyModifiers::NONE),
            '⇥' => (KeyCode::Tab, KeyModifiers::NONE),
            '⌃' => (
                KeyCode::Char(it.next().unwrap().to_ascii_lowercase()),
                KeyModifiers::CONTROL,
            ),
            c => (KeyCode::Char(c), KeyModifiers::NONE),
        };
        a.key(doc, KeyEvent::new(code, mods));
    }
}

fn screen(a: &App, doc: &Doc, w: u16, h: u16) -> TestBackend {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| {
        draw(f, a, doc);
    })
    .unwrap();
    t.backend().clone()
}

fn message(a: &App) -> String {
    a.message
        .as_ref()
        .map(|(m, _)| m.clone())
        .unwrap_or_default()
}

fn complained(a: &App) -> bool {
    a.message.as_ref().is_some_and(|(_, err)| *err)
}

fn text(a: &App, doc: &Doc) -> String {
    doc.text(a.selected().unwrap()).into_owned()
}

#[test]
fn prompts_edit_like_readline_and_remember_across_runs() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("state/kibitzer/view-history");
    let doc = open(GAME);
    let opts = Options {
        history: Some(history.clone()),
        ..Options::default()
    };
    let mut a = app_with(&doc, opts.clone(), 120, 36);
    // Typed with a mistake, fixed with the cursor keys: `bestmove` then Ctrl-A, a `^`.
    keys(&mut a, &doc, "/bestmovx«⌃h");
    assert_eq!(a.prompt.as_ref().unwrap().edit.text(), "bestmox");
    keys(&mut a, &doc, "»⌃hve⌃a^\n");
    assert!(a.prompt.is_none());
    assert!(text(&a, &doc).starts_with("bestmove"), "{}", text(&a, &doc));
    // Ctrl-W and Ctrl-U kill words and lines; Ctrl-Y puts them back.
    keys(&mut a, &doc, "fengine kind:info⌃w");
    assert_eq!(a.prompt.as_ref().unwrap().edit.text(), "engine ");
    keys(&mut a, &doc, "⌃y⌃u");
    assert_eq!(a.prompt.as_ref().unwrap().edit.text(), "");
    keys(&mut a, &doc, "⌃y");
    assert_eq!(a.prompt.as_ref().unwrap().edit.text(), "engine kind:info");
    keys(&mut a, &doc, "\n");
    assert!(a.view.iter().all(|r| doc.kind(r as usize) == "info"));
    // A second viewer finds both in its history: Up recalls, Down returns to the draft.
    let mut b = app_with(&doc, opts, 120, 36);
    keys(&mut b, &doc, "/↑");
    assert_eq!(b.prompt.as_ref().unwrap().edit.text(), "^bestmove");
    keys(&mut b, &doc, "↓\x1bf↑");
    assert_eq!(b.prompt.as_ref().unwrap().edit.text(), "engine kind:info");
    assert!(history.is_file());
}

#[test]
fn counts_and_the_command_line_go_to_lines_and_times() {
    let doc = open(GAME);
    let mut a = app(&doc);
    let line_of = |a: &App| doc.line(a.selected().unwrap());
    // Line numbers are the input's (a recording's first line is its header).
    keys(&mut a, &doc, "500G");
    assert_eq!(line_of(&a), 500);
    keys(&mut a, &doc, ":120\n");
    assert_eq!(line_of(&a), 120);
    keys(&mut a, &doc, "5j");
    assert_eq!(line_of(&a), 125);
    keys(&mut a, &doc, ":999999\n");
    assert!(complained(&a) && message(&a).contains("past the end"));
    // Times: seconds since the start, and relative to the selected line.
    keys(&mut a, &doc, ":t 0.5\n");
    let r = a.selected().unwrap();
    assert!(doc.t(r) >= 500_000_000 && doc.t(r - 1) < 500_000_000);
    keys(&mut a, &doc, ":t +100ms\n");
    let r2 = a.selected().unwrap();
    assert!(doc.t(r2) >= doc.t(r) + 100_000_000);
    assert!(doc.t(r2 - 1) < doc.t(r) + 100_000_000);
    keys(&mut a, &doc, ":t soon\n");
    assert!(complained(&a) && message(&a).contains("a time such as"));
    // Every action by its name, with a count; Tab completes names.
    keys(&mut a, &doc, "g:next_search 2\n");
    let goes: Vec<usize> = (0..doc.rows.len())
        .filter(|&r| doc.kind(r) == "go")
        .take(2)
        .collect();
    assert_eq!(a.selected(), Some(goes[1]));
    keys(&mut a, &doc, ":next_er⇥");
    assert_eq!(a.prompt.as_ref().unwrap().edit.text(), "next_error ");
    keys(&mut a, &doc, "\x1b:fly\n");
    assert!(complained(&a) && message(&a).contains("no command `fly`"));
}

#[test]
fn the_filter_language_has_or_parentheses_and_negation() {
    let doc = open(GAME);
    let mut a = app(&doc);
    let kinds = |a: &App| {
        let mut k: Vec<&str> = a.view.iter().map(|r| doc.kind(r as usize)).collect();
        k.sort_unstable();
        k.dedup();
        k
    };
    keys(&mut a, &doc, "fkind:go or kind:bestmove\n");
    assert_eq!(kinds(&a), ["bestmove", "go"]);
    let both = a.view.len();
    a.update(&doc, kibitzer::tui::Action::ClearFilter);
    keys(&mut a, &doc, "fengine !(kind:info or kind:bestmove)\n");
    assert!(!a.view.is_empty());
    assert!(a.view.iter().all(|r| {
        let r = r as usize;
        doc.rows[r].src() == kibitzer::recording::Source::Engine
            && !matches!(doc.kind(r), "info" | "bestmove")
    }));
    a.update(&doc, kibitzer::tui::Action::ClearFilter);
    // A kind the input does not have is an error at the prompt, not an empty screen.
    keys(&mut a, &doc, "fkind:bestmvoe\n");
    assert!(complained(&a), "{}", message(&a));
    assert!(message(&a).contains("kinds here:") && message(&a).contains("bestmove"));
    assert_eq!(a.view.len(), doc.rows.len());
    keys(&mut a, &doc, "frule:UCI-NOPE\n");
    assert!(complained(&a) && message(&a).contains("no rule"));
    keys(&mut a, &doc, "f(kind:go\n");
    assert!(complained(&a) && message(&a).contains("not closed"));
    // The filter list: two filters, one turned off, then deleted.
    keys(&mut a, &doc, "fkind:go or kind:bestmove\nfgui\n");
    assert!(a.view.iter().all(|r| doc.kind(r as usize) == "go"));
    keys(&mut a, &doc, "ijo");
    assert!(!a.filters[1].on);
    assert_eq!(a.view.len(), both);
    let s = format!("{}", screen(&a, &doc, 120, 36));
    assert!(s.contains("[x]  1  kind:go or kind:bestmove"), "{s}");
    assert!(s.contains("[ ]  2  gui"), "{s}");
    keys(&mut a, &doc, "d");
    assert_eq!(a.filters.len(), 1);
    // Enter edits a filter in place.
    keys(&mut a, &doc, "\n⌃ukind:go\n");
    assert_eq!(kinds(&a), ["go"]);
    assert_eq!(a.filters.len(), 1);
}

/// A recording of `n` info lines (the long-running cases).
pub(crate) fn long_recording(dir: &Path, n: u64) -> std::path::PathBuf {
    let p = dir.join("long.jsonl");
    let header = std::fs::read_to_string(GAME).unwrap();
    let mut text = format!("{}\n", header.lines().next().unwrap());
    text.push_str("{\"seq\":1,\"t\":0,\"src\":\"gui\",\"text\":\"uci\"}\n");
    for i in 2..n {
        text.push_str(&format!(
            "{{\"seq\":{i},\"t\":{},\"src\":\"engine\",\"text\":\"info string line {i}\"}}\n",
            i * 1000
        ));
    }
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_text_filter_runs_in_slices_and_esc_cancels_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = long_recording(dir.path(), 150_000);
    let doc = read_file(&p, None, None, Profile::named("cutechess").unwrap()).unwrap();
    let mut a = app(&doc);
    keys(&mut a, &doc, "f\"line 1[0-9]*7$\"\n");
    assert!(
        a.is_filtering(),
        "150,000 parsed lines take more than a slice"
    );
    assert!(message(&a).contains("filtering"), "{}", message(&a));
    assert_eq!(a.view.len(), doc.rows.len(), "the old view stays meanwhile");
    keys(&mut a, &doc, "\x1b");
    assert!(!a.is_filtering());
    assert!(message(&a).contains("cancelled"));
    assert!(a.filters.is_empty());
    // Left to run, it ends with the lines it should show.
    keys(&mut a, &doc, "f\"line 1[0-9]*7$\"\n");
    while a.work(&doc) {}
    let want = (0..doc.rows.len())
        .filter(|&r| {
            let t = doc.text(r);
            t.starts_with("info string line 1") && t.ends_with('7')
        })
        .count();
    assert_eq!(a.view.len(), want);
    assert!(message(&a).contains(&format!("{want} lines shown")));
}

#[test]
fn search_counts_its_matches_wraps_and_highlights_the_match() {
    let doc = open(GAME);
    let mut a = app(&doc);
    keys(&mut a, &doc, "/ponder h\n");
    while a.work(&doc) {}
    let all: Vec<usize> = (0..doc.rows.len())
        .filter(|&r| doc.text(r).to_lowercase().contains("ponder h"))
        .collect();
    assert!(all.len() > 2);
    assert_eq!(
        a.match_count(),
        Some((1, all.len(), true)),
        "{}",
        message(&a)
    );
    keys(&mut a, &doc, "n");
    assert_eq!(a.selected(), Some(all[1]));
    assert!(message(&a).contains(&format!("match 2 of {}", all.len())));
    // N at the first match goes round to the last, and says so.
    keys(&mut a, &doc, "NN");
    assert_eq!(a.selected(), Some(*all.last().unwrap()));
    assert!(message(&a).contains("hit the top"), "{}", message(&a));
    keys(&mut a, &doc, "n");
    assert_eq!(a.selected(), Some(all[0]));
    assert!(message(&a).contains("hit the bottom"));
    // Only the matching text is highlighted, not the whole line.
    let b = screen(&a, &doc, 120, 36);
    let s = format!("{b}");
    let (y, line) = s
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("ponder h"))
        .unwrap();
    // The rendering quotes each line: one char before the first cell.
    let at = line.find("ponder h").unwrap();
    let col = line[..at].chars().count() - 1;
    let cell = |c: usize| b.buffer()[(c as u16, y as u16)].clone();
    let theme = Theme::default();
    assert_eq!(cell(col).bg, theme.match_bg, "the match is highlighted");
    assert_ne!(
        cell(col - 3).bg,
        theme.match_bg,
        "the text before it is not"
    );
    // The status bar counts.
    assert!(s.contains(&format!("/ponder h/ 1/{}", all.len())), "{s}");
}

/// The traffic pane's text without any whitespace: a wrapped line reads on across the
/// screen lines it takes.
fn traffic_text(a: &App, doc: &Doc, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    let mut areas = a.areas;
    t.draw(|f| areas = draw(f, a, doc)).unwrap();
    let b = t.backend().buffer().clone();
    let l = areas.list;
    let mut out = String::new();
    for y in l.y + 1..l.y + l.height - 1 {
        for x in l.x + 1..l.x + l.width - 1 {
            out.push_str(b[(x, y)].symbol());
        }
    }
    out.split_whitespace().collect()
}

#[test]
fn long_lines_scroll_sideways_or_wrap() {
    let doc = open(GAME);
    let mut a = app_with(&doc, Options::default(), 100, 30);
    let long = (0..doc.rows.len())
        .max_by_key(|&r| doc.text(r).len())
        .unwrap();
    let t: String = doc.text(long).split_whitespace().collect();
    assert!(t.len() > 300, "{t}");
    let (head, tail) = (&t[..20], &t[t.len() - 20..]);
    a.jump_to_row(&doc, long);
    let s = traffic_text(&a, &doc, 100, 30);
    assert!(
        s.contains(head) && !s.contains(tail),
        "cut at the edge:\n{s}"
    );
    keys(&mut a, &doc, "z");
    assert!(a.wrap);
    let s = traffic_text(&a, &doc, 100, 30);
    assert!(s.contains(&t), "wrapped, all of it reads on:\n{s}");
    keys(&mut a, &doc, "z");
    for _ in 0..60 {
        keys(&mut a, &doc, "»");
    }
    let s = traffic_text(&a, &doc, 100, 30);
    assert!(s.contains(tail), "scrolled right, the end shows:\n{s}");
    assert!(!s.contains(head), "and the start does not");
    let most = a.hscroll;
    keys(&mut a, &doc, "«");
    assert_eq!(a.hscroll, most - 8);
}

#[test]
fn panes_come_back_on_a_narrow_terminal() {
    let doc = open(GAME);
    let mut a = app_with(&doc, Options::default(), 80, 24);
    keys(&mut a, &doc, "g))");
    let s = format!("{}", screen(&a, &doc, 80, 24));
    assert!(!s.contains("┌ board"), "{s}");
    keys(&mut a, &doc, "p");
    let s = format!("{}", screen(&a, &doc, 80, 24));
    assert!(s.contains("┌ board"), "{s}");
    insta::assert_snapshot!("narrow_with_panes", s);
    // The help fits and says how to scroll and close it.
    keys(&mut a, &doc, "?");
    let s = format!("{}", screen(&a, &doc, 80, 24));
    assert!(s.contains("q or esc closes"), "{s}");
    keys(&mut a, &doc, "G");
    let s = format!("{}", screen(&a, &doc, 80, 24));
    assert!(
        s.contains("marks: m then a letter"),
        "the end of the help:\n{s}"
    );
}

#[test]
fn no_color_keeps_the_selection_and_the_pieces_apart() {
    let doc = open(GAME);
    let opts = Options {
        no_color: true,
        ..Options::default()
    };
    let mut a = app_with(&doc, opts, 120, 36);
    keys(&mut a, &doc, "g))jjj");
    let b = screen(&a, &doc, 120, 36);
    let s = format!("{b}");
    // White in outline, black filled.
    assert!(s.contains('♔') && s.contains('♚'), "{s}");
    // No colour anywhere, and the selected line in reverse video.
    let area = b.buffer().area;
    let mut reversed_rows = std::collections::BTreeSet::new();
    for y in 0..area.height {
        for x in 0..area.width {
            let c = &b.buffer()[(x, y)];
            assert!(
                matches!(c.fg, ratatui::style::Color::Reset)
                    && matches!(c.bg, ratatui::style::Color::Reset),
                "a colour at {x},{y}: {c:?}"
            );
            if c.modifier.contains(Modifier::REVERSED) && x > 2 && x < 60 {
                reversed_rows.insert(y);
            }
        }
    }
    assert!(
        !reversed_rows.is_empty(),
        "the selection is in reverse video"
    );
    insta::assert_snapshot!("no_color", s);
}

#[test]
fn lines_are_written_out_as_a_recording_every_command_reads() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("picked.jsonl");
    let doc = open("tests/fixtures/corpus/python-chess__python-chess-429__1.log");
    let mut a = app(&doc);
    keys(&mut a, &doc, "fengine or kind:go\n");
    let shown = a.view.len();
    keys(&mut a, &doc, &format!(":write {}\n", out.display()));
    assert!(!complained(&a), "{}", message(&a));
    assert!(message(&a).contains("as a recording"));
    let back = open(out.to_str().unwrap());
    assert_eq!(back.rows.len(), shown, "one event per line written");
    assert_eq!(back.format, "recording");
    // The illegal bestmove is still judged illegal in the piece written out.
    let check = std::process::Command::new(env!("CARGO_BIN_EXE_kibitzer"))
        .arg("check")
        .arg(&out)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{report}");
    assert!(report.contains("UCI-BESTMOVE-ILLEGAL"), "{report}");
    // Plain text when the file is not .jsonl: the lines as they were.
    let txt = dir.path().join("picked.txt");
    keys(&mut a, &doc, &format!(":write marked {}\n", txt.display()));
    assert!(
        complained(&a) || message(&a).contains("no line"),
        "{}",
        message(&a)
    );
    keys(
        &mut a,
        &doc,
        &format!("ma:write marked {}\n", txt.display()),
    );
    assert_eq!(
        std::fs::read_to_string(&txt).unwrap(),
        format!("{}\n", text(&a, &doc))
    );
}

#[test]
fn copying_lines_needs_the_clipboard_turned_on() {
    let doc = open(GAME);
    let mut a = app(&doc);
    keys(&mut a, &doc, "jY");
    assert!(a.osc52.is_none());
    assert!(complained(&a) && message(&a).contains("clipboard = \"osc52\""));
    let mut a = app_with(
        &doc,
        Options {
            osc52: true,
            ..Options::default()
        },
        120,
        36,
    );
    keys(&mut a, &doc, "majmbY");
    let seq = a.osc52.clone().expect("an OSC 52 sequence");
    assert!(seq.starts_with("\x1b]52;c;") && seq.ends_with('\x07'));
    assert!(message(&a).contains("copied 2 lines"));
}

#[test]
fn runner_verdicts_and_unreadable_lines_are_listed_where_check_lists_them() {
    let doc = open("tests/fixtures/logs/fastchess__illegal-move-quoted.log");
    let mut a = app(&doc);
    let s = format!("{}", screen(&a, &doc, 120, 36));
    assert!(s.contains("the runner's own verdicts ×2"), "{s}");
    assert!(s.contains("runner[illegal move] sf2"), "{s}");
    // Enter on the heading goes to the first verdict's line; the detail says what kibitzer
    // found about it.
    let at = a
        .violations
        .iter()
        .position(|v| matches!(v, kibitzer::tui::app::ViolationItem::RunnerGroup { .. }))
        .unwrap();
    a.focus = kibitzer::tui::app::Focus::Violations;
    a.viol_cursor = at;
    keys(&mut a, &doc, "\n");
    assert_eq!(doc.line(a.selected().unwrap()), 22);
    let s = format!("{}", screen(&a, &doc, 120, 36));
    assert!(s.contains("kibitzer agrees: e2e4 is illegal"), "{s}");
    // A recording with two broken lines: listed by line, Enter goes to the line after.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("torn.jsonl");
    let good = std::fs::read_to_string(GAME).unwrap();
    let mut lines: Vec<&str> = good.lines().collect();
    lines[5] = "{\"seq\":5,\"t\":";
    lines[9] = "garbage";
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let doc = open(path.to_str().unwrap());
    let mut a = app(&doc);
    let s = format!("{}", screen(&a, &doc, 120, 36));
    assert!(s.contains("input 2 unreadable lines"), "{s}");
    assert!(s.contains("L10 "), "{s}");
    let at = a
        .violations
        .iter()
        .position(|v| matches!(v, kibitzer::tui::app::ViolationItem::Unreadable(1)))
        .unwrap();
    a.focus = kibitzer::tui::app::Focus::Violations;
    a.viol_cursor = at;
    keys(&mut a, &doc, "\n");
    assert_eq!(doc.line(a.selected().unwrap()), 11);
    // Near miss: an intact input lists neither.
    let doc = open(GAME);
    let a = app(&doc);
    let s = format!("{}", screen(&a, &doc, 120, 36));
    assert!(!s.contains("unreadable") && !s.contains("runner["), "{s}");
}

#[test]
fn the_eval_chart_scales_to_the_game() {
    let mut scales = Vec::new();
    for path in [GAME, "recordings/stockfish-uci-long-game.jsonl"] {
        let doc = open(path);
        let mut a = app(&doc);
        keys(&mut a, &doc, "Gc");
        let (pts, _) =
            kibitzer::tui::board::eval_series(&doc, a.selected().unwrap(), 10.0).unwrap();
        let biggest = pts.iter().map(|p| p.1.abs()).fold(0.0f64, f64::max);
        let want = [0.5, 1.0, 2.0, 3.0, 5.0, 10.0]
            .into_iter()
            .find(|&b| biggest <= b)
            .unwrap();
        let label = if want < 1.0 {
            format!("+{want:.1}")
        } else {
            format!("+{want:.0}")
        };
        let s = format!("{}", screen(&a, &doc, 120, 36));
        assert!(
            s.contains(&label),
            "{path}: largest eval {biggest}, axis {label}:\n{s}"
        );
        if want < 10.0 {
            assert!(!s.contains("+10"), "{path}: the axis is not ±10:\n{s}");
        }
        scales.push(want);
    }
    assert!(
        scales.iter().any(|&w| w < 10.0),
        "{scales:?}: no game below the clamp"
    );
}
