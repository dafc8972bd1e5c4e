//! Files a command must not leave behind, even when it is interrupted: the temporary copy of
//! standard input and the half-written output that has not been renamed into place yet.
//!
//! A signal handler can only use async-signal-safe calls, so the paths live in fixed slots as
//! NUL-terminated C strings made when they are registered, and the handler only `unlink`s them;
//! `crate::signals` then re-raises the signal with its default action (so the exit status
//! still says which signal ended the command). A signal the command was started with ignored
//! (nohup, background jobs) stays ignored.

use nix::libc;
use std::ffi::CString;
use std::path::Path;
use std::sync::Once;
use std::sync::atomic::{AtomicPtr, Ordering};

const SLOTS: usize = 16;

static PATHS: [AtomicPtr<libc::c_char>; SLOTS] =
    [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];
static INSTALL: Once = Once::new();

/// Removes `path` if the command is killed by SIGINT, SIGTERM or SIGHUP before the guard is
/// dropped; the guard itself does not remove the file (its owner decides).
pub struct Registered {
    slot: Option<usize>,
}

impl Registered {
    pub fn new(path: &Path) -> Registered {
        INSTALL.call_once(install);
        let Ok(c) = CString::new(path.as_os_str().as_encoded_bytes()) else {
            return Registered { slot: None };
        };
        let raw = c.into_raw();
        for (i, slot) in PATHS.iter().enumerate() {
            if slot
                .compare_exchange(
                    std::ptr::null_mut(),
                    raw,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                )
                .is_ok()
            {
                return Registered { slot: Some(i) };
            }
        }
        // More than SLOTS files at once never happens; the file is then only removed on a
        // normal exit. The string is leaked like every registered one (see Drop).
        Registered { slot: None }
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(i) = self.slot {
            // The string is leaked on purpose: a handler running on another thread may be
            // reading it right now, and a few bytes per temporary file cost nothing.
            PATHS[i].store(std::ptr::null_mut(), Ordering::Release);
        }
    }
}

/// Removes every registered file; runs in the signal handler.
fn unlink_all() {
    for slot in &PATHS {
        let p = slot.load(Ordering::Acquire);
        if !p.is_null() {
            // SAFETY: `p` came from CString::into_raw and is never freed; unlink is
            // async-signal-safe.
            #[allow(unsafe_code)]
            unsafe {
                libc::unlink(p);
            }
        }
    }
}

fn install() {
    // SAFETY: unlink_all only loads atomics and calls unlink, both async-signal-safe.
    #[allow(unsafe_code)]
    unsafe {
        crate::signals::cleanup_then_default(&crate::signals::TERMINATING, unlink_all);
    }
}
