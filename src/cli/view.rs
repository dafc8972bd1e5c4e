//! `kibitzer view FILE`: the terminal viewer over a recording or any log `check` reads.

use crate::input::Input;
use crate::tui::{self, App, Doc, Options};
use anyhow::{Context, Result, bail};
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Browse a recording or log: the traffic with its findings, the board and the engine's
/// search at every line, the hang verdict. `?` in the viewer lists the keys.
#[derive(Args)]
pub struct ViewArgs {
    /// Recording or log (`-` for standard input)
    file: PathBuf,
    /// `+LINE`: open at this line of the input (as `kibitzer report` and `check` name it)
    #[arg(value_name = "+LINE", value_parser = start_line)]
    line: Option<u64>,
    /// Read the input as this format instead of detecting it: recording, or an importer name
    #[arg(long, value_name = "NAME")]
    input_format: Option<String>,
    /// The findings shown are `check`'s, judged and filtered the same way
    #[command(flatten)]
    judge: super::judging::JudgeFlags,
    /// Watch a file that is still being written: a recording, or a GUI's or runner's log
    /// (waits for it to appear; a truncated or replaced file is read again)
    #[arg(long)]
    follow: bool,
    /// Silence gaps (keys s/S) are pauses longer than this: 500ms, 2s... (default 1s)
    #[arg(long, value_name = "DURATION")]
    gap: Option<String>,
    /// Letters instead of Unicode chess pieces and discs
    #[arg(long)]
    ascii: bool,
    /// Colour theme: dark (default), light, high-contrast, or a path to a theme file
    #[arg(long, value_name = "NAME|PATH")]
    theme: Option<String>,
    /// Config file (theme, keys) instead of $XDG_CONFIG_HOME/kibitzer/view.toml
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

pub fn run(a: ViewArgs) -> Result<i32> {
    let judging = a.judge.judging()?;
    let protocol = judging.options.protocol;
    let gap_flag = match a.gap.as_deref() {
        Some(g) => match tui::filter::duration_ns(g) {
            Some(ns) => Some(ns),
            None => bail!("--gap {g}: expected a duration such as 500ms or 2s"),
        },
        None => None,
    };
    let config = tui::config::load(a.config.as_deref())?;
    let theme = match a.theme.as_deref().or(config.theme.as_deref()) {
        Some(t) => tui::config::theme(t)?,
        None => tui::Theme::default(),
    };
    let gap_ns = gap_flag
        .or(config.gap_ns)
        .unwrap_or(Options::default().gap_ns);
    if !std::io::stdout().is_terminal() {
        bail!(
            "view draws on a terminal and standard output is not one; for a pipe or a file use \
             `kibitzer decode` or `kibitzer check`"
        );
    }
    if a.follow && a.file.as_os_str() == "-" {
        bail!("--follow reads a file that is being written, not standard input");
    }
    // Following: the file may not exist yet, and a log is read as it grows (not opened as a
    // whole); a recording there now is opened for its header (a `.c2w` profile in it).
    let input_format = crate::input::FormatChoice::from_name(a.input_format.as_deref())?;
    let follow_format = input_format.log();
    let input = if a.follow && !a.file.is_file() {
        None
    } else {
        Some(Input::open_with(&a.file, input_format)?)
    };
    let d = match &input {
        Some(input) if !a.follow => {
            let presets = tui::load::presets(input, protocol)?;
            let mut d = Doc::for_input(input, &judging.options, presets);
            if let Some((map, recording)) = tui::load::map_input(input) {
                d.use_map(map, recording);
            }
            d
        }
        Some(input) if input.recording_header().is_some() => {
            Doc::for_input(input, &judging.options, Vec::new())
        }
        _ => Doc::for_follow(&a.file, &judging.options),
    };
    let doc = Arc::new(Mutex::new(d));
    let app = App::new(
        config.keys,
        theme,
        Options {
            gap_ns,
            ascii: a.ascii || config.ascii == Some(true),
            follow: a.follow,
            start_line: a.line,
            history: tui::prompt::default_history_path(),
            osc52: config.osc52,
            mouse: config.mouse.unwrap_or(true),
            // https://no-color.org: set and not empty.
            no_color: std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty()),
        },
    );
    tui::term::block_signals()?;
    let (tx, rx) = std::sync::mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let reader = {
        let doc = doc.clone();
        let tx = tx.clone();
        let stop = stop.clone();
        let path = a.file.clone();
        let follow = a.follow;
        // Named for profiles and for scripts/view-race.py, which times indexing by it.
        std::thread::Builder::new()
            .name("kibitzer-index".into())
            .spawn(move || {
                let notify = || {
                    let _ = tx.send(tui::term::Wake::Doc);
                };
                // A bug in the reader must not take the screen with it: the viewer shows what
                // was read and says what happened.
                let read =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &input {
                        Some(input) if !follow => tui::load::load(input, &doc, &stop, &notify),
                        _ => tui::load::follow(&path, follow_format, &doc, &stop, &notify),
                    }));
                if let Err(p) = read {
                    let what = p
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| p.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    let mut d = tui::load::lock(&doc);
                    d.error = Some(format!("internal error while reading {}: {what}", d.file));
                    d.done = true;
                    drop(d);
                    notify();
                }
                // The input (and its temporary copy, for standard input and gzip) goes here.
                drop(input);
            })
            .context("cannot start the indexing thread")?
    };
    let status = tui::term::run(app, doc, tx, rx, stop);
    // Quit while reading: the reader stops at its next batch and removes its temporary copy.
    let _ = reader.join();
    status
}

/// `+500` (or `500`): a line number, from 1.
fn start_line(s: &str) -> Result<u64, String> {
    s.strip_prefix('+')
        .unwrap_or(s)
        .parse::<u64>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("`{s}` is not a line number: expected +LINE, e.g. +120"))
}
