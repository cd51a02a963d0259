//! `-r` on several threads, printing exactly what one thread prints, in the same order.
//!
//! The workers take turns at the walk ([`Config::entries`]): one lists the next [`BLOCK`]
//! inputs into its own queue under the walk's lock (no walking thread to compete with them
//! for the cores, no wake-up per input found) and searches them in order; once the walk is
//! over, a worker whose queue is empty takes inputs from the back of the longest other one
//! (a few large files do not leave a worker idle). It searches each into memory
//! ([`crate::capture`]): its standard output and its diagnostics, in the order written, and
//! sends the searched inputs [`SEND`] at a time; this thread takes those it has not sent
//! itself after waiting [`LATENCY`] for them (a worker may be blocked: a FIFO named on the
//! command line, a slow disk, a long file). This thread shows them in input order with the
//! walk's trouble where it was met, as the single-threaded loop would have written them.
//!
//! Memory stays bounded: an input whose output grows past [`SPILL`] keeps it in parts while
//! the output held in all stays under [`KEEP`] bytes, and then waits for its turn and is
//! shown as it is searched (its worker hands over each [`SPILL`] bytes); a worker does not
//! start another input while the inputs searched hold more than [`HELD`] bytes, unless that
//! input is the next to be shown.

use std::cell::Cell;
use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::config::Config;
use super::job::{Entry, FileId, Job, Totals, Trouble};
use super::printer::{Printer, replay};
use super::sink::FileResult;
use crate::capture::{Capture, Captured, Spill};
use crate::diag::{Diag, ToolError};
use crate::exit::Status;
use crate::input::{Input, Root};
use crate::output::Output;

/// Output an input may hold in one piece: past it, the piece is kept aside (see [`KEEP`]) or
/// handed over at the input's turn.
const SPILL: usize = 256 * 1024;

/// Output that the inputs searched may hold, in all, before workers wait.
const HELD: usize = 32 * 1024 * 1024;

/// Output held in all below which an input not yet at its turn keeps its parts of [`SPILL`]
/// bytes rather than wait for its turn.
const KEEP: usize = HELD / 4;

/// Inputs listed at one turn at the walk (fewer at its end): consecutive inputs for each
/// worker, which measured faster than workers taking single inputs from one shared queue
/// (BENCHMARKS.md).
const BLOCK: usize = 64;

/// Searched inputs a worker sends at once (or fewer holding [`SPILL`] bytes of output, or
/// the first searched [`LATENCY`] ago, and whatever it holds before it waits or stops): one
/// message and one wake-up of the showing thread per [`SEND`] inputs, whose wake-ups would
/// otherwise take the cores from the workers.
const SEND: usize = 256;

/// How long a worker may hold searched inputs before it sends them (checked after each
/// input), and how long the showing thread waits for a message before it takes them.
const LATENCY: Duration = Duration::from_millis(20);

/// Inputs searched, each with its index, in input order.
type Batch = Vec<(usize, Box<Done>)>;

/// What the walker and the workers send.
enum Msg {
    /// Inputs searched.
    Batch(Batch),
    /// Part of the output of the input being shown.
    Part(usize, Captured),
    /// The walk met trouble before the input of this index.
    Trouble(usize, Trouble),
    /// The walk ended: this many inputs.
    Walked(usize),
}

/// An input searched.
struct Done {
    /// What it wrote before `captured`, in parts of [`SPILL`] bytes it kept while it was not
    /// its turn (see [`Worker::search`]).
    early: Vec<Captured>,
    captured: Captured,
    /// Its result (`None`: it could not be searched), or the error that ends the run.
    result: Result<Option<FileResult>, ToolError>,
    status: Status,
}

impl Done {
    /// Bytes of output it holds.
    fn len(&self) -> usize {
        self.early.iter().map(Captured::len).sum::<usize>() + self.captured.len()
    }
}

