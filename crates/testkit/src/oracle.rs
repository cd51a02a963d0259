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
