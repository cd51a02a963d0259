//! utf8-dfa against utf8-codec: the same answers in the same error model.
// libfuzzer: -max_len=1024
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match (utf8_dfa::validate(data), utf8_codec::validate(data)) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!("dfa {a:?} vs codec {b:?}"),
    }
    assert_eq!(utf8_dfa::is_valid(data), utf8_codec::is_valid(data));
    assert_eq!(utf8_dfa::valid_up_to(data), utf8_codec::valid_up_to(data));
    let dfa: Vec<_> = utf8_dfa::errors(data).collect();
    let codec: Vec<_> = utf8_codec::errors(data).collect();
    assert_eq!(dfa, codec);
});
