//! One-letter names of pieces, for protocols whose GUIs know pieces by a single letter (USI's
//! SFEN, XBoard's piece-to-char table and drops).
//!
//! koma's IDs have up to three letters, so a variant speaks these protocols only with a table
//! of its own. Hand Shogi's (also in the README, "Playing from a GUI"):
//!
//! | koma | letter | piece |
//! |---|---|---|
//! | K | K | King |
//! | G | G | Gold General |
//! | S | S | Silver General |
//! | N, +N | N, +N | Knight, Promoted Knight |
//! | L | L | Lance |
//! | SO | P | Soldier (a pawn that also steps sideways) |
//! | T | B | Tycoon (a bishop of range 3) |
//! | SH | R | Shogun (a rook of range 3) |
//! | PD | D | Pard |
//! | O | O | Onager |
//! | H | H | Hasty |
//!
//! Gyaku-sama Shogi's (13x13, no drops) keeps the one-letter IDs and gives the others a free
//! letter, Chu Shogi's where it has one; a promoted form is `+` and its base's letter:
//!
//! | koma | letter | koma | letter | koma | letter |
//! |---|---|---|---|---|---|
//! | BT (blind tiger) | T | FL (ferocious leopard) | F | KY (kirin) | O |
//! | PH (phoenix) | X | VM (vertical mover) | V | DH (dragon horse) | H |
//! | DK (dragon king) | E | SS (side soldier) | M | CS (chariot soldier) | C |
//! | LN (lion) | I | BG (bishop general) | A | RG (rook general) | J |
//! | WB (water buffalo) | W | VG (vice general) | U | FD (fire demon) | Z |

use koma_rules::fen::id_token;
use koma_rules::{Color, Move, NotationError, Position, Variant};

/// koma piece IDs and their letters, per variant, in the order XBoard's piece table and
/// holdings list them (see [`crate::protocol::xboard`]).
const TABLES: &[(&str, &[(&str, &str)])] = &[
    (
        "hand-shogi",
        &[
            ("SO", "P"),
            ("N", "N"),
            ("T", "B"),
            ("SH", "R"),
            ("L", "L"),
            ("S", "S"),
            ("O", "O"),
            ("H", "H"),
            ("G", "G"),
            ("PD", "D"),
            ("+N", "+N"),
            ("K", "K"),
        ],
    ),
    (
        "gyaku-sama-shogi",
        &[
            ("P", "P"),
            ("D", "D"),
            ("N", "N"),
            ("S", "S"),
            ("BT", "T"),
            ("FL", "F"),
            ("G", "G"),
            ("L", "L"),
            ("KY", "O"),
            ("PH", "X"),
            ("VM", "V"),
            ("B", "B"),
            ("SS", "M"),
            ("R", "R"),
            ("DH", "H"),
            ("DK", "E"),
            ("CS", "C"),
            ("LN", "I"),
            ("Q", "Q"),
            ("BG", "A"),
            ("RG", "J"),
            ("WB", "W"),
            ("VG", "U"),
            ("FD", "Z"),
            ("+P", "+P"),
            ("+D", "+D"),
            ("+N", "+N"),
            ("+S", "+S"),
            ("+BT", "+T"),
            ("+FL", "+F"),
            ("+G", "+G"),
            ("+L", "+L"),
            ("+KY", "+O"),
            ("+PH", "+X"),
            ("+VM", "+V"),
            ("+B", "+B"),
            ("+SS", "+M"),
            ("+R", "+R"),
            ("+DH", "+H"),
            ("+DK", "+E"),
            ("+CS", "+C"),
            ("+LN", "+I"),
            ("+Q", "+Q"),
            ("+BG", "+A"),
            ("+RG", "+J"),
            ("+WB", "+W"),
            ("K", "K"),
        ],
    ),
];

