//! XBoard/CECP v2.
//!
//! Moves are koma's canonical text, which is what XBoard itself sends and expects for these
//! games: squares `a1`..., a multi-leg move leg by leg with commas (`e5f6,f6g7`, the igui
//! `e5f6,f6e5`), the turn skip `e5e5` (XBoard's null move `@@@@` is read as a skip where
//! one is legal), drops as `P@e5` and promotions with `+` (`=` declines). XBoard knows
//! pieces by one letter, so drops and positions use the variant's letters
//! ([`crate::protocol::letters`]) where it has them.
//!
//! XBoard calls the side that moves first "white"; koma calls it Black (sente). Results and
//! colours sent to XBoard are in XBoard's naming.
//!
//! For a variant XBoard does not know, the engine announces it in `variants` and, when XBoard
//! selects it, describes it: `setup` gives the board size, holdings, the piece-to-letter table
//! and the start position, and `piece` gives each piece's moves in Betza notation, so XBoard
//! can draw the board and highlight moves ([`describe`]).

use crate::play::game::{outcome_sentence, Mover};
use crate::protocol::clock::Clock;
use crate::protocol::job::Callbacks;
use crate::protocol::letters::{move_text as text, parse_move, Letters};
use crate::protocol::out::Out;
use crate::protocol::session::Engine;
use koma_rules::{Color, Outcome, Position, Variant};
use std::time::Duration;

