//! Fuzzing every reader and importer in CI: real recordings and logs, mutated the way damaged
//! files are (bytes flipped, ranges cut out or duplicated, garbage inserted, cut short), go
//! through the recording reader, every importer, forced or detected, and the one checker
//! (decoder and judge, as every command runs them). None may panic, the reader accounts for
//! every line it does not turn into an event, and every finding is placed at an event of the
//! input.

use kibitzer::import::{LogFormat, import, stream};
use kibitzer::recording::Event;
use kibitzer::recording::read_all;
use kibitzer::rules::{CheckOptions, Checker, Profile};
use std::collections::HashSet;

/// Decodes and judges `events` as `check` does (every profile in turn, PV moves checked);
/// returns the seq of every finding placed at an event that is not in the input.
fn judge<'a>(events: impl Iterator<Item = &'a Event> + Clone) -> Vec<u64> {
    let seqs: HashSet<u64> = events.clone().map(|e| e.seq).collect();
    let mut misplaced = Vec::new();
    for name in Profile::NAMES {
        let opts = CheckOptions::new(Profile::named(name).expect("a named profile"));
        let mut c = Checker::new(&opts, opts.decoder(Vec::new()));
        for e in events.clone() {
            c.push(e, e.line);
        }
        let checked = c.into_checked(None);
        misplaced.extend(
            checked
                .findings
                .iter()
                .map(|f| f.seq)
                .filter(|s| !(seqs.contains(s) || (seqs.is_empty() && *s == 0))),
        );
        let _ = checked.decoder.finish();
    }
    misplaced
}
use proptest::prelude::*;
use std::path::Path;

const SEEDS: &[&str] = &[
    "recordings/stockfish-analysis.jsonl",
    "recordings/nboard-scripted-engine.jsonl",
    "recordings/gnuchess-cecp-game.jsonl",
    "tests/fixtures/logs/polyglot__stockfish.log",
    "tests/fixtures/corpus/python-chess__python-chess-429__1.log",
    "tests/fixtures/corpus/cutechess-cli__cutechess-464__1.log",
    "tests/fixtures/corpus/fastchess__fastchess-623__1.log",
    "tests/fixtures/corpus/arena__astra-2__2.log",
    "tests/fixtures/corpus/nboard__ntest-protocol-htm__1.log",
];

fn seed(i: usize) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(SEEDS[i % SEEDS.len()]);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Cut(usize, usize),
    Duplicate(usize, usize),
    Insert(usize, Vec<u8>),
    Truncate(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::Flip(a, b)),
        (any::<usize>(), 0..200usize).prop_map(|(a, n)| Mutation::Cut(a, n)),
        (any::<usize>(), 0..400usize).prop_map(|(a, n)| Mutation::Duplicate(a, n)),
        (
            any::<usize>(),
            prop_oneof![
                prop::collection::vec(any::<u8>(), 0..40),
                Just(b"\n{\"seq\":".to_vec()),
                Just(b"\"src\":\"engine\",\"text\":\"bestmove e1e1\"}\n".to_vec()),
                Just(b"\r\n".to_vec()),
                Just(vec![0xff, 0xfe, 0x00]),
            ]
        )
            .prop_map(|(a, v)| Mutation::Insert(a, v)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(data: &mut Vec<u8>, m: &Mutation) {
    if data.is_empty() {
        return;
    }
    let at = |a: usize| a % data.len();
    match m {
        Mutation::Flip(a, b) => {
            let i = at(*a);
            data[i] ^= b | 1;
        }
        Mutation::Cut(a, n) => {
            let i = at(*a);
            let end = (i + n).min(data.len());
            data.drain(i..end);
        }
        Mutation::Duplicate(a, n) => {
            let i = at(*a);
            let end = (i + n).min(data.len());
            let copy = data[i..end].to_vec();
            data.splice(i..i, copy);
        }
        Mutation::Insert(a, v) => {
            let i = at(*a);
            data.splice(i..i, v.iter().copied());
        }
        Mutation::Truncate(a) => data.truncate(at(*a)),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn damaged_inputs_never_panic_and_lost_lines_are_accounted_for(
        which in 0..SEEDS.len(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let mut data = seed(which);
        for m in &mutations {
            apply(&mut data, m);
        }
        if let Ok(rec) = read_all(&data[..]) {
            // Every non-blank line after the header is an event or an issue (a lone `{`
            // opens an object spread over the lines up to its `}`, as `jq .` writes them).
            let mut lines = 0;
            let mut spread = false;
            for l in data.split(|&b| b == b'\n').skip(1) {
                let t = l.trim_ascii();
                if spread {
                    spread = t != b"}";
                } else if t == b"{" {
                    lines += 1;
                    spread = true;
                } else if !t.is_empty() {
                    lines += 1;
                }
            }
            if !data.split(|&b| b == b'\n').any(|l| l.trim_ascii() == b"{") {
                prop_assert_eq!(rec.events.len() + rec.issues.len(), lines);
            } else {
                // A spread object that never closes properly ends at its first bad line: no
                // line is counted twice, whatever the layout.
                let non_blank = data
                    .split(|&b| b == b'\n')
                    .skip(1)
                    .filter(|l| !l.trim_ascii().is_empty())
                    .count();
                prop_assert!(rec.events.len() + rec.issues.len() <= non_blank);
            }
            prop_assert_eq!(judge(rec.events.iter()), Vec::<u64>::new());
        }
        for f in LogFormat::ALL {
            if let Ok(imp) = import(&data, Some(*f)) {
                let events = imp.sessions.iter().flat_map(|s| &s.events);
                prop_assert_eq!(judge(events), Vec::<u64>::new());
            }
        }
        if let Ok(s) = stream(&data, None) {
            let events: Vec<Event> = s.collect();
            prop_assert_eq!(judge(events.iter()), Vec::<u64>::new());
        }
    }
}
