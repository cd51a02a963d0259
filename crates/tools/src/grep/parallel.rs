//! `-r` on several threads, printing exactly what one thread prints, in the same order.
//!
//! Workers take the inputs in walk order and search each into memory
//! ([`crate::capture`]): its standard output and its diagnostics, in the order written.
//! This thread shows them in input order, as the single-threaded loop would have written
//! them. Memory stays bounded: an input whose output grows past [`SPILL`] waits for its
//! turn and is then shown as it is searched (its worker hands over each [`SPILL`] bytes),
//! and a worker does not start another input while finished ones hold more than [`HELD`]
//! bytes, unless that input is the next to be shown.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use super::config::Config;
use super::printer::Printer;
use super::run::{FileId, Totals};
use super::sink::FileResult;
use crate::capture::{Captured, Spill};
use crate::diag::{Diag, ToolError};
use crate::exit::Status;
use crate::input::Input;
use crate::output::Output;

/// Output an input may hold before it must be shown (it then waits for its turn).
const SPILL: usize = 256 * 1024;

/// Output that finished inputs may hold, in all, before workers wait.
const HELD: usize = 32 * 1024 * 1024;

/// What a worker sends: part of the output of the input being shown, or an input's end.
enum Msg {
    Part(usize, Captured),
    Done(usize, Box<Done>),
}

/// An input searched.
struct Done {
    captured: Captured,
    /// Its result (`None`: it could not be searched), or the error that ends the run.
    result: Result<Option<FileResult>, ToolError>,
    status: Status,
}

/// What the workers and this thread share.
struct Shared {
    /// The next input to hand out.
    claim: AtomicUsize,
    /// Under `-q`: the first input known to have a selected line (none after it is needed).
    quiet_hit: AtomicUsize,
    /// The run ended (an output error, or `-q` satisfied): workers stop.
    abort: AtomicBool,
    turn: Mutex<Turn>,
    changed: Condvar,
}

