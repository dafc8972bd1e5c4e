use crate::capture::output_path;
use crate::capture::proxy::{self, ProxyConfig};
use crate::capture::sampler::SamplerConfig;
use anyhow::Result;
use clap::Args;
use std::ffi::OsString;
use std::path::PathBuf;

/// Run ENGINE as a transparent proxy and record every line both ways.
///
/// Use `kibitzer record [OPTIONS] -- ENGINE [ARGS...]` as the engine command in your GUI, or
/// `kibitzer record --c2w PROFILE.c2w` to start the engine a Chess Academy profile names.
#[derive(Args)]
#[command(arg_required_else_help = true, after_long_help = GUARANTEES)]
pub struct RecordArgs {
    /// Write the recording to FILE, the command's product (replaced if it exists, as a new
    /// file: a reader of the old one keeps it whole; a directory means a new file in it).
    /// `--recording` is the same flag, the spelling every command that runs an engine shares.
    #[arg(short, long, value_name = "FILE", visible_alias = "recording")]
    output: Option<PathBuf>,
    /// Recordings directory for automatically named files [default: $KIBITZER_DIR, else
    /// $XDG_DATA_HOME/kibitzer/recordings, else ~/.local/share/kibitzer/recordings]
    #[arg(short, long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// A name for this session, stored in the header and used in the file name
    #[arg(short, long, value_name = "NAME")]
    label: Option<String>,
    /// Protocol hint stored in the header (uci, xboard, nboard); decoding detects it otherwise
    #[arg(short, long, value_enum, ignore_case = true, value_name = "PROTOCOL")]
    protocol: Option<super::judging::ProtocolArg>,
    /// Seconds an engine may keep running after the GUI closed its input before it gets
    /// SIGTERM (then SIGKILL 2 s later) [default: none, the engine is left alone as the bare
    /// engine would be]
    #[arg(long, value_name = "SECS", default_value = "none", hide_default_value = true, value_parser = parse_grace)]
    eof_grace: Grace,
    /// End the processes the engine left running when it exits (SIGTERM, then SIGKILL after
    /// 0.5 s); without it they are only named in the recording, and run on as they would
    /// after the bare engine
    #[arg(long)]
    kill_leftovers: bool,
    /// Microseconds each pump keeps polling, without sleeping, after it forwarded a chunk: an
    /// answer within that window reaches the GUI without the kernel waking the recorder, which
    /// keeps the round trip near the bare engine's (costs at most that much CPU per forwarded
    /// chunk; 0 sleeps at once)
    #[arg(long, value_name = "MICROSECONDS", default_value_t = 200, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    spin: u64,
    /// Do not sample the engine's processes from /proc (CPU, run-queue wait, thread states,
    /// memory); hang verdicts are then decided from the traffic alone
    #[arg(long)]
    no_samples: bool,
    /// Seconds the engine may stay silent with an answer owed before a capture is recorded
    /// (each thread's state, wait, system call and kernel stack; and --on-hang)
    #[arg(long, value_name = "SECS", default_value = "5", value_parser = parse_secs)]
    capture_after: std::time::Duration,
    /// A shell command run at each capture with the engine's pid in $KIBITZER_ENGINE_PID; its
    /// output goes into the recording (e.g. 'eu-stack -p $KIBITZER_ENGINE_PID'; a debugger
    /// pauses the engine while it reads the stacks; killed after 30 s)
    #[arg(long, value_name = "CMD", conflicts_with = "no_samples")]
    on_hang: Option<String>,
    /// At each capture, read every thread's user-space stack with eu-stack, or gdb when
    /// eu-stack is not installed (both stop the engine while they read: tens of milliseconds
    /// for eu-stack, longer for gdb)
    #[arg(long, conflicts_with = "no_samples")]
    stacks: bool,
    /// Start the engine this Chess Academy `.c2w` profile names (EnginePath + EngineSwitch, run
    /// in EnginePath) instead of ENGINE, and note the profile in the recording's header
    #[arg(long, value_name = "PROFILE", conflicts_with = "engine")]
    c2w: Option<PathBuf>,
    /// With --c2w: the directory standing for Chess Academy's own (cha.exe's), against which a
    /// relative EnginePath is resolved [default: the profile's directory]
    #[arg(long, value_name = "DIR", requires = "c2w")]
    c2w_home: Option<PathBuf>,
    /// With --c2w: start the engine even when the profile's EnginePath lies outside its home
    /// (absolute elsewhere, or climbing out with ..): the profile then names any program
    #[arg(long, requires = "c2w")]
    c2w_allow_outside: bool,
    /// Engine command and arguments, run without a shell; everything from the engine on (or
    /// after `--`) belongs to the engine
    #[arg(
        required_unless_present = "c2w",
        trailing_var_arg = true,
        value_name = "ENGINE"
    )]
    engine: Vec<OsString>,
}

