//! Reading a memory-mapped log that shrinks underneath (a GUI rotating or truncating its log
//! while kibitzer reads it) makes the kernel send SIGBUS for every page past the new end, which
//! would kill the command. Logs stay mapped (they are read at memory speed and can be
//! gigabytes); a SIGBUS handler instead maps a page of zeros over the page that faulted, so the
//! read goes on, and records that it happened. Commands check [`MapGuard::shrunk`] after
//! reading and report the file as changed while read instead of printing what the zeros
//! decoded to as if it were the log.
//!
//! Only faults inside a registered map are handled; any other SIGBUS gets the default action.

use nix::libc;
use std::sync::Once;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

const SLOTS: usize = 8;

/// Start and length of each registered map; 0 length = free slot.
static STARTS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static LENS: [AtomicUsize; SLOTS] = [const { AtomicUsize::new(0) }; SLOTS];
static FAULTED: [AtomicBool; SLOTS] = [const { AtomicBool::new(false) }; SLOTS];
static PAGE: AtomicUsize = AtomicUsize::new(4096);
static INSTALL: Once = Once::new();

/// Registration of one map; unregisters when dropped (drop it before the map).
pub struct MapGuard {
    slot: Option<usize>,
}

impl MapGuard {
    pub fn new(map: &[u8]) -> MapGuard {
        INSTALL.call_once(install);
        if map.is_empty() {
            return MapGuard { slot: None };
        }
        for i in 0..SLOTS {
            if LENS[i]
                .compare_exchange(0, usize::MAX, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                FAULTED[i].store(false, Ordering::Release);
                STARTS[i].store(map.as_ptr() as usize, Ordering::Release);
                LENS[i].store(map.len(), Ordering::Release);
                return MapGuard { slot: Some(i) };
            }
        }
        MapGuard { slot: None }
    }

    /// Did a page of the map vanish (the file shrank) while it was read?
    pub fn shrunk(&self) -> bool {
        self.slot
            .is_some_and(|i| FAULTED[i].load(Ordering::Acquire))
    }
}

impl Drop for MapGuard {
    fn drop(&mut self) {
        if let Some(i) = self.slot {
            STARTS[i].store(0, Ordering::Release);
            LENS[i].store(0, Ordering::Release);
        }
    }
}

/// Maps a page of zeros over the faulting page when `addr` is inside a registered map, and
/// says whether it did; runs in the SIGBUS handler.
fn repair(addr: usize) -> bool {
    let page = PAGE.load(Ordering::Relaxed);
    for i in 0..SLOTS {
        let (start, len) = (
            STARTS[i].load(Ordering::Acquire),
            LENS[i].load(Ordering::Acquire),
        );
        if len == 0 || len == usize::MAX || addr < start || addr - start >= len {
            continue;
        }
        let at = addr & !(page - 1);
        // SAFETY: replaces one page inside a read-only file map this process owns with
        // anonymous zeros; mmap is async-signal-safe. The map's own munmap covers it later.
        #[allow(unsafe_code)]
        let p = unsafe {
            libc::mmap(
                at as *mut libc::c_void,
                page,
                libc::PROT_READ,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if p != libc::MAP_FAILED {
            FAULTED[i].store(true, Ordering::Release);
            return true;
        }
    }
    // Not ours: `crate::signals` gives SIGBUS its default action back, which re-running the
    // faulting instruction triggers.
    false
}

fn install() {
    // SAFETY: sysconf only reads a system constant.
    #[allow(unsafe_code)]
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if let Ok(p) = usize::try_from(page)
        && p.is_power_of_two()
    {
        PAGE.store(p, Ordering::Relaxed);
    }
    // SAFETY: repair only uses atomics and mmap, both async-signal-safe.
    #[allow(unsafe_code)]
    unsafe {
        crate::signals::on_bus_error(repair);
    }
}

/// Bytes of a map read past before they are given back (see [`release`]).
pub const RELEASE_EVERY: usize = 8 << 20;

/// Drops `map`'s pages in `from..to` from this process's resident memory (they stay in the
/// page cache, and come back on the next access): a pass over a 1 GB file would otherwise
/// keep all of it resident, counted in the process's RSS. Does nothing on an error.
pub fn release(map: &memmap2::Mmap, from: usize, to: usize) {
    let to = to.min(map.len());
    if to > from {
        // SAFETY: the maps given here are read-only maps of files (`Mmap::map`): MADV_DONTNEED
        // only unmaps their pages, which read back the same bytes from the file (or the zero
        // pages the guard put where the file shrank). Nothing is written, nothing is lost.
        #[allow(unsafe_code)]
        let _ = unsafe {
            map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, from, to - from)
        };
    }
}

/// A file mapped for one pass, with its guard: a log, and a big recording (read from its map
/// rather than copied through a buffer: the kernel's copy was a sixth of the reading thread's
/// time on a 1 GB recording); the pages read past are given back behind the reader.
pub struct MappedFile {
    /// Declared before the map: it must be unregistered before the map goes away.
    guard: MapGuard,
    map: memmap2::Mmap,
}

impl MappedFile {
    /// `None` when the file cannot be mapped (a pipe, a special file): read it otherwise.
    pub fn open(path: &std::path::Path) -> Option<MappedFile> {
        let f = std::fs::File::open(path).ok()?;
        if !f.metadata().ok()?.is_file() {
            return None;
        }
        MappedFile::map(&f).ok()
    }

    /// Maps `f` and registers the map with the guard.
    pub fn map(f: &std::fs::File) -> std::io::Result<MappedFile> {
        // SAFETY: the map is read-only. A file truncated while it is read would fault
        // (SIGBUS): the guard registered next maps zeros instead and says so (`shrunk`).
        #[allow(unsafe_code)]
        let map = unsafe { memmap2::Mmap::map(f) }?;
        let guard = MapGuard::new(&map);
        Ok(MappedFile { guard, map })
    }

    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// See [`release`].
    pub fn release(&self, from: usize, to: usize) {
        release(&self.map, from, to);
    }

    /// A page vanished (the file shrank) while it was read.
    pub fn shrunk(&self) -> bool {
        self.guard.shrunk()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_file_truncated_under_its_map_reads_as_zeros_and_says_so() {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        let body = vec![b'x'; 64 * 1024];
        f.write_all(&body).unwrap();
        f.flush().unwrap();
        #[allow(unsafe_code)]
        // SAFETY: the test truncates the file on purpose; the guard handles the fault.
        let map = unsafe { memmap2::Mmap::map(f.as_file()).unwrap() };
        let guard = MapGuard::new(&map);
        assert!(!guard.shrunk());
        f.as_file().set_len(100).unwrap();
        let xs = map.iter().filter(|&&b| b == b'x').count();
        assert!(guard.shrunk());
        // The first page still holds the file (the kernel zero-fills past the end inside it).
        assert!((100..=4096).contains(&xs), "{xs}");
        drop(guard);
    }
}
