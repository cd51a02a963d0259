//! The VBMI word kernel (`simd/x86_64/avx512/vbmi.rs`) against the AVX-512 one and against
//! [`step`]: the same states, and every run start it vouches for beyond the AVX-512 kernel's
//! a character that begins a word.

extern crate std;

use std::vec::Vec;

use utf8_testkit::Rng;

use super::{Class, step};
use crate::simd::WordState;
use crate::simd::x86_64::avx512::vbmi::{
    EMOJI_WHOLE, WHOLE_BLOCKS, vbmi_and_avx512, vbmi_and_avx512_here,
};

/// Whether this CPU runs both the VBMI and the AVX-512 kernel (else the tests skip).
fn vbmi_here() -> bool {
    let here = vbmi_and_avx512_here();
    if !here {
        std::eprintln!("skipped: this CPU has no AVX-512 VBMI");
    }
    here
}

/// Whether `v[i..]` begins with a character [`EMOJI_WHOLE`] vouches for: F0 9F, a third
/// byte of a whole block, a continuation byte.
fn whole_emoji(v: &[u8], i: usize) -> bool {
    matches!(v.get(i..i + 4), Some(&[0xF0, 0x9F, b2, b3])
        if EMOJI_WHOLE[usize::from(b2 & 0x3F)] != 0
            && (0x80..0xC0).contains(&b2)
            && (0x80..0xC0).contains(&b3))
}

/// Runs both kernels over the `blocks` 64-byte blocks at `v[at..]` from `start`: the VBMI
/// kernel must end in the same state and leave unvouched only run starts the AVX-512 one
/// leaves too; each start it vouches for alone must be a character that begins a word
/// ([`step`]). Returns the run starts it vouched for alone, as offsets into `v`.
fn compare(v: &[u8], at: usize, blocks: usize, start: WordState) -> Vec<usize> {
    let Some([(a, oa), (b, ob)]) = vbmi_and_avx512(v, at, blocks, start) else {
        panic!("the callers check that this CPU has AVX-512 VBMI");
    };
    assert_eq!(a, b, "{:02X?}", &v[at..]);
    let mut vouched = Vec::new();
    for (blk, (&x, &y)) in oa.iter().zip(&ob).take(blocks).enumerate() {
        assert_eq!(x & !y, 0, "vouched for by AVX-512 only: {:02X?}", &v[at..]);
        let mut m = y & !x;
        while m != 0 {
            let i = at + 64 * blk + m.trailing_zeros() as usize;
            assert!(
                matches!(step(v, i, true), Some((Class::Print, _))),
                "vouched for at {i}: {:02X?}",
                &v[i..(i + 4).min(v.len())]
            );
            vouched.push(i);
            m &= m - 1;
        }
        // Every emoji run start the AVX-512 kernel leaves, with its 4th byte inside the
        // block's 66 bytes (lanes 0..=62), the VBMI kernel vouches for.
        let mut m = y;
        while m != 0 {
            let j = m.trailing_zeros() as usize;
            let i = at + 64 * blk + j;
            assert!(
                j >= 63 || !whole_emoji(v, i) || x >> j & 1 == 0,
                "{:02X?}",
                &v[i..]
            );
            m &= m - 1;
        }
    }
    vouched
}

