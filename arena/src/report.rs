//! What a match says: every game's record and the summaries drawn from them.
//!
//! The report keeps the games themselves (outcome, colours, moves) and computes the summaries
//! on demand, so tests can check any statistic and nothing is counted twice.

use crate::elo::EloEstimate;
use koma_rules::{Color, DrawReason, Outcome, WinReason};
use std::fmt;
use std::time::Duration;

/// How a game ended, as counted in the report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndReason {
    /// Checkmate.
    Checkmate,
    /// No legal move without being in check.
    NoLegalMoves,
    /// The last royal piece was taken.
    RoyalCaptured,
    /// Perpetual check lost.
    PerpetualCheck,
    /// A repetition lost for the player who completed it.
    RepetitionMade,
    /// An external engine played an illegal move or none.
    Forfeit,
    /// A player resigned.
    Resignation,
    /// Draw by repetition.
    Repetition,
    /// Draw at the maximum length (the variant's or the match's).
    MaxLength,
}

impl EndReason {
    /// Every reason, in report order.
    pub const ALL: [EndReason; 9] = [
        EndReason::Checkmate,
        EndReason::NoLegalMoves,
        EndReason::RoyalCaptured,
        EndReason::PerpetualCheck,
        EndReason::RepetitionMade,
        EndReason::Forfeit,
        EndReason::Resignation,
        EndReason::Repetition,
        EndReason::MaxLength,
    ];
}

impl EndReason {
    /// How many of `games` ended for each reason, in report order (reasons that never
    /// occurred left out).
    pub fn count<'a>(
        games: impl Iterator<Item = &'a GameRecord> + Clone,
    ) -> Vec<(EndReason, usize)> {
        EndReason::ALL
            .iter()
            .map(|&r| {
                let n = games
                    .clone()
                    .filter(|g| EndReason::from(g.outcome) == r)
                    .count();
                (r, n)
            })
            .filter(|&(_, n)| n > 0)
            .collect()
    }
}

impl From<Outcome> for EndReason {
    fn from(o: Outcome) -> EndReason {
        match o {
            Outcome::Win { reason, .. } => match reason {
                WinReason::Checkmate => EndReason::Checkmate,
                WinReason::NoLegalMoves => EndReason::NoLegalMoves,
                WinReason::RoyalCaptured => EndReason::RoyalCaptured,
                WinReason::PerpetualCheck => EndReason::PerpetualCheck,
                WinReason::RepetitionMade => EndReason::RepetitionMade,
                // The arena keeps no clock of its own: a time loss it is told of is a forfeit.
                WinReason::Forfeit | WinReason::Time => EndReason::Forfeit,
                WinReason::Resignation => EndReason::Resignation,
            },
            Outcome::Draw(DrawReason::Repetition) => EndReason::Repetition,
            Outcome::Draw(DrawReason::MaxLength) => EndReason::MaxLength,
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EndReason::Checkmate => "checkmate",
            EndReason::NoLegalMoves => "no legal moves",
            EndReason::RoyalCaptured => "royal captured",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::RepetitionMade => "repetition made",
            EndReason::Forfeit => "forfeit",
            EndReason::Resignation => "resignation",
            EndReason::Repetition => "repetition",
            EndReason::MaxLength => "max length",
        })
    }
}

/// One finished game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// Index of the game in the match (games `2k` and `2k + 1` form pair `k`).
    pub index: usize,
    /// The pair (and opening) the game belongs to.
    pub pair: usize,
    /// The colour player A had.
    pub a_color: Color,
    /// The opening moves, in the canonical notation.
    pub opening: Vec<String>,
    /// Every move of the game from the match's start position (opening included).
    pub moves: Vec<String>,
    /// The result.
    pub outcome: Outcome,
    /// Why a game was forfeited: the external engine's move and what was wrong with it.
    pub forfeit: Option<String>,
}

impl GameRecord {
    /// A's score in this game: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score_a(&self) -> f64 {
        match self.outcome.winner() {
            Some(w) if w == self.a_color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// Plies played from the match's start position, opening included.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }
}

/// Wins, draws and losses of player A over a set of games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ColourStats {
    /// Games counted.
    pub games: usize,
    /// Games A won.
    pub wins: usize,
    /// Drawn games.
    pub draws: usize,
    /// Games A lost.
    pub losses: usize,
}

