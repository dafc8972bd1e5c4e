// mimalloc, not the system allocator: decoding a log allocates and frees a few strings per
// line on two threads, and glibc's malloc spent ~11% of `check`'s time on a big log there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` and `mi_option_arena_reserve` in mimalloc 2's `mi_option_e` (the
/// crate names no constant for them).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
const MI_OPTION_ARENA_RESERVE: libmimalloc_sys::mi_option_t = 23;

#[allow(unsafe_code)]
fn main() {
    // Address space is reserved 64 MiB at a time, not mimalloc's 1 GiB: under a `ulimit -v` a
    // second thread's first big allocation failed (and aborted) where the system allocator's
    // would not have. The value is in KiB.
    //
    // The viewer gives freed memory back to the system at once rather than after a delay: it
    // sits idle once a file is indexed, and a delayed purge waits for the next allocation,
    // leaving a quarter more memory resident than the index needs. Commands that run through
    // their input and exit keep the delay: purging at once made `check` on a big log fault
    // its pages in four times over.
    //
    // SAFETY: mi_option_set only stores the value; it is called before any other thread
    // exists, so its "not thread safe" caveat cannot apply.
    unsafe {
        libmimalloc_sys::mi_option_set(MI_OPTION_ARENA_RESERVE, 64 << 10);
        if std::env::args_os().nth(1).is_some_and(|c| c == "view") {
            libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0);
        }
    }
    std::process::exit(kibitzer::cli::main());
}
