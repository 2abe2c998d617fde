//! Matches as Hand Shogi's rules define them: a match is a series of hands (games), won by the
//! first player to win two hands in a row, with the first move alternating between hands. A
//! drawn hand breaks a run of wins. A match still undecided after its last allowed hand is
//! drawn.
//!
//! The matches are played side by side, hand by hand: every undecided match plays its next
//! hand in one batch of games, so model players still evaluate their leaves together. Match
//! `m` gives the first move of its first hand to A when `m` is even and to B when it is odd,
//! so that over pairs of matches both players open equally often.

use crate::config::{setting, GamePlan, MatchConfig};
use crate::elo::EloEstimate;
use crate::error::ArenaError;
use crate::opening::sub_seed;
use crate::report::{ColourStats, EndReason, GameRecord};
use crate::run::run_games;
use koma_rules::Color;
use std::fmt;
use std::time::{Duration, Instant};

/// Seed stream of each round of hands.
const HAND_STREAM: u64 = 4;

/// Wins in a row that take a match.
pub const WINS_IN_A_ROW: usize = 2;

/// One match: its hands in order, and who won it.
#[derive(Debug, Clone, PartialEq)]
pub struct HandMatch {
    /// The hands played, in order (each with A's colour and the result).
    pub hands: Vec<GameRecord>,
    /// The winner: `Some(0)` for A, `Some(1)` for B, `None` for a drawn (undecided) match.
    pub winner: Option<usize>,
}

impl HandMatch {
    /// Which player (0 = A, 1 = B) won hand `h`, if one did.
    fn hand_winner(hand: &GameRecord) -> Option<usize> {
        hand.outcome
            .winner()
            .map(|w| usize::from(w != hand.a_color))
    }

    /// The winner once the hands so far decide the match: the player who won the last
    /// [`WINS_IN_A_ROW`] hands.
    fn decided(hands: &[GameRecord]) -> Option<usize> {
        if hands.len() < WINS_IN_A_ROW {
            return None;
        }
        let last = &hands[hands.len() - WINS_IN_A_ROW..];
        let first = Self::hand_winner(&last[0])?;
        last.iter()
            .all(|h| Self::hand_winner(h) == Some(first))
            .then_some(first)
    }

    /// A's score in the match: 1, 0.5 or 0.
    pub fn score_a(&self) -> f64 {
        match self.winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }
}

/// The result of a set of matches of A against B.
#[derive(Debug, Clone, PartialEq)]
pub struct HandMatchReport {
    /// Variant id.
    pub variant: String,
    /// Player A.
    pub a: String,
    /// Player B.
    pub b: String,
    /// Hands a match may last before it is drawn.
    pub max_hands: usize,
    /// The matches, in order.
    pub matches: Vec<HandMatch>,
    /// Wall-clock time.
    pub elapsed: Duration,
}

impl HandMatchReport {
    /// Matches A won, drew and lost.
    pub fn totals(&self) -> ColourStats {
        let mut s = ColourStats {
            games: self.matches.len(),
            ..ColourStats::default()
        };
        for m in &self.matches {
            match m.winner {
                Some(0) => s.wins += 1,
                Some(_) => s.losses += 1,
                None => s.draws += 1,
            }
        }
        s
    }

    /// Every hand of every match.
    pub fn hands(&self) -> impl Iterator<Item = &GameRecord> + Clone {
        self.matches.iter().flat_map(|m| m.hands.iter())
    }

    /// A's wins, draws and losses over single hands.
    pub fn hand_totals(&self) -> ColourStats {
        ColourStats::of(self.hands())
    }

    /// Elo of A over B from the match scores.
    pub fn elo(&self) -> EloEstimate {
        let scores: Vec<f64> = self.matches.iter().map(HandMatch::score_a).collect();
        EloEstimate::from_scores(&scores)
    }
}

