//! The canonical move text: `e3e4`, `e5f6,f6g7` (captures on the way, one leg per kill square),
//! `e5e5` (turn skip), `N@e5` (drop), with `+` for a promotion and `=` for a declined one.

use crate::geometry::Geometry;
use crate::mv::{Move, Promotion};
use crate::position::Position;
use crate::square::Square;
use crate::variant::Variant;

/// A move text that could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not a move in the notation.
    #[error("'{text}' is not a move: {reason}")]
    Malformed {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The text is a well-formed move that is not legal in the position.
    #[error("'{text}' is not a legal move in this position")]
    Illegal {
        /// The text given.
        text: String,
    },
}

/// The parts of a move text, before it is matched against a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveText {
    /// Origin square, or the dropped piece ID and its square.
    pub origin: Origin,
    /// Kill squares in path order.
    pub kills: Vec<Square>,
    /// Destination.
    pub to: Square,
    /// Promotion suffix.
    pub promotion: Promotion,
}

/// Where a move text's piece comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A board square.
    Square(Square),
    /// A piece from hand, by ID.
    Drop(String),
}

/// Formats a move in the canonical notation.
pub fn format_move(variant: &Variant, mv: &Move) -> String {
    let g = &variant.geometry;
    let mut s = String::new();
    if let Some(kind) = mv.dropped() {
        s.push_str(&variant.piece(kind).id);
        s.push('@');
        s.push_str(&g.name(mv.to()));
    } else {
        let mut at = mv.from();
        for &k in mv.kills() {
            s.push_str(&g.name(at));
            s.push_str(&g.name(k));
            s.push(',');
            at = k;
        }
        s.push_str(&g.name(at));
        s.push_str(&g.name(mv.to()));
    }
    match mv.promotion() {
        Promotion::None => {}
        Promotion::Promote => s.push('+'),
        Promotion::Decline => s.push('='),
    }
    s
}

/// Reads a move text without looking at a position.
pub fn parse_move_text(g: &Geometry, text: &str) -> Result<MoveText, NotationError> {
    let bad = |reason: &str| NotationError::Malformed {
        text: text.to_owned(),
        reason: reason.to_owned(),
    };
    let (body, promotion) = match text.as_bytes().last() {
        Some(b'+') => (&text[..text.len() - 1], Promotion::Promote),
        Some(b'=') => (&text[..text.len() - 1], Promotion::Decline),
        _ => (text, Promotion::None),
    };
    if body.is_empty() {
        return Err(bad("empty"));
    }
    if let Some((id, sq)) = body.split_once('@') {
        let valid_id = !id.is_empty() && id.chars().all(|c| c.is_ascii_uppercase() || c == '+');
        if !valid_id {
            return Err(bad("a drop is ID@square with an uppercase piece ID"));
        }
        let to = g
            .parse(sq)
            .ok_or_else(|| bad(&format!("'{sq}' is not a square of this board")))?;
        return Ok(MoveText {
            origin: Origin::Drop(id.to_owned()),
            kills: Vec::new(),
            to,
            promotion,
        });
    }
    let mut legs = Vec::new();
    for leg in body.split(',') {
        let (a, n) = g
            .parse_prefix(leg)
            .ok_or_else(|| bad(&format!("leg '{leg}' does not start with a square")))?;
        let b = g
            .parse(&leg[n..])
            .ok_or_else(|| bad(&format!("leg '{leg}' does not end with a square")))?;
        legs.push((a, b));
    }
    for w in legs.windows(2) {
        if w[0].1 != w[1].0 {
            return Err(bad("each leg must start where the previous one ended"));
        }
    }
    if legs.len() > crate::mv::MAX_KILLS + 1 {
        return Err(bad("too many legs"));
    }
    Ok(MoveText {
        origin: Origin::Square(legs[0].0),
        kills: legs[..legs.len() - 1].iter().map(|l| l.1).collect(),
        to: legs[legs.len() - 1].1,
        promotion,
    })
}

impl Position {
    /// Reads a move text and finds it among the legal moves.
    ///
    /// A move whose promotion is forced is also accepted without its `+`; a path that captures
    /// the same squares in another order names the same move.
    pub fn parse_move(&mut self, text: &str) -> Result<Move, NotationError> {
        let mt = parse_move_text(&self.variant.geometry, text)?;
        let legal = self.legal_moves();
        let matches = |m: &Move, promo_must_match: bool| {
            let origin_ok = match &mt.origin {
                Origin::Square(sq) => !m.is_drop() && m.from() == *sq,
                Origin::Drop(id) => m.dropped().is_some_and(|k| self.variant.piece(k).id == *id),
            };
            origin_ok
                && m.to() == mt.to
                && m.kills().len() == mt.kills.len()
                && mt.kills.iter().all(|k| m.kills().contains(k))
                && (!promo_must_match || m.promotion() == mt.promotion)
        };
        if let Some(m) = legal.iter().find(|m| matches(m, true)) {
            return Ok(*m);
        }
        if mt.promotion == Promotion::None {
            let loose: Vec<&Move> = legal.iter().filter(|m| matches(m, false)).collect();
            if loose.len() == 1 {
                return Ok(*loose[0]);
            }
        }
        Err(NotationError::Illegal {
            text: text.to_owned(),
        })
    }

    /// Formats a move of this position's variant.
    pub fn move_text(&self, mv: &Move) -> String {
        format_move(&self.variant, mv)
    }

    /// Plays a sequence of move texts separated by whitespace, stopping at the first that is
    /// not legal (which is named in the error; the moves before it stay played).
    pub fn play_texts(&mut self, moves: &str) -> Result<(), NotationError> {
        for t in moves.split_whitespace() {
            let m = self.parse_move(t)?;
            self.make_move(m);
        }
        Ok(())
    }
}
