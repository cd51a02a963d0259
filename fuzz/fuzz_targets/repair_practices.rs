//! Every repair practice and action against the naive reference written from DESIGN.md.
// libfuzzer: -max_len=256
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_codec::{Action, Practice, RepairOptions};

fuzz_target!(|data: &[u8]| {
    let practices = [
        (
            Practice::MaximalSubpart,
            utf8_fuzz::Practice::MaximalSubpart,
        ),
        (Practice::PerByte, utf8_fuzz::Practice::PerByte),
        (Practice::PerSequence, utf8_fuzz::Practice::PerSequence),
    ];
    let actions = [
        (
            Action::Replace("\u{FFFD}"),
            utf8_fuzz::Action::Replace("\u{FFFD}"),
        ),
        (Action::Replace(""), utf8_fuzz::Action::Replace("")),
        (Action::Replace("?!"), utf8_fuzz::Action::Replace("?!")),
        (Action::Delete, utf8_fuzz::Action::Delete),
        (Action::Escape, utf8_fuzz::Action::Escape),
    ];
    for (p, np) in practices {
        let pieces = utf8_fuzz::pieces(data, np);
        for (a, na) in actions {
            let got = utf8_codec::repair_with(
                data,
                &RepairOptions {
                    practice: p,
                    action: a,
                },
            );
            let want = utf8_fuzz::render(&pieces, na);
            assert_eq!(got, want, "{p:?} {a:?}");
        }
    }
    // Escape is reversible: unescaping gives the input back (when it had no backslash).
    if !data.contains(&b'\\') {
        let esc = utf8_codec::repair_with(
            data,
            &RepairOptions {
                practice: Practice::PerByte,
                action: Action::Escape,
            },
        );
        let mut back = Vec::new();
        let b = esc.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\\' {
                let h = std::str::from_utf8(&b[i + 2..i + 4]).unwrap();
                back.push(u8::from_str_radix(h, 16).unwrap());
                i += 4;
            } else {
                back.push(b[i]);
                i += 1;
            }
        }
        assert_eq!(back, data);
    }
});
