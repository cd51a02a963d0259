//! Naive references written from the definitions, shared by tests and fuzz targets that hold
//! the codec to them.

/// The length of the ill-formed unit that starts `bytes` under the "per sequence" practice
/// (the pre-Unicode-6 decoders' rule): the lead byte and as many of the continuation bytes
/// it announces (C0..DF two bytes, E0..EF three, F0..F7 four, F8..FB five, FC..FD six, any
/// other byte one) as follow it. Empty input gives 0.
///
/// ```
/// use utf8_testkit::oracle::per_sequence_len;
///
/// assert_eq!(per_sequence_len(b"\xF8\x80\x80\x80\x80\x80"), 5);
/// assert_eq!(per_sequence_len(b"\xE0\x80A"), 2);
/// assert_eq!(per_sequence_len(b"\x80\x80"), 1);
/// ```
pub fn per_sequence_len(bytes: &[u8]) -> usize {
    let Some(&lead) = bytes.first() else {
        return 0;
    };
    let announced = match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        0xF8..=0xFB => 5,
        0xFC..=0xFD => 6,
        _ => 1,
    };
    let mut n = 1;
    while n < announced && n < bytes.len() && bytes[n] & 0xC0 == 0x80 {
        n += 1;
    }
    n
}

/// The floor and the ceiling boundary of every index `0..=len` of an input of `len` bytes
/// whose units (characters and maximal ill-formed subparts) start at `starts` (ascending):
/// the last start at or before the index (the index itself at `len`), and the first start
/// at or after it (or `len`). An index is a boundary exactly when its ceiling is itself.
///
/// ```
/// // "aé" with a stray continuation byte: units at 0, 1 and 3.
/// let b = utf8_testkit::oracle::floors_and_ceilings(&[0, 1, 3], 4);
/// assert_eq!(b, [(0, 0), (1, 1), (1, 3), (3, 3), (4, 4)]);
/// ```
pub fn floors_and_ceilings(starts: &[usize], len: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(len + 1);
    let (mut floor, mut next) = (0, 0);
    for i in 0..=len {
        while next < starts.len() && starts[next] < i {
            next += 1;
        }
        let ceil = starts.get(next).copied().unwrap_or(len);
        if ceil == i {
            floor = i;
        }
        out.push((if i == len { len } else { floor }, ceil));
    }
    out
}
