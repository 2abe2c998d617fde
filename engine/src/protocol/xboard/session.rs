//! An XBoard session: the command loop, the time control and the engine's moves.

use crate::game::{outcome_sentence, Mover};
use crate::protocol::clock::Clock;
use crate::protocol::job::Callbacks;
use crate::protocol::letters::xboard_move_text as text;
use crate::protocol::letters::{parse_move, Letters};
use crate::protocol::out::Out;
use crate::protocol::session::Engine;
use crate::protocol::xboard::board::xboard_fen_to_koma;
use crate::protocol::xboard::describe::{describe, variant_name, xboard_variant_name};
use crate::protocol::xboard::root_moves::xboard_root_moves;
use crate::protocol::xboard::thinking::thinking;
use crate::search::ranges::MAX_TACTICS_DEPTH;
use koma_rules::{Color, Outcome, Position, WinReason};
use std::time::Duration;

/// Time control as XBoard gives it.
#[derive(Debug, Clone, Copy, Default)]
struct TimeControl {
    /// Moves per session (0: the whole game).
    mps: u32,
    /// Increment per move.
    inc: Duration,
    /// Fixed time per move (`st`).
    st: Option<Duration>,
    /// The engine's clock (`time`, in centiseconds).
    own: Option<Duration>,
}

struct State {
    force: bool,
    /// The side the engine plays (koma's colours).
    engine_side: Color,
    post: bool,
    analyze: bool,
    tc: TimeControl,
    letters: Option<Letters>,
}

/// Runs XBoard on `lines` (the first, `xboard`, included) until `quit` or the end of input.
pub fn run(engine: &mut Engine, lines: &mut dyn Iterator<Item = String>, out: &Out) {
    let mut st = State {
        force: false,
        engine_side: Color::White,
        post: false,
        analyze: false,
        tc: TimeControl::default(),
        letters: Letters::of(&engine.variant),
    };
    for line in lines {
        let line = line.trim().to_owned();
        let (cmd, arg) = match line.split_once(' ') {
            Some((c, a)) => (c, a.trim()),
            None => (line.as_str(), ""),
        };
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "hard" | "easy" | "random" | "computer"
            | "name" | "rating" | "ics" | "cores" | "memory" | "egtpath" | "." | "hint" | "bk"
            | "draw" | "otim" | "sd" | "nps" => {}
            "protover" => {
                out.line(format!(
                    "feature myname=\"{}\" variants=\"{}\" setboard=1 usermove=1 ping=1 \
                     sigint=0 sigterm=0 san=0 time=1 draw=0 reuse=1 analyze=1 colors=0 \
                     exclude=0 option=\"Contempt -spin {} -100 100\" \
                     option=\"Tactics -spin {} 0 {MAX_TACTICS_DEPTH}\" done=1",
                    engine.name,
                    xboard_variant_name(&engine.variant),
                    engine.contempt(),
                    engine.tactics()
                ));
            }
            "option" => match arg.split_once('=') {
                Some(("Contempt", v)) => {
                    if !engine.set_contempt(v) {
                        out.line(format!(
                            "Error (Contempt is from -100 to 100): option {arg}"
                        ));
                    }
                }
                Some(("Tactics", v)) => {
                    if !engine.set_tactics(v) {
                        out.line(format!(
                            "Error (Tactics is from 0 to {MAX_TACTICS_DEPTH}): option {arg}"
                        ));
                    }
                }
                _ => out.line(format!("Error (unknown option): option {arg}")),
            },
            "new" => {
                engine.jobs.new_game();
                engine.set_position(Position::start(&engine.variant));
                st.force = false;
                st.analyze = false;
                st.engine_side = Color::White;
                st.tc.own = None;
            }
            "variant" => {
                if engine.variant.xboard_name.as_deref() == Some(arg) {
                    // XBoard knows this game: its board, pieces and rules are its own.
                } else if arg == variant_name(&engine.variant) || arg == engine.variant.id {
                    describe(&engine.variant, st.letters, out);
                } else {
                    out.line(format!(
                        "Error (this model plays {}): variant {arg}",
                        xboard_variant_name(&engine.variant)
                    ));
                }
            }
            "force" => {
                engine.jobs.cancel();
                st.force = true;
            }
            "go" => {
                st.force = false;
                st.engine_side = engine.game().position().side_to_move();
                think(engine, &st, out);
            }
            "playother" => {
                st.force = false;
                st.engine_side = engine.game().position().side_to_move().opposite();
            }
            "white" | "black" => {}
            "usermove" => user_move(engine, &mut st, arg, out),
            "?" => engine.jobs.stop(),
            "undo" | "remove" => {
                engine.jobs.cancel();
                let n = if cmd == "undo" { 1 } else { 2 };
                if engine.game().moves().len() < n {
                    out.line(format!("Error (no move to take back): {cmd}"));
                } else {
                    engine.game().undo(n);
                    if st.analyze {
                        think(engine, &st, out);
                    }
                }
            }
            "setboard" => set_board(engine, &st, arg, out),
            "level" => match level(arg) {
                Some((mps, inc)) => {
                    st.tc.mps = mps;
                    st.tc.inc = inc;
                    st.tc.st = None;
                }
                None => out.line(format!("Error (expected level MPS BASE INC): level {arg}")),
            },
            "st" => match arg.parse::<f64>() {
                Ok(s) if s > 0.0 && s < 1e6 => st.tc.st = Some(Duration::from_secs_f64(s)),
                _ => out.line(format!("Error (expected seconds): st {arg}")),
            },
            "time" => match arg.parse::<u64>() {
                Ok(cs) => st.tc.own = Some(Duration::from_millis(cs * 10)),
                Err(_) => out.line(format!("Error (expected centiseconds): time {arg}")),
            },
            "result" => {
                engine.jobs.cancel();
                st.force = true;
            }
            "post" => st.post = true,
            "nopost" => st.post = false,
            "analyze" => {
                st.analyze = true;
                st.force = true;
                think(engine, &st, out);
            }
            "exit" => {
                engine.jobs.cancel();
                st.analyze = false;
            }
            "ping" => out.line(format!("pong {arg}")),
            "quit" => break,
            _ if looks_like_move(cmd) => user_move(engine, &mut st, &line, out),
            _ => out.line(format!("Error (unknown command): {line}")),
        }
    }
    engine.jobs.cancel();
}