impl fmt::Display for HandMatchReport {
    /// The results table printed by `koma arena --matches`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.totals();
        let h = self.hand_totals();
        writeln!(f, "variant {}", self.variant)?;
        writeln!(f, "A: {}", self.a)?;
        writeln!(f, "B: {}", self.b)?;
        writeln!(
            f,
            "{} matches (first to win {WINS_IN_A_ROW} hands in a row, at most {} hands), {} \
             hands in {:.1} s",
            m.games,
            self.max_hands,
            h.games,
            self.elapsed.as_secs_f64()
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "{:<10} {:>6} {:>7} {:>6} {:>8} {:>7}",
            "", "played", "A wins", "draws", "A losses", "score"
        )?;
        for (name, s) in [("matches", m), ("hands", h)] {
            writeln!(f, "{}", s.table_row(name))?;
        }
        let lengths: Vec<String> = self
            .matches
            .iter()
            .map(|m| m.hands.len().to_string())
            .collect();
        writeln!(f)?;
        writeln!(f, "hands per match: {}", lengths.join(" "))?;
        let reasons: Vec<String> = EndReason::count(self.hands())
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        writeln!(f, "hand end reasons: {}", reasons.join(", "))?;
        write!(f, "Elo of A over B (per match): {}", self.elo())
    }
}

/// Plays `matches` matches of the players of `cfg` (its `games` is not used), each lasting at
/// most `max_hands` hands.
pub fn run_hand_matches(
    cfg: &MatchConfig,
    matches: usize,
    max_hands: usize,
) -> Result<HandMatchReport, ArenaError> {
    if matches == 0 {
        setting("matches", "at least one match is needed")?;
    }
    if max_hands < WINS_IN_A_ROW {
        setting(
            "max hands",
            &format!("{max_hands} is too few: a match needs at least {WINS_IN_A_ROW} hands"),
        )?;
    }
    let started = Instant::now();
    let mut hands: Vec<Vec<GameRecord>> = vec![Vec::new(); matches];
    let mut winners: Vec<Option<usize>> = vec![None; matches];
    for round in 0..max_hands {
        let open: Vec<usize> = (0..matches).filter(|&m| winners[m].is_none()).collect();
        if open.is_empty() {
            break;
        }
        let plan: Vec<GamePlan> = open
            .iter()
            .map(|&m| GamePlan {
                index: m * max_hands + round,
                a_color: if (m + round) % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                },
                opening: m * max_hands + round,
            })
            .collect();
        let round_cfg = MatchConfig {
            seed: sub_seed(cfg.seed, HAND_STREAM, round as u64),
            ..cfg.clone()
        };
        tracing::info!(hand = round + 1, matches = open.len(), "hands start");
        let report = run_games(&round_cfg, &plan)?;
        for record in report.games {
            let m = record.index / max_hands;
            hands[m].push(record);
            winners[m] = HandMatch::decided(&hands[m]);
        }
    }
    Ok(HandMatchReport {
        variant: cfg.variant.id.clone(),
        a: cfg.a.to_string(),
        b: cfg.b.to_string(),
        max_hands,
        matches: hands
            .into_iter()
            .zip(winners)
            .map(|(hands, winner)| HandMatch { hands, winner })
            .collect(),
        elapsed: started.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::{DrawReason, Outcome, WinReason};

    fn hand(a_color: Color, winner: Option<Color>) -> GameRecord {
        GameRecord {
            index: 0,
            pair: 0,
            a_color,
            opening: vec![],
            moves: vec![],
            outcome: match winner {
                Some(w) => Outcome::Win {
                    winner: w,
                    reason: WinReason::Checkmate,
                },
                None => Outcome::Draw(DrawReason::Repetition),
            },
            forfeit: None,
        }
    }

    #[test]
    fn two_wins_in_a_row_decide_and_a_draw_breaks_a_run() {
        use Color::{Black as B, White as W};
        // A wins as Black, then as White: A takes the match.
        assert_eq!(
            HandMatch::decided(&[hand(B, Some(B)), hand(W, Some(W))]),
            Some(0)
        );
        // A wins, B wins, A wins: undecided.
        let h = [hand(B, Some(B)), hand(W, Some(B)), hand(B, Some(B))];
        assert_eq!(HandMatch::decided(&h), None);
        // A wins, a draw, A wins: the draw broke the run.
        let h = [hand(B, Some(B)), hand(W, None), hand(B, Some(B))];
        assert_eq!(HandMatch::decided(&h), None);
        // ... and one more A win takes it.
        let h = [
            hand(B, Some(B)),
            hand(W, None),
            hand(B, Some(B)),
            hand(W, Some(W)),
        ];
        assert_eq!(HandMatch::decided(&h), Some(0));
        // B wins twice: B's match.
        assert_eq!(
            HandMatch::decided(&[hand(W, Some(B)), hand(B, Some(W))]),
            Some(1)
        );
        assert_eq!(HandMatch::decided(&[hand(B, Some(B))]), None);
    }
}
