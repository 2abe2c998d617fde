//! A variant's rule flags beyond the piece moves: check, drops, promotion, repetition,
//! length and the limits on turn skips and checks in a row.

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
    /// Whether a repetition that is not perpetual check loses for the player whose move
    /// completed it (Chu Shogi's published rules give no draw by repetition), else it draws.
    pub repetition_loses: bool,
    /// Plies after which the game is drawn.
    pub max_plies: u32,
    /// Under capture promotion, whether a capture also turns a promoted capturer back.
    pub switchback: bool,
    /// Most turn skips in a row per player, if limited.
    pub max_consecutive_skips: Option<u8>,
    /// Most checking moves in a row per player, if limited.
    pub max_consecutive_checks: Option<u8>,
    /// Under zone promotion: a move without capture may promote only when it enters the zone
    /// (a capture whenever it starts or ends there); otherwise any move touching the zone may.
    pub zone_entry_only: bool,
}
