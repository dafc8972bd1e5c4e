use super::*;
use crate::protocol::Dir::{FromEngine, ToEngine};
use proptest::prelude::*;

fn p(dir: Dir, line: &str) -> (Msg, Vec<String>) {
    let mut d = Vec::new();
    let m = parse(dir, line, &mut d);
    (m, d.into_iter().map(|x| x.message).collect())
}

fn gui(line: &str) -> Msg {
    p(ToEngine, line).0
}

fn eng(line: &str) -> Msg {
    p(FromEngine, line).0
}

#[test]
fn move_syntaxes() {
    for m in [
        "e2e4",
        "e7e8q",
        "e1g1",
        "P@h3",
        "O-O",
        "O-O-O",
        "c4d5,d5e4",
        "@@@@",
        "Nf3",
        "exd5",
        "Bxf7+",
        "Qxf7#",
        "e8=Q",
        "a0a1",
        "d1f1",
        "move,",
        "c4d5,",
    ] {
        let ok = looks_like_move(m);
        assert_eq!(ok, m != "move,", "{m}");
    }
    for m in ["go", "new", "xa4", "hint", "c", "#", "e2e4,,", "1-0"] {
        assert!(!looks_like_move(m), "{m}");
    }
    assert_eq!(edit_placement("Pa4"), Some(('P', "a4")));
    assert_eq!(edit_placement("e2e4"), None);
}

#[test]
fn section_8_commands() {
    assert_eq!(gui("protover 2"), Msg::Protover(2));
    assert_eq!(gui("accepted myname"), Msg::Accepted("myname".into()));
    assert_eq!(
        gui("rejected option nonsense"),
        Msg::Rejected("option nonsense".into())
    );
    assert_eq!(
        gui("level 40 5 0"),
        Msg::Level(Level {
            mps: 40,
            base_seconds: 300,
            base_suffix: String::new(),
            inc_ms: 0
        })
    );
    assert_eq!(
        gui("level 40 0:30 0"),
        Msg::Level(Level {
            mps: 40,
            base_seconds: 30,
            base_suffix: String::new(),
            inc_ms: 0
        })
    );
    let (m, d) = p(ToEngine, "level 40 25+5 0.5");
    assert_eq!(
        m,
        Msg::Level(Level {
            mps: 40,
            base_seconds: 1500,
            base_suffix: "+5".into(),
            inc_ms: 500
        })
    );
    assert!(d.is_empty());
    assert_eq!(gui("st 30"), Msg::St(30));
    assert_eq!(gui("time 30000"), Msg::Time(30000));
    assert_eq!(gui("otim -120"), Msg::Otim(-120));
    assert_eq!(gui("usermove e2e4"), Msg::UserMove("e2e4".into()));
    assert_eq!(gui("e7e8q"), Msg::Move("e7e8q".into()));
    assert_eq!(gui("?"), Msg::MoveNow);
    assert_eq!(gui("ping 1"), Msg::Ping(1));
    assert_eq!(
        gui("result 1-0 {White wins by adjudication: Invalid result claim}"),
        Msg::Result {
            result: GameResult::WhiteWins,
            comment: Some("White wins by adjudication: Invalid result claim".into())
        }
    );
    assert_eq!(
        gui("setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        Msg::SetBoard("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into())
    );
    assert_eq!(gui("#"), Msg::EditClear);
    assert_eq!(gui("c"), Msg::EditColor);
    assert_eq!(gui("xa4"), Msg::EditEmpty("a4".into()));
    assert_eq!(gui("."), Msg::Dot);
    assert_eq!(
        gui("rating 2600 1500"),
        Msg::Rating {
            own: 2600,
            opponent: 1500
        }
    );
    assert_eq!(
        gui("egtpath syzygy /tb/a b"),
        Msg::EgtPath {
            kind: "syzygy".into(),
            path: "/tb/a b".into()
        }
    );
    assert_eq!(
        gui("option Resign Threshold=800"),
        Msg::SetOption {
            name: "Resign Threshold".into(),
            value: Some("800".into())
        }
    );
    assert_eq!(
        gui("option Clear Hash"),
        Msg::SetOption {
            name: "Clear Hash".into(),
            value: None
        }
    );
    assert_eq!(gui("exclude all"), Msg::Exclude(MoveSel::All));
    assert_eq!(
        gui("include e2e4"),
        Msg::Include(MoveSel::Move("e2e4".into()))
    );
    assert_eq!(
        gui("setscore -50 10"),
        Msg::SetScore {
            score: -50,
            depth: 10
        }
    );
    assert_eq!(gui("lift e2"), Msg::Lift("e2".into()));
    assert_eq!(gui("memory 68"), Msg::Memory(68));
    assert_eq!(gui("partner"), Msg::Partner(None));
    assert_eq!(
        gui("holding [PPPRQ] [R] BR"),
        Msg::Holding("[PPPRQ] [R] BR".into())
    );
    let (m, d) = p(ToEngine, "sd x");
    assert_eq!(m, Msg::Sd(0));
    assert!(d[0].contains("bad number"));
    assert_eq!(gui("fritz"), Msg::Unknown("fritz".into()));
}

