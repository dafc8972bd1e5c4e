use super::*;
use crate::recording::{ProxyKind, Source};

fn events(imp: &Imported, label: &str) -> Vec<(Source, String)> {
    imp.sessions
        .iter()
        .find(|s| s.label == label)
        .map(|s| s.events.iter().map(|e| (e.src, e.text.clone())).collect())
        .unwrap_or_default()
}

#[test]
fn names_round_trip() {
    for f in LogFormat::ALL {
        assert_eq!(LogFormat::from_name(f.name()), Some(*f));
    }
    assert_eq!(
        LogFormat::from_name("WinBoard"),
        Some(LogFormat::XboardDebug)
    );
    assert_eq!(LogFormat::from_name("nope"), None);
    assert_eq!(LogFormat::names().len(), LogFormat::ALL.len());
}

#[test]
fn empty_input_is_an_error() {
    assert_eq!(import(b"", None), Err(ImportError::Empty));
    assert_eq!(import(b"\n\r\n  \n", None), Err(ImportError::Empty));
}

#[test]
fn xboard_multiline_send_and_restart() {
    let log = b"StartChildProcess (dir=\".\") fairymax\n\
211 >first : xboard\nprotover 2\n288 <first : feature done=1\n2663 >first : quit\nUnload first\n\
2671 >first : xboard\nprotover 2\n";
    let imp = import(log, None).unwrap();
    assert_eq!(imp.format, LogFormat::XboardDebug);
    assert_eq!(
        events(&imp, "first"),
        vec![
            (Source::Gui, "xboard".into()),
            (Source::Gui, "protover 2".into()),
            (Source::Engine, "feature done=1".into()),
            (Source::Gui, "quit".into()),
        ]
    );
    assert_eq!(events(&imp, "first#2").len(), 2);
    let first = imp.sessions.iter().find(|s| s.label == "first").unwrap();
    let e = &first.events[2];
    assert_eq!((e.seq, e.line, e.t), (3, Some(4), 77_000_000));
    assert_eq!(e.session.as_deref(), Some("first"));
    assert_eq!(first.clock, ClockKind::Relative);
    assert_eq!(first.header.started, PLACEHOLDER_STARTED);
    assert_eq!(first.header.imported_from.as_deref(), Some("xboard-debug"));
    let tool = imp.sessions.iter().find(|s| s.label == "[xboard]").unwrap();
    assert_eq!(tool.events[0].kind, Some(ProxyKind::EngineStarted));
}

#[test]
fn direction_never_from_glyph_alone() {
    // Stockfish debug log: `>>` is what the engine received.
    let sf = import(
        b">> uci\n<< id name Stockfish\n<< uciok\n>> isready\n<< readyok\n",
        None,
    )
    .unwrap();
    assert_eq!(sf.format, LogFormat::StockfishDebug);
    assert_eq!(events(&sf, "engine")[0], (Source::Gui, "uci".into()));
    // A bare transcript in python-chess orientation: `<<` was sent to the engine.
    let py = import(
        b"<< uci\n>> id name Stockfish\n>> uciok\n<< isready\n>> readyok\n",
        None,
    )
    .unwrap();
    assert_eq!(py.format, LogFormat::Transcript);
    assert_eq!(events(&py, "engine")[0], (Source::Gui, "uci".into()));
    assert_eq!(events(&py, "engine")[2], (Source::Engine, "uciok".into()));
}

#[test]
fn cutechess_finished_game_has_result() {
    let log = b"Started game 1 of 5 (A vs B)\n10 >A(0): uci\n12 <A(0): uciok\nFinished game 1 (A vs B): 0-1 {White's connection stalls}\n";
    let imp = import(log, None).unwrap();
    assert_eq!(imp.format, LogFormat::CutechessCli);
    let tool = imp
        .sessions
        .iter()
        .find(|s| s.label == "[cutechess]")
        .unwrap();
    let fin = tool
        .events
        .iter()
        .find(|e| e.kind == Some(ProxyKind::GameFinished))
        .unwrap();
    assert_eq!(fin.result.as_deref(), Some("0-1"));
    assert_eq!(events(&imp, "A(0)")[1], (Source::Engine, "uciok".into()));
}

#[test]
fn fastchess_duplicates_are_dropped_with_a_warning() {
    let log = b"[Engine] [11:00:42.337993] <1> e ---> bestmove b8c6\n\
[Engine] [11:00:42.338115] <1> e ---> readyok\n\
[Engine] [11:00:42.337950] <1> e ---> bestmove b8c6\n";
    let imp = import(log, None).unwrap();
    let s = imp.sessions.iter().find(|s| s.label == "e").unwrap();
    assert_eq!(s.events.len(), 3);
    assert_eq!(s.events[2].kind, Some(ProxyKind::Warning));
    assert!(s.events[2].text.contains("duplicate of line 1"));
    assert_eq!(s.clock, ClockKind::TimeOfDay);
}

