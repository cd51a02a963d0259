//! The bytes of one input under search: a heap buffer filled by `read`, or windows of a
//! mapped regular file ([`crate::mmap`]). Either way the searcher sees `bytes()`, the data
//! from absolute offset `base` on, grown at the end by [`Buffer::more`] and cut at the
//! front by [`Buffer::discard`]; indices into it stay valid across both.

use std::fs::File;
use std::io::{self, Read};

// Windows of WINDOW bytes (the part of a window already searched is not copied: the next
// window starts at the first byte still needed, aligned down).
use crate::input::READ_ALIGN as ALIGN;
use crate::mmap::{self, WINDOW, Window};

/// Where the bytes come from.
pub enum Feed<'r> {
    /// `read` calls on a stream.
    Read(&'r mut dyn Read),
    /// Windows of a regular file.
    Map(&'r File),
}

/// The bytes of the input from `base` on (see the module docs).
#[derive(Debug)]
pub struct Buffer {
    heap: Vec<u8>,
    win: Option<Window>,
    /// Absolute offset of the window's first byte.
    win_off: u64,
    /// Where the data starts in the window or the heap.
    start: usize,
    /// Bytes of data.
    pub len: usize,
    /// A mapped file is read up to this offset (one part of a file split across threads).
    pub limit: u64,
}

impl Default for Buffer {
    fn default() -> Buffer {
        // A heap an earlier input left (grown as needed by the reads).
        Buffer::adopt(crate::input::spare_heap(0), 0..0)
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        // Bytes past `len` are never read: the next input may see the last one's.
        crate::input::give_back(std::mem::take(&mut self.heap));
    }
}

impl Buffer {
    /// A buffer whose data is `heap[data]`: the first bytes of the input, read already.
    pub fn adopt(heap: Vec<u8>, data: std::ops::Range<usize>) -> Buffer {
        Buffer {
            heap,
            win: None,
            win_off: 0,
            start: data.start,
            len: data.len(),
            limit: u64::MAX,
        }
    }

    /// The data.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        match &self.win {
            Some(w) => &w.bytes()[self.start..self.start + self.len],
            None => &self.heap[self.start..self.start + self.len],
        }
    }

    /// Drops the first `d` bytes of the data.
    pub fn discard(&mut self, d: usize) {
        self.start += d;
        self.len -= d;
    }

    /// Appends up to `chunk` bytes to the data, ending at a multiple of `chunk` from the
    /// start of the input when possible (GNU grep's reads of a regular file: where the first
    /// NUL switches to binary depends on them); 0 at the end of the input. `base` is the
    /// absolute offset of the data's first byte.
    ///
    /// # Errors
    ///
    /// Reading, or mapping, failed.
    pub fn more(&mut self, feed: &mut Feed<'_>, base: u64, chunk: usize) -> io::Result<usize> {
        let chunk = chunk - ((base + self.len as u64) % chunk as u64) as usize;
        match feed {
            Feed::Read(reader) => {
                if self.heap.len() < self.len + chunk + 2 * ALIGN {
                    self.heap.resize(self.len + chunk + 2 * ALIGN, 0);
                }
                // The data is moved so that it ends, and the read starts, on an ALIGN
                // boundary: the kernel copies into a misaligned buffer at half the speed
                // (on an AMD Zen 3, 143 ms against 60 for the registry's 141 MiB).
                let at =
                    self.heap.as_ptr().align_offset(ALIGN) + (ALIGN - self.len % ALIGN) % ALIGN;
                if at != self.start {
                    self.heap.copy_within(self.start..self.start + self.len, at);
                    self.start = at;
                }
                let to = self.start + self.len;
                loop {
                    match reader.read(&mut self.heap[to..to + chunk]) {
                        Ok(n) => {
                            self.len += n;
                            return Ok(n);
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => return Err(e),
                    }
                }
            }
            Feed::Map(file) => {
                let mapped = self.win.as_ref().map_or(0, |w| w.bytes().len());
                let mut avail = mapped - (self.start + self.len);
                if avail < chunk {
                    let end = base + self.len as u64;
                    // The size now, not at open: a file that shrank ends here, one that grew
                    // is read on.
                    let size = file.metadata()?.len().min(self.limit);
                    if size > self.win_off + mapped as u64 && size > end {
                        let align = mmap::page_size() as u64;
                        let off = base - base % align;
                        let need = (end - off) as usize;
                        // Geometric growth for a line longer than a window.
                        let want = WINDOW.max(need.saturating_mul(2));
                        let len = want.min(usize::try_from(size - off).unwrap_or(usize::MAX));
                        self.win = None;
                        self.win = Some(Window::new(file, off, len)?);
                        self.win_off = off;
                        self.start = (base - off) as usize;
                        avail = len - need;
                    } else {
                        avail = avail.min(usize::try_from(size.saturating_sub(end)).unwrap_or(0));
                    }
                }
                let n = avail.min(chunk);
                self.len += n;
                Ok(n)
            }
        }
    }
}
