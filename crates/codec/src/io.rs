//! `std::io` adapters: repair while reading or while writing, in bounded memory.

use std::io::{self, Read, Write};
use std::string::String;
use std::vec::Vec;

use crate::repair::{RepairOptions, Repairer};
use crate::stream::{Decoder, Event};

/// Wraps a reader of arbitrary bytes; reading from it yields repaired UTF-8.
///
/// Memory stays bounded by the size of the reads; the output is the same for every pattern of
/// reads from the inner reader.
///
/// ```
/// use std::io::Read;
/// use utf8_codec::io::RepairReader;
///
/// let mut out = String::new();
/// RepairReader::new(&b"caf\xC3\xA9 \xFF"[..], Default::default()).read_to_string(&mut out)?;
/// assert_eq!(out, "café \u{FFFD}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct RepairReader<'r, R> {
    inner: R,
    decoder: Decoder,
    repairer: Repairer<'r>,
    input: Vec<u8>,
    output: String,
    pos: usize,
    errors: u64,
    done: bool,
}

impl<'r, R: Read> RepairReader<'r, R> {
    /// Wraps `inner`, repairing with `options`.
    ///
    /// ```
    /// let r = utf8_codec::io::RepairReader::new(std::io::empty(), Default::default());
    /// assert_eq!(r.errors(), 0);
    /// ```
    pub fn new(inner: R, options: RepairOptions<'r>) -> Self {
        RepairReader {
            inner,
            decoder: Decoder::new(),
            repairer: Repairer::new(options),
            input: std::vec![0; 64 * 1024],
            output: String::new(),
            pos: 0,
            errors: 0,
            done: false,
        }
    }

    /// The number of maximal subparts repaired so far. Once a read has returned 0 (the end of
    /// the inner reader), it is the final count, the sequence cut short by the end included.
    ///
    /// ```
    /// use std::io::Read;
    /// let mut r = utf8_codec::io::RepairReader::new(&b"\x80\x80"[..], Default::default());
    /// std::io::copy(&mut r, &mut std::io::sink())?;
    /// assert_eq!(r.errors(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// Returns the inner reader.
    ///
    /// ```
    /// let r = utf8_codec::io::RepairReader::new(&b""[..], Default::default());
    /// assert!(r.into_inner().is_empty());
    /// ```
    pub fn into_inner(self) -> R {
        self.inner
    }

    fn refill(&mut self) -> io::Result<()> {
        self.output.clear();
        self.pos = 0;
        while self.output.is_empty() && !self.done {
            let n = loop {
                match self.inner.read(&mut self.input) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    r => break r?,
                }
            };
            let (out, rep, errors) = (&mut self.output, &mut self.repairer, &mut self.errors);
            if n == 0 {
                self.done = true;
                if let Some(e) = self.decoder.finish() {
                    *errors += 1;
                    rep.push(Event::Error(e), out);
                }
                rep.finish(out);
            } else {
                for event in self.decoder.decode(&self.input[..n]) {
                    *errors += u64::from(matches!(event, Event::Error(_)));
                    rep.push(event, out);
                }
            }
        }
        Ok(())
    }
}

impl<R: Read> Read for RepairReader<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.output.len() {
            self.refill()?;
        }
        let avail = &self.output.as_bytes()[self.pos..];
        let n = avail.len().min(buf.len());
        buf[..n].copy_from_slice(&avail[..n]);
        self.pos += n;
        Ok(n)
    }
}