struct Turn {
    /// The input being shown: all before it are.
    next: usize,
    /// Bytes held by finished inputs not yet shown.
    held: usize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Turn> {
        self.turn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until input `i` is being shown or `ready` holds; false when the run ended.
    fn wait_for(&self, i: usize, ready: impl Fn(&Turn) -> bool) -> bool {
        let mut t = self.lock();
        while t.next != i && !ready(&t) && !self.abort.load(Ordering::Relaxed) {
            t = self.changed.wait(t).unwrap_or_else(|e| e.into_inner());
        }
        !self.abort.load(Ordering::Relaxed)
    }
}

/// Searches `todo` on `cfg.threads` threads and shows the results in order, with the walk's
/// `errors` (each before the input of its index), as [`Config::run`]'s loop does.
pub(super) fn run(
    cfg: &Config,
    todo: &[(Input, bool)],
    errors: Vec<(usize, ToolError)>,
    output: Option<FileId>,
    out: &mut Output,
    diag: &mut Diag,
    matched: &mut bool,
) -> Result<(), ToolError> {
    let shared = Arc::new(Shared {
        claim: AtomicUsize::new(0),
        quiet_hit: AtomicUsize::new(usize::MAX),
        abort: AtomicBool::new(false),
        turn: Mutex::new(Turn { next: 0, held: 0 }),
        changed: Condvar::new(),
    });
    let (tx, rx) = channel::<Msg>();
    let threads = cfg.threads.min(todo.len());
    let program = diag.program();
    std::thread::scope(|s| {
        for _ in 0..threads {
            let (shared, tx) = (Arc::clone(&shared), tx.clone());
            s.spawn(move || work(cfg, todo, output, program, &shared, &tx));
        }
        drop(tx);
        let mut printer = Printer::new(cfg.style);
        let mut totals = Totals::default();
        let mut err_iter = errors.into_iter().peekable();
        let mut early: BTreeMap<usize, Box<Done>> = BTreeMap::new();
        let shown = (|| {
            for i in 0..todo.len() {
                while let Some((_, e)) = err_iter.next_if(|(j, _)| *j <= i) {
                    cfg.input_error(out, diag, &e);
                }
                let done = loop {
                    if let Some(d) = early.remove(&i) {
                        break d;
                    }
                    match rx.recv() {
                        Ok(Msg::Part(j, c)) => {
                            debug_assert_eq!(j, i, "only the input being shown hands over parts");
                            replay(c, &mut printer, out, diag)?;
                        }
                        Ok(Msg::Done(j, d)) if j == i => break d,
                        Ok(Msg::Done(j, d)) => {
                            early.insert(j, d);
                        }
                        // Every worker ended without input `i`: they stopped early.
                        Err(_) => return Ok(()),
                    }
                };
                let held = done.captured.len();
                replay(done.captured, &mut printer, out, diag)?;
                diag.record(done.status);
                if let Some(r) = done.result? {
                    totals.add(&r);
                    if r.selected > 0 {
                        *matched = true;
                        if cfg.settings.quiet {
                            return Ok(());
                        }
                    }
                }
                let mut t = shared.lock();
                t.next = i + 1;
                t.held -= held;
                drop(t);
                shared.changed.notify_all();
            }
            for (_, e) in err_iter {
                cfg.input_error(out, diag, &e);
            }
            cfg.finish(out, &totals)
        })();
        shared.abort.store(true, Ordering::Relaxed);
        drop(shared.lock());
        shared.changed.notify_all();
        shown
    })
}

/// A worker: searches the inputs it claims, in order, and sends what each wrote.
fn work(
    cfg: &Config,
    todo: &[(Input, bool)],
    output: Option<FileId>,
    program: &'static str,
    shared: &Arc<Shared>,
    tx: &Sender<Msg>,
) {
    let mut printer = Printer::new(cfg.style);
    loop {
        let i = shared.claim.fetch_add(1, Ordering::Relaxed);
        if i >= todo.len() || i > shared.quiet_hit.load(Ordering::Relaxed) {
            return;
        }
        if !shared.wait_for(i, |t| t.held <= HELD) {
            return;
        }
        let capture = Rc::new(RefCell::new(Captured::default()));
        let spill: Spill = {
            let (shared, tx) = (Arc::clone(shared), tx.clone());
            Box::new(move |c| {
                if !shared.wait_for(i, |_| false) || tx.send(Msg::Part(i, c)).is_err() {
                    return Err(io::Error::from(io::ErrorKind::BrokenPipe));
                }
                Ok(())
            })
        };
        let mut out = Output::capturing(Rc::clone(&capture), SPILL, spill);
        let mut diag = Diag::capturing(program, Rc::clone(&capture));
        printer.printed_any = false;
        let (input, show) = &todo[i];
        let result = cfg.search_input(input, *show, output, &mut out, &mut diag, &mut printer);
        if shared.abort.load(Ordering::Relaxed) {
            return;
        }
        if cfg.settings.quiet && matches!(result, Ok(Some(r)) if r.selected > 0) {
            shared.quiet_hit.fetch_min(i, Ordering::Relaxed);
        }
        drop(out);
        let captured = std::mem::take(&mut *capture.borrow_mut());
        shared.lock().held += captured.len();
        let done = Done {
            captured,
            result,
            status: diag.status(),
        };
        if tx.send(Msg::Done(i, Box::new(done))).is_err() {
            return;
        }
    }
}

/// Writes what an input wrote: standard output and its diagnostics, interleaved as they
/// were written (standard output is flushed before each diagnostic, as it was then), and
/// the `--` before its first group when something was printed before.
fn replay(
    c: Captured,
    printer: &mut Printer,
    out: &mut Output,
    diag: &Diag,
) -> Result<(), ToolError> {
    if c.leading_gap && printer.printed_any {
        printer.group_separator(out)?;
    }
    printer.printed_any |= !c.out.is_empty();
    let mut from = 0;
    for (at, line) in &c.err {
        out.write_all(&c.out[from..*at])?;
        out.flush()?;
        diag.raw_line(line);
        from = *at;
    }
    out.write_all(&c.out[from..])?;
    Ok(())
}
