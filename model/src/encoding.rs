//! Network inputs generated from the variant definition: board planes, hand planes and rule
//! state, always from the side to move's point of view, plus the per-move indices the policy
//! head scores.
//!
//! The side to move always "plays up the board": for the second player the board is turned
//! 180 degrees and the colours swapped, so one network serves both sides.

use koma_rules::{Color, Move, PieceKind, Position, Promotion, Variant};
use std::sync::Arc;

/// One prepared position: its input features and the policy indices of its legal moves.
#[derive(Debug, Clone)]
pub struct Request {
    /// The input planes, held sparsely ([`Encoder::scatter`] writes them out).
    pub features: Features,
    /// One row per legal move.
    pub moves: Vec<MoveIndex>,
}

/// A position's input planes as the encoder fills them. Every plane is either binary (a
/// piece, an attack level, a burn zone, a piece held by a net) or uniform (a hand count, the
/// constant plane, repetitions, progress), so a position is the list of its ones and one
/// value per uniform plane: about a thousand numbers on a 19x19 board (a few hundred on
/// smaller ones) where its dense planes are tens of thousands. The CPU inference pass computes the first convolution straight from this form
/// (`crate::sparse_stem`); the tensor path writes the dense planes out.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Features {
    /// `plane * squares + square` of every input equal to 1, each once.
    pub ones: Vec<u32>,
    /// The value of each uniform plane, in plane order from the start of
    /// [`Encoder::uniform_planes`].
    pub uniform: Vec<f32>,
}

/// Hand counts are given to the network divided by this.
const HAND_SCALE: f32 = 4.0;

/// Attack-count thresholds with a plane each, per side: "at least one, two, three pieces bear
/// on this square". With them a hanging piece (attacked, undefended) or a safe destination is
/// a per-square fact the first layer can read, instead of something the trunk must learn to
/// trace along every slider's line.
const ATTACK_LEVELS: usize = 3;

/// Per-move index fields: origin square (-1 for a drop), destination, first kill square (-1
/// for none), promotion (0 none, 1 promote, 2 decline), hand index of a dropped kind (-1),
/// last kill square of a move with two or more kills (-1), the square a move's first shot is
/// fired from (-1 without shots) and that shot's target (-1). With the last kill and the shot
/// no two legal moves of any built-in variant share an index (tests/policy_index.rs).
pub type MoveIndex = [i64; 8];

/// Number of fields in a [`MoveIndex`].
pub const MOVE_FIELDS: usize = 8;

/// The input layout of one variant.
#[derive(Debug, Clone)]
pub struct Encoder {
    variant: Arc<Variant>,
    kinds: usize,
    hand_kinds: Vec<PieceKind>,
    hand_slot: Vec<i64>,
    squares: usize,
    /// Whether a rule module (Ko Shogi's) adds shots, burns and nets: then the policy scores
    /// shots and four more planes show burn zones and held pieces.
    specials: bool,
}

impl Encoder {
    /// The encoder of a variant.
    pub fn new(variant: &Arc<Variant>) -> Encoder {
        let kinds = variant.num_kinds();
        let mut hand_kinds = Vec::new();
        let mut hand_slot = vec![-1; kinds];
        if variant.rules.drops {
            for (k, p) in variant.pieces.iter().enumerate() {
                if p.demotes_to.is_none() && !p.royal {
                    hand_slot[k] = hand_kinds.len() as i64;
                    hand_kinds.push(PieceKind(k as u8));
                }
            }
        }
        Encoder {
            variant: variant.clone(),
            kinds,
            hand_kinds,
            hand_slot,
            squares: variant.geometry.num_squares(),
            specials: variant.has_rule_module(),
        }
    }

    /// The variant encoded.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// Number of input planes.
    pub fn planes(&self) -> usize {
        2 * self.kinds
            + 2 * self.hand_kinds.len()
            + 3
            + 2 * ATTACK_LEVELS
            + if self.specials { 4 } else { 0 }
    }

