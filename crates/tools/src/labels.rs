//! Encoding labels as users type them: WHATWG's (what encoding_rs decodes, the labels of
//! the web) and glibc iconv's spellings (`CP932`, `UTF16LE`, `EUCJP`, `CP936`, `UCS-2LE`,
//! ...), with iconv's meaning where the two disagree: `ISO-8859-1` and its aliases decode
//! every byte to U+0000..U+00FF and `ASCII` treats bytes over 0x7F as errors, where WHATWG
//! reads both as windows-1252 (0x80 as `€`).

use encoding_rs::Encoding;

/// What a label names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// An encoding encoding_rs decodes.
    Whatwg(&'static Encoding),
    /// ISO-8859-1 as iconv reads it: byte N is U+00NN.
    Latin1,
    /// US-ASCII as iconv reads it: bytes over 0x7F are errors.
    Ascii,
    /// An encoding iconv knows that nothing here decodes (UTF-32, UCS-4, UTF-7), named.
    Unsupported(&'static str),
}

/// An encoding the tools decode: one of encoding_rs's (WHATWG's), or ISO-8859-1 or US-ASCII
/// as iconv reads them. It compares equal to the encoding_rs encoding it is.
///
/// ```
/// use utf8_tools::labels::Charset;
/// assert_eq!(Charset::from(encoding_rs::SHIFT_JIS).name(), "Shift_JIS");
/// assert_eq!(Charset::Latin1.name(), "ISO-8859-1");
/// assert!(Charset::from(encoding_rs::UTF_8) == encoding_rs::UTF_8);
/// assert!(Charset::Ascii != encoding_rs::WINDOWS_1252);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charset {
    /// An encoding encoding_rs decodes.
    Whatwg(&'static Encoding),
    /// ISO-8859-1: byte N is U+00NN.
    Latin1,
    /// US-ASCII: bytes over 0x7F are errors.
    Ascii,
}

impl Charset {
    /// The encoding's name, as reports print it (encoding_rs's, else iconv's).
    pub fn name(self) -> &'static str {
        match self {
            Charset::Whatwg(e) => e.name(),
            Charset::Latin1 => "ISO-8859-1",
            Charset::Ascii => "US-ASCII",
        }
    }

    /// The encoding_rs encoding, when it is one.
    pub fn whatwg(self) -> Option<&'static Encoding> {
        match self {
            Charset::Whatwg(e) => Some(e),
            Charset::Latin1 | Charset::Ascii => None,
        }
    }
}

impl From<&'static Encoding> for Charset {
    fn from(e: &'static Encoding) -> Charset {
        Charset::Whatwg(e)
    }
}

impl PartialEq<&'static Encoding> for Charset {
    fn eq(&self, other: &&'static Encoding) -> bool {
        self.whatwg() == Some(*other)
    }
}

impl Label {
    /// What the label decodes as, when something here decodes it.
    pub fn charset(self) -> Option<Charset> {
        match self {
            Label::Whatwg(e) => Some(Charset::Whatwg(e)),
            Label::Latin1 => Some(Charset::Latin1),
            Label::Ascii => Some(Charset::Ascii),
            Label::Unsupported(_) => None,
        }
    }
}

