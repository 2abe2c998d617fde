//! One piece type of a variant: its moves, promotion, drop restrictions and capture rules.

use crate::piece::PieceKind;
use crate::variant::kind_set::KindSet;
use crate::xbetza::MoveTable;

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
    /// The short label boards show: the ID, except for promoted forms, which show their own
    /// kind's label (see [`crate::variant::labels`]).
    pub label: String,
    /// What the piece does beyond its moves and flags, in words (empty if nothing).
    pub about: String,
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
    /// Promotion, once open, is forced on a move ending in this many farthest ranks.
    pub forced_promotion_ranks: u8,
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
    /// A Lion for the trading rules ([`crate::lion_trading`]).
    pub lion: bool,
    /// Capturing it on the way does not lift the protected-Lion rule.
    pub trade_cheap: bool,
    /// Rank for the jumping rules: a piece whose slides jump (`jumps_lower_ranks`) passes
    /// over, and jump-captures, pieces of a lower rank only. 0 for most pieces.
    pub rank: u8,
    /// It burns the enemies next to where its moves end, and enemies that end a move next to
    /// it ([`crate::burning`]).
    pub burns: bool,
    /// The kind it becomes by a capture, contagion aside: computed at load from the promotion
    /// rule, so that the move generator and `make_move` read one answer.
    pub after_capture: PieceKind,
}

impl PieceType {
    /// Whether it is a promoted form: a `+` ID, or some kind's promotion (Ko Shogi's promoted
    /// kinds have IDs of their own).
    pub fn is_promoted(&self) -> bool {
        self.id.starts_with('+') || self.demotes_to.is_some()
    }
}
