//! The validators behind `--engine`, as one event stream: whichever engine finds the errors,
//! the caller sees the events of [`utf8_codec::stream::Decoder`] (valid runs, split
//! characters, errors with absolute offsets), so output cannot depend on the engine.

use utf8_codec::stream::{Decoder, Event, StreamError};
use utf8_codec::{ErrorKind, Utf8Error};

use clap::ValueEnum;

use crate::diag::ToolError;

/// The value of `--engine`.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EngineChoice {
    /// The fastest engine available (the codec's).
    #[default]
    Auto,
    /// The codec's table-driven decoder.
    Scalar,
    /// The minimized DFA of the utf8-dfa crate.
    Dfa,
}

/// A validator that is available in this build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// `utf8_codec`'s streaming decoder.
    Scalar,
    /// `utf8_dfa`'s DFA.
    Dfa,
}

impl EngineChoice {
    /// The engine this choice selects.
    ///
    /// # Errors
    ///
    /// [`ToolError::Usage`] for an engine not built in (every engine is, in this build).
    ///
    /// ```
    /// use utf8_tools::engine::{Engine, EngineChoice};
    /// assert_eq!(EngineChoice::Auto.resolve().unwrap(), Engine::Scalar);
    /// ```
    pub fn resolve(self) -> Result<Engine, ToolError> {
        match self {
            EngineChoice::Auto | EngineChoice::Scalar => Ok(Engine::Scalar),
            EngineChoice::Dfa => Ok(Engine::Dfa),
        }
    }
}

/// The errors of a whole slice, found by `engine` (the same for every engine).
///
/// ```
/// use utf8_tools::engine::{Engine, errors};
/// for engine in [Engine::Scalar, Engine::Dfa] {
///     let offsets: Vec<usize> = errors(engine, b"a\xFFb\xE2\x82").map(|e| e.offset()).collect();
///     assert_eq!(offsets, [1, 3]);
/// }
/// ```
pub fn errors(engine: Engine, bytes: &[u8]) -> impl Iterator<Item = Utf8Error> + '_ {
    let (scalar, dfa) = match engine {
        Engine::Scalar => (Some(utf8_codec::errors(bytes)), None),
        Engine::Dfa => (None, Some(utf8_dfa::errors(bytes))),
    };
    scalar
        .into_iter()
        .flatten()
        .chain(dfa.into_iter().flatten())
}

/// A streaming validator fed chunks of any size, yielding [`Event`]s exactly as
/// [`Decoder`] does (its contract holds for every engine).
///
/// ```
/// use utf8_codec::stream::Event;
/// use utf8_tools::engine::{Engine, Scanner};
///
/// for engine in [Engine::Scalar, Engine::Dfa] {
///     let mut s = Scanner::new(engine);
///     let mut offsets = Vec::new();
///     for chunk in [&b"a\xE2"[..], b"\x82", b"A\xF0\x9F"] {
///         s.feed(chunk, |ev| if let Event::Error(e) = ev { offsets.push(e.offset()) });
///     }
///     s.finish(|ev| if let Event::Error(e) = ev { offsets.push(e.offset()) });
///     assert_eq!(offsets, [1, 4]);
/// }
/// ```
#[derive(Debug)]
pub struct Scanner {
    inner: Inner,
}

#[derive(Debug)]
enum Inner {
    Scalar(Decoder),
    Dfa(DfaScanner),
}

impl Scanner {
    /// A scanner at the start of a stream.
    pub fn new(engine: Engine) -> Scanner {
        let inner = match engine {
            Engine::Scalar => Inner::Scalar(Decoder::new()),
            Engine::Dfa => Inner::Dfa(DfaScanner::default()),
        };
        Scanner { inner }
    }

    /// Feeds the next chunk, calling `f` for each event it completes.
    pub fn feed(&mut self, chunk: &[u8], mut f: impl FnMut(Event<'_>)) {
        match &mut self.inner {
            Inner::Scalar(d) => d.decode(chunk).for_each(&mut f),
            Inner::Dfa(d) => d.feed(chunk, &mut f),
        }
    }

    /// Ends the stream, calling `f` for the final `unexpected-end` error, if any.
    pub fn finish(&mut self, mut f: impl FnMut(Event<'_>)) {
        let last = match &mut self.inner {
            Inner::Scalar(d) => d.finish(),
            Inner::Dfa(d) => d.finish(),
        };
        if let Some(e) = last {
            f(Event::Error(e));
        }
    }
}

/// The DFA over a stream: each chunk is validated whole (after the bytes held from the last
/// one); an incomplete sequence at its end (the DFA's `unexpected-end`) is held for the next.
#[derive(Debug, Default)]
struct DfaScanner {
    buf: Vec<u8>,
    /// Bytes held at the end of the last chunk: a valid but incomplete prefix.
    held: Vec<u8>,
    /// Absolute offset of the first held byte.
    base: u64,
}

impl DfaScanner {
    fn feed(&mut self, chunk: &[u8], f: &mut impl FnMut(Event<'_>)) {
        self.buf.clear();
        self.buf.extend_from_slice(&self.held);
        self.buf.extend_from_slice(chunk);
        let buf = &self.buf[..];
        let mut pos = 0;
        let mut stop = buf.len();
        for e in utf8_dfa::errors(buf) {
            if e.kind() == ErrorKind::UnexpectedEnd {
                stop = e.offset();
                break;
            }
            text(&buf[pos..e.offset()], self.base + pos as u64, f);
            f(Event::Error(StreamError::from_error(self.base, buf, e)));
            pos = e.offset() + e.len();
        }
        text(&buf[pos..stop], self.base + pos as u64, f);
        self.held.clear();
        self.held.extend_from_slice(&buf[stop..]);
        self.base += stop as u64;
    }

    fn finish(&mut self) -> Option<StreamError> {
        let err = (!self.held.is_empty()).then(|| {
            let e = utf8_dfa::errors(&self.held).next().unwrap_or_else(|| {
                Utf8Error::new(0, self.held.len().min(3), ErrorKind::UnexpectedEnd)
            });
            StreamError::from_error(self.base, &self.held, e)
        });
        *self = DfaScanner::default();
        err
    }
}

/// Emits a run the DFA found valid. `std` checks it again (it must agree); should it not,
/// the codec's errors for the run are emitted instead of panicking, so the engines'
/// outputs differ visibly.
fn text(run: &[u8], base: u64, f: &mut impl FnMut(Event<'_>)) {
    if run.is_empty() {
        return;
    }
    match std::str::from_utf8(run) {
        Ok(s) => f(Event::Str(s)),
        Err(_) => {
            let mut pos = 0;
            for e in utf8_codec::errors(run) {
                if let Ok(s) = std::str::from_utf8(&run[pos..e.offset()]) {
                    f(Event::Str(s));
                }
                f(Event::Error(StreamError::from_error(base, run, e)));
                pos = e.offset() + e.len();
            }
            if let Ok(s) = std::str::from_utf8(&run[pos..]) {
                f(Event::Str(s));
            }
        }
    }
}
