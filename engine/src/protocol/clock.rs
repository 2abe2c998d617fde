//! Time management: from what a protocol says about the clock to the budget of one search.
//!
//! Every protocol ends up with the same questions (how much time is left, is there an
//! increment, a byoyomi, a number of moves to the next time control, a fixed time or node
//! count), so they fill one [`Clock`] and ask it for [`Limits`].

use crate::search::Limits;
use std::time::Duration;

/// Moves assumed left in the game when the protocol does not say and the game's length is not
/// known either.
const DEFAULT_MOVES_TO_GO: u32 = 40;

/// The engine's own moves a game of `variant` has probably left at ply `ply`, when the GUI does
/// not say: games of these variants last about a third of their length limit (self-play games
/// of trained models: Hand Shogi about 100 plies of 400, Shoko Shogi 280 of 1,000, Ko Shogi
/// about 1,100 of 2,000), and a game that has gone longer is assumed to have a quarter of
/// that still to go, so a clock of one length serves a 9x9 game and a 19x19 one alike. At
/// least 10.
pub fn expected_moves_to_go(max_plies: u32, ply: u32) -> u32 {
    let typical = max_plies / 3;
    let left = typical.saturating_sub(ply).max(typical / 4);
    (left / 2).max(10)
}

/// Least time a search gets.
const MIN_THINK: Duration = Duration::from_millis(10);

/// What the engine knows about its time for the next move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the engine's clock.
    pub remaining: Option<Duration>,
    /// Added after each move.
    pub increment: Duration,
    /// Moves to the next time control (`None`: the rest of the game).
    pub moves_to_go: Option<u32>,
    /// Byoyomi: time for each move once the main time is spent.
    pub byoyomi: Duration,
    /// A fixed time for this move.
    pub movetime: Option<Duration>,
    /// A fixed number of simulations ("nodes").
    pub nodes: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Kept back for the round trip to the GUI.
    pub overhead: Duration,
    /// The engine's moves the game probably has left ([`expected_moves_to_go`]), for a clock
    /// without `movestogo`.
    pub expected_moves: Option<u32>,
}

impl Clock {
    /// The budget of the next search; `fallback_sims` when the GUI set no limit at all.
    pub fn limits(&self, fallback_sims: u32) -> Limits {
        if self.infinite {
            return Limits::default();
        }
        let mut limits = Limits {
            sims: self.nodes,
            time: None,
        };
        if let Some(t) = self.movetime {
            limits.time = Some(t.saturating_sub(self.overhead).max(MIN_THINK));
        } else if let Some(left) = self.remaining {
            let mtg = self
                .moves_to_go
                .or(self.expected_moves)
                .unwrap_or(DEFAULT_MOVES_TO_GO)
                .max(1);
            // An even share of the main time, most of the increment, and the byoyomi that
            // comes with every move; never more than half of what is on the clock beyond it.
            let share = left / mtg + self.increment * 3 / 4;
            let cap = left / 2 + self.byoyomi;
            let t = (share + self.byoyomi)
                .min(cap)
                .saturating_sub(self.overhead);
            limits.time = Some(t.max(MIN_THINK));
        } else if !self.byoyomi.is_zero() {
            limits.time = Some(self.byoyomi.saturating_sub(self.overhead).max(MIN_THINK));
        }
        if limits.is_infinite() {
            // Nothing said at all: a fixed strength rather than a search that never ends.
            limits.sims = Some(fallback_sims.max(1));
        }
        limits
    }
}

