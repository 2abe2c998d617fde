//! The position text: a FEN-like line that names every piece unambiguously.
//!
//! `<board> <side> <hand> [<ply> [<counters>]]`, fields separated by spaces:
//! - board: ranks from the highest (farthest from the first player) down to rank 1, separated
//!   by `/`; each rank lists its files from `a`. A run of empty squares is a decimal count. A
//!   piece is an optional `+` (promoted form) and its ID: one letter as is (`K`), several
//!   letters in parentheses (`(SO)`). Uppercase is the first player's piece, lowercase the
//!   second player's.
//! - side: `b` (first player to move) or `w`.
//! - hand: `-`, or pieces as on the board, each with an optional count before it (`2S`,
//!   `(SH)`, `2(so)`); uppercase in the first player's hand, lowercase in the second's.
//! - ply: plies played before this position (default 0); it counts towards the maximum length.
//!
//! Under the king-safety rule each side has exactly one royal piece; under royal capture a side
//! may have several, or none when the game has just been lost that way.
//! - counters: the rule counters that change which moves are legal, in variants that limit
//!   them (see [`crate::counters`]): `skips=B/W` (turn skips in a row of the first and the second
//!   player) and `checks=B/W` (checking moves in a row), joined by `,` (`skips=1/0,checks=0/2`),
//!   and in variants with Lions `lionban=1` when the side to move may not capture a Lion with a
//!   piece that is not one ([`crate::lion_trading`]). Written only when some counter is not
//!   zero; a missing counter is zero.

use crate::color::Color;
use crate::piece::{Piece, PieceKind};
use crate::position::Position;
use crate::variant::{CheckRule, Variant};
use std::sync::Arc;

/// A position text that could not be read, with the field and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("position text, {field}: {what}")]
pub struct PositionTextError {
    /// Which field (and rank) the problem is in.
    pub field: String,
    /// What is wrong.
    pub what: String,
}

fn err(field: impl Into<String>, what: impl Into<String>) -> PositionTextError {
    PositionTextError {
        field: field.into(),
        what: what.into(),
    }
}

/// Reads one piece token at the start of `s`: returns (kind, colour, bytes read).
fn read_piece(v: &Variant, s: &str) -> Result<(PieceKind, Color, usize), String> {
    let b = s.as_bytes();
    let mut i = 0;
    let promoted = b.first() == Some(&b'+');
    if promoted {
        i += 1;
    }
    let (letters, end) = match b.get(i) {
        Some(b'(') => {
            let close = s[i..]
                .find(')')
                .ok_or_else(|| format!("'(' without ')' in '{s}'"))?;
            (&s[i + 1..i + close], i + close + 1)
        }
        Some(c) if c.is_ascii_alphabetic() => (&s[i..i + 1], i + 1),
        _ => return Err(format!("expected a piece at '{s}'")),
    };
    if letters.is_empty() {
        return Err("empty '()'".into());
    }
    let color = if letters.chars().all(|c| c.is_ascii_uppercase()) {
        Color::Black
    } else if letters.chars().all(|c| c.is_ascii_lowercase()) {
        Color::White
    } else {
        return Err(format!("'{letters}' mixes upper and lower case"));
    };
    let id = format!(
        "{}{}",
        if promoted { "+" } else { "" },
        letters.to_ascii_uppercase()
    );
    let kind = v
        .kind_by_id(&id)
        .ok_or_else(|| format!("no piece '{id}' in {}", v.name))?;
    Ok((kind, color, end))
}

/// A piece as the position text writes it: `+` for a promoted form, one letter bare, several
/// in parentheses, lowercase for White.
pub(crate) fn piece_token(v: &Variant, kind: PieceKind, color: Color) -> String {
    id_token(&v.piece(kind).id, color)
}

/// The board part of a position text with the given pieces (at 0-based file and rank) on an
/// otherwise empty board.
pub(crate) fn board_text(variant: &Variant, pieces: &[((u8, u8), PieceKind, Color)]) -> String {
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
    rows.join("/")
}

