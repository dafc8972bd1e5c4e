use super::*;
use crate::protocol::Dir::{FromEngine, ToEngine};
use proptest::prelude::*;

fn p(dir: Dir, line: &str) -> (Msg, Vec<String>) {
    let mut d = Vec::new();
    let m = parse(dir, line, &mut d);
    (m, d.into_iter().map(|x| x.message).collect())
}

#[test]
fn the_texts_example_session() {
    let ggf = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";
    let gui = [
        ("nboard 2", Msg::Nboard(2)),
        (&format!("set game {ggf}")[..], Msg::SetGame(ggf.into())),
        ("set depth 6", Msg::SetDepth(6)),
        ("ping 1", Msg::Ping(1)),
        ("go", Msg::Go),
    ];
    for (line, m) in gui {
        let (got, d) = p(ToEngine, line);
        assert_eq!(got, m);
        assert!(d.is_empty(), "{line}: {d:?}");
    }
    let engine = [
        ("set myname Edax6", Msg::SetMyName("Edax6".into())),
        ("pong 1", Msg::Pong(1)),
        (
            "status Edax is thinking",
            Msg::Status("Edax is thinking".into()),
        ),
        (
            "nodestats 35805 0.00",
            Msg::NodeStats {
                nodes: 35805,
                seconds: 0.0,
            },
        ),
        (
            "=== d6 -1.00 0.0",
            Msg::BestMove(MoveEval {
                mv: "d6".into(),
                eval: Some(-1.0),
                time: Some(0.0),
            }),
        ),
        ("status", Msg::Status(String::new())),
    ];
    for (line, m) in engine {
        let (got, d) = p(FromEngine, line);
        assert_eq!(got, m);
        // The text's own `===` example uses spaces where its definition has slashes, and the
        // reference GUI reads them as slashes: decoded, with nothing to report.
        assert!(d.is_empty(), "{line}: {d:?}");
    }
}

#[test]
fn moves_evals_and_search_lines() {
    assert_eq!(
        p(ToEngine, "move F5//1.5").0,
        Msg::Move(MoveEval {
            mv: "F5".into(),
            eval: None,
            time: Some(1.5)
        })
    );
    assert_eq!(
        p(FromEngine, "=== F5/3.5/2").0,
        Msg::BestMove(MoveEval {
            mv: "F5".into(),
            eval: Some(3.5),
            time: Some(2.0)
        })
    );
    assert_eq!(p(FromEngine, "=== PA").0.to_string(), "=== PA");
    let (m, d) = p(ToEngine, "F5");
    assert_eq!(m, Msg::BareMove("F5".into()));
    assert_eq!(d.len(), 1);
    let (m, d) = p(ToEngine, "move Z9/x");
    assert_eq!(m.kind(), "move");
    assert_eq!(d.len(), 2, "{d:?}");
    let Msg::Search(s) = p(FromEngine, "search F5d6C3 1.5,-2 0 12 some text").0 else {
        panic!()
    };
    assert_eq!(
        (
            s.first_move(),
            s.eval.as_str(),
            s.depth.as_str(),
            s.text.as_str()
        ),
        ("F5", "1.5,-2", "12", "some text")
    );
    let Msg::Book(b) = p(FromEngine, "book F5-D6 0.0 1234 100%W").0 else {
        panic!()
    };
    assert_eq!((b.games, b.depth.as_str()), (1234, "100%W"));
    // Edax's console form of a book move: the reference GUI's parser cannot read it either.
    let (m, d) = p(
        FromEngine,
        "book    +1                                          f3 C5 c6",
    );
    assert!(matches!(m, Msg::Book(_)), "{m:?}");
    assert!(d.iter().any(|x| x.contains("console form")), "{d:?}");
    assert_eq!(
        p(FromEngine, "analysis 12 -4.5").0,
        Msg::Analysis {
            moves_made: 12,
            eval: -4.5
        }
    );
}

