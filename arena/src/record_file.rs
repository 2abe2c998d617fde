//! A match's record file (`koma arena --record`): a header line naming the match, then one
//! line per finished game, appended as each game ends. A match cut off (a killed process, a
//! machine taken back) keeps the games it finished, and `--resume` reads them back so that
//! only the rest are played.
//!
//! ```text
//! # koma arena variant=hook-shogi a=model:runs/x/0000007923:sims=64 b=greedy games=40 opening-plies=4 seed=0 max-plies=none
//! game 3 a=White result="black wins (RoyalCaptured)" moves: e7e6 ...
//! ```

use crate::config::{GamePlan, MatchConfig};
use crate::report::GameRecord;
use koma_rules::{Color, Outcome};

/// Why a record file cannot be taken up: the line (from 1) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct RecordFileError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// The games a record file holds, in file order.
#[derive(Debug, Clone, Default)]
pub struct Recorded {
    /// Every complete game line.
    pub games: Vec<GameRecord>,
    /// Whether the file ended in the middle of a line (the process was stopped while writing
    /// it); that game is not kept and is played again.
    pub torn: bool,
}

/// The header line of `cfg`'s match (newline included): what makes two matches' games the
/// same games. Threads, precision and the games in flight are left out: they change speed,
/// not what is played.
pub fn header(cfg: &MatchConfig) -> String {
    let max_plies = cfg
        .max_plies
        .map_or_else(|| "none".to_owned(), |p| p.to_string());
    let start = cfg
        .start
        .as_ref()
        .map(|s| format!(" start={s}"))
        .unwrap_or_default();
    format!(
        "# koma arena variant={} a={} b={} games={} opening-plies={} seed={} max-plies={max_plies}{start}\n",
        cfg.variant.id, cfg.a, cfg.b, cfg.games, cfg.opening_plies, cfg.seed
    )
}

/// One game's line of a match's record (newline included).
pub fn game_line(g: &GameRecord) -> String {
    format!("game {} {}", g.index, game_text(g))
}

/// A game as the record writes it after its number: A's colour, the result, why it was
/// forfeited (if it was), then every move from the start position, opening first.
pub fn game_text(g: &GameRecord) -> String {
    let forfeit = g
        .forfeit
        .as_ref()
        .map(|f| format!(" forfeit=\"{f}\""))
        .unwrap_or_default();
    format!(
        "a={:?} result=\"{}\"{forfeit} moves: {}\n",
        g.a_color,
        g.outcome,
        g.moves.join(" ")
    )
}

/// The games of `text`, a record file written for the match `cfg` describes. The header
/// must be `cfg`'s; every game must be one of its games, once, with A's colour of its plan.
/// A last line without its newline was cut off while being written and is dropped. The
/// openings are checked against the match's when it is played
/// ([`crate::run::resume_match`]).
pub fn read_record(text: &str, cfg: &MatchConfig) -> Result<Recorded, RecordFileError> {
    let mut recorded = Recorded::default();
    if text.is_empty() {
        return Ok(recorded);
    }
    let mut lines: Vec<&str> = text.split('\n').collect();
    // `split` leaves an empty piece after a final newline; anything else there is torn.
    let last = lines.pop().unwrap_or_default();
    recorded.torn = !last.is_empty();
    let want = header(cfg);
    let want = want.trim_end();
    match lines.first() {
        Some(&first) if first == want => {}
        Some(&first) => {
            return Err(RecordFileError {
                line: 1,
                reason: format!(
                    "the file records another match: '{first}', where this one is '{want}' (play \
                     it to another file, or leave out --resume to start this file over)"
                ),
            })
        }
        None => return Ok(recorded),
    }
    let plan = GamePlan::paired(cfg.games);
    let mut seen = vec![false; cfg.games];
    for (i, line) in lines.iter().enumerate().skip(1) {
        let err = |reason: String| RecordFileError {
            line: i + 1,
            reason,
        };
        let g = parse_game(line, &plan, cfg.opening_plies).map_err(err)?;
        if std::mem::replace(&mut seen[g.index], true) {
            return Err(err(format!("game {} is recorded twice", g.index)));
        }
        recorded.games.push(g);
    }
    Ok(recorded)
}