#[test]
fn feature_settings_are_typed_by_the_protocol() {
    let Msg::Feature(fs) = eng(
        r#"feature ping=1 san=0 ping="1" draw=2 done=1 done="1" myname="Toy 1.0" variants=normal egt=3 option="Hash -spin 64 1 1024" option="no type" foo=7 bar="x" baz=y"#,
    ) else {
        panic!("not a feature line");
    };
    let settings: Vec<FeatureSetting> = fs.iter().map(Feature::setting).collect();
    use FeatureSetting::*;
    assert_eq!(
        settings,
        [
            Flag(true),
            Flag(false),
            Malformed(FeatureValue::Str("1".into())),
            Malformed(FeatureValue::Int(2)),
            Number(1),
            Malformed(FeatureValue::Str("1".into())),
            Text("Toy 1.0".into()),
            Text("normal".into()),
            Text("3".into()),
            Option(OptionDef {
                name: "Hash".into(),
                kind: OptionKind::Spin {
                    value: 64,
                    min: 1,
                    max: 1024
                }
            }),
            Malformed(FeatureValue::Str("no type".into())),
            Number(7),
            Text("x".into()),
            Malformed(FeatureValue::Bare("y".into())),
        ]
    );
    let shown: Vec<String> = settings.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        [
            "1",
            "0",
            "\"1\"",
            "2",
            "1",
            "\"1\"",
            "Toy 1.0",
            "normal",
            "3",
            "Hash -spin 64 1 1024",
            "\"no type\"",
            "7",
            "x",
            "y"
        ]
    );
    assert_eq!(settings[0].flag(), Some(true));
    assert_eq!(settings[2].flag(), None);
    assert_eq!(settings[6].text(), Some("Toy 1.0"));
}

