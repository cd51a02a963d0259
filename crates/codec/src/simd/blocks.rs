//! The block loop, written once: 64-byte blocks checked with the lookup algorithm of
//! `generic.rs`, whole ASCII blocks skipped by one test. Its users differ only in what they do
//! besides checking, a [`Visit`] each: validation (`lean.rs`, nothing), counting
//! (`counting.rs`, per vector and per ASCII block) and validate-and-copy (`copy.rs`, each
//! block once checked). Each ends its input (the tail under a block, a block that failed) in
//! its own way.

use super::generic::{Tables, Vector, check, check3};

/// Bytes per block: the unit every kernel's loop checks (and the dense scanner reads) at a
/// time, whatever its vector width.
pub(crate) const BLOCK: usize = 64;

/// How far ahead of the block being checked the block loops ask for the cache line: 2 KiB,
/// measured best on large inputs (against 128 bytes, as simdutf8, up to 1 KiB and 4 KiB or
/// more), with no loss on input that fits in L1 or L2.
pub(crate) const PREFETCH: usize = 2048;

/// [`PREFETCH`] for counting a large input ([`Visit::AHEAD`]): 8 KiB. An input that is not
/// in the cache arrives faster the further ahead it is asked for, up to the point where the
/// lines asked for crowd out the ones in use: 8 KiB measured best for counting (16 KiB no
/// better than 2 KiB on mixed text), and validation goes further still
/// ([`FAR_CHECK_PREFETCH`]). BENCHMARKS.md has the figures ("Prefetch distances").
pub(crate) const FAR_PREFETCH: usize = 8192;

/// [`FAR_PREFETCH`] for validation alone ([`Check`]): 16 KiB. Validation does less work a
/// block than counting, so its loads wait on memory sooner and a longer distance pays;
/// measured a little better than 8 KiB with AVX-512, alike with AVX2 (BENCHMARKS.md,
/// "Prefetch distances").
pub(crate) const FAR_CHECK_PREFETCH: usize = 16384;

/// What one use of [`blocks`] does besides checking. Every method is inlined into the loop;
/// the defaults do nothing.
///
/// # Safety
///
/// The methods are called only on a CPU with `V`'s ISA, with pointers to readable blocks; an
/// implementation may rely on that and on nothing else.
pub(crate) trait Visit<V: Vector> {
    /// The errors of every block are or-ed and tested once, after the loop (two
    /// instructions less per block where input is usually valid), instead of after each
    /// block.
    const BASIC: bool = false;
    /// ASCII blocks are skipped after one test of their high bits. Without, every block is
    /// checked in full: a short input, where an ASCII block among others would be a branch
    /// on the data, mispredicted as often as not in mixed text.
    const SKIP_ASCII: bool = true;
    /// The cache line [`AHEAD`](Visit::AHEAD) bytes ahead is asked for (not worth it in a
    /// short input).
    const PREFETCHES: bool = true;
    /// With `SKIP_ASCII`, blocks after one that is not ASCII are checked untested (see
    /// [`blocks`]).
    const STREAKS: bool = true;
    /// How far ahead of the block the cache line is asked for: [`PREFETCH`], or for a large
    /// input whose blocks mostly come from memory [`FAR_PREFETCH`] (counting) or
    /// [`FAR_CHECK_PREFETCH`] (validation).
    const AHEAD: usize = PREFETCH;
    /// The bytes before a vector may be loaded, where [`Vector::PREV_LOADS`] (not for a large
    /// input where not [`Vector::FAR_PREV_LOADS`]).
    const PREV_LOADS: bool = true;

    /// Called before the block at `o` (of the input at the loop's `ptr`) is tested or, in a
    /// run of untested blocks, checked: another prefetch, for one.
    ///
    /// # Safety
    ///
    /// Only on a CPU with `V`'s ISA.
    #[inline(always)]
    unsafe fn before(&mut self, o: usize) {
        let _ = o;
    }

    /// The 64 bytes at `block` are ASCII (with nothing incomplete before them): skipped.
    ///
    /// # Safety
    ///
    /// Only on a CPU with `V`'s ISA; `block..block + 64` is readable.
    #[inline(always)]
    unsafe fn ascii(&mut self, block: *const u8) {
        let _ = block;
    }

    /// One vector of a block being checked, in order.
    ///
    /// # Safety
    ///
    /// Only on a CPU with `V`'s ISA.
    #[inline(always)]
    unsafe fn vector(&mut self, input: V) {
        let _ = input;
    }

