//! What UCI and USI share: reading the moves of a `position` line, `go` with its clock and
//! `searchmoves`, and `info` lines.

use crate::protocol::clock;
use crate::protocol::job::Callbacks;
use crate::protocol::out::Out;
use crate::protocol::session::Engine;
use crate::search::ranges::MAX_TACTICS_DEPTH;
use crate::search::Progress;
use koma_rules::{Color, Move, Position};
use std::time::Duration;

/// Most threads a GUI may ask for.
const MAX_THREADS: usize = 256;
/// Most simulations a move a GUI may ask for.
const MAX_SIMS: u32 = 10_000_000;

/// The options koma-engine offers over UCI and USI, as `option` lines after `id`:
/// `MoveOverhead` (ms kept back per move), `Threads` (search and network threads),
/// `Simulations`, the strength setting: simulations per move when the GUI sets no limit, and
/// `Contempt`: how much less than an even result a draw is worth to the engine, in hundredths
/// of a win (positive avoids draws, negative seeks them), and `Tactics`: the plies of the
/// alpha-beta check of each move chosen (0 off).
pub fn option_lines(engine: &Engine) -> Vec<String> {
    vec![
        format!(
            "option name MoveOverhead type spin default {} min 0 max 10000",
            engine.config.overhead.as_millis()
        ),
        format!(
            "option name Threads type spin default {} min 1 max {MAX_THREADS}",
            engine.config.options.threads
        ),
        format!(
            "option name Simulations type spin default {} min 1 max {MAX_SIMS}",
            engine.config.default_sims
        ),
        format!(
            "option name Contempt type spin default {} min -100 max 100",
            engine.contempt()
        ),
        format!(
            "option name Tactics type spin default {} min 0 max {MAX_TACTICS_DEPTH}",
            engine.tactics()
        ),
    ]
}

/// `name` and `value` of a `setoption name NAME [value VALUE]` line's words after
/// `setoption`; `None` when malformed.
pub fn read_setoption(rest: &[&str]) -> Option<(String, String)> {
    let text = rest.join(" ");
    let after = text.strip_prefix("name ")?;
    Some(match after.split_once(" value ") {
        Some((n, v)) => (n.trim().to_owned(), v.trim().to_owned()),
        None => (after.trim().to_owned(), String::new()),
    })
}

/// Sets an option UCI and USI share, answering a bad value with an `info string error`;
/// false when `name` is none of them. The GUI's hash size is accepted and said to be unused.
pub fn set_shared_option(engine: &mut Engine, name: &str, value: &str, out: &Out) -> bool {
    match name {
        "MoveOverhead" => match value.parse::<u64>() {
            Ok(ms) if ms <= 10_000 => engine.config.overhead = Duration::from_millis(ms),
            _ => out.line(format!(
                "info string error MoveOverhead '{value}' is not from 0 to 10000"
            )),
        },
        "Threads" => match value.parse::<usize>() {
            Ok(n) if (1..=MAX_THREADS).contains(&n) => engine.set_threads(n),
            _ => out.line(format!(
                "info string error Threads '{value}' is not from 1 to {MAX_THREADS}"
            )),
        },
        "Simulations" => match value.parse::<u32>() {
            Ok(n) if (1..=MAX_SIMS).contains(&n) => engine.config.default_sims = n,
            _ => out.line(format!(
                "info string error Simulations '{value}' is not from 1 to {MAX_SIMS}"
            )),
        },
        "Contempt" => {
            if !engine.set_contempt(value) {
                out.line(format!(
                    "info string error Contempt '{value}' is not from -100 to 100"
                ));
            }
        }
        "Tactics" => {
            if !engine.set_tactics(value) {
                out.line(format!(
                    "info string error Tactics '{value}' is not from 0 to {MAX_TACTICS_DEPTH}"
                ));
            }
        }
        "Hash" | "USI_Hash" => out.line(format!(
            "info string {name} is not used: the search tree grows as the search needs and \
             is kept between moves"
        )),
        _ => return false,
    }
    true
}

