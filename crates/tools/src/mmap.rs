//! The one file-mapping module of utf8-tools (ARCHITECTURE.md allows exactly one): read-only
//! windows of a regular file, mapped with memmap2, so that a large file is searched without
//! copying it through `read` while memory stays bounded (each window is unmapped before
//! the next is mapped, and only its pages count in the resident set).
//!
//! All the `unsafe` of the crate is here. Two things make mapping a file unsafe:
//!
//! 1. **Another process may write to the file while it is mapped.** The bytes seen through
//!    the window may then change under the reader. The slices handed out are only ever read
//!    (never trusted for memory safety: every index into them is bounds-checked, and no
//!    `str` is made from them without validation), so changing bytes can change what is
//!    found, as they would between two `read` calls, but cannot cause undefined behaviour
//!    in the searcher beyond what the next point describes.
//! 2. **The file may shrink while it is mapped.** Touching a page past the new end raises
//!    SIGBUS. ripgrep accepts that its process dies from the signal; GNU grep reads and just
//!    sees a shorter file. We install a SIGBUS handler while a window exists: it writes
//!    `PROGRAM: PATH: file shrank while being searched` to stderr and ends the process with
//!    status 2 (trouble), using only async-signal-safe calls (`write`, `_exit`). A SIGBUS
//!    while no window exists gets the default action. The file size is checked again before
//!    each window is mapped, so only a shrink *during* the search of one window ends the
//!    process; the caller maps only regular files, and reads small files, pipes and stdin.
//!
//! Several threads may each map windows (`utf8-grep -r` and `utf8-count` on several
//! threads): a SIGBUS from a page fault is delivered to the thread that touched the page,
//! so the message and the count of mapped windows are kept per thread (in thread-locals
//! without destructors, initialized at compile time: reading them in the handler takes no
//! lock and allocates nothing).

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::AsFd;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Once, OnceLock};

use memmap2::{Advice, Mmap, MmapOptions};

/// The longest SIGBUS message kept (bytes); a longer one is cut.
const MSG_MAX: usize = 4096;

std::thread_local! {
    /// The message this thread's SIGBUS prints, stored byte by byte so that the handler
    /// reads it with atomic loads only (no lock, no allocation).
    static MSG: [AtomicU8; MSG_MAX] = const { [const { AtomicU8::new(0) }; MSG_MAX] };
    static MSG_LEN: AtomicUsize = const { AtomicUsize::new(0) };
    /// How many windows this thread has mapped (a SIGBUS on it then comes from one of
    /// them: nothing else in the process maps a file).
    static ACTIVE: AtomicUsize = const { AtomicUsize::new(0) };
}
/// A duplicate of stderr, opened before any window exists (the handler only writes to it).
static STDERR: OnceLock<File> = OnceLock::new();
static INSTALL: Once = Once::new();

/// Sets what the SIGBUS handler prints for a window this thread maps, e.g. `utf8-grep:
/// big.txt: file shrank while being searched`; call it before mapping windows of a file.
pub fn on_shrink_say(program: &str, path: &str) {
    let msg = format!("{program}: {path}: file shrank while being searched\n");
    let bytes = msg.as_bytes();
    let n = bytes.len().min(MSG_MAX);
    MSG.with(|msg| {
        for (slot, &b) in msg.iter().zip(&bytes[..n]) {
            slot.store(b, Ordering::Relaxed);
        }
    });
    MSG_LEN.with(|len| len.store(n, Ordering::Release));
}

fn sigbus() {
    if ACTIVE.with(|a| a.load(Ordering::Acquire)) == 0 {
        // Not ours: the default action (terminate with SIGBUS).
        let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGBUS);
        return;
    }
    let n = MSG_LEN.with(|len| len.load(Ordering::Acquire));
    let mut buf = [0u8; MSG_MAX];
    MSG.with(|msg| {
        for (b, slot) in buf.iter_mut().zip(&msg[..n]) {
            *b = slot.load(Ordering::Relaxed);
        }
    });
    if let Some(mut err) = STDERR.get() {
        // `&File` writes with one write(2) per call: async-signal-safe.
        let _ = err.write_all(&buf[..n]);
    }
    signal_hook::low_level::exit(2);
}

