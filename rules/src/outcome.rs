//! How and whether a game has ended.

use crate::color::Color;
use crate::position::Position;

/// Why a game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser has no legal move while in check.
    Checkmate,
    /// The loser has no legal move (not in check).
    NoLegalMoves,
    /// The loser's last royal piece was captured (Ko Shogi: the loser no longer commands, having
    /// lost its general and governor and its middle troop or banner, by capture or burn).
    RoyalCaptured,
    /// The position repeated and every move of the loser in the cycle gave check.
    PerpetualCheck,
    /// The loser made the position occur the variant's number of times, in a variant where a
    /// repetition loses for the side that makes it (`repetition_result = "loss"`): its move
    /// completed the count, or it passed first in a cycle of passes.
    RepetitionMade,
    /// An arbiter's ruling, never reached by the rules themselves: the loser (an external
    /// engine in a match) played a move that is not legal, or none.
    Forfeit,
    /// An arbiter's ruling as well: the loser's clock ran out (a person's game clock in
    /// `koma play`).
    Time,
    /// The loser gave up (a search that judged its position lost for several moves in a row).
    Resignation,
}

/// Why a game was drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position occurred the variant's number of times.
    Repetition,
    /// The variant's maximum game length was reached.
    MaxLength,
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One player won.
    Win {
        /// The winner.
        winner: Color,
        /// How.
        reason: WinReason,
    },
    /// Nobody won.
    Draw(DrawReason),
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw(_) => None,
        }
    }
}

impl Position {
    /// Number of times the current position has occurred in this game, this time included.
    pub fn repetitions(&self) -> usize {
        1 + self
            .history
            .iter()
            .filter(|u| u.hash_before == self.hash)
            .count()
            + self.root_hashes.iter().filter(|&&h| h == self.hash).count()
    }

    /// The result if the game is over, `None` if the side to move has to move.
    pub fn outcome(&mut self) -> Option<Outcome> {
        let none_legal = self.legal_moves().is_empty();
        self.outcome_given(none_legal)
    }

    /// [`Position::outcome`] for a caller that has already generated the legal moves and
    /// says whether there were none (search leaves do, and need not generate them twice).
    pub fn outcome_given(&mut self, no_legal_moves: bool) -> Option<Outcome> {
        let us = self.side;
        for c in [us, us.opposite()] {
            if self.royals[c.index()] == 0 {
                return Some(Outcome::Win {
                    winner: c.opposite(),
                    reason: WinReason::RoyalCaptured,
                });
            }
        }
        let rules = &self.variant.rules;
        if self.repetitions() >= rules.repetition as usize {
            if rules.perpetual_check_loses {
                if let Some(loser) = self.perpetual_checker() {
                    return Some(Outcome::Win {
                        winner: loser.opposite(),
                        reason: WinReason::PerpetualCheck,
                    });
                }
            }
            if rules.repetition_loses {
                return Some(Outcome::Win {
                    winner: self.repetition_maker().opposite(),
                    reason: WinReason::RepetitionMade,
                });
            }
            return Some(Outcome::Draw(DrawReason::Repetition));
        }
        if self.ply >= rules.max_plies {
            return Some(Outcome::Draw(DrawReason::MaxLength));
        }
        if no_legal_moves {
            let reason = if self.in_check(us) {
                WinReason::Checkmate
            } else {
                WinReason::NoLegalMoves
            };
            return Some(Outcome::Win {
                winner: us.opposite(),
                reason,
            });
        }
        None
    }

    /// Who made a repetition, where it loses: the player whose move completed it, except that a
    /// turn skip answering a turn skip is the first skipper's doing (its pass offered the
    /// repeat, and the opponent may pass back). That is HaChu's reading of Chu Shogi's rule: it
    /// scores a repeating move as lost for its maker, but a pass answering a pass as won.
    fn repetition_maker(&self) -> Color {
        let n = self.history.len();
        let completer = self.side.opposite();
        if n >= 2 && self.history[n - 1].mv.is_skip() && self.history[n - 2].mv.is_skip() {
            completer.opposite()
        } else {
            completer
        }
    }

    /// The player all of whose moves gave check since the first occurrence of the current
    /// position, if there is one.
    fn perpetual_checker(&self) -> Option<Color> {
        let first = self
            .history
            .iter()
            .position(|u| u.hash_before == self.hash)?;
        let n = self.history.len();
        // The move at history index i was made by the side to move at that time.
        let mover = |i: usize| {
            if (n - i) % 2 == 1 {
                self.side.opposite()
            } else {
                self.side
            }
        };
        Color::ALL.into_iter().find(|&c| {
            let mut any = false;
            let all = (first..n).filter(|&i| mover(i) == c).all(|i| {
                any = true;
                self.history[i].gave_check
            });
            any && all
        })
    }
}