#[test]
fn features_from_the_corpus() {
    // banksia-6: several features on one line, a quoted option with spaces and dashes.
    let (m, d) = p(
        FromEngine,
        "feature analyze=1 setboard=1 sigint=1 time=1 memory=1 draw=0 option=\"Randomizer (0-50) -slider 0 0 50\" ping=1",
    );
    assert!(d.is_empty(), "{d:?}");
    let Msg::Feature(fs) = m else { panic!() };
    assert_eq!(fs.len(), 8);
    assert_eq!(
        fs[0],
        Feature {
            name: "analyze".into(),
            value: FeatureValue::Int(1)
        }
    );
    assert_eq!(
        fs[6].value,
        FeatureValue::Option(OptionDef {
            name: "Randomizer (0-50)".into(),
            kind: OptionKind::Slider {
                value: 0,
                min: 0,
                max: 50
            }
        })
    );
    let Msg::Feature(fs) = eng("feature myname=\"Phalanx XXV\"") else {
        panic!()
    };
    assert_eq!(fs[0].value, FeatureValue::Str("Phalanx XXV".into()));
    let combo = "feature option=\"Makruk rules -combo makruk /// Cambodian /// Ai-wok\"";
    let Msg::Feature(fs) = eng(combo) else {
        panic!()
    };
    assert_eq!(
        fs[0].value,
        FeatureValue::Option(OptionDef {
            name: "Makruk rules".into(),
            kind: OptionKind::Combo(vec!["makruk".into(), "Cambodian".into(), "Ai-wok".into()])
        })
    );
    for (def, kind) in [
        ("Resign -check 0", OptionKind::Check(false)),
        ("Info -button", OptionKind::Button),
        (
            "Dummy String Example -string happy birthday!",
            OptionKind::String("happy birthday!".into()),
        ),
        (
            "Ini File -file /usr/share/games/fairymax/fmax.ini",
            OptionKind::File("/usr/share/games/fairymax/fmax.ini".into()),
        ),
        ("Dummy Path Example -path .", OptionKind::Path(".".into())),
        (
            "Resign Threshold -spin 800 200 1200",
            OptionKind::Spin {
                value: 800,
                min: 200,
                max: 1200,
            },
        ),
    ] {
        let Msg::Feature(fs) = eng(&format!("feature option=\"{def}\"")) else {
            panic!()
        };
        let FeatureValue::Option(o) = &fs[0].value else {
            panic!("{def}")
        };
        assert_eq!(o.kind, kind, "{def}");
    }
    // lichess-bot-654: the log cut the line inside a quoted string.
    let (m, d) = p(FromEngine, "feature name=1 option=\"Resign threshold -sp");
    let Msg::Feature(fs) = m else { panic!() };
    assert_eq!(fs.len(), 2);
    assert!(d.iter().any(|m| m.contains("unterminated")), "{d:?}");
}

#[test]
fn engine_commands() {
    assert_eq!(eng("move e2e4"), Msg::EngineMove("e2e4".into()));
    assert_eq!(eng("pong 1"), Msg::Pong(1));
    assert_eq!(
        eng("Illegal move (in check): Nf3"),
        Msg::IllegalMove {
            reason: Some("in check".into()),
            mv: "Nf3".into()
        }
    );
    assert_eq!(
        eng("Illegal move: e2e4"),
        Msg::IllegalMove {
            reason: None,
            mv: "e2e4".into()
        }
    );
    let (m, d) = p(FromEngine, "Illegal move (no matching move)e2e4");
    assert_eq!(
        m,
        Msg::IllegalMove {
            reason: Some("no matching move".into()),
            mv: "e2e4".into()
        }
    );
    assert_eq!(d.len(), 1);
    assert_eq!(eng("illegal move").kind(), "illegal-move");
    assert_eq!(
        eng("Error (unknown command): analyze"),
        Msg::Error {
            kind: "unknown command".into(),
            command: "analyze".into()
        }
    );
    assert_eq!(
        eng("1/2-1/2 {Draw by repetition}"),
        Msg::GameEnd {
            result: GameResult::Draw,
            comment: Some("Draw by repetition".into())
        }
    );
    assert_eq!(eng("resign"), Msg::Resign);
    assert_eq!(eng("offer draw"), Msg::OfferDraw);
    assert_eq!(
        eng("tellics set 1 Phalanx XXV, 820 kB hashtable"),
        Msg::Tell {
            kind: TellKind::Ics,
            text: "set 1 Phalanx XXV, 820 kB hashtable".into()
        }
    );
    assert_eq!(
        eng("askuser q1 Your name?"),
        Msg::AskUser {
            tag: "q1".into(),
            text: "Your name?".into()
        }
    );
    assert_eq!(eng("# searching"), Msg::Debug("searching".into()));
    assert_eq!(eng("Hint: e2e4"), Msg::HintMove("e2e4".into()));
    assert_eq!(
        eng("stat01: 1234 30000 7 5 30 Nf3"),
        Msg::Stat01(Stat01 {
            time: 1234,
            nodes: 30000,
            ply: 7,
            mvleft: 5,
            mvtot: 30,
            mvname: Some("Nf3".into())
        })
    );
    assert_eq!(eng("++"), Msg::FailHigh);
    assert_eq!(eng("--"), Msg::FailLow);
    assert_eq!(
        eng("setup (PNBRQKpnbrqk) 8x8+0_fairy rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w - - 0 1").kind(),
        "setup"
    );
}

