//! USI, for shogi GUIs: Hand Shogi, with its pieces mapped to SFEN letters.
//!
//! USI names squares by file number (9 to 1 from the first player's left) and rank letter (`a`
//! at the second player's side to `i` at the first player's), moves as `7g7f`, `7g7f+` and
//! drops as `P*5e`, and knows pieces by one letter: [`crate::protocol::letters`] has the
//! table of Hand Shogi.

use crate::protocol::letters::Letters;
use crate::protocol::out::Out;
use crate::protocol::session::Engine;
use crate::protocol::uci_like::{
    go_with_info, option_lines, parse_moves, read_setoption, set_shared_option, MoveForm,
};
use koma_rules::{Geometry, Move, Position, Promotion, Square, Variant};

/// The USI side of a variant: its letters and square names.
#[derive(Debug, Clone, Copy)]
pub struct Sfen {
    letters: Letters,
    files: u8,
    ranks: u8,
}

impl Sfen {
    /// The mapping of `v`, if USI can play it: a variant with one-letter names on a board
    /// whose files are single digits (USI's squares are `9a` .. `1i`).
    pub fn of(v: &Variant) -> Option<Sfen> {
        if v.geometry.files() > 9 {
            return None;
        }
        Some(Sfen {
            letters: Letters::of(v)?,
            files: v.geometry.files(),
            ranks: v.geometry.ranks(),
        })
    }

    fn letter(&self, id: &str) -> Option<&'static str> {
        self.letters.letter(id)
    }

    fn id(&self, letter: &str) -> Option<&'static str> {
        self.letters.id(letter)
    }

    /// USI's name of a square: `9a` .. `1i` on 9x9.
    pub fn square(&self, g: &Geometry, sq: Square) -> String {
        let file = self.files - g.file_of(sq);
        let rank = (b'a' + (self.ranks - 1 - g.rank_of(sq))) as char;
        format!("{file}{rank}")
    }

    fn parse_square(&self, g: &Geometry, t: &str) -> Option<Square> {
        let b = t.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_lowercase() {
            return None;
        }
        let file = b[0] - b'0';
        let rank = b[1] - b'a';
        if file == 0 || file > self.files || rank >= self.ranks {
            return None;
        }
        g.square(self.files - file, self.ranks - 1 - rank)
    }

    /// A move in USI notation.
    pub fn move_text(&self, pos: &Position, m: &Move) -> String {
        let v = pos.variant();
        let g = &v.geometry;
        match m.dropped() {
            Some(k) => format!(
                "{}*{}",
                self.letter(&v.piece(k).id).unwrap_or("?"),
                self.square(g, m.to())
            ),
            None => format!(
                "{}{}{}",
                self.square(g, m.from()),
                self.square(g, m.to()),
                if m.promotion() == Promotion::Promote {
                    "+"
                } else {
                    ""
                }
            ),
        }
    }

    /// Reads a USI move and finds it among the legal moves (no `+` where a promotion is open
    /// declines it).
    pub fn parse_move(&self, pos: &mut Position, t: &str) -> Result<Move, String> {
        let v = pos.variant().clone();
        let g = &v.geometry;
        let legal = pos.legal_moves();
        let found = if let Some((letter, sq)) = t.split_once('*') {
            let id = self
                .id(letter)
                .ok_or_else(|| format!("'{letter}' is not a piece letter"))?;
            let to = self
                .parse_square(g, sq)
                .ok_or_else(|| format!("'{sq}' is not a square"))?;
            legal
                .iter()
                .find(|m| m.to() == to && m.dropped().is_some_and(|k| v.piece(k).id == id))
        } else {
            let (body, promote) = match t.strip_suffix('+') {
                Some(b) => (b, true),
                None => (t, false),
            };
            if body.len() != 4 {
                return Err("expected a move like 7g7f, 7g7f+ or P*5e".into());
            }
            let from = self
                .parse_square(g, &body[..2])
                .ok_or_else(|| format!("'{}' is not a square", &body[..2]))?;
            let to = self
                .parse_square(g, &body[2..])
                .ok_or_else(|| format!("'{}' is not a square", &body[2..]))?;
            let candidates: Vec<&Move> = legal
                .iter()
                .filter(|m| {
                    !m.is_drop() && m.from() == from && m.to() == to && m.kills().is_empty()
                })
                .collect();
            candidates
                .iter()
                .find(|m| (m.promotion() == Promotion::Promote) == promote)
                .copied()
        };
        found.copied().ok_or_else(|| "not a legal move".to_owned())
    }

    /// Reads an SFEN position (`<board> <side> <hand> [<move number>]`).
    pub fn position(
        &self,
        v: &std::sync::Arc<Variant>,
        words: &[&str],
    ) -> Result<Position, String> {
        if words.len() < 3 {
            return Err("an SFEN needs board, side and hand".into());
        }
        let board = self.letters.to_koma(words[0])?;
        let side = match words[1] {
            "b" | "w" => words[1],
            other => return Err(format!("side '{other}' is not b or w")),
        };
        let hand = if words[2] == "-" {
            "-".to_owned()
        } else {
            self.letters.to_koma(words[2])?
        };
        let ply = match words.get(3) {
            Some(n) => n
                .parse::<u32>()
                .map_err(|_| format!("move number '{n}' is not a number"))?
                .saturating_sub(1),
            None => 0,
        };
        Position::from_text(v, &format!("{board} {side} {hand} {ply}")).map_err(|e| e.to_string())
    }
}

