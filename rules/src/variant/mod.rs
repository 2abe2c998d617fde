//! Variants as data: a validated variant definition with its compiled move tables.

mod attack_tables;
mod builtin;
mod error;
pub mod file;
mod load;

pub use attack_tables::{AttackTables, PieceSet};
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
    /// Every capture promotes the capturer (forced) and nothing else does, apart from the
    /// optional last-rank promotion of the pieces that have it; contagion and switchbacks are
    /// per-piece refinements (see [`crate::promotion`]).
    Capture,
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
    /// Under capture promotion, whether a capture also turns a promoted capturer back.
    pub switchback: bool,
    /// Most turn skips in a row per player, if limited.
    pub max_consecutive_skips: Option<u8>,
    /// Most checking moves in a row per player, if limited.
    pub max_consecutive_checks: Option<u8>,
}

/// A set of piece kinds as a bit mask (kinds are below [`crate::piece::MAX_KINDS`]), so that
/// the move generator tests a victim against a restriction in one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct KindSet(pub u128);

impl KindSet {
    /// Adds a kind.
    pub fn insert(&mut self, k: PieceKind) {
        self.0 |= 1 << k.0;
    }

    /// Whether a kind is in the set.
    #[inline]
    pub fn contains(self, k: PieceKind) -> bool {
        self.0 & (1 << k.0) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
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
    /// The unpromoted form, for promoted kinds (where two kinds share a promoted form, which
    /// only variants without drops and switchbacks allow, the first of them).
    pub demotes_to: Option<PieceKind>,
    /// Drop restrictions.
    pub drop: DropRules,
    /// Under switchback rules: captures leave the kind unchanged.
    pub never_flips: bool,
    /// Under capture promotion: what capturing this piece turns the capturer into.
    pub contagious: Option<PieceKind>,
    /// Ignores contagion (takes its ordinary capture promotion instead).
    pub contagion_immune: bool,
    /// A non-capture ending on the farthest rank may promote (`+`) or not (`=`).
    pub last_rank_promotion: bool,
    /// Kinds this piece may not capture.
    pub cannot_capture: KindSet,
    /// May not capture a protected enemy royal piece.
    pub no_capture_protected_royal: bool,
    /// The kind it becomes by a capture, contagion aside: computed at load from the promotion
    /// rule, so that the move generator and `make_move` read one answer.
    pub after_capture: PieceKind,
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
    /// Piece codes (both colours) of the royal kinds.
    pub(crate) royal_codes: PieceSet,
    /// Piece codes of the kinds that may not capture protected royals.
    pub(crate) protected_royal_rule: PieceSet,
    /// Whether any kind is contagious.
    pub(crate) has_contagion: bool,
    /// Ko Shogi's rule module, when the file names it (`rules.module = "ko-shogi"`).
    pub(crate) ko: Option<Box<crate::ko_shogi::KoShogi>>,
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

    /// Whether a piece code (either colour) is of a royal kind: a bit test, since make and
    /// unmake ask it for every capture.
    #[inline]
    pub fn is_royal(&self, p: Piece) -> bool {
        self.royal_codes.contains(p)
    }

    /// Whether `sq` is on `color`'s farthest rank, where pieces with the last-rank option may
    /// promote without capturing.
    #[inline]
    pub fn on_last_rank(&self, color: Color, sq: Square) -> bool {
        self.relative_rank(color, sq) + 1 == self.geometry.ranks()
    }

    /// Whether a named rule module (Ko Shogi's) runs the rules beyond the piece moves.
    #[inline]
    pub fn has_rule_module(&self) -> bool {
        self.ko.is_some()
    }

    /// Whether any piece kind has moves beyond plain leaps and slides.
    pub fn has_complex_pieces(&self) -> bool {
        self.pieces.iter().any(|p| !p.moves[0].is_simple())
    }
}
