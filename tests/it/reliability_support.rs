//! What the reliability tests share: running kibitzer on arguments alone, and the repository's
//! files.

use crate::common;

use common::*;
use std::path::{Path, PathBuf};
use std::process::Stdio;

pub(crate) fn repo(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

pub(crate) fn run(args: &[&str]) -> std::process::Output {
    kibitzer()
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run kibitzer")
}

pub(crate) fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
