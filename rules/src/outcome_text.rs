//! An outcome as text (`black wins (Checkmate)`, `draw (Repetition)`) and read back, so that
//! a record file written by one run can be taken up by the next.

use crate::color::Color;
use crate::outcome::{DrawReason, Outcome, WinReason};
use std::str::FromStr;

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Win { winner, reason } => write!(f, "{winner} wins ({reason:?})"),
            Outcome::Draw(r) => write!(f, "draw ({r:?})"),
        }
    }
}

/// Text that is not an outcome as [`Outcome`]'s `Display` writes it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{text}' is not a game result (e.g. 'black wins (Checkmate)' or 'draw (Repetition)')")]
pub struct OutcomeTextError {
    /// The text read.
    pub text: String,
}

const WIN_REASONS: [WinReason; 8] = [
    WinReason::Checkmate,
    WinReason::NoLegalMoves,
    WinReason::RoyalCaptured,
    WinReason::PerpetualCheck,
    WinReason::RepetitionMade,
    WinReason::Forfeit,
    WinReason::Time,
    WinReason::Resignation,
];

const DRAW_REASONS: [DrawReason; 2] = [DrawReason::Repetition, DrawReason::MaxLength];

/// The reason named inside the parentheses of `rest` (`(Name)` and nothing after).
fn reason_name(rest: &str) -> Option<&str> {
    rest.strip_prefix('(')?.strip_suffix(')')
}

impl FromStr for Outcome {
    type Err = OutcomeTextError;

    fn from_str(text: &str) -> Result<Outcome, OutcomeTextError> {
        let bad = || OutcomeTextError {
            text: text.to_owned(),
        };
        if let Some(rest) = text.strip_prefix("draw ") {
            let name = reason_name(rest).ok_or_else(bad)?;
            return DRAW_REASONS
                .into_iter()
                .find(|r| format!("{r:?}") == name)
                .map(Outcome::Draw)
                .ok_or_else(bad);
        }
        let (winner, rest) = text.split_once(" wins ").ok_or_else(bad)?;
        let winner = Color::ALL
            .into_iter()
            .find(|c| c.to_string() == winner)
            .ok_or_else(bad)?;
        let name = reason_name(rest).ok_or_else(bad)?;
        let reason = WIN_REASONS
            .into_iter()
            .find(|r| format!("{r:?}") == name)
            .ok_or_else(bad)?;
        Ok(Outcome::Win { winner, reason })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Written without a wildcard, so that a new reason fails to compile here until it is
    /// listed for reading back.
    fn listed(w: WinReason, d: DrawReason) -> bool {
        let win = match w {
            WinReason::Checkmate
            | WinReason::NoLegalMoves
            | WinReason::RoyalCaptured
            | WinReason::PerpetualCheck
            | WinReason::RepetitionMade
            | WinReason::Forfeit
            | WinReason::Time
            | WinReason::Resignation => WIN_REASONS.contains(&w),
        };
        let draw = match d {
            DrawReason::Repetition | DrawReason::MaxLength => DRAW_REASONS.contains(&d),
        };
        win && draw
    }

    #[test]
    fn every_outcome_reads_back_from_its_text() {
        for w in WIN_REASONS {
            for d in DRAW_REASONS {
                assert!(listed(w, d));
            }
        }
        let mut all: Vec<Outcome> = DRAW_REASONS.into_iter().map(Outcome::Draw).collect();
        for winner in Color::ALL {
            for reason in WIN_REASONS {
                all.push(Outcome::Win { winner, reason });
            }
        }
        assert_eq!(all.len(), 18);
        for o in all {
            let text = o.to_string();
            assert_eq!(text.parse::<Outcome>(), Ok(o), "{text}");
        }
        assert_eq!(
            "white wins (RoyalCaptured)".parse::<Outcome>(),
            Ok(Outcome::Win {
                winner: Color::White,
                reason: WinReason::RoyalCaptured
            })
        );
    }

    #[test]
    fn malformed_results_are_refused_with_the_text() {
        for text in [
            "",
            "draw",
            "draw (Stalemate)",
            "draw (Repetition",
            "draw (Repetition) ",
            "red wins (Checkmate)",
            "black wins Checkmate",
            "black wins (checkmate)",
            "black loses (Checkmate)",
        ] {
            let e = text.parse::<Outcome>().unwrap_err();
            assert_eq!(e.text, text);
            assert!(e.to_string().contains("is not a game result"), "{e}");
        }
    }
}
