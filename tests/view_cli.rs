//! `kibitzer view` from the outside: what it says when it cannot draw.

mod common;

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