/// What the workers and the showing thread share.
struct Shared {
    /// Under `-q`: the first input known to have a selected line (none after it is needed).
    quiet_hit: AtomicUsize,
    /// The run ended (an output error, or `-q` satisfied): workers stop.
    abort: AtomicBool,
    /// The input being shown: all before it are (changed under `waiting`'s lock).
    next: AtomicUsize,
    /// Bytes held by inputs searched and not yet shown, and by the parts kept by inputs
    /// being searched (lowered under `waiting`'s lock, see [`Shared::release`]).
    held: AtomicUsize,
    /// Workers waiting on `changed`.
    waiting: Mutex<usize>,
    changed: Condvar,
    /// The inputs each worker searched and has not sent yet.
    pending: Vec<Mutex<Batch>>,
    /// The parts of their output that inputs being searched keep before their turn (see
    /// [`Worker::search`]), by input.
    kept: Mutex<BTreeMap<usize, Vec<Captured>>>,
}

/// The walk: what is left of it and how many inputs it listed so far.
struct Walk<'c> {
    entries: Box<dyn Iterator<Item = Entry> + Send + 'c>,
    found: usize,
    over: bool,
}

/// An input listed by the walk: its index, the input, whether its name is shown, the
/// directory of the walk that found it (held open).
type Listed = (usize, Input, bool, Option<Arc<Root>>);

/// The walk and the inputs it listed that no worker took yet, a queue for each worker.
struct Inputs<'c> {
    walk: Mutex<Walk<'c>>,
    queues: Vec<Mutex<VecDeque<Listed>>>,
}

impl<'c> Inputs<'c> {
    /// The inputs of `entries`, for `workers` workers.
    fn new(entries: Box<dyn Iterator<Item = Entry> + Send + 'c>, workers: usize) -> Inputs<'c> {
        Inputs {
            walk: Mutex::new(Walk {
                entries,
                found: 0,
                over: false,
            }),
            queues: (0..workers).map(|_| Mutex::new(VecDeque::new())).collect(),
        }
    }

    fn queue(&self, w: usize) -> MutexGuard<'_, VecDeque<Listed>> {
        self.queues[w].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Worker `me`'s next input: the front of its queue, else the next block of the walk,
    /// else (the walk is over) the back of the longest other queue; `None` when there is
    /// none left or the run ended.
    fn next(&self, me: usize, shared: &Shared, tx: &Sender<Msg>) -> Option<Listed> {
        if let Some(listed) = self.queue(me).pop_front() {
            return Some(listed);
        }
        let mut walk = self.walk.lock().unwrap_or_else(|e| e.into_inner());
        let mut block = list(&mut walk, shared, tx).into_iter();
        let first = block.next();
        if first.is_some() {
            self.queue(me).extend(block);
            return first;
        }
        drop(walk);
        // The walk is over: the back of the longest queue, until all are empty.
        while !shared.ended() {
            let (len, w) = (0..self.queues.len())
                .map(|w| (self.queue(w).len(), w))
                .max()?;
            if len == 0 {
                return None;
            }
            // (None: emptied meanwhile; look again.)
            if let Some(listed) = self.queue(w).pop_back() {
                return Some(listed);
            }
        }
        None
    }
}

/// The next [`BLOCK`] inputs of the walk, in order, each with its index (fewer at its end,
/// none after it or once the run ended); the trouble met on the way goes to the showing
/// thread.
fn list(walk: &mut Walk<'_>, shared: &Shared, tx: &Sender<Msg>) -> Vec<Listed> {
    let mut block = Vec::new();
    while block.len() < BLOCK && !walk.over && !shared.ended() {
        let n = walk.found;
        match walk.entries.next() {
            Some(Entry::Input(input, show, root)) => {
                block.push((n, input, show, root));
                walk.found += 1;
            }
            Some(Entry::Trouble(t)) => {
                let _ = tx.send(Msg::Trouble(n, t));
            }
            None => {
                walk.over = true;
                let _ = tx.send(Msg::Walked(n));
            }
        }
    }
    block
}

impl Shared {
    fn new(workers: usize) -> Shared {
        Shared {
            quiet_hit: AtomicUsize::new(usize::MAX),
            abort: AtomicBool::new(false),
            next: AtomicUsize::new(0),
            held: AtomicUsize::new(0),
            waiting: Mutex::new(0),
            changed: Condvar::new(),
            pending: (0..workers).map(|_| Mutex::default()).collect(),
            kept: Mutex::default(),
        }
    }

