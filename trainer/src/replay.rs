//! The replay window: the most recent training positions, rebuilt from game records.
//!
//! A sample keeps its position as text plus the repetition count (the text has no history),
//! its sparse policy target, the game result and the material balance a few plies later for
//! the side to move; inputs are encoded when a batch is drawn, which keeps the window small
//! even for 19x19 variants.

use koma_model::{Model, Request};
use koma_rules::{Color, Move, PieceValues, Position, Variant};
use koma_store::{sorted_legal, GameRecord};
use rand::Rng;
use std::collections::VecDeque;
use std::sync::Arc;

/// One training position.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Position text.
    pub text: String,
    /// Occurrences of the position in its game so far.
    pub repetitions: u8,
    /// (index among the sorted legal moves, probability).
    pub policy: Vec<(u16, f32)>,
    /// Win/draw/loss of the game for the side to move.
    pub wdl: [f32; 3],
    /// Material balance (see [`PieceValues::balance`]) for the side to move, `horizon` plies
    /// later (or at the end of the game, if sooner).
    pub material: f32,
}

/// How a record becomes training targets.
#[derive(Debug, Clone)]
pub struct TargetRule {
    /// Piece values behind the material targets.
    pub values: PieceValues,
    /// Plies ahead at which the material target is taken.
    pub horizon: usize,
    /// Share of the root value (against the game result) in the value target.
    pub q_share: f32,
    /// Half-life in plies of a decisive result before the end of its game (0: no decay);
    /// see `TrainerConfig::value_half_life`.
    pub half_life: f32,
}

/// The samples of a game record (its full-search positions).
pub fn samples_of(
    record: &GameRecord,
    variant: &Arc<Variant>,
    rule: &TargetRule,
) -> Result<Vec<Sample>, String> {
    let (values, horizon) = (&rule.values, rule.horizon);
    let q = rule.q_share.clamp(0.0, 1.0);
    let mut out = Vec::with_capacity(record.samples());
    // Balance for the first player at every ply, the final position included.
    let mut balance = Vec::with_capacity(record.moves.len() + 1);
    let mut at_ply = Vec::with_capacity(record.samples());
    let end = record.moves.len();
    let last = record
        .replay(variant, |pos, _moves, search| {
            balance.push(values.balance(pos, Color::Black));
            if let Some(s) = search {
                let ply = balance.len() - 1;
                at_ply.push((ply, pos.side_to_move()));
                let result = decay(
                    record.result.wdl_for(pos.side_to_move()),
                    end.saturating_sub(ply),
                    rule.half_life,
                );
                out.push(Sample {
                    text: pos.to_text(),
                    repetitions: pos.repetitions().min(255) as u8,
                    policy: s.policy.clone(),
                    wdl: blend(result, s.value, q),
                    material: 0.0,
                });
            }
        })
        .map_err(|e| e.to_string())?;
    balance.push(values.balance(&last, Color::Black));
    for (sample, &(ply, side)) in out.iter_mut().zip(&at_ply) {
        let ahead = balance[(ply + horizon).min(balance.len() - 1)];
        sample.material = match side {
            Color::Black => ahead,
            Color::White => -ahead,
        };
    }
    Ok(out)
}

/// A game's win/draw/loss seen `distance` plies before its end: `0.5^(distance / half_life)`
/// of the win and of the loss, the rest moved to the draw (a non-positive half-life keeps
/// the result whole).
fn decay(result: [f32; 3], distance: usize, half_life: f32) -> [f32; 3] {
    if half_life.is_nan() || half_life <= 0.0 {
        return result;
    }
    let keep = 0.5f32.powf(distance as f32 / half_life);
    let (w, l) = (keep * result[0], keep * result[2]);
    [w, 1.0 - w - l, l]
}

/// The value target: `(1 - q)` of the game's win/draw/loss plus `q` of the root value
/// `v` in [-1, 1], read as a win probability of `(1 + v) / 2` with no draw.
fn blend(result: [f32; 3], v: f32, q: f32) -> [f32; 3] {
    let v = if v.is_finite() {
        v.clamp(-1.0, 1.0)
    } else {
        0.0
    };
    let root = [(1.0 + v) / 2.0, 0.0, (1.0 - v) / 2.0];
    [0, 1, 2].map(|i| (1.0 - q) * result[i] + q * root[i])
}

/// The most recent samples, oldest dropped first.
#[derive(Debug, Default)]
pub struct ReplayWindow {
    samples: VecDeque<Sample>,
    capacity: usize,
}

/// A drawn batch: requests for the network and dense targets aligned with their moves.
#[derive(Debug)]
pub struct TrainingBatch {
    /// Encoded positions.
    pub requests: Vec<Request>,
    /// Policy target per move, flattened in request order.
    pub policy: Vec<f32>,
    /// WDL targets, flattened.
    pub wdl: Vec<f32>,
    /// Material targets, one per request.
    pub material: Vec<f32>,
}

impl TrainingBatch {
    /// Adds `other`'s positions and targets after this batch's.
    pub fn append(&mut self, other: TrainingBatch) {
        self.requests.extend(other.requests);
        self.policy.extend(other.policy);
        self.wdl.extend(other.wdl);
        self.material.extend(other.material);
    }
}

impl ReplayWindow {
    /// An empty window of `capacity` samples.
    pub fn new(capacity: usize) -> ReplayWindow {
        ReplayWindow {
            samples: VecDeque::with_capacity(capacity.min(1 << 20)),
            capacity: capacity.max(1),
        }
    }

    /// Number of samples held.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether the window is empty.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// Adds samples at the new end.
    pub fn push(&mut self, s: Vec<Sample>) {
        for x in s {
            if self.samples.len() == self.capacity {
                self.samples.pop_front();
            }
            self.samples.push_back(x);
        }
    }

    /// Adds older samples at the old end (rebuilding after a restart), while room remains.
    pub fn push_old(&mut self, s: Vec<Sample>) {
        for x in s.into_iter().rev() {
            if self.samples.len() >= self.capacity {
                return;
            }
            self.samples.push_front(x);
        }
    }

    /// Whether the window is full.
    pub fn is_full(&self) -> bool {
        self.samples.len() >= self.capacity
    }

    /// Draws `n` samples uniformly and encodes them for `model`.
    pub fn draw(
        &self,
        n: usize,
        model: &Model,
        variant: &Arc<Variant>,
        rng: &mut impl Rng,
    ) -> TrainingBatch {
        let enc = model.encoder();
        let mut requests = Vec::with_capacity(n);
        let mut policy = Vec::new();
        let mut wdl = Vec::with_capacity(3 * n);
        let mut material = Vec::with_capacity(n);
        while requests.len() < n && !self.samples.is_empty() {
            let s = &self.samples[rng.gen_range(0..self.samples.len())];
            let Ok(mut pos) = Position::from_text(variant, &s.text) else {
                continue;
            };
            let moves: Vec<Move> = sorted_legal(&mut pos);
            if moves.is_empty() {
                continue;
            }
            let mut target = vec![0.0f32; moves.len()];
            for &(i, p) in &s.policy {
                if let Some(t) = target.get_mut(i as usize) {
                    *t = p;
                }
            }
            policy.extend_from_slice(&target);
            wdl.extend_from_slice(&s.wdl);
            material.push(s.material);
            requests.push(enc.request(&pos, &moves, Some(s.repetitions as usize)));
        }
        TrainingBatch {
            requests,
            policy,
            wdl,
            material,
        }
    }
}
