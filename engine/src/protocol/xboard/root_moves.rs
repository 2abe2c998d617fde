//! The legal moves the engine plays under XBoard: those XBoard would refuse, relay otherwise or
//! apply its own way are left out.

use crate::protocol::letters::Letters;
use crate::protocol::xboard::describe::holdable;
use koma_rules::{Color, Move, Position};

/// The moves the engine may play under XBoard, when some legal ones are left out, because
/// XBoard would refuse them, relay them otherwise or adjudicate them as a loss:
/// - XBoard shows each holdable kind on one row beside the board, so it holds at most as many
///   kinds as the board has ranks. A kind past that (Hand Shogi's Pard, the 10th) goes into
///   XBoard's holdings as a pawn, and XBoard refuses its drop.
/// - XBoard applies shogi's pawn rules to the kind lettered `P` (Hand Shogi's Soldier): it
///   must promote on the last rank (XBoard relays the move with `+`), may not be dropped there,
///   and a drop that mates loses. Hand Shogi's Soldier never promotes, and may do both.
///
/// Its other drop rules (knights not on the last two ranks, one pawn per file) are also Hand
/// Shogi's, or stricter there.
///
/// The list may be empty (in check, a Pard drop the only way out): the session then resigns
/// rather than search every legal move.
pub fn xboard_root_moves(pos: &Position, letters: Option<Letters>) -> Option<Vec<Move>> {
    let l = letters?;
    let v = pos.variant();
    if !v.rules.drops {
        return None;
    }
    let kinds = holdable(l);
    let ranks = v.geometry.ranks() as usize;
    let unholdable = &kinds[ranks.min(kinds.len())..];
    let pawn = l.id("P");
    let us = pos.side_to_move();
    let mut after = pos.clone();
    let legal = after.legal_moves();
    let kept: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            let Some(k) = m.dropped() else {
                let mover = v.piece(pos.piece_at(m.from()).kind()).id.as_str();
                if pawn != Some(mover) {
                    return true;
                }
                // The Soldier: not to the last rank, and no sideways step XBoard would take
                // for an en-passant capture.
                return !v.on_last_rank(us, m.to()) && !en_passant_in_xboard(pos, *m);
            };
            let id = v.piece(k).id.as_str();
            if unholdable.contains(&id) {
                return false;
            }
            if pawn != Some(id) {
                return true;
            }
            if v.on_last_rank(us, m.to()) {
                return false;
            }
            after.make_move(*m);
            let mates = after.legal_moves().is_empty();
            after.unmake_move();
            !mates
        })
        .collect();
    (kept.len() < legal.len()).then_some(kept)
}

