//! A worker's spool on local disk: every finished game is appended to a journal (and synced)
//! the moment it ends, and full journals are sealed into chunk files that wait there until the
//! store has acknowledged them. A worker killed at any point loses no finished game: at the
//! next start its journal is recovered and its sealed chunks are uploaded under the same keys,
//! so nothing is counted twice either.
//!
//! Layout of `<root>/<worker>/`: `open-<seq>.journal` (the games of chunk `<seq>` so far, each
//! as u32 length, u32 CRC-32, bincode record) and `<seq>-<g>g-<p>p.chunk` (sealed chunks, named
//! as their store keys end). Sealing writes the chunk, then the next journal, then removes the
//! old journal; a journal whose chunk exists was sealed already and is dropped on recovery.

use crate::backend::Store;
use crate::chunk;
use crate::chunk_name::ChunkName;
use crate::error::StoreError;
use crate::record::GameRecord;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// One worker's spool.
pub struct Spool {
    dir: PathBuf,
    worker: String,
    seq: u64,
    journal: File,
    /// Length of the journal's whole records: a write that fails part way (a full disk) is
    /// cut back to it, so the next append starts where a record starts.
    valid: u64,
    games: Vec<GameRecord>,
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.display().to_string(),
        source,
    }
}

fn journal_name(seq: u64) -> String {
    format!("open-{seq:010}.journal")
}

fn journal_seq(name: &str) -> Option<u64> {
    name.strip_prefix("open-")?
        .strip_suffix(".journal")?
        .parse()
        .ok()
}

fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    File::open(dir).and_then(|d| d.sync_all()).map_err(io(dir))
}

/// One journal record as it is written: the body's length and CRC-32, then the body.
pub fn frame_journal_record(body: &[u8]) -> Vec<u8> {
    let mut rec = Vec::with_capacity(body.len() + 8);
    rec.extend_from_slice(&(body.len() as u32).to_le_bytes());
    rec.extend_from_slice(&crc32fast::hash(body).to_le_bytes());
    rec.extend_from_slice(body);
    rec
}

/// The valid records at the start of a journal's bytes and the length they fill: reading stops
/// at the first record that is torn (a kill in the middle of a write), fails its checksum or
/// does not decode, since nothing after it can be trusted to start where a record starts.
pub fn decode_journal(bytes: &[u8]) -> (Vec<GameRecord>, usize) {
    let mut games = Vec::new();
    let mut at = 0usize;
    while bytes.len() - at >= 8 {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        let crc = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().expect("4 bytes"));
        let Some(body) = bytes.get(at + 8..at + 8 + len) else {
            break;
        };
        if crc32fast::hash(body) != crc {
            break;
        }
        match bincode::deserialize::<GameRecord>(body) {
            Ok(g) => games.push(g),
            Err(_) => break,
        }
        at += 8 + len;
    }
    (games, at)
}

/// Reads the valid records of a journal file; returns them and the byte length they fill (a
/// torn last record, from a kill in the middle of a write, is left out).
fn read_journal(path: &Path) -> Result<(Vec<GameRecord>, u64), StoreError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(io(path))?;
    let (games, at) = decode_journal(&bytes);
    if at < bytes.len() {
        tracing::warn!(
            "{}: dropped a torn record of {} bytes at the end (a game cut off while being written)",
            path.display(),
            bytes.len() - at
        );
    }
    Ok((games, at as u64))
}

/// Writes `bytes` to `path` through a synced temporary file and a rename.
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    let tmp = path.with_extension("part");
    let written = File::create(&tmp).and_then(|mut f| {
        f.write_all(bytes)?;
        f.sync_all()
    });
    if let Err(e) = written {
        // A part file left behind would hold space a full disk needs back.
        let _ = std::fs::remove_file(&tmp);
        return Err(io(&tmp)(e));
    }
    std::fs::rename(&tmp, path).map_err(io(path))
}

impl Spool {
    /// The next free chunk number of `worker` in `store`: where a new spool's numbering
    /// starts, so that it never overwrites a chunk an earlier run of the same id sent.
    pub fn next_sequence_in(store: &Store, worker: &str) -> Result<u64, StoreError> {
        Ok(store
            .list(&format!("games/{worker}/"))?
            .iter()
            .filter_map(|k| ChunkName::parse_key(k))
            .map(|c| c.seq)
            .max()
            .map_or(0, |m| m + 1))
    }

