//! Explains bytes unit by unit: each scalar value or maximal subpart with its offset.
//!
//! ```text
//! cargo run -p utf8-codec --example explain                 # an embedded sample
//! cargo run -p utf8-codec --example explain -- F2 80 9F A2  # hex bytes of your own
//! ```
//!
//! The exit status is 0 once the bytes are explained, damaged or not (the embedded sample is
//! damaged on purpose: that is the demonstration), and 2 for an argument that is not a hex
//! byte. To test bytes for validity in a script, use `utf8-count --check`.
#![forbid(unsafe_code)]

use std::process::ExitCode;

/// Hello in three scripts with four kinds of damage.
const SAMPLE: &[u8] = b"h\xC3\xA9llo \xE4\xB8\x96\xE7\x95\x8C \xF0\x9F\x98\x80 | \xC1\x81 \xED\xA0\x80 \xF4\x90\x80\x80 \xE2\x82A \xF0\x9F\x98";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let input = if args.is_empty() {
        SAMPLE.to_vec()
    } else {
        let mut bytes = Vec::new();
        for token in args.iter().flat_map(|a| a.split_whitespace()) {
            let digits = token.trim_start_matches("0x");
            match u8::from_str_radix(digits, 16) {
                Ok(b) if digits.len() <= 2 => bytes.push(b),
                _ => {
                    eprintln!("explain: not a hex byte: {token:?}");
                    return ExitCode::from(2);
                }
            }
        }
        bytes
    };
    for unit in utf8_codec::decode(&input) {
        match unit {
            Ok((offset, c)) => {
                let hex = hex(&input[offset..offset + c.len_utf8()]);
                println!("{offset:>6}  {hex:<12} U+{:04X} {c:?}", u32::from(c));
            }
            Err(e) => {
                let meaning = match utf8_codec::decode_loose(&input[e.offset()..]) {
                    Some((v, n)) => format!(
                        ": {} would encode U+{v:04X}",
                        hex(&input[e.offset()..e.offset() + n])
                    ),
                    None => String::new(),
                };
                println!(
                    "{:>6}  {:<12} {} ({}){meaning}",
                    e.offset(),
                    hex(&input[e.range()]),
                    e.kind(),
                    e.kind().description()
                );
            }
        }
    }
    println!("{}", utf8_codec::repair(&input));
    ExitCode::SUCCESS
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}
