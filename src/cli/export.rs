use crate::export::{Context as ExportContext, ggf_session, pgn_session};
use crate::input::ControlFlow;
use crate::input::{Item, ReadOutcome};
use crate::recording::Header;
use crate::rules::CheckOptions;
use crate::session::{Decoded, GameKind, Session};
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
    /// `pgn` or `ggf` (same as `--pgn` / `--ggf`); an importer name here is the earlier
    /// spelling of `--input-format`
    #[arg(long, value_name = "NAME")]
    format: Option<String>,
    /// Read the input as this format instead of detecting it: recording, or an importer name
    #[arg(long, value_name = "NAME")]
    input_format: Option<String>,
    #[command(flatten)]
    protocol: super::judging::ProtocolFlag,
}

pub fn run(a: ExportArgs) -> Result<i32> {
    if let Some(out) = &a.output {
        super::output::refuse_same_file(&a.file, out)?;
    }
    let (ggf, old_input) = match a.format.as_deref() {
        Some(f) if f.eq_ignore_ascii_case("pgn") => (false, None),
        Some(f) if f.eq_ignore_ascii_case("ggf") => (true, None),
        other => (a.ggf, other),
    };
    if ggf && a.pgn {
        anyhow::bail!("--pgn and --format ggf ask for different outputs");
    }
    let format = crate::input::input_format(a.input_format.as_deref(), old_input)?;
    let input = crate::input::Input::open_with(&a.file, format)?;
    let shown = input.shown().to_owned();
    let (sessions, outcome) = games_of(&a, &input, &shown)?;
    let header = match input.recording_header() {
        Some(h) => h.clone(),
        None => Header::new(
            concat!("kibitzer ", env!("CARGO_PKG_VERSION")),
            outcome.log_started.clone().unwrap_or_default(),
        ),
    };
    let broken = say_broken_games(&sessions, &shown);
    let file_name = a
        .file
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (text, skipped) = export_text(&sessions, &header, &file_name, ggf);
    if skipped > 0 {
        crate::eprintln_safe!(
            "kibitzer: {skipped} game(s) skipped: their board could not be followed"
        );
    }
    if text.is_empty() {
        crate::eprintln_safe!(
            "kibitzer: no {} games in {}",
            if ggf { "Othello" } else { "chess" },
            a.file.display()
        );
    }
    write_out(a.output.as_deref(), &text)?;
    if outcome.lost_lines() > 0 {
        crate::eprintln_safe!(
            "kibitzer: {shown}: {} unreadable line(s) skipped; the games may miss moves",
            outcome.lost_lines()
        );
    }
    Ok(outcome.status(if broken > 0 { 1 } else { 0 }))
}

/// The input's sessions with their games. Exporting needs the games (their moves carry the
/// engine's evals), not the transcript, the searches or the PV checks: the input is streamed
/// through a decoder that keeps only the games.
fn games_of(
    a: &ExportArgs,
    input: &crate::input::Input,
    shown: &str,
) -> Result<(Vec<Session>, ReadOutcome)> {
    // Decoded as `check` decodes it: a recording made under a `.c2w` profile sends positions
    // in the profile's own FEN command.
    let opts = CheckOptions {
        protocol: a.protocol.get(),
        pv_check: false,
        ..CheckOptions::new(crate::rules::Profile::default_profile())
    };
    let (opts, _) = opts.for_input(input.recording_header());
    let mut d = opts
        .decoder(input.protocols(opts.protocol)?)
        .retain_searches(false);
    let mut decoded = Decoded::default();
    let (outcome, _) = input.read(|item| {
        match item {
            Item::Event(ev, line) => {
                if let Some(l) = line {
                    d.set_input_line(l);
                }
                d.push_into(ev, &mut decoded)
            }
            Item::Skipped(s) => crate::eprintln_safe!("{shown}:{}: {}", s.line, s.reason),
        }
        Ok(ControlFlow::Continue(()))
    })?;
    Ok((d.finish(), outcome))
}