/// Plays `texts` from `start` with `parse`, naming the first bad move and its index.
pub fn parse_moves(
    start: &Position,
    texts: &[&str],
    mut parse: impl FnMut(&mut Position, &str) -> Result<Move, String>,
) -> Result<Vec<Move>, String> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(texts.len());
    for (i, t) in texts.iter().enumerate() {
        let m = parse(&mut pos, t).map_err(|e| format!("move {} ({t}): {e}", i + 1))?;
        pos.make_move(m);
        moves.push(m);
    }
    Ok(moves)
}

/// The `info` line of UCI and USI: PV length as depth, the value as centipawns (or a mate in
/// one when proven), simulations as nodes, and the principal variation in the protocol's
/// notation (`text` formats a move of the position it is given).
pub fn info_line(
    p: &Progress,
    pos: &Position,
    text: impl Fn(&Position, &Move) -> String,
) -> String {
    let ms = p.elapsed.as_millis().max(1) as u64;
    let nps = p.simulations as u64 * 1000 / ms;
    let score = if p.proven_win {
        "mate 1".to_owned()
    } else {
        format!("cp {}", p.centipawns())
    };
    let mut line = format!(
        "info depth {} score {score} nodes {} nps {nps} time {ms}",
        p.pv.len().max(1),
        p.simulations
    );
    if !p.pv.is_empty() {
        line.push_str(" pv");
        let mut q = pos.clone();
        for m in &p.pv {
            line.push(' ');
            line.push_str(&text(&q, m));
            q.make_move(*m);
        }
    }
    line
}

/// How a protocol writes and reads moves: `text` writes a move of the position it is given,
/// `parse` reads one.
pub struct MoveForm<T, P> {
    /// Writes a move.
    pub text: T,
    /// Reads a move, or says what is wrong with it.
    pub parse: P,
}

/// Starts a UCI or USI search: the `go` arguments read with the protocol's naming of the first
/// player's clock (`first`: `'w'` in UCI, `'b'` in USI), `searchmoves` restricting the moves
/// searched, `info` lines while it runs, `bestmove` at the end (`no_move` when the position
/// has none).
pub fn go_with_info<T, P>(
    engine: &mut Engine,
    words: &[&str],
    out: &Out,
    first: char,
    form: MoveForm<T, P>,
    no_move: &'static str,
) where
    T: Fn(&Position, &Move) -> String + Send + Clone + 'static,
    P: Fn(&mut Position, &str) -> Result<Move, String>,
{
    let MoveForm { text, parse } = form;
    if let Some(why) = &engine.refused {
        // Answering for the last position that was set up would give the GUI a move for a
        // position it no longer shows.
        out.line(format!(
            "info string error no position to search: the last one was refused ({why})"
        ));
        out.line(format!("bestmove {no_move}"));
        return;
    }
    let mut pos = engine.game().position().clone();
    let mover_is_first = pos.side_to_move() == Color::Black;
    let (words, searchmoves) = clock::split_searchmoves(words);
    let (clock, problems) = clock::read_go(words, first, mover_is_first, engine.config.overhead);
    for p in problems {
        out.line(format!("info string error {p}"));
    }
    let root_moves = searchmoves.map(|texts| {
        let mut moves = Vec::new();
        for t in texts {
            match parse(&mut pos, t) {
                Ok(m) => moves.push(m),
                Err(e) => out.line(format!("info string error searchmoves {t}: {e}")),
            }
        }
        moves
    });
    let (info_out, info_pos, info_text) = (out.clone(), pos.clone(), text.clone());
    let done_out = out.clone();
    engine.go(
        &clock,
        root_moves,
        Callbacks {
            progress: Box::new(move |p| info_out.line(info_line(p, &info_pos, &info_text))),
            // The GUI sends the engine's move back with the next `position`.
            done: Box::new(move |r| match r {
                Ok(t) => {
                    done_out.line(info_line(&t.progress(), &pos, &text));
                    done_out.line(format!("bestmove {}", text(&pos, &t.best)));
                }
                Err(_) => done_out.line(format!("bestmove {no_move}")),
            }),
        },
    );
}
