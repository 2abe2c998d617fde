//! Material values for the greedy baseline, derived from the variant itself.
//!
//! Large variants have dozens of piece types with no agreed values, so the table is computed:
//! a piece is worth the number of squares it can move to from the centre of an otherwise
//! empty board (its mobility, the classic first approximation of value), and a royal piece
//! is worth [`ROYAL_VALUE`], more than any material, so that taking it comes first where the
//! rules allow it.

use koma_rules::{Color, Move, PieceKind, Position, Variant};
use std::sync::Arc;

/// The value of a royal piece: more than all other material together on any supported board.
pub const ROYAL_VALUE: u32 = 1_000_000;

/// One value per piece kind of a variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceValues {
    values: Vec<u32>,
}

impl PieceValues {
    /// Computes the table once per variant: mobility from the centre, at least 1 per piece.
    pub fn new(variant: &Arc<Variant>) -> PieceValues {
        let values = (0..variant.num_kinds())
            .map(|k| {
                let kind = PieceKind(k as u8);
                if variant.piece(kind).royal {
                    ROYAL_VALUE
                } else {
                    centre_mobility(variant, kind).unwrap_or(1).max(1)
                }
            })
            .collect();
        PieceValues { values }
    }

    /// The value of a piece kind.
    pub fn value(&self, kind: PieceKind) -> u32 {
        self.values.get(kind.index()).copied().unwrap_or(1)
    }

    /// The material a move captures in `pos` (0 for quiet moves and drops).
    pub fn capture_value(&self, pos: &Position, mv: &Move) -> u32 {
        if mv.is_drop() {
            return 0;
        }
        let them = pos.side_to_move().opposite();
        mv.kills()
            .iter()
            .chain(std::iter::once(&mv.to()))
            .map(|&sq| pos.piece_at(sq))
            .filter(|p| p.is_color(them))
            .map(|p| self.value(p.kind()))
            .sum()
    }
}

/// Distinct destinations of a Black piece of `kind` on the centre square, with the two royal
/// pieces (which the position text requires) tucked into corners. `None` when no such position
/// can be set up (a tiny board, or the piece attacks every corner the enemy royal could use).
fn centre_mobility(variant: &Arc<Variant>, kind: PieceKind) -> Option<u32> {
    let g = &variant.geometry;
    let (files, ranks) = (g.files(), g.ranks());
    let royal = variant
        .pieces
        .iter()
        .position(|p| p.royal)
        .map(|i| PieceKind(i as u8))?;
    let centre = (files / 2, ranks / 2);
    let own_royal = (0, 0);
    let corners = [
        (files - 1, ranks - 1),
        (0, ranks - 1),
        (files - 1, 0),
        (1, ranks - 1),
        (files - 2, ranks - 1),
    ];
    for enemy in corners {
        if enemy == centre || enemy == own_royal || centre == own_royal {
            continue;
        }
        let text = board_text(
            variant,
            &[
                (centre, kind, Color::Black),
                (own_royal, royal, Color::Black),
                (enemy, royal, Color::White),
            ],
        );
        let Ok(pos) = Position::from_text(variant, &text) else {
            continue;
        };
        let from = g.square(centre.0, centre.1)?;
        let mut moves = Vec::new();
        pos.generate_pseudo_legal(&mut moves);
        let mut targets: Vec<_> = moves
            .iter()
            .filter(|m| !m.is_drop() && m.from() == from && m.to() != from)
            .map(|m| m.to())
            .collect();
        targets.sort();
        targets.dedup();
        return Some(targets.len() as u32);
    }
    None
}

/// A position text with the given pieces on an otherwise empty board, Black to move, empty
/// hands.
fn board_text(variant: &Variant, pieces: &[((u8, u8), PieceKind, Color)]) -> String {
    let g = &variant.geometry;
    let mut rows = Vec::with_capacity(g.ranks() as usize);
    for r in (0..g.ranks()).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..g.files() {
            match pieces.iter().find(|(at, _, _)| *at == (f, r)) {
                Some(&(_, kind, color)) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push_str(&piece_token(variant, kind, color));
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} b -", rows.join("/"))
}

/// A piece as the position text writes it: `+` for a promoted form, one letter bare, several
/// in parentheses, lowercase for White.
fn piece_token(variant: &Variant, kind: PieceKind, color: Color) -> String {
    let id = &variant.piece(kind).id;
    let (plus, body) = match id.strip_prefix('+') {
        Some(b) => ("+", b),
        None => ("", id.as_str()),
    };
    let body = match color {
        Color::Black => body.to_owned(),
        Color::White => body.to_ascii_lowercase(),
    };
    if body.len() == 1 {
        format!("{plus}{body}")
    } else {
        format!("{plus}({body})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::load_variant;

    #[test]
    fn hand_shogi_values_follow_mobility() {
        let v = load_variant("hand-shogi").unwrap();
        let t = PieceValues::new(&v);
        let val = |id: &str| t.value(v.kind_by_id(id).unwrap());
        assert_eq!(val("K"), ROYAL_VALUE);
        assert_eq!(val("G"), 6);
        assert_eq!(val("S"), 5);
        assert_eq!(val("SO"), 3);
        assert_eq!(val("SH"), 12);
        assert_eq!(val("T"), 12);
        assert_eq!(val("N"), 2);
        assert_eq!(val("L"), 4);
        assert_eq!(val("PD"), 8);
    }
}
