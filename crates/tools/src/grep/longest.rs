//! The longest-match automaton of the regular expressions (POSIX's leftmost-longest matches,
//! `-w`'s shorter retries): a lazy DFA run with `MatchKind::All`, and the PikeVM where the DFA
//! gives up. It also decides, a piece at a time, whether a line too long to hold holds a
//! match ([`LineScan`]).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::LocalKey;

use regex_automata::hybrid::LazyStateID;
use regex_automata::hybrid::dfa::{Cache, DFA};
use regex_automata::nfa::thompson::{self, pikevm::PikeVM};
use regex_automata::util::pool::{Pool, PoolGuard};
use regex_automata::{Anchored, Input, MatchKind};
use regex_syntax::hir::Hir;

use crate::diag::ToolError;

/// A pool of caches, one per thread that searches (`-r` searches files on several).
type CachePool<C> = Pool<C, Box<dyn Fn() -> C + Send + Sync>>;

fn pool<C: 'static, F: Fn() -> C + Send + Sync + 'static>(f: F) -> CachePool<C> {
    Pool::new(Box::new(f))
}

/// A thread's cache of one automaton, by the automaton's identity ([`next_id`]).
pub(super) type LocalCache<C> = RefCell<Option<(u64, C)>>;

/// A new identity for an automaton whose caches are kept per thread ([`with_local`]).
pub(super) fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// `f` with this thread's cache in `key` for the automaton `id`, made by `make` when the
/// thread holds none for it. regex-automata's pools hand a cache to the thread that used them
/// first at no cost, and to any other thread under a lock at each search: with `-r` on two
/// threads and a search per match (`-o`), that lock was 4% of the time.
pub(super) fn with_local<C, R>(
    key: &'static LocalKey<LocalCache<C>>,
    id: u64,
    make: impl FnOnce() -> C,
    f: impl FnOnce(&mut C) -> R,
) -> R {
    key.with(|slot| {
        let mut slot = slot.borrow_mut();
        match &mut *slot {
            Some((have, cache)) if *have == id => f(cache),
            other => f(&mut other.insert((id, make())).1),
        }
    })
}

thread_local! {
    /// This thread's cache of a [`Longest`]'s DFA.
    static DFA_CACHES: LocalCache<Cache> = const { RefCell::new(None) };
}

/// The end of the longest match from an anchored start.
pub(super) struct Longest {
    /// The byte that ends a line (what `^` sees before a line's start).
    eol: u8,
    /// The identity of `dfa` for [`with_local`].
    id: u64,
    dfa: DFA,
    dfa_caches: CachePool<Cache>,
    vm: PikeVM,
    vm_caches: CachePool<thompson::pikevm::Cache>,
}

impl std::fmt::Debug for Longest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Longest")
    }
}

impl Longest {
    pub(super) fn new(all: &Hir, eol: u8) -> Result<Longest, ToolError> {
        let mut look = regex_automata::util::look::LookMatcher::new();
        look.set_line_terminator(eol);
        let nfa = thompson::Compiler::new()
            .configure(
                thompson::Config::new()
                    .utf8(false)
                    .look_matcher(look)
                    .nfa_size_limit(Some(NFA_LIMIT)),
            )
            .build_from_hir(all)
            .map_err(compile_error)?;
        let dfa = DFA::builder()
            .configure(
                DFA::config()
                    .match_kind(MatchKind::All)
                    .unicode_word_boundary(true)
                    // Never give up for clearing its cache too often: a line scan (below)
                    // cannot start over.
                    .minimum_cache_clear_count(None)
                    .cache_capacity(DFA_CACHE)
                    .skip_cache_capacity_check(true),
            )
            .build_from_nfa(nfa.clone())
            .map_err(compile_error)?;
        let vm = PikeVM::builder()
            .configure(PikeVM::config().match_kind(MatchKind::All))
            .build_from_nfa(nfa)
            .map_err(compile_error)?;
        let (d, v) = (dfa.clone(), vm.clone());
        Ok(Longest {
            eol,
            id: next_id(),
            dfa,
            dfa_caches: pool(move || d.create_cache()),
            vm,
            vm_caches: pool(move || v.create_cache()),
        })
    }

