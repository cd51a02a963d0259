//! Word counting: fixed cases (the rule of GNU wc 9 in a UTF-8 locale), every kernel and
//! every split against an oracle built on core's `utf8_chunks` and `char`.

extern crate std;

use std::vec::Vec;

use utf8_testkit::Rng;
use utf8_testkit::words::NOT_WORDS;

use super::*;

/// The oracle: core splits valid text from ill-formed bytes; ill-formed bytes and characters
/// that are not printable change nothing.
fn oracle(bytes: &[u8]) -> u64 {
    let (mut words, mut open) = (0, false);
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let cp = c as u32;
            if matches!(c, '\t'..='\r' | ' ') || is_wide_separator(cp) {
                open = false;
            } else if is_printable(cp) {
                words += u64::from(!open);
                open = true;
            }
        }
    }
    words
}

fn all_ways(bytes: &[u8]) -> u64 {
    let want = oracle(bytes);
    for k in Kernel::available() {
        assert_eq!(
            k.count_words(bytes).unwrap().count(),
            want,
            "{k:?} on {bytes:02X?}"
        );
    }
    want
}

#[test]
fn fixed_cases() {
    // GNU wc 9.1's answers (LC_ALL=C.UTF-8).
    let cases: &[(&[u8], u64)] = &[
        (b"", 0),
        (b"a\x01b", 1),
        (b"a\xFFb", 1),
        (b"\xFF \xFE", 0),
        (b"\x01", 0),
        ("a\u{2028}b".as_bytes(), 1),
        ("a\u{2060}b".as_bytes(), 2),
        ("\u{200B}".as_bytes(), 1),
        ("a\u{85}b".as_bytes(), 1),
        ("a\u{A0}b\u{2007}c\u{202F}d".as_bytes(), 4),
        (
            "a\u{1680}b\u{2000}c\u{200A}d\u{205F}e\u{3000}f".as_bytes(),
            6,
        ),
        // U+200B is printable and not a space; U+0378 is unassigned.
        ("a\u{200B}b \u{378} x".as_bytes(), 2),
        (b" \x80 \xC2 \xE2\x80 \xF0\x9F\x98 ", 0),
        (b"one\ttwo\nthree\x0Bfour\x0Cfive\rsix seven", 7),
        ("Grüße, 世界! Привет мир".as_bytes(), 4),
        // A separator cut short is ill-formed: "a" and "b" stay one word.
        (b"a\xE2\x80b", 1),
        (b"\xE3\x80\x80\xE3\x80\x80x", 1),
    ];
    for (input, words) in cases {
        assert_eq!(all_ways(input), *words, "{input:02X?}");
        assert_eq!(count_words(input).count(), *words, "{input:02X?}");
    }
}

/// Pieces random inputs are built from, beside [`NOT_WORDS`]: words in many scripts, and
/// characters whose class is easy to get wrong (soft hyphen, zero-width space, private use,
/// noncharacters, tags, unassigned).
const WORDS: &[&[u8]] = &[
    b"word",
    b"x",
    "\u{AD}".as_bytes(),
    "\u{200B}".as_bytes(),
    "\u{E000}".as_bytes(),
    "\u{FEFF}".as_bytes(),
    "\u{10FFFF}".as_bytes(),
    "\u{E0001}".as_bytes(),
    "\u{378}".as_bytes(),
    "é".as_bytes(),
    "Привет".as_bytes(),
    "Ελλάδα".as_bytes(),
    "עברית".as_bytes(),
    "العربية".as_bytes(),
    "हिन्दी".as_bytes(),
    "日本語".as_bytes(),
    "中文".as_bytes(),
    "한국어".as_bytes(),
    "😀".as_bytes(),
    "“quoted”".as_bytes(),
];

