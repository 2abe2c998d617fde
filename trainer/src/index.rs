//! The trainer's index of ingested chunks (an embedded redb database): which chunks were taken
//! in, in what order, with how many positions, so that the replay window can be rebuilt after a
//! restart without re-reading the whole store, and no chunk is taken in twice.

use redb::{Database, ReadableDatabase, ReadableTable, ReadableTableMetadata, TableDefinition};
use std::path::Path;

/// chunk key -> (ingest order, training positions, games).
const CHUNKS: TableDefinition<&str, (u64, u64, u64)> = TableDefinition::new("chunks");
/// ingest order -> chunk key.
const ORDER: TableDefinition<u64, &str> = TableDefinition::new("order");
/// chunk keys removed from the store after they left the window.
const DELETED: TableDefinition<&str, ()> = TableDefinition::new("deleted");

/// A chunk taken in: its key, ingest order, training positions and games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ingested {
    /// The chunk's key.
    pub key: String,
    /// Its place in the ingest order.
    pub order: u64,
    /// Training positions it gave.
    pub positions: u64,
    /// Games in it.
    pub games: u64,
}

/// The index database.
pub struct IngestIndex {
    db: Database,
}

/// An index failure, with the database path.
#[derive(Debug, thiserror::Error)]
#[error("ingest index {path}: {reason}")]
pub struct IndexError {
    path: String,
    reason: String,
}

impl IngestIndex {
    /// Opens or creates the index at `path`.
    pub fn open(path: &Path) -> Result<IngestIndex, IndexError> {
        let err = |e: &dyn std::fmt::Display| IndexError {
            path: path.display().to_string(),
            reason: e.to_string(),
        };
        let db = Database::create(path).map_err(|e| err(&e))?;
        let w = db.begin_write().map_err(|e| err(&e))?;
        w.open_table(CHUNKS).map_err(|e| err(&e))?;
        w.open_table(ORDER).map_err(|e| err(&e))?;
        w.open_table(DELETED).map_err(|e| err(&e))?;
        w.commit().map_err(|e| err(&e))?;
        Ok(IngestIndex { db })
    }

    fn err(e: impl std::fmt::Display) -> IndexError {
        IndexError {
            path: "index".into(),
            reason: e.to_string(),
        }
    }

    /// Whether a chunk has been ingested.
    pub fn contains(&self, key: &str) -> Result<bool, IndexError> {
        let r = self.db.begin_read().map_err(Self::err)?;
        let t = r.open_table(CHUNKS).map_err(Self::err)?;
        Ok(t.get(key).map_err(Self::err)?.is_some())
    }

    /// Records a chunk as ingested with the next order number.
    pub fn add(&self, key: &str, order: u64, positions: u64, games: u64) -> Result<(), IndexError> {
        self.add_all(&[Ingested {
            key: key.to_owned(),
            order,
            positions,
            games,
        }])
    }

    /// Records chunks as ingested in one durable commit: a commit is a disk sync, so one per
    /// chunk would cap ingest at a few hundred chunks a second.
    pub fn add_all(&self, chunks: &[Ingested]) -> Result<(), IndexError> {
        if chunks.is_empty() {
            return Ok(());
        }
        let w = self.db.begin_write().map_err(Self::err)?;
        {
            let mut c = w.open_table(CHUNKS).map_err(Self::err)?;
            let mut o = w.open_table(ORDER).map_err(Self::err)?;
            for i in chunks {
                c.insert(i.key.as_str(), (i.order, i.positions, i.games))
                    .map_err(Self::err)?;
                o.insert(i.order, i.key.as_str()).map_err(Self::err)?;
            }
        }
        w.commit().map_err(Self::err)
    }

    /// Forgets chunks ingested at order `from` or later (work after the last checkpoint, which a
    /// resumed run takes in again).
    pub fn truncate(&self, from: u64) -> Result<usize, IndexError> {
        let w = self.db.begin_write().map_err(Self::err)?;
        let mut removed = 0;
        {
            let mut o = w.open_table(ORDER).map_err(Self::err)?;
            let keys: Vec<(u64, String)> = o
                .range(from..)
                .map_err(Self::err)?
                .filter_map(|e| e.ok())
                .map(|(k, v)| (k.value(), v.value().to_owned()))
                .collect();
            let mut c = w.open_table(CHUNKS).map_err(Self::err)?;
            for (order, key) in keys {
                o.remove(order).map_err(Self::err)?;
                c.remove(key.as_str()).map_err(Self::err)?;
                removed += 1;
            }
        }
        w.commit().map_err(Self::err)?;
        Ok(removed)
    }

    /// Chunk keys with their positions, most recent first.
    pub fn newest_first(&self) -> Result<Vec<(String, u64)>, IndexError> {
        let r = self.db.begin_read().map_err(Self::err)?;
        let o = r.open_table(ORDER).map_err(Self::err)?;
        let c = r.open_table(CHUNKS).map_err(Self::err)?;
        let mut out = Vec::new();
        for e in o.iter().map_err(Self::err)?.rev() {
            let (_, k) = e.map_err(Self::err)?;
            let key = k.value().to_owned();
            let positions = c
                .get(key.as_str())
                .map_err(Self::err)?
                .map_or(0, |v| v.value().1);
            out.push((key, positions));
        }
        Ok(out)
    }

    /// Records that a chunk was removed from the store.
    pub fn mark_deleted(&self, key: &str) -> Result<(), IndexError> {
        let w = self.db.begin_write().map_err(Self::err)?;
        {
            let mut d = w.open_table(DELETED).map_err(Self::err)?;
            d.insert(key, ()).map_err(Self::err)?;
        }
        w.commit().map_err(Self::err)
    }

    /// Whether a chunk was removed from the store.
    pub fn is_deleted(&self, key: &str) -> Result<bool, IndexError> {
        let r = self.db.begin_read().map_err(Self::err)?;
        let t = r.open_table(DELETED).map_err(Self::err)?;
        Ok(t.get(key).map_err(Self::err)?.is_some())
    }

    /// Number of chunks ingested.
    pub fn count(&self) -> Result<u64, IndexError> {
        let r = self.db.begin_read().map_err(Self::err)?;
        let o = r.open_table(ORDER).map_err(Self::err)?;
        o.len().map_err(Self::err)
    }
}