#[test]
fn lichess_bot_wrapped_feature_is_joined() {
    let log = b"2023-02-02 05:35:42,993 chess.engine DEBUG <XBoardProtocol (pid=3432)>: >> feature a=1\\\n b=2 \\\nc=3\n\
2023-02-02 05:35:43,000 chess.engine DEBUG <XBoardProtocol (pid=3432)>: << new\n";
    let imp = import(log, None).unwrap();
    assert_eq!(imp.format, LogFormat::LichessBot);
    let ev = events(&imp, "pid=3432");
    assert_eq!(ev[0], (Source::Engine, "feature a=1 b=2 c=3".into()));
    let s = &imp.sessions[0];
    assert_eq!(s.header.started, "2023-02-02T05:35:42.993000000Z");
    assert_eq!(s.events[1].t, 7_000_000);
    assert_eq!(s.header.protocol.as_deref(), Some("xboard"));
}

#[test]
fn crlf_binary_and_truncation() {
    let imp = import(
        b"1 >first : xboard\r\n2 <first : caf\xe9\r\n3 <first : feat",
        Some(LogFormat::XboardDebug),
    )
    .unwrap();
    let s = &imp.sessions[0];
    assert_eq!(s.events[0].text, "xboard");
    assert_eq!(s.events[1].line_bytes(), b"caf\xe9");
    assert_eq!(s.events[2].text, "feat");
}

/// The logs the tests have at hand: the corpus copies, the fixture logs, and short samples
/// with wrapped lines (python-chess) and multi-line sends (xboard).
fn sample_logs() -> Vec<(String, Vec<u8>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut logs = Vec::new();
    for dir in ["corpus", "logs"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("fixtures")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "log"))
            .collect();
        paths.sort();
        for p in paths {
            let data = std::fs::read(&p).expect("read fixture");
            logs.push((p.display().to_string(), data));
        }
    }
    logs.push((
        "wrapped".into(),
        b"2023-02-02 05:35:42,993 chess.engine DEBUG <XBoardProtocol (pid=3432)>: >> feature a=1\\\n b=2 \\\nc=3\n\
2023-02-02 05:35:43,000 chess.engine DEBUG <XBoardProtocol (pid=3432)>: << new\n"
            .to_vec(),
    ));
    logs
}

/// Every session's events in one stream in log order (same line: session order), numbered
/// from 1 in that order: what `stream` promises to hand out.
fn merged_events(sessions: Vec<ImportedSession>) -> Vec<Event> {
    let mut events: Vec<Event> = sessions.into_iter().flat_map(|s| s.events).collect();
    events.sort_by_key(|e| e.line.unwrap_or(0));
    for (i, e) in events.iter_mut().enumerate() {
        e.seq = i as u64 + 1;
    }
    events
}

/// Streaming hands out exactly the events `import` collects, merged in log order, however the
/// log is cut into batches, as long as the window covers a wrapped line's continuation.
#[test]
fn stream_gives_the_merged_import() {
    let logs = sample_logs();
    assert!(logs.len() > 20, "expected the corpus fixtures");
    for (name, data) in &logs {
        let Ok(imported) = import(data, None) else {
            assert!(stream(data, None).is_err(), "{name}");
            continue;
        };
        let want = merged_events(imported.sessions);
        for (batch, window) in [(1, 2), (2, 3), (7, 2), (64, 16), (4096, 4096)] {
            let got: Vec<Event> = stream(data, None)
                .expect("stream")
                .with_sizes(batch, window)
                .collect();
            assert_eq!(
                got.len(),
                want.len(),
                "{name} batch {batch} window {window}"
            );
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(g, w, "{name} batch {batch} window {window}");
            }
        }
    }
}

