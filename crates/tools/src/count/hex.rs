//! `--hex`: input written as hex bytes.

use std::io::{self, Read};

/// Reads text made of hex bytes and yields the bytes: tokens are separated by whitespace,
/// each an even number of hex digits with an optional `0x`/`0X` prefix (`ED BF 80`,
/// `0xED 0xBF`, `EDBF80`, any length). Anything else is an `InvalidData` error naming the
/// line and the token. Memory is bounded whatever the length of a token.
///
/// ```
/// use std::io::Read;
/// let mut out = Vec::new();
/// utf8_tools::count::HexReader::new(&b"F2 80 0x9f\nA2"[..]).read_to_end(&mut out)?;
/// assert_eq!(out, b"\xF2\x80\x9F\xA2");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct HexReader<R> {
    inner: R,
    text: Vec<u8>,
    out: Vec<u8>,
    out_pos: usize,
    done: bool,
    /// Characters of the current token so far, and its first few for messages.
    token_len: usize,
    token_start: Vec<u8>,
    half: Option<u8>,
    /// 1-based line of the text, for messages.
    line: u64,
}

impl<R: Read> HexReader<R> {
    /// Hex text from `inner`.
    pub fn new(inner: R) -> HexReader<R> {
        HexReader {
            inner,
            text: vec![0; 64 * 1024],
            out: Vec::with_capacity(32 * 1024),
            out_pos: 0,
            done: false,
            token_len: 0,
            token_start: Vec::new(),
            half: None,
            line: 1,
        }
    }

    fn bad(&self, extra: Option<u8>) -> io::Error {
        let mut t = self.token_start.clone();
        t.extend(extra);
        let shown = String::from_utf8_lossy(&t);
        let more = if self.token_len > t.len() { "..." } else { "" };
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("line {}: invalid hex byte '{shown}{more}'", self.line),
        )
    }

    fn end_token(&mut self) -> io::Result<()> {
        let prefix_only = self.token_len == 2 && self.token_start[1].eq_ignore_ascii_case(&b'x');
        if self.half.is_some() || prefix_only {
            return Err(self.bad(None));
        }
        self.token_len = 0;
        self.token_start.clear();
        Ok(())
    }

    fn byte(&mut self, b: u8) -> io::Result<()> {
        if b.is_ascii_whitespace() {
            if self.token_len > 0 {
                self.end_token()?;
            }
            if b == b'\n' {
                self.line += 1;
            }
            return Ok(());
        }
        let prefix = self.token_len == 1 && self.half == Some(0) && (b == b'x' || b == b'X');
        self.token_len += 1;
        if self.token_start.len() < 16 {
            self.token_start.push(b);
        }
        if prefix {
            self.half = None;
            return Ok(());
        }
        let Some(d) = (b as char).to_digit(16) else {
            return Err(self.bad(None));
        };
        let d = d as u8;
        match self.half.take() {
            Some(h) => self.out.push(h << 4 | d),
            None => self.half = Some(d),
        }
        Ok(())
    }
}

impl<R: Read> Read for HexReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if self.out_pos < self.out.len() {
                let n = (self.out.len() - self.out_pos).min(buf.len());
                buf[..n].copy_from_slice(&self.out[self.out_pos..self.out_pos + n]);
                self.out_pos += n;
                return Ok(n);
            }
            self.out.clear();
            self.out_pos = 0;
            if self.done {
                return Ok(0);
            }
            let n = match self.inner.read(&mut self.text) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                r => r?,
            };
            if n == 0 {
                self.done = true;
                if self.token_len > 0 {
                    self.end_token()?;
                }
                continue;
            }
            for i in 0..n {
                let b = self.text[i];
                self.byte(b)?;
            }
        }
    }
}
