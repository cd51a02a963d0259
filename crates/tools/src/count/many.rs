//! Counting the inputs of one run, each its line in the order given: one after another, or
//! (several files in a list known in advance, more than one thread) on a pool of threads
//! that count batches of files while this thread prints what they found in order, the
//! totals and the diagnostics as one thread would write them.
//!
//! A list read as it arrives (`--files0-from` a pipe) is counted on this thread, a file as
//! its name comes: each line appears as soon as its file is counted, as GNU wc writes it.
//! Standard input among the operands is counted on this thread too, in its turn.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, channel, sync_channel};

use super::config::Config;
use super::counter::Counter;
use super::files0::{Inputs, Item};
use super::quote::{quoted, requote, result_name};
use super::tally::{Mode, Tally};
use crate::diag::{Diag, ToolError};
use crate::input::Input;
use crate::output::Output;

/// Files a worker takes at a time: a hand-off costs about what counting a small file does.
const BATCH: usize = 32;
/// Inputs dispatched ahead of the one printed next, at most (their results wait in memory).
const AHEAD: usize = 64 * BATCH;

/// What counting one input gave.
enum Outcome {
    /// Its counts.
    Counted(Tally),
    /// A directory: GNU wc's message, then its line of zeros.
    Directory(ToolError),
    /// It could not be opened or read: the message only.
    Failed(ToolError),
    /// An entry of a `--files0-from` list that names no file.
    Invalid(ToolError),
}

/// Opens and counts `input`: a small regular file of the size `known` (its `stat` just
/// before), or whatever the open finds.
fn count_one(c: Counter, input: &Input, known: Option<u64>, mode: Mode) -> Outcome {
    let name = input.name();
    let opened = match known {
        Some(len) => input.open_known(len),
        None => input.open(),
    };
    match opened {
        Ok(source) => match c.count_source(source, mode, &name) {
            Ok(t) => Outcome::Counted(t),
            Err(e) => Outcome::Failed(ToolError::input(quoted(input), &e)),
        },
        Err(e) if input.is_dir() => Outcome::Directory(requote(e, input)),
        Err(e) => Outcome::Failed(requote(e, input)),
    }
}

/// Prints what counting `input` gave (its line, its diagnostic) and adds it to `total`.
fn show(
    cfg: &Config,
    input: Option<&Input>,
    outcome: Outcome,
    (out, diag): (&mut Output, &mut Diag),
    total: &mut Tally,
    width: usize,
) -> Result<(), ToolError> {
    let tally = match outcome {
        Outcome::Counted(t) => t,
        Outcome::Directory(e) => {
            diag.error(&e);
            Tally::default()
        }
        Outcome::Failed(e) | Outcome::Invalid(e) => {
            out.flush()?;
            diag.error(&e);
            return Ok(());
        }
    };
    total.add_input(&tally);
    if cfg.each
        && let Some(input) = input
    {
        let raw = input.raw_name();
        let shown = match input {
            Input::Stdin { named: false } => None,
            _ => Some(result_name(&raw)),
        };
        cfg.write_tally(out, &tally, Some(&input.name()), shown.as_deref(), width)?;
    }
    Ok(())
}