    fn kept(&self) -> MutexGuard<'_, BTreeMap<usize, Vec<Captured>>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Worker `w`'s inputs searched and not sent.
    fn pending(&self, w: usize) -> MutexGuard<'_, Batch> {
        self.pending[w].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends worker `w`'s pending inputs, if any; false when nobody listens any more.
    fn send(&self, w: usize, tx: &Sender<Msg>) -> bool {
        let b = std::mem::take(&mut *self.pending(w));
        b.is_empty() || tx.send(Msg::Batch(b)).is_ok()
    }

    /// Takes every worker's pending inputs (for the showing thread).
    fn take_pending(&self, into: &mut BTreeMap<usize, Box<Done>>) {
        for w in 0..self.pending.len() {
            into.extend(std::mem::take(&mut *self.pending(w)));
        }
    }

    fn lock(&self) -> MutexGuard<'_, usize> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn ended(&self) -> bool {
        self.abort.load(Ordering::Relaxed)
    }

    /// Whether input `i` is being shown, or finished inputs hold little enough that
    /// another may be searched (when `room`).
    fn ready(&self, i: usize, room: bool) -> bool {
        self.next.load(Ordering::Acquire) == i
            || (room && self.held.load(Ordering::Acquire) <= HELD)
            || self.ended()
    }

    /// Waits until [`Shared::ready`]; false when the run ended.
    fn wait_for(&self, i: usize, room: bool) -> bool {
        if !self.ready(i, room) {
            let mut waiting = self.lock();
            *waiting += 1;
            while !self.ready(i, room) {
                waiting = self
                    .changed
                    .wait(waiting)
                    .unwrap_or_else(|e| e.into_inner());
            }
            *waiting -= 1;
        }
        !self.ended()
    }

    /// Input `next` is the one to show now; `shown` bytes held are no longer.
    fn advance(&self, next: usize, shown: usize) {
        self.lower(Some(next), shown);
    }

    /// `bytes` held are no longer: workers waiting for room are woken.
    fn release(&self, bytes: usize) {
        self.lower(None, bytes);
    }

    fn lower(&self, next: Option<usize>, bytes: usize) {
        let waiting = self.lock();
        if let Some(n) = next {
            self.next.store(n, Ordering::Release);
        }
        self.held.fetch_sub(bytes, Ordering::AcqRel);
        if *waiting > 0 {
            self.changed.notify_all();
        }
    }

    /// Ends the run: every worker stops at its next step.
    fn end(&self) {
        let waiting = self.lock();
        self.abort.store(true, Ordering::Relaxed);
        self.changed.notify_all();
        drop(waiting);
    }
}

