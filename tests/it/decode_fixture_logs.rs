//! The logs generated with real tools (`tests/fixtures/logs/`) decode cleanly: no false
//! findings, the whole game followed on both engines' boards.

use kibitzer::import::import;
use kibitzer::session::{Session, decode};
use std::path::Path;

fn sessions(name: &str) -> Vec<Session> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/logs")
        .join(name);
    let data = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let imported = import(&data, None).expect("import");
    let events: Vec<_> = imported
        .sessions
        .into_iter()
        .flat_map(|s| s.events)
        .collect();
    decode(&events, None)
}

#[test]
fn xboard_game_decodes_without_false_findings() {
    // xboard writes `usermove ` and the move separately and logs them interleaved
    // (`usermove 523 >second: d2d4`); PolyGlot relays `info string` as a thinking line.
    // Neither may turn into an illegal move or a desynchronised board.
    let all = sessions("xboard-debug__fairymax-vs-polyglot-stockfish.log");
    for label in ["first", "second"] {
        let s = all
            .iter()
            .find(|s| s.label.as_deref() == Some(label))
            .expect(label);
        let findings: Vec<String> = s
            .lines
            .iter()
            .flat_map(|l| l.breaches.iter().map(move |d| (l, d)))
            .filter(|(_, d)| {
                !d.rule.as_str().ends_with("-UNKNOWN-COMMAND")
                    && d.rule != "CECP-UNDOCUMENTED-OUTPUT"
                    && d.rule != "CECP-COMMAND-REFUSED"
            })
            .map(|(l, d)| format!("{}: {} {}", l.text, d.rule, d.message))
            .collect();
        assert!(findings.is_empty(), "{label}: {findings:#?}");
        let game = s
            .games
            .iter()
            .max_by_key(|g| g.plies.len())
            .expect("a game");
        assert_eq!(game.plies.len(), 62, "{label}");
        assert!(
            game.plies.iter().all(|p| p.canonical().is_some()),
            "{label}: a move was not followed"
        );
    }
}
