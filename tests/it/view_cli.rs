//! `kibitzer view` from the outside: what it says when it cannot draw.

use crate::common;

#[test]
fn refuses_politely_when_stdout_is_not_a_terminal() {
    let out = common::kibitzer()
        .args(["view", "recordings/stockfish-uci-game.jsonl"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("not") && err.contains("terminal") && err.contains("kibitzer decode"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing is drawn into the pipe");
}

#[test]
fn bad_usage_exits_2_before_drawing() {
    for args in [
        vec![
            "view",
            "recordings/stockfish-uci-game.jsonl",
            "--gap",
            "soon",
        ],
        vec![
            "view",
            "recordings/stockfish-uci-game.jsonl",
            "--profile",
            "arena",
        ],
    ] {
        let out = common::kibitzer().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_bad_config_or_theme_names_the_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("view.toml");
    std::fs::write(&cfg, "theme = \"light\"\n\n[keys]\nnext_error = \"ee\"\n").unwrap();
    let theme = dir.path().join("mine.toml");
    std::fs::write(&theme, "[colors]\ngui = \"blurple\"\n").unwrap();
    let cases = [
        (
            vec!["--config".as_ref(), cfg.as_os_str()],
            format!("{}:4:14: `ee` is no key", cfg.display()),
        ),
        (
            vec!["--theme".as_ref(), theme.as_os_str()],
            format!("{}:2:7: `blurple` is no colour", theme.display()),
        ),
        (
            vec!["--theme".as_ref(), "neon".as_ref()],
            "unknown theme `neon`".to_owned(),
        ),
    ];
    for (args, want) in cases {
        // The config is read before the terminal is checked: the error shows in a pipe too.
        let out = common::kibitzer()
            .arg("view")
            .args(&args)
            .arg("recordings/stockfish-uci-game.jsonl")
            .env("XDG_CONFIG_HOME", dir.path())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&want), "want {want:?} in {err}");
    }
}
