//! The canonical move text: `e3e4`, `e5f6,f6g7` (captures on the way, one leg per kill square),
//! `e5e5` (turn skip), `N@e5` (drop), with `+` for a promotion and `=` for a declined one.
//!
//! Shots (Ko Shogi: a piece removed without the mover going there) are written `*sq` after the
//! leg that ends where the shot is fired from: `j9k10*k12*k13` (step to k10, shoot k12 and k13),
//! `j11h11*g10,h11j13*k14` (jump to h11 and shoot g10, jump on to j13 and shoot k14). A leg
//! followed by shots ends on the (empty) square they are fired from; any other leg but the last
//! ends on a square it captures on. So the kills of a text are its non-final leg ends without
//! shots, and every shot.
//!
//! A move is its origin, destination, set of kills and promotion: where several paths make the
//! same move (two shots in either order, a capture by displacement or by a shot), the generator
//! keeps the first it finds, whose path the text shows, and [`Position::parse_move`] accepts
//! the text of any of them.

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
    /// Kill squares in path order, shots included.
    pub kills: Vec<Square>,
    /// The kills that are shots.
    pub shots: Vec<Square>,
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

/// One leg of a board move as the text shows it: from a square to the square it ends on (a
/// kill square, the square shots are fired from, or the destination), with the squares shot
/// from its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    /// Where the leg starts.
    pub from: Square,
    /// Where the leg ends.
    pub to: Square,
    /// Squares shot from `to`, in order.
    pub shots: Vec<Square>,
}

/// The legs of a board move in path order (empty for a drop). The text form, the protocols'
/// leg-by-leg move entry and the board's click-by-click entry all read a move this way, so
/// they agree on which squares a path passes.
pub fn move_legs(mv: &Move) -> Vec<Leg> {
    if mv.is_drop() {
        return Vec::new();
    }
    let mut legs: Vec<Leg> = Vec::new();
    let mut at = mv.from();
    let mut via = mv.via();
    for (i, &k) in mv.kills().iter().enumerate() {
        if mv.is_shot(i) {
            let fire = via.take().unwrap_or(mv.to());
            match legs.last_mut() {
                Some(leg) if leg.to == fire && !leg.shots.is_empty() => leg.shots.push(k),
                _ => {
                    legs.push(Leg {
                        from: at,
                        to: fire,
                        shots: vec![k],
                    });
                    at = fire;
                }
            }
        } else {
            legs.push(Leg {
                from: at,
                to: k,
                shots: Vec::new(),
            });
            at = k;
        }
    }
    let ends_on_to = legs
        .last()
        .is_some_and(|leg| leg.to == mv.to() && !leg.shots.is_empty());
    if !ends_on_to {
        legs.push(Leg {
            from: at,
            to: mv.to(),
            shots: Vec::new(),
        });
    }
    legs
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
        for (i, leg) in move_legs(mv).iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str(&g.name(leg.from));
            s.push_str(&g.name(leg.to));
            for t in &leg.shots {
                s.push('*');
                s.push_str(&g.name(*t));
            }
        }
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
            shots: Vec::new(),
            to,
            promotion,
        });
    }
    let mut legs = Vec::new();
    for leg in body.split(',') {
        let mut parts = leg.split('*');
        let squares = parts.next().unwrap_or_default();
        let (a, n) = g
            .parse_prefix(squares)
            .ok_or_else(|| bad(&format!("leg '{leg}' does not start with a square")))?;
        let b = g
            .parse(&squares[n..])
            .ok_or_else(|| bad(&format!("leg '{leg}' does not end with a square")))?;
        let shots = parts
            .map(|t| {
                g.parse(t)
                    .ok_or_else(|| bad(&format!("shot '*{t}' is not a square of this board")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        legs.push((a, b, shots));
    }
    for w in legs.windows(2) {
        if w[0].1 != w[1].0 {
            return Err(bad("each leg must start where the previous one ended"));
        }
    }
    let last = legs.len() - 1;
    let mut kills = Vec::new();
    let mut shots = Vec::new();
    for (i, (_, b, leg_shots)) in legs.iter().enumerate() {
        if leg_shots.is_empty() && i < last {
            kills.push(*b);
        }
        kills.extend(leg_shots);
        shots.extend(leg_shots);
    }
    if kills.len() > crate::mv::MAX_KILLS {
        return Err(bad("too many kills"));
    }
    Ok(MoveText {
        origin: Origin::Square(legs[0].0),
        kills,
        shots,
        to: legs[last].1,
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
