//! UTF-16 → UTF-8 of well-formed runs, for the crate's `utf16_decode.rs`: the active kernel's
//! vector transcoder (`x86_64/sse42/utf16_decode.rs`: SSE4.2;
//! `x86_64/avx2/utf16_decode.rs`: AVX2, for the AVX2 kernel and the AVX-512 one without
//! VBMI2; `x86_64/avx512/utf16_decode.rs`: AVX-512 with VBMI2;
//! `aarch64/neon/utf16_decode.rs`: NEON) over the bulk, then its scalar twin,
//! [`transcode_scalar`], over what the vector loop leaves (the last units, too little room, or a unit it cannot vouch for).
//!
//! Both read UTF-16 as bytes, two per unit, in either order, and stop before the first unit
//! that is not part of a well-formed run: an unpaired surrogate, or a lead surrogate whose
//! trail is not in the input (the caller decides what those are); and before the first scalar
//! value whose UTF-8 does not fit in the output. What they convert is always whole scalar
//! values, so the caller resumes at the returned offsets.
//!
//! The output is written through `MaybeUninit` so that the appending form fills a vector's
//! spare capacity without zeroing it first; only initialized bytes are ever written.

use core::mem::MaybeUninit;

use super::utf16_units::{is_lead, is_trail, pair, unit};

use super::Available;

/// The portable transcoder, and the twin the kernels are tested against: converts the
/// well-formed prefix of `src` (UTF-16, big-endian when `BE`) into `dst` as far as whole
/// scalar values fit, and returns (bytes read, bytes written). Four ASCII units at a time,
/// by a word test; the rest one scalar value at a time.
pub(crate) fn transcode_scalar<const BE: bool>(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
) -> (usize, usize) {
    // The bits that are 0 in four ASCII units, loaded as a little-endian u64.
    let ascii: u64 = if BE {
        0x80FF_80FF_80FF_80FF
    } else {
        0xFF80_FF80_FF80_FF80
    };
    let low = usize::from(BE);
    let (mut i, mut o) = (0, 0);
    loop {
        while let (Some(q), Some(d)) = (
            src.get(i..).and_then(<[u8]>::first_chunk::<8>),
            dst.get_mut(o..)
                .and_then(<[MaybeUninit<u8>]>::first_chunk_mut::<4>),
        ) {
            if u64::from_le_bytes(*q) & ascii != 0 {
                break;
            }
            for (k, d) in d.iter_mut().enumerate() {
                d.write(q[2 * k + low]);
            }
            i += 8;
            o += 4;
        }
        let Some(&[a, b]) = src.get(i..).and_then(<[u8]>::first_chunk::<2>) else {
            return (i, o);
        };
        let u = unit::<BE>(a, b);
        let out = &mut dst[o..];
        if u < 0x80 {
            let Some(d) = out.first_mut() else {
                return (i, o);
            };
            d.write(u as u8);
            i += 2;
            o += 1;
        } else if u < 0x800 {
            let Some(d) = out.first_chunk_mut::<2>() else {
                return (i, o);
            };
            d[0].write(0xC0 | (u >> 6) as u8);
            d[1].write(0x80 | (u & 0x3F) as u8);
            i += 2;
            o += 2;
        } else if !is_lead(u) && !is_trail(u) {
            let Some(d) = out.first_chunk_mut::<3>() else {
                return (i, o);
            };
            d[0].write(0xE0 | (u >> 12) as u8);
            d[1].write(0x80 | ((u >> 6) & 0x3F) as u8);
            d[2].write(0x80 | (u & 0x3F) as u8);
            i += 2;
            o += 3;
        } else {
            let Some(&[c, e]) = src.get(i + 2..).and_then(<[u8]>::first_chunk::<2>) else {
                return (i, o);
            };
            let t = unit::<BE>(c, e);
            if !is_lead(u) || !is_trail(t) {
                return (i, o);
            }
            let Some(d) = out.first_chunk_mut::<4>() else {
                return (i, o);
            };
            let cp = pair(u, t);
            d[0].write(0xF0 | (cp >> 18) as u8);
            d[1].write(0x80 | ((cp >> 12) & 0x3F) as u8);
            d[2].write(0x80 | ((cp >> 6) & 0x3F) as u8);
            d[3].write(0x80 | (cp & 0x3F) as u8);
            i += 4;
            o += 4;
        }
    }
}

/// The vector transcoder of the active kernel over a prefix of `src`: (bytes read, bytes
/// written), `(0, 0)` where the kernel has none (scalar, SSE2, other targets) or the input or
/// the room is under one step.
#[inline]
fn transcode_vector(src: &[u8], be: bool, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    Available::active().utf16_decode(src, be, dst)
}

/// Transcodes the well-formed prefix of `src` (UTF-16, big-endian when `be`) into `dst` as
/// far as whole scalar values fit: the vector transcoder, then the scalar twin from where it
/// stopped. Returns (bytes read, bytes written).
#[inline]
pub(crate) fn transcode(src: &[u8], be: bool, dst: &mut [MaybeUninit<u8>]) -> (usize, usize) {
    let (i, o) = transcode_vector(src, be, dst);
    let (r, w) = match be {
        true => transcode_scalar::<true>(&src[i..], &mut dst[o..]),
        false => transcode_scalar::<false>(&src[i..], &mut dst[o..]),
    };
    (i + r, o + w)
}

/// [`transcode`] into an initialized buffer.
#[inline]
pub(crate) fn transcode_into(src: &[u8], be: bool, dst: &mut [u8]) -> (usize, usize) {
    // SAFETY: `MaybeUninit<u8>` has the layout of `u8`; the view is used only to write
    // initialized bytes (`transcode` never writes an uninitialized one), so `dst` stays
    // initialized.
    let view = unsafe { &mut *(core::ptr::from_mut::<[u8]>(dst) as *mut [MaybeUninit<u8>]) };
    transcode(src, be, view)
}

/// Appends to `out` the UTF-8 of the well-formed prefix of `src` (as [`transcode`], with room
/// for all of it reserved first) and returns its length in bytes of `src`.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn extend(src: &[u8], be: bool, out: &mut alloc::vec::Vec<u8>) -> usize {
    let len = out.len();
    // At most three bytes of UTF-8 per unit (four per surrogate pair).
    out.reserve(src.len() / 2 * 3);
    let (read, written) = transcode(src, be, out.spare_capacity_mut());
    // SAFETY: `transcode` initialized the first `written` bytes of the spare capacity, which
    // is at least that long (they were written into it).
    unsafe { out.set_len(len + written) };
    read
}

/// The bytes of `units`, in the target's byte order.
#[cfg(feature = "alloc")]
#[inline]
pub(crate) fn unit_bytes(units: &[u16]) -> &[u8] {
    // SAFETY: a `u16` is two initialized bytes without padding, `u8` has alignment 1, and the
    // byte slice covers exactly the memory of `units`, borrowed for as long.
    unsafe { core::slice::from_raw_parts(units.as_ptr().cast::<u8>(), units.len() * 2) }
}