/// Searches the inputs of `cfg` on `cfg.threads()` threads and shows the results in order,
/// with the walk's trouble where it was met, as [`Config::run`]'s loop does.
pub(super) fn run(
    cfg: &Config,
    output: Option<FileId>,
    out: &mut Output,
    diag: &mut Diag,
    matched: &mut bool,
) -> Result<(), ToolError> {
    let inputs = Inputs::new(Box::new(cfg.entries()), cfg.threads());
    let shared = Arc::new(Shared::new(cfg.threads()));
    let (tx, rx) = channel::<Msg>();
    let program = diag.program();
    std::thread::scope(|s| {
        for me in 0..cfg.threads() {
            let worker = Worker {
                me,
                cfg,
                output,
                program,
                inputs: &inputs,
                lines: out.flushes_lines(),
                shared: Arc::clone(&shared),
                tx: tx.clone(),
            };
            s.spawn(move || worker.run());
        }
        drop(tx);
        let mut printer = Printer::new(cfg.style.clone());
        let mut totals = Totals::default();
        let mut trouble: VecDeque<(usize, Trouble)> = VecDeque::new();
        let mut walked = None;
        let mut early: BTreeMap<usize, Box<Done>> = BTreeMap::new();
        let mut i = 0;
        let shown = (|| {
            loop {
                while trouble.front().is_some_and(|(j, _)| *j <= i) {
                    if let Some((_, t)) = trouble.pop_front() {
                        cfg.trouble(out, diag, &t);
                    }
                }
                if walked == Some(i) {
                    break;
                }
                let Some(done) = early.remove(&i) else {
                    match rx.recv_timeout(LATENCY) {
                        Ok(Msg::Batch(b)) => early.extend(b),
                        Err(RecvTimeoutError::Timeout) => {
                            // A worker may be blocked: what it searched, and what the input
                            // to show wrote so far.
                            shared.take_pending(&mut early);
                            if !early.contains_key(&i) {
                                let parts = shared.kept().remove(&i).unwrap_or_default();
                                let n = parts.iter().map(Captured::len).sum();
                                for part in parts {
                                    replay(part, &mut printer, out, diag)?;
                                }
                                shared.release(n);
                            }
                        }
                        Ok(Msg::Part(j, c)) => {
                            debug_assert_eq!(j, i, "only the input being shown hands over parts");
                            replay(c, &mut printer, out, diag)?;
                        }
                        Ok(Msg::Trouble(j, e)) => trouble.push_back((j, e)),
                        Ok(Msg::Walked(n)) => walked = Some(n),
                        // Everyone ended without input `i`: they stopped early.
                        Err(RecvTimeoutError::Disconnected) => return Ok(()),
                    }
                    continue;
                };
                let held = done.len();
                for part in done.early {
                    replay(part, &mut printer, out, diag)?;
                }
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
                i += 1;
                shared.advance(i, held);
            }
            cfg.finish(out, &totals)
        })();
        shared.end();
        shown
    })
}

/// A searching thread: takes inputs (its own in order, then others' from their back) and
/// sends what each wrote.
struct Worker<'s, 'c> {
    /// Its queue in [`Inputs`].
    me: usize,
    cfg: &'c Config,
    output: Option<FileId>,
    program: &'static str,
    inputs: &'s Inputs<'c>,
    /// Standard output is flushed at each line (`--line-buffered`, a terminal): so is the
    /// input being shown (see [`Worker::search`]).
    lines: bool,
    shared: Arc<Shared>,
    tx: Sender<Msg>,
}

impl Worker<'_, '_> {
    fn run(self) {
        let mut printer = Printer::new(self.cfg.style.clone());
        let capture: Capture = Rc::default();
        let spiller = Rc::new(Spiller {
            shared: Arc::clone(&self.shared),
            tx: self.tx.clone(),
            me: self.me,
            lines: self.lines,
            kept: Cell::new(false),
        });
        let send = || self.shared.send(self.me, &self.tx);
        // The output of the inputs in the batch, and when the first was added.
        let (mut bytes, mut since) = (0, Instant::now());
        while let Some((i, input, show, root)) = self.inputs.next(self.me, &self.shared, &self.tx) {
            if i > self.shared.quiet_hit.load(Ordering::Relaxed) || self.shared.ended() {
                break;
            }
            // Before waiting, hand over what the showing thread may be waiting for.
            let go = self.shared.ready(i, true) || (send() && self.shared.wait_for(i, true));
            if !go {
                return;
            }
            let done = self.search(
                i,
                (&input, root.as_deref()),
                show,
                (&mut printer, &capture, &spiller),
            );
            // The kept parts are counted in `held` already.
            self.shared
                .held
                .fetch_add(done.captured.len(), Ordering::AcqRel);
            let len = done.len();
            let mut held = self.shared.pending(self.me);
            held.push((i, Box::new(done)));
            if held.len() == 1 {
                (bytes, since) = (0, Instant::now());
            }
            bytes += len;
            let full = held.len() >= SEND || bytes >= SPILL || since.elapsed() >= LATENCY;
            drop(held);
            if full && !send() {
                return;
            }
        }
        send();
    }

