//! Decoding backwards against decoding forwards, with next/next_back interleaved, and the
//! boundary functions against the forward segmentation.
// libfuzzer: -max_len=512
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (ctl, input) = utf8_fuzz::split_control::<4>(data);
    let fwd: Vec<_> = utf8_codec::decode(input).collect();
    let mut back: Vec<_> = utf8_codec::decode(input).rev().collect();
    back.reverse();
    assert_eq!(fwd, back);

    // The reference segmentation, unit by unit.
    let naive = utf8_fuzz::units(input);
    assert_eq!(fwd.len(), naive.len());
    for (got, (off, unit)) in fwd.iter().zip(&naive) {
        match (got, unit) {
            (Ok((o, c)), utf8_fuzz::Unit::Char(nc, _)) => assert_eq!((o, c), (off, nc)),
            (Err(e), utf8_fuzz::Unit::Error(n, k)) => {
                assert_eq!((e.offset(), e.len(), e.kind().as_str()), (*off, *n, *k));
            }
            _ => panic!("unit at {off}: {got:?} vs {unit:?}"),
        }
    }

    // Interleaved from both ends: the front part plus the reversed back part is everything.
    let mut it = utf8_codec::decode(input);
    let (mut front, mut rear) = (Vec::new(), Vec::new());
    let mut k = 0usize;
    loop {
        let bit = ctl[k % 4] >> (k / 4 % 8) & 1;
        k += 1;
        let next = if bit == 0 { it.next() } else { it.next_back() };
        match next {
            Some(u) if bit == 0 => front.push(u),
            Some(u) => rear.push(u),
            None => break,
        }
    }
    rear.reverse();
    front.extend(rear);
    assert_eq!(front, fwd);

    // decode_last / decode_first on every prefix / suffix at a boundary; boundaries.
    let starts: Vec<usize> = naive.iter().map(|(o, _)| *o).collect();
    for (i, &(off, u)) in naive.iter().enumerate() {
        let end = off + u.len();
        // The last unit of a prefix that ends at a boundary is the unit ending there, except
        // that a subpart cut by a bad byte becomes one cut by the end.
        match (
            &fwd[i],
            utf8_codec::decode_last(&input[..end]).expect("non-empty"),
        ) {
            (Ok((_, c)), Ok(d)) => assert_eq!(*c, d),
            (Err(e), Err(f)) => {
                assert_eq!(e.len(), f.len(), "decode_last at {end}");
                // The kind is decided by the byte after the subpart's first byte; a prefix
                // cut right after the subpart lost that byte, so `unexpected-end` there may
                // stand for any kind (F4 90: out-of-range whole, F4 at the end alone).
                if f.kind().as_str() != "unexpected-end" {
                    assert_eq!(e.kind(), f.kind(), "decode_last at {end}");
                }
            }
            (a, b) => panic!("decode_last at {end}: {a:?} vs {b:?}"),
        }
        assert_eq!(
            utf8_codec::decode_first(&input[off..]).map(|r| r.is_ok()),
            Some(fwd[i].is_ok())
        );
    }
    let bounds = utf8_testkit::oracle::floors_and_ceilings(&starts, input.len());
    for (idx, &(floor, ceil)) in bounds.iter().enumerate() {
        assert_eq!(
            utf8_codec::floor_boundary(input, idx),
            floor,
            "floor_boundary({idx})"
        );
        assert_eq!(
            utf8_codec::is_boundary(input, idx),
            ceil == idx,
            "is_boundary({idx})"
        );
    }
});
