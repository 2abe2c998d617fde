//! Chunk files: several game records, compressed and checksummed, so that a damaged or
//! truncated file is recognised and skipped instead of poisoning training.
//!
//! Layout: 8-byte magic, u64 payload length, u32 CRC-32 of the payload, payload =
//! zstd(bincode(records)).

use crate::error::StoreError;
use crate::record::GameRecord;

const MAGIC: &[u8; 8] = b"KOMAGMS1";
const HEADER: usize = 8 + 8 + 4;

/// Encodes records into chunk bytes.
pub fn encode(records: &[GameRecord]) -> Vec<u8> {
    let raw = bincode::serialize(records).expect("records serialise");
    let payload = zstd::encode_all(raw.as_slice(), 3).expect("zstd compresses in memory");
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    out
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
    let raw = zstd::decode_all(payload).map_err(|e| bad(format!("decompression: {e}")))?;
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
}
