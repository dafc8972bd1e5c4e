use crate::export::{Context as ExportContext, ggf_session, pgn_session};
use crate::recording::{Event, Header, Source};
use crate::session::{Decoded, Decoder};
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;

/// Export the games of a recording or log: PGN for chess (engine evaluations as comments),
/// GGF for Othello (NBoard sessions).
#[derive(Args)]
pub struct ExportArgs {
    /// Recording or log file (`-` for standard input)
    file: PathBuf,
    /// Chess games as PGN (the default)
    #[arg(long, conflicts_with = "ggf")]
    pgn: bool,
    /// Othello games as GGF
    #[arg(long)]
    ggf: bool,
    /// Write to FILE instead of stdout
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Input format: auto (default), recording, or an importer name
    #[arg(long, value_name = "NAME")]
    format: Option<String>,
    /// Protocol of every session instead of detecting it: uci, xboard (cecp) or nboard
    #[arg(long, value_name = "PROTOCOL")]
    protocol: Option<String>,
}

pub fn run(a: ExportArgs) -> Result<i32> {
    let protocol = super::decode::protocol_arg(a.protocol.as_deref())?;
    let file = super::input::InputFile::open(&a.file)?;
    // Exporting needs the games (their moves carry the engine's evals), not the transcript,
    // the searches or the PV checks: a recording is streamed through a decoder that keeps
    // only the games.
    let decoder = |detected| {
        Decoder::new(protocol)
            .with_detected(detected)
            .retain_searches(false)
            .check_pv_moves(false)
    };
    let mut decoded = Decoded::default();
    let (header, sessions) = match super::input::open_recording(file.path(), a.format.as_deref())? {
        Some(mut reader) => {
            let header = reader.header().clone();
            let detected = super::input::recording_protocols(file.path(), &header, protocol)?;
            let mut d = decoder(detected);
            let mut ev = Event::line(0, 0, Source::Proxy, String::new());
            while let Some(item) = reader.read_into(&mut ev) {
                match item {
                    Ok(()) => d.push_into(&ev, &mut decoded),
                    Err(issue) => eprintln!("{}:{issue}", a.file.display()),
                }
            }
            (header, d.finish())
        }
        None => {
            let log = super::input::open_log(file.path(), a.format.as_deref())?;
            let mut d = decoder(log.protocols(protocol)?);
            let mut events = log.events()?;
            for ev in events.by_ref() {
                d.push_into(&ev, &mut decoded);
            }
            let header = Header::new(
                concat!("kibitzer ", env!("CARGO_PKG_VERSION")),
                events.started(),
            );
            (header, d.finish())
        }
    };
    let file_name = a
        .file
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut text = String::new();
    let mut skipped = 0;
    for s in &sessions {
        let ctx = ExportContext {
            event: match (&header.label, &s.label) {
                (_, Some(l)) => format!("{file_name} [{l}]"),
                (Some(l), None) => l.clone(),
                (None, None) => file_name.clone(),
            },
            site: header.host.clone().unwrap_or_default(),
            started: header.started.clone(),
        };
        let (t, n) = if a.ggf {
            ggf_session(s, &ctx)
        } else {
            pgn_session(s, &ctx)
        };
        if !t.is_empty() && !text.is_empty() && !a.ggf {
            text.push('\n');
        }
        text.push_str(&t);
        skipped += n;
    }
    if skipped > 0 {
        eprintln!("kibitzer: {skipped} game(s) skipped: their board could not be followed");
    }
    if text.is_empty() {
        eprintln!(
            "kibitzer: no {} games in {}",
            if a.ggf { "Othello" } else { "chess" },
            a.file.display()
        );
    }
    match &a.output {
        Some(path) => std::fs::write(path, &text)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
                _ => {}
            }
        }
    }
    Ok(0)
}