    /// Opens `worker`'s spool under `root`, recovering what a previous run left. Returns the
    /// spool and its sealed chunks waiting for upload, oldest first. `first_seq` gives the
    /// first sequence number when the spool is new (the store may already hold chunks of this
    /// worker id); if it gives `None` (stopped while asking), so does this.
    pub fn open(
        root: &Path,
        worker: &str,
        first_seq: impl FnOnce() -> Option<u64>,
    ) -> Result<Option<(Spool, Vec<PathBuf>)>, StoreError> {
        let dir = root.join(worker);
        std::fs::create_dir_all(&dir).map_err(io(&dir))?;
        let mut journals = Vec::new();
        let mut sealed: Vec<(u64, PathBuf)> = Vec::new();
        for e in std::fs::read_dir(&dir).map_err(io(&dir))? {
            let e = e.map_err(io(&dir))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let path = e.path();
            if let Some(s) = journal_seq(&name) {
                journals.push((s, path));
            } else if let Some(c) = ChunkName::parse_file(worker, &name) {
                sealed.push((c.seq, path));
            } else if name.ends_with(".part") {
                let _ = std::fs::remove_file(&path);
            }
        }
        journals.sort();
        sealed.sort();
        // A journal whose chunk exists was sealed; an older unsealed journal (never left by a
        // clean seal) is sealed now.
        let mut current = None;
        let n = journals.len();
        for (i, (s, path)) in journals.into_iter().enumerate() {
            if sealed.iter().any(|(c, _)| *c == s) {
                std::fs::remove_file(&path).map_err(io(&path))?;
            } else if i + 1 < n {
                let (games, _) = read_journal(&path)?;
                if !games.is_empty() {
                    let p = Spool::write_chunk(&dir, worker, s, &games)?;
                    sealed.push((s, p));
                }
                std::fs::remove_file(&path).map_err(io(&path))?;
            } else {
                current = Some((s, path));
            }
        }
        sealed.sort();
        let (seq, games, path, valid) = match current {
            Some((s, path)) => {
                let (games, valid) = read_journal(&path)?;
                let f = OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map_err(io(&path))?;
                f.set_len(valid).map_err(io(&path))?;
                f.sync_all().map_err(io(&path))?;
                (s, games, path, valid)
            }
            None => {
                let s = match sealed.last() {
                    Some((last, _)) => last + 1,
                    None => match first_seq() {
                        Some(s) => s,
                        None => return Ok(None),
                    },
                };
                let path = dir.join(journal_name(s));
                File::create(&path).map_err(io(&path))?;
                sync_dir(&dir)?;
                (s, Vec::new(), path, 0)
            }
        };
        if !games.is_empty() || !sealed.is_empty() {
            tracing::info!(
                worker,
                games_recovered = games.len(),
                chunks_waiting = sealed.len(),
                "recovered the spool in {}",
                dir.display()
            );
        }
        let journal = OpenOptions::new()
            .append(true)
            .open(&path)
            .map_err(io(&path))?;
        let spool = Spool {
            dir,
            worker: worker.to_owned(),
            seq,
            journal,
            valid,
            games,
        };
        Ok(Some((spool, sealed.into_iter().map(|(_, p)| p).collect())))
    }

    fn write_chunk(
        dir: &Path,
        worker: &str,
        seq: u64,
        games: &[GameRecord],
    ) -> Result<PathBuf, StoreError> {
        let name = ChunkName {
            worker: worker.to_owned(),
            seq,
            games: Some(games.len() as u64),
            positions: Some(games.iter().map(|g| g.moves.len() as u64).sum()),
        };
        let path = dir.join(name.file_name());
        write_atomic(&path, &chunk::encode(games))?;
        Ok(path)
    }

    /// The sequence number of the open journal (the chunk it will be sealed into).
    pub fn sequence(&self) -> u64 {
        self.seq
    }

    /// Games in the open journal.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// The games in the open journal (finished, not yet sealed into a chunk).
    pub fn journal_games(&self) -> &[GameRecord] {
        &self.games
    }

    /// Whether the open journal is empty.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Appends a finished game to the journal and syncs it to disk. On failure (a full disk)
    /// the journal is cut back to its last whole record and the game is not in it: calling
    /// again with the same game is safe.
    pub fn append(&mut self, game: &GameRecord) -> Result<(), StoreError> {
        let rec = frame_journal_record(&bincode::serialize(game).expect("records serialise"));
        let path = self.dir.join(journal_name(self.seq));
        let written = self
            .journal
            .write_all(&rec)
            .and_then(|_| self.journal.sync_data());
        if let Err(e) = written {
            let _ = self.journal.set_len(self.valid);
            return Err(io(&path)(e));
        }
        self.valid += rec.len() as u64;
        self.games.push(game.clone());
        Ok(())
    }