fn install() -> io::Result<()> {
    let mut result = Ok(());
    INSTALL.call_once(|| {
        if let Ok(fd) = io::stderr().as_fd().try_clone_to_owned() {
            let _ = STDERR.set(File::from(fd));
        }
        #[cfg(unix)]
        // SAFETY: sets SIGBUS back to its default action, so that signal-hook, taking it
        // over below, keeps no previous handler to call before ours. The previous one is
        // std's stack-overflow check, installed at startup: for a fault outside a guard page
        // it resets the signal to the default action and returns, so a second thread that
        // faults while the first prints its diagnostic would die of the default action
        // (`utf8-count --threads 2` on a file that shrinks). A stack overflow on Linux is a
        // SIGSEGV, whose handler stays.
        let _previous = unsafe { libc::signal(libc::SIGBUS, libc::SIG_DFL) };
        // SAFETY: `sigbus` is async-signal-safe: it does atomic loads and stores into a
        // stack buffer, write(2) on an already opened descriptor and _exit(2) (or, when no
        // window is mapped, restores the default action and raises the signal again, which
        // signal-hook documents as safe in a handler). It allocates nothing and takes no lock.
        result = unsafe { signal_hook::low_level::register(signal_hook::consts::SIGBUS, sigbus) }
            .map(|_| ());
    });
    result
}

/// A read-only mapping of `len` bytes of a file from `offset` (a multiple of the page size).
///
/// A window belongs to the thread that mapped it (it is not `Send`): the SIGBUS it may
/// raise is reported with that thread's message ([`on_shrink_say`]).
#[derive(Debug)]
pub struct Window {
    map: Mmap,
    /// Not `Send`: the count of windows it is in is its thread's.
    _thread: std::marker::PhantomData<*const ()>,
}

impl Window {
    /// Maps `file[offset..offset + len]`; `offset` must be a multiple of [`page_size`] and the
    /// range must lie within the file's current size.
    ///
    /// # Errors
    ///
    /// The mapping (or installing the SIGBUS handler) failed.
    pub fn new(file: &File, offset: u64, len: usize) -> io::Result<Window> {
        install()?;
        ACTIVE.with(|a| a.fetch_add(1, Ordering::AcqRel));
        // SAFETY: the mapping is read-only and private to this process; its two hazards are
        // the ones in the module docs: bytes changed by another writer are only read (every
        // use is bounds-checked, nothing is trusted for memory safety), and a shrink past a
        // touched page raises SIGBUS, which the handler installed above turns into a
        // diagnostic and exit status 2 while this thread's `ACTIVE` counts a window (it
        // does, from here until drop).
        let map = unsafe { MmapOptions::new().offset(offset).len(len).map(file) };
        let map = match map {
            Ok(m) => m,
            Err(e) => {
                ACTIVE.with(|a| a.fetch_sub(1, Ordering::AcqRel));
                return Err(e);
            }
        };
        // Faulted in as read (the kernel maps pages around each fault, read ahead on this
        // advice): pre-faulting the window with MAP_POPULATE measured 5-10% slower.
        let _ = map.advise(Advice::Sequential);
        Ok(Window {
            map,
            _thread: std::marker::PhantomData,
        })
    }

    /// The mapped bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        // The mapping itself is unmapped right after this, when `map` is dropped; nothing
        // touches it in between.
        ACTIVE.with(|a| a.fetch_sub(1, Ordering::AcqRel));
    }
}

/// Bytes mapped at a time.
pub const WINDOW: usize = 16 << 20;

/// Regular files at least this large are mapped by both tools; smaller ones are read.
pub const MAP_MIN: u64 = 4 << 20;

/// Reads `file[start..end]` through windows of [`WINDOW`] bytes, one mapped at a time,
/// handing `f` the bytes in order, at most `piece` at a time (a piece still in the cache
/// when `f` makes several passes over it). A file that shrank is read to its new end (its
/// size is taken again before each window); answers the number of bytes read.
///
/// # Errors
///
/// Mapping, or `f`, failed.
pub fn read_mapped(
    file: &File,
    start: u64,
    end: u64,
    piece: usize,
    mut f: impl FnMut(&[u8]) -> io::Result<()>,
) -> io::Result<u64> {
    let align = page_size() as u64;
    let mut pos = start;
    while pos < end {
        let end = end.min(file.metadata()?.len());
        if pos >= end {
            break;
        }
        let off = pos - pos % align;
        let len = usize::try_from(end - off).map_or(WINDOW, |l| l.min(WINDOW));
        let window = Window::new(file, off, len)?;
        let skip = (pos - off) as usize;
        for p in window.bytes()[skip..].chunks(piece) {
            f(p)?;
        }
        pos = off + len as u64;
    }
    Ok(pos.max(start) - start)
}

/// The size of a memory page (window offsets are multiples of it).
pub fn page_size() -> usize {
    // memmap2 aligns offsets internally; 64 KiB is a multiple of every page size Linux uses
    // on x86-64 and aarch64 (4 KiB, 16 KiB, 64 KiB), so it is a safe alignment everywhere.
    64 * 1024
}
