//! Network inputs generated from the variant definition: board planes, hand planes and rule
//! state, always from the side to move's point of view, plus the per-move indices the policy
//! head scores.
//!
//! The side to move always "plays up the board": for the second player the board is turned
//! 180 degrees and the colours swapped, so one network serves both sides.

use koma_rules::{Color, Move, PieceKind, Position, Promotion, Variant};
use std::sync::Arc;

/// One prepared position: input planes and the policy indices of its legal moves.
#[derive(Debug, Clone)]
pub struct Request {
    /// Input planes, [planes * squares].
    pub input: Vec<f32>,
    /// One row per legal move.
    pub moves: Vec<MoveIndex>,
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
        let n = self.squares;
        let us = pos.side_to_move();
        let g = &self.variant.geometry;
        for &sq in g.squares() {
            let p = pos.piece_at(sq);
            if p.is_piece() {
                let plane = p.kind().index() + if p.color() == us { 0 } else { self.kinds };
                out[plane * n + self.persp(pos, sq) as usize] = 1.0;
            }
        }
        let base = 2 * self.kinds;
        let h = self.hand_kinds.len();
        for (i, &k) in self.hand_kinds.iter().enumerate() {
            for (j, c) in [us, us.opposite()].into_iter().enumerate() {
                let v = pos.in_hand(c, k) as f32 / HAND_SCALE;
                if v > 0.0 {
                    out[(base + j * h + i) * n..(base + j * h + i + 1) * n].fill(v);
                }
            }
        }
        let rest = base + 2 * h;
        out[rest * n..(rest + 1) * n].fill(1.0);
        let reps = (repetitions.saturating_sub(1)) as f32 / 3.0;
        out[(rest + 1) * n..(rest + 2) * n].fill(reps);
        let progress = pos.ply() as f32 / self.variant.rules.max_plies as f32;
        out[(rest + 2) * n..(rest + 3) * n].fill(progress);
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
                    out[(rest + 3 + j * ATTACK_LEVELS + level) * n + at] = 1.0;
                }
            }
        }
        if self.specials {
            // Per side: where an enemy that ends its move burns, and which pieces nets hold.
            let special = rest + 3 + 2 * ATTACK_LEVELS;
            for (j, c) in [us, us.opposite()].into_iter().enumerate() {
                for sq in pos.burn_zone(c) {
                    out[(special + j) * n + self.persp(pos, sq) as usize] = 1.0;
                }
                for sq in pos.immobilized(c) {
                    out[(special + 2 + j) * n + self.persp(pos, sq) as usize] = 1.0;
                }
            }
        }
    }

    /// The network input of `pos` and its legal `moves`; `repetitions` overrides the count
    /// taken from the position's history (training samples rebuilt from text have none).
    pub fn request(&self, pos: &Position, moves: &[Move], repetitions: Option<usize>) -> Request {
        let mut input = vec![0.0; self.input_len()];
        let reps = repetitions.unwrap_or_else(|| pos.repetitions());
        self.encode_with_repetitions(pos, reps, &mut input);
        Request {
            input,
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