/// Runs USI on `lines` (the first, `usi`, included) until `quit` or the end of input.
pub fn run(engine: &mut Engine, lines: &mut dyn Iterator<Item = String>, out: &Out) {
    let Some(sfen) = Sfen::of(&engine.variant) else {
        out.line(format!(
            "info string error USI has no SFEN letters for {}; use xboard or uci",
            engine.variant.name
        ));
        return;
    };
    for line in lines {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { continue };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "usi" => {
                out.line(format!("id name {}", engine.name));
                out.line("id author the koma developers");
                for l in option_lines(engine) {
                    out.line(l);
                }
                out.line("usiok");
            }
            "isready" => out.line("readyok"),
            "setoption" => match read_setoption(&rest) {
                Some((name, value)) => {
                    // GUIs send USI_Ponder to every engine; koma-engine does not ponder.
                    if !set_shared_option(engine, &name, &value, out) && name != "USI_Ponder" {
                        out.line(format!("info string error unknown option: {name}"));
                    }
                }
                None => out.line(format!(
                    "info string error malformed setoption: {}",
                    rest.join(" ")
                )),
            },
            "usinewgame" => {
                engine.jobs.new_game();
                engine.set_position(Position::start(&engine.variant));
            }
            "position" => position(engine, &sfen, &rest, out),
            "go" => {
                let form = MoveForm {
                    text: move |p: &Position, m: &Move| sfen.move_text(p, m),
                    parse: |p: &mut Position, t: &str| sfen.parse_move(p, t),
                };
                go_with_info(engine, &rest, out, 'b', form, "resign")
            }
            "stop" => engine.jobs.stop(),
            "ponderhit" | "gameover" => {}
            "quit" => break,
            _ => out.line(format!("info string error unknown command: {line}")),
        }
    }
    engine.jobs.cancel();
}

fn position(engine: &mut Engine, sfen: &Sfen, rest: &[&str], out: &Out) {
    let moves_at = rest.iter().position(|w| *w == "moves");
    let head = &rest[..moves_at.unwrap_or(rest.len())];
    let moves = moves_at.map_or(&[][..], |i| &rest[i + 1..]);
    let start = match head.first() {
        Some(&"startpos") if head.len() == 1 => Position::start(&engine.variant),
        Some(&"sfen") => match sfen.position(&engine.variant, &head[1..]) {
            Ok(p) => p,
            Err(e) => {
                out.line(format!("info string error sfen: {e}"));
                engine.refuse_position(format!("sfen: {e}"));
                return;
            }
        },
        _ => {
            out.line("info string error expected 'position startpos' or 'position sfen ...'");
            engine.refuse_position("a malformed position command".into());
            return;
        }
    };
    match parse_moves(&start, moves, |p, t| sfen.parse_move(p, t)) {
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
