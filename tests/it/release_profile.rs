//! Release builds get the recorded optimization profile through Cargo's rustc wrapper
//! (`.cargo/config.toml` -> `scripts/pgo-rustc`): for the kibitzer crate's optimized builds
//! only, and never in a way that can break a build. The wrapper runs here in front of a stand-in
//! compiler that prints the arguments it got, and says which LLVM it has when asked.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A stand-in for rustc: `-vV` answers with LLVM `llvm`; anything else prints its arguments.
fn fake_rustc(dir: &Path, llvm: &str) -> PathBuf {
    let path = dir.join(format!("rustc-llvm{llvm}"));
    let script = format!(
        "#!/usr/bin/env bash\nif [ \"$1\" = -vV ]; then echo 'LLVM version: {llvm}.1.2'; exit 0; fi\n\
         printf '%s\\n' \"$@\"\n"
    );
    // Written here, installed as an executable by another process: a file this test process
    // held open for writing could be inherited by a child another test is starting, and
    // executing it would then fail with "text file busy".
    let text = dir.join(format!("rustc-llvm{llvm}.txt"));
    std::fs::write(&text, script).unwrap();
    let installed = Command::new("install")
        .args(["-m", "755"])
        .arg(&text)
        .arg(&path)
        .status()
        .unwrap();
    assert!(installed.success());
    path
}

/// The arguments the compiler was started with, through the wrapper.
fn through_wrapper(rustc: &Path, args: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let out = Command::new("bash")
        .arg(repo().join("scripts/pgo-rustc"))
        .arg(rustc)
        .args(args)
        .env_remove("KIBITZER_PGO")
        .envs(env.iter().copied())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn profile_arg() -> String {
    format!(
        "-Cprofile-use={}",
        repo().join("pgo/kibitzer.profdata").display()
    )
}

const RELEASE_KIBITZER: &[&str] = &[
    "--crate-name",
    "kibitzer",
    "-C",
    "opt-level=3",
    "src/lib.rs",
];

#[test]
fn the_profile_is_shipped_and_cargo_uses_the_wrapper() {
    let profile = repo().join("pgo/kibitzer.profdata");
    let size = std::fs::metadata(&profile).map(|m| m.len()).unwrap_or(0);
    assert!(size > 100_000, "{} is missing or empty", profile.display());
    let config = std::fs::read_to_string(repo().join(".cargo/config.toml")).unwrap();
    assert!(
        config.contains("rustc-wrapper = \"scripts/pgo-rustc\""),
        "{config}"
    );
    let major = std::fs::read_to_string(repo().join("pgo/llvm-major")).unwrap();
    assert!(
        major.trim().parse::<u32>().is_ok(),
        "pgo/llvm-major: {major:?}"
    );
}

#[test]
fn an_optimized_build_of_kibitzer_gets_the_profile() {
    let dir = tempfile::tempdir().unwrap();
    let want = std::fs::read_to_string(repo().join("pgo/llvm-major")).unwrap();
    let rustc = fake_rustc(dir.path(), want.trim());
    let args = through_wrapper(&rustc, RELEASE_KIBITZER, &[]);
    assert!(args.contains(&profile_arg()), "{args:?}");
    // The arguments cargo gave come first, unchanged and in order.
    assert_eq!(&args[..RELEASE_KIBITZER.len()], RELEASE_KIBITZER);
    // A checkout whose path happens to hold the flag's name is still an ordinary build.
    let odd_path = [
        "--crate-name",
        "kibitzer",
        "-C",
        "opt-level=3",
        "/home/profile-users/kibitzer/src/lib.rs",
    ];
    assert!(through_wrapper(&rustc, &odd_path, &[]).contains(&profile_arg()));
}

#[test]
fn every_other_build_runs_as_given() {
    let dir = tempfile::tempdir().unwrap();
    let want = std::fs::read_to_string(repo().join("pgo/llvm-major")).unwrap();
    let rustc = fake_rustc(dir.path(), want.trim());
    let as_given = |args: &[&str], env: &[(&str, &str)]| {
        let got = through_wrapper(&rustc, args, env);
        assert_eq!(got, args, "{args:?} {env:?}");
    };
    // A dependency, a debug or test build, a build recording a profile, and one switched off.
    as_given(&["--crate-name", "memchr", "-C", "opt-level=3"], &[]);
    as_given(&["--crate-name", "kibitzer", "-C", "opt-level=0"], &[]);
    as_given(&["--crate-name", "kibitzer", "--test", "src/lib.rs"], &[]);
    as_given(
        &[
            "--crate-name",
            "kibitzer",
            "-C",
            "opt-level=3",
            "-Cprofile-generate=/tmp/x",
        ],
        &[],
    );
    as_given(
        &[
            "--crate-name",
            "kibitzer",
            "-C",
            "opt-level=3",
            "-C",
            "profile-use=/tmp/own.profdata",
        ],
        &[],
    );
    as_given(RELEASE_KIBITZER, &[("KIBITZER_PGO", "0")]);
}

#[test]
fn an_llvm_older_than_the_profile_builds_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let want: u32 = std::fs::read_to_string(repo().join("pgo/llvm-major"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let older = fake_rustc(dir.path(), &(want - 1).to_string());
    assert_eq!(
        through_wrapper(&older, RELEASE_KIBITZER, &[]),
        RELEASE_KIBITZER
    );
    // A newer one reads it.
    let newer = fake_rustc(dir.path(), &(want + 1).to_string());
    assert!(through_wrapper(&newer, RELEASE_KIBITZER, &[]).contains(&profile_arg()));
}