/// One `game N a=C result="R"[ forfeit="F"] moves: M...` line, of a game of `plan` with A's
/// colour as planned.
fn parse_game(line: &str, plan: &[GamePlan], opening_plies: u32) -> Result<GameRecord, String> {
    let shape = || {
        format!(
            "'{}' is not a game line (game N a=Black|White result=\"...\" moves: ...)",
            line.chars().take(80).collect::<String>()
        )
    };
    let rest = line.strip_prefix("game ").ok_or_else(shape)?;
    let (index, rest) = rest.split_once(' ').ok_or_else(shape)?;
    let index: usize = index
        .parse()
        .map_err(|_| format!("game number '{index}' is not a number"))?;
    let (color, rest) = rest
        .strip_prefix("a=")
        .and_then(|r| r.split_once(' '))
        .ok_or_else(shape)?;
    let a_color = match color {
        "Black" => Color::Black,
        "White" => Color::White,
        other => return Err(format!("A's colour '{other}' is not Black or White")),
    };
    let planned = plan.get(index).ok_or_else(|| {
        format!(
            "game {index} is not one of this match's {} games",
            plan.len()
        )
    })?;
    if a_color != planned.a_color {
        return Err(format!(
            "game {index} has A as {a_color:?}; this match's plan has A as {:?}",
            planned.a_color
        ));
    }
    let rest = rest.strip_prefix("result=\"").ok_or_else(shape)?;
    // The moves hold no quote, so the last quote closes the result or the forfeit reason.
    let close = rest.rfind('"').ok_or_else(shape)?;
    let moves = rest[close + 1..]
        .strip_prefix(" moves:")
        .ok_or_else(shape)?;
    let quoted = &rest[..close];
    let (result, forfeit) = match quoted.split_once("\" forfeit=\"") {
        Some((r, f)) => (r, Some(f.to_owned())),
        None => (quoted, None),
    };
    let outcome: Outcome = result.parse().map_err(|e| format!("{e}"))?;
    let moves: Vec<String> = moves.split_whitespace().map(str::to_owned).collect();
    let plies = opening_plies as usize;
    if moves.len() < plies {
        return Err(format!(
            "game {index} has {} moves, fewer than the {plies} of its opening",
            moves.len()
        ));
    }
    Ok(GameRecord {
        index,
        pair: planned.opening,
        a_color,
        opening: moves[..plies].to_vec(),
        moves,
        outcome,
        forfeit,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::PlayerSpec;
    use koma_rules::{load_variant, DrawReason, WinReason};

    fn cfg() -> MatchConfig {
        let v = load_variant("hand-shogi").unwrap();
        let mut cfg = MatchConfig::new(v, PlayerSpec::Greedy, PlayerSpec::Random, 4);
        cfg.opening_plies = 2;
        cfg
    }

    fn game(index: usize, outcome: Outcome, forfeit: Option<&str>) -> GameRecord {
        let moves: Vec<String> = ["7g7f", "3c3d", "2g2f"].map(str::to_owned).to_vec();
        GameRecord {
            index,
            pair: index / 2,
            a_color: if index.is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            },
            opening: moves[..2].to_vec(),
            moves,
            outcome,
            forfeit: forfeit.map(str::to_owned),
        }
    }

    fn same(a: &GameRecord, b: &GameRecord) {
        assert_eq!(
            (a.index, a.pair, a.a_color, &a.opening, &a.moves),
            (b.index, b.pair, b.a_color, &b.opening, &b.moves)
        );
        assert_eq!((a.outcome, &a.forfeit), (b.outcome, &b.forfeit));
    }

    #[test]
    fn games_read_back_as_written_and_a_torn_last_line_is_dropped() {
        let cfg = cfg();
        let games = [
            game(2, Outcome::Draw(DrawReason::MaxLength), None),
            game(
                1,
                Outcome::Win {
                    winner: Color::Black,
                    reason: WinReason::Forfeit,
                },
                Some("White played 'a1a9': not legal in this position"),
            ),
        ];
        let mut text = header(&cfg);
        for g in &games {
            text.push_str(&game_line(g));
        }
        let read = read_record(&text, &cfg).unwrap();
        assert!(!read.torn);
        assert_eq!(read.games.len(), 2);
        for (a, b) in read.games.iter().zip(&games) {
            same(a, b);
        }
        let cut = format!("{text}{}", &game_line(&games[0])[..20]);
        let read = read_record(&cut, &cfg).unwrap();
        assert!(read.torn);
        assert_eq!(read.games.len(), 2);
        assert!(read_record("", &cfg).unwrap().games.is_empty());
    }

    #[test]
    fn another_match_or_a_damaged_line_is_named() {
        let cfg = cfg();
        let head = header(&cfg);
        let mut other = cfg.clone();
        other.seed = 7;
        let draw = Outcome::Draw(DrawReason::Repetition);
        let line = game_line(&game(0, draw, None));
        // The match's header and game 0's line with `from` replaced by `to`.
        let edited = |from: &str, to: &str| format!("{head}{}", line.replace(from, to));
        let cases: Vec<(String, usize, &str)> = vec![
            (
                format!("{}{line}", header(&other)),
                1,
                "records another match",
            ),
            (line.clone(), 1, "records another match"),
            (format!("{head}{line}{line}"), 3, "game 0 is recorded twice"),
            (
                format!("{head}{}", game_line(&game(4, draw, None))),
                2,
                "not one of this match's 4 games",
            ),
            (
                edited("a=Black", "a=White"),
                2,
                "this match's plan has A as Black",
            ),
            (
                edited("draw (Repetition)", "draw (Boredom)"),
                2,
                "'draw (Boredom)' is not a game result",
            ),
            (edited("a=Black", "a=Red"), 2, "'Red' is not Black or White"),
            (edited("game 0", "game x"), 2, "'x' is not a number"),
            (
                edited(" moves: 7g7f 3c3d 2g2f", " moves: 7g7f"),
                2,
                "fewer than the 2 of its opening",
            ),
            (format!("{head}hello\n"), 2, "is not a game line"),
        ];
        for (text, at, says) in cases {
            let e = read_record(&text, &cfg).unwrap_err();
            assert_eq!(e.line, at, "{text}: {e}");
            assert!(e.to_string().contains(says), "{text}: {e}");
        }
    }
}