    /// The block whose vectors were just given is valid so far (its last sequence may go on
    /// into the next). Not called with `BASIC`, where the errors are tested at the end.
    #[inline(always)]
    fn valid(&mut self) {}

    /// The block at `o` is done: ASCII or checked (and valid, unless `BASIC`).
    ///
    /// # Safety
    ///
    /// Only on a CPU with `V`'s ISA; `ptr + o .. ptr + o + 64` is readable.
    #[inline(always)]
    unsafe fn done(&mut self, ptr: *const u8, o: usize) {
        let _ = (ptr, o);
    }
}

/// The most blocks [`blocks`] checks in full, untested, after one that was not ASCII.
const UNTESTED: u32 = 31;

/// The state of the loop between blocks, which the callers start and end with.
#[derive(Clone, Copy)]
pub(crate) struct Cursor<V> {
    /// The start of the next block.
    pub(crate) o: usize,
    /// The last vector of the last block checked (only its last 3 bytes matter, and ASCII is
    /// as good as none).
    pub(crate) prev: V,
    /// The high bit set where the last block checked ends inside a sequence (see
    /// `INCOMPLETE_HIGH`): or-ed into the ASCII test, so that an ASCII block after one is
    /// checked in full, which reports the sequence as too short, with no branch of its own.
    pub(crate) incomplete: V,
    /// The errors found (nonzero bytes): of the block that failed, or with `BASIC` of every
    /// block checked.
    pub(crate) error: V,
}

impl<V: Vector> Cursor<V> {
    /// At `o`, with nothing before it.
    #[inline(always)]
    pub(crate) fn at(t: &Tables<V>, o: usize) -> Cursor<V> {
        Cursor {
            o,
            prev: t.zero,
            incomplete: t.zero,
            error: t.zero,
        }
    }
}