/// A piece ID (`+` first for a promoted form) as the position text writes it for `color`:
/// one letter bare, several in parentheses, lowercase for White. Front ends that name pieces
/// their own way (one-letter protocol names) turn them back into position text with it.
pub fn id_token(id: &str, color: Color) -> String {
    let (plus, body) = match id.strip_prefix('+') {
        Some(b) => ("+", b),
        None => ("", id),
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

impl Position {
    /// Reads a position text (see the module documentation) and checks that the position is
    /// one the rules can continue from.
    pub fn from_text(variant: &Arc<Variant>, text: &str) -> Result<Position, PositionTextError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() < 3 || fields.len() > 5 {
            return Err(err(
                "fields",
                format!(
                    "expected '<board> <side> <hand> [<ply> [<counters>]]', got {} field(s)",
                    fields.len()
                ),
            ));
        }
        let side = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            other => return Err(err("side", format!("'{other}' is not 'b' or 'w'"))),
        };
        let mut pos = Position::empty(variant, side);
        let g = &variant.geometry;
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != g.ranks() as usize {
            return Err(err(
                "board",
                format!("{} ranks given, the board has {}", ranks.len(), g.ranks()),
            ));
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = g.ranks() - 1 - i as u8;
            let field = format!("board, rank {}", rank + 1);
            let mut file: u32 = 0;
            let mut rest = *row;
            while !rest.is_empty() {
                let digits = rest.bytes().take_while(|c| c.is_ascii_digit()).count();
                if digits > 0 {
                    let n: u32 = rest[..digits]
                        .parse()
                        .map_err(|_| err(&field, format!("bad count '{}'", &rest[..digits])))?;
                    if n == 0 {
                        return Err(err(&field, "an empty-square count of 0"));
                    }
                    file += n;
                    rest = &rest[digits..];
                    continue;
                }
                let (kind, color, used) = read_piece(variant, rest).map_err(|e| err(&field, e))?;
                let sq = g
                    .square(file as u8, rank)
                    .filter(|_| file < g.files() as u32)
                    .ok_or_else(|| err(&field, format!("more than {} files", g.files())))?;
                pos.put(sq, Piece::new(kind, color));
                file += 1;
                rest = &rest[used..];
            }
            if file != g.files() as u32 {
                return Err(err(
                    &field,
                    format!("{file} files described, the board has {}", g.files()),
                ));
            }
        }
        if fields[2] != "-" {
            let mut rest = fields[2];
            while !rest.is_empty() {
                let digits = rest.bytes().take_while(|c| c.is_ascii_digit()).count();
                let n: u8 = if digits > 0 {
                    rest[..digits]
                        .parse()
                        .map_err(|_| err("hand", format!("bad count '{}'", &rest[..digits])))?
                } else {
                    1
                };
                rest = &rest[digits..];
                let (kind, color, used) = read_piece(variant, rest).map_err(|e| err("hand", e))?;
                if !variant.rules.drops {
                    return Err(err("hand", "this variant has no pieces in hand"));
                }
                if variant.piece(kind).demotes_to.is_some() || variant.piece(kind).royal {
                    return Err(err(
                        "hand",
                        format!("'{}' cannot be in hand", variant.piece(kind).id),
                    ));
                }
                let have = pos.in_hand(color, kind);
                pos.set_hand(color, kind, have.saturating_add(n));
                rest = &rest[used..];
            }
        }
        if let Some(p) = fields.get(3) {
            pos.ply = p
                .parse()
                .map_err(|_| err("ply", format!("'{p}' is not a number")))?;
        }
        if let Some(c) = fields.get(4) {
            read_counters(&mut pos, c)?;
        }
        pos.after_setup();
        let king_safety = variant.rules.check == CheckRule::KingSafety;
        for c in Color::ALL {
            // Under royal capture a side without royal pieces has lost: a finished game.
            if king_safety && pos.royals[c.index()] != 1 {
                return Err(err(
                    "board",
                    format!("{c} must have exactly one royal piece"),
                ));
            }
        }
        if Color::ALL.iter().all(|c| pos.royals[c.index()] == 0) {
            return Err(err("board", "neither side has a royal piece"));
        }
        if variant.rules.check == CheckRule::KingSafety && pos.in_check(side.opposite()) {
            return Err(err(
                "side",
                format!("{} is in check but it is {side}'s turn", side.opposite()),
            ));
        }
        Ok(pos)
    }

    /// The position text of this position.
    pub fn to_text(&self) -> String {
        let v = &*self.variant;
        let g = &v.geometry;
        let mut s = String::new();
        for r in (0..g.ranks()).rev() {
            let mut empty = 0;
            for f in 0..g.files() {
                let sq = g.square(f, r).expect("on board");
                let p = self.board[sq.index()];
                if p.is_piece() {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push_str(&piece_token(v, p.kind(), p.color()));
                } else {
                    empty += 1;
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(self.side.letter());
        s.push(' ');
        let mut hand = String::new();
        for c in Color::ALL {
            for k in 0..v.num_kinds() {
                let kind = PieceKind(k as u8);
                let n = self.in_hand(c, kind);
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                if n > 0 {
                    hand.push_str(&piece_token(v, kind, c));
                }
            }
        }
        s.push_str(if hand.is_empty() { "-" } else { &hand });
        s.push(' ');
        s.push_str(&self.ply.to_string());
        let mut counters = Vec::new();
        let pair = |a: [u8; 2]| format!("{}/{}", a[0], a[1]);
        if self.counters.skips != [0, 0] {
            counters.push(format!("skips={}", pair(self.counters.skips)));
        }
        if self.counters.checks != [0, 0] {
            counters.push(format!("checks={}", pair(self.counters.checks)));
        }
        if self.counters.lion_ban {
            counters.push("lionban=1".to_owned());
        }
        if !counters.is_empty() {
            s.push(' ');
            s.push_str(&counters.join(","));
        }
        s
    }
}

/// Reads the counters field into `pos`.
fn read_counters(pos: &mut Position, text: &str) -> Result<(), PositionTextError> {
    let rules = &pos.variant.rules;
    let (max_skips, max_checks) = (rules.max_consecutive_skips, rules.max_consecutive_checks);
    let mut skips = [0u8; 2];
    let mut checks = [0u8; 2];
    let mut lion_ban = false;
    for item in text.split(',') {
        let (name, values) = item
            .split_once('=')
            .ok_or_else(|| err("counters", format!("'{item}' is not name=B/W")))?;
        if name == "lionban" {
            if !pos.variant.has_lions {
                return Err(err(
                    "counters",
                    "this variant has no Lions, so it has no lionban flag".to_owned(),
                ));
            }
            lion_ban = match values {
                "0" => false,
                "1" => true,
                other => return Err(err("counters", format!("lionban={other}: expected 0 or 1"))),
            };
            continue;
        }
        let (limit, slot) = match name {
            "skips" => (max_skips, &mut skips),
            "checks" => (max_checks, &mut checks),
            other => {
                return Err(err(
                    "counters",
                    format!("unknown counter '{other}' (expected skips, checks or lionban)"),
                ))
            }
        };
        let limit = limit.ok_or_else(|| {
            err(
                "counters",
                format!("this variant does not limit {name}, so it has no such counter"),
            )
        })?;
        let (b, w) = values
            .split_once('/')
            .ok_or_else(|| err("counters", format!("'{item}' is not name=B/W")))?;
        for (i, v) in [b, w].into_iter().enumerate() {
            let n: u8 = v
                .parse()
                .map_err(|_| err("counters", format!("'{v}' is not a number")))?;
            if n > limit {
                return Err(err(
                    "counters",
                    format!("{name} {n} is above the limit of {limit}"),
                ));
            }
            slot[i] = n;
        }
    }
    for c in Color::ALL {
        pos.set_counters(c, skips[c.index()], checks[c.index()]);
    }
    pos.set_lion_ban(lion_ban);
    Ok(())
}
