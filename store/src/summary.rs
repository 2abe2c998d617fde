//! What a run's self-play games look like: how many, how long, who won and how they ended,
//! split into stretches of training. Whether a run learns to finish its games (wins by mate
//! or capture rather than draws at the length limit) shows here before it shows in the arena.

use crate::record::{GameRecord, GameResult};
use serde::Serialize;
use std::collections::BTreeMap;

/// Games of one stretch of training (models from `first_step` to `last_step`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameSummary {
    /// Smallest model step that played a game of the stretch.
    pub first_step: u64,
    /// Largest model step that played a game of the stretch.
    pub last_step: u64,
    /// Games.
    pub games: u64,
    /// Wins of the first player.
    pub black_wins: u64,
    /// Wins of the second player.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Mean length in plies.
    pub mean_plies: f64,
    /// Median length in plies.
    pub median_plies: u64,
    /// 90th percentile of the length in plies.
    pub p90_plies: u64,
    /// Longest game in plies.
    pub max_plies: u64,
    /// Games per end reason ([`end_reason`]), most frequent first.
    pub reasons: Vec<(String, u64)>,
}

/// The end reason of a record in a short, stable form: "resignation", or the reason an
/// [`koma_rules::Outcome`] names ("Checkmate", "RoyalCaptured", "Repetition", "MaxLength",
/// ...), without the winner.
pub fn end_reason(r: &GameRecord) -> String {
    if r.resigned {
        return "resignation".into();
    }
    let text = r.reason.trim();
    match (text.rfind('('), text.ends_with(')')) {
        (Some(open), true) => text[open + 1..text.len() - 1].to_owned(),
        _ => text.to_owned(),
    }
}

/// Summarises `games` (any order), all together.
pub fn summarise(games: &[&GameRecord]) -> Option<GameSummary> {
    if games.is_empty() {
        return None;
    }
    let mut lengths: Vec<u64> = games.iter().map(|g| g.moves.len() as u64).collect();
    lengths.sort_unstable();
    let count = |want: GameResult| games.iter().filter(|g| g.result == want).count() as u64;
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    for g in games {
        *reasons.entry(end_reason(g)).or_default() += 1;
    }
    let mut reasons: Vec<(String, u64)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let n = lengths.len();
    let quantile = |q: f64| lengths[((q * (n - 1) as f64).round() as usize).min(n - 1)];
    Some(GameSummary {
        first_step: games.iter().map(|g| g.model_step).min().unwrap_or(0),
        last_step: games.iter().map(|g| g.model_step).max().unwrap_or(0),
        games: n as u64,
        black_wins: count(GameResult::BlackWin),
        white_wins: count(GameResult::WhiteWin),
        draws: count(GameResult::Draw),
        mean_plies: lengths.iter().sum::<u64>() as f64 / n as f64,
        median_plies: quantile(0.5),
        p90_plies: quantile(0.9),
        max_plies: lengths[n - 1],
        reasons,
    })
}

/// Summaries of `games` in `stretches` stretches of training of about equal numbers of games,
/// in the order of the models that played them (a model's games are never split), then one
/// for all of them.
pub fn by_stretch(
    games: &[GameRecord],
    stretches: usize,
) -> (Vec<GameSummary>, Option<GameSummary>) {
    let mut sorted: Vec<&GameRecord> = games.iter().collect();
    sorted.sort_by_key(|g| g.model_step);
    let all = summarise(&sorted);
    let stretches = stretches.max(1);
    let per = sorted.len().div_ceil(stretches).max(1);
    let mut out = Vec::new();
    let mut start = 0;
    while start < sorted.len() {
        let mut end = (start + per).min(sorted.len());
        // Keep a model's games together.
        while end < sorted.len() && sorted[end].model_step == sorted[end - 1].model_step {
            end += 1;
        }
        out.extend(summarise(&sorted[start..end]));
        start = end;
    }
    (out, all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(
        step: u64,
        plies: usize,
        result: GameResult,
        reason: &str,
        resigned: bool,
    ) -> GameRecord {
        GameRecord {
            variant: "hand-shogi".into(),
            start: None,
            moves: vec![0; plies],
            searches: vec![None; plies],
            result,
            reason: reason.into(),
            resigned,
            model_step: step,
        }
    }

    #[test]
    fn reasons_lengths_and_results_are_counted_per_stretch() {
        let games = vec![
            game(0, 400, GameResult::Draw, "draw (MaxLength)", false),
            game(0, 400, GameResult::Draw, "draw (MaxLength)", false),
            game(
                100,
                120,
                GameResult::BlackWin,
                "Black wins (Checkmate)",
                false,
            ),
            game(100, 80, GameResult::WhiteWin, "resignation", true),
            game(
                200,
                60,
                GameResult::BlackWin,
                "Black wins (Checkmate)",
                false,
            ),
            game(200, 50, GameResult::Draw, "draw (Repetition)", false),
        ];
        let (parts, all) = by_stretch(&games, 3);
        let all = all.unwrap();
        assert_eq!(all.games, 6);
        assert_eq!((all.black_wins, all.white_wins, all.draws), (2, 1, 3));
        assert_eq!(all.max_plies, 400);
        assert!((all.mean_plies - 185.0).abs() < 1e-9);
        assert_eq!(all.median_plies, 120, "lengths 50 60 80 120 400 400");
        assert_eq!(
            all.reasons,
            vec![
                ("Checkmate".to_string(), 2),
                ("MaxLength".to_string(), 2),
                ("Repetition".to_string(), 1),
                ("resignation".to_string(), 1),
            ]
        );
        assert_eq!(parts.len(), 3);
        assert_eq!((parts[0].first_step, parts[0].last_step), (0, 0));
        assert_eq!(parts[0].reasons, vec![("MaxLength".to_string(), 2)]);
        assert_eq!(parts[2].median_plies, 60);
        assert_eq!(parts.iter().map(|p| p.games).sum::<u64>(), 6);
    }

    #[test]
    fn a_models_games_stay_in_one_stretch() {
        let mut games: Vec<GameRecord> = (0..5)
            .map(|_| game(0, 10, GameResult::Draw, "draw (MaxLength)", false))
            .collect();
        games.push(game(7, 10, GameResult::Draw, "draw (MaxLength)", false));
        let (parts, _) = by_stretch(&games, 3);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].games, 5);
        assert_eq!(parts[1].first_step, 7);
        assert!(by_stretch(&[], 4).0.is_empty());
    }
}