/// Games that could not be followed are exported up to where they broke, and said so.
/// Returns how many there are.
fn say_broken_games(sessions: &[Session], shown: &str) -> usize {
    let mut broken = 0;
    for s in sessions {
        for g in s.games.iter().filter(|g| !g.gaps.is_empty()) {
            broken += 1;
            let gap = &g.gaps[0];
            let place = gap
                .line
                .map_or_else(|| format!("event {}", gap.at.seq), |l| l.to_string());
            let more = match g.gaps.len() - 1 {
                0 => String::new(),
                n => format!(" ({n} more illegal move(s) after it)"),
            };
            crate::eprintln_safe!(
                "{shown}:{place}: error: move {} is illegal after {} plies ({}){more}; the game is exported up to there, without a result",
                gap.text,
                gap.after_ply,
                gap.reason
            );
        }
    }
    broken
}

/// The games as PGN or GGF, and how many were skipped.
fn export_text(
    sessions: &[Session],
    header: &Header,
    file_name: &str,
    ggf: bool,
) -> (String, usize) {
    let mut text = String::new();
    let mut skipped = 0;
    let chess_sessions = sessions
        .iter()
        .filter(|s| s.games.iter().any(|g| g.kind == GameKind::Chess))
        .count();
    if !ggf && chess_sessions > 1 {
        // Several engines in one log: a game they played against each other is one game.
        let (t, n) = pgn_paired(sessions, header, file_name);
        text = t;
        skipped = n;
    }
    for s in sessions.iter().filter(|_| ggf || chess_sessions <= 1) {
        let ctx = ExportContext {
            event: match (&header.label, &s.label) {
                (_, Some(l)) => format!("{file_name} [{l}]"),
                (Some(l), None) => l.clone(),
                (None, None) => file_name.to_owned(),
            },
            site: header.host.clone().unwrap_or_default(),
            started: header.started.clone(),
        };
        let (t, n) = if ggf {
            ggf_session(s, &ctx)
        } else {
            pgn_session(s, &ctx)
        };
        if !t.is_empty() && !text.is_empty() && !ggf {
            text.push('\n');
        }
        text.push_str(&t);
        skipped += n;
    }
    (text, skipped)
}

/// Writes the text to the output file, or to standard output (a closed pipe is no error).
fn write_out(output: Option<&std::path::Path>, text: &str) -> Result<()> {
    use std::io::Write;
    match output {
        Some(path) => {
            let mut f = super::output::AtomicFile::create(path)?;
            f.write_all(crate::untrusted::guard(text).as_bytes())
                .with_context(|| format!("cannot write {}", path.display()))?;
            f.commit()?;
        }
        None => {
            let mut out = std::io::stdout().lock();
            match crate::untrusted::write_guarded(&mut out, text, false).and_then(|()| out.flush())
            {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => return Err(e.into()),
                _ => {}
            }
        }
    }
    Ok(())
}

/// The PGN of a log with several engines, engine-vs-engine games paired
/// ([`crate::export::paired_games`]).
fn pgn_paired(
    sessions: &[crate::session::Session],
    header: &Header,
    file_name: &str,
) -> (String, usize) {
    let mut text = String::new();
    let mut skipped = 0;
    let mut round = 0;
    for e in crate::export::paired_games(sessions)
        .iter()
        .filter(|e| e.game.kind == GameKind::Chess)
        .filter(|e| !e.game.plies.is_empty() || e.game.outcome.is_some())
    {
        round += 1;
        let labels: Vec<&str> = e.sessions.iter().flatten().map(String::as_str).collect();
        let ctx = ExportContext {
            event: if labels.is_empty() {
                file_name.to_owned()
            } else {
                format!("{file_name} [{}]", labels.join(" vs "))
            },
            site: header.host.clone().unwrap_or_default(),
            started: header.started.clone(),
        };
        match crate::export::pgn_exported(e, round, &ctx) {
            Some(t) => {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&t);
            }
            None => skipped += 1,
        }
    }
    (text, skipped)
}
