//! Issue 13, point 4: a guard over every shipped real log. A log must not come apart into a
//! session per line, must not hold more engine sessions than engines, and must leave (almost)
//! no protocol line unclassified; a forced wrong format says so; gzip is read directly.

use crate::common;

use common::{kibitzer, run_ok};
use kibitzer::import::import;
use std::path::{Path, PathBuf};

fn logs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    for dir in ["corpus", "logs"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "log") {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(out.len() >= 30, "the corpus went missing: {out:?}");
    out
}

/// How many engine processes each log really holds, read from the logs themselves (engine
/// restarts count: xboard's `first#2` is a second process).
fn engines_in(name: &str) -> usize {
    match name {
        "arena__astra-4__4.log"
        | "banksia__banksia-6__1.log"
        | "cutechess-cli__cutechess-464__1.log"
        | "cutechess-gui__cutechess-180__1.log"
        | "cutechess-gui__mess-36__1.log"
        | "xboard-debug__engine-source-comment__2.log"
        | "xboard-debug__nicholas-chessEngine-paste__1.log"
        | "fastchess__illegal-move-quoted.log"
        | "xboard-debug__fairymax-vs-polyglot-stockfish.log" => 2,
        // PolyGlot logs both legs: the GUI side of the adapter and the engine behind it.
        "polyglot__stockfish.log" => 2,
        // Only the runner's own lines: no engine traffic in it.
        "cutechess-cli-stdout__cutechess-767__1.log" => 0,
        _ => 1,
    }
}

const PROTOCOL_WORDS: [&str; 14] = [
    "uci",
    "isready",
    "readyok",
    "uciok",
    "bestmove",
    "position ",
    "go ",
    "info depth",
    "protover",
    "feature ",
    "usermove",
    "setoption",
    "ucinewgame",
    "nboard",
];

#[test]
fn every_real_log_imports_into_as_many_sessions_as_it_has_engines() {
    for path in logs() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(&path).unwrap();
        let imp = import(&data, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        let lines = data
            .split(|&b| b == b'\n')
            .filter(|l| !l.trim_ascii().is_empty())
            .count();
        let engines: Vec<&str> = imp
            .sessions
            .iter()
            .filter(|s| !s.label.starts_with('['))
            .map(|s| s.label.as_str())
            .collect();
        assert!(
            engines.len() <= engines_in(&name),
            "{name}: {} engine sessions, the log has {}: {engines:?}",
            engines.len(),
            engines_in(&name)
        );
        if lines >= 6 {
            assert!(
                imp.sessions.len() * 3 <= lines,
                "{name}: {} sessions for {lines} lines: a session per line?",
                imp.sessions.len()
            );
        }
        let protocol_looking = |t: &str| {
            let t = t.to_ascii_lowercase();
            PROTOCOL_WORDS.iter().any(|w| t.contains(w))
        };
        let lost = imp
            .unclassified
            .iter()
            .filter(|u| protocol_looking(&u.text))
            .count();
        let total = data
            .split(|&b| b == b'\n')
            .filter(|l| protocol_looking(&String::from_utf8_lossy(l)))
            .count();
        assert!(
            lost * 20 <= total.max(1),
            "{name}: {lost} of {total} protocol-looking lines unclassified: {:?}",
            imp.unclassified
        );
    }
}

#[test]
fn a_forced_wrong_format_that_classifies_nothing_says_so_and_fails() {
    let log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/corpus/fastchess__fastchess-443__1.log");
    for cmd in ["decode", "check", "export", "dump"] {
        for wrong in ["arena", "edax", "nboard"] {
            let mut c = kibitzer();
            c.args([cmd, "--input-format", wrong]).arg(&log);
            if cmd == "export" {
                c.arg("--pgn");
            }
            let out = c.output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{cmd} --input-format {wrong}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(
                err.contains(&format!("read as {wrong}, not one protocol line was found"))
                    && err.contains("it looks like fastchess"),
                "{cmd} {wrong}: {err}"
            );
        }
    }
    // The right format forced is fine, and so is a format without traffic of its own.
    run_ok(&[
        "check",
        "--input-format",
        "fastchess",
        log.to_str().unwrap(),
    ]);
    let stdout_log = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/corpus/cutechess-cli-stdout__cutechess-767__1.log");
    run_ok(&[
        "decode",
        "--input-format",
        "cutechess-cli-stdout",
        stdout_log.to_str().unwrap(),
    ]);
}

fn gzip(src: &Path, dst: &Path) {
    use std::io::Write;
    let mut enc = flate2::write::GzEncoder::new(
        std::fs::File::create(dst).unwrap(),
        flate2::Compression::default(),
    );
    enc.write_all(&std::fs::read(src).unwrap()).unwrap();
    enc.finish().unwrap();
}

#[test]
fn gzip_compressed_logs_and_recordings_read_as_the_plain_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    for (src, args) in [
        ("recordings/stockfish-uci-game.jsonl", &["decode"][..]),
        (
            "recordings/fairymax-cecp-game.jsonl",
            &["export", "--pgn"][..],
        ),
        (
            "tests/fixtures/corpus/fastchess__fastchess-443__1.log",
            &["check"][..],
        ),
        (
            "tests/fixtures/logs/xboard-debug__fairymax-vs-polyglot-stockfish.log",
            &["decode"][..],
        ),
    ] {
        let plain = root.join(src);
        // Named like a bug report's attachment, and once without the suffix: the bytes decide.
        for gz_name in ["attached.log.gz", "no-suffix"] {
            let gz = dir.path().join(gz_name);
            gzip(&plain, &gz);
            let run = |p: &Path| {
                let out = kibitzer().args(args).arg(p).output().unwrap();
                (
                    out.status.code(),
                    String::from_utf8_lossy(&out.stdout).into_owned(),
                )
            };
            let (want_code, want) = run(&plain);
            let (code, got) = run(&gz);
            assert_eq!(code, want_code, "{src} as {gz_name}");
            // Outputs name the input: compare with the names taken out.
            let strip = |s: &str, p: &Path| s.replace(&p.display().to_string(), "FILE");
            let strip_stem =
                |s: String, p: &Path| s.replace(&*p.file_name().unwrap().to_string_lossy(), "FILE");
            assert_eq!(
                strip_stem(strip(&got, &gz), &gz),
                strip_stem(strip(&want, &plain), &plain),
                "{src} as {gz_name}"
            );
        }
        // And on standard input.
        let gz = dir.path().join("stdin.gz");
        gzip(&plain, &gz);
        let out = kibitzer()
            .args(["dump", "-"])
            .stdin(std::fs::File::open(&gz).unwrap())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{src}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (want, _) = run_ok(&["dump", plain.to_str().unwrap()]);
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{src} on stdin");
    }
}
