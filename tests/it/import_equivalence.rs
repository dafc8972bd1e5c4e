//! A log from another tool decodes to the same session as a kibitzer recording of the same
//! traffic: the shipped recordings are rendered in the line formats of cutechess-cli,
//! xboard, python-chess and Arena, imported back, and decoded; every traffic line must
//! decode to the same message kind and every game to the same moves and diagnostics.

use kibitzer::import::{LogFormat, import};
use kibitzer::recording::{Event, Source, read_all};
use kibitzer::session::{Session, decode};
use std::path::Path;

fn load(name: &str) -> Vec<Event> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("recordings")
        .join(name);
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_all(std::io::BufReader::new(f))
        .expect("recording")
        .events
}

/// Renders the GUI and engine lines of a recording as a log of `format`.
fn render(events: &[Event], format: LogFormat) -> String {
    let mut out = String::new();
    for e in events
        .iter()
        .filter(|e| matches!(e.src, Source::Gui | Source::Engine))
    {
        let to_engine = e.src == Source::Gui;
        let ms = e.t / 1_000_000;
        let line = match format {
            LogFormat::CutechessCli => format!(
                "{ms} {}Engine(1): {}",
                if to_engine { '>' } else { '<' },
                e.text
            ),
            LogFormat::XboardDebug => format!(
                "{ms} {}first : {}",
                if to_engine { '>' } else { '<' },
                e.text
            ),
            LogFormat::PythonChess => format!(
                "DEBUG:chess.engine:<UciProtocol (pid=4242)>: {} {}",
                if to_engine { "<<" } else { ">>" },
                e.text
            ),
            LogFormat::Arena => {
                let (s, milli) = (ms / 1000, ms % 1000);
                format!(
                    "2026-11-21 10:{:02}:{:02}.{milli:03}{}1:{}",
                    (s / 60) % 60,
                    s % 60,
                    if to_engine { "-->" } else { "<--" },
                    e.text
                )
            }
            other => unreachable!("no renderer for {other:?}"),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// What a user sees of a decoded session: traffic lines with their decoded kind, the moves of
/// every game, and every diagnostic.
type Essence = (
    Vec<(Source, String, &'static str)>,
    Vec<Vec<Option<String>>>,
    Vec<String>,
);

fn essence(s: &Session) -> Essence {
    let lines = s
        .lines
        .iter()
        .filter(|l| matches!(l.src, Source::Gui | Source::Engine) && !l.text.trim().is_empty())
        .map(|l| {
            (
                l.src,
                l.text.clone(),
                l.msg.as_ref().map(|m| m.kind()).unwrap_or("undecoded"),
            )
        })
        .collect();
    let games = s
        .games
        .iter()
        .map(|g| {
            g.plies
                .iter()
                .map(|p| p.canonical().map(str::to_owned))
                .collect()
        })
        .collect();
    let diags = s
        .lines
        .iter()
        .flat_map(|l| l.breaches.iter().map(|d| format!("{}: {}", l.text, d.rule)))
        .collect();
    (lines, games, diags)
}

fn engine_session(sessions: Vec<Session>) -> Session {
    sessions
        .into_iter()
        .filter(|s| !s.label.as_deref().unwrap_or("").starts_with('['))
        .max_by_key(|s| s.lines.len())
        .expect("an engine session")
}

fn check(recording: &str, formats: &[LogFormat]) {
    let events = load(recording);
    let direct = engine_session(decode(&events, None));
    let want = essence(&direct);
    assert!(
        want.0.len() > 20,
        "{recording}: too little traffic to compare"
    );
    assert!(
        !want.1.is_empty() && !want.1[0].is_empty(),
        "{recording}: no game decoded"
    );
    for &format in formats {
        let log = render(&events, format);
        let imported = import(log.as_bytes(), None)
            .unwrap_or_else(|e| panic!("{recording} as {format:?}: {e}"));
        assert_eq!(
            imported.format, format,
            "{recording}: detected as {:?}",
            imported.format
        );
        let engine_events: Vec<Event> = imported
            .sessions
            .into_iter()
            .filter(|s| !s.label.starts_with('['))
            .flat_map(|s| s.events)
            .collect();
        let got = essence(&engine_session(decode(&engine_events, None)));
        assert_eq!(
            got.0.len(),
            want.0.len(),
            "{recording} as {format:?}: traffic line count"
        );
        for (g, w) in got.0.iter().zip(&want.0) {
            assert_eq!(g, w, "{recording} as {format:?}");
        }
        assert_eq!(got.1, want.1, "{recording} as {format:?}: games differ");
        assert_eq!(
            got.2, want.2,
            "{recording} as {format:?}: diagnostics differ"
        );
    }
}

#[test]
fn uci_game_decodes_the_same_from_foreign_logs() {
    check(
        "stockfish-uci-game.jsonl",
        &[
            LogFormat::CutechessCli,
            LogFormat::PythonChess,
            LogFormat::Arena,
        ],
    );
}

#[test]
fn cecp_game_decodes_the_same_from_foreign_logs() {
    check(
        "fairymax-cecp-game.jsonl",
        &[
            LogFormat::XboardDebug,
            LogFormat::CutechessCli,
            LogFormat::Arena,
        ],
    );
}