/// `pieces` pieces drawn from [`WORDS`] and [`NOT_WORDS`] alike.
fn sample(rng: &mut Rng, pieces: usize) -> Vec<u8> {
    let mut v = Vec::new();
    for _ in 0..pieces {
        let i = rng.below((WORDS.len() + NOT_WORDS.len()) as u64) as usize;
        v.extend_from_slice(match WORDS.get(i) {
            Some(w) => w,
            None => NOT_WORDS[i - WORDS.len()],
        });
    }
    v
}

#[test]
fn kernels_agree_with_the_oracle() {
    let mut rng = Rng::new(19);
    for round in 0..400 {
        let v = sample(&mut rng, 1 + round % 200);
        all_ways(&v);
        // Mostly text: the vector path with few slow blocks.
        let mut t =
            "The quick brown fox, Жёлтый\u{3000}日本 jumps\u{A0}over ".repeat(1 + round % 7);
        t.push_str(std::str::from_utf8(&v).unwrap_or("tail"));
        all_ways(t.as_bytes());
    }
}

#[test]
fn every_byte_value_in_every_lane() {
    // Each byte value (the blanks, printable ASCII and its neighbours 0x20 and 0x7F,
    // controls, every non-ASCII byte) among words and alone, at every position of a block and
    // the next: the vector classes of every kernel against the oracle.
    for b in 0..=255u8 {
        for at in 0..66 {
            let mut among = b"ab ".repeat(50);
            among[at] = b;
            all_ways(&among);
            let mut alone = std::vec![b; 140];
            alone[at] = b'x';
            all_ways(&alone);
        }
    }
}

#[test]
fn every_three_byte_sequence_alone_at_a_run_start() {
    // Every lead E0..EF with every pair of bytes 80..BF after it (and two bytes that are
    // not continuations), alone between spaces, where its bytes fall within a vector, across
    // two vectors and across two blocks: what the kernels vouch for begins a word.
    let mut v = b"ab ".repeat(50);
    for lead in 0xE0..=0xEF {
        for s1 in (0x80..=0xBF).chain([0x41, 0xC3]) {
            for s2 in (0x80..=0xBF).chain([0x20, 0xE3]) {
                for at in [33, 63, 126] {
                    let keep = v.clone();
                    v[at - 1] = b' ';
                    v[at..at + 4].copy_from_slice(&[lead, s1, s2, b' ']);
                    all_ways(&v);
                    v = keep;
                }
            }
        }
    }
}

#[test]
fn every_emoji_sequence_alone_at_a_run_start() {
    // F0 9F (and F0 9E, F4 9F) with every third and fourth byte, alone between spaces, at
    // lanes where the fourth byte is in the same vector, the next one, the next block: what
    // the kernels vouch for begins a word.
    let mut v = b"ab ".repeat(50);
    for (lead, s1) in [(0xF0, 0x9F), (0xF0, 0x9E), (0xF4, 0x9F)] {
        for s2 in 0..=255 {
            for s3 in 0..=255 {
                for at in [33, 62, 63, 126] {
                    let keep = v.clone();
                    v[at - 1] = b' ';
                    v[at..at + 5].copy_from_slice(&[lead, s1, s2, s3, b' ']);
                    all_ways(&v);
                    v = keep;
                }
            }
        }
    }
}

#[test]
fn every_split_joins() {
    let mut rng = Rng::new(7);
    for _ in 0..60 {
        let v = sample(&mut rng, 40);
        let want = oracle(&v);
        for cut in 0..=v.len() {
            // Parts counted apart join at unit boundaries (a byte that is not a continuation).
            if v.get(cut).is_none_or(|b| b & 0xC0 != 0x80) {
                let mut w = count_words(&v[..cut]);
                w += count_words(&v[cut..]);
                assert_eq!(w.count(), want, "cut {cut} of {v:02X?}");
            }
            let mut c = WordCounter::new();
            c.update(&v[..cut]);
            c.update(&v[cut..]);
            assert_eq!(c.finish().count(), want, "stream cut {cut} of {v:02X?}");
        }
        let mut c = WordCounter::new();
        for chunk in v.chunks(1 + rng.below(5) as usize) {
            c.update(chunk);
        }
        assert_eq!(c.finish().count(), want);
    }
}

