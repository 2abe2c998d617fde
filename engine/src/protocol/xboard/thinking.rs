//! What the engine sends XBoard while and after it thinks: its moves in XBoard's form and
//! thinking lines.

use crate::protocol::letters::{xboard_move_text as text, Letters};
use koma_rules::Position;

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
