//! Zobrist keys: one random 64-bit key per (square, piece), per (colour, kind, count in hand),
//! for the side to move and for each value of the rule counters, so that the position hash can
//! be kept current by XOR on every make and unmake.

/// Largest number of one kind a hand can hold that gets its own key (more is folded onto it).
pub const MAX_HAND_KEYED: usize = 64;
/// Largest rule-counter value that gets its own key.
pub const MAX_COUNTER_KEYED: usize = 16;

/// Rule counters with keys: skips and checks per colour (0 to 3), the Lion counterstrike ban (4).
const COUNTER_SLOTS: usize = 5;

/// The key tables of one variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Zobrist {
    codes: usize,
    board: Vec<u64>,
    hand: Vec<u64>,
    kinds: usize,
    /// Key XORed in when White is to move.
    pub white_to_move: u64,
    counters: Vec<u64>,
}

/// A small, fast, reproducible generator for the keys (SplitMix64).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Zobrist {
    /// Keys for a mailbox of `cells` cells and `kinds` piece kinds, derived from `seed` so that
    /// the same variant always hashes the same way.
    pub fn new(cells: usize, kinds: usize, seed: u64) -> Zobrist {
        let mut rng = SplitMix(seed ^ 0x6B6F_6D61_7A6F_6272);
        let codes = 2 * kinds + 1;
        let board = (0..cells * codes).map(|_| rng.next()).collect();
        let hand = (0..2 * kinds * (MAX_HAND_KEYED + 1))
            .map(|_| rng.next())
            .collect();
        let white_to_move = rng.next();
        let counters = (0..COUNTER_SLOTS * (MAX_COUNTER_KEYED + 1))
            .map(|_| rng.next())
            .collect();
        Zobrist {
            codes,
            board,
            hand,
            kinds,
            white_to_move,
            counters,
        }
    }

    /// Key of piece code `code` (see [`crate::piece::Piece`]) on mailbox cell `cell`.
    #[inline]
    pub fn piece(&self, cell: usize, code: u8) -> u64 {
        self.board[cell * self.codes + code as usize]
    }

    /// Key of holding `count` pieces of `kind` in `color`'s hand (zero count has a key too).
    #[inline]
    pub fn hand(&self, color: usize, kind: usize, count: u8) -> u64 {
        let n = (count as usize).min(MAX_HAND_KEYED);
        self.hand[(color * self.kinds + kind) * (MAX_HAND_KEYED + 1) + n]
    }

    /// Key of rule counter `which` (0..5) having `value`; zero has no key.
    #[inline]
    pub fn counter(&self, which: usize, value: u8) -> u64 {
        if value == 0 {
            0
        } else {
            self.counters[which * (MAX_COUNTER_KEYED + 1) + (value as usize).min(MAX_COUNTER_KEYED)]
        }
    }
}

/// A stable 64-bit hash of a string (FNV-1a), to seed a variant's keys from its id.
pub fn seed_from(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
