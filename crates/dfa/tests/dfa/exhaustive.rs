//! Every short input, against std and the codec.

use crate::common::assert_agrees;

/// Runs `f(b0)` for every first byte in `leads`, split over the available cores.
fn par_leads(leads: std::ops::RangeInclusive<u8>, f: impl Fn(u8) + Sync) {
    let leads: Vec<u8> = leads.collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    let chunk = leads.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for part in leads.chunks(chunk) {
            let f = &f;
            scope.spawn(move || part.iter().for_each(|&b0| f(b0)));
        }
    });
}

#[test]
fn exhaustive_up_to_three_bytes() {
    assert_agrees(b"");
    par_leads(0..=255, |b0| {
        assert_agrees(&[b0]);
        for b1 in 0..=255u8 {
            assert_agrees(&[b0, b1]);
            for b2 in 0..=255u8 {
                assert_agrees(&[b0, b1, b2]);
            }
        }
    });
}

#[test]
#[ignore = "about 84 million inputs: run with --release -- --ignored exhaustive"]
fn exhaustive_four_bytes_leads_f0_to_f4() {
    par_leads(0xF0..=0xF4, |b0| {
        for b1 in 0..=255u8 {
            for b2 in 0..=255u8 {
                for b3 in 0..=255u8 {
                    assert_agrees(&[b0, b1, b2, b3]);
                }
            }
        }
    });
}

/// The short inputs above take the one-chain path; this puts every one- and two-byte input
/// and every 3-byte prefix of a 4-byte lead at every offset of a text long enough for the
/// windowed, multi-chain path, around its window and part cuts.
#[test]
fn exhaustive_short_inputs_spliced_into_long_text() {
    let base = crate::common::mixed_text(300);
    let cut = base.len() / 2;
    let cut = (cut..).find(|&i| base[i] & 0xC0 != 0x80).unwrap();
    par_leads(0..=255, |b0| {
        let mut inputs: Vec<Vec<u8>> = vec![vec![b0]];
        for b1 in 0..=255u8 {
            inputs.push(vec![b0, b1]);
        }
        for input in inputs {
            let mut v = base[..cut].to_vec();
            v.extend_from_slice(&input);
            v.extend_from_slice(&base[cut..]);
            assert_agrees(&v);
            v.truncate(cut + input.len());
            assert_agrees(&v);
        }
    });
}

/// Errors at every offset of a text several windows long.
#[test]
fn errors_at_every_offset_of_long_text() {
    let base = crate::common::mixed_text(9_000);
    let bad: &[&[u8]] = &[b"\xFF", b"\x80", b"\xE2\x82", b"\xF0\x9F\x98"];
    let offsets: Vec<usize> = (0..=base.len()).step_by(3).collect();
    std::thread::scope(|scope| {
        for part in offsets.chunks(offsets.len().div_ceil(2)) {
            let base = &base;
            scope.spawn(move || {
                for &at in part {
                    for b in bad {
                        let mut v = base[..at].to_vec();
                        v.extend_from_slice(b);
                        v.extend_from_slice(&base[at..]);
                        assert_agrees(&v);
                    }
                }
            });
        }
    });
    assert_agrees(&base);
}

/// Two errors at every distance up to past a window (the iterator walks exactly right after
/// an error, then hands over to the fast path).
#[test]
fn errors_at_every_distance() {
    let base = crate::common::mixed_text(3_000);
    let boundaries: Vec<usize> = (0..base.len())
        .filter(|&i| base[i] & 0xC0 != 0x80)
        .collect();
    for &d in &boundaries {
        let mut v = b"\xF0\x9F".to_vec();
        v.extend_from_slice(&base[..d]);
        v.extend_from_slice(b"\xED\xA0");
        v.extend_from_slice(&base[d..]);
        assert_agrees(&v);
    }
}
