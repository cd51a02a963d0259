//! The fixer against hand-made mojibake, clean text and ftfy's cases.
use super::*;

/// UTF-8 decoded as windows-1252 (its five unassigned bytes as C1 controls, as
/// encoding_rs and ftfy's sloppy-windows-1252 decode them).
fn mojibake(s: &str) -> String {
    encoding_rs::WINDOWS_1252
        .decode_without_bom_handling(s.as_bytes())
        .0
        .into_owned()
}

fn latin1(s: &str) -> String {
    s.bytes().map(char::from).collect()
}

#[test]
fn every_byte_maps_back() {
    for b in 0..=255u8 {
        let c = encoding_rs::WINDOWS_1252
            .decode_without_bom_handling(&[b])
            .0
            .chars()
            .next()
            .unwrap();
        assert_eq!(byte_of(c), Some(b), "{c:?}");
        assert_eq!(byte_of(char::from(b)), Some(b));
    }
    assert_eq!(byte_of('ł'), None);
}

#[test]
fn single_double_and_triple_mojibake_in_many_languages() {
    for text in [
        "café, naïve, «déjà vu», “quotes” — 10 €",
        "Zażółć gęślą jaźń",
        "Привет, мир! Как дела?",
        "Γειά σου Κόσμε",
        "שלום עולם, ל־libpam",
        "مرحبا بالعالم، عذرًا؟",
        "Tạo thư mục, Tiếng Việt",
        "Tie\u{302}\u{301}ng Vie\u{323}\u{302}t",
        "日本語のテキスト、中文，한국어",
        "emoji 😀🎉 and ｆｕｌｌｗｉｄｔｈ",
        "Închideți fereastra și ȘTERGEȚI fișierele",
        "Əli xidməti bərpa edə bilmir",
    ] {
        let once = mojibake(text);
        assert_ne!(once, text);
        assert_eq!(fix(&once, 0).0, text, "once: {once}");
        let twice = mojibake(&once);
        assert_eq!(fix(&twice, 0).0, text, "twice: {twice}");
        assert_eq!(fix(&latin1(text), 0).0, text, "latin-1");
    }
}

#[test]
fn clean_text_is_never_changed() {
    for clean in [
        "CAFÉ… Fuß“ AÑO… ÎLE» COSÌ… créé\u{A0}» Ó… Ó…",
        // Romanian's and Azerbaijani's letters only in a word, as ftfy 6.3.1 decides:
        // `É™` is `ə`, `È™` is `ș`, `È›` is `ț`, `É›` would be IPA `ɛ`, `É”` `ɔ`.
        "CAFÉ™ rocks, PÈ™ «CAFÉ›» “CAFɔ and CAFÉ”",
        // ftfy's tests/test-cases/negative.json: "Finnish Ä followed by a non-breaking
        // space", "Using diaereses as quotation marks in Greek"
        "SELKÄ\u{A0}EDELLÄ\u{A0}MAAHAN via @YouTube",
        // ftfy's synthetic.json negatives: Brontë, a Swedish product name, an Ångström
        // sign, curly apostrophes
        "I'm not such a fan of Charlotte Brontë…”",
        "AHÅ™, the new sofa from IKEA",
        "a radius of 10 Å—",
        "There are a lot of Ã’s in mojibake text",
        "Η ¨ανατροφή¨ δυστυχώς από τους προπονητές",
        "naïve «déjà» façade Ærø Œuvre ½ ©",
        "Привет, мир",
        "ελληνικά",
        "日本語",
    ] {
        assert_eq!(fix(clean, 0), (clean.to_string(), Vec::new()), "{clean}");
    }
}

#[test]
fn c1_controls_left_become_windows_1252() {
    // ftfy's negative.json, "Mostly negative: we only need to fix C1 control characters"
    let (text, fixes) = fix("parlé\u{85} Tu \u{81}", 0);
    assert_eq!(text, "parlé… Tu \u{81}");
    assert_eq!(fixes[0].to_string(), "mojibake at byte 6: \\u{85} -> …");
}

#[test]
fn fixes_say_where_and_what() {
    let (_, fixes) = fix("a â€œbâ€\u{9D} ÃƒÂ©", 10);
    let got: Vec<String> = fixes.iter().map(Fix::to_string).collect();
    assert_eq!(
        got,
        [
            "mojibake at byte 12: â€œ -> “",
            "mojibake at byte 20: â€\\u{9d} -> ”",
            "mojibake at byte 28: ÃƒÂ© -> é",
        ]
    );
}

#[test]
fn streaming_in_any_pieces_gives_the_same_text() {
    let text = mojibake("Zażółć gęślą jaźń — “日本語” 😀\nПривет, мир\n");
    let (whole, _) = fix(&text, 0);
    let idx: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
    for &cut in &idx {
        let mut f = Fixer::new(true);
        let mut out = String::new();
        f.push(&text[..cut], &mut out);
        f.push(&text[cut..], &mut out);
        f.finish(&mut out);
        assert_eq!(out, whole, "cut at {cut}");
    }
}