/// Whether XBoard would apply `m`, a Soldier's step, as an en-passant capture. XBoard 4.9's
/// `ApplyMove` takes any move of a type-0 piece (its pawn) that changes file onto an empty
/// square from the far half of the board as one, and removes whatever stands on the square
/// behind the destination. Its board then loses that piece while koma's keeps it, and a later
/// move of the lost piece is refused as illegal. Only a non-capturing sideways step with a
/// piece behind its destination is affected; the halves are taken one rank wide of XBoard's
/// (the middle rank counts for both players).
fn en_passant_in_xboard(pos: &Position, m: Move) -> bool {
    let g = &pos.variant().geometry;
    let (from, to) = (m.from(), m.to());
    if g.file_of(from) == g.file_of(to) || !pos.piece_at(to).is_empty() {
        return false;
    }
    let (rank, ranks) = (g.rank_of(from) as i32, g.ranks() as i32);
    // Ranks from the mover's side: XBoard's check is `fromY >= half` for the first player and
    // `fromY < half` for the second, on its own rank numbers.
    let (far_half, back) = match pos.side_to_move() {
        Color::Black => (rank >= ranks / 2, -1),
        Color::White => (rank <= ranks / 2, 1),
    };
    let behind = g.rank_of(to) as i32 + back;
    far_half
        && (0..ranks).contains(&behind)
        && g.square(g.file_of(to), behind as u8)
            .is_some_and(|sq| !pos.piece_at(sq).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::load_variant;

    /// Hand Shogi has ten droppable kinds and XBoard holds nine on a 9x9 board: the engine
    /// does not drop the tenth (the Pard) under XBoard, and drops everything else.
    #[test]
    fn under_xboard_the_engine_does_not_drop_what_xboard_cannot_hold() {
        let v = load_variant("hand-shogi").unwrap();
        let l = Letters::of(&v);
        let start = Position::start(&v);
        assert_eq!(xboard_root_moves(&start, l), None, "no Pard in hand");
        let mut pos = Position::from_text(&v, "8k/9/9/9/9/9/9/9/K8 b (PD)G").unwrap();
        let kept = xboard_root_moves(&pos, l).expect("the Pard's drops are left out");
        let legal = pos.legal_moves();
        assert!(legal.iter().any(|m| pos.move_text(m).starts_with("PD@")));
        assert!(kept.iter().all(|m| !pos.move_text(m).starts_with("PD@")));
        assert!(kept.iter().any(|m| pos.move_text(m).starts_with("G@")));
        assert_eq!(
            kept.len(),
            legal
                .iter()
                .filter(|m| !pos.move_text(m).starts_with("PD@"))
                .count()
        );
    }

    /// XBoard's shogi pawn rules hold for Hand Shogi's Soldier (its `P`), which Hand Shogi
    /// lets drop on the last rank, mate by a drop and step onto the last rank without
    /// promoting: the engine leaves those moves out under XBoard.
    #[test]
    fn under_xboard_the_soldier_keeps_to_xboards_pawn_rules() {
        let v = load_variant("hand-shogi").unwrap();
        let l = Letters::of(&v);
        let texts = |pos: &Position, moves: &[Move]| -> Vec<String> {
            moves.iter().map(|m| pos.move_text(m)).collect()
        };
        // Drops on the last rank.
        let mut pos = Position::from_text(&v, "8k/9/9/9/9/9/9/9/K8 b (SO)").unwrap();
        let moves = pos.legal_moves();
        let legal = texts(&pos, &moves);
        assert!(legal.contains(&"SO@e9".to_owned()));
        let kept = texts(
            &pos,
            &xboard_root_moves(&pos, l).expect("some are left out"),
        );
        assert!(kept.iter().all(|m| !m.ends_with('9')), "{kept:?}");
        assert!(kept.contains(&"SO@e8".to_owned()));
        // A drop that mates.
        let mut pos = Position::from_text(&v, "6lkl/9/6GG1/9/9/9/9/9/K8 b (SO)").unwrap();
        let mate = pos.parse_move("SO@h8").unwrap();
        pos.make_move(mate);
        assert!(pos.legal_moves().is_empty(), "SO@h8 mates");
        pos.unmake_move();
        let legal = pos.legal_moves();
        let kept = xboard_root_moves(&pos, l).expect("some are left out");
        assert!(!kept.contains(&mate));
        assert_eq!(
            kept.len(),
            legal.len() - 1 - 6,
            "the mate and six last-rank drops"
        );
        // A step onto the last rank.
        let mut pos = Position::from_text(&v, "k8/4(SO)4/9/9/9/9/9/9/K8 b -").unwrap();
        let moves = pos.legal_moves();
        let legal = texts(&pos, &moves);
        assert!(legal.contains(&"e8e9".to_owned()));
        let kept = texts(
            &pos,
            &xboard_root_moves(&pos, l).expect("the step is left out"),
        );
        assert!(!kept.contains(&"e8e9".to_owned()));
        assert!(kept.contains(&"e8d8".to_owned()));
    }

    /// XBoard takes a pawn's sideways step onto an empty square in the far half for an
    /// en-passant capture and removes the piece behind the destination (seen in a match: a
    /// Soldier's i3h3 made XBoard lose the Soldier on h4, and its later h4h3 was refused). The
    /// engine leaves such steps out, for both players, and keeps the harmless ones.
    #[test]
    fn under_xboard_the_soldier_makes_no_step_xboard_takes_for_en_passant() {
        let v = load_variant("hand-shogi").unwrap();
        let l = Letters::of(&v);
        let kept_and_legal = |text: &str| {
            let mut pos = Position::from_text(&v, text).unwrap();
            let moves = pos.legal_moves();
            let legal: Vec<String> = moves.iter().map(|m| pos.move_text(m)).collect();
            let kept: Vec<String> = xboard_root_moves(&pos, l)
                .unwrap_or(moves)
                .iter()
                .map(|m| pos.move_text(m))
                .collect();
            (kept, legal)
        };
        // The first player's Soldier on e6 (its far half), a Gold behind d6.
        let (kept, legal) = kept_and_legal("k8/9/9/4(SO)4/3G5/9/9/9/K8 b -");
        for m in ["e6d6", "e6f6", "e6e7"] {
            assert!(legal.contains(&m.to_owned()), "{m} legal");
        }
        assert!(!kept.contains(&"e6d6".to_owned()), "{kept:?}");
        assert!(kept.contains(&"e6f6".to_owned()), "nothing behind f6");
        assert!(kept.contains(&"e6e7".to_owned()), "a forward step");
        // In its own half the same step is kept.
        let (kept, _) = kept_and_legal("k8/9/9/9/9/9/4(SO)4/3G5/K8 b -");
        assert!(kept.contains(&"e3d3".to_owned()), "{kept:?}");
        // The second player's Soldier on h4 (the game's), the piece behind h3 on h4's left.
        let (kept, legal) = kept_and_legal("k8/9/9/9/9/7(so)1/8(so)/9/K8 w -");
        assert!(legal.contains(&"i3h3".to_owned()));
        assert!(!kept.contains(&"i3h3".to_owned()), "{kept:?}");
        assert!(kept.contains(&"h4g4".to_owned()), "nothing behind g4");
        // A sideways capture is an ordinary capture for XBoard.
        let (kept, _) = kept_and_legal("k8/9/9/9/9/7(so)1/7G(so)/9/K8 w -");
        assert!(kept.contains(&"i3h3".to_owned()), "{kept:?}");
    }
}
