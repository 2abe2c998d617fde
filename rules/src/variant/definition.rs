//! The validated variant: board, pieces with compiled moves, setup, rules and hash keys, and
//! what the rules ask of it.

use crate::color::Color;
use crate::geometry::Geometry;
use crate::piece::{Piece, PieceKind};
use crate::square::Square;
use crate::variant::attack_tables::{AttackTables, PieceSet};
use crate::variant::piece_type::PieceType;
use crate::variant::rules::Rules;
use crate::zobrist::Zobrist;

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
    /// XBoard's own name of the game, where XBoard knows it (`[protocol] xboard`).
    pub xboard_name: Option<String>,
    /// Hash keys.
    pub zobrist: Zobrist,
    /// Reverse move tables for attack detection, indexed by the attacker's colour.
    pub attacks: [AttackTables; 2],
    /// Promotion-zone membership per mailbox cell, indexed by colour.
    pub(crate) zone: [Vec<bool>; 2],
    /// Rank from each colour's own side, per mailbox cell.
    pub(crate) relative_rank: [Vec<u8>; 2],
    /// Piece codes (both colours) of the royal kinds.
    pub(crate) royal_codes: PieceSet,
    /// Piece codes of the kinds that may not capture protected royals.
    pub(crate) protected_royal_rule: PieceSet,
    /// Whether any kind is contagious.
    pub(crate) has_contagion: bool,
    /// Whether any kind is a Lion for the trading rules ([`crate::lion_trading`]).
    pub(crate) has_lions: bool,
    /// Piece codes (both colours) of the kinds that burn ([`crate::burning`]); empty in most
    /// variants, which then skip every burning test.
    pub(crate) burner_codes: PieceSet,
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

    /// Whether removing pieces of `kind` is how the game is won: the royal kinds, and in Ko
    /// Shogi, where no kind is royal, its commanders (the general and the governor, §10; a
    /// side left without them commands on only while it keeps a middle troop and a banner).
    /// Fixed by kind; what a search hunting the other side now aims at depends on the position
    /// ([`crate::Position::command_role`]).
    pub fn is_objective_kind(&self, kind: PieceKind) -> bool {
        match &self.ko {
            Some(ko) => kind == ko.k.g || kind == ko.k.gv,
            None => self.pieces[kind.index()].royal,
        }
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

    /// Whether any kind burns ([`crate::burning`]).
    #[inline]
    pub fn has_burners(&self) -> bool {
        !self.burner_codes.is_empty()
    }

    /// Whether a move can remove pieces away from its path: burns, or a rule module's
    /// effects (Ko Shogi). Shortcuts that read a move's effect from its squares alone must
    /// then play it instead.
    #[inline]
    pub fn acts_away_from_moves(&self) -> bool {
        self.ko.is_some() || self.has_burners()
    }

    /// Whether any piece kind has moves beyond plain leaps and slides.
    pub fn has_complex_pieces(&self) -> bool {
        self.pieces.iter().any(|p| !p.moves[0].is_simple())
    }
}

impl Variant {
    /// The shots `kind` may fire, if the variant's rule module gives it any (Ko Shogi's bows
    /// and guns); the move tables do not say them.
    pub fn shot(&self, kind: PieceKind) -> Option<crate::shot::Shot> {
        self.ko.as_ref().and_then(|ko| ko.shot(kind))
    }
}
