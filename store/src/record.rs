//! Game records: the moves of a self-play game, the search statistics of its full searches and
//! its result. Positions are not stored; they are rebuilt by replaying the moves.
//!
//! Moves are stored as their index among the legal moves sorted by canonical text, which keeps
//! records compact and independent of the generator's internal order.

use crate::error::StoreError;
use koma_rules::{Move, Outcome, Position, Variant};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The legal moves of `pos`, sorted by their canonical text.
pub fn sorted_legal(pos: &mut Position) -> Vec<Move> {
    let mut moves: Vec<(String, Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (pos.move_text(&m), m))
        .collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves.into_iter().map(|(_, m)| m).collect()
}

/// What a full search said about one position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchRecord {
    /// Policy target: (index among the sorted legal moves, probability); small entries dropped.
    pub policy: Vec<(u16, f32)>,
    /// Root value for the side to move.
    pub value: f32,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameResult {
    /// The first player won.
    BlackWin,
    /// The second player won.
    WhiteWin,
    /// A draw.
    Draw,
}

impl GameResult {
    /// The result of an outcome.
    pub fn from_outcome(o: &Outcome) -> GameResult {
        match o.winner() {
            Some(koma_rules::Color::Black) => GameResult::BlackWin,
            Some(koma_rules::Color::White) => GameResult::WhiteWin,
            None => GameResult::Draw,
        }
    }

    /// Win/draw/loss probabilities for `side`.
    pub fn wdl_for(self, side: koma_rules::Color) -> [f32; 3] {
        match (self, side) {
            (GameResult::Draw, _) => [0.0, 1.0, 0.0],
            (GameResult::BlackWin, koma_rules::Color::Black)
            | (GameResult::WhiteWin, koma_rules::Color::White) => [1.0, 0.0, 0.0],
            _ => [0.0, 0.0, 1.0],
        }
    }
}

/// One self-play game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Variant id.
    pub variant: String,
    /// Start position text, when not the variant's start.
    pub start: Option<String>,
    /// Moves as indices among the sorted legal moves.
    pub moves: Vec<u16>,
    /// Per move: the full search's statistics, or `None` for a cheap search.
    pub searches: Vec<Option<SearchRecord>>,
    /// Result.
    pub result: GameResult,
    /// How it ended (an [`Outcome`] description, or "resignation").
    pub reason: String,
    /// Whether the loser resigned.
    pub resigned: bool,
    /// Training step of the model that played it.
    pub model_step: u64,
}

impl GameRecord {
    /// Replays the game, calling `visit(position, sorted legal moves, search record)` before
    /// each move; returns the final position.
    pub fn replay(
        &self,
        variant: &Arc<Variant>,
        mut visit: impl FnMut(&mut Position, &[Move], Option<&SearchRecord>),
    ) -> Result<Position, StoreError> {
        if self.variant != variant.id {
            return Err(StoreError::BadRecord(format!(
                "record of variant '{}' replayed as '{}'",
                self.variant, variant.id
            )));
        }
        if self.searches.len() != self.moves.len() {
            return Err(StoreError::BadRecord(
                "searches and moves differ in length".into(),
            ));
        }
        let mut pos = match &self.start {
            Some(t) => {
                Position::from_text(variant, t).map_err(|e| StoreError::BadRecord(e.to_string()))?
            }
            None => Position::start(variant),
        };
        for (ply, (&i, s)) in self.moves.iter().zip(&self.searches).enumerate() {
            let moves = sorted_legal(&mut pos);
            let Some(&m) = moves.get(i as usize) else {
                return Err(StoreError::BadRecord(format!(
                    "move {} of ply {ply} is out of range ({} legal moves)",
                    i,
                    moves.len()
                )));
            };
            if let Some(s) = s {
                if s.policy.iter().any(|&(j, _)| j as usize >= moves.len()) {
                    return Err(StoreError::BadRecord(format!(
                        "policy entry out of range at ply {ply}"
                    )));
                }
            }
            visit(&mut pos, &moves, s.as_ref());
            pos.make_move(m);
        }
        Ok(pos)
    }

    /// Number of positions with a full search (training samples).
    pub fn samples(&self) -> usize {
        self.searches.iter().filter(|s| s.is_some()).count()
    }
}
