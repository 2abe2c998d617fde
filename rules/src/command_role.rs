//! What a piece does for its side's survival: whether taking it is how that side is hunted now,
//! may become so, or neither.
//!
//! In most variants the answer is fixed by kind: the royal pieces are the objective. Ko Shogi
//! has no royal kind (§10): a side survives while it has a general or a governor, or both a
//! middle troop and a banner; so the general and the governor are the objective, and once a
//! side has lost both, its middle troop and banners are, since losing the troop or the last
//! banner then ends the game. A search that hunts the other side's objective (the mop-up term)
//! asks this of the position, not of the kind, so that it does not lose its aim once the
//! general has fallen.

use crate::piece::Piece;
use crate::position::Position;

/// A piece's part in its side's survival.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandRole {
    /// Its capture does not bring its side nearer to losing.
    None,
    /// It keeps its side in the game only after the objective pieces are gone (Ko Shogi's
    /// middle troop and banners while a general or governor stands).
    Reserve,
    /// Taking it (all such pieces, in Ko Shogi the one that breaks the pair) is how its side
    /// is beaten now: a royal piece, Ko Shogi's general or governor, or its middle troop and
    /// banners once both have fallen.
    Objective,
}

impl Position {
    /// `p`'s part in its side's survival in this position; `p` is a piece of either colour.
    pub fn command_role(&self, p: Piece) -> CommandRole {
        if !p.is_piece() {
            return CommandRole::None;
        }
        let v = self.variant();
        match &v.ko {
            Some(ko) => ko.command_role(self, p),
            None if v.is_royal(p) => CommandRole::Objective,
            None => CommandRole::None,
        }
    }
}