impl ColourStats {
    /// A's results over `games`.
    pub fn of<'a>(games: impl Iterator<Item = &'a GameRecord>) -> ColourStats {
        let mut s = ColourStats::default();
        for g in games {
            s.games += 1;
            match g.outcome.winner() {
                Some(w) if w == g.a_color => s.wins += 1,
                Some(_) => s.losses += 1,
                None => s.draws += 1,
            }
        }
        s
    }

    /// A row of the results tables: name, games, wins, draws, losses, score.
    pub fn table_row(&self, name: &str) -> String {
        format!(
            "{:<10} {:>6} {:>7} {:>6} {:>8} {:>6.1}%",
            name,
            self.games,
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score()
        )
    }

    /// A's mean score per game (0.5 when there are no games).
    pub fn score(&self) -> f64 {
        if self.games == 0 {
            0.5
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / self.games as f64
        }
    }
}

/// The result of a match of player A against player B.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchReport {
    /// Variant id.
    pub variant: String,
    /// Player A, as its canonical string.
    pub a: String,
    /// Player B, as its canonical string.
    pub b: String,
    /// The games, in game order.
    pub games: Vec<GameRecord>,
    /// Wall-clock time of the match (model loading excluded); of this run only when it was
    /// resumed.
    pub elapsed: Duration,
    /// Games read back from the record of an earlier run of the match ([`crate::resume_match`]),
    /// not played in `elapsed`.
    pub resumed: usize,
}

impl MatchReport {
    /// A's wins, draws and losses over all games.
    pub fn totals(&self) -> ColourStats {
        ColourStats::of(self.games.iter())
    }

    /// A's results in the games where A had `color`.
    pub fn with_a_as(&self, color: Color) -> ColourStats {
        ColourStats::of(self.games.iter().filter(|g| g.a_color == color))
    }

    /// Games A won.
    pub fn wins(&self) -> usize {
        self.totals().wins
    }

    /// Drawn games.
    pub fn draws(&self) -> usize {
        self.totals().draws
    }

    /// Games A lost.
    pub fn losses(&self) -> usize {
        self.totals().losses
    }

    /// A's mean score per game, in [0, 1].
    pub fn score(&self) -> f64 {
        self.totals().score()
    }

    /// How many games ended for each reason (reasons that never occurred left out).
    pub fn end_reasons(&self) -> Vec<(EndReason, usize)> {
        EndReason::count(self.games.iter())
    }

    /// Mean game length in plies (opening included); 0 without games.
    pub fn average_plies(&self) -> f64 {
        if self.games.is_empty() {
            return 0.0;
        }
        self.games.iter().map(|g| g.plies() as f64).sum::<f64>() / self.games.len() as f64
    }

    /// Elo of A over B with its 95% interval, from the per-game scores.
    pub fn elo(&self) -> EloEstimate {
        let scores: Vec<f64> = self.games.iter().map(GameRecord::score_a).collect();
        EloEstimate::from_scores(&scores)
    }

    /// Games finished per second of wall-clock time (by this run, when resumed).
    pub fn games_per_second(&self) -> f64 {
        (self.games.len() - self.resumed) as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

impl fmt::Display for MatchReport {
    /// The results table printed by `koma arena`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "variant {}", self.variant)?;
        writeln!(f, "A: {}", self.a)?;
        writeln!(f, "B: {}", self.b)?;
        let resumed = if self.resumed > 0 {
            format!(
                ", {} of them kept from the record of an earlier run",
                self.resumed
            )
        } else {
            String::new()
        };
        writeln!(
            f,
            "{} games in {:.1} s ({:.2} games/s){resumed}",
            self.games.len(),
            self.elapsed.as_secs_f64(),
            self.games_per_second()
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "{:<10} {:>6} {:>7} {:>6} {:>8} {:>7}",
            "", "games", "A wins", "draws", "A losses", "score"
        )?;
        let rows = [
            ("total", self.totals()),
            ("A black", self.with_a_as(Color::Black)),
            ("A white", self.with_a_as(Color::White)),
        ];
        for (name, s) in rows {
            writeln!(f, "{}", s.table_row(name))?;
        }
        writeln!(f)?;
        let reasons: Vec<String> = self
            .end_reasons()
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect();
        writeln!(
            f,
            "end reasons: {}",
            if reasons.is_empty() {
                "-".to_owned()
            } else {
                reasons.join(", ")
            }
        )?;
        writeln!(f, "average length: {:.1} plies", self.average_plies())?;
        write!(f, "Elo of A over B: {}", self.elo())
    }
}
