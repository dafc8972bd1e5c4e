use super::*;
use crate::protocol::Dir::{FromEngine, ToEngine};
use proptest::prelude::*;

fn p(dir: Dir, line: &str) -> (Msg, Vec<String>) {
    let mut d = Vec::new();
    let m = parse(dir, line, &mut d);
    (m, d.into_iter().map(|x| x.message).collect())
}

fn info(line: &str) -> (Info, Vec<String>) {
    match p(FromEngine, line) {
        (Msg::Info(i), d) => (*i, d),
        (other, _) => panic!("not info: {other:?}"),
    }
}

/// A box parsed into again is cleared field by field (only what was set): whatever the line
/// before held, the next line reads as it does into a new box.
#[test]
fn a_reused_info_box_keeps_nothing_of_the_line_before() {
    let lines = [
        "info depth 5 seldepth 7 multipv 1 score cp 13 nodes 100 nps 1000 hashfull 1 tbhits 0 time 5 pv e2e4 e7e5",
        "info currmove e2e4 currmovenumber 1",
        "info string hello world",
        "info depth 3 refutation d1h5 g6h5 currline 1 e2e4 e7e5 sbhits 4 cpuload 500 wdl 100 800 100",
        "info movesleft 30 depth 2",
        "info depth 9 score mate 3 lowerbound pv e2e4",
        "info nodes 5",
        "info depth x pv",
    ];
    for before in lines {
        for line in lines {
            let mut spare = InfoSpare::default();
            let mut d = Vec::new();
            match parse_reusing(FromEngine, before, &mut d, &mut spare) {
                Msg::Info(i) => spare.reclaim(i),
                other => panic!("not info: {other:?}"),
            }
            let mut reused_d = Vec::new();
            let reused = parse_reusing(FromEngine, line, &mut reused_d, &mut spare);
            let mut fresh_d = Vec::new();
            let fresh = parse(FromEngine, line, &mut fresh_d);
            assert_eq!(reused, fresh, "{line} after {before}");
            assert_eq!(reused_d, fresh_d, "{line} after {before}");
        }
    }
}

#[test]
fn realistic_info_line_decodes_every_field() {
    // cutechess-gui__mess-36
    let (i, d) = info(
        "info depth 30 seldepth 59 multipv 1 score cp -413 nodes 17252590 nps 895866 \
         hashfull 735 tbhits 0 time 19258 pv e7f6 f3h4 f6g5 h4g2",
    );
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(i.depth, Some(30));
    assert_eq!(i.seldepth, Some(59));
    assert_eq!(i.multipv, Some(1));
    assert_eq!(
        i.score,
        Some(Score {
            value: Some(ScoreValue::Cp(-413)),
            bound: Bound::Exact
        })
    );
    assert_eq!(i.nodes, Some(17252590));
    assert_eq!(i.nps, Some(895866));
    assert_eq!(i.hashfull, Some(735));
    assert_eq!(i.tbhits, Some(0));
    assert_eq!(i.time, Some(19258));
    let pv = i.pv.unwrap_or_default();
    assert_eq!(
        pv.iter().collect::<Vec<_>>(),
        ["e7f6", "f3h4", "f6g5", "h4g2"]
    );
}

#[test]
fn info_bounds_mate_wdl_string_and_unknown_tokens() {
    let (i, d) = info("info depth 12 score mate -3 upperbound wdl 10 20 970 nodes 5 pv a1a2");
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(
        i.score,
        Some(Score {
            value: Some(ScoreValue::Mate(-3)),
            bound: Bound::Upper
        })
    );
    assert_eq!(i.wdl, Some([10, 20, 970]));
    // Lc0 style unknown token with a value is kept, not lost.
    let (i, d) = info("info depth 5 movesleft 30 nodes 10");
    assert_eq!(i.extra.len(), 1);
    assert_eq!(i.extra[0].name, "movesleft");
    assert_eq!(i.extra[0].values.as_str(), "30");
    assert_eq!(i.nodes, Some(10));
    assert_eq!(d.len(), 1);
    // fastchess-443: string takes the rest of the line, keywords included.
    let (i, _) =
        info("info string NNUE evaluation using nn-ddcfb9224cdb.nnue (133MiB, (22528, 3072))");
    assert_eq!(
        i.string.as_deref(),
        Some("NNUE evaluation using nn-ddcfb9224cdb.nnue (133MiB, (22528, 3072))")
    );
    let (i, _) =
        info("info refutation d1h5 g6h5 currline 2 e2e4 e7e5 currmove e2e4 currmovenumber 1");
    assert_eq!(i.refutation.map(|r| r.len()), Some(2));
    assert_eq!(i.currline.as_ref().and_then(|c| c.cpu), Some(2));
    assert_eq!(i.currmove.as_deref(), Some("e2e4"));
    assert_eq!(i.currmovenumber, Some(1));
    let (i, _) = info("info sbhits 3 cpuload 985");
    assert_eq!((i.sbhits, i.cpuload), (Some(3), Some(985)));
}