/// glibc iconv's spellings that WHATWG lacks or reads otherwise, upper case, and what
/// they mean here.
const ICONV: &[(&str, Label)] = {
    use Label::{Ascii, Latin1, Unsupported, Whatwg};
    &[
        ("ISO-8859-1", Latin1),
        ("ISO8859-1", Latin1),
        ("ISO_8859-1", Latin1),
        ("ISO_8859-1:1987", Latin1),
        ("ISO88591", Latin1),
        ("ISO-IR-100", Latin1),
        ("LATIN1", Latin1),
        ("LATIN-1", Latin1),
        ("L1", Latin1),
        ("CP819", Latin1),
        ("IBM819", Latin1),
        ("CSISOLATIN1", Latin1),
        ("ASCII", Ascii),
        ("US-ASCII", Ascii),
        ("US", Ascii),
        ("ANSI_X3.4-1968", Ascii),
        ("ANSI_X3.4-1986", Ascii),
        ("ISO646-US", Ascii),
        ("646", Ascii),
        ("CSASCII", Ascii),
        ("UTF8", Whatwg(encoding_rs::UTF_8)),
        ("UTF16LE", Whatwg(encoding_rs::UTF_16LE)),
        ("UTF16BE", Whatwg(encoding_rs::UTF_16BE)),
        ("UCS-2LE", Whatwg(encoding_rs::UTF_16LE)),
        ("UCS-2BE", Whatwg(encoding_rs::UTF_16BE)),
        ("UNICODELITTLE", Whatwg(encoding_rs::UTF_16LE)),
        ("UNICODEBIG", Whatwg(encoding_rs::UTF_16BE)),
        ("CP932", Whatwg(encoding_rs::SHIFT_JIS)),
        ("SJIS", Whatwg(encoding_rs::SHIFT_JIS)),
        ("SHIFT-JIS", Whatwg(encoding_rs::SHIFT_JIS)),
        ("MS932", Whatwg(encoding_rs::SHIFT_JIS)),
        ("EUCJP", Whatwg(encoding_rs::EUC_JP)),
        ("EUCJP-MS", Whatwg(encoding_rs::EUC_JP)),
        ("UJIS", Whatwg(encoding_rs::EUC_JP)),
        ("EUCKR", Whatwg(encoding_rs::EUC_KR)),
        ("CP949", Whatwg(encoding_rs::EUC_KR)),
        ("UHC", Whatwg(encoding_rs::EUC_KR)),
        ("CP936", Whatwg(encoding_rs::GBK)),
        ("EUC-CN", Whatwg(encoding_rs::GBK)),
        ("EUCCN", Whatwg(encoding_rs::GBK)),
        ("GB_2312-80", Whatwg(encoding_rs::GBK)),
        ("CP950", Whatwg(encoding_rs::BIG5)),
        ("BIG-5", Whatwg(encoding_rs::BIG5)),
        ("BIG5HKSCS", Whatwg(encoding_rs::BIG5)),
        ("CP1250", Whatwg(encoding_rs::WINDOWS_1250)),
        ("CP1251", Whatwg(encoding_rs::WINDOWS_1251)),
        ("CP1252", Whatwg(encoding_rs::WINDOWS_1252)),
        ("CP1253", Whatwg(encoding_rs::WINDOWS_1253)),
        ("CP1254", Whatwg(encoding_rs::WINDOWS_1254)),
        ("CP1255", Whatwg(encoding_rs::WINDOWS_1255)),
        ("CP1256", Whatwg(encoding_rs::WINDOWS_1256)),
        ("CP1257", Whatwg(encoding_rs::WINDOWS_1257)),
        ("CP1258", Whatwg(encoding_rs::WINDOWS_1258)),
        ("CP874", Whatwg(encoding_rs::WINDOWS_874)),
        ("CP866", Whatwg(encoding_rs::IBM866)),
        ("MAC", Whatwg(encoding_rs::MACINTOSH)),
        ("MACROMAN", Whatwg(encoding_rs::MACINTOSH)),
        ("UTF-32", Unsupported("UTF-32")),
        ("UTF-32LE", Unsupported("UTF-32LE")),
        ("UTF-32BE", Unsupported("UTF-32BE")),
        ("UTF32", Unsupported("UTF-32")),
        ("UCS-4", Unsupported("UCS-4")),
        ("UCS-4LE", Unsupported("UCS-4LE")),
        ("UCS-4BE", Unsupported("UCS-4BE")),
        ("UTF-7", Unsupported("UTF-7")),
    ]
};