#[test]
fn vbmi_classes_agree_with_the_nibble_tables() {
    // The VBMI kernel replaces the AVX-512 one where both run: each batch must end in the
    // same state with the same unvouched run starts.
    if !vbmi_here() {
        return;
    }
    let pieces: &[&[u8]] = &[
        b"word ",
        b"x",
        b"\t",
        b"\n",
        b"\x01",
        b"\x7F",
        b"\xFF",
        b"\x80",
        b"\xC3",
        b"\xE4\xB8",
        "é".as_bytes(),
        "ж".as_bytes(),
        "日本".as_bytes(),
        "カナ".as_bytes(),
        "😀".as_bytes(),
        "🙏🚀🤔🥰".as_bytes(),
        "🤔🥰".as_bytes(),
        "あい".as_bytes(),
        "한국".as_bytes(),
        "✨".as_bytes(),
        "🇯🇵".as_bytes(),
        "\u{1F02C}\u{1F0A0}".as_bytes(),
        b"\xF0\x9F\x98",
        b"\xF0\x9F",
        b"\xF0\x9F\x98\xC3",
        "\u{A0}".as_bytes(),
        "\u{2007}".as_bytes(),
        "\u{3000}".as_bytes(),
        "\u{1680}".as_bytes(),
        "\u{205F}".as_bytes(),
        "\u{2060}".as_bytes(),
        "\u{2028}".as_bytes(),
        "\u{85}".as_bytes(),
        "“”—".as_bytes(),
        "\u{378}".as_bytes(),
        b"\xE2\x80",
        b"\xE3\x80",
        b"\xC2",
    ];
    let mut rng = Rng::new(23);
    let mut vouched = 0;
    for round in 0..2000 {
        let mut v = Vec::new();
        while v.len() < 64 * 8 + 2 {
            v.extend_from_slice(rng.pick(pieces));
        }
        let blocks = (v.len() - 2) / 64;
        let start = WordState {
            count: 0,
            open: round % 2 == 0,
            carry: round % 3,
        };
        vouched += compare(&v, 0, blocks, start).len();
    }
    assert!(vouched > 1000, "only {vouched} run starts vouched for");
}

#[test]
fn vbmi_separators_agree_on_every_sequence_of_three_bytes() {
    // Every second and third byte after each lead of a separator (and leads that are
    // none, or only alias one by their low bits), 21 sequences a block; after 0, 1 and 2
    // spaces, so that leads fall in every lane (61..63 too: separators carried over).
    if !vbmi_here() {
        return;
    }
    for phase in 0..3 {
        separators_from(phase);
    }
}

/// [`vbmi_separators_agree_on_every_sequence_of_three_bytes`] after `phase` spaces.
fn separators_from(phase: usize) {
    let mut v = std::vec![b' '; phase];
    for lead in [
        0xC2u8, 0xE1, 0xE2, 0xE3, 0xE0, 0xED, 0xC3, 0x42, 0x62, 0x82, 0xA2,
    ] {
        for pair in 0..=u16::MAX {
            let [b1, b2] = pair.to_be_bytes();
            if (v.len() - phase) % 64 == 63 {
                v.push(b' ');
            }
            v.extend_from_slice(&[lead, b1, b2]);
        }
    }
    v.resize(v.len().next_multiple_of(64 * 32) + 2, b' ');
    for at in (0..v.len() - 2).step_by(64 * 32) {
        compare(&v, at, 32, WordState::default());
    }
}

#[test]
fn vbmi_vouches_for_every_whole_emoji_block() {
    // Every F0 9F xx yy after a space, 12 to a block: the VBMI kernel vouches for exactly
    // those of EMOJI_WHOLE (27 third bytes, 64 fourth bytes each), the AVX-512 kernel for
    // none, and both end in the same states.
    if !vbmi_here() {
        return;
    }
    let mut v = Vec::new();
    for pair in 0..=u16::MAX {
        let [b2, b3] = pair.to_be_bytes();
        if v.len() % 64 > 64 - 5 {
            v.resize(v.len().next_multiple_of(64), b' ');
        }
        v.extend_from_slice(&[b' ', 0xF0, 0x9F, b2, b3]);
    }
    v.resize(v.len().next_multiple_of(64 * 32) + 2, b' ');
    let vouched: Vec<usize> = (0..v.len() - 2)
        .step_by(64 * 32)
        .flat_map(|at| compare(&v, at, 32, WordState::default()))
        .collect();
    assert!(vouched.iter().all(|&i| whole_emoji(&v, i)));
    assert_eq!(vouched.len(), 27 * 64);
}

