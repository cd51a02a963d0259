//! Fresh output buffers of several MiB, backed by transparent huge pages where Linux offers
//! them: the codec's one call into the operating system.
//!
//! A `String` of tens of MiB that is written once costs more in page faults than in the
//! copying: one fault per 4 KiB page, each zeroing the page; after
//! `madvise(MADV_HUGEPAGE)` one fault per 2 MiB (BENCHMARKS.md has the figures). Kernels set to
//! `transparent_hugepage=madvise` (the default of most distributions) back only advised
//! memory with huge pages; with `always` the advice changes nothing, with `never` (or no
//! THP at all) the call fails and nothing changes either.
//!
//! Only buffers of at least [`MIN_ADVISED`] bytes are advised, and only the 2 MiB-aligned
//! pages wholly inside them: the advice never reaches memory the buffer does not own. The
//! safe twin is `String::with_capacity`: the same string, and the tests compare them.

use alloc::string::String;

/// Buffers longer than this are advised: above glibc's largest mmap threshold (32 MiB on
/// 64-bit targets), so that glibc gives each its own mapping, unmapped when it is freed, and
/// the advice leaves with it. A smaller buffer can come from the heap, where the advice would
/// outlive it and reach the caller's later allocations (4 KiB boxes can land in an advised
/// range). Other allocators may still reuse an advised range.
#[cfg_attr(
    not(all(feature = "std", target_os = "linux")),
    allow(dead_code, reason = "only Linux with std advises")
)]
pub(crate) const MIN_ADVISED: usize = (32 << 20) + 1;

/// The size of a huge page on x86-64 and on aarch64 with 4 KiB pages; a multiple of every
/// base page size, so aligned starts are valid for `madvise`.
#[cfg(all(feature = "std", target_os = "linux"))]
const HUGE_PAGE: usize = 2 << 20;

/// An empty `String` with room for at least `capacity` bytes, which the caller is about to
/// fill; from [`MIN_ADVISED`] bytes on Linux (with `std`) its pages are advised as huge.
pub(crate) fn string_with_capacity(capacity: usize) -> String {
    let s = String::with_capacity(capacity);
    #[cfg(all(feature = "std", target_os = "linux"))]
    if s.capacity() >= MIN_ADVISED {
        let _ = advise(s.as_ptr(), s.capacity());
    }
    s
}

/// Asks for huge pages on the aligned pages inside the `len` bytes at `base`, which the
/// caller owns. A failure (no THP in this kernel) is ignored: the buffer is as good as before.
#[cfg(all(feature = "std", target_os = "linux"))]
fn advise(base: *const u8, len: usize) -> bool {
    let addr = base as usize;
    let start = addr.next_multiple_of(HUGE_PAGE);
    let end = (addr + len) & !(HUGE_PAGE - 1);
    if end > start {
        let first = base.wrapping_add(start - addr) as *mut libc::c_void;
        // SAFETY: madvise with MADV_HUGEPAGE on [start, end), page-aligned and inside the
        // caller's allocation of `len` bytes. The advice changes how the kernel backs those
        // pages, never their contents or their mapping, so no Rust reference or value sees a
        // difference; the return value only says whether the kernel took the advice.
        return unsafe { libc::madvise(first, end - start, libc::MADV_HUGEPAGE) } == 0;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The advised string is a plain `String`: it grows, holds what is written and frees as
    /// `String::with_capacity`'s does.
    #[test]
    fn an_advised_string_is_a_string() {
        for capacity in [0, 1, 4096, MIN_ADVISED - 1, MIN_ADVISED, 40 << 20] {
            let mut s = string_with_capacity(capacity);
            let twin = String::with_capacity(capacity);
            assert!(s.is_empty() && s.capacity() >= capacity);
            assert!(twin.capacity() >= capacity);
            let line = "é€😀 ascii\n";
            while s.len() + line.len() <= capacity {
                s.push_str(line);
            }
            s.push_str(line);
            assert_eq!(s, line.repeat(s.len() / line.len()));
        }
    }

    /// On Linux with transparent huge pages on offer, the advice reaches the kernel: the
    /// mapping that holds the buffer is flagged `hg` (VM_HUGEPAGE) in /proc/self/smaps.
    #[cfg(all(feature = "std", target_os = "linux"))]
    #[test]
    fn the_kernel_takes_the_advice() {
        let thp = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        if !thp.is_ok_and(|t| t.contains("[madvise]") || t.contains("[always]")) {
            return; // this kernel has no THP to advise (or never uses it)
        }
        if std::env::var_os("QEMU_LD_PREFIX").is_some() {
            // Under qemu-user (the cross-architecture test run), whose madvise does not reach
            // the kernel.
            std::eprintln!("skipped: run under qemu-user, whose madvise does not reach the kernel");
            return;
        }
        let s = string_with_capacity(40 << 20);
        let addr = s.as_ptr() as usize + (20 << 20); // a page inside the aligned part
        let flags = vm_flags(addr);
        if !flags.split_whitespace().any(|f| f == "hg") {
            // Not advised: a failure unless this process may not advise at all (a sandbox's
            // seccomp filter, say), which a second call tells.
            let s2 = String::with_capacity(40 << 20);
            assert!(
                !advise(s2.as_ptr(), s2.capacity()),
                "not advised, though madvise works here: VmFlags:{flags}"
            );
        }
    }

    /// The VmFlags of the mapping that holds `addr`, from /proc/self/smaps.
    #[cfg(all(feature = "std", target_os = "linux"))]
    fn vm_flags(addr: usize) -> String {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        let mut flags = None;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ')
                && let Some((lo, hi)) = range.split_once('-')
                && let (Ok(lo), Ok(hi)) =
                    (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = (lo..hi).contains(&addr);
            } else if inside && let Some(f) = line.strip_prefix("VmFlags:") {
                flags = Some(String::from(f));
            }
        }
        flags.expect("the mapping is in /proc/self/smaps")
    }
}
