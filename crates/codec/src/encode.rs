//! Encoding code points (Table 3-6) and UTF-16 to UTF-8.

use core::fmt;

/// Why a code point cannot be encoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodeErrorKind {
    /// U+D800..U+DFFF: surrogates are not scalar values and have no UTF-8 form.
    Surrogate,
    /// A value above U+10FFFF.
    OutOfRange,
}

impl EncodeErrorKind {
    /// The stable kebab-case name (`surrogate`, `out-of-range`), as the decoder's kinds.
    ///
    /// ```
    /// assert_eq!(utf8_codec::EncodeErrorKind::OutOfRange.as_str(), "out-of-range");
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn as_str(self) -> &'static str {
        match self {
            EncodeErrorKind::Surrogate => "surrogate",
            EncodeErrorKind::OutOfRange => "out-of-range",
        }
    }
}

/// The error of [`encode`]: the code point and why it has no UTF-8 form.
///
/// ```
/// let err = utf8_codec::encode(0xD800).unwrap_err();
/// assert_eq!(err.to_string(), "surrogate U+D800 cannot be encoded");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EncodeError {
    value: u32,
    kind: EncodeErrorKind,
}

impl EncodeError {
    /// The code point that was given.
    ///
    /// ```
    /// assert_eq!(utf8_codec::encode(0x11_0000).unwrap_err().value(), 0x11_0000);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn value(&self) -> u32 {
        self.value
    }

    /// Why it cannot be encoded.
    ///
    /// ```
    /// use utf8_codec::EncodeErrorKind;
    /// assert_eq!(utf8_codec::encode(0xDFFF).unwrap_err().kind(), EncodeErrorKind::Surrogate);
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub const fn kind(&self) -> EncodeErrorKind {
        self.kind
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} U+{:04X} cannot be encoded",
            self.kind.as_str(),
            self.value
        )
    }
}

impl core::error::Error for EncodeError {}

/// The UTF-8 form of one scalar value: 1 to 4 bytes, without allocation.
///
/// Dereferences to `[u8]`; `Display` and `AsRef<str>` give the character as text.
#[must_use = "the encoded bytes are the result"]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Encoded {
    buf: [u8; 4],
    len: u8,
}

impl Encoded {
    /// The bytes.
    ///
    /// ```
    /// assert_eq!(utf8_codec::encode(0x20AC)?.as_bytes(), b"\xE2\x82\xAC");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..usize::from(self.len)]
    }

    /// The bytes as a string slice.
    ///
    /// ```
    /// assert_eq!(utf8_codec::encode(0x1F600)?.as_str(), "😀");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use = "returns a value and changes nothing"]
    pub fn as_str(&self) -> &str {
        // Built only from `char::encode_utf8`, so always valid; the fallback is unreachable.
        core::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

impl core::ops::Deref for Encoded {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_bytes()
    }
}

/// The character, as [`as_str`](Encoded::as_str).
///
/// ```
/// let e = utf8_codec::encode(0x20AC)?;
/// assert_eq!(format!("{e}uro {e:>3}"), "€uro   €");
/// # Ok::<(), utf8_codec::EncodeError>(())
/// ```
impl fmt::Display for Encoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// The character, as [`as_str`](Encoded::as_str).
///
/// ```
/// fn len_of(s: impl AsRef<str>) -> usize { s.as_ref().chars().count() }
/// assert_eq!(len_of(utf8_codec::encode(0x1F600)?), 1);
/// # Ok::<(), utf8_codec::EncodeError>(())
/// ```
impl AsRef<str> for Encoded {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

/// The bytes, as [`as_bytes`](Encoded::as_bytes).
///
/// ```
/// fn len_of(b: impl AsRef<[u8]>) -> usize { b.as_ref().len() }
/// assert_eq!(len_of(utf8_codec::encode(0x1F600)?), 4);
/// # Ok::<(), utf8_codec::EncodeError>(())
/// ```
impl AsRef<[u8]> for Encoded {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

/// Encodes code point `value` as 1 to 4 bytes (Unicode Table 3-6).
///
/// # Errors
///
/// [`EncodeErrorKind::Surrogate`] for U+D800..U+DFFF, [`EncodeErrorKind::OutOfRange`] above
/// U+10FFFF.
///
/// ```
/// use utf8_codec::encode;
///
/// assert_eq!(&*encode(0x41)?, b"A");
/// assert_eq!(&*encode(0x807E2)?, b"\xF2\x80\x9F\xA2");
/// assert!(encode(0x11_0000).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use = "the encoded bytes (or why the value has none) are the only result"]
pub fn encode(value: u32) -> Result<Encoded, EncodeError> {
    let kind = match value {
        0xD800..=0xDFFF => EncodeErrorKind::Surrogate,
        0x11_0000.. => EncodeErrorKind::OutOfRange,
        _ => {
            let c = char::from_u32(value).unwrap_or(char::REPLACEMENT_CHARACTER);
            let mut buf = [0; 4];
            let len = c.encode_utf8(&mut buf).len() as u8;
            return Ok(Encoded { buf, len });
        }
    };
    Err(EncodeError { value, kind })
}

/// Decodes UTF-16 code units to scalar values, each lone surrogate becoming U+FFFD (what
/// Node.js does when a JavaScript string is written as UTF-8).
///
/// ```
/// let units = [0x0048, 0xD83D, 0xDE00, 0xD800, 0x0021];
/// let s: String = utf8_codec::utf16_chars(&units).collect();
/// assert_eq!(s, "H😀\u{FFFD}!");
/// ```
#[must_use = "iterators are lazy: the units are only decoded as the iterator is consumed"]
pub fn utf16_chars(units: &[u16]) -> impl Iterator<Item = char> + '_ {
    char::decode_utf16(units.iter().copied()).map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
}

/// Converts UTF-16 code units to a UTF-8 `String`, each lone surrogate becoming U+FFFD.
///
/// ```
/// assert_eq!(utf8_codec::utf16_to_string(&[0x65, 0xDC00, 0x301]), "e\u{FFFD}\u{301}");
/// ```
#[must_use = "the converted text is the only result"]
#[cfg(feature = "alloc")]
#[cfg_attr(docsrs, doc(cfg(feature = "alloc")))]
pub fn utf16_to_string(units: &[u16]) -> alloc::string::String {
    let mut s = crate::huge_pages::string_with_capacity(units.len());
    s.extend(utf16_chars(units));
    s
}
