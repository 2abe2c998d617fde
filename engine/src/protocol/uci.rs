//! UCI with `UCI_Variant`, for chess-variant tools that speak UCI (the convention of
//! Fairy-Stockfish): moves in koma's canonical notation (`e3e4`, `N@e5`, `e5f6,f6g7`, `+`/`=`;
//! drops are also read by the variant's one-letter names, `P@e5`),
//! positions as `position startpos|fen <position text> [moves ...]`.

use crate::protocol::letters::{parse_move, Letters};
use crate::protocol::out::Out;
use crate::protocol::session::Engine;
use crate::protocol::uci_like::{
    go_with_info, option_lines, parse_moves, read_setoption, set_shared_option, MoveForm,
};
use koma_rules::{Move, Position};

/// Runs UCI on `lines` (the first, `uci`, included) until `quit` or the end of input.
pub fn run(engine: &mut Engine, lines: &mut dyn Iterator<Item = String>, out: &Out) {
    for line in lines {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { continue };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => {
                out.line(format!("id name {}", engine.name));
                out.line("id author the koma developers");
                let id = &engine.variant.id;
                out.line(format!(
                    "option name UCI_Variant type combo default {id} var {id}"
                ));
                for l in option_lines(engine) {
                    out.line(l);
                }
                out.line("uciok");
            }
            "isready" => out.line("readyok"),
            "setoption" => set_option(engine, &rest, out),
            "ucinewgame" => {
                engine.jobs.new_game();
                engine.set_position(Position::start(&engine.variant));
            }
            "position" => position(engine, &rest, out),
            "go" => {
                let letters = Letters::of(&engine.variant);
                let form = MoveForm {
                    text: |p: &Position, m: &Move| p.move_text(m),
                    parse: move |p: &mut Position, t: &str| parse_move(p, letters, t),
                };
                go_with_info(engine, &rest, out, 'w', form, "(none)")
            }
            "stop" => engine.jobs.stop(),
            "ponderhit" => {}
            "d" => out.line(format!(
                "info string position {}",
                engine.game().position().to_text()
            )),
            "quit" => break,
            _ => out.line(format!("info string error unknown command: {line}")),
        }
    }
    engine.jobs.cancel();
}

fn set_option(engine: &mut Engine, rest: &[&str], out: &Out) {
    let Some((name, value)) = read_setoption(rest) else {
        out.line(format!(
            "info string error malformed setoption: {}",
            rest.join(" ")
        ));
        return;
    };
    let (name, value) = (name.as_str(), value.as_str());
    if set_shared_option(engine, name, value, out) {
        return;
    }
    match name {
        "UCI_Variant" if value == engine.variant.id => {}
        "UCI_Variant" => out.line(format!(
            "info string error this model plays {}, not '{value}'",
            engine.variant.id
        )),
        _ => out.line(format!("info string error unknown option: {name}")),
    }
}

fn position(engine: &mut Engine, rest: &[&str], out: &Out) {
    let (start, moves) = match rest.first() {
        Some(&"startpos") => {
            let moves = match rest.get(1) {
                Some(&"moves") => &rest[2..],
                None => &[][..],
                Some(other) => {
                    let why = format!("expected 'moves' after startpos, found '{other}'");
                    out.line(format!("info string error {why}"));
                    engine.refuse_position(why);
                    return;
                }
            };
            (Position::start(&engine.variant), moves)
        }
        Some(&"fen") => {
            let end = rest
                .iter()
                .position(|w| *w == "moves")
                .unwrap_or(rest.len());
            let text = rest[1..end].join(" ");
            match Position::from_text(&engine.variant, &text) {
                Ok(p) => (p, rest.get(end + 1..).unwrap_or(&[])),
                Err(e) => {
                    out.line(format!("info string error {e}"));
                    engine.refuse_position(e.to_string());
                    return;
                }
            }
        }
        _ => {
            out.line("info string error expected 'position startpos' or 'position fen ...'");
            engine.refuse_position("a malformed position command".into());
            return;
        }
    };
    let letters = Letters::of(&engine.variant);
    match parse_moves(&start, moves, |p, t| parse_move(p, letters, t)) {
        Ok(list) => {
            engine.set_position(start);
            for m in list {
                engine.play(m);
            }
        }
        Err(e) => {
            out.line(format!("info string error {e}"));
            engine.refuse_position(e);
        }
    }
}