/// Every label of the WHATWG Encoding Standard, as encoding_rs 0.8 knows them (a test
/// checks each against `Encoding::for_label`).
pub const WHATWG_LABELS: [&str; 228] = [
    "l1",
    "l2",
    "l3",
    "l4",
    "l5",
    "l6",
    "l9",
    "866",
    "mac",
    "koi",
    "gbk",
    "big5",
    "utf8",
    "koi8",
    "sjis",
    "ucs-2",
    "ms932",
    "cp866",
    "utf-8",
    "cp819",
    "ascii",
    "x-gbk",
    "greek",
    "cp1250",
    "cp1251",
    "latin1",
    "gb2312",
    "cp1252",
    "latin2",
    "cp1253",
    "latin3",
    "cp1254",
    "latin4",
    "cp1255",
    "csbig5",
    "latin5",
    "utf-16",
    "cp1256",
    "ibm866",
    "latin6",
    "cp1257",
    "cp1258",
    "greek8",
    "ibm819",
    "arabic",
    "visual",
    "korean",
    "euc-jp",
    "koi8-r",
    "koi8_r",
    "euc-kr",
    "x-sjis",
    "koi8-u",
    "hebrew",
    "tis-620",
    "gb18030",
    "ksc5601",
    "gb_2312",
    "dos-874",
    "cn-big5",
    "unicode",
    "chinese",
    "logical",
    "cskoi8r",
    "cseuckr",
    "koi8-ru",
    "x-cp1250",
    "ksc_5601",
    "x-cp1251",
    "iso88591",
    "csgb2312",
    "x-cp1252",
    "iso88592",
    "x-cp1253",
    "iso88593",
    "ecma-114",
    "x-cp1254",
    "iso88594",
    "x-cp1255",
    "iso88595",
    "x-x-big5",
    "x-cp1256",
    "csibm866",
    "iso88596",
    "x-cp1257",
    "iso88597",
    "asmo-708",
    "ecma-118",
    "elot_928",
    "x-cp1258",
    "iso88598",
    "iso88599",
    "cyrillic",
    "utf-16be",
    "utf-16le",
    "us-ascii",
    "ms_kanji",
    "x-euc-jp",
    "iso885910",
    "iso8859-1",
    "iso885911",
    "iso8859-2",
    "iso8859-3",
    "iso885913",
    "iso8859-4",
    "iso885914",
    "iso8859-5",
    "iso885915",
    "iso8859-6",
    "iso8859-7",
    "iso8859-8",
    "iso-ir-58",
    "iso8859-9",
    "csunicode",
    "macintosh",
    "shift-jis",
    "shift_jis",
    "iso-ir-100",
    "iso8859-10",
    "iso-ir-110",
    "gb_2312-80",
    "iso-8859-1",
    "iso_8859-1",
    "iso-ir-101",
    "iso8859-11",
    "iso-8859-2",
    "iso_8859-2",
    "hz-gb-2312",
    "iso-8859-3",
    "iso_8859-3",
    "iso8859-13",
    "iso-8859-4",
    "iso_8859-4",
    "iso8859-14",
    "iso-ir-144",
    "iso-8859-5",
    "iso_8859-5",
    "iso8859-15",
    "iso-8859-6",
    "iso_8859-6",
    "iso-ir-126",
    "iso-8859-7",
    "iso_8859-7",
    "iso-ir-127",
    "iso-ir-157",
    "iso-8859-8",
    "iso_8859-8",
    "iso-ir-138",
    "iso-ir-148",
    "iso-8859-9",
    "iso_8859-9",
    "iso-ir-109",
    "iso-ir-149",
    "big5-hkscs",
    "csshiftjis",
    "iso-8859-10",
    "iso-8859-11",
    "csisolatin1",
    "csisolatin2",
    "iso-8859-13",
    "csisolatin3",
    "iso-8859-14",
    "windows-874",
    "csisolatin4",
    "iso-8859-15",
    "iso_8859-15",
    "csisolatin5",
    "iso-8859-16",
    "csisolatin6",
    "windows-949",
    "csisolatin9",
    "csiso88596e",
    "csiso88598e",
    "unicodefffe",
    "unicodefeff",
    "csmacintosh",
    "csiso88596i",
    "csiso88598i",
    "windows-31j",
    "x-mac-roman",
    "iso-2022-cn",
    "iso-2022-jp",
    "csiso2022jp",
    "iso-2022-kr",
    "csiso2022kr",
    "replacement",
    "windows-1250",
    "windows-1251",
    "windows-1252",
    "windows-1253",
    "windows-1254",
    "windows-1255",
    "windows-1256",
    "windows-1257",
    "windows-1258",
    "iso-8859-6-e",
    "iso-8859-8-e",
    "iso-8859-6-i",
    "iso-8859-8-i",
    "sun_eu_greek",
    "csksc56011987",
    "unicode20utf8",
    "unicode11utf8",
    "ks_c_5601-1987",
    "ansi_x3.4-1968",
    "ks_c_5601-1989",
    "x-mac-cyrillic",
    "x-user-defined",
    "csiso58gb231280",
    "iso-10646-ucs-2",
    "iso_8859-1:1987",
    "iso_8859-2:1987",
    "iso_8859-6:1987",
    "iso_8859-7:1987",
    "iso_8859-3:1988",
    "iso_8859-4:1988",
    "iso_8859-5:1988",
    "iso_8859-8:1988",
    "x-unicode20utf8",
    "iso_8859-9:1989",
    "csisolatingreek",
    "x-mac-ukrainian",
    "iso-2022-cn-ext",
    "csisolatinarabic",
    "csisolatinhebrew",
    "unicode-1-1-utf-8",
    "csisolatincyrillic",
    "cseucpkdfmtjapanese",
];

/// What `label` names: iconv's spelling first (case-insensitive, an iconv suffix such as
/// `//TRANSLIT` ignored), then WHATWG's.
///
/// ```
/// use utf8_tools::labels::{resolve, Label};
/// assert_eq!(resolve("CP932"), Some(Label::Whatwg(encoding_rs::SHIFT_JIS)));
/// assert_eq!(resolve("utf16le"), Some(Label::Whatwg(encoding_rs::UTF_16LE)));
/// assert_eq!(resolve("latin1"), Some(Label::Latin1));
/// assert_eq!(resolve("windows-1252"), Some(Label::Whatwg(encoding_rs::WINDOWS_1252)));
/// assert_eq!(resolve("US-ASCII//"), Some(Label::Ascii));
/// assert_eq!(resolve("klingon"), None);
/// ```
pub fn resolve(label: &str) -> Option<Label> {
    let label = label.split_once("//").map_or(label, |(l, _)| l).trim();
    let upper = label.to_ascii_uppercase();
    if let Some(&(_, l)) = ICONV.iter().find(|(name, _)| *name == upper) {
        return Some(l);
    }
    Encoding::for_label(label.as_bytes()).map(Label::Whatwg)
}

