//! Variants as data: a validated variant definition with its compiled move tables.

mod attack_tables;
mod builtin;
mod error;
pub mod file;
mod load;

pub use attack_tables::AttackTables;
pub use builtin::{builtin_ids, builtin_text};
pub use error::VariantError;

use crate::color::Color;
use crate::geometry::Geometry;
use crate::piece::{Piece, PieceKind};
use crate::square::Square;
use crate::xbetza::MoveTable;
use crate::zobrist::Zobrist;

/// Whether a move may leave the mover's royal piece attacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckRule {
    /// Shogi: a move that leaves one's own royal piece attacked is illegal.
    KingSafety,
    /// Moving into check is legal; capturing the last royal piece wins.
    RoyalCapture,
}

/// When pieces promote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromotionRule {
    /// Pieces never promote.
    None,
    /// A move that ends in the farthest `depth` ranks may (or must) promote.
    Zone {
        /// Depth of the zone in ranks.
        depth: u8,
    },
}

/// Rule flags of a variant beyond the piece moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rules {
    /// Self-check legality.
    pub check: CheckRule,
    /// Captured pieces go to hand and may be dropped.
    pub drops: bool,
    /// Promotion trigger.
    pub promotion: PromotionRule,
    /// Occurrences of one position that end the game.
    pub repetition: u8,
    /// Whether perpetual check loses (else the repetition is a draw).
    pub perpetual_check_loses: bool,
    /// Plies after which the game is drawn.
    pub max_plies: u32,
}

/// Restrictions on dropping one kind (the Hand Shogi drop rules, as data).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DropRules {
    /// Number of farthest ranks the piece may not be dropped on.
    pub far_ranks: u8,
    /// No drop on a file holding another piece of this kind of the same player.
    pub one_per_file: bool,
    /// The drop must give check.
    pub must_check: bool,
}

/// One piece type of a variant.
#[derive(Debug, Clone)]
pub struct PieceType {
    /// Notation ID (`N`, `SO`, `+N`).
    pub id: String,
    /// Human name.
    pub name: String,
    /// The XBetza text it was compiled from.
    pub betza: String,
    /// Whether it is royal.
    pub royal: bool,
    /// Compiled moves, indexed by colour.
    pub moves: [MoveTable; 2],
    /// Its promoted form.
    pub promotes_to: Option<PieceKind>,
    /// Whether promotion, once open, is forced.
    pub promotion_forced: bool,
    /// The unpromoted form, for promoted kinds.
    pub demotes_to: Option<PieceKind>,
    /// Drop restrictions.
    pub drop: DropRules,
}

/// A validated variant: board, pieces with compiled moves, setup, rules and hash keys.
#[derive(Debug, Clone)]
pub struct Variant {
    /// Human name.
    pub name: String,
    /// Short identifier.
    pub id: String,
    /// Board shape.
    pub geometry: Geometry,
    /// Piece types; a [`PieceKind`] indexes this list.
    pub pieces: Vec<PieceType>,
    /// Start position: every piece of both colours.
    pub setup: Vec<(Square, Piece)>,
    /// Start hands (the same for both colours).
    pub start_hand: Vec<(PieceKind, u8)>,
    /// Rule flags.
    pub rules: Rules,
    /// Hash keys.
    pub zobrist: Zobrist,
    /// Reverse move tables for attack detection, indexed by the attacker's colour.
    pub attacks: [AttackTables; 2],
    /// Promotion-zone membership per mailbox cell, indexed by colour.
    zone: [Vec<bool>; 2],
    /// Rank from each colour's own side, per mailbox cell.
    relative_rank: [Vec<u8>; 2],
}

impl Variant {
    /// Number of piece kinds.
    #[inline]
    pub fn num_kinds(&self) -> usize {
        self.pieces.len()
    }

    /// The piece type of a kind.
    #[inline]
    pub fn piece(&self, kind: PieceKind) -> &PieceType {
        &self.pieces[kind.index()]
    }

    /// The kind with notation ID `id` (case-sensitive, uppercase form).
    pub fn kind_by_id(&self, id: &str) -> Option<PieceKind> {
        self.pieces
            .iter()
            .position(|p| p.id == id)
            .map(|i| PieceKind(i as u8))
    }

    /// The kind a captured piece of `kind` becomes in hand: its unpromoted form.
    #[inline]
    pub fn hand_kind(&self, kind: PieceKind) -> PieceKind {
        self.pieces[kind.index()].demotes_to.unwrap_or(kind)
    }

    /// Whether `sq` is in `color`'s promotion zone.
    #[inline]
    pub fn in_zone(&self, color: Color, sq: Square) -> bool {
        self.zone[color.index()][sq.index()]
    }

    /// Rank of `sq` counted from `color`'s own back rank (0 = back rank).
    #[inline]
    pub fn relative_rank(&self, color: Color, sq: Square) -> u8 {
        self.relative_rank[color.index()][sq.index()]
    }

    /// Whether `color` may drop `kind` on `sq`, as far as the board-independent restrictions go
    /// (the rank restriction).
    #[inline]
    pub fn drop_rank_allowed(&self, color: Color, kind: PieceKind, sq: Square) -> bool {
        let far = self.pieces[kind.index()].drop.far_ranks;
        far == 0 || self.relative_rank(color, sq) + far < self.geometry.ranks()
    }

    /// Whether any piece kind has moves beyond plain leaps and slides.
    pub fn has_complex_pieces(&self) -> bool {
        self.pieces.iter().any(|p| !p.moves[0].is_simple())
    }
}
