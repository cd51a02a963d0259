//! Output held back: what one input writes to standard output and standard error, kept in
//! memory in the order it was written, so that inputs searched on several threads can be
//! shown in input order (`utf8-grep -r`).

use std::cell::RefCell;
use std::io;
use std::rc::Rc;

/// What an input wrote: its standard output bytes, and its standard error lines, each with
/// the length of standard output written before it (so replaying them interleaves the two
/// streams as they were written).
#[derive(Debug, Default)]
pub struct Captured {
    /// Standard output.
    pub out: Vec<u8>,
    /// Standard error lines (without their newline), each after `out[..at]`.
    pub err: Vec<(usize, String)>,
    /// A context group begins the output: it takes a `--` first if anything was printed
    /// before it (by another input).
    pub leading_gap: bool,
}

impl Captured {
    /// Bytes held.
    pub fn len(&self) -> usize {
        self.out.len() + self.err.iter().map(|(_, l)| l.len()).sum::<usize>()
    }

    /// Nothing held.
    pub fn is_empty(&self) -> bool {
        self.out.is_empty() && self.err.is_empty()
    }
}

/// A [`Captured`] written by an [`crate::output::Output`] and a [`crate::diag::Diag`] of
/// the same thread.
pub type Capture = Rc<RefCell<Captured>>;

/// Called by a capturing output when it holds more than its limit: takes what was
/// captured so far (it may block until the input's turn to be shown comes).
pub type Spill = Box<dyn FnMut(Captured) -> io::Result<()>>;
