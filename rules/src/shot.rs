//! A shooter's shots, as piece references describe them.

/// What a shooter fires after a non-capturing move, from the square it landed on: a power of
/// a rule module (Ko Shogi's bows and guns), not of the move tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shot {
    /// Farthest target, in steps along any of the eight lines.
    pub range: u8,
    /// Whether it shoots over pieces (any enemy in range) rather than the nearest piece only.
    pub over: bool,
    /// Most shots after one move.
    pub shots: u8,
}