    /// The end of the longest match of `input` (anchored), if any.
    pub(super) fn end(&self, input: &Input<'_>) -> Option<usize> {
        let found = with_local(
            &DFA_CACHES,
            self.id,
            || self.dfa.create_cache(),
            |cache| self.dfa.try_search_fwd(cache, input),
        );
        match found {
            Ok(h) => h.map(|h| h.offset()),
            // Gave up (a Unicode word boundary next to non-ASCII text): the PikeVM. Its one
            // pattern (all of them as one alternation) has its match in the first two slots.
            Err(_) => {
                let mut slots = [None, None];
                self.vm
                    .search_slots(&mut self.vm_caches.get(), input, &mut slots)?;
                slots[1].map(|end| end.get())
            }
        }
    }

    /// A scan of one line from its start, unanchored (anchored with `whole`): see
    /// [`LineScan`]. The caller makes sure that the patterns have no Unicode word boundary
    /// (where the DFA gives up).
    pub(super) fn line_scan(&self, whole: bool) -> Option<LineScan<'_>> {
        let mut cache = self.dfa_caches.get();
        let anchored = if whole { Anchored::Yes } else { Anchored::No };
        let start = regex_automata::util::start::Config::new()
            .anchored(anchored)
            .look_behind(Some(self.eol));
        let state = self.dfa.start_state(&mut cache, &start).ok()?;
        Some(LineScan {
            dfa: &self.dfa,
            cache,
            state,
            whole,
            decided: None,
        })
    }
}

/// Whether a line holds a match, decided a piece at a time by the longest-match lazy DFA run
/// unanchored from the line's start (anchored with `-x`): for a line too long to hold, whose
/// matches have no bound on their length.
pub struct LineScan<'r> {
    dfa: &'r DFA,
    cache: PoolGuard<'r, Cache, Box<dyn Fn() -> Cache + Send + Sync>>,
    state: LazyStateID,
    /// `-x`: a match counts only if it ends where the line does.
    whole: bool,
    /// Decided: `Some(true)` once a match is seen, `Some(false)` once none can be.
    decided: Option<bool>,
}

impl LineScan<'_> {
    /// Reads the next bytes of the line; `Some` once the answer is known before its end.
    pub fn feed(&mut self, bytes: &[u8]) -> Option<bool> {
        if self.decided.is_some() {
            return self.decided;
        }
        for &b in bytes {
            // The DFA never gives up: no Unicode word boundary (checked by `Rx::line_scan`),
            // no limit on cache clearing.
            let Ok(next) = self.dfa.next_state(&mut self.cache, self.state, b) else {
                unreachable!("a lazy DFA without quit bytes or a clearing limit");
            };
            self.state = next;
            if next.is_tagged() {
                if next.is_dead() {
                    self.decided = Some(false);
                } else if next.is_match() && !self.whole {
                    self.decided = Some(true);
                }
                if self.decided.is_some() {
                    return self.decided;
                }
            }
        }
        None
    }

    /// The answer, at the end of the line.
    pub fn finish(mut self) -> bool {
        if let Some(d) = self.decided {
            return d;
        }
        self.dfa
            .next_eoi_state(&mut self.cache, self.state)
            .is_ok_and(|s| s.is_match())
    }
}

/// How large the automata of the patterns may grow: regex-automata's NFA limit, and the
/// lazy DFAs' caches (the DFA of many patterns needs more than the default 2 MiB to start;
/// past this one it gives up and the PikeVM answers).
pub(super) const NFA_LIMIT: usize = 32 << 20;
pub(super) const DFA_CACHE: usize = 16 << 20;

/// A build error, with what caused it (regex-automata's says "error building NFA", its
/// source "exceeded size limit").
pub(super) fn compile_error(e: impl std::error::Error) -> ToolError {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    ToolError::Usage(format!("cannot compile the patterns: {text}"))
}