    /// Searches input `i` into memory, its output into `capture` (the worker's, emptied
    /// again before it returns). Its output is kept in parts of [`SPILL`] bytes while the
    /// output held in all stays under [`KEEP`]; past that, the worker waits for the input's
    /// turn and hands over its parts as they come (the kept ones first). With `lines`, a
    /// part ends at each line: the input being shown is shown a line at a time.
    fn search(
        &self,
        i: usize,
        (input, root): (&Input, Option<&Root>),
        show: bool,
        (printer, capture, spiller): (&mut Printer, &Capture, &Rc<Spiller>),
    ) -> Done {
        let spill: Spill = {
            let spiller = Rc::clone(spiller);
            Box::new(move |c| spiller.spill(i, c))
        };
        let mut out = Output::capturing(Rc::clone(capture), SPILL, spill);
        if self.lines {
            out.flush_lines();
        }
        let mut diag = Diag::capturing(self.program, Rc::clone(capture));
        printer.printed_any = false;
        let job = Job {
            input,
            root,
            show,
            whole: false,
        };
        let result = self
            .cfg
            .search_input(job, self.output, &mut out, &mut diag, printer);
        if self.cfg.settings.quiet && matches!(result, Ok(Some(r)) if r.selected > 0) {
            self.shared.quiet_hit.fetch_min(i, Ordering::Relaxed);
        }
        drop(out);
        let captured = std::mem::take(&mut *capture.borrow_mut());
        // Only an input that kept parts has an entry (the lock is shared by the workers).
        let early = if spiller.kept.replace(false) {
            self.shared.kept().remove(&i).unwrap_or_default()
        } else {
            Vec::new()
        };
        Done {
            early,
            captured,
            result,
            status: diag.status(),
        }
    }
}

/// What a worker's capturing outputs do with a full part of an input's output (one per
/// worker: an input's output takes a counted reference to it, not to what it shares).
struct Spiller {
    shared: Arc<Shared>,
    tx: Sender<Msg>,
    /// The worker's queue.
    me: usize,
    lines: bool,
    /// The input being searched kept parts (it has an entry in [`Shared::kept`]).
    kept: Cell<bool>,
}

impl Spiller {
    /// Part `c` of input `i`'s output: kept when it is not the input's turn and there is
    /// room for it (the worker goes on; it would wait idle for every input before this one
    /// to be shown), else handed over at the input's turn, after the parts kept.
    fn spill(&self, i: usize, c: Captured) -> io::Result<()> {
        let shared = &self.shared;
        let len = c.len();
        if shared.next.load(Ordering::Acquire) != i
            && shared.held.load(Ordering::Acquire) + len <= KEEP
        {
            shared.held.fetch_add(len, Ordering::AcqRel);
            let mut kept = shared.kept();
            self.kept.set(true);
            let early = kept.entry(i).or_default();
            // A line at a time (`lines`): joined into parts of up to SPILL bytes.
            let rest = match early.last_mut() {
                Some(last) if self.lines && last.len() + len <= SPILL => last.append(c).err(),
                _ => Some(c),
            };
            if let Some(mut c) = rest {
                c.out.shrink_to_fit();
                early.push(c);
            }
            return Ok(());
        }
        if !(shared.send(self.me, &self.tx) && shared.wait_for(i, false)) {
            return Err(io::Error::from(io::ErrorKind::BrokenPipe));
        }
        // Its turn: the parts kept (no longer held) first, those the showing thread has not
        // taken.
        let kept = shared.kept().remove(&i).unwrap_or_default();
        shared.release(kept.iter().map(Captured::len).sum());
        for part in kept.into_iter().chain([c]) {
            if self.tx.send(Msg::Part(i, part)).is_err() {
                return Err(io::Error::from(io::ErrorKind::BrokenPipe));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
