//! A streaming decoder driven as a caller streaming a file drives it: its input in pieces,
//! its output a few bytes at a time.

/// Why one call of a streaming decoder returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// It read all of the piece it was given.
    InputEmpty,
    /// Its output is full.
    OutputFull,
    /// It met a malformed sequence that starts at this offset of the whole input.
    Malformed(u64),
}

/// Decodes `bytes` cut at `cuts` (sorted offsets) with `step`, into an output of `room`
/// bytes at a time: the text, with U+FFFD for each malformed sequence, and each malformed
/// sequence's start.
///
/// `step(piece, at, out, last)` decodes from `piece`, which starts at offset `at` of
/// `bytes` (`last`: nothing follows it), into `out`; it returns why it stopped, the bytes it
/// read and the bytes it wrote.
///
/// ```
/// use utf8_testkit::pieces::{Stop, decode_in_pieces};
///
/// // Latin-1 (each byte its own code point), two bytes of output at a time, 0xFF malformed.
/// let latin1 = |piece: &[u8], at: usize, out: &mut [u8], _last: bool| {
///     let (mut read, mut written) = (0, 0);
///     for &b in piece {
///         if b == 0xFF {
///             return (Stop::Malformed((at + read) as u64), read + 1, written);
///         }
///         let c = char::from(b);
///         if written + c.len_utf8() > out.len() {
///             return (Stop::OutputFull, read, written);
///         }
///         written += c.encode_utf8(&mut out[written..]).len();
///         read += 1;
///     }
///     (Stop::InputEmpty, read, written)
/// };
/// let got = decode_in_pieces(b"caf\xE9 \xFF!", &[2, 3], 2, latin1);
/// assert_eq!(got, ("café \u{FFFD}!".to_string(), vec![5]));
/// ```
///
/// # Panics
///
/// When a step reads or writes more than it was given, or does not read all of a piece
/// before it says it did, or the text is not UTF-8.
pub fn decode_in_pieces(
    bytes: &[u8],
    cuts: &[usize],
    room: usize,
    mut step: impl FnMut(&[u8], usize, &mut [u8], bool) -> (Stop, usize, usize),
) -> (String, Vec<u64>) {
    let (mut text, mut bad) = (Vec::new(), Vec::new());
    let mut out = vec![0u8; room];
    let mut start = 0;
    for (k, &end) in cuts.iter().chain([&bytes.len()]).enumerate() {
        let last = k == cuts.len();
        let mut p = start;
        loop {
            let (stop, read, written) = step(&bytes[p..end], p, &mut out, last);
            assert!(read <= end - p && written <= room);
            p += read;
            text.extend_from_slice(&out[..written]);
            match stop {
                Stop::InputEmpty => break,
                Stop::OutputFull => {}
                Stop::Malformed(at) => {
                    bad.push(at);
                    text.extend_from_slice("\u{FFFD}".as_bytes());
                }
            }
        }
        assert_eq!(p, end);
        start = end;
    }
    (String::from_utf8(text).unwrap(), bad)
}