    /// Whether moves can shoot, so that the policy head needs its shot term.
    pub fn has_shots(&self) -> bool {
        self.specials
    }

    /// Number of kinds that can be dropped (rows of the drop embedding).
    pub fn hand_kinds(&self) -> usize {
        self.hand_kinds.len()
    }

    /// Board squares (height x width).
    pub fn squares(&self) -> usize {
        self.squares
    }

    /// Board height and width.
    pub fn shape(&self) -> (i64, i64) {
        let g = &self.variant.geometry;
        (g.ranks() as i64, g.files() as i64)
    }

    /// Floats per encoded position.
    pub fn input_len(&self) -> usize {
        self.planes() * self.squares
    }

    /// The planes that hold one value on every square (the hands, the constant plane,
    /// repetitions and progress); every other plane is binary.
    pub fn uniform_planes(&self) -> std::ops::Range<usize> {
        let start = 2 * self.kinds;
        start..start + 2 * self.hand_kinds.len() + 3
    }

    /// Dense index of `sq` as the side to move sees it.
    #[inline]
    fn persp(&self, pos: &Position, sq: koma_rules::Square) -> i64 {
        let i = self.variant.geometry.board_index(sq).expect("board square") as i64;
        match pos.side_to_move() {
            Color::Black => i,
            Color::White => self.squares as i64 - 1 - i,
        }
    }

    /// Writes the input planes of `pos` into `out` (length [`Encoder::input_len`]).
    pub fn encode(&self, pos: &Position, out: &mut [f32]) {
        self.encode_with_repetitions(pos, pos.repetitions(), out);
    }

    /// [`Encoder::encode`] with the repetition count given, for positions rebuilt from text
    /// (training samples), whose history is not at hand.
    pub fn encode_with_repetitions(&self, pos: &Position, repetitions: usize, out: &mut [f32]) {
        assert_eq!(out.len(), self.input_len());
        out.fill(0.0);
        self.scatter(&self.features(pos, repetitions), out);
    }

    /// Writes `features` (this encoder's) into the dense planes `out`, which must be all
    /// zeros and [`Encoder::input_len`] long: only the features' non-zero inputs are written.
    pub fn scatter(&self, features: &Features, out: &mut [f32]) {
        debug_assert_eq!(out.len(), self.input_len());
        debug_assert_eq!(features.uniform.len(), self.uniform_planes().len());
        let n = self.squares;
        for (plane, &v) in self.uniform_planes().zip(&features.uniform) {
            if v != 0.0 {
                out[plane * n..(plane + 1) * n].fill(v);
            }
        }
        for &i in &features.ones {
            out[i as usize] = 1.0;
        }
    }

    /// The input features of `pos` with `repetitions` occurrences of it so far.
    pub fn features(&self, pos: &Position, repetitions: usize) -> Features {
        let n = self.squares;
        let us = pos.side_to_move();
        let g = &self.variant.geometry;
        let mut ones = Vec::with_capacity(n);
        let one = |plane: usize, at: usize| (plane * n + at) as u32;
        for &sq in g.squares() {
            let p = pos.piece_at(sq);
            if p.is_piece() {
                let plane = p.kind().index() + if p.color() == us { 0 } else { self.kinds };
                ones.push(one(plane, self.persp(pos, sq) as usize));
            }
        }
        let mut uniform = Vec::with_capacity(self.uniform_planes().len());
        for side in [us, us.opposite()] {
            for &k in &self.hand_kinds {
                uniform.push(pos.in_hand(side, k) as f32 / HAND_SCALE);
            }
        }
        uniform.push(1.0);
        uniform.push((repetitions.saturating_sub(1)) as f32 / 3.0);
        uniform.push(pos.ply() as f32 / self.variant.rules.max_plies as f32);
        let rest = self.uniform_planes().end;
        let mut counts = vec![0u8; n];
        for (j, c) in [us, us.opposite()].into_iter().enumerate() {
            counts.fill(0);
            pos.add_attack_counts(c, &mut counts);
            for (i, &count) in counts.iter().enumerate() {
                let at = match us {
                    Color::Black => i,
                    Color::White => n - 1 - i,
                };
                for level in 0..ATTACK_LEVELS.min(count as usize) {
                    ones.push(one(rest + j * ATTACK_LEVELS + level, at));
                }
            }
        }
        if self.specials {
            // Per side: where an enemy that ends its move burns, and which pieces nets hold.
            // A square next to two flames is listed twice, and is one input.
            let special = rest + 2 * ATTACK_LEVELS;
            let first = ones.len();
            for (j, c) in [us, us.opposite()].into_iter().enumerate() {
                for sq in pos.burn_zone(c) {
                    ones.push(one(special + j, self.persp(pos, sq) as usize));
                }
                for sq in pos.immobilized(c) {
                    ones.push(one(special + 2 + j, self.persp(pos, sq) as usize));
                }
            }
            let mut special_ones = ones.split_off(first);
            special_ones.sort_unstable();
            special_ones.dedup();
            ones.extend(special_ones);
        }
        Features { ones, uniform }
    }