#[test]
fn garbled_info_values_become_diagnostics() {
    let (i, d) = info("info depth x nodes 10 score pv e2e4");
    assert_eq!(i.depth, None);
    assert_eq!(i.nodes, Some(10));
    assert!(
        d.iter().any(|m| m.contains("depth: bad value 'x'")),
        "{d:?}"
    );
    assert!(d.iter().any(|m| m.contains("score")), "{d:?}");
    assert_eq!(i.pv.map(|p| p.len()), Some(1));
    let (i, d) = info("info depth");
    assert_eq!(i.depth, None);
    assert!(d.iter().any(|m| m.contains("missing")));
}

#[test]
fn go_with_all_parameters() {
    let (m, d) = p(
        ToEngine,
        "go ponder wtime 428668 btime -5 winc 3000 binc 3000 movestogo 40 depth 10 nodes 1000000 \
         mate 3 movetime 500 infinite searchmoves e2e4 d2d4",
    );
    assert!(d.is_empty(), "{d:?}");
    let Msg::Go(g) = m else { panic!() };
    assert!(g.ponder && g.infinite);
    assert_eq!(
        (g.wtime, g.btime, g.winc, g.binc),
        (Some(428668), Some(-5), Some(3000), Some(3000))
    );
    assert_eq!(
        (g.movestogo, g.depth, g.nodes, g.mate, g.movetime),
        (Some(40), Some(10), Some(1000000), Some(3), Some(500))
    );
    assert_eq!(g.searchmoves.as_str(), "e2e4 d2d4");
    let (m, d) = p(ToEngine, "go perft 5");
    let Msg::Go(g) = m else { panic!() };
    assert_eq!(g.extra[0].name, "perft");
    assert_eq!(d.len(), 1);
}