#[test]
fn printable_table() {
    // Spot checks of glibc 2.36's iswprint in C.UTF-8.
    for cp in [
        0x20, 0x7E, 0xA0, 0xAD, 0x600, 0x200B, 0xE000, 0xFEFF, 0x1F600, 0xE0001,
    ] {
        assert!(is_printable(cp), "U+{cp:04X}");
    }
    for cp in [
        0, 0x1F, 0x7F, 0x85, 0x9F, 0x378, 0x2028, 0x2029, 0xFFFF, 0xE0000, 0x10FFFF,
    ] {
        assert!(!is_printable(cp), "U+{cp:04X}");
    }
}

#[test]
fn word_bits_agree_with_step() {
    // Every character up to U+1FFFF: the table vouches exactly for those that begin a word.
    for c in (0x80..0x20000).filter_map(char::from_u32) {
        let mut s = [b' '; 8];
        c.encode_utf8(&mut s);
        let exact = step(&s, 0, true).map(|(class, _)| class) == Some(Class::Print);
        assert_eq!(surely_word(&s, 0), exact, "U+{:04X}", c as u32);
    }
    // And for damaged sequences it never does.
    for b0 in 0x80..=0xFFu8 {
        for b1 in [0x41u8, 0x80, 0x9F, 0xA0, 0xBF, 0xC0] {
            for b2 in [0x20u8, 0x80, 0xBF] {
                let s = [b0, b1, b2, 0x20];
                if surely_word(&s, 0) {
                    assert_eq!(
                        step(&s, 0, true).map(|(c, _)| c),
                        Some(Class::Print),
                        "{s:02X?}"
                    );
                }
            }
        }
    }
}

#[test]
fn separator_candidates_hold_every_separator() {
    // Every non-ASCII separator's lead and second byte share a bit of WORD_LEADS and
    // SEP_SECOND (else the kernels would skip the block's separator pass).
    let (hi, lo) = crate::simd::WORD_LEADS;
    let (shi, slo) = crate::simd::SEP_SECOND;
    const SEP: u8 = crate::simd::SEP_LEADS;
    let mut seen = 0;
    for cp in 0x80..0x10000u32 {
        let Some(c) = char::from_u32(cp) else {
            continue;
        };
        if !is_wide_separator(cp) {
            continue;
        }
        let mut b = [0u8; 4];
        let s = c.encode_utf8(&mut b).as_bytes();
        let (l, s1) = (usize::from(s[0]), usize::from(s[1]));
        let bits = hi[l >> 4] & lo[l & 15] & shi[s1 >> 4] & slo[s1 & 15] & SEP;
        assert!(bits != 0, "U+{cp:04X}");
        seen += 1;
    }
    assert_eq!(seen, 17);
    // Kana, most symbols and other letters with those leads are not candidates (CJK
    // punctuation, E3 80 xx as U+3000, is).
    for c in ['あ', 'カ', '★', '→', 'ç', 'ა'] {
        let mut b = [0u8; 4];
        let s = c.encode_utf8(&mut b).as_bytes();
        let (l, s1) = (usize::from(s[0]), usize::from(s[1]));
        assert_eq!(
            hi[l >> 4] & lo[l & 15] & shi[s1 >> 4] & slo[s1 & 15] & SEP,
            0,
            "{c}"
        );
    }
}