#[test]
fn contradictions_are_tolerated() {
    // The reference engine answers learn with learn.
    let (m, d) = p(FromEngine, "learn");
    assert_eq!(m, Msg::Learned);
    assert_eq!(d.len(), 1);
    assert_eq!(p(FromEngine, "learned"), (Msg::Learned, vec![]));
    assert_eq!(p(ToEngine, "set contempt 100").0, Msg::SetContempt(100.0));
    assert_eq!(
        p(ToEngine, "remove_tree").0,
        Msg::Unknown("remove_tree".into())
    );
    assert_eq!(
        p(FromEngine, "warning Must pick a depth").0.kind(),
        "unknown"
    );
    // Direction picks the vocabulary: `go` from the engine is not a command.
    assert!(matches!(p(FromEngine, "go").0, Msg::Unknown(_)));
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec("[A-Za-z0-9()%.,]{1,8}", 1..4).prop_map(|w| w.join(" "))
}

fn num() -> impl Strategy<Value = f64> {
    (-100_000i32..100_000, 0u32..3).prop_map(|(n, s)| f64::from(n) / [1.0, 10.0, 100.0][s as usize])
}

fn move_eval() -> impl Strategy<Value = MoveEval> {
    (
        "[A-H][1-8]|PA",
        prop::option::of(num()),
        prop::option::of(num().prop_map(f64::abs)),
    )
        .prop_map(|(mv, eval, time)| MoveEval { mv, eval, time })
}

fn search_line() -> impl Strategy<Value = SearchLine> {
    (
        "[A-H][1-8][a-hA-H1-8-]{0,6}",
        "-?[0-9]{1,3}(\\.[0-9]{1,2})?",
        any::<u64>(),
        "[0-9]{1,2}(%W?)?",
        prop_oneof![Just(String::new()), text()],
    )
        .prop_map(|(pv, eval, games, depth, text)| SearchLine {
            pv,
            eval,
            games,
            depth,
            text,
        })
}

fn gui_msg() -> impl Strategy<Value = Msg> {
    prop_oneof![
        any::<u32>().prop_map(Msg::Nboard),
        any::<u32>().prop_map(Msg::SetDepth),
        text().prop_map(Msg::SetGame),
        num().prop_map(Msg::SetContempt),
        move_eval().prop_map(Msg::Move),
        "[A-H][1-8]".prop_map(Msg::BareMove),
        any::<u32>().prop_map(Msg::Hint),
        Just(Msg::Go),
        any::<i64>().prop_map(Msg::Ping),
        Just(Msg::Learn),
        Just(Msg::Analyze),
        Just(Msg::Quit),
    ]
}

fn engine_msg() -> impl Strategy<Value = Msg> {
    prop_oneof![
        text().prop_map(Msg::SetMyName),
        prop_oneof![Just(String::new()), text()].prop_map(Msg::Status),
        (any::<u64>(), num().prop_map(f64::abs))
            .prop_map(|(nodes, seconds)| Msg::NodeStats { nodes, seconds }),
        any::<i64>().prop_map(Msg::Pong),
        move_eval().prop_map(Msg::BestMove),
        search_line().prop_map(|l| Msg::Search(Box::new(l))),
        search_line().prop_map(|l| Msg::Book(Box::new(l))),
        Just(Msg::Learned),
        (any::<u32>(), num()).prop_map(|(moves_made, eval)| Msg::Analysis { moves_made, eval }),
    ]
}

proptest! {
    #[test]
    fn gui_messages_round_trip(m in gui_msg()) {
        let line = m.to_string();
        prop_assert_eq!(p(ToEngine, &line).0, m, "line: {}", line);
    }

    #[test]
    fn engine_messages_round_trip(m in engine_msg()) {
        let line = m.to_string();
        prop_assert_eq!(p(FromEngine, &line).0, m, "line: {}", line);
    }

    #[test]
    fn never_panics(line in "\\PC{0,60}") {
        for dir in [ToEngine, FromEngine] {
            let (m, _) = p(dir, &line);
            let _ = m.to_string();
        }
    }
}
