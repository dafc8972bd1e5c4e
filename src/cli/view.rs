//! `kibitzer view FILE`: the terminal viewer over a recording or any log `check` reads.

use super::input::Input;
use crate::rules::Profile;
use crate::tui::{self, App, Doc, Options};
use anyhow::{Result, bail};
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
    /// Read the input as this format instead of detecting it: recording, or an importer name
    #[arg(long, value_name = "NAME")]
    input_format: Option<String>,
    /// Protocol of every session instead of detecting it: uci, xboard (cecp) or nboard
    #[arg(long, value_name = "PROTOCOL")]
    protocol: Option<String>,
    /// Deadlines of the GUI in use (as `check`): spec, xboard, cutechess, fastchess, python-chess
    #[arg(long, value_name = "NAME", default_value = "cutechess")]
    profile: String,
    /// Watch a recording that `kibitzer record` is still writing
    #[arg(long)]
    follow: bool,
    /// Silence gaps (keys s/S) are pauses longer than this: 500ms, 2s...
    #[arg(long, value_name = "DURATION", default_value = "1s")]
    gap: String,
    /// Letters instead of Unicode chess pieces and discs
    #[arg(long)]
    ascii: bool,
}

pub fn run(a: ViewArgs) -> Result<i32> {
    let protocol = super::decode::protocol_arg(a.protocol.as_deref())?;
    let Some(profile) = Profile::named(&a.profile) else {
        bail!(
            "unknown profile `{}`; known: {}",
            a.profile,
            Profile::NAMES.join(", ")
        );
    };
    let Some(gap_ns) = tui::filter::duration_ns(&a.gap) else {
        bail!("--gap {}: expected a duration such as 500ms or 2s", a.gap);
    };
    if !std::io::stdout().is_terminal() {
        bail!(
            "view draws on a terminal and standard output is not one; for a pipe or a file use \
             `kibitzer decode` or `kibitzer check`"
        );
    }
    if a.follow && a.file.as_os_str() == "-" {
        bail!("--follow reads a file that is being written, not standard input");
    }
    let input = Input::open(&a.file, a.input_format.as_deref())?;
    if a.follow && input.recording_header().is_none() {
        bail!(
            "--follow reads kibitzer recordings; {} is a {} log",
            input.shown(),
            input.format_name()
        );
    }
    let presets = if a.follow {
        Vec::new()
    } else {
        input.protocols(protocol)?
    };
    let decoder = Doc::decoder(protocol, presets);
    let doc = Arc::new(Mutex::new(Doc::new(
        input.shown(),
        input.format_name(),
        decoder,
        profile,
    )));
    if let Some(log) = input.log() {
        tui::load::lock(&doc).progress = Some((0, log.size() as u64));
    }
    let app = App::new(
        tui::KeyMap::default(),
        tui::Theme::default(),
        Options {
            gap_ns,
            ascii: a.ascii,
            follow: a.follow,
        },
    );
    tui::term::block_signals()?;
    let (tx, rx) = std::sync::mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    {
        let doc = doc.clone();
        let tx = tx.clone();
        let stop = stop.clone();
        let path = a.file.clone();
        let follow = a.follow;
        std::thread::spawn(move || {
            let notify = || {
                let _ = tx.send(tui::term::Wake::Doc);
            };
            if follow {
                tui::load::follow(&path, &doc, &stop, &notify);
            } else {
                tui::load::load(&input, &doc, &notify);
            }
        });
    }
    tui::term::run(app, doc, tx, rx, stop)
}
