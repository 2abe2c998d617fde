//! Random openings: a few random legal moves from the start position, one per pair of games.
//!
//! Deterministic players (a model searching without noise) would otherwise play the same game
//! over and over; a short random prefix makes every pair different, and playing each prefix
//! once with each player moving first cancels most of the luck a random prefix brings.

use crate::error::ArenaError;
use koma_rules::{Move, Position};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// Attempts before giving up on an opening that keeps the game undecided.
const TRIES: u32 = 1000;

/// The seed of stream `stream` of item `index` under the match seed: distinct items and
/// streams get unrelated generators (SplitMix64 finaliser over the combined input).
pub fn sub_seed(seed: u64, stream: u64, index: u64) -> u64 {
    let mut z = seed
        ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ index.wrapping_mul(0xD1B5_4A32_D192_ED69);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Stream of [`sub_seed`] for openings.
pub const OPENING_STREAM: u64 = 1;

/// Stream of [`sub_seed`] that seeds the teacher's openings (`crate::teacher`), apart from the
/// arena's under the same seed (streams 2 to 4 are the arena's own).
pub const TEACHER_STREAM: u64 = 5;

/// `moves` played from `start`: the position they reach and each move's text in the variant's
/// notation. The arena's host starts its games from it, and a resumed match checks a kept
/// game's recorded opening against its texts, so the two read an opening the same way.
pub fn play_opening(start: &Position, moves: &[Move]) -> (Position, Vec<String>) {
    let mut pos = start.clone();
    let texts = moves
        .iter()
        .map(|&m| {
            let text = pos.move_text(&m);
            pos.make_move(m);
            text
        })
        .collect();
    (pos, texts)
}

/// The opening of pair `pair`: `plies` random legal moves from `start` after which the game is
/// not over. The same seed and pair always give the same opening.
pub fn opening(
    start: &Position,
    plies: u32,
    seed: u64,
    pair: usize,
) -> Result<Vec<Move>, ArenaError> {
    let mut rng = StdRng::seed_from_u64(sub_seed(seed, OPENING_STREAM, pair as u64));
    'attempt: for _ in 0..TRIES {
        let mut pos = start.clone();
        let mut line = Vec::with_capacity(plies as usize);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            let Some(&m) = moves.choose(&mut rng) else {
                continue 'attempt;
            };
            pos.make_move(m);
            line.push(m);
            if pos.outcome().is_some() {
                continue 'attempt;
            }
        }
        return Ok(line);
    }
    Err(ArenaError::Opening {
        plies,
        tries: TRIES,
    })
}