#[test]
fn word_leads_are_always_words() {
    // Every character that starts with a lead of the kernels' WORD_LEADS is printable and
    // not a separator.
    let (hi, lo) = crate::simd::WORD_LEADS;
    for lead in 0xC0..=0xEFu32 {
        if hi[(lead >> 4) as usize] & lo[(lead & 15) as usize] & 7 == 0 {
            continue;
        }
        let (first, last) = if lead < 0xE0 {
            ((lead & 0x1F) << 6, (lead & 0x1F) << 6 | 0x3F)
        } else {
            ((lead & 0x0F) << 12, (lead & 0x0F) << 12 | 0xFFF)
        };
        for cp in first..=last {
            assert!(
                is_printable(cp) && !is_wide_separator(cp),
                "U+{cp:04X} (lead {lead:02X})"
            );
        }
    }
}

#[test]
fn kana_the_tables_vouch_for_are_always_words() {
    // KANA: lead E3, second byte 81..83, third byte 99..BF: printable, not a separator; and
    // the three code points below 99 that are not (so the third byte's bound is needed).
    for s1 in 0x81..=0x83u32 {
        for s2 in 0x99..=0xBFu32 {
            let cp = 0x3000 | (s1 & 0x3F) << 6 | (s2 & 0x3F);
            assert!(is_printable(cp) && !is_wide_separator(cp), "U+{cp:04X}");
        }
    }
    for cp in [0x3040, 0x3097, 0x3098] {
        assert!(!is_printable(cp), "U+{cp:04X}");
    }
}

#[test]
fn a_run_that_begins_unprintable_anywhere_in_a_batch() {
    // One run that begins with a character that is not printable (a control, an unassigned
    // code point, a stray continuation byte, a truncated sequence), at every offset of the
    // first 40 blocks: the block it is in is recounted from the state at its start, whatever
    // block of a kernel call that is.
    let base = "Grüße, мир 日本語 カタカナ 😀 words\u{3000}and\u{A0}more ".repeat(60);
    for odd in [
        &b" \x01 "[..],
        b" \x01x",
        "\u{378} ".as_bytes(),
        b" \x80 ",
        b" \xE4\xB8 ",
    ] {
        for at in (0..64 * 40).step_by(7) {
            let cut = (0..=at).rev().find(|&i| base.is_char_boundary(i)).unwrap();
            let mut v = base.as_bytes()[..cut].to_vec();
            v.extend_from_slice(odd);
            v.extend_from_slice(&base.as_bytes()[cut..]);
            all_ways(&v);
        }
    }
}

#[test]
fn blocks_crowded_with_doubtful_run_starts() {
    // Up to 32 run starts in a block that the kernels cannot vouch for (controls, kana,
    // emoji, unassigned code points, stray bytes), some words and some not: the first four of
    // each block are checked apart from the rest.
    let pieces: &[&[u8]] = &[
        b"\x01 ",
        b"\x01x ",
        "カ ".as_bytes(),
        "😀 ".as_bytes(),
        "\u{378} ".as_bytes(),
        "\u{378}a ".as_bytes(),
        b"\x80 ",
        b"\x7F\t",
        b"a ",
    ];
    let mut rng = Rng::new(19);
    for _ in 0..300 {
        let mut v = Vec::new();
        while v.len() < 64 * 40 {
            v.extend_from_slice(rng.pick(pieces));
        }
        all_ways(&v);
    }
    // Every start of every block doubtful: 32 of them a block.
    all_ways(&b"\x01 ".repeat(64 * 40));
    all_ways(&b"\x01x".repeat(64 * 40));
}

#[test]
fn leads_f8_and_f9_are_never_characters() {
    // F8 and F9 have the low bits of F0 and F1: no code point is read from them.
    for lead in [0xF8u8, 0xF9, 0xFA, 0xFB, 0xFC, 0xFD, 0xFE, 0xFF, 0xF5] {
        let mut v = Vec::new();
        for _ in 0..40 {
            v.extend_from_slice(&[b' ', lead, 0x90, 0x80, 0x80, b' ']);
            v.extend_from_slice(&[lead, 0x9F, 0x98, 0x80, b'\n']);
        }
        assert_eq!(all_ways(&v), 0, "{lead:02X}");
    }
}

