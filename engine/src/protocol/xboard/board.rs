//! Positions between XBoard and koma: XBoard's FEN with holdings and one-letter pieces, and
//! koma's position text.

use crate::protocol::letters::Letters;

/// XBoard's FEN for holdings variants: `<board>[<holdings>] <w|b> ...`, letters for pieces,
/// `w` for the first player. Returns koma's position text (or the input when it cannot be
/// read that way, to be tried as koma's own text).
pub(crate) fn xboard_fen_to_koma(fen: &str, letters: Option<Letters>) -> String {
    let Some(l) = letters else {
        return fen.to_owned();
    };
    let mut words = fen.split_whitespace();
    let (Some(board), Some(side)) = (words.next(), words.next()) else {
        return fen.to_owned();
    };
    let (board, holdings) = match board.split_once('[') {
        Some((b, h)) => (b, h.trim_end_matches(']')),
        None => (board, ""),
    };
    let side = match side {
        "w" => "b",
        "b" => "w",
        _ => return fen.to_owned(),
    };
    let (Ok(board), Ok(hand)) = (l.to_koma(board), l.to_koma(holdings)) else {
        return fen.to_owned();
    };
    let hand = if hand.is_empty() || hand == "-" {
        "-".to_owned()
    } else {
        hand
    };
    format!("{board} {side} {hand}")
}

/// koma's position text field in one-letter names.
pub(crate) fn koma_to_letters(field: &str, l: Letters) -> String {
    let mut out = String::new();
    let mut chars = field.chars().peekable();
    let mut plus = false;
    while let Some(c) = chars.next() {
        match c {
            '+' => plus = true,
            '(' => {
                let mut id = String::new();
                for d in chars.by_ref() {
                    if d == ')' {
                        break;
                    }
                    id.push(d);
                }
                out.push_str(&letter_of(&id, plus, l));
                plus = false;
            }
            c if c.is_ascii_alphabetic() => {
                out.push_str(&letter_of(&c.to_string(), plus, l));
                plus = false;
            }
            c => out.push(c),
        }
    }
    out
}

fn letter_of(id: &str, plus: bool, l: Letters) -> String {
    let upper = id.to_ascii_uppercase();
    let key = format!("{}{upper}", if plus { "+" } else { "" });
    let letter = l.letter(&key).unwrap_or("?");
    if id.chars().all(|c| c.is_ascii_lowercase()) {
        letter.to_ascii_lowercase()
    } else {
        letter.to_owned()
    }
}

/// `2S` -> `SS`: XBoard's holdings list each piece.
pub(crate) fn expand_counts(s: &str) -> String {
    let mut out = String::new();
    let mut n = 0usize;
    for c in s.chars() {
        if let Some(d) = c.to_digit(10) {
            n = n * 10 + d as usize;
        } else {
            for _ in 0..n.max(1) {
                out.push(c);
            }
            n = 0;
        }
    }
    out
}