#[test]
fn gui_commands() {
    assert_eq!(
        p(ToEngine, "\t debug \t \t\ton\t ").0,
        Msg::Debug(Some(true))
    );
    // The text's own example: unknown leading token skipped.
    let (m, d) = p(ToEngine, "joho debug on");
    assert_eq!(m, Msg::Debug(Some(true)));
    assert!(d[0].contains("joho"));
    assert_eq!(
        p(
            ToEngine,
            "setoption name NalimovPath value c:\\chess\\tb\\4;c:\\chess\\tb\\5"
        )
        .0,
        Msg::SetOption {
            name: "NalimovPath".into(),
            value: Some("c:\\chess\\tb\\4;c:\\chess\\tb\\5".into())
        }
    );
    assert_eq!(
        p(ToEngine, "setoption name Clear Hash").0,
        Msg::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    assert_eq!(
        p(
            ToEngine,
            "setoption name UCI_Opponent value GM 2800 human Gary Kasparov"
        )
        .0,
        Msg::SetOption {
            name: "UCI_Opponent".into(),
            value: Some("GM 2800 human Gary Kasparov".into())
        }
    );
    assert_eq!(
        p(ToEngine, "register name Stefan MK code 4359874324").0,
        Msg::Register(Register::With {
            name: Some("Stefan MK".into()),
            code: Some("4359874324".into())
        })
    );
    assert_eq!(
        p(ToEngine, "register later").0,
        Msg::Register(Register::Later)
    );
    let (m, d) = p(
        ToEngine,
        "position fen 8/p5pp/1pk5/5p2/P1nn4/2NN3P/5PPK/8 w - - 0 1 moves h2g3 h7h6",
    );
    assert!(d.is_empty());
    assert_eq!(
        m,
        Msg::Position(Position {
            fen: Some("8/p5pp/1pk5/5p2/P1nn4/2NN3P/5PPK/8 w - - 0 1".into()),
            moves: ["h2g3", "h7h6"].into_iter().collect()
        })
    );
    assert_eq!(
        p(ToEngine, "position startpos").0,
        Msg::Position(Position::default())
    );
    for (line, m) in [
        ("uci", Msg::Uci),
        ("isready", Msg::IsReady),
        ("ucinewgame", Msg::UciNewGame),
        ("stop", Msg::Stop),
        ("ponderhit", Msg::PonderHit),
        ("quit", Msg::Quit),
    ] {
        assert_eq!(p(ToEngine, line).0, m);
    }
    let (m, d) = p(ToEngine, "isready now");
    assert_eq!(m, Msg::IsReady);
    assert_eq!(d.len(), 1);
}

#[test]
fn engine_lines_from_the_corpus() {
    assert_eq!(
        p(FromEngine, "id name Stockfish 10 64 POPCNT").0,
        Msg::Id(Id::Name("Stockfish 10 64 POPCNT".into()))
    );
    assert_eq!(
        p(FromEngine, "bestmove d7c5 ponder e7f6").0,
        Msg::BestMove {
            best: "d7c5".into(),
            ponder: Some("e7f6".into())
        }
    );
    let (m, d) = p(FromEngine, "bestmove (none)");
    assert!(m.is_null_move() && d.is_empty());
    assert!(p(FromEngine, "bestmove 0000").0.is_null_move());
    let (m, d) = p(FromEngine, "bestmove");
    assert_eq!(m.kind(), "bestmove");
    assert!(!d.is_empty());
    // Astra / Stockfish option lines.
    let Msg::Option(o) = p(FromEngine, "option name Analysis Contempt type combo default Both var Off var White var Black var Both").0 else { panic!() };
    assert_eq!(o.name, "Analysis Contempt");
    assert_eq!(o.kind, OptionType::Combo);
    assert_eq!(o.default.as_deref(), Some("Both"));
    assert_eq!(o.vars, ["Off", "White", "Black", "Both"]);
    let Msg::Option(o) = p(
        FromEngine,
        "option name Debug Log File type string default ",
    )
    .0
    else {
        panic!()
    };
    assert_eq!(o.default.as_deref(), Some(""));
    let Msg::Option(o) = p(
        FromEngine,
        "option name Contempt type spin default 24 min -100 max 100",
    )
    .0
    else {
        panic!()
    };
    assert_eq!((o.min, o.max), (Some(-100), Some(100)));
    // UCCI (Fairy-Stockfish in ucci mode): no `name`.
    let (m, d) = p(
        FromEngine,
        "option Protocol type combo default ucci var uci var usi",
    );
    let Msg::Option(o) = m else { panic!() };
    assert_eq!(o.name, "Protocol");
    assert!(d.iter().any(|m| m.contains("missing 'name'")));
    assert_eq!(
        p(FromEngine, "copyprotection ok").0,
        Msg::CopyProtection(Status::Ok)
    );
    assert_eq!(
        p(FromEngine, "registration error").0,
        Msg::Registration(Status::Error)
    );
    // Banners are not UCI.
    for banner in [
        "Astra 2.0 Chess Engine by Semih Oezalp",
        "Unknown command. Good bye.",
        "For more info see the manual",
    ] {
        assert_eq!(
            p(FromEngine, banner).0,
            Msg::Unknown(banner.into()),
            "{banner}"
        );
    }
    assert_eq!(p(FromEngine, "   ").0, Msg::Empty);
    // Direction matters: a GUI word from the engine is unknown.
    assert!(matches!(p(FromEngine, "isready").0, Msg::Unknown(_)));
}

fn word() -> impl Strategy<Value = String> {
    "[A-Za-z_][A-Za-z0-9_:;./\\\\-]{0,8}"
}

fn text_avoiding(keywords: &'static [&'static str]) -> impl Strategy<Value = String> {
    prop::collection::vec(
        word().prop_filter("keyword", move |w| !keywords.contains(&w.as_str())),
        1..4,
    )
    .prop_map(|ws| ws.join(" "))
}

fn mv() -> impl Strategy<Value = String> {
    "[a-h][1-8][a-h][1-8][qrbn]?"
}

