// mimalloc, not the system allocator: decoding a log allocates and frees a few strings per
// line on two threads, and glibc's malloc spent ~11% of `check`'s time on a big log there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_arena_reserve` in mimalloc's `mi_option_e` (the crate names no constant for
/// it).
const MI_OPTION_ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;

/// Runs before `main`, and so before Rust's runtime sets SIGPIPE to SIG_IGN: the disposition
/// the process was started with is what `record` gives the engine back.
extern "C" fn note_inherited_signals() {
    kibitzer::note_inherited_sigpipe();
}

// SAFETY: `.init_array` holds plain `extern "C" fn()` pointers that the loader calls once,
// before `main`, on the only thread; the function only reads a signal disposition.
#[allow(unsafe_code)]
#[used]
#[unsafe(link_section = ".init_array")]
static NOTE_INHERITED_SIGNALS: extern "C" fn() = note_inherited_signals;

#[allow(unsafe_code)]
fn main() {
    // Address space is reserved 64 MiB at a time, not mimalloc's 1 GiB: under a `ulimit -v` a
    // second thread's first big allocation failed (and aborted) where the system allocator's
    // would not have. The value is in KiB.
    //
    // Freed memory is purged after mimalloc's delay, not at once: purging at once made
    // `check` on a big log fault its pages in four times over, and the viewer's indexing
    // spend a tenth more CPU. The viewer collects what indexing freed once it is done.
    //
    // SAFETY: mi_option_set only stores the value; it is called before any other thread
    // exists, so its "not thread safe" caveat cannot apply.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_RESERVE, 64 << 10);
    }
    std::process::exit(kibitzer::cli::main());
}
