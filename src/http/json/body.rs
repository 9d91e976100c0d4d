//! Reading a request body off the wire: its content coding, and the limits
//! that apply while it is read and decoded, never after.
//!
//! A body is `identity` (sent as is), `gzip` (RFC 1952; `x-gzip` is the same)
//! or `deflate` (the zlib format of RFC 1950, as RFC 9110 defines the coding).
//! Anything else, or a coding stacked on another (`gzip, gzip`: each layer can
//! multiply the size by a thousand), is refused before a byte of the body is
//! read. Encoded bodies are inflated as their bytes arrive, into a buffer that
//! never grows past the limit:
//!
//! - the decoded size may not pass the body limit: inflation stops at the
//!   first byte past it, so a gzip bomb costs at most the limit in memory plus
//!   the inflater's own state (a 32 KiB window and a 32 KiB output buffer),
//!   and in CPU what inflating the limit costs (under a millisecond at 64 KiB);
//! - the decoded size may not pass [`MAX_INFLATION_RATIO`] times the encoded
//!   bytes received, once past [`INFLATION_RATIO_FLOOR`]: with a raised limit,
//!   a client must still send a hundredth of what it makes the server inflate.
//!   Ordinary JSON compresses 5 to 20 times; the floor is the default body
//!   limit, so a default server never refuses a body for its ratio.
//!
//! The encoded bytes count against the limit too, so a body's cost is bounded
//! by the limit whether or not it is encoded.

use std::future::poll_fn;
use std::io::{self, Write};
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::header::{self, HeaderMap};
use flate2::write::{GzDecoder, ZlibDecoder};
use futures_core::Stream;

/// Inflated bytes may be at most this many times the encoded bytes received...
pub const MAX_INFLATION_RATIO: usize = 100;
/// ...once there are more than this many of them.
pub const INFLATION_RATIO_FLOOR: usize = 64 * 1024;

/// The codings a body may be sent in, as `Accept-Encoding` lists them.
pub const SUPPORTED_CODINGS: &str = "gzip, deflate";

/// How a body is encoded on the wire (its `Content-Encoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Identity,
    Gzip,
    Deflate,
}

/// Why a body's `Content-Encoding` is refused: the codings it names, as sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnsupportedCoding(pub String);

impl Coding {
    /// The coding named by the `Content-Encoding` headers (a comma-separated
    /// list, possibly over several lines; `identity` and empty items count for
    /// nothing). One supported coding at most.
    pub fn from_headers(headers: &HeaderMap) -> Result<Coding, UnsupportedCoding> {
        let mut coding = Coding::Identity;
        let mut named = Vec::new();
        for value in headers.get_all(header::CONTENT_ENCODING) {
            let Ok(value) = value.to_str() else {
                return Err(UnsupportedCoding("(unreadable)".to_owned()));
            };
            for item in value.split(',').map(str::trim).filter(|i| !i.is_empty()) {
                if item.eq_ignore_ascii_case("identity") {
                    continue;
                }
                named.push(item);
                coding = if item.eq_ignore_ascii_case("gzip") || item.eq_ignore_ascii_case("x-gzip")
                {
                    Coding::Gzip
                } else if item.eq_ignore_ascii_case("deflate") {
                    Coding::Deflate
                } else {
                    return Err(UnsupportedCoding(item.to_owned()));
                };
            }
        }
        if named.len() > 1 {
            return Err(UnsupportedCoding(named.join(", ")));
        }
        Ok(coding)
    }
}

/// Why a body could not be read whole.
#[derive(Debug)]
pub enum ReadError {
    /// More than the limit, encoded or decoded.
    TooLarge,
    /// Decoded past [`MAX_INFLATION_RATIO`] times the encoded bytes received.
    TooInflated { encoded: usize },
    /// The encoded data is corrupt, cut short, or followed by other bytes.
    Corrupt(io::Error),
    /// The body itself did not arrive whole: the client went away or broke
    /// the chunked framing.
    Payload(PayloadError),
}