/// Counts every input of `inputs` into `total`, printing each line (with `cfg.each`) and
/// diagnostic in the order of the inputs; the number of entries. `sizes` holds, per input
/// known in advance, the size of a small regular file that a `stat` found (or `None`).
///
/// # Errors
///
/// The list of inputs cannot be read, or writing failed.
pub(super) fn count_all(
    cfg: &Config,
    inputs: &mut Inputs,
    sizes: &[Option<u64>],
    mode: Mode,
    (out, diag): (&mut Output, &mut Diag),
    total: &mut Tally,
    width: usize,
) -> Result<usize, ToolError> {
    let known = |i: usize| sizes.get(i).copied().flatten();
    let counter = cfg.counter();
    let threads = cfg
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads < 2 || inputs.is_stream() || inputs.known().len() < 2 {
        return cfg.each_input(inputs, out, diag, |input, i, out, diag| {
            let outcome = count_one(counter, input, known(i), mode);
            show(cfg, Some(input), outcome, (out, diag), total, width)
        });
    }
    let (jobs, queue) = sync_channel::<Batch>(threads * 2);
    let queue = &Mutex::new(queue);
    let (done, results) = channel::<Vec<Counted>>();
    std::thread::scope(move |s| {
        // (`jobs` and `done` are this closure's: a return from it ends the workers.)
        // This thread counts too, whenever the workers have enough queued: `threads`
        // threads in all, none waiting for a core.
        for _ in 1..threads {
            let done = done.clone();
            s.spawn(move || {
                loop {
                    let batch = match queue.lock().map(|q| q.recv()) {
                        Ok(Ok(batch)) => batch,
                        _ => return,
                    };
                    if done.send(count_batch(counter, batch, mode)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done);
        let mut shown = Shown {
            cfg,
            out,
            diag,
            total,
            width,
            next: 0,
            ready: BTreeMap::new(),
            counter,
            mode,
        };
        let mut batch = Vec::with_capacity(BATCH);
        let mut n = 0;
        while let Some(item) = inputs.next_item() {
            let i = n;
            n += 1;
            match item? {
                Item::Invalid(e) => {
                    shown.ready.insert(i, (None, Outcome::Invalid(e)));
                }
                Item::Input(input @ Input::Stdin { .. }) => {
                    // Counted here, in its turn, after every input before it.
                    if !batch.is_empty() {
                        shown.hand_off(&jobs, std::mem::take(&mut batch));
                    }
                    shown.until(i, &results, queue)?;
                    let outcome = count_one(counter, &input, None, mode);
                    shown.ready.insert(i, (Some(input), outcome));
                }
                Item::Input(input) => {
                    batch.push((i, input, known(i)));
                    if batch.len() == BATCH {
                        let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                        shown.hand_off(&jobs, full);
                    }
                }
            }
            shown.take_results(&results);
            shown.print_ready()?;
            if n - shown.next > AHEAD {
                shown.until(n - AHEAD, &results, queue)?;
            }
        }
        if !batch.is_empty() {
            shown.hand_off(&jobs, batch);
        }
        drop(jobs);
        shown.until(n, &results, queue)?;
        Ok(n)
    })
}

/// Inputs to count: each with its position and the size its `stat` found.
type Batch = Vec<(usize, Input, Option<u64>)>;
/// A counted input: its position, the input, what counting it gave.
type Counted = (usize, Input, Outcome);

/// Counts the inputs of `batch`.
fn count_batch(counter: Counter, batch: Batch, mode: Mode) -> Vec<Counted> {
    batch
        .into_iter()
        .map(|(i, input, len)| {
            let outcome = count_one(counter, &input, len, mode);
            (i, input, outcome)
        })
        .collect()
}

/// The printing side of [`count_all`]: results that came back, printed in order.
struct Shown<'a, 'o> {
    cfg: &'a Config,
    out: &'o mut Output,
    diag: &'o mut Diag,
    total: &'o mut Tally,
    width: usize,
    /// The position of the input to print next.
    next: usize,
    ready: BTreeMap<usize, (Option<Input>, Outcome)>,
    counter: Counter,
    mode: Mode,
}

impl Shown<'_, '_> {
    /// Prints the results that follow the last one printed, in order.
    fn print_ready(&mut self) -> Result<(), ToolError> {
        while let Some((input, outcome)) = self.ready.remove(&self.next) {
            show(
                self.cfg,
                input.as_ref(),
                outcome,
                (self.out, self.diag),
                self.total,
                self.width,
            )?;
            self.next += 1;
        }
        Ok(())
    }

    /// Queues `batch` for the workers, or counts it here when they have enough queued.
    fn hand_off(&mut self, jobs: &SyncSender<Batch>, batch: Batch) {
        if let Err(TrySendError::Full(batch) | TrySendError::Disconnected(batch)) =
            jobs.try_send(batch)
        {
            self.counted(count_batch(self.counter, batch, self.mode));
        }
    }

    /// Keeps counted inputs until their turn to be printed.
    fn counted(&mut self, batch: Vec<Counted>) {
        for (i, input, outcome) in batch {
            self.ready.insert(i, (Some(input), outcome));
        }
    }

    /// Keeps the results the workers have sent so far.
    fn take_results(&mut self, results: &Receiver<Vec<Counted>>) {
        while let Ok(batch) = results.try_recv() {
            self.counted(batch);
        }
    }

    /// Waits for results until every input before position `upto` is printed, counting
    /// queued batches here meanwhile.
    fn until(
        &mut self,
        upto: usize,
        results: &Receiver<Vec<Counted>>,
        queue: &Mutex<Receiver<Batch>>,
    ) -> Result<(), ToolError> {
        self.print_ready()?;
        while self.next < upto {
            self.take_results(results);
            // (Not `lock`: a worker waits for the next batch holding the lock.)
            let queued = queue.try_lock().ok().and_then(|q| q.try_recv().ok());
            if let Some(batch) = queued {
                self.counted(count_batch(self.counter, batch, self.mode));
            } else if self.ready.contains_key(&self.next) {
                // Printed below.
            } else {
                let Ok(batch) = results.recv() else {
                    return Err(ToolError::Input {
                        path: "-".into(),
                        message: "a counting thread stopped".into(),
                    });
                };
                self.counted(batch);
            }
            self.print_ready()?;
        }
        Ok(())
    }
}