fn moves() -> impl Strategy<Value = Moves> {
    prop::collection::vec(mv(), 0..6).prop_map(|v| v.iter().map(String::as_str).collect())
}

fn moves1() -> impl Strategy<Value = Moves> {
    prop::collection::vec(mv(), 1..6).prop_map(|v| v.iter().map(String::as_str).collect())
}

const OPT_KW: &[&str] = &["name", "type", "default", "min", "max", "var"];
const GO_KW: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
];
/// Score sub-words, which a generated unknown field must not be either.
const SCORE_WORDS: &[&str] = &["cp", "mate"];

fn go() -> impl Strategy<Value = Go> {
    (
        (
            any::<bool>(),
            any::<Option<i64>>(),
            any::<Option<i64>>(),
            any::<Option<i64>>(),
            any::<Option<i64>>(),
        ),
        (
            any::<Option<u32>>(),
            any::<Option<u32>>(),
            any::<Option<u64>>(),
            any::<Option<u32>>(),
            any::<Option<i64>>(),
            any::<bool>(),
        ),
        moves(),
        prop::collection::vec(
            (
                "[a-z]{3,6}".prop_filter("kw", |w| !GO_KW.contains(&w.as_str())),
                moves(),
            ),
            0..2,
        ),
    )
        .prop_map(
            |(
                (ponder, wtime, btime, winc, binc),
                (movestogo, depth, nodes, mate, movetime, infinite),
                searchmoves,
                extra,
            )| Go {
                searchmoves,
                ponder,
                wtime,
                btime,
                winc,
                binc,
                movestogo,
                depth,
                nodes,
                mate,
                movetime,
                infinite,
                extra: extra
                    .into_iter()
                    .map(|(name, values)| Extra { name, values })
                    .collect(),
            },
        )
}

fn score() -> impl Strategy<Value = Score> {
    (
        prop_oneof![
            any::<i32>().prop_map(ScoreValue::Cp),
            any::<i32>().prop_map(ScoreValue::Mate)
        ],
        prop_oneof![Just(Bound::Exact), Just(Bound::Lower), Just(Bound::Upper)],
    )
        .prop_map(|(v, bound)| Score {
            value: Some(v),
            bound,
        })
}

fn info_strategy() -> impl Strategy<Value = Info> {
    (
        (
            any::<Option<u32>>(),
            any::<Option<u32>>(),
            any::<Option<u64>>(),
            any::<Option<u64>>(),
            prop::option::of(moves1()),
            any::<Option<u32>>(),
        ),
        (
            prop::option::of(score()),
            any::<Option<[u32; 3]>>(),
            prop::option::of(mv()),
            any::<Option<u32>>(),
            any::<Option<u32>>(),
            any::<Option<u64>>(),
        ),
        (
            any::<Option<u64>>(),
            any::<Option<u64>>(),
            any::<Option<u32>>(),
            prop::option::of("[ -~]{0,20}".prop_map(|s| s.trim().to_owned())),
        ),
        (
            prop::option::of(moves1()),
            prop::option::of((any::<Option<u32>>(), moves())),
        ),
        prop::collection::vec(
            (
                "[a-z]{3,6}".prop_filter("kw", |w| {
                    !crate::protocol::uci_info::INFO_KEYWORDS.contains(&w.as_str())
                        && !SCORE_WORDS.contains(&w.as_str())
                }),
                moves(),
            ),
            0..2,
        ),
    )
        .prop_map(|(a, b, c, e, extra)| Info {
            depth: a.0,
            seldepth: a.1,
            time: a.2,
            nodes: a.3,
            pv: a.4,
            multipv: a.5,
            score: b.0,
            wdl: b.1,
            currmove: b.2,
            currmovenumber: b.3,
            hashfull: b.4,
            nps: b.5,
            tbhits: c.0,
            sbhits: c.1,
            cpuload: c.2,
            string: c.3,
            refutation: e.0,
            currline: e.1.map(|(cpu, moves)| CurrLine { cpu, moves }),
            extra: extra
                .into_iter()
                .map(|(name, values)| Extra { name, values })
                .collect(),
        })
}

