//! Shoko, Gyaku-sama and Hook Shogi: the start positions' perft (numbers in `data/perft.txt`)
//! cross-checked against the independent reference generator in `reference/large_shogi.rs` (a
//! slow, obviously-correct implementation written from the seeds' definitions and the rules
//! README, sharing no code or data with the rules core), and move-set cross-checks along random
//! games and in random positions that put every piece type and every rule (capture promotion,
//! switchbacks, contagion, last-rank option, capture restrictions, several royals, the Emperor,
//! skip and check limits) to work.

mod common;
#[path = "reference/large_shogi.rs"]
mod reference;

use common::{
    compare_with_reference, expected_perft, move_texts, place_random_pieces, random_side, token,
    variant, Grid,
};
use koma_rules::{perft, Position, Variant};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use reference::{Game, RefPosition};
use std::sync::Arc;

const GAMES: [Game; 3] = [Game::Shoko, Game::Gyaku, Game::Hook];

/// The start position's perft(`depth`) of `game` in the perft table.
fn start_perft(game: Game, depth: u32) -> u64 {
    expected_perft(game.id(), "startpos", depth)
}

#[test]
fn reference_agrees_on_the_start_perft_table() {
    for game in GAMES {
        let r = RefPosition::start(game);
        for depth in 1..=3 {
            let n = start_perft(game, depth);
            assert_eq!(r.perft(depth), n, "{game:?} perft({depth})");
        }
    }
}

/// Perft(4) of Shoko and Gyaku-sama Shogi, where captures and promotions begin (the
/// reference needs a few seconds for Gyaku-sama).
#[test]
fn depth_four_agrees_with_the_reference() {
    for game in [Game::Shoko, Game::Gyaku] {
        let n = start_perft(game, 4);
        assert_eq!(RefPosition::start(game).perft(4), n, "{game:?} reference");
    }
}

#[test]
fn start_positions_agree_with_the_seeds_definitions() {
    for game in GAMES {
        let v = variant(game.id());
        let mut pos = Position::start(&v);
        let r = RefPosition::start(game);
        assert_eq!(RefPosition::from_fen(game, &pos.to_text()).unwrap(), r);
        assert_eq!(Position::from_text(&v, &r.to_fen()).unwrap(), pos);
        assert_eq!(move_texts(&mut pos), r.legal_moves());
    }
}

/// Compares the legal moves of the two generators in `pos`, and the position each move leads
/// to (piece kinds after promotion, counters). Returns the moves.
#[track_caller]
fn compare(game: Game, pos: &mut Position) -> Vec<String> {
    compare_with_reference(
        &format!("{game:?}"),
        pos,
        |text| RefPosition::from_fen(game, text).unwrap(),
        RefPosition::successors,
    )
}

/// In every position of random games from the start, both generators list the same moves and
/// reach the same positions.
#[test]
fn move_sets_agree_along_random_games() {
    for game in GAMES {
        let v = variant(game.id());
        let mut rng = StdRng::seed_from_u64(0x6b6f6d61 ^ game as u64);
        let mut positions = 0;
        let games = if game == Game::Hook { 6 } else { 10 };
        for _ in 0..games {
            let mut pos = Position::start(&v);
            for _ply in 0..150 {
                let moves = compare(game, &mut pos);
                positions += 1;
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                let m = pos.parse_move(moves.choose(&mut rng).unwrap()).unwrap();
                pos.make_move(m);
            }
        }
        assert!(positions > 500, "{game:?}: only {positions} positions");
    }
}

/// A random position: both sides' royal pieces, then `n` pieces of random kinds (promoted
/// ones included) on random squares, a random side to move and random counters within their
/// limits. `favourites` are drawn more often, so that rare rules come up.
fn random_position(v: &Arc<Variant>, rng: &mut StdRng, n: usize, favourites: &[&str]) -> Position {
    let mut grid = Grid::for_variant(v);
    let royals: Vec<&str> = v
        .pieces
        .iter()
        .filter(|p| p.royal)
        .map(|p| p.id.as_str())
        .collect();
    for white in [false, true] {
        let k = rng.gen_range(1..=royals.len().min(2));
        for _ in 0..k {
            let t = token(royals.choose(rng).unwrap(), white);
            grid.place_randomly(rng, t);
        }
    }
    place_random_pieces(&mut grid, v, rng, n, favourites, 0.25);
    let side = random_side(rng);
    let mut counters = Vec::new();
    if let Some(max) = v.rules.max_consecutive_skips {
        counters.push(format!(
            "skips={}/{}",
            rng.gen_range(0..=max),
            rng.gen_range(0..=max)
        ));
    }
    if let Some(max) = v.rules.max_consecutive_checks {
        counters.push(format!(
            "checks={}/{}",
            rng.gen_range(0..=max),
            rng.gen_range(0..=max)
        ));
    }
    grid.position(v, side, &format!("- 10 {}", counters.join(",")))
}

fn favourites(game: Game) -> &'static [&'static str] {
    match game {
        Game::Shoko => &[
            "DV", "+DV", "DS", "+DS", "HM", "TG", "+OK", "+PS", "LD", "LN",
        ],
        Game::Gyaku => &["P", "+P", "FD", "+WB", "VG", "+BG", "LN", "+LN", "+Q", "K"],
        Game::Hook => &[
            "+K", "+DE", "DE", "DV", "+DV", "DS", "+DS", "P", "O", "I", "K",
        ],
    }
}

/// In random positions of every density, both generators list the same moves and reach the
/// same positions.
#[test]
fn move_sets_agree_in_random_positions() {
    for game in GAMES {
        let v = variant(game.id());
        let mut rng = StdRng::seed_from_u64(0x72616e64 ^ game as u64);
        let rounds = if game == Game::Hook { 120 } else { 200 };
        let mut captures = 0;
        for i in 0..rounds {
            let n = [4, 12, 30, 60][i % 4];
            let mut pos = random_position(&v, &mut rng, n, favourites(game));
            let moves = compare(game, &mut pos);
            captures += moves.iter().filter(|t| t.contains(',')).count();
        }
        assert!(
            captures > 100,
            "{game:?}: only {captures} multi-leg captures seen"
        );
    }
}

/// Depth-2 perft from random positions agrees with the reference.
#[test]
fn perft_agrees_from_random_positions() {
    for game in GAMES {
        let v = variant(game.id());
        let mut rng = StdRng::seed_from_u64(0x70657266 ^ game as u64);
        for i in 0..16 {
            let mut pos = random_position(&v, &mut rng, [8, 24][i % 2], favourites(game));
            let r = RefPosition::from_fen(game, &pos.to_text()).unwrap();
            assert_eq!(
                perft(&mut pos, 2),
                r.perft(2),
                "{game:?} at {}",
                pos.to_text()
            );
        }
    }
}