#[test]
fn stream_progress_reaches_the_end() {
    let mut data = Vec::new();
    for i in 0..20_000 {
        data.extend_from_slice(format!("{i} >E(0): go\n").as_bytes());
    }
    let mut s = stream(&data, None).unwrap();
    let mut last = 0;
    let mut steps = 0;
    while s.next().is_some() {
        assert!(s.bytes_read() >= last);
        steps += usize::from(s.bytes_read() > last);
        last = s.bytes_read();
    }
    assert_eq!(last, data.len());
    assert!(steps > 2, "progress moved {steps} times");
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn arb_log() -> impl Strategy<Value = Vec<u8>> {
        let frag = prop_oneof![
            Just(b"211 >first : ".to_vec()),
            Just(b"<E(1): ".to_vec()),
            Just(b"[Engine] [11:00:42.337993] <1> e ---> ".to_vec()),
            Just(b"2024-10-02 19:45:39,412-->1:".to_vec()),
            Just(b"DEBUG:chess.engine:<UciProtocol (pid=".to_vec()),
            Just(b">> ".to_vec()),
            Just(b"\\\n".to_vec()),
            Just(b"\r\n".to_vec()),
            Just(b"\n".to_vec()),
            prop::collection::vec(any::<u8>(), 0..20),
        ];
        prop::collection::vec(frag, 0..30).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn no_importer_panics(data in arb_log()) {
            let _ = detect(&data);
            for f in LogFormat::ALL {
                let _ = import(&data, Some(*f));
            }
            let _ = import(&data, None);
        }

        #[test]
        fn arbitrary_bytes_never_panic(data in prop::collection::vec(any::<u8>(), 0..400)) {
            let _ = detect(&data);
            for f in LogFormat::ALL {
                let _ = import(&data, Some(*f));
            }
        }

        /// Every format, on log-like garbage: streaming in small batches hands out the merged
        /// import, or fails the same way (a window longer than these logs: the fixture test
        /// above takes the small windows).
        #[test]
        fn streaming_agrees_with_the_import(data in arb_log(), batch in 1..6usize) {
            for f in LogFormat::ALL {
                match import(&data, Some(*f)) {
                    Ok(imp) => {
                        let got: Vec<Event> = stream(&data, Some(*f))
                            .map_err(|e| TestCaseError::fail(e.to_string()))?
                            .with_sizes(batch, 64)
                            .collect();
                        prop_assert_eq!(got, merged_events(imp.sessions), "{:?}", f);
                    }
                    Err(e) => prop_assert_eq!(stream(&data, Some(*f)).err(), Some(e)),
                }
            }
        }

        #[test]
        fn seq_counts_from_one_per_session(data in arb_log()) {
            if let Ok(imp) = import(&data, None) {
                for s in &imp.sessions {
                    for (i, e) in s.events.iter().enumerate() {
                        prop_assert_eq!(e.seq, i as u64 + 1);
                        prop_assert_eq!(e.session.as_deref(), Some(s.label.as_str()));
                    }
                }
            }
        }
    }
}

#[test]
fn a_located_text_is_where_the_log_holds_it_verbatim() {
    let log = b"1 >Engine(0): uci\r\n2 <Engine(0): id name E\xffgine\n\n3 <Engine(0): uciok\n4 Started game 1 of 2 (A vs B)\n5 <Engine(0): bestmove e2e4\n";
    let mut s = stream(log, Some(LogFormat::CutechessCli)).unwrap();
    s.locate_texts();
    let mut e = crate::recording::Event::line(0, 0, Source::Proxy, String::new());
    let mut found = Vec::new();
    while s.next_into(&mut e) {
        let at = s.text_at(&e);
        if let Some(a) = at {
            assert_eq!(
                &log[a as usize..a as usize + e.text.len()],
                e.text.as_bytes()
            );
        }
        found.push((e.text.clone(), at.is_some()));
    }
    let at = |t: &str| found.iter().find(|(x, _)| x == t).map(|(_, a)| *a);
    assert_eq!(at("uci"), Some(true), "{found:?}");
    assert_eq!(at("uciok"), Some(true));
    assert_eq!(at("bestmove e2e4"), Some(true));
    // Not valid UTF-8: the text is not the log's bytes.
    assert_eq!(at("id name E\u{fffd}gine"), Some(false));
    // Without asking, nothing is located.
    let mut s = stream(log, Some(LogFormat::CutechessCli)).unwrap();
    while s.next_into(&mut e) {
        assert_eq!(s.text_at(&e), None);
    }
}

#[test]
fn every_fixture_log_locates_its_texts_where_they_are() {
    let mut located = 0;
    for dir in ["logs", "corpus"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(dir);
        for f in std::fs::read_dir(dir).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_none_or(|x| x != "log") {
                continue;
            }
            let data = std::fs::read(&p).unwrap();
            let Ok(mut s) = stream(&data, None) else {
                continue;
            };
            s.locate_texts();
            let mut e = crate::recording::Event::line(0, 0, Source::Proxy, String::new());
            while s.next_into(&mut e) {
                if let Some(a) = s.text_at(&e) {
                    let a = a as usize;
                    assert_eq!(
                        &data[a..a + e.text.len()],
                        e.text.as_bytes(),
                        "{}",
                        p.display()
                    );
                    located += 1;
                }
            }
        }
    }
    assert!(located > 1000, "{located}");
}
