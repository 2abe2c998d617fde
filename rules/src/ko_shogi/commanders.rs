//! The end of the game (§10): a side survives while it has a general, or a governor, or both a
//! middle troop and a banner (BN or FW). The position's royal count holds 1 for a side that
//! survives and 0 for one that does not, so the generic outcome test applies: after a move, if
//! the opponent no longer survives the mover wins, else if the mover no longer survives it
//! loses; a side without legal moves loses; repetition and perpetual check as in shogi.
//!
//! Check, for the perpetual-check rule: a side's *sole objective piece* is its G or GV when
//! that piece alone keeps it alive; it is in check when the other side has a move that would
//! remove it (a kill, or a poison flame ending next to it).

use super::KoShogi;
use crate::color::Color;
use crate::command_role::CommandRole;
use crate::mv::Move;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::Square;

impl KoShogi {
    /// Whether `color` still commands (§10).
    pub(crate) fn survives(&self, pos: &Position, color: Color) -> bool {
        let k = &self.k;
        self.has(pos, k.g, color)
            || self.has(pos, k.gv, color)
            || (self.has(pos, k.mt, color)
                && (self.has(pos, k.bn, color) || self.has(pos, k.fw, color)))
    }

    /// `p`'s part in its side's survival (§10): the general and governor are the objective;
    /// the middle troop and banners are held in reserve while one of them stands, and are the
    /// objective once both have fallen.
    pub(crate) fn command_role(&self, pos: &Position, p: Piece) -> CommandRole {
        let k = &self.k;
        let kind = p.kind();
        if kind == k.g || kind == k.gv {
            return CommandRole::Objective;
        }
        if kind != k.mt && kind != k.bn && kind != k.fw {
            return CommandRole::None;
        }
        let color = p.color();
        if self.has(pos, k.g, color) || self.has(pos, k.gv, color) {
            CommandRole::Reserve
        } else {
            CommandRole::Objective
        }
    }

    /// Sets the position's royal counts from who survives.
    pub(crate) fn refresh_commanders(&self, pos: &mut Position) {
        for c in Color::ALL {
            let commands = self.survives(pos, c);
            pos.royals[c.index()] = commands as u8;
        }
    }

    /// The square of `color`'s sole objective piece: its G or GV when that piece alone keeps
    /// it commanding, so that removing it wins.
    pub(crate) fn sole_objective(&self, pos: &Position, color: Color) -> Option<Square> {
        let k = &self.k;
        let generals = pos.count(k.g, color) + pos.count(k.gv, color);
        let troop_and_banner = self.has(pos, k.mt, color)
            && (self.has(pos, k.bn, color) || self.has(pos, k.fw, color));
        if generals != 1 || troop_and_banner {
            return None;
        }
        let kind = if self.has(pos, k.g, color) { k.g } else { k.gv };
        self.squares_of(pos, kind, color).first().copied()
    }

    /// `color`'s poison flame and the mailbox offsets of the squares next to it: an enemy
    /// there burns when the flame ends its move.
    pub(crate) fn flame_of(&self, color: Color) -> (Piece, [i32; 8]) {
        (Piece::new(self.k.pf, color), self.neighbours)
    }

    /// Whether `color`'s sole objective piece could be removed by the other side's next move.
    pub(crate) fn in_check(&self, pos: &Position, color: Color) -> bool {
        self.checks(pos, color, true).is_some()
    }

    /// `color`'s sole objective piece and the squares of the pieces whose next move could
    /// remove it (none if it is not in check); with `first`, only the first such piece.
    pub(crate) fn checks(
        &self,
        pos: &Position,
        color: Color,
        first: bool,
    ) -> Option<(Square, Vec<Square>)> {
        let k = &self.k;
        let target = self.sole_objective(pos, color)?;
        let by = color.opposite();
        let mut moves: Vec<Move> = Vec::with_capacity(256);
        self.generate(pos, by, &mut moves);
        let flame = Piece::new(k.pf, by);
        let mut from: Vec<Square> = Vec::new();
        for m in &moves {
            let removes = (m.to() == target && m.to() != m.from())
                || m.kills().contains(&target)
                || (pos.board[m.from().index()] == flame
                    && self.neighbours.iter().any(|&d| m.to().offset(d) == target));
            if removes && !from.contains(&m.from()) {
                from.push(m.from());
                if first {
                    break;
                }
            }
        }
        (!from.is_empty()).then_some((target, from))
    }
}