/// The labels of one encoding: `--list`'s line for it.
fn labels_of(want: Label) -> Vec<String> {
    let mut v: Vec<String> = ICONV
        .iter()
        .filter(|(_, l)| *l == want)
        .map(|(name, _)| (*name).to_string())
        .collect();
    v.extend(
        WHATWG_LABELS
            .iter()
            .filter(|l| resolve(l) == Some(want))
            .map(|l| (*l).to_string()),
    );
    v
}

/// Every label accepted, grouped by what it decodes as: (the encoding and what it means,
/// its labels), one encoding a group, then the names iconv knows that are refused (`not
/// decoded here`). `--list` prints it and the man pages' ENCODINGS section is made of it.
///
/// ```
/// let groups = utf8_tools::labels::groups();
/// assert!(groups.iter().any(|(e, l)| e == "Shift_JIS" && l.iter().any(|l| l == "CP932")));
/// assert!(groups.iter().any(|(e, l)| e.starts_with("ISO-8859-1 (") && l.iter().any(|l| l == "latin1")));
/// assert_eq!(groups.last().map(|(e, _)| e.as_str()), Some("not decoded here"));
/// ```
pub fn groups() -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut seen: Vec<&'static Encoding> = Vec::new();
    for label in WHATWG_LABELS {
        if let Some(enc) = Encoding::for_label(label.as_bytes())
            && !seen.contains(&enc)
        {
            seen.push(enc);
        }
    }
    seen.sort_by_key(|e| e.name());
    for enc in seen {
        let labels = labels_of(Label::Whatwg(enc));
        if !labels.is_empty() {
            out.push((enc.name().to_string(), labels));
        }
    }
    out.push((
        "ISO-8859-1 (every byte its own code point, as iconv)".to_string(),
        labels_of(Label::Latin1),
    ));
    out.push((
        "US-ASCII (bytes over 0x7F are errors, as iconv)".to_string(),
        labels_of(Label::Ascii),
    ));
    let refused: Vec<String> = ICONV
        .iter()
        .filter(|(_, l)| matches!(l, Label::Unsupported(_)))
        .map(|(name, _)| (*name).to_string())
        .collect();
    out.push(("not decoded here".to_string(), refused));
    out
}

/// `utf8-repair --list`: [`groups`], one encoding a line (`NAME: LABEL, LABEL, ...`).
///
/// ```
/// let list = utf8_tools::labels::list();
/// assert!(list.lines().any(|l| l.starts_with("Shift_JIS: ") && l.contains("CP932")));
/// assert!(list.lines().any(|l| l.starts_with("ISO-8859-1 (") && l.contains("latin1")));
/// ```
pub fn list() -> String {
    groups()
        .into_iter()
        .map(|(enc, labels)| format!("{enc}: {}\n", labels.join(", ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_whatwg_label_is_encoding_rs_s() {
        for l in WHATWG_LABELS {
            assert!(Encoding::for_label(l.as_bytes()).is_some(), "{l}");
        }
    }

    #[test]
    fn iconv_names_mean_what_iconv_means() {
        // The labels of the issue, and the ones whose meaning changes from WHATWG's.
        for (label, want) in [
            ("CP932", Label::Whatwg(encoding_rs::SHIFT_JIS)),
            ("UTF16LE", Label::Whatwg(encoding_rs::UTF_16LE)),
            ("EUCJP", Label::Whatwg(encoding_rs::EUC_JP)),
            ("CP936", Label::Whatwg(encoding_rs::GBK)),
            ("UCS-2LE", Label::Whatwg(encoding_rs::UTF_16LE)),
            ("latin-1", Label::Latin1),
            ("ISO_8859-1", Label::Latin1),
            ("iso-8859-1", Label::Latin1),
            ("ascii", Label::Ascii),
            ("ANSI_X3.4-1968", Label::Ascii),
            ("x-cp1252", Label::Whatwg(encoding_rs::WINDOWS_1252)),
            ("utf-32le", Label::Unsupported("UTF-32LE")),
        ] {
            assert_eq!(resolve(label), Some(want), "{label}");
        }
        // Every WHATWG label that names windows-1252 but is ISO-8859-1 or ASCII to iconv.
        let w1252: Vec<&str> = WHATWG_LABELS
            .into_iter()
            .filter(|l| resolve(l) == Some(Label::Whatwg(encoding_rs::WINDOWS_1252)))
            .collect();
        assert_eq!(w1252, ["cp1252", "x-cp1252", "windows-1252"]);
    }
}
