//! The validators behind `--engine`, as one event stream: whichever engine finds the errors,
//! the caller sees the events of [`utf8_codec::stream::Decoder`] (valid runs, split
//! characters, errors with absolute offsets), so output cannot depend on the engine.

use utf8_codec::stream::{Decoder, Event};

use crate::args::Engine;
use crate::diag::ToolError;

/// The DFA engine, when this build has it.
pub(crate) fn dfa_engine() -> Result<Engine, ToolError> {
    Err(ToolError::Usage(
        "the dfa engine is not available in this build".to_string(),
    ))
}

/// A streaming validator fed chunks of any size, yielding [`Event`]s exactly as
/// [`Decoder`] does (its contract holds for every engine).
#[derive(Debug)]
pub struct Scanner {
    inner: Inner,
}

#[derive(Debug)]
enum Inner {
    Scalar(Decoder),
}

impl Scanner {
    /// A scanner at the start of a stream.
    pub fn new(engine: Engine) -> Scanner {
        match engine {
            Engine::Scalar | Engine::Dfa => Scanner {
                inner: Inner::Scalar(Decoder::new()),
            },
        }
    }

    /// Feeds the next chunk, calling `f` for each event it completes.
    pub fn feed(&mut self, chunk: &[u8], mut f: impl FnMut(Event<'_>)) {
        match &mut self.inner {
            Inner::Scalar(d) => d.decode(chunk).for_each(&mut f),
        }
    }

    /// Ends the stream, calling `f` for the final `unexpected-end` error, if any.
    pub fn finish(&mut self, mut f: impl FnMut(Event<'_>)) {
        match &mut self.inner {
            Inner::Scalar(d) => {
                if let Some(e) = d.finish() {
                    f(Event::Error(e));
                }
            }
        }
    }
}
