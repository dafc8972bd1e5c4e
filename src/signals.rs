//! The one place that decides what a signal does to kibitzer.
//!
//! Handlers installed side by side with `signal()`/`sigaction()` overwrite each other, and
//! which one wins depends on which command path ran first. Every handler here is an action
//! in `signal-hook`'s registry instead (the registry crossterm already uses for SIGWINCH):
//! one process-wide handler per signal that runs every registered action, so the proxy's
//! forwarding, the temporary-file cleanup and the SIGBUS repair of a shrinking map coexist.
//!
//! What callers get, each the smallest thing its caller needs:
//! - [`on_thread`]: a signal no longer ends the process; a thread hears of each one (the
//!   proxy forwards them to the engine, `replay --as-engine` survives xboard's SIGINT).

use nix::libc::c_int;
use nix::sys::signal::Signal;
use std::io;

/// The signals that end a command: Ctrl-C, `kill`, the terminal going away.
pub const TERMINATING: [Signal; 3] = [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP];

/// Catches `sigs` from now on (they no longer have their default action, even when the
/// process was started with them ignored) and calls `each` with every one that arrives, on
/// a thread of its own: not in a signal handler, so it may do anything. The handlers are in
/// place when this returns. Deliveries of one signal that arrive before `each` runs may be
/// merged into one call.
pub fn on_thread(sigs: &[Signal], mut each: impl FnMut(Signal) + Send + 'static) -> io::Result<()> {
    let mut caught = signal_hook::iterator::Signals::new(sigs.iter().map(|&s| s as c_int))?;
    std::thread::Builder::new()
        .name("signals".to_owned())
        .spawn(move || {
            for n in caught.forever() {
                if let Ok(sig) = Signal::try_from(n) {
                    each(sig);
                }
            }
        })?;
    Ok(())
}
