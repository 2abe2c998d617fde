//! The TOML schema of `configs/variants/*.toml`, as read before validation.
//!
//! Every field that can be wrong on its own carries its byte span, so that a validation error
//! can name the line it comes from.

use serde::Deserialize;
use toml::Spanned;

/// A whole variant file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    /// Human name, e.g. "Hand Shogi".
    pub name: String,
    /// Short identifier used on the command line and in checkpoints, e.g. `hand-shogi`.
    pub id: Spanned<String>,
    /// Board width.
    pub files: Spanned<u8>,
    /// Board height.
    pub ranks: Spanned<u8>,
    /// Plies after which the game is a draw.
    pub max_plies: Spanned<u32>,
    /// Rule flags.
    pub rules: RulesFile,
    /// How protocol front ends name the game to outside programs.
    #[serde(default)]
    pub protocol: ProtocolFile,
    /// The pieces, in the order that gives them their kind numbers.
    #[serde(rename = "piece")]
    pub pieces: Vec<Spanned<PieceFile>>,
}

/// The `[protocol]` table.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtocolFile {
    /// XBoard's own name of this game, when XBoard knows it with the same start position,
    /// pieces and move notation (`"chu"`): koma-engine then announces that name and leaves the
    /// board to XBoard instead of describing the game with `setup` and `piece` lines.
    #[serde(default)]
    pub xboard: Option<String>,
}

/// The `[rules]` table.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesFile {
    /// `"king-safety"`: a move may not leave the mover's royal piece attacked (shogi);
    /// `"royal-capture"`: moving into check is legal and capturing the last royal wins.
    pub check: Spanned<String>,
    /// Whether captured pieces go to the capturer's hand and may be dropped.
    #[serde(default)]
    pub drops: bool,
    /// `"zone"`: promotion when a move ends in the promotion zone; `"capture"`: every capture
    /// promotes the capturer, forced, and nothing else does (except a piece's `last_rank`
    /// option); `"none"`.
    #[serde(default = "default_promotion")]
    pub promotion: Spanned<String>,
    /// Depth of the promotion zone in ranks, counted from the far edge.
    #[serde(default)]
    pub promotion_zone: u8,
    /// With `promotion = "zone"`: `"any"` (default): a move that starts or ends in the zone
    /// may promote; `"entry"`: a move without capture may promote only when it enters the
    /// zone from outside, a capture whenever it starts or ends in the zone (so a piece that
    /// declined on entry gets its next chance by a capture there or by leaving and entering
    /// again).
    #[serde(default)]
    pub zone_promotion: Option<Spanned<String>>,
    /// Occurrences of the same position that end the game.
    #[serde(default = "default_repetition")]
    pub repetition: u8,
    /// `"loss"`: a player whose every move in a repeated cycle gave check loses; `"draw"`.
    #[serde(default = "default_perpetual")]
    pub perpetual_check: Spanned<String>,
    /// What the `repetition`-th occurrence of a position gives when it is not perpetual check:
    /// `"draw"` (default), or `"loss"` for the player whose move completed it.
    #[serde(default)]
    pub repetition_result: Option<Spanned<String>>,
    /// With `promotion = "capture"`: a capture flips the capturer both ways, a promoted piece
    /// back to its unpromoted form (Gyaku-sama's switchbacks), unless the piece `never_flips`.
    #[serde(default)]
    pub switchback: bool,
    /// Most turn skips (moves that end on their origin and capture nothing) a player may make
    /// in a row; absent means no limit. The count is part of the position.
    #[serde(default)]
    pub max_consecutive_skips: Option<Spanned<u8>>,
    /// Most checking moves a player may make in a row (a check: after the move, a piece of the
    /// mover could capture a royal piece of the opponent); absent means no limit. The count is
    /// part of the position.
    #[serde(default)]
    pub max_consecutive_checks: Option<Spanned<u8>>,
    /// A named rule module for the rules that are not piece moves or flags (`"ko-shogi"`: see
    /// [`crate::ko_shogi`]); it finds the pieces it acts on by their IDs and decides promotion
    /// and the end of the game itself, so the file then needs no royal piece.
    #[serde(default)]
    pub module: Option<Spanned<String>>,
}

fn default_promotion() -> Spanned<String> {
    Spanned::new(0..0, "none".to_owned())
}

fn default_repetition() -> u8 {
    4
}

fn default_perpetual() -> Spanned<String> {
    Spanned::new(0..0, "draw".to_owned())
}