/// Whether an unknown command is a move sent without `usermove`.
fn looks_like_move(cmd: &str) -> bool {
    let b = cmd.as_bytes();
    b.len() >= 4 && (b[0].is_ascii_lowercase() && b[1].is_ascii_digit() || cmd.contains('@'))
}

/// `level MPS BASE INC`: moves per session, base time (minutes or min:sec), increment.
fn level(arg: &str) -> Option<(u32, Duration)> {
    let w: Vec<&str> = arg.split_whitespace().collect();
    if w.len() != 3 {
        return None;
    }
    let mps = w[0].parse().ok()?;
    let base_ok = match w[1].split_once(':') {
        Some((m, s)) => m.parse::<u64>().is_ok() && s.parse::<u64>().is_ok(),
        None => w[1].parse::<f64>().is_ok(),
    };
    let inc = w[2].parse::<f64>().ok().filter(|i| *i >= 0.0)?;
    base_ok.then(|| (mps, Duration::from_secs_f64(inc)))
}

fn user_move(engine: &mut Engine, st: &mut State, arg: &str, out: &Out) {
    engine.jobs.cancel();
    let mut pos = engine.game().position().clone();
    // The game's outcome, an arbiter's (a resignation) included.
    if let Some(o) = engine.game().outcome() {
        out.line(format!(
            "Illegal move (the game is over: {}): {arg}",
            players_sentence(&o)
        ));
        return;
    }
    match parse_move(&mut pos, st.letters, arg) {
        Ok(m) => {
            engine.play(m);
            if let Some(o) = engine.game().outcome() {
                out.line(result_line(&o));
                return;
            }
            let to_move = engine.game().position().side_to_move();
            if st.analyze || (!st.force && to_move == st.engine_side) {
                think(engine, st, out);
            }
        }
        Err(reason) => out.line(format!("Illegal move ({reason}): {arg}")),
    }
}

/// XBoard's result line: `1-0` when the first player (XBoard's white) wins.
fn result_line(o: &Outcome) -> String {
    let score = match o.winner() {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    };
    format!("{score} {{{}}}", players_sentence(o))
}

/// The game's end in XBoard's words: its first player is koma's Black.
fn players_sentence(o: &Outcome) -> String {
    outcome_sentence(o)
        .replace("Black", "First player")
        .replace("White", "Second player")
}

fn set_board(engine: &mut Engine, st: &State, arg: &str, out: &Out) {
    engine.jobs.cancel();
    let koma_text = xboard_fen_to_koma(arg, st.letters);
    match Position::from_text(&engine.variant, &koma_text)
        .or_else(|_| Position::from_text(&engine.variant, arg))
    {
        Ok(p) => engine.set_position(p),
        Err(e) => out.line(format!("Error ({e}): setboard {arg}")),
    }
}

/// Starts a search for the engine's move (or an analysis).
fn think(engine: &mut Engine, st: &State, out: &Out) {
    // Over by the rules or by an arbiter (the engine's own resignation).
    if engine.game().outcome().is_some() {
        return;
    }
    let pos = engine.game().position().clone();
    let mut clock = Clock {
        overhead: engine.config.overhead,
        infinite: st.analyze,
        movetime: st.tc.st,
        remaining: st.tc.own,
        increment: st.tc.inc,
        ..Clock::default()
    };
    if st.tc.mps > 0 {
        let played = engine.game().moves().len() as u32 / 2;
        clock.moves_to_go = Some(st.tc.mps - played % st.tc.mps);
    }
    let letters = st.letters;
    let (post, analyze) = (st.post || st.analyze, st.analyze);
    let info_out = out.clone();
    let info_pos = pos.clone();
    let done_out = out.clone();
    let game = engine.game_handle();
    let root_moves = xboard_root_moves(&pos, letters);
    // Every legal move is one XBoard would refuse (in check, the only way out a drop of a
    // kind it cannot hold): the game cannot go on under XBoard, and playing such a move
    // would lose by forfeit with the boards apart. The engine resigns instead.
    if !analyze && root_moves.as_ref().is_some_and(|m| m.is_empty()) {
        tracing::info!("every legal move is one XBoard would refuse: resigning");
        engine.game().adjudicate(Outcome::Win {
            winner: pos.side_to_move().opposite(),
            reason: WinReason::Resignation,
        });
        out.line("resign");
        return;
    }
    engine.go(
        &clock,
        root_moves,
        Callbacks {
            progress: Box::new(move |p| {
                if post {
                    info_out.line(thinking(p, &info_pos, letters));
                }
            }),
            done: Box::new(move |r| {
                let Ok(t) = r else { return };
                if post {
                    done_out.line(thinking(&t.progress(), &pos, letters));
                }
                if analyze {
                    return;
                }
                let mv = text(&pos, letters, &t.best);
                let mut g = game.lock().unwrap_or_else(|p| p.into_inner());
                g.play(t.best, Mover::Engine);
                done_out.line(format!("move {mv}"));
                if let Some(o) = g.outcome() {
                    done_out.line(result_line(&o));
                }
            }),
        },
    );
}
