//! Perft tables of Shoko, Gyaku-sama and Hook Shogi, cross-checked against the independent
//! reference generator in `reference/large_shogi.rs` (a slow, obviously-correct implementation
//! written from the seeds' definitions and the rules README, sharing no code or data with the
//! rules core), and move-set cross-checks along random games and in random positions that put
//! every piece type and every rule (capture promotion, switchbacks, contagion, last-rank
//! option, capture restrictions, several royals, the Emperor, skip and check limits) to work.

#[path = "reference/large_shogi.rs"]
mod reference;

use koma_rules::{load_variant, perft, Position, Variant};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use reference::{Game, RefPosition};
use std::collections::BTreeSet;
use std::sync::Arc;

const GAMES: [Game; 3] = [Game::Shoko, Game::Gyaku, Game::Hook];

/// Perft from the start positions, bulk counting. Every number equals the reference
/// generator's count (tests below); depth 1 is also the hand count of the reference's own
/// start-position test.
const START_PERFT: [(Game, [u64; 3]); 3] = [
    (Game::Shoko, [25, 625, 21_428]),
    (Game::Gyaku, [45, 2_032, 97_030]),
    (Game::Hook, [89, 7_921, 725_953]),
];

fn texts(pos: &mut Position) -> BTreeSet<String> {
    pos.legal_moves().iter().map(|m| pos.move_text(m)).collect()
}

#[test]
fn start_position_perft_table() {
    for (game, counts) in START_PERFT {
        let v = load_variant(game.id()).unwrap();
        let mut pos = Position::start(&v);
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(
                perft(&mut pos, d as u32 + 1),
                n,
                "{game:?} perft({})",
                d + 1
            );
        }
    }
}

#[test]
fn reference_agrees_on_the_start_perft_table() {
    for (game, counts) in START_PERFT {
        let r = RefPosition::start(game);
        for (d, &n) in counts.iter().enumerate() {
            assert_eq!(r.perft(d as u32 + 1), n, "{game:?} perft({})", d + 1);
        }
    }
}

/// Perft(4) of Shoko and Gyaku-sama Shogi, where captures and promotions begin (the
/// reference needs a few seconds for Gyaku-sama).
const START_PERFT4: [(Game, u64); 2] = [(Game::Shoko, 735_539), (Game::Gyaku, 4_688_905)];

#[test]
fn depth_four_agrees_with_the_reference() {
    for (game, n) in START_PERFT4 {
        let v = load_variant(game.id()).unwrap();
        assert_eq!(perft(&mut Position::start(&v), 4), n, "{game:?}");
        assert_eq!(RefPosition::start(game).perft(4), n, "{game:?} reference");
    }
}

#[test]
fn start_positions_agree_with_the_seeds_definitions() {
    for game in GAMES {
        let v = load_variant(game.id()).unwrap();
        let mut pos = Position::start(&v);
        let r = RefPosition::start(game);
        assert_eq!(RefPosition::from_fen(game, &pos.to_text()).unwrap(), r);
        assert_eq!(Position::from_text(&v, &r.to_fen()).unwrap(), pos);
        assert_eq!(texts(&mut pos), r.legal_moves());
    }
}

/// Compares the legal moves of the two generators in `pos`, and the position each move leads
/// to (piece kinds after promotion, counters). Returns the moves.
#[track_caller]
fn compare(game: Game, pos: &mut Position) -> Vec<String> {
    let text = pos.to_text();
    let r = RefPosition::from_fen(game, &text).unwrap();
    let ours = texts(pos);
    let successors = r.successors();
    let theirs: BTreeSet<String> = successors.iter().map(|(t, _)| t.clone()).collect();
    let missing: Vec<_> = theirs.difference(&ours).collect();
    let extra: Vec<_> = ours.difference(&theirs).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{game:?} at {text}:\n  missing {missing:?}\n  extra {extra:?}"
    );
    for (t, after) in &successors {
        let m = pos.parse_move(t).unwrap();
        pos.make_move(m);
        let ours = RefPosition::from_fen(game, &pos.to_text()).unwrap();
        pos.unmake_move();
        assert_eq!(&ours, after, "{game:?} at {text}, after {t}");
    }
    ours.into_iter().collect()
}

/// In every position of random games from the start, both generators list the same moves and
/// reach the same positions.
#[test]
fn move_sets_agree_along_random_games() {
    for game in GAMES {
        let v = load_variant(game.id()).unwrap();
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
    let files = v.geometry.files() as usize;
    let ranks = v.geometry.ranks() as usize;
    let mut grid: Vec<Option<String>> = vec![None; files * ranks];
    let token = |id: &str, white: bool| {
        let (plus, body) = match id.strip_prefix('+') {
            Some(b) => ("+", b),
            None => ("", id),
        };
        let body = if white {
            body.to_ascii_lowercase()
        } else {
            body.to_string()
        };
        if body.len() == 1 {
            format!("{plus}{body}")
        } else {
            format!("{plus}({body})")
        }
    };
    let mut place = |rng: &mut StdRng, t: String| loop {
        let i = rng.gen_range(0..grid.len());
        if grid[i].is_none() {
            grid[i] = Some(t);
            return;
        }
    };
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
            place(rng, t);
        }
    }
    for _ in 0..n {
        let id = if rng.gen_bool(0.25) {
            favourites.choose(rng).unwrap().to_string()
        } else {
            v.pieces.choose(rng).unwrap().id.clone()
        };
        let t = token(&id, rng.gen_bool(0.5));
        place(rng, t);
    }
    let mut rows = Vec::new();
    for r in (0..ranks).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for f in 0..files {
            match &grid[r * files + f] {
                None => empty += 1,
                Some(t) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push_str(t);
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    let side = if rng.gen_bool(0.5) { 'b' } else { 'w' };
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
    let text = format!("{} {side} - 10 {}", rows.join("/"), counters.join(","));
    Position::from_text(v, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
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
        let v = load_variant(game.id()).unwrap();
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
        let v = load_variant(game.id()).unwrap();
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
