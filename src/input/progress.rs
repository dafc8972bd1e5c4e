//! One progress style for every long command: a bar on standard error, drawn only when that
//! is a terminal (indicatif's terminal target), in the same shape whatever is counted.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// What a bar counts.
#[derive(Debug, Clone, Copy)]
pub enum Counting {
    /// Bytes of one input (`import`).
    Bytes,
    /// Inputs (`report` over many files).
    Inputs,
}

/// A bar of `len` units, its message in front.
pub fn bar(len: u64, counting: Counting, message: String) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let counts = match counting {
        Counting::Bytes => "{bytes}/{total_bytes} {binary_bytes_per_sec}",
        Counting::Inputs => "{pos}/{len} inputs, {per_sec}",
    };
    if let Ok(style) =
        ProgressStyle::with_template(&format!("{{msg}} [{{bar:40}}] {counts} eta {{eta}}"))
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(message);
    bar
}
