//! Lossy UTF-8 to UTF-16 against std: `utf8_to_utf16_lossy` (appending), `utf16_len_lossy`,
//! and `utf8_to_utf16_lossy_into` resumed through buffers of a few small sizes, each must
//! give exactly `String::from_utf8_lossy(data).encode_utf16()` and count one replacement per
//! maximal subpart (a U+FFFD in the input is not counted). Inputs over 80 bytes reach the
//! vector transcoder (AVX2) on CPUs that have it; `UTF8_CODEC_KERNEL=scalar` runs the scalar
//! twin.
// libfuzzer: -max_len=512
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_codec::{utf8_to_utf16_lossy, utf8_to_utf16_lossy_into, utf16_len_lossy};

fuzz_target!(|data: &[u8]| {
    let lossy = String::from_utf8_lossy(data);
    let want: Vec<u16> = lossy.encode_utf16().collect();
    let replaced = utf8_codec::errors(data).count();
    assert_eq!(
        lossy.matches('\u{FFFD}').count(),
        replaced + data.windows(3).filter(|w| *w == b"\xEF\xBF\xBD").count()
    );

    let mut out = vec![0x1234];
    assert_eq!(utf8_to_utf16_lossy(data, &mut out), replaced);
    assert_eq!(out[0], 0x1234);
    assert_eq!(out[1..], want[..]);
    assert_eq!(utf16_len_lossy(data), want.len());

    // Through small buffers (the first byte of the input picks one more size), resuming at
    // each `read`: the pieces join to the whole and every stop is at a unit boundary.
    let extra = data.first().map_or(7, |&b| usize::from(b) % 97 + 1);
    'caps: for cap in [1, 2, 3, 5, 16, extra, want.len()] {
        let mut buf = vec![0u16; cap];
        let (mut got, mut rest, mut count) = (Vec::new(), data, 0);
        while !rest.is_empty() {
            let p = utf8_to_utf16_lossy_into(rest, &mut buf);
            assert!(p.written <= cap && p.read <= rest.len());
            if p.read == 0 {
                // Only a surrogate pair that does not fit in one unit stops a call early.
                assert!(cap < 2, "no progress through {cap} units");
                continue 'caps;
            }
            got.extend_from_slice(&buf[..p.written]);
            count += p.replacements;
            rest = &rest[p.read..];
        }
        assert_eq!(got, want, "through {cap} units");
        assert_eq!(count, replaced, "through {cap} units");
    }
});
