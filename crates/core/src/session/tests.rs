//! The decoder's tests: the transcript helpers every test uses, and the tests of the decoder
//! as a whole (its options, streaming detection, several sessions in one input, reused line
//! buffers, the no-panic property). Each protocol's own exchanges are tested in
//! `tests/<protocol>_tests.rs`.

mod ahead_tests;
mod cecp_tests;
mod nboard_tests;
mod uci_tests;

use super::*;
use crate::recording::{Event, Source};
use crate::rules::catalogue::RuleId;

/// `> ` lines are the GUI's, `< ` the engine's; 100 ms apart.
pub(crate) fn transcript(text: &str) -> Vec<Event> {
    text.lines()
        .map(str::trim_start)
        .filter(|l| !l.is_empty())
        .enumerate()
        .map(|(i, l)| {
            let (src, rest) = match l.split_at(2) {
                ("> ", r) => (Source::Gui, r),
                ("< ", r) => (Source::Engine, r),
                _ => (Source::Stderr, l),
            };
            Event::line(i as u64 + 1, i as u64 * 100_000_000, src, rest)
        })
        .collect()
}

fn one(text: &str) -> Session {
    let mut s = decode(&transcript(text), None);
    assert_eq!(s.len(), 1);
    s.remove(0)
}

fn codes(s: &Session) -> Vec<(RuleId, String)> {
    s.lines
        .iter()
        .flat_map(|l| l.breaches.iter().map(|d| (d.rule, d.message.clone())))
        .collect()
}

const UCI_GAME: &str = "
    > uci
    < id name Fish 1
    < id author Someone
    < option name Hash type spin default 16 min 1 max 1024
    < option name UCI_Chess960 type check default false
    < uciok
    > setoption name Hash value 64
    > isready
    < readyok
    > ucinewgame
    > position startpos
    > go wtime 1000 btime 1000
    < info depth 1 score cp 20 pv e2e4
    < info depth 2 score cp 25 pv e2e4 e7e5
    < bestmove e2e4 ponder e7e5
    > position startpos moves e2e4 e7e5
    > go wtime 900 btime 900
    < info depth 3 score mate 2 pv g1f3 b8c6
    < bestmove g1f3
";

#[test]
fn searches_can_go_unkept_while_games_and_open_obligations_stay() {
    let text = "
        > uci
        < uciok
        > position startpos
        > go depth 2
        < info depth 1 pv e2e4
        < bestmove e2e4
        > position startpos moves e2e4 e7e5
        > isready
        < readyok
        > go depth 2
        < bestmove g1f3
        > position startpos moves e2e4 e7e5 g1f3 b8c6
        > go depth 2
    ";
    let run = |keep: bool| {
        let mut d = Decoder::new(None).retain_searches(keep);
        for ev in transcript(text) {
            d.push(&ev);
        }
        d.finish().remove(0)
    };
    let (all, light) = (run(true), run(false));
    assert_eq!(all.searches.len(), 3);
    assert_eq!(all.search_count, 3);
    assert_eq!(light.search_count, 3);
    assert!(light.searches.is_empty());
    // Every game move is still there; only the unanswered `go` is still owed.
    assert_eq!(light.games, all.games);
    assert_eq!(light.games[0].plies.len(), 4);
    let open = |s: &Session| {
        s.open_obligations()
            .map(|o| o.request.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(open(&light), ["go"]);
    assert_eq!(open(&light), open(&all));
    assert_eq!(light.obligations.len(), 1);
    assert!(all.obligations.len() > 4);
}

#[test]
fn pv_checking_can_be_turned_off_without_losing_game_move_checks() {
    let text = "
        > position startpos
        > go depth 2
        < info depth 1 pv e2e4 e7e5
        < info depth 2 pv e2e4 e7e5 e1e3
        < bestmove e2e5
        > position startpos moves e2e4
        > go depth 1
        < info depth 1 pv e7e5 g1f3
        < bestmove e7e5
    ";
    let run = |check: bool| {
        let mut d = Decoder::new(None).keep_lines(true).check_pv_moves(check);
        for ev in transcript(text) {
            d.push(&ev);
        }
        d.finish().remove(0)
    };
    let (on, off) = (run(true), run(false));
    let names = |s: &Session| codes(s).into_iter().map(|c| c.0).collect::<Vec<_>>();
    assert_eq!(
        names(&on),
        [RuleId::UciInfoPvIllegal, RuleId::UciBestmoveIllegal]
    );
    assert_eq!(names(&off), [RuleId::UciBestmoveIllegal]);
    // The PV is still kept as text, and the boards are the same.
    let last_pv = |s: &Session| s.searches[0].last.as_ref().map(|r| r.pv.clone());
    assert_eq!(last_pv(&off), Some("e2e4 e7e5 e1e3".to_owned()));
    assert_eq!(on.games, off.games);
    assert_eq!(off.games[0].plies.len(), 2);
}

#[test]
fn sessions_split_by_label_and_detected_separately() {
    let mut ev = transcript(
        "
        > uci
        < uciok
        > xboard
        > protover 2
        < feature done=1
    ",
    );
    for (i, e) in ev.iter_mut().enumerate() {
        e.session = Some(if i < 2 { "a".into() } else { "b".into() });
    }
    let s = decode(&ev, None);
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].protocol, Some(protocol::Protocol::Uci));
    assert_eq!(s[1].protocol, Some(protocol::Protocol::Cecp));
    assert_eq!(s[1].lines.len(), 3);
}

