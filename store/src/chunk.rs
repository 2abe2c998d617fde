//! Chunk files: several game records, compressed and checksummed, so that a damaged or
//! truncated file is recognised and skipped instead of poisoning training.
//!
//! Layout: 8-byte magic, u64 payload length, u32 CRC-32 of the payload, payload =
//! zstd(bincode(records)).

use crate::error::StoreError;
use crate::record::GameRecord;

const MAGIC: &[u8; 8] = b"KOMAGMS1";
const HEADER: usize = 8 + 8 + 4;

/// The most bytes a chunk's payload may decompress to. A chunk of 64 long Ko Shogi games with
/// their search records is a few tens of MB; a payload that inflates past this limit is damaged
/// or hostile (a few kilobytes of zstd can claim gigabytes) and is refused before it fills the
/// trainer's memory.
pub const MAX_DECOMPRESSED: u64 = 1 << 30;

/// Encodes records into chunk bytes.
pub fn encode(records: &[GameRecord]) -> Vec<u8> {
    let raw = bincode::serialize(records).expect("records serialise");
    frame(&zstd::encode_all(raw.as_slice(), 3).expect("zstd compresses in memory"))
}

/// A chunk's bytes around a compressed `payload`: magic, length and checksum.
pub fn frame(payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Decompresses a payload, refusing one that inflates past `limit` bytes.
fn decompress(payload: &[u8], limit: u64) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let decoder = zstd::stream::read::Decoder::new(payload).map_err(|e| e.to_string())?;
    let mut raw = Vec::new();
    decoder
        .take(limit + 1)
        .read_to_end(&mut raw)
        .map_err(|e| e.to_string())?;
    if raw.len() as u64 > limit {
        return Err(format!("inflates past the limit of {limit} bytes"));
    }
    Ok(raw)
}

/// Decodes chunk bytes; `key` names the chunk in errors.
pub fn decode(key: &str, bytes: &[u8]) -> Result<Vec<GameRecord>, StoreError> {
    let bad = |reason: String| StoreError::CorruptChunk {
        key: key.to_owned(),
        reason,
    };
    if bytes.len() < HEADER {
        return Err(bad(format!(
            "{} bytes, shorter than the header",
            bytes.len()
        )));
    }
    if &bytes[..8] != MAGIC {
        return Err(bad("not a koma game chunk (bad magic)".into()));
    }
    let len = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes")) as usize;
    let crc = u32::from_le_bytes(bytes[16..20].try_into().expect("4 bytes"));
    let payload = &bytes[HEADER..];
    if payload.len() != len {
        return Err(bad(format!(
            "truncated: payload of {} bytes, header says {len}",
            payload.len()
        )));
    }
    if crc32fast::hash(payload) != crc {
        return Err(bad("checksum mismatch".into()));
    }
    let raw =
        decompress(payload, MAX_DECOMPRESSED).map_err(|e| bad(format!("decompression: {e}")))?;
    bincode::deserialize(&raw).map_err(|e| bad(format!("decoding: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameResult, SearchRecord};

    fn sample() -> Vec<GameRecord> {
        vec![GameRecord {
            variant: "hand-shogi".into(),
            start: None,
            moves: vec![3, 1, 4],
            searches: vec![
                Some(SearchRecord {
                    policy: vec![(3, 0.75), (0, 0.25)],
                    value: 0.1,
                }),
                None,
                None,
            ],
            result: GameResult::Draw,
            reason: "draw (MaxLength)".into(),
            resigned: false,
            model_step: 7,
        }]
    }

    #[test]
    fn round_trip() {
        let b = encode(&sample());
        assert_eq!(decode("k", &b).unwrap(), sample());
    }

    #[test]
    fn damage_is_detected() {
        let b = encode(&sample());
        let e = decode("k", &b[..b.len() - 3]).unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
        let mut flipped = b.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x55;
        assert!(decode("k", &flipped)
            .unwrap_err()
            .to_string()
            .contains("checksum"));
        assert!(decode("k", b"KOMA")
            .unwrap_err()
            .to_string()
            .contains("header"));
        let mut magic = b;
        magic[0] = b'X';
        assert!(decode("k", &magic)
            .unwrap_err()
            .to_string()
            .contains("magic"));
    }

    #[test]
    fn a_payload_that_inflates_past_the_limit_is_refused() {
        // 4 MB of zeros compress to a few hundred bytes.
        let payload = zstd::encode_all(&vec![0u8; 4 << 20][..], 3).unwrap();
        assert!(payload.len() < 4096, "{}", payload.len());
        let e = decompress(&payload, 1 << 20).unwrap_err();
        assert!(e.contains("inflates past the limit"), "{e}");
        assert_eq!(decompress(&payload, 4 << 20).unwrap().len(), 4 << 20);
        // A framed payload that decompresses but is no list of records is named as such.
        let junk = zstd::encode_all(&[0xffu8; 64][..], 3).unwrap();
        let e = decode("games/w/1.chunk", &frame(&junk)).unwrap_err();
        assert!(e.to_string().contains("games/w/1.chunk"), "{e}");
        assert!(e.to_string().contains("decoding"), "{e}");
    }
}
