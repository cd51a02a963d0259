//! The streaming decoder, counter and repairer under random chunking against the
//! whole-buffer calls: every split gives identical output and identical errors.
// libfuzzer: -max_len=512
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_codec::stream::{Decoder, Event};
use utf8_codec::{Action, Counter, Practice, RepairOptions, Repairer};

fuzz_target!(|data: &[u8]| {
    let (ctl, input) = utf8_fuzz::split_control::<8>(data);
    let max = usize::from(ctl[0] % 16) + 1;
    let lens = utf8_fuzz::chunk_lens(&ctl[1..], input.len(), max);
    let mut chunks = Vec::new();
    let mut at = 0;
    for n in lens {
        chunks.push(&input[at..at + n]);
        at += n;
        // Empty chunks are legal anywhere.
        if ctl[7] & 1 == 1 {
            chunks.push(&input[at..at]);
        }
    }

    let mut dec = Decoder::new();
    let mut text = String::new();
    let mut errs = Vec::new();
    for c in &chunks {
        for ev in dec.decode(c) {
            match ev {
                Event::Str(s) => text.push_str(s),
                Event::Char(ch) => text.push(ch),
                Event::Error(e) => {
                    text.push('\u{FFFD}');
                    errs.push((e.offset(), e.bytes().to_vec(), e.kind()));
                }
            }
        }
    }
    if let Some(e) = dec.finish() {
        text.push('\u{FFFD}');
        errs.push((e.offset(), e.bytes().to_vec(), e.kind()));
    }
    assert_eq!(text, String::from_utf8_lossy(input));
    let whole: Vec<_> = utf8_codec::errors(input)
        .map(|e| (e.offset() as u64, input[e.range()].to_vec(), e.kind()))
        .collect();
    assert_eq!(errs, whole);

    let mut counter = Counter::new();
    for c in &chunks {
        counter.update(c);
    }
    assert_eq!(counter.finish(), utf8_codec::count(input));

    let practice = [
        Practice::MaximalSubpart,
        Practice::PerByte,
        Practice::PerSequence,
    ][usize::from(ctl[6] % 3)];
    let action = [
        Action::Replace("\u{FFFD}"),
        Action::Replace("<?>"),
        Action::Delete,
        Action::Escape,
    ][usize::from(ctl[6] / 3 % 4)];
    let opts = RepairOptions { practice, action };
    let mut rep = Repairer::new(opts);
    let mut dec = Decoder::new();
    let mut out = String::new();
    for c in &chunks {
        dec.decode(c).for_each(|e| rep.push(e, &mut out));
    }
    if let Some(e) = dec.finish() {
        rep.push_error(e, &mut out);
    }
    rep.finish(&mut out);
    assert_eq!(out, utf8_codec::repair_with(input, &opts));
});