#[test]
fn surely_word_only_where_step_reads_a_word_character() {
    // What the fast test vouches for, the exact machine must read as one printable
    // character that is not a separator: every lead from 0x80, every second byte, and third
    // and fourth bytes at the edges of the continuation range and outside it.
    let edges = [0x41u8, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0];
    for lead in 0x80..=0xFFu8 {
        for b1 in 0..=0xFFu8 {
            for b2 in edges {
                for b3 in edges {
                    let v = [lead, b1, b2, b3, b' '];
                    if surely_word(&v, 0) {
                        assert!(
                            matches!(step(&v, 0, true), Some((Class::Print, _))),
                            "{v:02X?}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn vector_first_characters_agree_with_surely_word() {
    // Every lead from 0x80 with every second byte and edge third and fourth bytes, and
    // random bytes at every offset: the vector test (where a kernel has one) says what
    // `surely_word` says where four bytes are left, and nothing where fewer are.
    let edges = [0x41u8, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0];
    let mut v = Vec::new();
    for lead in 0x80..=0xFFu8 {
        for b1 in 0..=0xFFu8 {
            for b2 in edges {
                for b3 in edges {
                    v.extend_from_slice(&[lead, b1, b2, b3]);
                }
            }
        }
    }
    let mut rng = Rng::new(5);
    v.extend((0..100_000).map(|_| rng.next() as u8));
    for k in Kernel::available().filter_map(Available::new) {
        for base in [0, 3, v.len() - 200] {
            let offs: Vec<u32> = (0..(v.len() - base).min(1 << 20) as u32).collect();
            for chunk in offs.chunks(128) {
                let mut out = [0u16; 8];
                if !k.surely_words(&v, base, chunk, &mut out) {
                    break;
                }
                for (j, &at) in chunk.iter().enumerate() {
                    let got = out[j / 16] >> (j % 16) & 1 != 0;
                    let at = base + at as usize;
                    let want = at + 4 <= v.len() && surely_word(&v, at);
                    assert_eq!(
                        got,
                        want,
                        "{k:?}: {:02X?} at {at}",
                        &v[at..v.len().min(at + 4)]
                    );
                }
            }
        }
    }
}

/// The VBMI kernel's emoji table (`simd/x86_64/avx512/vbmi.rs`) marks exactly the third bytes of
/// `F0 9F xx` whose 64 code points all begin a word.
#[cfg(target_arch = "x86_64")]
#[test]
fn emoji_whole_blocks_are_those_of_word_bits() {
    use crate::simd::x86_64::avx512::vbmi::EMOJI_WHOLE;
    for (t, &e) in EMOJI_WHOLE.iter().enumerate() {
        let whole = WORD_BITS[(0x1F000 >> 6) + t] == u64::MAX;
        assert_eq!(e != 0, whole, "F0 9F {:02X}", 0x80 + t);
    }
}

/// The VBMI kernel's table of whole three-byte blocks (`simd/x86_64/avx512/vbmi.rs`) marks exactly
/// the blocks of well-formed sequences whose 64 code points all begin a word.
#[cfg(target_arch = "x86_64")]
#[test]
fn whole_blocks_are_those_of_word_bits() {
    use crate::simd::x86_64::avx512::vbmi::WHOLE_BLOCKS;
    for (low, &mask) in WHOLE_BLOCKS.iter().enumerate() {
        let lead = 0xE0 + low as u32;
        for second in 0x80..=0xBFu32 {
            let block = ((lead & 0xF) << 6) | (second & 0x3F);
            let valid = match lead {
                0xE0 => second >= 0xA0,
                0xED => second < 0xA0,
                _ => true,
            };
            let whole = valid && WORD_BITS[block as usize] == u64::MAX;
            assert_eq!(
                mask >> (second & 0x3F) & 1 != 0,
                whole,
                "{lead:02X} {second:02X}"
            );
        }
    }
}
