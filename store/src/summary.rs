//! What a run's self-play games look like: how many, how long, who won and how they ended,
//! split into stretches of training. Whether a run learns to finish its games (wins by mate
//! or capture rather than draws at the length limit) shows here before it shows in the arena.
//! Where the variant is known, drawn games are also sorted by the material at their end
//! ([`DrawMargins`]): draws between equals call for a different remedy than won positions
//! that were not finished.

use crate::material_scale::MaterialScale;
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
    /// The drawn games by material at their end, where the variant was given.
    pub draw_margins: Option<DrawMargins>,
}

/// Drawn games by how far apart the two sides' material stood when they ended, in units of
/// the mean value of the variant's non-royal piece kinds (on the board and in hand, values
/// as [`koma_rules::PieceValues`] computes them).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DrawMargins {
    /// Within one mean piece value of each other.
    pub level: u64,
    /// One side ahead by one to three mean piece values.
    pub ahead: u64,
    /// One side ahead by three mean piece values or more.
    pub far_ahead: u64,
    /// Drawn games whose moves could not be replayed (a corrupt or foreign record).
    pub unreadable: u64,
}

/// The drawn games among `games` by their material at the end, in `scale`'s units.
fn draw_margins(scale: &MaterialScale, games: &[&GameRecord]) -> DrawMargins {
    let mut m = DrawMargins::default();
    for g in games.iter().filter(|g| g.result == GameResult::Draw) {
        match scale.final_margin(g) {
            None => m.unreadable += 1,
            Some(x) if x < 1.0 => m.level += 1,
            Some(x) if x < 3.0 => m.ahead += 1,
            Some(_) => m.far_ahead += 1,
        }
    }
    m
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

/// Summarises `games` (any order), all together; with `scale`, the drawn games' margins too.
pub fn summarise(games: &[&GameRecord], scale: Option<&MaterialScale>) -> Option<GameSummary> {
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
        draw_margins: scale.map(|s| draw_margins(s, games)),
    })
}

/// Summaries of `games` in `stretches` stretches of training of about equal numbers of games,
/// in the order of the models that played them (a model's games are never split), then one
/// for all of them. With `scale`, each summary sorts its drawn games by material
/// ([`DrawMargins`]).
pub fn by_stretch(
    games: &[GameRecord],
    stretches: usize,
    scale: Option<&MaterialScale>,
) -> (Vec<GameSummary>, Option<GameSummary>) {
    let mut sorted: Vec<&GameRecord> = games.iter().collect();
    sorted.sort_by_key(|g| g.model_step);
    // The whole run's drawn games are those of its stretches: their margins are summed
    // below rather than replayed a second time.
    let mut all = summarise(&sorted, None);
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
        out.extend(summarise(&sorted[start..end], scale));
        start = end;
    }
    if let (Some(all), Some(_)) = (all.as_mut(), scale) {
        all.draw_margins = Some(out.iter().filter_map(|s| s.draw_margins.as_ref()).fold(
            DrawMargins::default(),
            |t, m| DrawMargins {
                level: t.level + m.level,
                ahead: t.ahead + m.ahead,
                far_ahead: t.far_ahead + m.far_ahead,
                unreadable: t.unreadable + m.unreadable,
            },
        ));
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
        let (parts, all) = by_stretch(&games, 3, None);
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
        let (parts, _) = by_stretch(&games, 3, None);
        assert_eq!(parts.len(), 2);
        assert_eq!(parts[0].games, 5);
        assert_eq!(parts[1].first_step, 7);
        assert!(by_stretch(&[], 4, None).0.is_empty());
    }

    /// Hand Shogi's start position with `rows` as its board and `hands` as its hands.
    fn hand_text(rows: &str, hands: &str) -> String {
        format!("{rows} b {hands} 0")
    }

    const START_ROWS: &str =
        "2g1k1g2/2(so)1(pd)1(so)2/3(so)(so)(so)3/9/9/9/3(SO)(SO)(SO)3/2(SO)1(PD)1(SO)2/2G1K1G2";
    const START_HANDS: &str = "2S2N2LT(SH)OH2s2n2lt(sh)oh";

    fn drawn_from(text: Option<String>, moves: Vec<u16>) -> GameRecord {
        let mut g = game(5, 0, GameResult::Draw, "draw (Repetition)", false);
        g.searches = vec![None; moves.len()];
        g.moves = moves;
        g.start = text;
        g
    }

    #[test]
    fn drawn_games_are_sorted_by_the_material_at_their_end() {
        let v = koma_rules::load_variant("hand-shogi").unwrap();
        let scale = MaterialScale::new(&v);
        // Level: the start position. Two moves into it, replayed from their indices, count
        // by whatever they took.
        let level = drawn_from(None, vec![]);
        let played = drawn_from(None, vec![0, 0]);
        // Ahead: White has lost one Gold from the board.
        let gold = drawn_from(
            Some(hand_text(
                &START_ROWS.replacen("2g1k1g2", "4k1g2", 1),
                START_HANDS,
            )),
            vec![],
        );
        // Far ahead: White has lost its whole hand.
        let hand = drawn_from(Some(hand_text(START_ROWS, "2S2N2LT(SH)OH")), vec![]);
        // A move index no legal move has.
        let corrupt = drawn_from(None, vec![9999]);
        assert_eq!(scale.final_margin(&level), Some(0.0));
        let one = scale.final_margin(&gold).unwrap();
        assert!((1.0..3.0).contains(&one), "a Gold is {one} mean pieces");
        assert!(scale.final_margin(&hand).unwrap() >= 3.0);
        let after_two = scale.final_margin(&played).expect("two legal moves replay");
        assert_eq!(scale.final_margin(&corrupt), None);
        // Decisive games are not counted, whatever their material.
        let mut won = hand.clone();
        won.result = GameResult::BlackWin;
        let games = vec![level, played, gold, hand, corrupt, won];
        let (_, all) = by_stretch(&games, 1, Some(&scale));
        let m = all.unwrap().draw_margins.unwrap();
        assert_eq!(
            m,
            DrawMargins {
                level: 1 + u64::from(after_two < 1.0),
                ahead: 1 + u64::from((1.0..3.0).contains(&after_two)),
                far_ahead: 1 + u64::from(after_two >= 3.0),
                unreadable: 1
            }
        );
        // Without a scale, no margins.
        assert_eq!(by_stretch(&games, 1, None).1.unwrap().draw_margins, None);
    }
}
