//! Move diagrams read from the compiled move tables, and the squares of a check: what the
//! page's piece reference and check marks show.

use koma_rules::{Diagram, How, Position, Variant};
use rand::prelude::*;

fn diagram(variant: &str, id: &str, cap: u8) -> Diagram {
    let v = Variant::load(variant).unwrap();
    let p = v.pieces.iter().find(|p| p.id == id).unwrap();
    Diagram::of(&p.moves[0], cap)
}

fn is(d: &Diagram, at: (i8, i8), how: How) -> bool {
    d.at(at.0, at.1).has(how)
}

const ANY: How = How(How::MOVE.0 | How::CAPTURE.0);

#[test]
fn steps_leaps_and_slides() {
    let king = diagram("hand-shogi", "K", 4);
    assert_eq!((king.radius, king.cells.len()), (2, 8));
    assert!(is(&king, (1, 1), How::STEP | ANY) && !king.returns);
    let knight = diagram("hand-shogi", "N", 4);
    assert_eq!(knight.cells.len(), 2);
    assert!(is(&knight, (1, 2), How::JUMP | ANY) && is(&knight, (-1, 2), How::JUMP));
    let lance = diagram("hand-shogi", "L", 4);
    assert_eq!((lance.radius, lance.cells.len()), (4, 4));
    assert!((1..=4).all(|r| is(&lance, (0, r), How::SLIDE | ANY)));
    // A slide of range 3 sets the radius; the cap bounds an unlimited one.
    assert_eq!(diagram("hand-shogi", "SH", 7).radius, 3);
    assert_eq!(diagram("hand-shogi", "L", 7).radius, 7);
    // Forward is up for the first player: the knight and lance never go back.
    assert!(knight.cells.iter().chain(&lance.cells).all(|c| c.dr > 0));
}

#[test]
fn skip_first_sliders_jump_and_multi_leg_moves_show_their_kills() {
    // Roaring dog (KjQ3): king steps, and a queen slide of 2 or 3 that jumps the first square.
    let dog = diagram("shoko-shogi", "RD", 7);
    assert!(is(&dog, (0, 1), How::STEP) && is(&dog, (0, 2), How::JUMP | ANY));
    assert!(is(&dog, (3, 3), How::JUMP) && !is(&dog, (0, 4), How::MOVE));
    // The Lion: captures on the first step and goes on, ends two steps away or back home.
    let lion = diagram("shoko-shogi", "LN", 7);
    assert!(is(&lion, (1, 0), How::KILL) && is(&lion, (-1, -1), How::KILL));
    assert!(is(&lion, (2, -2), How::LEGS | ANY) && is(&lion, (2, -2), How::JUMP | ANY));
    assert!(is(&lion, (1, 2), How::JUMP) && !is(&lion, (3, 0), How::MOVE));
    assert!(lion.returns);
    // The hook mover: a rook slide, or one turning a right angle (legs) anywhere.
    let hook = diagram("hook-shogi", "HM", 5);
    assert!(is(&hook, (0, 5), How::SLIDE | ANY) && is(&hook, (3, 2), How::LEGS | ANY));
    assert!(!is(&hook, (3, 2), How::SLIDE));
}

#[test]
fn hoppers_end_only_past_a_screen() {
    // The bishop general (pafpafcBmcBcpB): its hops never end on the first diagonal square.
    let bg = diagram("gyaku-sama-shogi", "BG", 6);
    assert!(is(&bg, (1, 1), How::SLIDE));
    assert!(is(&bg, (3, 3), How::HOP));
    assert!(!is(&bg, (1, 1), How::HOP));
}

#[test]
fn a_check_names_the_royal_and_every_piece_giving_it() {
    let v = koma_rules::load_variant("hand-shogi").unwrap();
    let pos = Position::from_text(&v, "8k/9/9/9/9/9/9/1g7/K8 b -").unwrap();
    let c = pos.checks(koma_rules::Color::Black);
    let g = &v.geometry;
    let names = |sq: &[koma_rules::Square]| sq.iter().map(|&s| g.name(s)).collect::<Vec<_>>();
    assert_eq!(names(&c.targets), ["a1"]);
    assert_eq!(names(&c.checkers), ["b2"]);
    assert!(pos.checks(koma_rules::Color::White).is_empty());
    // Two pieces at once: the gold and a lance down the file.
    let pos = Position::from_text(&v, "l7k/9/9/9/9/9/9/1g7/K8 b -").unwrap();
    let mut both = names(&pos.checks(koma_rules::Color::Black).checkers);
    both.sort();
    assert_eq!(both, ["a9", "b2"]);
}

#[test]
fn the_checks_found_are_exactly_the_rules_check_in_every_variant() {
    for id in koma_rules::variant::builtin_ids() {
        // Each variant's own games, whatever the other variants' games were.
        let mut rng = StdRng::seed_from_u64(11);
        let v = koma_rules::load_variant(id).unwrap();
        let games = if id == "ko-shogi" { 2 } else { 6 };
        let plies = 120;
        let mut checks_seen = 0;
        // More games where the first reached no check, up to five times as many.
        let mut played = 0;
        while played < games || (checks_seen == 0 && played < 5 * games) {
            played += 1;
            let mut pos = Position::start(&v);
            for _ in 0..plies {
                if pos.outcome().is_some() {
                    break;
                }
                let side = pos.side_to_move();
                let checks = pos.checks(side);
                assert_eq!(
                    checks.is_empty(),
                    !pos.in_check(side),
                    "{id}: {}",
                    pos.to_text()
                );
                assert_eq!(
                    checks.targets.is_empty(),
                    checks.checkers.is_empty(),
                    "{id}"
                );
                checks_seen += !checks.is_empty() as usize;
                let moves = pos.legal_moves();
                // Prefer captures and checks, so games reach checks quickly.
                let mv = *moves
                    .iter()
                    .filter(|m| !m.kills().is_empty() || !pos.piece_at(m.to()).is_empty())
                    .choose(&mut rng)
                    .unwrap_or_else(|| moves.choose(&mut rng).unwrap());
                pos.make_move(mv);
            }
        }
        // In Dai Shogi (15x15, five ranks of pieces) this capture-first play loses a King to a
        // capture before it ever stands in check on its own turn; its check is tested in
        // rules/tests/chu_shogi_rules.rs.
        assert!(
            checks_seen > 0 || id == "ko-shogi" || id == "dai-shogi",
            "{id}: no check reached"
        );
    }
}
