//! The classical baseline: it sees what material and mates a few plies deep show, and beats the
//! one-ply `greedy` in every variant.

use koma_arena::alphabeta::{AlphaBeta, SearchLimits};
use koma_arena::{run_match, MatchConfig, PlayerSpec};
use koma_rules::{load_variant, Position};

fn best(variant: &str, text: &str, depth: u32) -> String {
    let v = load_variant(variant).unwrap();
    let mut pos = Position::from_text(&v, text).unwrap();
    let mut ab = AlphaBeta::new(&v);
    let out = ab
        .search(&mut pos, SearchLimits { depth, time: None })
        .unwrap();
    pos.move_text(&out.best)
}

#[test]
fn it_takes_a_loose_piece_and_plays_a_mate() {
    // The lance on e2 takes the loose gold on e5.
    assert_eq!(
        best("hand-shogi", "4k4/9/9/9/4g4/9/9/4L4/4K4 b S", 1),
        "e2e5"
    );
    // A gold dropped on h8, guarded by the shogun, mates.
    assert_eq!(
        best("hand-shogi", "8k/9/9/9/7(SH)1/9/9/9/K8 b G", 2),
        "G@h8"
    );
}

#[test]
fn it_does_not_leave_a_piece_to_be_taken() {
    // Black's silver may go anywhere; at depth 2 it never lands where the gold takes it.
    let v = load_variant("hand-shogi").unwrap();
    let text = "4k4/9/9/9/4g4/9/9/9/4K4 b S";
    let mut pos = Position::from_text(&v, text).unwrap();
    let mut ab = AlphaBeta::new(&v);
    let out = ab
        .search(
            &mut pos,
            SearchLimits {
                depth: 2,
                time: None,
            },
        )
        .unwrap();
    pos.make_move(out.best);
    let gold_takes = pos
        .legal_moves()
        .iter()
        .any(|m| pos.move_text(m).starts_with("e5") && pos.piece_at(m.to()).is_piece());
    assert!(!gold_takes, "{} hangs the silver", text);
}

#[test]
fn a_time_limit_ends_the_search() {
    let v = load_variant("ko-shogi").unwrap();
    let mut pos = Position::start(&v);
    let mut ab = AlphaBeta::new(&v);
    let began = std::time::Instant::now();
    let out = ab
        .search(
            &mut pos,
            SearchLimits {
                depth: 64,
                time: Some(std::time::Duration::from_millis(300)),
            },
        )
        .unwrap();
    assert!(began.elapsed().as_secs_f64() < 2.0, "{:?}", began.elapsed());
    assert!(out.depth >= 1);
    assert!(pos.legal_moves().contains(&out.best));
}

#[test]
fn it_beats_greedy() {
    for (variant, depth) in [("hand-shogi", 2), ("shoko-shogi", 1), ("ko-shogi", 1)] {
        let a: PlayerSpec = format!("alphabeta:depth={depth}").parse().unwrap();
        let cfg = MatchConfig::new(load_variant(variant).unwrap(), a, PlayerSpec::Greedy, 2);
        let r = run_match(&cfg).unwrap();
        assert_eq!(r.wins(), 2, "{variant}: {r}");
    }
}

/// Contempt: where the searcher's first choice would repeat a position (here the move its own
/// table prefers, after both kings stepped out and back), a draw that costs it a mean piece
/// value makes it play any other move; without contempt the repetition scores level and it
/// repeats.
#[test]
fn contempt_plays_on_instead_of_repeating() {
    let v = load_variant("hand-shogi").unwrap();
    let search = |ab: &mut AlphaBeta, pos: &mut Position| {
        ab.search(
            pos,
            SearchLimits {
                depth: 1,
                time: None,
            },
        )
        .unwrap()
    };
    let step = |pos: &mut Position, text: &str| {
        let m = pos
            .legal_moves()
            .into_iter()
            .find(|m| pos.move_text(m) == text)
            .unwrap_or_else(|| panic!("{text} is not legal"));
        pos.make_move(m);
    };
    let reverse = |text: &str| format!("{}{}", &text[2..4], &text[0..2]);
    for (contempt, repeats) in [(0.0, true), (1.0, false)] {
        let mut pos = Position::from_text(&v, "4k4/9/9/9/9/9/9/9/4K4 b -").unwrap();
        let mut ab = AlphaBeta::new(&v).with_contempt(contempt);
        let first = search(&mut ab, &mut pos);
        let ours = pos.move_text(&first.best);
        assert_eq!(ours.len(), 4, "a king move: {ours}");
        step(&mut pos, &ours);
        let replies = pos.legal_moves();
        let theirs = pos.move_text(&replies[0]);
        step(&mut pos, &theirs);
        step(&mut pos, &reverse(&ours));
        step(&mut pos, &reverse(&theirs));
        let again = search(&mut ab, &mut pos);
        let chosen = pos.move_text(&again.best);
        assert_eq!(chosen == ours, repeats, "contempt {contempt}: {chosen}");
        assert_eq!(again.score, 0, "contempt {contempt}");
    }
}
