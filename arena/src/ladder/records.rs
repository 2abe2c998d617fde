//! The ladder's files: `results.csv` (one line per match played, appended as each ends, so an
//! interrupted ladder keeps what it played) and `ratings.csv` (the fit, rewritten each run).

use serde::{Deserialize, Serialize};
use std::path::Path;

/// One match as recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchLine {
    /// The first player's label (`step-N` for a model, else the player text).
    pub a: String,
    /// The second player's label.
    pub b: String,
    /// Games won by `a`.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games lost by `a`.
    pub losses: u32,
}

/// One rated player as written to `ratings.csv`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingLine {
    /// Label.
    pub player: String,
    /// Training step (models only).
    pub step: Option<u64>,
    /// Minutes of training when the model was published (models only).
    pub minutes: Option<f64>,
    /// Elo, `random` = 0.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lo95: f64,
    /// Upper end of the 95% interval.
    pub hi95: f64,
    /// Games played.
    pub games: u32,
}

/// A ladder file that cannot be read or written.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {reason}")]
pub struct RecordError {
    /// The file.
    pub path: String,
    /// What is wrong.
    pub reason: String,
}

fn err(path: &Path, reason: impl std::fmt::Display) -> RecordError {
    RecordError {
        path: path.display().to_string(),
        reason: reason.to_string(),
    }
}

/// The matches recorded so far (none if the file does not exist); a damaged line is an error
/// naming its line.
pub fn read_results(path: &Path) -> Result<Vec<MatchLine>, RecordError> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut r = csv::Reader::from_path(path).map_err(|e| err(path, e))?;
    let mut out = Vec::new();
    for (i, line) in r.deserialize().enumerate() {
        out.push(line.map_err(|e| err(path, format!("line {}: {e}", i + 2)))?);
    }
    Ok(out)
}

/// Appends one match (writing the header first into a new file) and syncs it.
pub fn append_result(path: &Path, m: &MatchLine) -> Result<(), RecordError> {
    let new = !path.exists()
        || std::fs::metadata(path)
            .map(|m| m.len() == 0)
            .unwrap_or(true);
    let f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| err(path, e))?;
    let mut w = csv::WriterBuilder::new().has_headers(new).from_writer(f);
    w.serialize(m).map_err(|e| err(path, e))?;
    w.flush().map_err(|e| err(path, e))?;
    w.get_ref().sync_data().map_err(|e| err(path, e))
}

/// Writes the ratings (through a temporary file and a rename).
pub fn write_ratings(path: &Path, lines: &[RatingLine]) -> Result<(), RecordError> {
    let tmp = path.with_extension("csv.part");
    {
        let mut w = csv::Writer::from_path(&tmp).map_err(|e| err(&tmp, e))?;
        for l in lines {
            w.serialize(l).map_err(|e| err(&tmp, e))?;
        }
        w.flush().map_err(|e| err(&tmp, e))?;
    }
    std::fs::rename(&tmp, path).map_err(|e| err(path, e))
}

/// Reads `ratings.csv`.
pub fn read_ratings(path: &Path) -> Result<Vec<RatingLine>, RecordError> {
    let mut r = csv::Reader::from_path(path).map_err(|e| err(path, e))?;
    r.deserialize()
        .enumerate()
        .map(|(i, l)| l.map_err(|e| err(path, format!("line {}: {e}", i + 2))))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_append_and_read_back_and_damage_is_named() {
        let dir = std::env::temp_dir().join(format!("koma-ladder-rec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("results.csv");
        let _ = std::fs::remove_file(&p);
        assert!(read_results(&p).unwrap().is_empty());
        let a = MatchLine {
            a: "step-100".into(),
            b: "uci:fairy-stockfish;go=depth 1".into(),
            wins: 3,
            draws: 1,
            losses: 0,
        };
        let b = MatchLine {
            a: "step-200".into(),
            b: "random".into(),
            wins: 4,
            draws: 0,
            losses: 0,
        };
        append_result(&p, &a).unwrap();
        append_result(&p, &b).unwrap();
        assert_eq!(read_results(&p).unwrap(), vec![a, b]);
        std::fs::write(&p, "a,b,wins,draws,losses\nx,y,1,zero,0\n").unwrap();
        let e = read_results(&p).unwrap_err().to_string();
        assert!(e.contains("results.csv") && e.contains("line 2"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
