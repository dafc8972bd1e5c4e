//! A line is bounded in every reader: a recording line past 64 MiB or a log line past 16 MiB
//! is reported with its line number and skipped, streaming, instead of being read into memory
//! several times over (a 300 MB line made `dump` and `check` abort on allocation).

use crate::common::kibitzer;
use std::io::Write;

/// Runs `kibitzer ARGS` under a 400 MB address-space limit.
fn limited(args: &str) -> std::process::Output {
    let bin = env!("CARGO_BIN_EXE_kibitzer");
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v 400000; exec {bin} {args}"))
        .output()
        .unwrap()
}

#[test]
fn a_300_mb_recording_line_is_skipped_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(
        f,
        r#"{{"kibitzer":"recording","version":1,"tool":"t","started":"2026-11-25T00:00:00Z"}}"#
    )
    .unwrap();
    writeln!(f, r#"{{"seq":1,"t":1,"src":"gui","text":"uci"}}"#).unwrap();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..300 {
        f.write_all(&chunk).unwrap();
    }
    writeln!(f).unwrap();
    writeln!(f, r#"{{"seq":2,"t":2,"src":"engine","text":"uciok"}}"#).unwrap();
    drop(f);
    let p = path.to_str().unwrap();
    for cmd in ["dump", "check", "decode"] {
        let out = limited(&format!("{cmd} {p}"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {err}");
        assert!(
            err.contains(":3: malformed event: a line of 314572801 bytes"),
            "{cmd}: {err}"
        );
    }
    // The lines after it are read.
    let out = limited(&format!("dump {p}"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("<- uciok"));
    // The viewer's reader: the line is listed as unreadable, where `check` names it, and
    // the events around it are rows.
    let doc = kibitzer::tui::load::read_file(
        &path,
        None,
        None,
        kibitzer::rules::Profile::default_profile(),
    )
    .unwrap();
    assert_eq!(doc.rows.len(), 2, "{:?}", doc.skipped);
    assert_eq!(doc.skipped.len(), 1);
    assert_eq!(doc.skipped[0].0, 3);
    assert!(
        doc.skipped[0].1.contains("a line of 314572801 bytes"),
        "{:?}",
        doc.skipped
    );
    assert!(doc.kept_bytes() < 1 << 20, "{}", doc.kept_bytes());
}

#[test]
fn a_log_line_past_16_mib_is_unclassified_and_the_rest_parsed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("xboard.debug");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    f.write_all(b"1 >first : xboard\n2 >first : protover 2\n3 <first : feature myname=\"")
        .unwrap();
    let chunk = vec![b'y'; 1 << 20];
    for _ in 0..20 {
        f.write_all(&chunk).unwrap();
    }
    f.write_all(b"\"\n4 <first : feature done=1\n5 >first : new\n")
        .unwrap();
    drop(f);
    let out = kibitzer().arg("dump").arg(&path).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(":3: unclassified line (a line longer than 16 MiB"),
        "{err}"
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("<- feature done=1") && text.contains("-> new"),
        "{text}"
    );
    // check and decode say the line is lost, with file and line, and exit 2; the rest is
    // still judged.
    for cmd in ["check", "decode"] {
        let out = kibitzer().arg(cmd).arg(&path).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let said = String::from_utf8_lossy(&out.stdout) + err.clone();
        assert_eq!(out.status.code(), Some(2), "{cmd}: {err}");
        assert!(
            said.contains(":3: a line longer than 16 MiB") || said.contains("skipped (line 3)"),
            "{cmd}: {said}"
        );
    }
    // Near miss: a long line under the bound is kept whole.
    let small = dir.path().join("small.debug");
    let long_name = "z".repeat(100_000);
    std::fs::write(
        &small,
        format!(
            "1 >first : xboard\n2 >first : protover 2\n3 <first : feature myname=\"{long_name}\" done=1\n"
        ),
    )
    .unwrap();
    let out = kibitzer().arg("dump").arg(&small).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains(&long_name));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("longer than"));
    let out = kibitzer().arg("check").arg(&small).output().unwrap();
    assert_ne!(out.status.code(), Some(2), "{out:?}");
}