#[test]
fn thinking_output() {
    assert_eq!(
        eng("9 156 1084 48000 Nf3 Nc6 Nc3 Nf6"),
        Msg::Thinking(Thinking {
            ply: 9,
            flag: None,
            score: 156,
            time: 1084,
            nodes: 48000,
            pv: "Nf3 Nc6 Nc3 Nf6".into()
        })
    );
    let Msg::Thinking(t) = eng("9& 62 2 38886 d1e2 e8e7") else {
        panic!()
    };
    assert_eq!((t.flag, t.time_centis()), (Some('&'), 200));
    assert_eq!(eng("10. 34 9 173474 d1e2").kind(), "thinking");
    // xboard-debug__engine-source-comment
    assert_eq!(eng("0 -100 0 0 Qxc4.").kind(), "thinking");
    assert_eq!(eng("0 0 0 0 (e4 64%, d4 24%)").kind(), "thinking");
    assert_eq!(
        eng("    2. Nf3 Nc6"),
        Msg::Continuation("2. Nf3 Nc6".into())
    );
    assert_eq!(
        eng(" opening book text"),
        Msg::Continuation("opening book text".into())
    );
    assert!(matches!(eng("4 ..."), Msg::Unknown(_)));
}

#[test]
fn legacy_idioms() {
    let (m, d) = p(FromEngine, "16. ... d5c4");
    assert_eq!(m, Msg::EngineMove("d5c4".into()));
    assert_eq!(d.len(), 1);
    assert_eq!(eng("1. ... e2e4"), Msg::EngineMove("e2e4".into()));
    assert!(matches!(
        eng("White resigns"),
        Msg::Idiom {
            idiom: Idiom::WhiteResigns,
            ..
        }
    ));
    assert!(matches!(
        eng("White mates"),
        Msg::Idiom {
            idiom: Idiom::White,
            ..
        }
    ));
    assert!(matches!(
        eng("game is a draw by the 50 move rule"),
        Msg::Idiom {
            idiom: Idiom::GameIsADraw,
            ..
        }
    ));
    // inbetween-probable__cutechess-645
    assert!(matches!(
        eng("computer resigns"),
        Msg::Idiom {
            idiom: Idiom::ComputerResigns,
            ..
        }
    ));
    let (m, d) = p(FromEngine, "I offer you a draw");
    assert_eq!(m, Msg::OfferDraw);
    assert_eq!(d.len(), 1);
    // Phalanx banners stay unknown.
    for l in [
        "Phalanx XXV",
        "xboard mode on",
        "[ white, 1 ]",
        "primary book ./pbook.phalanx, 48618 bytes",
    ] {
        assert_eq!(eng(l), Msg::Unknown(l.into()), "{l}");
    }
}

fn word() -> impl Strategy<Value = String> {
    "[A-Za-z][A-Za-z0-9_.()]{0,7}"
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(word(), 1..4).prop_map(|w| w.join(" "))
}

fn coord() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-h][1-8][a-h][1-8][qrbn]?",
        "[PNBRQ]@[a-h][1-8]",
        Just("O-O".to_owned()),
        Just("O-O-O".to_owned()),
        Just("@@@@".to_owned()),
        "[NBRQK][a-h][1-8]",
        "[a-h][1-8][a-h][1-8],[a-h][1-8][a-h][1-8]",
    ]
}

fn result() -> impl Strategy<Value = GameResult> {
    prop_oneof![
        Just(GameResult::WhiteWins),
        Just(GameResult::BlackWins),
        Just(GameResult::Draw),
        Just(GameResult::Unfinished)
    ]
}

