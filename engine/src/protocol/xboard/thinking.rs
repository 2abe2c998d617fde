//! What the engine sends XBoard while and after it thinks: its moves in XBoard's form and
//! thinking lines.

use crate::protocol::letters::{move_text, Letters};
use koma_rules::{Move, Position};

/// A move as sent to XBoard: koma's text, drops by letter, and a turn skip as XBoard's null
/// move `@@@@` (XBoard refuses a move that starts and ends on one square).
pub(crate) fn text(pos: &Position, letters: Option<Letters>, m: &Move) -> String {
    if m.is_skip() {
        "@@@@".to_owned()
    } else {
        move_text(pos, letters, m)
    }
}

/// A thinking line: `ply score time nodes pv` (score in centipawns, time in centiseconds).
pub(crate) fn thinking(
    p: &crate::search::Progress,
    pos: &Position,
    letters: Option<Letters>,
) -> String {
    let score = if p.proven_win {
        100_000 - 1
    } else {
        p.centipawns()
    };
    let mut line = format!(
        "{} {score} {} {}",
        p.pv.len().max(1),
        p.elapsed.as_millis() / 10,
        p.simulations
    );
    let mut q = pos.clone();
    for m in &p.pv {
        line.push(' ');
        line.push_str(&text(&q, letters, m));
        q.make_move(*m);
    }
    line
}