/// Whether the leftmost-first match of `h` from any start is also the longest from there, so
/// that POSIX's rule needs no second search: `h` is a concatenation of characters (literals,
/// classes of whole characters) and of greedy repetitions of one character or class, with
/// line anchors at most (no alternation, no repeated group of several characters, no word
/// boundary). Greedy backtracking takes as many characters as each repetition can while the
/// rest still matches, and no later part can then reach further. Held to the longest-match
/// DFA on random patterns of that shape by the tests below.
pub(super) fn first_is_longest(h: &Hir) -> bool {
    use regex_syntax::hir::{Class, HirKind, Look};
    // Every character of the class is whole: a Unicode class, or a byte class of ASCII.
    fn whole_chars(c: &Class) -> bool {
        match c {
            Class::Unicode(_) => true,
            Class::Bytes(b) => b.is_ascii(),
        }
    }
    fn one_char(h: &Hir) -> bool {
        match h.kind() {
            HirKind::Class(c) => whole_chars(c),
            HirKind::Literal(l) => std::str::from_utf8(&l.0).is_ok_and(|s| s.chars().count() == 1),
            HirKind::Capture(c) => one_char(&c.sub),
            _ => false,
        }
    }
    match h.kind() {
        HirKind::Empty => true,
        HirKind::Literal(l) => std::str::from_utf8(&l.0).is_ok(),
        HirKind::Class(c) => whole_chars(c),
        HirKind::Look(l) => matches!(
            l,
            Look::Start | Look::End | Look::StartLF | Look::EndLF | Look::StartCRLF | Look::EndCRLF
        ),
        HirKind::Repetition(r) => r.greedy && one_char(&r.sub),
        HirKind::Capture(c) => first_is_longest(&c.sub),
        HirKind::Concat(items) => items.iter().all(first_is_longest),
        HirKind::Alternation(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use regex_automata::meta::Regex;
    use regex_automata::{Anchored, Input};
    use regex_syntax::ParserBuilder;

    use super::{Longest, first_is_longest};

    fn hir(p: &str) -> regex_syntax::hir::Hir {
        ParserBuilder::new().build().parse(p).unwrap()
    }

    #[test]
    fn the_shapes_it_vouches_for() {
        for p in [
            "[a-z]+_[a-z]+",
            "^\\s*//",
            "fn [a-z_]+\\(",
            "é+x?",
            "a{2,5}b*$",
            "(a)+b",
        ] {
            assert!(first_is_longest(&hir(p)), "{p}");
        }
        for p in ["a|ab", "(ab)+", "a+?b", "\\ba+", "(ab|cd)e", "a*(ab)?b"] {
            assert!(!first_is_longest(&hir(p)), "{p}");
        }
        // Where it says no, the two can differ: the oracle below would see it.
        let (h, hay) = (hir("a*(ab)?b"), "aabb");
        let first = Regex::builder()
            .build_from_hir(&h)
            .unwrap()
            .find(hay)
            .unwrap();
        let longest = Longest::new(&h, b'\n')
            .unwrap()
            .end(&Input::new(hay).anchored(Anchored::Yes));
        assert_eq!((first.end(), longest), (3, Some(4)));
    }

    /// On random patterns of the shape it vouches for, over a small alphabet where matches
    /// overlap most, the leftmost-first match from every start ends where the longest does.
    #[test]
    fn leftmost_first_is_longest_where_it_says_so() {
        let atoms = ["a", "b", "é", "[ab]", "[bé]", "[aé]", "[abé]", "[^a]", "."];
        let counts = ["", "?", "*", "+", "{2}", "{1,2}", "{0,2}", "{2,}", "{0,3}"];
        let mut rng = utf8_testkit::Rng::new(0x10_6e57);
        let mut below = |n: usize| rng.below(n as u64) as usize;
        let mut checked = 0;
        for _ in 0..3000 {
            let mut p = String::new();
            for _ in 0..1 + below(6) {
                p.push_str(atoms[below(atoms.len())]);
                p.push_str(counts[below(counts.len())]);
            }
            let h = hir(&p);
            assert!(first_is_longest(&h), "{p}");
            let re = Regex::builder().build_from_hir(&h).unwrap();
            let longest = Longest::new(&h, b'\n').unwrap();
            for _ in 0..20 {
                let n = below(12);
                let hay: String = (0..n).map(|_| ['a', 'b', 'é'][below(3)]).collect();
                for (s, _) in hay.char_indices() {
                    let input = Input::new(&hay).range(s..).anchored(Anchored::Yes);
                    if let Some(m) = re.find(input.clone()) {
                        assert_eq!(Some(m.end()), longest.end(&input), "{p} on {hay:?} at {s}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
