//! validate, errors, repair, count and every kernel against std and the naive reference.
// libfuzzer: -max_len=1024
#![no_main]
#![forbid(unsafe_code)]

use libfuzzer_sys::fuzz_target;
use utf8_codec::Kernel;

fuzz_target!(|data: &[u8]| {
    let std = std::str::from_utf8(data);
    let ours = utf8_codec::validate(data);
    match (&std, &ours) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => {
            assert_eq!(a.valid_up_to(), b.valid_up_to());
            assert_eq!(a.error_len(), b.error_len());
            assert_eq!(b.offset(), a.valid_up_to());
        }
        _ => panic!("validate disagrees with std: {std:?} vs {ours:?}"),
    }
    assert_eq!(utf8_codec::is_valid(data), std.is_ok());
    assert_eq!(
        utf8_codec::valid_up_to(data),
        std.map_or_else(|e| e.valid_up_to(), str::len)
    );
    for k in Kernel::available() {
        assert_eq!(
            k.valid_up_to(data),
            Some(utf8_codec::valid_up_to(data)),
            "{k:?}"
        );
        assert_eq!(k.count(data), Some(utf8_codec::count(data)), "{k:?}");
    }

    // Every error, as std finds them one after the other.
    let mut from_std = Vec::new();
    let mut rest = data;
    let mut base = 0;
    while let Err(e) = std::str::from_utf8(rest) {
        let len = e.error_len().unwrap_or(rest.len() - e.valid_up_to());
        from_std.push((base + e.valid_up_to(), len));
        let skip = e.valid_up_to() + len;
        base += skip;
        rest = &rest[skip..];
    }
    let ours: Vec<_> = utf8_codec::errors(data)
        .map(|e| (e.offset(), e.len(), e.kind().as_str()))
        .collect();
    let naive = utf8_fuzz::errors(data);
    assert_eq!(ours, naive, "errors vs the naive reference");
    assert_eq!(
        ours.iter().map(|&(o, l, _)| (o, l)).collect::<Vec<_>>(),
        from_std,
        "errors vs std"
    );

    assert_eq!(utf8_codec::repair(data), String::from_utf8_lossy(data));

    let c = utf8_codec::count(data);
    let units = utf8_fuzz::units(data);
    let chars = units
        .iter()
        .filter(|(_, u)| matches!(u, utf8_fuzz::Unit::Char(..)))
        .count();
    assert_eq!(c.bytes, data.len() as u64);
    assert_eq!(c.chars, chars as u64);
    assert_eq!(c.errors, naive.len() as u64);
    assert_eq!(c.lines, data.iter().filter(|&&b| b == b'\n').count() as u64);
    assert_eq!(c.by_length.iter().sum::<u64>(), c.chars);
    assert_eq!(c.by_kind.iter().sum::<u64>(), c.errors);
});