/// Errors (a bad profile) come back before anything is started; the proxy's own exit status
/// otherwise.
pub fn run(mut a: RecordArgs) -> Result<i32> {
    let mut engine_dir = None;
    let mut note = None;
    if let Some(path) = &a.c2w {
        let loaded = super::c2w::load(path)?;
        let cmd = super::c2w::engine_command(&loaded, a.c2w_home.as_deref(), a.c2w_allow_outside)?;
        a.engine = cmd.argv;
        engine_dir = Some(cmd.dir);
        note = Some(loaded.note());
        // Chess Academy drives WinBoard engines only.
        a.protocol
            .get_or_insert(super::judging::ProtocolArg::Xboard);
    }
    let label = a.label.as_deref();
    let auto_name = || {
        output_path::file_name(
            chrono::Local::now(),
            a.engine.first().unwrap_or(&OsString::new()),
            std::process::id(),
            label,
        )
    };
    let named = a.output.as_ref().is_some_and(|p| !p.is_dir());
    let path = match &a.output {
        Some(p) if p.is_dir() => p.join(auto_name()),
        Some(p) => p.clone(),
        None => {
            let dir = output_path::recordings_dir(a.dir.as_deref(), |k| std::env::var_os(k));
            if let Err(e) = std::fs::create_dir_all(&dir) {
                crate::eprintln_safe!(
                    "kibitzer: warning: cannot create recordings directory {}: {e}",
                    dir.display()
                );
            }
            dir.join(auto_name())
        }
    };
    Ok(proxy::run(ProxyConfig {
        argv: a.engine,
        output: Some(path),
        output_named: named,
        label: a.label,
        protocol: a
            .protocol
            .map(|p| crate::protocol::Protocol::from(p).name().to_owned()),
        eof_grace: a.eof_grace.0,
        kill_leftovers: a.kill_leftovers,
        spin: std::time::Duration::from_micros(a.spin),
        sampler: (!a.no_samples).then_some(SamplerConfig {
            capture_after: a.capture_after,
            on_hang: match (a.on_hang, a.stacks) {
                (Some(cmd), true) => Some(format!("{STACKS}; {cmd}")),
                (None, true) => Some(STACKS.to_owned()),
                (cmd, false) => cmd,
            },
        }),
        engine_dir,
        c2w: note,
    }))
}

/// `record --help`: what a GUI sees, row by row (docs/proxy.md has the measurements).
const GUARANTEES: &str = "\
What the GUI sees (the process it started becomes the engine; a recorder forked off before
that holds the pipes):
  bytes        every byte both ways, unchanged and unbuffered (no wait for a newline)
  pid          the engine's own: signals (SIGINT, SIGQUIT, SIGUSR1, SIGWINCH, SIGSTOP/SIGCONT,
               SIGKILL ...), ps, a debugger, CPU time all reach or show the engine itself
  exit status  the engine's, at the moment it ends: a death by signal is that signal
  signals      ignored signals, the signal mask and the process group are the GUI's, as given
  engine EOF   the GUI sees the engine close its output at once, and its own writes fail once
               the engine closed its input, or 100 ms after it died (EPIPE, or SIGPIPE if it
               does not ignore it): never while waitpid says the engine runs
  GUI EOF      the engine sees EOF at once and is left alone (--eof-grace to end it)
  GUI gone     the engine's next write fails when the GUI closed its end or died
  children     what the engine started is left running and its output forwarded
               (--kill-leftovers to end it); the recording names each one
  latency      each line takes two more pipe hops; the recorder polls without sleeping for
               --spin microseconds after each forward, so an answer reaches the GUI without
               the kernel having to wake it: the round trip stays near the bare engine's
Differences that remain: the GUI's writes block after its pipe plus 4 KiB (one page) instead
of its pipe alone; the recorder uses up to --spin microseconds of CPU per forwarded chunk; a
GUI that is a child subreaper inherits the recorder for the moment between the engine's exit
and the recording's end.";

/// The hint is stored by its canonical name, so `cecp` and `WinBoard` read back as `xboard`;
/// a misspelt one is refused here rather than ignored when the recording is decoded.
#[derive(Debug, Clone, Copy)]
struct Grace(Option<std::time::Duration>);

/// `--stacks`: eu-stack where installed (it reads the stacks without loading debug info
/// for long), else gdb in batch mode, which detaches when done.
const STACKS: &str = "if command -v eu-stack >/dev/null 2>&1; then eu-stack -p \"$KIBITZER_ENGINE_PID\"; \
     else gdb -p \"$KIBITZER_ENGINE_PID\" -batch -nx -ex 'thread apply all bt' 2>&1; fi";

fn parse_secs(s: &str) -> Result<std::time::Duration, String> {
    s.parse::<f64>()
        .ok()
        .filter(|v| *v > 0.0)
        .and_then(|v| std::time::Duration::try_from_secs_f64(v).ok())
        .ok_or_else(|| format!("`{s}` is not a positive number of seconds"))
}

fn parse_grace(s: &str) -> Result<Grace, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(Grace(None));
    }
    // `try_from_secs_f64` refuses what `from_secs_f64` would panic on: negative, NaN,
    // infinite, and more seconds than a Duration holds.
    s.parse::<f64>()
        .ok()
        .and_then(|v| std::time::Duration::try_from_secs_f64(v).ok())
        .map(|d| Grace(Some(d)))
        .ok_or_else(|| format!("`{s}` is not a number of seconds or `none`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grace_takes_seconds_or_none_and_refuses_the_rest() {
        assert_eq!(
            parse_grace("2.5").map(|g| g.0),
            Ok(Some(std::time::Duration::from_millis(2500)))
        );
        assert_eq!(parse_grace("NONE").map(|g| g.0), Ok(None));
        for bad in ["-1", "NaN", "inf", "1e30", "five", ""] {
            assert!(parse_grace(bad).is_err(), "{bad}");
        }
    }
}
