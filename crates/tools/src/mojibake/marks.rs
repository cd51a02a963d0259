//! Combining marks (U+0300-U+036F) and modifier letters (U+02B0-U+02FF): when a pair that
//! spells one is fixed.
//!
//! Their UTF-8 starts with the bytes CC-CD and CA-CB, which windows-1252 and Latin-1 read
//! as the capitals `Ì Í Ê Ë`: decomposed `é` (`e` U+0301, as macOS writes) becomes
//! `eÌ\u{81}`, `fü` + `r` becomes `fuÌˆr`, `Geʻez` (U+02BB) becomes `GeÊ»ez`. But clean
//! text has these capitals before punctuation too: Italian `COSÌ…` spells U+0305, Czech
//! `PÍŠE` U+034A, `ZOË’s` U+02D2. ftfy 6.3.1 tells them apart with its `badness` heuristic
//! (`ftfy/badness.py`, where the four capitals are `upper_accented`), and the rules here
//! are the parts of its `BADNESS_RE` that a pair with its neighbours can match:
//!
//! * [`Verdict::Sure`]: the second character is a C1 control (`[{c1}]`: "no uses outside
//!   of mojibake anymore"), one of ftfy's `bad` characters (`¦ ¤ ¨ ¬ ¯ ¸ ª º ƒ ˆ † ‡ ‰ ˜`:
//!   "nearly 100% used in mojibake", `[{upper_accented}] [{bad}]`), a `numeric` or `law`
//!   sign (`² ³ ¹ ± ¼ ½ ¾ µ ¶ §`, `[{upper_accented}] [{numeric}{law}]`) or `°`
//!   (`[{upper_accented}]°`). A mark needs a base before it, any character but a space
//!   (`=` U+0338 is `≠`, ftfy's in-the-wild `$Ì¶6Ì¶3Ì¶` is struck-through `$63`).
//! * [`Verdict::InWord`]:
//!   * a lowercase letter comes before: a capital after a lowercase letter
//!     (`[{lower_accented}{lower_common}] [{upper_accented}]`, for ASCII letters
//!     `[a-z] [{upper_accented}] [{start_punctuation}{currency}]`; here with any second
//!     character, as `čeÌŒ` and `aÌŠ` need);
//!   * the second character is punctuation or a currency sign and a letter or mark
//!     follows, after a letter or, for a modifier letter, anywhere (`[{upper_accented}]
//!     [{start_punctuation}{end_punctuation}] \w`; Hawaiian `Ê»Ilelani` is `ʻIlelani`),
//!     except ftfy's `common` punctuation (`… ’ – —`, no-break space, soft hyphen, `·`,
//!     `´`), which clean text puts anywhere;
//!   * the lead is `Ì`, the second character a letter (`Š Œ Ž Ÿ š œ ž`) and a capital
//!     comes before: a caron (`RÌŒ` is `Ř`) or a ring (`AÌŠ` is `Å`); no language writes
//!     `Ì` before those letters, while Czech writes `ÍŠ` and `ÍŽ` (`PÍŠE`, `BLÍŽE`);
//!   * the pair before spells a mark: the next mark on the same base (Vietnamese `ệ`).
//! * [`Verdict::Unsure`], the rest: `COSÌ…`, `CITTAÌ€` (decomposed `CITTÀ`, or a capital
//!   and a euro sign), which ftfy leaves alone too.
//!
//! The neighbours count as they will be once their own pairs are fixed (`Ð¸Ì†` is `и`
//! U+0306). What the pair lacks on its own the line may supply (see the parent module):
//! ftfy decodes a whole text once anything in it is bad (the one step of `fix_encoding` in
//! `ftfy/__init__.py`), so in a line with a fix of class `Alone` or a [`Verdict::Sure`]
//! pair, or after two marks side by side, every mark is fixed.

use super::candidate::Candidate;

/// Whether `c` is a combining mark of the blocks decomposed text uses (Latin, Cyrillic,
/// Greek: U+0300-U+036F; the extended and supplementary blocks; kana voicing marks).
pub(super) fn is_mark(c: char) -> bool {
    matches!(
        c as u32,
        0x300..=0x36F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0x3099 | 0x309A
    )
}

/// Whether `c` after `Ì Í Ê Ë` counts as bad wherever it stands (ftfy's `c1`, `bad`,
/// `numeric`, `law` and `°`).
fn bad_after_capital(c: char) -> bool {
    ('\u{80}'..='\u{9F}').contains(&c) || "¦¤¨¬¯¸ªºƒˆ†‡‰˜²³¹±¼½¾µ¶§°".contains(c)
}

/// Whether `c` is punctuation or a currency sign that marks a pair as bad when a letter
/// follows (ftfy's `start_punctuation`, `end_punctuation` and `currency`, which leave out
/// its `common` punctuation).
fn punctuation(c: char) -> bool {
    "¡«¿©‘‚“„•‹®»”›™¢£¥€".contains(c)
}

/// What a pair that spells a combining mark or a modifier letter says with its
/// neighbours (the module docs list the rules).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Mojibake wherever it stands: its second character is one that clean text never
    /// puts after `Ì Í Ê Ë` (a C1 control, ftfy's `bad`, `numeric` and `law` signs).
    Sure,
    /// Mojibake in its word: a lowercase letter before it, a letter after punctuation, a
    /// second mark on the same base.
    InWord,
    /// As likely clean: fixed only where the line has other mojibake.
    Unsure,
}

/// The verdict on the candidate `found[k]`, a combining mark or a modifier letter (see
/// the module docs).
pub(super) fn verdict(chars: &[char], found: &[Candidate], k: usize) -> Verdict {
    let c = &found[k];
    // The characters before and after the pair as they will be if their own pairs are
    // fixed too, and whether the one before is such a pair.
    let before = match k.checked_sub(1).map(|j| &found[j]) {
        Some(p) if p.at + p.len == c.at => Some((p.decoded, true)),
        _ => c.at.checked_sub(1).map(|i| (chars[i], false)),
    };
    let after = match found.get(k + 1) {
        Some(n) if c.at + c.len == n.at => Some(n.decoded),
        _ => chars.get(c.at + c.len).copied(),
    };
    let (lead, second) = (chars[c.at], chars[c.at + 1]);
    let word_goes_on = after.is_some_and(|n| n.is_alphabetic() || is_mark(n));
    let mark = is_mark(c.decoded);
    // A mark stands on a base: any character but a space (`=` U+0338 is `≠`).
    let base = before.filter(|(b, _)| !mark || !b.is_whitespace());
    if bad_after_capital(second) && (!mark || base.is_some()) {
        return Verdict::Sure;
    }
    let in_word = match base {
        Some((b, from_pair)) => {
            (from_pair && is_mark(b))
                || b.is_lowercase()
                || (lead == 'Ì' && second.is_alphabetic() && b.is_uppercase())
                || (punctuation(second) && word_goes_on && (b.is_alphabetic() || !mark))
        }
        // A modifier letter may start a word (Hawaiian `ʻIlelani`).
        None => !mark && punctuation(second) && word_goes_on,
    };
    if in_word {
        Verdict::InWord
    } else {
        Verdict::Unsure
    }
}
