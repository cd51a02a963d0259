//! Word counting (`count_words`, GNU wc's rule) through every kernel against the scalar
//! machine, and `WordCounter` fed in random chunks against the whole: the vector passes'
//! shortcuts (byte classes, separators from tables, the first characters of doubtful runs)
//! must never change a count. Session 13 found by hand what this would have: `F8 90 80 80`
//! read as U+10000 by the vector check of a run's first character.
//!
//! Input: eight control bytes (chunk lengths), then the text, repeated to at least 200
//! bytes so that the vector passes see whole batches of blocks.
// libfuzzer: -max_len=512
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_codec::{Kernel, WordCounter, count_words};

fuzz_target!(|data: &[u8]| {
    let (ctl, text) = utf8_fuzz::split_control::<8>(data);
    let mut input = text.to_vec();
    while !text.is_empty() && input.len() < 200 {
        input.extend_from_slice(text);
    }
    let want = Kernel::Scalar.count_words(&input).expect("the scalar kernel");
    for k in Kernel::available() {
        assert_eq!(k.count_words(&input), Some(want), "{k:?}");
    }
    assert_eq!(count_words(&input), want);
    let max = usize::from(ctl[0] % 64) + 1;
    let mut c = WordCounter::new();
    let mut at = 0;
    for n in utf8_fuzz::chunk_lens(&ctl[1..], input.len(), max) {
        c.update(&input[at..at + n]);
        at += n;
    }
    assert_eq!(c.finish(), want);
});