/// One `[[piece]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PieceFile {
    /// Piece ID as written in notation: letters, with a leading `+` for promoted forms.
    pub id: Spanned<String>,
    /// Human name.
    pub name: String,
    /// Moves in XBetza.
    pub betza: Spanned<String>,
    /// The short label boards show (default: see [`crate::variant::labels`]).
    #[serde(default)]
    pub label: Option<Spanned<String>>,
    /// What the piece does that its moves and flags do not say (rule-module powers, history),
    /// in words, for piece references.
    #[serde(default)]
    pub about: Option<String>,
    /// Whether losing it matters: the king-safety rule, or the game-losing capture.
    #[serde(default)]
    pub royal: bool,
    /// First player's setup squares (`e1`, or ranges along a rank such as `a4-m4`).
    #[serde(default)]
    pub setup: Vec<Spanned<String>>,
    /// Number held in each player's hand at the start.
    #[serde(default)]
    pub hand: u8,
    /// ID of the promoted form.
    #[serde(default)]
    pub promotes: Option<Spanned<String>>,
    /// `"optional"` (default) or `"forced"`: whether a zone promotion may be declined.
    #[serde(default)]
    pub promotion: Option<Spanned<String>>,
    /// Drops are forbidden on this many farthest ranks.
    #[serde(default)]
    pub drop_far_ranks: u8,
    /// A drop may not go on a file holding another unpromoted piece of this kind of the dropper.
    #[serde(default)]
    pub drop_one_per_file: bool,
    /// A drop of this piece must give check.
    #[serde(default)]
    pub drop_must_check: bool,
    /// Under `switchback`: the piece keeps its kind when it captures (it neither promotes
    /// nor demotes).
    #[serde(default)]
    pub never_flips: bool,
    /// Under capture promotion: ID of the kind a piece becomes by capturing this one, whatever
    /// it was (contagion); after several contagious captures in one move the last one counts.
    #[serde(default)]
    pub contagious: Option<Spanned<String>>,
    /// The piece ignores contagion and takes its ordinary capture promotion instead (royal and
    /// potentially royal pieces, so that contagion never changes who is royal).
    #[serde(default)]
    pub contagion_immune: bool,
    /// `"optional-promotion"`: a move without capture that ends on the farthest rank may
    /// promote or not (two moves, `+` and `=`), whatever the promotion rule would say; pieces
    /// that would otherwise be stuck there.
    #[serde(default)]
    pub last_rank: Option<Spanned<String>>,
    /// A move that may promote and ends in this many farthest ranks must promote (a piece
    /// that could never move again there unpromoted: 1 for Chu's Pawn and Lance, 2 for a
    /// Knight).
    #[serde(default)]
    pub forced_promotion_ranks: u8,
    /// IDs of the kinds this piece may not capture (they block it like friends); the kinds
    /// must not be royal, since attack detection does not apply the restriction.
    #[serde(default)]
    pub cannot_capture: Vec<Spanned<String>>,
    /// The piece may not capture an enemy royal piece that is protected: one that another
    /// enemy piece could capture on its square after the move (Hook Shogi's Emperor).
    #[serde(default)]
    pub no_capture_protected_royal: bool,
    /// The trading rules of Lions apply to it (see [`crate::lion_trading`]): it may not
    /// capture a protected Lion that is not next to it, and after a Lion was captured by a
    /// piece that is not a Lion, the reply may not capture a Lion with a piece that is not one.
    #[serde(default)]
    pub lion: bool,
    /// Capturing it on the way does not lift the protected-Lion rule (a Lion that first takes
    /// some other piece may take a protected Lion after it).
    #[serde(default)]
    pub trade_cheap: bool,
    /// Rank for the jumping rules (Tenjiku's generals): 0 (default) for ordinary pieces.
    #[serde(default)]
    pub rank: u8,
    /// Its unlimited slides may also jump to capture (Tenjiku's generals): pass over any number
    /// of pieces, of either side, whose `rank` is lower than its own, and take an enemy of a
    /// lower rank further on. Moves without capture stay plain slides; the first piece met
    /// may be taken whatever its rank.
    #[serde(default)]
    pub jumps_lower_ranks: bool,
    /// It burns (Tenjiku's Fire Demon): after a move it survives, every enemy piece next to
    /// where it ends is removed; an enemy piece whose move ends next to it is removed after
    /// that move's captures (see [`crate::burning`]).
    #[serde(default)]
    pub burns: bool,
}
