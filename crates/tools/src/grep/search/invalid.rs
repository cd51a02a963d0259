//! `--invalid=report` in a search: the invalid UTF-8 of the text searched, found by the
//! `--engine` decoder as the lines are searched, or, in text decoded from another encoding,
//! the sequences the transcoder found malformed; each reported where it is in the file,
//! at the line and column of the text.

use utf8_codec::stream::{Event, StreamError};

use super::super::sink::Sink;
use super::FileSearch;
use crate::position::LineTracker;
use crate::report::{ErrorReport, Located, Malformed};

impl FileSearch<'_> {
    /// Reports the invalid sequences of `data[fed..upto]`.
    pub(super) fn feed(&mut self, upto: usize) {
        let Some(r) = &mut self.report else { return };
        if upto <= r.fed {
            return;
        }
        let whole = self.data.bytes();
        let (base, origin) = (self.base, r.origin);
        let (sink, path) = (&mut *self.sink, self.diag_name);
        let tracker = &mut r.tracker;
        if let Some((list, encoding)) = r.malformed {
            // Decoded text: each malformed sequence is one U+FFFD in it.
            let mut p = r.fed;
            let mut list = list.borrow_mut();
            while let Some(b) = list.front().filter(|b| b.decoded < base + upto as u64) {
                let at = usize::try_from(b.decoded - base).map_or(p, |d| d.max(p));
                tracker.text(&whole[p..at]);
                let located = Located {
                    path,
                    line: tracker.line(),
                    column: tracker.column(),
                    offset: b.offset,
                    bytes: &b.bytes,
                };
                sink.invalid(&Malformed {
                    at: located,
                    encoding: encoding.name(),
                });
                tracker.error();
                p = (at + 3).min(upto);
                list.pop_front();
            }
            tracker.text(&whole[p..upto]);
            r.fed = upto;
            return;
        }
        r.scanner.feed(&whole[r.fed..upto], |ev| match ev {
            Event::Str(s) => tracker.text(s.as_bytes()),
            Event::Char(c) => tracker.char(c),
            Event::Error(e) => {
                let e = shifted(e, origin);
                let after = e
                    .offset()
                    .checked_sub(base)
                    .map(|i| i as usize + e.len())
                    .and_then(|i| whole.get(i..(i + 8).min(whole.len())))
                    .unwrap_or(&[]);
                invalid(sink, path, &e, after, tracker);
                tracker.error();
            }
        });
        r.fed = upto;
    }

    /// Reports what is left at the end of the input: a sequence cut by it.
    pub(super) fn finish_report(&mut self) {
        let Some(r) = &mut self.report else { return };
        let (sink, path, tracker) = (&mut *self.sink, self.diag_name, &r.tracker);
        if r.malformed.is_some() {
            // (The transcoder's last malformed sequence is in the text, fed already.)
            return;
        }
        r.scanner.finish(|ev| {
            if let Event::Error(e) = ev {
                invalid(sink, path, &e, &[], tracker);
            }
        });
    }
}

/// `e`, found by a decoder that started at offset `origin` of the input.
fn shifted(e: StreamError, origin: u64) -> StreamError {
    if origin == 0 {
        return e;
    }
    let at = utf8_codec::Utf8Error::new(0, e.len(), e.kind());
    StreamError::from_error(origin + e.offset(), e.bytes(), at)
}

/// Reports an invalid sequence at the tracker's line and column.
fn invalid(sink: &mut dyn Sink, path: &str, e: &StreamError, after: &[u8], t: &LineTracker) {
    sink.invalid(&ErrorReport::new(path, e, after, t.line(), t.column()));
}