fn gui_msg() -> impl Strategy<Value = Msg> {
    let units = [
        Msg::Xboard,
        Msg::New,
        Msg::Quit,
        Msg::Random,
        Msg::Force,
        Msg::Go,
        Msg::PlayOther,
        Msg::White,
        Msg::Black,
        Msg::MoveNow,
        Msg::Draw,
        Msg::Edit,
        Msg::EditColor,
        Msg::EditClear,
        Msg::Dot,
        Msg::Hint,
        Msg::Bk,
        Msg::Undo,
        Msg::Remove,
        Msg::Hard,
        Msg::Easy,
        Msg::Post,
        Msg::NoPost,
        Msg::Analyze,
        Msg::Exit,
        Msg::Computer,
        Msg::Pause,
        Msg::Resume,
    ];
    prop_oneof![
        prop::sample::select(units.to_vec()),
        any::<u32>().prop_map(Msg::Protover),
        text().prop_map(Msg::Accepted),
        text().prop_map(Msg::Rejected),
        word().prop_map(Msg::Variant),
        (
            any::<u32>(),
            0u64..100_000,
            prop_oneof![Just(String::new()), Just("+5".to_owned())],
            0u64..1_000_000
        )
            .prop_map(
                |(mps, base_seconds, base_suffix, inc_ms)| Msg::Level(Level {
                    mps,
                    base_seconds,
                    base_suffix,
                    inc_ms
                })
            ),
        any::<u64>().prop_map(Msg::St),
        any::<u32>().prop_map(Msg::Sd),
        any::<u64>().prop_map(Msg::Nps),
        any::<i64>().prop_map(Msg::Time),
        any::<i64>().prop_map(Msg::Otim),
        coord().prop_map(Msg::UserMove),
        coord().prop_map(Msg::Move),
        any::<i64>().prop_map(Msg::Ping),
        (
            result(),
            prop::option::of(prop_oneof![Just(String::new()), text()])
        )
            .prop_map(|(result, comment)| Msg::Result { result, comment }),
        text().prop_map(Msg::SetBoard),
        "[a-h][1-8]".prop_map(Msg::EditEmpty),
        text().prop_map(Msg::Name),
        (any::<i32>(), any::<i32>()).prop_map(|(own, opponent)| Msg::Rating { own, opponent }),
        text().prop_map(Msg::Ics),
        any::<u64>().prop_map(Msg::Memory),
        any::<u32>().prop_map(Msg::Cores),
        (word(), text()).prop_map(|(kind, path)| Msg::EgtPath { kind, path }),
        (text(), prop::option::of("[A-Za-z0-9]{0,8}"))
            .prop_map(|(name, value)| Msg::SetOption { name, value }),
        prop_oneof![Just(MoveSel::All), coord().prop_map(MoveSel::Move)].prop_map(Msg::Exclude),
        prop_oneof![Just(MoveSel::All), coord().prop_map(MoveSel::Move)].prop_map(Msg::Include),
        (any::<i32>(), any::<u32>()).prop_map(|(score, depth)| Msg::SetScore { score, depth }),
        "[a-h][1-8]".prop_map(Msg::Lift),
        "[a-h][1-8]".prop_map(Msg::Put),
        "[a-h][1-8]".prop_map(Msg::Hover),
        prop::option::of(text()).prop_map(Msg::Partner),
        text().prop_map(Msg::Ptell),
        text().prop_map(Msg::Holding),
    ]
}

fn option_def() -> impl Strategy<Value = OptionDef> {
    let kind =
        prop_oneof![
            Just(OptionKind::Button),
            Just(OptionKind::Save),
            Just(OptionKind::Reset),
            any::<bool>().prop_map(OptionKind::Check),
            text().prop_map(OptionKind::String),
            (any::<i64>(), any::<i64>(), any::<i64>())
                .prop_map(|(value, min, max)| OptionKind::Spin { value, min, max }),
            (any::<i64>(), any::<i64>(), any::<i64>())
                .prop_map(|(value, min, max)| OptionKind::Slider { value, min, max }),
            prop::collection::vec(text(), 1..4).prop_map(OptionKind::Combo),
            text().prop_map(OptionKind::File),
            text().prop_map(OptionKind::Path),
        ];
    (text(), kind).prop_map(|(name, kind)| OptionDef { name, kind })
}