    /// Seals the journal's games into a chunk file (if there are any) and opens the next
    /// journal; returns the chunk's path.
    pub fn seal(&mut self) -> Result<Option<PathBuf>, StoreError> {
        if self.games.is_empty() {
            return Ok(None);
        }
        let chunk = Spool::write_chunk(&self.dir, &self.worker, self.seq, &self.games)?;
        let old = self.dir.join(journal_name(self.seq));
        let next = self.dir.join(journal_name(self.seq + 1));
        let f = File::create(&next).map_err(io(&next))?;
        sync_dir(&self.dir)?;
        std::fs::remove_file(&old).map_err(io(&old))?;
        self.journal = OpenOptions::new()
            .append(true)
            .open(&next)
            .map_err(io(&next))?;
        drop(f);
        self.seq += 1;
        self.valid = 0;
        self.games.clear();
        Ok(Some(chunk))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::GameResult;

    fn game(n: u16) -> GameRecord {
        GameRecord {
            variant: "hand-shogi".into(),
            start: None,
            moves: vec![n, 1, 2],
            searches: vec![None, None, None],
            result: GameResult::Draw,
            reason: "test".into(),
            resigned: false,
            model_step: 0,
        }
    }

    fn root(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("koma-spool-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_failed_append_keeps_the_journal_whole_and_can_be_tried_again() {
        let r = root("full");
        let (mut s, _) = Spool::open(&r, "w0", || Some(0)).unwrap().unwrap();
        s.append(&game(1)).unwrap();
        // The journal's writes now fail as on a full disk (Linux's /dev/full: ENOSPC).
        let real = std::mem::replace(
            &mut s.journal,
            OpenOptions::new().append(true).open("/dev/full").unwrap(),
        );
        let e = s.append(&game(2)).unwrap_err().to_string();
        assert!(e.contains("open-0000000000.journal"), "{e}");
        assert_eq!(s.len(), 1, "the failed game is not counted");
        // Space returns: the same game is appended again, once.
        s.journal = real;
        s.append(&game(2)).unwrap();
        drop(s);
        let (s, _) = Spool::open(&r, "w0", || Some(0)).unwrap().unwrap();
        assert_eq!(s.journal_games(), &[game(1), game(2)]);
        let _ = std::fs::remove_dir_all(&r);
    }

    #[test]
    fn journal_survives_a_kill_and_chunks_keep_their_names() {
        let r = root("kill");
        let (mut s, pending) = Spool::open(&r, "w0", || Some(5)).unwrap().unwrap();
        assert!(pending.is_empty());
        s.append(&game(1)).unwrap();
        s.append(&game(2)).unwrap();
        let c = s.seal().unwrap().unwrap();
        assert!(c.ends_with("0000000005-2g-6p.chunk"), "{}", c.display());
        s.append(&game(3)).unwrap();
        drop(s); // a kill: nothing is flushed beyond what append synced
                 // A torn record at the end (a kill during a write) is dropped.
        let j = r.join("w0").join(journal_name(6));
        let mut f = OpenOptions::new().append(true).open(&j).unwrap();
        f.write_all(&[9, 0, 0, 0, 1, 2]).unwrap();
        drop(f);
        let (mut s, pending) = Spool::open(&r, "w0", || panic!("not new"))
            .unwrap()
            .unwrap();
        assert_eq!(pending, vec![c.clone()]);
        assert_eq!(s.len(), 1);
        s.append(&game(4)).unwrap();
        let c2 = s.seal().unwrap().unwrap();
        let games = chunk::decode("k", &std::fs::read(&c2).unwrap()).unwrap();
        assert_eq!(games, vec![game(3), game(4)]);
        assert!(c2.ends_with("0000000006-2g-6p.chunk"));
        let _ = std::fs::remove_dir_all(&r);
    }

    #[test]
    fn a_kill_between_sealing_steps_duplicates_nothing() {
        let r = root("seal");
        let (mut s, _) = Spool::open(&r, "w1", || Some(0)).unwrap().unwrap();
        s.append(&game(1)).unwrap();
        // The chunk was written but the journal not yet replaced: simulate by writing the
        // chunk by hand beside the journal.
        let chunk = Spool::write_chunk(&r.join("w1"), "w1", 0, &[game(1)]).unwrap();
        drop(s);
        let (s, pending) = Spool::open(&r, "w1", || panic!("not new"))
            .unwrap()
            .unwrap();
        assert_eq!(pending, vec![chunk]);
        assert_eq!(s.len(), 0, "the sealed journal was dropped, not replayed");
        assert_eq!(s.seq, 1);
        // Uploaded and removed chunks leave the journal, which keeps the numbering.
        std::fs::remove_file(&pending[0]).unwrap();
        drop(s);
        let (s, pending) = Spool::open(&r, "w1", || panic!("not new"))
            .unwrap()
            .unwrap();
        assert!(pending.is_empty());
        assert_eq!(s.seq, 1);
        let _ = std::fs::remove_dir_all(&r);
    }

    #[test]
    fn a_new_spool_asks_for_its_first_number() {
        let r = root("new");
        assert!(Spool::open(&r, "w2", || None).unwrap().is_none());
        let (s, _) = Spool::open(&r, "w3", || Some(17)).unwrap().unwrap();
        assert_eq!(s.seq, 17);
        let _ = std::fs::remove_dir_all(&r);
    }
}