    /// The network input of `pos` and its legal `moves`; `repetitions` overrides the count
    /// taken from the position's history (training samples rebuilt from text have none).
    pub fn request(&self, pos: &Position, moves: &[Move], repetitions: Option<usize>) -> Request {
        let reps = repetitions.unwrap_or_else(|| pos.repetitions());
        Request {
            features: self.features(pos, reps),
            moves: moves.iter().map(|m| self.move_index(pos, m)).collect(),
        }
    }

    /// The policy-head indices of `mv` in `pos`.
    pub fn move_index(&self, pos: &Position, mv: &Move) -> MoveIndex {
        let to = self.persp(pos, mv.to());
        let promo = match mv.promotion() {
            Promotion::None => 0,
            Promotion::Promote => 1,
            Promotion::Decline => 2,
        };
        match mv.dropped() {
            Some(k) => [-1, to, -1, promo, self.hand_slot[k.index()], -1, -1, -1],
            None => {
                let kills = mv.kills();
                let kill = kills.first().map_or(-1, |&k| self.persp(pos, k));
                let last = match kills {
                    [_, .., l] => self.persp(pos, *l),
                    _ => -1,
                };
                let (shot_from, shot_at) = match mv.shot_mask() {
                    0 => (-1, -1),
                    mask => {
                        let fired = mv.via().unwrap_or(mv.to());
                        let target = kills[mask.trailing_zeros() as usize];
                        (self.persp(pos, fired), self.persp(pos, target))
                    }
                };
                [
                    self.persp(pos, mv.from()),
                    to,
                    kill,
                    promo,
                    -1,
                    last,
                    shot_from,
                    shot_at,
                ]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_positions::random_positions;
    use koma_rules::load_variant;
    use koma_rules::variant::builtin_ids;

    /// The features list each input once, on a binary plane, with one value per uniform
    /// plane: the sparse stem adds every listed one, so a duplicate would count twice.
    #[test]
    fn features_list_each_binary_input_once() {
        for id in builtin_ids() {
            let v = load_variant(id).unwrap();
            let encoder = Encoder::new(&v);
            let n = encoder.squares();
            for p in random_positions(id, 20) {
                let f = encoder.features(&p, 1);
                assert_eq!(f.uniform.len(), encoder.uniform_planes().len(), "{id}");
                let mut ones = f.ones.clone();
                ones.sort_unstable();
                ones.dedup();
                assert_eq!(ones.len(), f.ones.len(), "{id}: an input listed twice");
                for &i in &f.ones {
                    let plane = i as usize / n;
                    assert!(plane < encoder.planes(), "{id}: plane {plane}");
                    assert!(!encoder.uniform_planes().contains(&plane), "{id}: {plane}");
                }
            }
        }
    }
}