/// XBoard's name for the variant: koma's id without dashes (XBoard variant names are single
/// words).
pub fn variant_name(v: &Variant) -> String {
    v.id.replace('-', "")
}

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
            | "name" | "rating" | "ics" | "cores" | "memory" | "egtpath" | "option" | "."
            | "hint" | "bk" | "draw" | "otim" | "sd" | "nps" => {}
            "protover" => {
                out.line(format!(
                    "feature myname=\"{}\" variants=\"{}\" setboard=1 usermove=1 ping=1 \
                     sigint=0 sigterm=0 san=0 time=1 draw=0 reuse=1 analyze=1 colors=0 \
                     exclude=0 done=1",
                    engine.name,
                    variant_name(&engine.variant)
                ));
            }
            "new" => {
                engine.jobs.new_game();
                engine.set_position(Position::start(&engine.variant));
                st.force = false;
                st.analyze = false;
                st.engine_side = Color::White;
                st.tc.own = None;
            }
            "variant" => {
                if arg == variant_name(&engine.variant) || arg == engine.variant.id {
                    describe(&engine.variant, st.letters, out);
                } else {
                    out.line(format!(
                        "Error (this model plays {}): variant {arg}",
                        variant_name(&engine.variant)
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
    if let Some(o) = pos.outcome() {
        out.line(format!(
            "Illegal move (the game is over: {}): {arg}",
            outcome_sentence(&o)
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
    let sentence = outcome_sentence(o)
        .replace("Black", "First player")
        .replace("White", "Second player");
    format!("{score} {{{sentence}}}")
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

/// XBoard's FEN for holdings variants: `<board>[<holdings>] <w|b> ...`, letters for pieces,
/// `w` for the first player. Returns koma's position text (or the input when it cannot be
/// read that way, to be tried as koma's own text).
fn xboard_fen_to_koma(fen: &str, letters: Option<Letters>) -> String {
    let Some(l) = letters else {
        return fen.to_owned();
    };
    let mut words = fen.split_whitespace();
    let (Some(board), Some(side)) = (words.next(), words.next()) else {
        return fen.to_owned();
    };
    let (board, holdings) = match board.split_once('[') {
        Some((b, h)) => (b, h.trim_end_matches(']')),
        None => (board, ""),
    };
    let side = match side {
        "w" => "b",
        "b" => "w",
        _ => return fen.to_owned(),
    };
    let (Ok(board), Ok(hand)) = (l.to_koma(board), l.to_koma(holdings)) else {
        return fen.to_owned();
    };
    let hand = if hand.is_empty() || hand == "-" {
        "-".to_owned()
    } else {
        hand
    };
    format!("{board} {side} {hand}")
}

/// The board, holdings, letters and start position for XBoard, then each piece's moves.
pub fn describe(v: &Variant, letters: Option<Letters>, out: &Out) {
    let Some(l) = letters else {
        // Without one-letter names XBoard cannot draw this variant's pieces; it can still
        // play it with legality testing off, in koma's notation.
        return;
    };
    let g = &v.geometry;
    let start = Position::start(&std::sync::Arc::new(v.clone()));
    let text = start.to_text();
    let mut fields = text.split_whitespace();
    let board_field = fields.next().unwrap_or_default();
    let hand_field = fields.nth(1).unwrap_or("-");
    let board = koma_to_letters(board_field, l);
    let hand = if hand_field == "-" {
        String::new()
    } else {
        expand_counts(&koma_to_letters(hand_field, l))
    };
    let table = piece_to_char(l);
    // XBoard shows each holdable kind on one row beside the board, so it holds at most as
    // many kinds as the board has ranks: the kinds past that (the last in the table) cannot
    // be dropped in XBoard.
    let kinds = l
        .pairs()
        .iter()
        .filter(|(_, s)| !s.starts_with('+') && *s != "K")
        .count();
    let holdings = if v.rules.drops {
        kinds.min(g.ranks() as usize)
    } else {
        0
    };
    out.line(format!(
        "setup ({table}) {}x{}+{holdings}_shogi {board}[{hand}] w 0 1",
        g.files(),
        g.ranks()
    ));
    for (id, letter) in l.pairs() {
        if let Some(k) = v.kind_by_id(id) {
            let betza = &v.piece(k).betza;
            out.line(format!("piece {letter}& {betza}"));
        }
    }
}

/// koma's position text field in one-letter names.
fn koma_to_letters(field: &str, l: Letters) -> String {
    let mut out = String::new();
    let mut chars = field.chars().peekable();
    let mut plus = false;
    while let Some(c) = chars.next() {
        match c {
            '+' => plus = true,
            '(' => {
                let mut id = String::new();
                for d in chars.by_ref() {
                    if d == ')' {
                        break;
                    }
                    id.push(d);
                }
                out.push_str(&letter_of(&id, plus, l));
                plus = false;
            }
            c if c.is_ascii_alphabetic() => {
                out.push_str(&letter_of(&c.to_string(), plus, l));
                plus = false;
            }
            c => out.push(c),
        }
    }
    out
}

fn letter_of(id: &str, plus: bool, l: Letters) -> String {
    let upper = id.to_ascii_uppercase();
    let key = format!("{}{upper}", if plus { "+" } else { "" });
    let letter = l.letter(&key).unwrap_or("?");
    if id.chars().all(|c| c.is_ascii_lowercase()) {
        letter.to_ascii_lowercase()
    } else {
        letter.to_owned()
    }
}

/// `2S` -> `SS`: XBoard's holdings list each piece.
fn expand_counts(s: &str) -> String {
    let mut out = String::new();
    let mut n = 0usize;
    for c in s.chars() {
        if let Some(d) = c.to_digit(10) {
            n = n * 10 + d as usize;
        } else {
            for _ in 0..n.max(1) {
                out.push(c);
            }
            n = 0;
        }
    }
    out
}

/// Piece types per side in XBoard 4.9's table: 22 base types, the promoted form of each 22
/// places further on, and the King last.
const XBOARD_TYPES: usize = 44;
/// Distance from a base type to its promoted form in XBoard's table.
const XBOARD_PROMOTED: usize = 22;

/// XBoard's piece-to-char table: a letter for each of XBoard's piece types in its own order
/// (pawn, knight, bishop, rook first, then others), `+` at the promoted form of each piece that
/// promotes (so XBoard demotes a captured `+N` to a knight in hand), `.` for unused types, the
/// King last; the first player's then the second's.
fn piece_to_char(l: Letters) -> String {
    let mut first = vec!['.'; XBOARD_TYPES];
    let mut next = 4;
    for (_, letter) in l.pairs() {
        let Some(c) = letter.trim_start_matches('+').chars().next() else {
            continue;
        };
        if letter.starts_with('+') || c == 'K' {
            continue;
        }
        let slot = match c {
            'P' => 0,
            'N' => 1,
            'B' => 2,
            'R' => 3,
            _ => {
                next += 1;
                next - 1
            }
        };
        if slot < XBOARD_PROMOTED {
            first[slot] = c;
        }
    }
    for (_, letter) in l.pairs() {
        if let Some(base) = letter.strip_prefix('+') {
            if let Some(slot) = first.iter().position(|&c| base.starts_with(c)) {
                first[slot + XBOARD_PROMOTED] = '+';
            }
        }
    }
    first[XBOARD_TYPES - 1] = 'K';
    let first: String = first.into_iter().collect();
    format!("{first}{}", first.to_ascii_lowercase())
}

/// Starts a search for the engine's move (or an analysis).
fn think(engine: &mut Engine, st: &State, out: &Out) {
    let mut pos = engine.game().position().clone();
    if pos.outcome().is_some() {
        return;
    }
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
    engine.go(
        &clock,
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

/// A thinking line: `ply score time nodes pv` (score in centipawns, time in centiseconds).
fn thinking(p: &crate::search::Progress, pos: &Position, letters: Option<Letters>) -> String {
    let score = if p.proven_win {
        100_000 - 1
    } else {
        p.centipawns()
    };
    let mut line = format!(
        "{} {score} {} {}",
        p.pv.len().max(1),
        p.elapsed.as_millis() / 10,
        p.simulations
    );
    let mut q = pos.clone();
    for m in &p.pv {
        line.push(' ');
        line.push_str(&text(&q, letters, m));
        q.make_move(*m);
    }
    line
}