#[test]
fn streaming_detection_catches_up_on_earlier_lines() {
    let ev = transcript(
        "
        < Stockfish 16 by the Stockfish developers
        > uci
        < id name Stockfish 16
        < uciok
    ",
    );
    let mut d = Decoder::new(None);
    let first = d.push(&ev[0]);
    assert!(first.msg.is_none());
    for e in &ev[1..] {
        assert!(d.push(e).msg.is_some());
    }
    let s = d.finish();
    assert_eq!(s[0].engine_name.as_deref(), Some("Stockfish 16"));
    assert!(matches!(s[0].handshake, Handshake::Done(_)));
}

#[test]
fn retain_off_keeps_memory_flat() {
    let mut text = String::from("> uci\n< uciok\n");
    for _ in 0..50 {
        text.push_str("> ucinewgame\n> position startpos moves e2e4\n> go depth 1\n< info depth 1 pv e7e5\n< bestmove e7e5\n> isready\n< readyok\n");
    }
    let mut d = Decoder::new(None).retain_history(false);
    for e in &transcript(&text) {
        d.push(e);
    }
    let s = d.finish();
    assert_eq!(s[0].games.len(), 1);
    assert!(s[0].searches.is_empty());
    assert!(s[0].obligations.is_empty());
    assert!(s[0].lines.is_empty());
}

mod no_panic {
    use super::*;
    use proptest::prelude::*;

    fn line() -> impl Strategy<Value = (bool, String)> {
        let words = prop::sample::select(vec![
            "uci",
            "uciok",
            "isready",
            "readyok",
            "position",
            "startpos",
            "fen",
            "moves",
            "go",
            "bestmove",
            "ponder",
            "info",
            "pv",
            "depth",
            "score",
            "cp",
            "mate",
            "e2e4",
            "e7e5",
            "e1g1",
            "e1h1",
            "a1a1",
            "0000",
            "(none)",
            "stop",
            "ponderhit",
            "ucinewgame",
            "setoption",
            "name",
            "value",
            "option",
            "type",
            "spin",
            "xboard",
            "protover",
            "2",
            "feature",
            "done=1",
            "new",
            "force",
            "usermove",
            "move",
            "undo",
            "remove",
            "edit",
            ".",
            "#",
            "Ke1",
            "c",
            "setboard",
            "8/8/8/8/8/8/8/8",
            "w",
            "-",
            "variant",
            "fischerandom",
            "xiangqi",
            "result",
            "1-0",
            "resign",
            "nboard",
            "set",
            "game",
            "(;GM[Othello]B[F5];)",
            "===",
            "F5",
            "PA",
            "hint",
            "ping",
            "pong",
            "learn",
            "10",
            "-3",
            "analyze",
            "exit",
            "accepted",
            "rejected",
            "level",
            "time",
            "otim",
        ]);
        (
            any::<bool>(),
            prop::collection::vec(prop_oneof![words.prop_map(str::to_owned), ".{0,6}"], 0..8)
                .prop_map(|w| w.join(" ")),
        )
    }

    proptest! {
        #[test]
        fn decoder_never_panics(lines in prop::collection::vec(line(), 0..60), p in 0usize..4) {
            let events: Vec<Event> = lines
                .into_iter()
                .enumerate()
                .map(|(i, (gui, text))| {
                    let src = if gui { Source::Gui } else { Source::Engine };
                    Event::line(i as u64, i as u64, src, text)
                })
                .collect();
            let protocol = protocol::Protocol::ALL.get(p).copied();
            let sessions = decode(&events, protocol);
            for s in &sessions {
                for l in &s.lines {
                    let _ = s.position_after(l);
                }
            }
        }
    }
}

#[test]
fn push_into_a_reused_line_gives_what_push_gives() {
    let text = format!("{UCI_GAME}\n< info depth 4 pv e2e4 e2e4\n< bogus\n> isready\n< readyok\n");
    let events = transcript(&text);
    let mut fresh = Decoder::new(None);
    let mut reusing = Decoder::new(None);
    let mut line = Decoded::default();
    let mut info_boxes = Vec::new();
    for e in &events {
        let want = fresh.push(e);
        reusing.push_into(e, &mut line);
        assert_eq!(line, want, "{}", e.text);
        if let Some(crate::protocol::Msg::Uci(crate::protocol::uci::Msg::Info(i))) = &line.msg {
            info_boxes.push(&**i as *const _ as usize);
        }
    }
    // Later info lines land in the box the first one was parsed into.
    assert!(info_boxes.len() >= 4);
    assert!(
        info_boxes.windows(2).all(|w| w[0] == w[1]),
        "{info_boxes:?}"
    );
    assert_eq!(fresh.finish(), reusing.finish());
}

#[test]
fn runner_results_are_read_from_finished_game_lines() {
    use crate::session::RunnerResult;
    let at = crate::session::At { seq: 1, t: 0 };
    let r = RunnerResult::parse(
        "Finished game 3 (Carballo (1.7) {Official} vs sf 2): 1/2-1/2 {Draw by adjudication}",
        at,
    )
    .unwrap();
    assert_eq!(
        (
            r.white.as_str(),
            r.black.as_str(),
            r.result.as_str(),
            r.reason.as_str()
        ),
        (
            "Carballo (1.7) {Official}",
            "sf 2",
            "1/2-1/2",
            "Draw by adjudication"
        )
    );
    assert!(RunnerResult::parse("Finished game x (a vs b): 1-0", at).is_none());
    assert!(RunnerResult::parse("Started game 1 of 2 (a vs b)", at).is_none());
    let r = RunnerResult::parse("Finished game 1 (a vs b): 0-1", at).unwrap();
    assert_eq!((r.result.as_str(), r.reason.as_str()), ("0-1", ""));
}
