//! Filling the search's buffer: the bytes read before the search, each read after them, and
//! the bytes searched let go.

use std::ops::Range;
use std::sync::atomic::Ordering;

use super::{CHUNK, FileSearch};
use crate::diag::ToolError;
use crate::grep::buffer::{Buffer, Feed};

impl FileSearch<'_> {
    /// Searches from the bytes `heap[data]` on, the first of the input (from where the
    /// search starts), read already; then from the feed unless `ended`.
    pub fn first_read(mut self, heap: Vec<u8>, data: Range<usize>, ended: bool) -> Self {
        self.data = Buffer::adopt(heap, data);
        self.eof = ended;
        self.primed = true;
        self.took(0, self.data.len);
        self
    }

    /// Reads one chunk; false at the end of the input.
    pub(super) fn read_more(&mut self, feed: &mut Feed<'_>) -> Result<bool, ToolError> {
        let old = self.data.len;
        let n = self
            .data
            .more(feed, self.base, CHUNK)
            .map_err(|e| ToolError::input(self.diag_name, &e))?;
        if n == 0 {
            self.eof = true;
            return Ok(false);
        }
        self.took(old, n);
        Ok(true)
    }

    /// Accounts for `n` bytes of data from `old` on, just read.
    fn took(&mut self, old: usize, n: usize) {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.stop = true;
        }
        let new = &self.data.bytes()[old..old + n];
        if (self.s.scan_nul(self.m) || (self.in_long_line && !self.s.text))
            && !self.binary
            && memchr::memchr(0, new).is_some()
        {
            self.binary = true;
        }
        self.res.bytes += n as u64;
    }

    pub(super) fn discard(&mut self, d: usize) {
        self.data.discard(d);
        self.base += d as u64;
        if let Some(r) = &mut self.report {
            r.fed = r.fed.saturating_sub(d);
        }
        if let Some(m) = self.map {
            m.borrow_mut().forget_before(self.base);
        }
    }
}