/// Splits the arguments of a UCI or USI `go` at `searchmoves`: the words before it, and the
/// moves after it (which run to the end of the line), if it is there.
pub fn split_searchmoves<'a>(words: &'a [&'a str]) -> (&'a [&'a str], Option<&'a [&'a str]>) {
    match words.iter().position(|w| *w == "searchmoves") {
        Some(i) => (&words[..i], Some(&words[i + 1..])),
        None => (words, None),
    }
}

/// Reads the arguments of a UCI or USI `go` into the clock of the side to move. The protocols
/// name the first player's clock differently (UCI, after chess: `wtime`/`winc`; USI: `btime`/
/// `binc`), so `first` is that letter (`'w'` or `'b'`) and `mover_is_first` says whose turn it
/// is. Returns the clock and what could not be read, one message per word.
pub fn read_go(
    words: &[&str],
    first: char,
    mover_is_first: bool,
    overhead: Duration,
) -> (Clock, Vec<String>) {
    let mut clock = Clock {
        overhead,
        ..Clock::default()
    };
    let mut problems = Vec::new();
    let second = if first == 'w' { 'b' } else { 'w' };
    let (own, other) = if mover_is_first {
        (first, second)
    } else {
        (second, first)
    };
    let (own_time, own_inc) = (format!("{own}time"), format!("{own}inc"));
    let (other_time, other_inc) = (format!("{other}time"), format!("{other}inc"));
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let value = words.get(i + 1).and_then(|v| v.parse::<u64>().ok());
        let ms = value.map(Duration::from_millis);
        let takes_value = value.is_some();
        match word {
            "infinite" => clock.infinite = true,
            "ponder" => {}
            w if w == own_time && takes_value => clock.remaining = ms,
            w if w == own_inc && takes_value => clock.increment = ms.unwrap_or_default(),
            w if (w == other_time || w == other_inc) && takes_value => {}
            "depth" | "mate" if takes_value => problems.push(format!(
                "go {word} {}: not a limit of this engine (a tree search has no fixed depth); \
                 searching by the other limits, or the default simulations",
                words[i + 1]
            )),
            "byoyomi" if takes_value => clock.byoyomi = ms.unwrap_or_default(),
            "movestogo" if takes_value => {
                clock.moves_to_go = value.map(|n| n.min(u32::MAX as u64) as u32)
            }
            "movetime" if takes_value => clock.movetime = ms,
            "nodes" if takes_value => {
                clock.nodes = value.map(|n| n.clamp(1, u32::MAX as u64) as u32)
            }
            _ => problems.push(format!("go: cannot read '{word}'")),
        }
        let known_with_value = takes_value
            && !matches!(word, "infinite" | "ponder")
            && !problems
                .last()
                .is_some_and(|p| p.ends_with(&format!("cannot read '{word}'")));
        i += if known_with_value { 2 } else { 1 };
    }
    (clock, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn fixed_limits_are_kept() {
        let c = Clock {
            movetime: Some(ms(1000)),
            overhead: ms(50),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(950)));
        let c = Clock {
            nodes: Some(300),
            ..Clock::default()
        };
        assert_eq!(c.limits(64), Limits::sims(300));
        let c = Clock {
            infinite: true,
            ..Clock::default()
        };
        assert!(c.limits(64).is_infinite());
        assert_eq!(Clock::default().limits(64), Limits::sims(64));
    }

    #[test]
    fn a_clock_is_shared_over_the_moves_to_go() {
        let c = Clock {
            remaining: Some(ms(60_000)),
            increment: ms(1000),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(1500 + 750)));
        let c = Clock {
            remaining: Some(ms(60_000)),
            moves_to_go: Some(10),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(6000)));
        // Never more than half the clock, however few moves are left.
        let c = Clock {
            remaining: Some(ms(10_000)),
            moves_to_go: Some(1),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(5000)));
    }

    #[test]
    fn go_reads_the_movers_clock_in_each_protocols_naming() {
        let ms = Duration::from_millis;
        // UCI names the first player's clock w..., USI b...
        let words = [
            "wtime", "60000", "btime", "30000", "winc", "1000", "binc", "500",
        ];
        let (c, p) = read_go(&words, 'w', true, ms(0));
        assert!(p.is_empty(), "{p:?}");
        assert_eq!((c.remaining, c.increment), (Some(ms(60_000)), ms(1000)));
        let (c, _) = read_go(&words, 'w', false, ms(0));
        assert_eq!((c.remaining, c.increment), (Some(ms(30_000)), ms(500)));
        let (c, _) = read_go(&words, 'b', true, ms(0));
        assert_eq!((c.remaining, c.increment), (Some(ms(30_000)), ms(500)));
        let (c, p) = read_go(
            &[
                "byoyomi", "3000", "nodes", "50", "movetime", "9", "depth", "4", "x",
            ],
            'b',
            true,
            ms(0),
        );
        assert_eq!(c.byoyomi, ms(3000));
        assert_eq!(c.nodes, Some(50));
        assert_eq!(c.movetime, Some(ms(9)));
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].starts_with("go depth 4: not a limit"), "{p:?}");
        assert_eq!(p[1], "go: cannot read 'x'");
        let words = ["infinite", "searchmoves", "e3e4", "e7e6"];
        let (before, moves) = split_searchmoves(&words);
        assert_eq!((before, moves), (&words[..1], Some(&words[2..])));
        let (c, p) = read_go(before, 'w', true, ms(0));
        assert!(c.infinite && p.is_empty());
        assert_eq!(split_searchmoves(&words[..1]), (&words[..1], None));
        let (_, p) = read_go(&["wtime", "soon"], 'w', true, ms(0));
        assert_eq!(
            p,
            vec![
                "go: cannot read 'wtime'".to_owned(),
                "go: cannot read 'soon'".to_owned()
            ]
        );
    }

    #[test]
    fn the_game_length_sets_the_share_of_the_clock() {
        // Ten minutes: Hand Shogi (limit 400 plies) at the start spends about 9 s a move, Ko
        // Shogi (limit 2,000) about 1.8 s; late in a game the share grows.
        let at = |max_plies, ply| Clock {
            remaining: Some(ms(600_000)),
            expected_moves: Some(expected_moves_to_go(max_plies, ply)),
            ..Clock::default()
        };
        assert_eq!(expected_moves_to_go(400, 0), 66);
        assert_eq!(expected_moves_to_go(2000, 0), 333);
        assert_eq!(at(400, 0).limits(64).time, Some(ms(600_000) / 66));
        assert_eq!(at(2000, 0).limits(64).time, Some(ms(600_000) / 333));
        assert!(at(2000, 600).limits(64).time > at(2000, 0).limits(64).time);
        assert_eq!(expected_moves_to_go(400, 300), 16);
        assert_eq!(expected_moves_to_go(40, 0), 10);
    }

    #[test]
    fn byoyomi_is_spent_each_move() {
        let c = Clock {
            remaining: Some(Duration::ZERO),
            byoyomi: ms(3000),
            overhead: ms(100),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(2900)));
        let c = Clock {
            byoyomi: ms(1000),
            ..Clock::default()
        };
        assert_eq!(c.limits(64).time, Some(ms(1000)));
    }
}