/// Wraps a writer; bytes written to it arrive repaired, as UTF-8, at the inner writer.
///
/// Call [`finish`](RepairWriter::finish) at the end: an incomplete sequence at the very end is
/// only known to be an error then, and the final error count is returned with the inner
/// writer. Dropping without `finish` loses at most those 3 bytes and a
/// per-sequence substitute still open.
///
/// ```
/// use std::io::Write;
/// use utf8_codec::io::RepairWriter;
///
/// let mut w = RepairWriter::new(Vec::new(), Default::default());
/// w.write_all(b"\xE2\x82")?;
/// w.write_all(b"\xAC and \xE2\x82")?;
/// let done = w.finish()?;
/// assert_eq!(done.inner, "€ and \u{FFFD}".as_bytes());
/// assert_eq!(done.errors, 1); // the sequence cut by the end
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct RepairWriter<'r, W: Write> {
    inner: W,
    decoder: Decoder,
    repairer: Repairer<'r>,
    buf: String,
    errors: u64,
}

impl<'r, W: Write> RepairWriter<'r, W> {
    /// Wraps `inner`, repairing with `options`.
    ///
    /// ```
    /// let w = utf8_codec::io::RepairWriter::new(std::io::sink(), Default::default());
    /// assert_eq!(w.errors(), 0);
    /// ```
    pub fn new(inner: W, options: RepairOptions<'r>) -> Self {
        RepairWriter {
            inner,
            decoder: Decoder::new(),
            repairer: Repairer::new(options),
            buf: String::new(),
            errors: 0,
        }
    }

    /// The number of maximal subparts repaired so far.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut w = utf8_codec::io::RepairWriter::new(Vec::new(), Default::default());
    /// w.write_all(b"\xFF")?;
    /// assert_eq!(w.errors(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn errors(&self) -> u64 {
        self.errors
    }

    /// Ends the input, writes what remains, flushes, and returns the inner writer with the
    /// final number of maximal subparts repaired: [`errors`](RepairWriter::errors) and, if the
    /// input ended inside a sequence, that last one.
    ///
    /// # Errors
    ///
    /// Any error of the inner writer.
    ///
    /// ```
    /// use std::io::Write;
    /// let mut w = utf8_codec::io::RepairWriter::new(Vec::new(), Default::default());
    /// w.write_all(b"\xFFok\xF0\x9F")?;
    /// assert_eq!(w.errors(), 1); // the end is not known yet
    /// let done = w.finish()?;
    /// assert_eq!((done.inner, done.errors), ("\u{FFFD}ok\u{FFFD}".as_bytes().to_vec(), 2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use = "the final error count, the error at the end of the stream included, is only returned here"]
    pub fn finish(mut self) -> io::Result<Finished<W>> {
        self.buf.clear();
        if let Some(e) = self.decoder.finish() {
            self.errors += 1;
            self.repairer.push(Event::Error(e), &mut self.buf);
        }
        self.repairer.finish(&mut self.buf);
        self.inner.write_all(self.buf.as_bytes())?;
        self.inner.flush()?;
        Ok(Finished {
            inner: self.inner,
            errors: self.errors,
        })
    }
}

/// What [`RepairWriter::finish`] returns: the inner writer and the final error count.
///
/// ```
/// use utf8_codec::io::{Finished, RepairWriter};
///
/// let Finished { inner, errors } = RepairWriter::new(Vec::new(), Default::default()).finish()?;
/// assert!(inner.is_empty());
/// assert_eq!(errors, 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
#[must_use = "the final error count, the error at the end of the stream included, is only here"]
pub struct Finished<W> {
    /// The inner writer, flushed.
    pub inner: W,
    /// The number of maximal subparts repaired in the whole stream, the one the end of the
    /// input cut short included.
    pub errors: u64,
}

impl<W> Finished<W> {
    /// The inner writer, for a caller that has read the count (or does not need it).
    ///
    /// ```
    /// let w = utf8_codec::io::RepairWriter::new(Vec::new(), Default::default());
    /// assert!(w.finish()?.into_inner().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_inner(self) -> W {
        self.inner
    }
}

impl<W: Write> Write for RepairWriter<'_, W> {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.clear();
        for event in self.decoder.decode(data) {
            self.errors += u64::from(matches!(event, Event::Error(_)));
            self.repairer.push(event, &mut self.buf);
        }
        self.inner.write_all(self.buf.as_bytes())?;
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
