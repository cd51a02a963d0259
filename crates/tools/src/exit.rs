//! The exit status table shared by every binary (DESIGN.md, "Shared conventions").
//!
//! | status | meaning |
//! |---|---|
//! | 0 | success: the answer is "true" (valid input, a match found, counts written) |
//! | 1 | false: invalid input under `--check`, no match for `utf8-grep` |
//! | 2 | trouble: a usage error, an unreadable input, a failed write, a bad pattern |
//!
//! Trouble wins over false, and false over success: [`Status::merge`] keeps the worst.

use std::process::ExitCode;

/// One of the three exit statuses; the order is "how bad", so `max` merges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Status {
    /// 0: success, or "true".
    #[default]
    Success,
    /// 1: "false": invalid input under `--check`, no match.
    False,
    /// 2: trouble: usage, I/O, a bad pattern.
    Trouble,
}

impl Status {
    /// The numeric code: 0, 1 or 2.
    ///
    /// ```
    /// assert_eq!(utf8_tools::exit::Status::Trouble.code(), 2);
    /// ```
    pub const fn code(self) -> u8 {
        match self {
            Status::Success => 0,
            Status::False => 1,
            Status::Trouble => 2,
        }
    }

    /// Records `other`, keeping the worse of the two.
    ///
    /// ```
    /// use utf8_tools::exit::Status;
    /// let mut s = Status::Success;
    /// s.merge(Status::Trouble);
    /// s.merge(Status::False);
    /// assert_eq!(s, Status::Trouble);
    /// ```
    pub fn merge(&mut self, other: Status) {
        *self = (*self).max(other);
    }
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(s.code())
    }
}
