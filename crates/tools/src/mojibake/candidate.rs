//! One run of mojibake found in a pass, and the class of what it decodes to: what
//! `mojibake.rs` finds and `marks.rs` judges.

/// The script class of a two-byte result that needs company (see `mojibake.rs`'s module
/// docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// Latin letters and three- or four-byte results: fixed alone.
    Alone,
    Greek,
    Cyrillic,
    Hebrew,
    Arabic,
    /// Combining marks and modifier letters (U+02B0-U+036F): fixed on their context (the
    /// verdict of `marks.rs`), clean `COSÌ…` is U+0305.
    Mark,
    /// A sequence that reads as clean text as easily (`suspicious` in `mojibake.rs`): fixed next to another
    /// fix, or where the text holds mojibake of class `Alone`.
    Suspicious,
}

/// A sequence found at a char index: its length in chars, what it decodes to.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub(super) at: usize,
    pub(super) len: usize,
    pub(super) decoded: char,
    pub(super) class: Class,
}