/// Reads `payload` to its end, decoding `coding`, within `limit` bytes.
/// `expected` (the declared length, when there is one) sizes the buffer once.
pub async fn read(
    payload: &mut Payload,
    coding: Coding,
    limit: usize,
    expected: Option<usize>,
) -> Result<Vec<u8>, ReadError> {
    let inflater = match coding {
        Coding::Identity => return read_identity(payload, limit, expected).await,
        Coding::Gzip => Inflater::Gzip(GzDecoder::new(Inflated::new(limit))),
        Coding::Deflate => Inflater::Deflate(ZlibDecoder::new(Inflated::new(limit))),
    };
    read_encoded(payload, inflater, limit).await
}

async fn next_chunk(payload: &mut Payload) -> Option<Result<actix_web::web::Bytes, PayloadError>> {
    poll_fn(|cx| Pin::new(&mut *payload).poll_next(cx)).await
}

async fn read_identity(
    payload: &mut Payload,
    limit: usize,
    expected: Option<usize>,
) -> Result<Vec<u8>, ReadError> {
    let mut body = Vec::with_capacity(expected.unwrap_or(0).min(limit));
    while let Some(chunk) = next_chunk(payload).await {
        let chunk = chunk.map_err(ReadError::Payload)?;
        if body.len() + chunk.len() > limit {
            return Err(ReadError::TooLarge);
        }
        reserve_within(&mut body, chunk.len(), limit);
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

async fn read_encoded(
    payload: &mut Payload,
    mut inflater: Inflater,
    limit: usize,
) -> Result<Vec<u8>, ReadError> {
    let mut encoded = 0usize;
    while let Some(chunk) = next_chunk(payload).await {
        let chunk = chunk.map_err(ReadError::Payload)?;
        encoded += chunk.len();
        if encoded > limit {
            return Err(ReadError::TooLarge);
        }
        let allowed =
            limit.min(INFLATION_RATIO_FLOOR.max(encoded.saturating_mul(MAX_INFLATION_RATIO)));
        inflater.sink().allowed = allowed;
        if let Err(err) = inflater.write_all(&chunk) {
            return Err(inflater
                .sink()
                .refusal(limit, encoded)
                .unwrap_or(ReadError::Corrupt(err)));
        }
    }
    if let Err(err) = inflater.finish() {
        return Err(inflater
            .sink()
            .refusal(limit, encoded)
            .unwrap_or(ReadError::Corrupt(err)));
    }
    Ok(std::mem::take(&mut inflater.sink().bytes))
}

/// Grows `buffer` for `additional` more bytes, doubling as a `Vec` does but
/// never past `limit`: a body at the limit has at most `limit` bytes allocated.
fn reserve_within(buffer: &mut Vec<u8>, additional: usize, limit: usize) {
    let needed = buffer.len() + additional;
    if needed > buffer.capacity() {
        let target = (buffer.capacity() * 2).max(needed).min(limit.max(needed));
        buffer.reserve_exact(target - buffer.len());
    }
}

/// A decoder writing into an [`Inflated`] buffer.
enum Inflater {
    Gzip(GzDecoder<Inflated>),
    Deflate(ZlibDecoder<Inflated>),
}

impl Inflater {
    fn sink(&mut self) -> &mut Inflated {
        match self {
            Inflater::Gzip(decoder) => decoder.get_mut(),
            Inflater::Deflate(decoder) => decoder.get_mut(),
        }
    }

    /// Feeds encoded bytes; their output goes to the sink 32 KiB at a time, so
    /// a refusing sink stops the inflation within 32 KiB of its limit.
    fn write_all(&mut self, encoded: &[u8]) -> io::Result<()> {
        match self {
            Inflater::Gzip(decoder) => decoder.write_all(encoded),
            Inflater::Deflate(decoder) => decoder.write_all(encoded),
        }
    }

    /// Checks that the stream ended, with a correct checksum.
    fn finish(&mut self) -> io::Result<()> {
        match self {
            Inflater::Gzip(decoder) => decoder.try_finish(),
            Inflater::Deflate(decoder) => decoder.try_finish(),
        }
    }
}

/// The decoded body, refusing any write that would take it past `allowed`.
struct Inflated {
    bytes: Vec<u8>,
    /// The most bytes it may hold now (the limit, or less by the ratio).
    allowed: usize,
    /// The hard limit, which also caps the allocation.
    limit: usize,
    refused: bool,
}

impl Inflated {
    fn new(limit: usize) -> Self {
        Inflated {
            bytes: Vec::new(),
            allowed: limit,
            limit,
            refused: false,
        }
    }

    /// The limit that stopped the inflation, if one did.
    fn refusal(&self, limit: usize, encoded: usize) -> Option<ReadError> {
        match self.refused {
            false => None,
            true if self.allowed < limit => Some(ReadError::TooInflated { encoded }),
            true => Some(ReadError::TooLarge),
        }
    }
}

impl Write for Inflated {
    fn write(&mut self, decoded: &[u8]) -> io::Result<usize> {
        if self.bytes.len() + decoded.len() > self.allowed {
            self.refused = true;
            return Err(io::Error::other("the decoded body is over its limit"));
        }
        reserve_within(&mut self.bytes, decoded.len(), self.limit);
        self.bytes.extend_from_slice(decoded);
        Ok(decoded.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::http::header::HeaderValue;
    use actix_web::web::Bytes;
    use flate2::Compression;
    use flate2::write::{GzEncoder, ZlibEncoder};

    fn headers(values: &[&str]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for value in values {
            map.append(
                header::CONTENT_ENCODING,
                HeaderValue::from_str(value).expect("valid header"),
            );
        }
        map
    }

    #[test]
    fn one_supported_coding_is_recognised_in_any_case() {
        assert_eq!(Coding::from_headers(&headers(&[])), Ok(Coding::Identity));
        assert_eq!(
            Coding::from_headers(&headers(&["identity"])),
            Ok(Coding::Identity)
        );
        assert_eq!(Coding::from_headers(&headers(&["GZip"])), Ok(Coding::Gzip));
        assert_eq!(
            Coding::from_headers(&headers(&["x-gzip"])),
            Ok(Coding::Gzip)
        );
        assert_eq!(
            Coding::from_headers(&headers(&["deflate"])),
            Ok(Coding::Deflate)
        );
        assert_eq!(
            Coding::from_headers(&headers(&["identity, gzip, "])),
            Ok(Coding::Gzip)
        );
    }

    #[test]
    fn unknown_and_stacked_codings_are_refused() {
        for (values, named) in [
            (&["br"][..], "br"),
            (&["gzip, gzip"][..], "gzip, gzip"),
            (&["gzip", "deflate"][..], "gzip, deflate"),
            (&["zstd, gzip"][..], "zstd"),
            (&["compress"][..], "compress"),
        ] {
            assert_eq!(
                Coding::from_headers(&headers(values)),
                Err(UnsupportedCoding(named.to_owned())),
                "{values:?}"
            );
        }
    }

    fn payload(chunks: Vec<Vec<u8>>) -> Payload {
        let stream = futures_util_stream(chunks);
        Payload::Stream {
            payload: Box::pin(stream),
        }
    }

    /// A payload stream yielding `chunks`, with no stream crate.
    fn futures_util_stream(
        chunks: Vec<Vec<u8>>,
    ) -> impl Stream<Item = Result<Bytes, PayloadError>> + 'static {
        struct Chunks(std::vec::IntoIter<Vec<u8>>);
        impl Stream for Chunks {
            type Item = Result<Bytes, PayloadError>;
            fn poll_next(
                mut self: Pin<&mut Self>,
                _: &mut std::task::Context<'_>,
            ) -> std::task::Poll<Option<Self::Item>> {
                std::task::Poll::Ready(self.0.next().map(|chunk| Ok(Bytes::from(chunk))))
            }
        }
        Chunks(chunks.into_iter())
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
        encoder.write_all(data).expect("in memory");
        encoder.finish().expect("in memory")
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut encoder = ZlibEncoder::new(Vec::new(), Compression::best());
        encoder.write_all(data).expect("in memory");
        encoder.finish().expect("in memory")
    }

    async fn read_chunks(
        chunks: Vec<Vec<u8>>,
        coding: Coding,
        limit: usize,
    ) -> Result<Vec<u8>, ReadError> {
        read(&mut payload(chunks), coding, limit, None).await
    }

    /// `data` cut into pieces of `size` bytes.
    fn pieces(data: &[u8], size: usize) -> Vec<Vec<u8>> {
        data.chunks(size).map(<[u8]>::to_vec).collect()
    }

    #[actix_web::test]
    async fn encoded_bodies_decode_whatever_their_chunks() {
        let json = br#"{"hand": ["7S", "7H", "7D"]}"#.repeat(50);
        for size in [1, 7, 4096] {
            let decoded = read_chunks(pieces(&gzip(&json), size), Coding::Gzip, 65536).await;
            assert_eq!(decoded.expect("gzip decodes"), json);
            let decoded = read_chunks(pieces(&zlib(&json), size), Coding::Deflate, 65536).await;
            assert_eq!(decoded.expect("deflate decodes"), json);
        }
        let plain = read_chunks(pieces(&json, 100), Coding::Identity, 65536).await;
        assert_eq!(plain.expect("identity"), json);
    }

    #[actix_web::test]
    async fn a_bomb_is_stopped_at_the_limit_with_bounded_memory() {
        let bomb = gzip(&vec![b' '; 16 * 1024 * 1024]);
        assert!(bomb.len() < 20 * 1024, "{} bytes", bomb.len());
        let refused = read_chunks(vec![bomb], Coding::Gzip, 65536).await;
        assert!(matches!(refused, Err(ReadError::TooLarge)), "{refused:?}");
    }

    #[actix_web::test]
    async fn a_body_inflating_past_the_ratio_is_refused_below_the_limit() {
        // 1 MiB limit: 1 MiB of spaces is ~1 KiB of gzip, a ratio near 1000.
        let bomb = gzip(&vec![b' '; 1024 * 1024]);
        let refused = read_chunks(vec![bomb.clone()], Coding::Gzip, 1024 * 1024 + 1).await;
        assert!(
            matches!(refused, Err(ReadError::TooInflated { encoded }) if encoded == bomb.len()),
            "{refused:?}"
        );
        // Under the floor, any ratio is fine.
        let small = vec![b' '; INFLATION_RATIO_FLOOR];
        let decoded = read_chunks(vec![gzip(&small)], Coding::Gzip, 1024 * 1024).await;
        assert_eq!(decoded.expect("under the floor").len(), small.len());
    }

    #[actix_web::test]
    async fn an_encoded_body_over_the_limit_is_too_large_before_decoding() {
        let noise: Vec<u8> = (0..200_000u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
            .collect();
        let refused = read_chunks(pieces(&gzip(&noise), 8192), Coding::Gzip, 65536).await;
        assert!(matches!(refused, Err(ReadError::TooLarge)), "{refused:?}");
        let refused = read_chunks(pieces(&noise, 8192), Coding::Identity, 65536).await;
        assert!(matches!(refused, Err(ReadError::TooLarge)), "{refused:?}");
    }

    #[actix_web::test]
    async fn corrupt_cut_or_padded_streams_are_corrupt() {
        let json = br#"{"hand": []}"#;
        let whole = gzip(json);
        let mut flipped = whole.clone();
        let middle = flipped.len() / 2;
        flipped[middle] ^= 0xFF;
        let mut padded = whole.clone();
        padded.extend_from_slice(b"trailing");
        let mut bad_crc = whole.clone();
        let crc_at = bad_crc.len() - 8;
        bad_crc[crc_at] ^= 1;
        for (name, body, coding) in [
            ("cut", whole[..whole.len() - 3].to_vec(), Coding::Gzip),
            ("flipped", flipped, Coding::Gzip),
            ("padded", padded, Coding::Gzip),
            ("bad crc", bad_crc, Coding::Gzip),
            ("empty", Vec::new(), Coding::Gzip),
            ("not gzip", json.to_vec(), Coding::Gzip),
            ("not zlib", json.to_vec(), Coding::Deflate),
            ("zlib cut", zlib(json)[..5].to_vec(), Coding::Deflate),
        ] {
            let outcome = read_chunks(vec![body], coding, 65536).await;
            assert!(
                matches!(outcome, Err(ReadError::Corrupt(_))),
                "{name}: {outcome:?}"
            );
        }
    }

    #[test]
    fn buffers_grow_to_the_limit_and_no_further() {
        let mut buffer = vec![0; 40_000];
        reserve_within(&mut buffer, 20_000, 65536);
        assert_eq!(buffer.capacity(), 65536);
    }
}