#[test]
fn decomposed_text_and_modifier_letters() {
    // `Miércoles` decomposed (`e` U+0301: CC 81, the C1 control U+0081 after `Ì`), and a
    // modifier letter (U+02BB: CA BB, `Ê»`).
    assert_eq!(mojibake("Mie\u{301}rcoles"), "MieÌ\u{81}rcoles");
    assert_eq!(fix("MieÌ\u{81}rcoles", 0).0, "Mie\u{301}rcoles");
    assert_eq!(mojibake("Geʻez"), "GeÊ»ez");
    assert_eq!(fix("GeÊ»ez", 0).0, "Geʻez");
    for text in [
        "Mie\u{301}rcoles, Ge\u{2BB}ez",
        // French, German, Czech, Danish, Polish, Bulgarian, Greek: the marks after
        // lowercase and capital letters, inside and at the end of words.
        "cre\u{301}e\u{301}, a\u{300} la\u{300}, de\u{301}ja\u{300} vu",
        "fu\u{308}r U\u{308}BER Gro\u{308}\u{df}e",
        "Pr\u{30C}i\u{301}li\u{161} z\u{30C}lut\u{30C}ouc\u{30C}ky\u{301} ku\u{30A}n\u{30C}",
        "pa\u{30A} a\u{30A}bent, A\u{30A}RHUS",
        "z\u{307}o\u{301}\u{142}w ge\u{328}s\u{301}",
        "Максималният брои\u{306} опити",
        "Πρε\u{301}πει να οριστει\u{301}",
        // Vietnamese: two marks on one base.
        "Tie\u{302}\u{301}ng Vie\u{323}\u{302}t, ngu\u{31B}\u{300}o\u{31B}\u{300}i",
        // Uzbek and Hawaiian: modifier letters inside a word and starting one.
        "bo\u{2BB}lmadi, noma\u{2BC}lum, \u{2BB}Ilelani, \u{2BB}I\u{304}nia",
        // A mark on a symbol: `≠` decomposed.
        "a =\u{338} b",
    ] {
        let once = mojibake(text);
        assert_eq!(fix(&once, 0).0, text, "once: {once}");
        let twice = mojibake(&once);
        assert_eq!(fix(&twice, 0).0, text, "twice: {twice}");
        assert_eq!(fix(&latin1(text), 0).0, text, "latin-1");
    }
}

#[test]
fn clean_capitals_before_punctuation_stay() {
    for clean in [
        // `Ì…` is U+0305, `ÌŠ` U+030A, `ÍŠ` U+034A, `ÍŽ` U+034E, `Ë’` U+02D2, `Í—` U+0357,
        // `Ê»` U+02BB, `Ë™` U+02D9: capitals before punctuation, or Czech capitals.
        "COSÌ… PIÙ”",
        "PÍŠE, BLÍŽE, VÍŠ",
        "ZOË’s and CHLOË’s",
        "—SÍ—dijo él. ¿SÍ? «SÍ»",
        "PEUT-ÊTRE» NOËL™ CITROËN®",
        "AÍ… EÌ– OÌ’",
        // ftfy's negative.json: "'Ê' followed by an ellipsis".
        "RETWEET SE VOCÊ…",
    ] {
        assert_eq!(fix(clean, 0), (clean.to_string(), Vec::new()), "{clean}");
    }
}

#[test]
fn ambiguous_marks_wait_for_company() {
    // A capital before `Ì€` at the end of a word: decomposed `CITTÀ`, or a capital `Ì` and
    // a euro sign. ftfy leaves it too, unless the text has mojibake elsewhere.
    assert_eq!(fix("CITTAÌ€", 0).0, "CITTAÌ€");
    assert_eq!(
        fix("CITTAÌ€ PIUÌ€ cafÃ©", 0).0,
        "CITTA\u{300} PIU\u{300} café"
    );
    // A mark that is mojibake wherever it stands (a C1 control after `Ì`) says the line
    // has mojibake.
    assert_eq!(fix("CITTAÌ€ E\u{301}", 0).0, "CITTAÌ€ E\u{301}");
    assert_eq!(fix("CITTAÌ€ EÌ\u{81}", 0).0, "CITTA\u{300} E\u{301}");
    // ftfy's in-the-wild.json: "fancy Unicode crossing-out, but mojibaked".
    assert_eq!(
        fix("hotel $49 $Ì¶6Ì¶3Ì¶ updated 2018", 0).0,
        "hotel $49 $\u{336}6\u{336}3\u{336} updated 2018"
    );
}

#[test]
fn marks_after_a_line_with_mojibake_are_fixed() {
    // Decomposed Italian: `È` is `E` U+0300, whose mojibake `EÌ€` on its own could be a
    // capital and a euro sign (left alone); after a line that held mojibake, it is fixed,
    // as ftfy fixes the whole text.
    let text = "Città e perché\nE\u{300} richiesta la password\n";
    assert_eq!(fix(&mojibake(text), 0).0, text);
    assert_eq!(
        fix(&mojibake("E\u{300} richiesta\n"), 0).0,
        mojibake("E\u{300} richiesta\n")
    );
}