#[test]
fn vbmi_vouches_only_for_word_characters() {
    // Every lead from 0xC0 with every second and third byte, after a space and before a
    // space or a continuation byte, about 13 to a block: each run start the VBMI kernel
    // vouches for beyond the AVX-512 kernel's begins a word (`compare`), and the characters
    // its tables were made for are among them. (A continuation byte after them makes four
    // bytes: the emoji, and a wrong bit of the emoji's tables, would show.)
    if !vbmi_here() {
        return;
    }
    let space = vouched_with_fourth(b' ');
    for fourth in [0x80, 0xBF] {
        let cont = vouched_with_fourth(fourth);
        let emoji: Vec<_> = cont.difference(&space).collect();
        assert!(
            emoji
                .iter()
                .all(|c| c[..2] == [0xF0, 0x9F] && EMOJI_WHOLE[usize::from(c[2] & 0x3F)] != 0),
            "{emoji:02X?}"
        );
        assert_eq!(emoji.len(), 27, "{fourth:02X}");
        assert!(space.is_subset(&cont));
    }
    let vouched = space;
    // Kana, CJK punctuation, Hangul (ED, EA), dingbats, Devanagari, Latin Extended
    // Additional, halfwidth katakana (not kana with a third byte from 99, which the AVX-512
    // kernel vouches for itself).
    for c in "あしゃダチむ、「한가✔✨क\u{1E80}ｱ".chars() {
        let mut b = [0; 4];
        let b = c.encode_utf8(&mut b).as_bytes();
        assert!(
            vouched.contains(&[b[0], b[1], b[2]]),
            "{c:?} not vouched for"
        );
    }
    // Never the separators, U+3040 or U+3097 (unassigned).
    for c in ["\u{3000}", "\u{2007}", "\u{3040}", "\u{3097}", "\u{2028}"] {
        let b = c.as_bytes();
        assert!(!vouched.contains(&[b[0], b[1], b[2]]), "{c:?} vouched for");
    }
    // Exactly the whole blocks of E0, E1, E2, EA, ED and those E3 and EF share (64 code
    // points a block), and the kana of E3 80..82 (63 + 63 + 62), less the kana the AVX-512
    // kernel vouches for (E3 81..83 and a third byte 99..BF: 39 each, E3 83 a shared block).
    let pop = |lead: usize| WHOLE_BLOCKS[lead & 0xF].count_ones() as usize;
    let shared = (WHOLE_BLOCKS[3] & WHOLE_BLOCKS[0xF]).count_ones() as usize;
    let blocks = pop(0xE0) + pop(0xE1) + pop(0xE2) + 2 * shared + pop(0xEA) + pop(0xED);
    assert_eq!(vouched.len(), 64 * blocks + 63 + 63 + 62 - 3 * 39);
}

/// The first three bytes of the sequences the VBMI kernel vouches for beyond the AVX-512
/// kernel's, of every lead from 0xC0 with every second and third byte between a space and
/// `fourth`, at every lane but 63.
fn vouched_with_fourth(fourth: u8) -> std::collections::BTreeSet<[u8; 3]> {
    let mut v = Vec::new();
    for lead in 0xC0..=0xFFu8 {
        for pair in 0..=u16::MAX {
            let [b1, b2] = pair.to_be_bytes();
            // Not at lane 63, whose 4th byte is past the block's 66 bytes.
            if v.len() % 64 == 62 {
                v.push(b' ');
            }
            v.extend_from_slice(&[b' ', lead, b1, b2, fourth]);
        }
    }
    v.resize(v.len().next_multiple_of(64 * 32) + 2, b' ');
    let mut vouched = std::collections::BTreeSet::new();
    for at in (0..v.len() - 2).step_by(64 * 32) {
        vouched.extend(
            compare(&v, at, 32, WordState::default())
                .iter()
                .map(|&i| [v[i], v[i + 1], v[i + 2]]),
        );
    }
    vouched
}
