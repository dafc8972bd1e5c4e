//! `kibitzer view` on the real NBoard engines' recordings (NTest and Edax, as
//! scripts/nboard-engines.sh recorded them): the Othello board, the engine's `search` lines with
//! their evals under `go`, and a `hint`'s lines, one for each move it evaluated.

use crate::view_app::{app_with, open};
use kibitzer::tui::{Doc, Options, draw::draw, pv::search_at};
use ratatui::{Terminal, backend::TestBackend};

const W: u16 = 120;
const H: u16 = 36;

fn screen_at(doc: &Doc, r: usize) -> TestBackend {
    let mut a = app_with(doc, Options::default(), W, H);
    a.jump_to_row(doc, r);
    assert_eq!(a.selected(), Some(r));
    let mut t = Terminal::new(TestBackend::new(W, H)).unwrap();
    t.draw(|f| {
        draw(f, &a, doc);
    })
    .unwrap();
    t.backend().clone()
}

/// The first row at or after `from` whose text starts with `prefix`.
fn row(doc: &Doc, from: usize, prefix: &str) -> usize {
    (from..doc.rows.len())
        .find(|&r| doc.text(r).starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` after row {from}"))
}

#[test]
fn ntest_searches_show_their_evals_on_the_board() {
    let doc = open("tests/fixtures/nboard-real/ntest.jsonl");
    // The tenth move of the game, answered: the search pane has NTest's best line and eval.
    let mut r = 0;
    for _ in 0..10 {
        r = row(&doc, r + 1, "=== ");
    }
    let s = search_at(&doc, r).expect("a search at the move");
    assert_eq!(s.request, "go");
    assert!(!s.running);
    let best = s.lines.first().expect("a search line");
    assert!(best.score.is_some() && best.depth.is_some(), "{s:?}");
    insta::assert_snapshot!("ntest_go", screen_at(&doc, r));
}

#[test]
fn hint_lines_are_the_search_of_the_hint() {
    for (name, file) in [
        ("edax", "tests/fixtures/nboard-real/edax.jsonl"),
        ("ntest", "tests/fixtures/nboard-real/ntest.jsonl"),
    ] {
        let doc = open(file);
        let hint = row(&doc, 0, "hint ");
        // The hint's last line before the GUI's next ping (the reference GUI's fence).
        let ping = row(&doc, hint, "ping ");
        let last = (hint..ping)
            .rev()
            .find(|&r| matches!(doc.kind(r), "search" | "book"))
            .expect("a search or book line");
        let s = search_at(&doc, last).expect("the hint's search");
        assert!(s.request.starts_with("hint"), "{name}: {s:?}");
        let moves: Vec<&str> = s.lines.iter().map(|l| &l.pv[..2]).collect();
        assert!(!moves.is_empty(), "{name}: {moves:?}");
        let mut unique = moves.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), moves.len(), "{name}: a line for each move");
        insta::assert_snapshot!(format!("{name}_hint"), screen_at(&doc, last));
        // The pong to the ping after the hint ends it: the search there is the next request's
        // or none.
        let pong = row(&doc, ping, &format!("pong {}", &doc.text(ping)[5..]));
        assert!(
            search_at(&doc, pong).is_none_or(|s| !s.request.starts_with("hint")),
            "{name}"
        );
    }
}

#[test]
fn a_go_after_a_hint_is_a_search_of_its_own() {
    let doc = open("tests/fixtures/nboard-real/edax.jsonl");
    let hint = row(&doc, 0, "hint ");
    let go = row(&doc, hint, "go");
    let s = search_at(&doc, go).expect("the go");
    assert_eq!(s.request, "go");
    assert!(s.lines.len() <= 1, "{s:?}");
}