/// Checks the whole 64-byte blocks of `ptr..ptr + len` from `c.o`, calling `visit` for each.
/// Returns `false` when a block fails (not with `BASIC`): `c.o` is then its start and
/// `c.error` its errors; else `true`, with `c.o` the start of the tail (under one block)
/// and, with `BASIC`, the errors of all blocks in `c.error`.
///
/// With `SKIP_ASCII`, a block is first tested for ASCII. Where tests one after another find
/// blocks that are not (each the first after the untested run of the one before), the blocks
/// after the last one are checked in full untested, 1, 3, 7, ... up to [`UNTESTED`] of them,
/// as they would most likely be anyway: in text of other scripts the test is paid once in
/// many blocks (measured faster on mixed-script text with both AVX-512 and AVX2:
/// BENCHMARKS.md, "Untested blocks"), and in ASCII text with a few other characters here and
/// there nothing changes.
///
/// With [`Vector::PREV_LOADS`] (and [`Visit::PREV_LOADS`]), a block at 3 or more bytes from
/// `ptr` is checked with the 3 bytes before it loaded from `ptr`'s buffer, not taken from
/// `c.prev`: a caller that starts at such a `c.o` must have there the bytes `c.prev` ends
/// with, or ASCII bytes where those are ASCII or `c.prev` is zero (all ASCII bytes before a
/// block check alike).
///
/// # Safety
///
/// Only on a CPU with `V`'s ISA; `ptr..ptr + len` readable; `c.o <= len`.
#[inline(always)]
pub(crate) unsafe fn blocks<V: Vector, S: Visit<V>>(
    t: &Tables<V>,
    ptr: *const u8,
    len: usize,
    c: &mut Cursor<V>,
    visit: &mut S,
) -> bool {
    let Cursor {
        mut o,
        mut prev,
        mut incomplete,
        mut error,
    } = *c;
    let n = V::LANES;
    // The last start of a whole block, plus one (0: none).
    let ends = (len + 1).saturating_sub(BLOCK);
    // Blocks checked in full after the next test that finds text that is not ASCII, if it
    // is at `run_end`, where the last such run ended.
    let (mut streak, mut run_end) = (0u32, usize::MAX);
    let (ahead, prev_loads) = (S::AHEAD, S::PREV_LOADS && V::PREV_LOADS);
    // SAFETY: V's ISA (the caller's contract). Every load reads `n` bytes at `ptr + o + k - d`
    // with `d <= 3`, `d <= o` (`d > 0` only where `o >= 3`) and `o + k + n <= o + BLOCK <=
    // len`; a prefetch reads nothing (its address may be past the end: `wrapping_add`
    // computes it without claiming it is in bounds).
    unsafe {
        while o < ends {
            // The blocks from `o` to `stop` are checked in full, untested.
            let mut stop = ends;
            if S::SKIP_ASCII {
                if S::PREFETCHES {
                    V::prefetch(ptr.wrapping_add(o + ahead));
                }
                visit.before(o);
                if !high::<V>(ptr.add(o), 1).or(incomplete).any_high_bit() {
                    visit.ascii(ptr.add(o));
                    prev = t.zero;
                    visit.done(ptr, o);
                    o += BLOCK;
                    continue;
                }
                if S::STREAKS {
                    streak = if o == run_end {
                        (2 * streak + 1).min(UNTESTED)
                    } else {
                        0
                    };
                    stop = ends.min(o + (streak as usize + 1) * BLOCK);
                }
            }
            // The tested block had its prefetch and `before`.
            let mut first = S::SKIP_ASCII;
            loop {
                if !first {
                    if S::PREFETCHES {
                        V::prefetch(ptr.wrapping_add(o + ahead));
                    }
                    visit.before(o);
                }
                first = false;
                // Without `BASIC` the errors so far are zero (a block with errors returned),
                // but the compiler cannot know.
                if !S::BASIC {
                    error = t.zero;
                }
                let mut k = 0;
                if !prev_loads || o < 3 {
                    // The bytes before each vector from `prev` and the vector before it
                    // (nothing readable before a block at the start).
                    while k < BLOCK {
                        let input = V::load(ptr.add(o + k));
                        error = error.or(check(t, input, prev));
                        visit.vector(input);
                        prev = input;
                        k += n;
                    }
                } else {
                    // The bytes before each vector loaded as they are, 1, 2 and 3 bytes back:
                    // three loads (which this loop's ALU work leaves room for) in place of the
                    // shifts that build them from `prev` (four operations a vector with AVX2).
                    // A loop of its own: one loop choosing per vector pays a branch in every
                    // vector (measured slower when counting).
                    while k < BLOCK {
                        let at = ptr.add(o + k);
                        let input = V::load(at);
                        let (p1, p2, p3) =
                            (V::load(at.sub(1)), V::load(at.sub(2)), V::load(at.sub(3)));
                        error = error.or(check3(t, input, p1, p2, p3));
                        visit.vector(input);
                        prev = input;
                        k += n;
                    }
                }
                if !S::BASIC {
                    if error.any() {
                        *c = Cursor {
                            o,
                            prev,
                            incomplete,
                            error,
                        };
                        return false;
                    }
                    visit.valid();
                }
                incomplete = prev.saturating_sub(t.incomplete);
                visit.done(ptr, o);
                o += BLOCK;
                // Tested blocks are checked one at a time.
                if (S::SKIP_ASCII && !S::STREAKS) || o >= stop {
                    break;
                }
            }
            if S::STREAKS {
                run_end = o;
            }
        }
    }
    *c = Cursor {
        o,
        prev,
        incomplete,
        error,
    };
    true
}

/// The high bits of the `n` blocks at `ptr`, or-ed in one vector of `A`.
///
/// # Safety
///
/// Only on a CPU with `A`'s ISA; `ptr..ptr + n * BLOCK` must be readable.
#[inline(always)]
pub(crate) unsafe fn high<A: Vector>(ptr: *const u8, n: usize) -> A {
    // SAFETY: A's ISA, and every load is within `n * BLOCK` readable bytes (the caller's
    // contract).
    unsafe {
        let mut high = A::load(ptr);
        let mut k = A::LANES;
        while k < n * BLOCK {
            high = high.or(A::load(ptr.add(k)));
            k += A::LANES;
        }
        high
    }
}

/// The [`Visit`] that only checks (with `FAR`, a large input: [`FAR_CHECK_PREFETCH`], and the
/// bytes before a vector loaded only where [`Vector::FAR_PREV_LOADS`]).
pub(crate) struct Check<const BASIC: bool, const SKIP_ASCII: bool, const FAR: bool = false>;

impl<V: Vector, const B: bool, const S: bool, const F: bool> Visit<V> for Check<B, S, F> {
    const BASIC: bool = B;
    const SKIP_ASCII: bool = S;
    // Input checked block by block from its start is short.
    const PREFETCHES: bool = S;
    const AHEAD: usize = if F { FAR_CHECK_PREFETCH } else { PREFETCH };
    const PREV_LOADS: bool = !F || V::FAR_PREV_LOADS;
}
