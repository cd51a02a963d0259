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

    /// Appends what was written after `self`, unless `next` begins with a context group
    /// (its `leading_gap`) after something: then `next` is given back.
    ///
    /// # Errors
    ///
    /// `next`, untouched, when it cannot follow in the same part.
    pub fn append(&mut self, next: Captured) -> Result<(), Captured> {
        if self.is_empty() {
            let gap = self.leading_gap;
            *self = next;
            self.leading_gap |= gap;
            return Ok(());
        }
        if next.leading_gap {
            return Err(next);
        }
        let at = self.out.len();
        self.err
            .extend(next.err.into_iter().map(|(o, line)| (at + o, line)));
        self.out.extend_from_slice(&next.out);
        Ok(())
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

#[cfg(test)]
mod tests {
    use super::Captured;

    fn part(out: &str, err: &[(usize, &str)], leading_gap: bool) -> Captured {
        Captured {
            out: out.into(),
            err: err.iter().map(|&(at, l)| (at, l.to_string())).collect(),
            leading_gap,
        }
    }

    #[test]
    fn append_moves_the_diagnostics_past_what_was_written_before() {
        let mut a = part("ab\n", &[(1, "e1")], true);
        a.append(part("cd\n", &[(0, "e2"), (3, "e3")], false))
            .unwrap();
        assert_eq!(a.out, b"ab\ncd\n");
        assert_eq!(
            a.err,
            [(1, "e1".into()), (3, "e2".into()), (6, "e3".into())]
        );
        assert!(a.leading_gap);
    }

    #[test]
    fn a_part_that_begins_with_a_group_is_not_joined_after_another() {
        let mut a = part("ab\n", &[], false);
        let back = a.append(part("--\n", &[], true)).unwrap_err();
        assert_eq!(
            (a.out.as_slice(), back.out.as_slice()),
            (&b"ab\n"[..], &b"--\n"[..])
        );
        let mut empty = part("", &[], true);
        empty.append(part("x\n", &[], false)).unwrap();
        assert!(empty.leading_gap && empty.out == b"x\n");
    }
}