fn option_decl() -> impl Strategy<Value = OptionDecl> {
    (
        text_avoiding(OPT_KW),
        prop_oneof![
            Just(OptionType::Check),
            Just(OptionType::Spin),
            Just(OptionType::Combo),
            Just(OptionType::Button),
            Just(OptionType::String)
        ],
        prop::option::of(prop_oneof![Just(String::new()), text_avoiding(OPT_KW)]),
        any::<Option<i64>>(),
        any::<Option<i64>>(),
        prop::collection::vec(text_avoiding(OPT_KW), 0..3),
    )
        .prop_map(|(name, kind, default, min, max, vars)| OptionDecl {
            name,
            kind,
            default,
            min,
            max,
            vars,
        })
}

fn gui_msg() -> impl Strategy<Value = Msg> {
    prop_oneof![
        Just(Msg::Uci),
        prop::option::of(any::<bool>()).prop_map(Msg::Debug),
        Just(Msg::IsReady),
        (
            text_avoiding(&["value", "name"]),
            prop::option::of(prop_oneof![
                Just(String::new()),
                "[!-~]{1,10}( [!-~]{1,10})?"
            ])
        )
            .prop_map(|(name, value)| Msg::SetOption { name, value }),
        Just(Msg::Register(Register::Later)),
        (
            prop::option::of(text_avoiding(&["code", "name", "later"])),
            prop::option::of(text_avoiding(&["code", "name", "later"]))
        )
            .prop_filter("one", |(n, c)| n.is_some() || c.is_some())
            .prop_map(|(name, code)| Msg::Register(Register::With { name, code })),
        Just(Msg::UciNewGame),
        (prop::option::of(text_avoiding(&["moves"])), moves())
            .prop_map(|(fen, moves)| Msg::Position(Position { fen, moves })),
        go().prop_map(|g| Msg::Go(Box::new(g))),
        Just(Msg::Stop),
        Just(Msg::PonderHit),
        Just(Msg::Quit),
    ]
}

fn engine_msg() -> impl Strategy<Value = Msg> {
    prop_oneof![
        text_avoiding(&[]).prop_map(|n| Msg::Id(Id::Name(n))),
        text_avoiding(&[]).prop_map(|n| Msg::Id(Id::Author(n))),
        Just(Msg::UciOk),
        Just(Msg::ReadyOk),
        (
            prop_oneof![mv(), Just("(none)".to_owned()), Just("0000".to_owned())],
            prop::option::of(mv())
        )
            .prop_map(|(best, ponder)| Msg::BestMove { best, ponder }),
        prop_oneof![
            Just(Status::Checking),
            Just(Status::Ok),
            Just(Status::Error)
        ]
        .prop_map(Msg::CopyProtection),
        prop_oneof![
            Just(Status::Checking),
            Just(Status::Ok),
            Just(Status::Error)
        ]
        .prop_map(Msg::Registration),
        info_strategy()
            .prop_filter("not empty", |i| !i.is_empty())
            .prop_map(|i| Msg::Info(Box::new(i))),
        option_decl().prop_map(|o| Msg::Option(Box::new(o))),
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
    fn never_panics(line in "\\PC{0,80}", words in prop::collection::vec(prop_oneof![
        Just("info"), Just("score"), Just("pv"), Just("option"), Just("name"), Just("type"),
        Just("go"), Just("position"), Just("fen"), Just("moves"), Just("setoption"), Just("value"),
        Just("bestmove"), Just("ponder"), Just("wdl"), Just("currline"), Just("1"), Just("-"), Just("é"),
    ], 0..10)) {
        let joined = words.join(" ");
        for l in [line.as_str(), joined.as_str()] {
            for dir in [ToEngine, FromEngine] {
                let (m, _) = p(dir, l);
                let _ = m.to_string();
            }
        }
    }
}

/// Decode speed on the bulk of real traffic. Run with
/// `cargo test --release --lib uci::tests::info_speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn info_speed() {
    let line = "info depth 30 seldepth 59 multipv 1 score cp -413 nodes 17252590 nps 895866 \
                hashfull 735 tbhits 0 time 19258 pv e7f6 f3h4 f6g5 h4g2 h3h4 c5e4 g5f5 e4f2 b5c3";
    let n = 1_000_000;
    let t = std::time::Instant::now();
    let mut d = Vec::new();
    for _ in 0..n {
        std::hint::black_box(parse(FromEngine, std::hint::black_box(line), &mut d));
    }
    let s = t.elapsed().as_secs_f64();
    println!("{:.2} M info lines/s", n as f64 / s / 1e6);
}