/// A variant's one-letter names.
#[derive(Debug, Clone, Copy)]
pub struct Letters(&'static [(&'static str, &'static str)]);

impl Letters {
    /// The table of `v`, if it has one.
    pub fn of(v: &Variant) -> Option<Letters> {
        TABLES
            .iter()
            .find(|(id, _)| *id == v.id)
            .map(|(_, t)| Letters(t))
    }

    /// The letter (with `+` for a promoted form) of a koma piece ID.
    pub fn letter(&self, id: &str) -> Option<&'static str> {
        self.0.iter().find(|(k, _)| *k == id).map(|(_, s)| *s)
    }

    /// The koma piece ID of a letter (with `+` for a promoted form).
    pub fn id(&self, letter: &str) -> Option<&'static str> {
        self.0.iter().find(|(_, s)| *s == letter).map(|(k, _)| *k)
    }

    /// Every pair (koma ID, letter).
    pub fn pairs(&self) -> &'static [(&'static str, &'static str)] {
        self.0
    }

    /// Rewrites a FEN-like board or hand field written with letters (`+N`, lowercase for the
    /// second player, digits for counts or empty squares, `/` between ranks) into koma's
    /// position text.
    pub fn to_koma(&self, field: &str) -> Result<String, String> {
        let mut out = String::new();
        let mut promoted = false;
        for c in field.chars() {
            match c {
                '/' => out.push('/'),
                '+' => promoted = true,
                d if d.is_ascii_digit() => out.push(d),
                l if l.is_ascii_alphabetic() => {
                    let key = format!(
                        "{}{}",
                        if promoted { "+" } else { "" },
                        l.to_ascii_uppercase()
                    );
                    let id = self
                        .id(&key)
                        .ok_or_else(|| format!("'{key}' is not a piece letter here"))?;
                    let color = if l.is_ascii_lowercase() {
                        Color::White
                    } else {
                        Color::Black
                    };
                    out.push_str(&id_token(id, color));
                    promoted = false;
                }
                other => return Err(format!("unexpected '{other}' in '{field}'")),
            }
        }
        Ok(out)
    }
}

/// Reads a move in koma's text or with a drop by letter (`P@e5` for Hand Shogi's `SO@e5`), as
/// chess-variant GUIs and engines write it; XBoard's null move `@@@@` is a turn skip where one
/// is legal. Errors say what is wrong, without the move (protocols add it their own way).
pub fn parse_move(
    pos: &mut Position,
    letters: Option<Letters>,
    text: &str,
) -> Result<Move, String> {
    if text == "@@@@" {
        let skip = pos.legal_moves().into_iter().find(|m| m.is_skip());
        return skip.ok_or_else(|| "no turn skip is legal here".to_owned());
    }
    let text = match (letters, text.split_once('@')) {
        (Some(l), Some((letter, rest))) if pos.variant().kind_by_id(letter).is_none() => {
            match l.id(letter) {
                Some(id) => format!("{id}@{rest}"),
                None => text.to_owned(),
            }
        }
        _ => text.to_owned(),
    };
    // XBoard relays a move into the zone sent without a suffix as `=`: where no promotion was
    // open there is nothing to decline, and the move is the same. The other way round, an
    // engine's move without a suffix where a promotion was open declines it (HaChu writes only
    // `+`).
    let result = match pos.parse_move(&text) {
        Err(NotationError::Illegal { .. }) if text.ends_with('=') => {
            pos.parse_move(&text[..text.len() - 1])
        }
        Err(e @ NotationError::Illegal { .. }) if !text.ends_with(['+', '=']) => {
            pos.parse_move(&format!("{text}=")).map_err(|_| e)
        }
        r => r,
    };
    result.map_err(|e| match e {
        NotationError::Malformed { reason, .. } => reason,
        NotationError::Illegal { .. } => "not legal in this position".into(),
    })
}

/// Writes a move with drops by letter where the variant has letters (koma's text otherwise).
pub fn move_text(pos: &Position, letters: Option<Letters>, m: &Move) -> String {
    let t = pos.move_text(m);
    match (letters, m.dropped()) {
        (Some(l), Some(k)) => {
            let id = &pos.variant().piece(k).id;
            match l.letter(id) {
                Some(letter) => t.replacen(&format!("{id}@"), &format!("{letter}@"), 1),
                None => t,
            }
        }
        _ => t,
    }
}

/// A move as XBoard and its engines read it: [`move_text`], and a turn skip as XBoard's null
/// move `@@@@`. XBoard refuses a move that starts and ends on one square, and HaChu takes a
/// pass written as a piece's move only from the piece it would pass with itself, so a pass
/// relayed as `f3f3` can be refused where `@@@@` is not.
pub fn xboard_move_text(pos: &Position, letters: Option<Letters>, m: &Move) -> String {
    if m.is_skip() {
        "@@@@".to_owned()
    } else {
        move_text(pos, letters, m)
    }
}

#[cfg(test)]
mod xboard_form {
    use super::*;

    #[test]
    fn a_turn_skip_goes_to_xboard_as_the_null_move_and_comes_back() {
        let v = koma_rules::load_variant("chu-shogi").unwrap();
        let mut pos =
            Position::from_text(&v, "11k/12/12/12/12/12/12/5(LN)6/12/12/12/K11 b -").unwrap();
        let pass = pos.legal_moves().into_iter().find(|m| m.is_skip()).unwrap();
        assert_eq!(xboard_move_text(&pos, None, &pass), "@@@@");
        assert_eq!(parse_move(&mut pos, None, "@@@@").unwrap(), pass);
        let step = pos.parse_move("f5f6").unwrap();
        assert_eq!(xboard_move_text(&pos, None, &step), "f5f6");
    }
}
