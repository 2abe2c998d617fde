//! Names of chunk objects: `games/<worker>/<sequence>-<games>g-<positions>p.chunk`.
//!
//! The worker id and its own sequence number make the key unique and stable, so a retried or
//! repeated upload of the same chunk lands on the same key and counts once. The game and
//! position counts in the name let `koma status` report each worker's rates from a listing,
//! without downloading chunks.

/// The parts of a chunk key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkName {
    /// The worker that wrote it.
    pub worker: String,
    /// The worker's sequence number.
    pub seq: u64,
    /// Games in the chunk (absent in chunks written before counts were named).
    pub games: Option<u64>,
    /// Positions played in those games.
    pub positions: Option<u64>,
}

impl ChunkName {
    /// The file name of the chunk (the key's last part).
    pub fn file_name(&self) -> String {
        match (self.games, self.positions) {
            (Some(g), Some(p)) => format!("{:010}-{g}g-{p}p.chunk", self.seq),
            _ => format!("{:010}.chunk", self.seq),
        }
    }

    /// The store key.
    pub fn key(&self) -> String {
        format!("games/{}/{}", self.worker, self.file_name())
    }

    /// Parses a file name of `worker`'s chunk.
    pub fn parse_file(worker: &str, file: &str) -> Option<ChunkName> {
        let stem = file.strip_suffix(".chunk")?;
        let mut parts = stem.split('-');
        let seq = parts.next()?;
        if seq.is_empty() || !seq.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let seq = seq.parse().ok()?;
        let (games, positions) = match (parts.next(), parts.next(), parts.next()) {
            (None, None, None) => (None, None),
            (Some(g), Some(p), None) => (
                Some(g.strip_suffix('g')?.parse().ok()?),
                Some(p.strip_suffix('p')?.parse().ok()?),
            ),
            _ => return None,
        };
        Some(ChunkName {
            worker: worker.to_owned(),
            seq,
            games,
            positions,
        })
    }

    /// Parses a store key `games/<worker>/<file>`.
    pub fn parse_key(key: &str) -> Option<ChunkName> {
        let rest = key.strip_prefix("games/")?;
        let (worker, file) = rest.rsplit_once('/')?;
        if worker.is_empty() || worker.contains('/') {
            return None;
        }
        ChunkName::parse_file(worker, file)
    }
}

/// The worker-id prefix of `koma teach`'s chunks unless it is given another: the trainer's
/// teacher pool (`[trainer] teacher_prefix`) recognises them by it.
pub const TEACHER_WORKER_PREFIX: &str = "teacher";

/// Whether `id` can name a worker in keys and directories.
pub fn valid_worker_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        && id != "."
        && id != ".."
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_reads_old_names() {
        let n = ChunkName {
            worker: "gpu-box-1".into(),
            seq: 42,
            games: Some(8),
            positions: Some(1234),
        };
        assert_eq!(n.key(), "games/gpu-box-1/0000000042-8g-1234p.chunk");
        assert_eq!(ChunkName::parse_key(&n.key()), Some(n));
        let old = ChunkName::parse_key("games/local-0/0000000007.chunk").unwrap();
        assert_eq!((old.seq, old.games, old.positions), (7, None, None));
        assert_eq!(old.file_name(), "0000000007.chunk");
        for bad in [
            "games/w/x.chunk",
            "games/w/0001-3g.chunk",
            "games/w/0001-3g-4q.chunk",
            "games/0001.chunk",
            "models/0001.chunk",
            "games/w/0001-3g-4p-5.chunk",
            "games/w/0001.json",
        ] {
            assert_eq!(ChunkName::parse_key(bad), None, "{bad}");
        }
        assert!(valid_worker_id("host-a_1.2"));
        for bad in ["", "a/b", "..", "a b", "ü"] {
            assert!(!valid_worker_id(bad), "{bad}");
        }
    }
}
