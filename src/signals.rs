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
//!   proxy forwards them to the engine, `replay --as-engine` survives xboard's SIGINT);
//! - [`cleanup_then_default`]: an async-signal-safe cleanup, then the signal's default
//!   action, so the exit status still names the signal (input spools, half-written outputs);
//! - [`on_bus_error`]: a SIGBUS handler that may repair the fault (mapped logs that shrink);
//! - [`ignore`]: SIG_IGN (the proxy's guard process, which must outlive a Ctrl-C);
//! - [`block`] and [`wait`]: no handler at all; the viewer blocks the ending signals and
//!   waits for them on a thread, so the terminal is restored by the normal way out.

use nix::libc::{self, c_int};
use nix::sys::signal::{SigHandler, SigSet, Signal};
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

/// Runs `cleanup` when one of `sigs` arrives, then ends the process with the signal's
/// default action (so the exit status still says which signal ended it). A signal that is
/// ignored now (`nohup`, a background job) stays ignored. Registration errors are ignored:
/// the signal then keeps its default action, without the cleanup.
///
/// # Safety
///
/// `cleanup` runs in a signal handler, on whatever thread the signal interrupted: it may
/// only make async-signal-safe calls (no allocation, no locks, no buffered I/O).
#[allow(unsafe_code)]
pub unsafe fn cleanup_then_default(sigs: &[Signal], cleanup: fn()) {
    for &sig in sigs {
        if is_ignored(sig) {
            continue;
        }
        let n = sig as c_int;
        let action = move || {
            cleanup();
            // Restores the default action, unblocks the signal and raises it: sigaction,
            // sigprocmask and raise, all async-signal-safe. The process ends here.
            let _ = signal_hook::low_level::emulate_default_handler(n);
        };
        // SAFETY: the action makes only async-signal-safe calls: `cleanup` by this
        // function's contract, and emulate_default_handler (above).
        let _ = unsafe { signal_hook::low_level::register(n, action) };
    }
}

/// Calls `repair` with the faulting address in the SIGBUS handler. When it returns `false`
/// (the fault is not its to repair), SIGBUS gets its default action back, which re-running
/// the faulting instruction then triggers: the process dies of the SIGBUS as it would have
/// without the handler. Only the first call installs anything; a handler installed outside
/// this module (the Rust runtime's) is replaced, not chained. Failures are ignored: a fault
/// then ends the process as it would have anyway.
///
/// # Safety
///
/// `repair` runs in a signal handler, on the thread that faulted: it may only make
/// async-signal-safe calls.
#[allow(unsafe_code)]
pub unsafe fn on_bus_error(repair: fn(usize) -> bool) {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let action = move |info: &libc::siginfo_t| {
            // SAFETY: for SIGBUS the kernel puts the faulting address in si_addr.
            let addr = unsafe { info.si_addr() } as usize;
            if !repair(addr) {
                // SAFETY: signal() is async-signal-safe.
                unsafe {
                    libc::signal(libc::SIGBUS, libc::SIG_DFL);
                }
            }
        };
        // The Rust runtime installs a SIGBUS handler of its own at start (to report stack
        // overflows), and the registry would run it before `action`: for a fault outside a
        // guard page it gives SIGBUS its default action back, which would make the next
        // fault in a map fatal. It is replaced instead, as the sigaction() this replaced did.
        // SAFETY: SIG_DFL runs no handler code.
        unsafe {
            libc::signal(libc::SIGBUS, libc::SIG_DFL);
        }
        // SAFETY: the action reads the siginfo, calls `repair` (async-signal-safe by this
        // function's contract) and signal(). SIGBUS is not in signal-hook's FORBIDDEN list
        // (SIGKILL, SIGSTOP, SIGILL, SIGFPE, SIGSEGV), so the checked registration takes it;
        // signal-hook itself has no variant that passes the siginfo, hence its registry's.
        let _ = unsafe { signal_hook_registry::register_sigaction(libc::SIGBUS, action) };
    });
}

/// Sets `sigs` to be ignored (SIG_IGN, which children inherit too).
pub fn ignore(sigs: &[Signal]) {
    for &sig in sigs {
        // SAFETY: SIG_IGN runs no handler code.
        #[allow(unsafe_code)]
        unsafe {
            let _ = nix::sys::signal::signal(sig, SigHandler::SigIgn);
        }
    }
}

fn set(sigs: &[Signal]) -> SigSet {
    let mut s = SigSet::empty();
    for &sig in sigs {
        s.add(sig);
    }
    s
}

/// Blocks `sigs` in this thread and in every thread it starts from now on; they stay
/// pending until [`wait`] takes them.
pub fn block(sigs: &[Signal]) -> nix::Result<()> {
    set(sigs).thread_block()
}

/// Waits for one of `sigs` (blocked with [`block`] in every thread) and returns it.
pub fn wait(sigs: &[Signal]) -> nix::Result<Signal> {
    set(sigs).wait()
}

/// Is `sig` ignored (SIG_IGN) right now?
fn is_ignored(sig: Signal) -> bool {
    // SAFETY: with a null new action, sigaction only writes the current one into `old`.
    #[allow(unsafe_code)]
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(sig as c_int, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

/// SIGPIPE's disposition as the process was started with it: 0 not noted, 1 default, 2 ignored.
static INHERITED_SIGPIPE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Notes SIGPIPE's disposition before Rust's runtime sets it to SIG_IGN at start (the binary
/// calls this from a constructor that runs before `main`). `record` gives the engine back what
/// the GUI gave: an engine started bare by a GUI that ignores SIGPIPE inherits SIG_IGN and
/// gets EPIPE from a write to a closed pipe; one started by any other GUI dies of SIGPIPE.
pub fn note_inherited_sigpipe() {
    let noted = if is_ignored(Signal::SIGPIPE) { 2 } else { 1 };
    INHERITED_SIGPIPE.store(noted, std::sync::atomic::Ordering::Relaxed);
}

/// Puts SIGPIPE back as it was inherited (default when it was not noted), just before an
/// `exec` that must get what the process itself was given.
pub fn restore_inherited_sigpipe() {
    let handler = if INHERITED_SIGPIPE.load(std::sync::atomic::Ordering::Relaxed) == 2 {
        SigHandler::SigIgn
    } else {
        SigHandler::SigDfl
    };
    // SAFETY: SIG_IGN and SIG_DFL run no handler code.
    #[allow(unsafe_code)]
    unsafe {
        let _ = nix::sys::signal::signal(Signal::SIGPIPE, handler);
    }
}

/// Stops the whole process as Ctrl-Z does in a shell (SIGTSTP to itself); returns when the
/// shell continues it (`fg`).
pub fn stop_self() -> nix::Result<()> {
    nix::sys::signal::raise(Signal::SIGTSTP)
}