fn feature() -> impl Strategy<Value = Feature> {
    prop_oneof![
        ("[a-z]{2,8}", any::<i64>()).prop_map(|(name, n)| Feature {
            name,
            value: FeatureValue::Int(n)
        }),
        (
            "[a-z]{2,8}".prop_filter("option", |n| n != "option"),
            prop_oneof![Just(String::new()), text()]
        )
            .prop_map(|(name, s)| Feature {
                name,
                value: FeatureValue::Str(s)
            }),
        option_def().prop_map(|o| Feature {
            name: "option".into(),
            value: FeatureValue::Option(o)
        }),
    ]
}

fn engine_msg() -> impl Strategy<Value = Msg> {
    prop_oneof![
        prop::collection::vec(feature(), 1..5).prop_map(Msg::Feature),
        coord().prop_map(Msg::EngineMove),
        any::<i64>().prop_map(Msg::Pong),
        (prop::option::of(text()), coord())
            .prop_map(|(reason, mv)| Msg::IllegalMove { reason, mv }),
        (text(), text()).prop_map(|(kind, command)| Msg::Error { kind, command }),
        (result(), prop::option::of(text()))
            .prop_map(|(result, comment)| Msg::GameEnd { result, comment }),
        Just(Msg::Resign),
        Just(Msg::OfferDraw),
        (prop::sample::select(TellKind::ALL.to_vec()), text())
            .prop_map(|(kind, text)| Msg::Tell { kind, text }),
        (word(), text()).prop_map(|(tag, text)| Msg::AskUser { tag, text }),
        text().prop_map(Msg::Debug),
        coord().prop_map(Msg::HintMove),
        text().prop_map(Msg::Setup),
        text().prop_map(Msg::Piece),
        text().prop_map(Msg::Highlight),
        (
            any::<u32>(),
            prop::option::of(prop::sample::select(vec!['&', '.', '+'])),
            any::<i64>(),
            any::<u64>(),
            any::<u64>(),
            prop_oneof![Just(String::new()), text()]
        )
            .prop_map(
                |(ply, flag, score, time, nodes, pv)| Msg::Thinking(Thinking {
                    ply,
                    flag,
                    score,
                    time,
                    nodes,
                    pv
                })
            ),
        text().prop_map(Msg::Continuation),
        (
            any::<u64>(),
            any::<u64>(),
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            prop::option::of(coord())
        )
            .prop_map(
                |(time, nodes, ply, mvleft, mvtot, mvname)| Msg::Stat01(Stat01 {
                    time,
                    nodes,
                    ply,
                    mvleft,
                    mvtot,
                    mvname
                })
            ),
        Just(Msg::FailHigh),
        Just(Msg::FailLow),
    ]
}

proptest! {
    #[test]
    fn gui_messages_round_trip(m in gui_msg()) {
        let line = m.to_string();
        prop_assert_eq!(gui(&line), m, "line: {}", line);
    }

    #[test]
    fn engine_messages_round_trip(m in engine_msg()) {
        let line = m.to_string();
        prop_assert_eq!(eng(&line), m, "line: {}", line);
    }

    #[test]
    fn never_panics(line in "\\PC{0,80}", words in prop::collection::vec(prop_oneof![
        Just("feature"), Just("option=\""), Just("\""), Just("-spin"), Just("-combo"), Just("///"),
        Just("level"), Just("0:"), Just("Illegal move"), Just("("), Just(")"), Just(":"), Just("Error"),
        Just("1-0"), Just("{"), Just("}"), Just("..."), Just("9&"), Just("stat01:"), Just("é"), Just("="),
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

/// `cargo test --release --lib cecp::tests::thinking_speed -- --ignored --nocapture`.
#[test]
#[ignore]
fn thinking_speed() {
    let line = "10& 34 7 135944 d1e2 e8e7 e2e3 e7e6 e3d4 h7h5 c2c4 h5h4 d4e4 f7f5 e4f4";
    let n = 1_000_000;
    let t = std::time::Instant::now();
    let mut d = Vec::new();
    for _ in 0..n {
        std::hint::black_box(parse(FromEngine, std::hint::black_box(line), &mut d));
    }
    println!(
        "{:.2} M thinking lines/s",
        n as f64 / t.elapsed().as_secs_f64() / 1e6
    );
}
