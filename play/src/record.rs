//! The game record as a file: written for "Save" (a PGN-like text: tags, then the moves in
//! koma's notation) and read back by "Load", so that a saved game can be reviewed or played on.
//!
//! The reader takes what the writer writes and what a person typing one would: tags in any
//! order, move numbers (`12.`, `12...`) and `{comments}` anywhere among the moves, a result
//! token at the end. Everything is checked before anything changes: the variant, the start
//! position and every move, which must be legal in turn; an error names the line, or the move
//! by its number and text.

use koma_engine::game::{reason_text, result_text, Game, Mover};
use koma_rules::{Color, Outcome, Position, Variant, WinReason};
use serde::Serialize;
use std::sync::Arc;

/// The game record, as `GET /api/record` answers it.
#[derive(Debug, Clone, Serialize)]
pub struct Record {
    /// Variant id.
    pub variant: String,
    /// Start position text.
    pub start: String,
    /// Moves in the canonical notation.
    pub moves: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub result: String,
    /// Why it ended.
    pub reason: Option<String>,
    /// The record as a PGN-like text (what "Save" writes to a file).
    pub text: String,
}

/// Why a record text could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A line of the tag section is not `[Name "value"]`.
    #[error("line {line}: '{text}' is not a tag of the form [Name \"value\"]")]
    Tag {
        /// Line number (from 1).
        line: usize,
        /// The line.
        text: String,
    },
    /// The record is of another variant.
    #[error("the record is of variant '{found}', but this game is {expected}")]
    Variant {
        /// The record's variant.
        found: String,
        /// The variant played here.
        expected: String,
    },
    /// The FEN tag is not a position of the variant.
    #[error("line {line}: FEN: {reason}")]
    Start {
        /// Line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A move is malformed or not legal where it stands.
    #[error("move {number} ('{text}', line {line}): {reason}")]
    Move {
        /// Ply number (from 1).
        number: usize,
        /// The move's text.
        text: String,
        /// Line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// A comment is not closed.
    #[error("line {line}: a comment opened with '{{' is not closed")]
    Comment {
        /// Line where it opened.
        line: usize,
    },
}

/// The name a record gives the person's side.
pub const HUMAN: &str = "human";

/// Writes `game` as a record; `engine` names the engine's side.
pub fn write(game: &mut Game, variant: &Variant, engine: &str) -> Record {
    let outcome = game.outcome();
    let mut pos = game.start().clone();
    let mut texts = Vec::new();
    for &m in game.moves() {
        texts.push(pos.move_text(&m));
        pos.make_move(m);
    }
    let start = game.start().to_text();
    let standard = Position::start(game.start().variant()).to_text() == start;
    let (black, white) = match game.human() {
        Color::Black => (HUMAN, engine),
        Color::White => (engine, HUMAN),
    };
    let result = outcome.map_or("*", |o| result_text(&o));
    let reason = outcome.map(|o| reason_text(&o));
    let mut text = String::new();
    text.push_str("[Event \"koma play\"]\n");
    text.push_str(&format!("[Variant \"{}\"]\n", variant.id));
    text.push_str(&format!("[Black \"{black}\"]\n[White \"{white}\"]\n"));
    if !standard {
        text.push_str(&format!("[FEN \"{start}\"]\n"));
    }
    text.push_str(&format!("[Result \"{result}\"]\n"));
    if let Some(r) = reason {
        text.push_str(&format!("[Termination \"{r}\"]\n"));
    }
    text.push('\n');
    let first = game.start().side_to_move();
    let mut line = String::new();
    for (i, t) in texts.iter().enumerate() {
        let number = i / 2 + 1;
        if i % 2 == 0 && first == Color::Black {
            line.push_str(&format!("{number}. "));
        } else if i == 0 {
            line.push_str("1... ");
        }
        line.push_str(t);
        line.push(' ');
    }
    line.push_str(result);
    text.push_str(&line);
    text.push('\n');
    Record {
        variant: variant.id.clone(),
        start,
        moves: texts,
        result: result.to_owned(),
        reason: reason.map(str::to_owned),
        text,
    }
}

/// Reads a record of `variant` into a game. The person plays the side the record names
/// `human` (Black if neither is), so its moves are the person's and the others the engine's;
/// a loss on time, which the position cannot show, is restored from the tags.
pub fn read(variant: &Arc<Variant>, text: &str) -> Result<Game, RecordError> {
    let mut tags: Vec<(String, String, usize)> = Vec::new();
    let mut tokens: Vec<(String, usize)> = Vec::new();
    let mut comment_from: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = raw.trim();
        if comment_from.is_none() && line.starts_with('[') {
            let (name, value) = tag(line).ok_or_else(|| RecordError::Tag {
                line: line_no,
                text: line.chars().take(80).collect(),
            })?;
            tags.push((name, value, line_no));
            continue;
        }
        let mut rest = line;
        while !rest.is_empty() {
            if comment_from.is_some() {
                match rest.find('}') {
                    Some(end) => {
                        comment_from = None;
                        rest = &rest[end + 1..];
                    }
                    None => rest = "",
                }
                continue;
            }
            match rest.find('{') {
                Some(open) => {
                    words(&rest[..open], line_no, &mut tokens);
                    comment_from = Some(line_no);
                    rest = &rest[open + 1..];
                }
                None => {
                    words(rest, line_no, &mut tokens);
                    rest = "";
                }
            }
        }
    }
    if let Some(line) = comment_from {
        return Err(RecordError::Comment { line });
    }
    let get = |name: &str| tags.iter().find(|(n, _, _)| n == name);
    if let Some((_, v, _)) = get("Variant") {
        if v != &variant.id {
            return Err(RecordError::Variant {
                found: v.clone(),
                expected: variant.id.clone(),
            });
        }
    }
    let start = match get("FEN") {
        Some((_, fen, line)) => {
            Position::from_text(variant, fen).map_err(|e| RecordError::Start {
                line: *line,
                reason: e.to_string(),
            })?
        }
        None => Position::start(variant),
    };
    let human = match (get("Black"), get("White")) {
        (_, Some((_, w, _))) if w == HUMAN => Color::White,
        _ => Color::Black,
    };
    let mut game = Game::new(start, human);
    for (n, (word, line)) in tokens.iter().enumerate() {
        let number = n + 1;
        if game.outcome().is_some() {
            return Err(RecordError::Move {
                number,
                text: word.clone(),
                line: *line,
                reason: "the game was already over".into(),
            });
        }
        let mover = game.position().side_to_move();
        let mv = game
            .position_mut()
            .parse_move(word)
            .map_err(|e| RecordError::Move {
                number,
                text: word.clone(),
                line: *line,
                reason: e.to_string(),
            })?;
        let by = if mover == human {
            Mover::Human
        } else {
            Mover::Engine
        };
        game.play(mv, by);
    }
    if let (Some((_, t, _)), Some((_, r, _))) = (get("Termination"), get("Result")) {
        let winner = match r.as_str() {
            "1-0" => Some(Color::Black),
            "0-1" => Some(Color::White),
            _ => None,
        };
        if let (Some(winner), "time") = (winner, t.as_str()) {
            game.adjudicate(Outcome::Win {
                winner,
                reason: WinReason::Time,
            });
        }
    }
    Ok(game)
}

/// `[Name "value"]` read as (Name, value).
fn tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some((name.to_owned(), value.to_owned()))
}

/// The moves among `text`'s words: move numbers and result tokens left out.
fn words(text: &str, line: usize, out: &mut Vec<(String, usize)>) {
    for w in text.split_whitespace() {
        let number = w.trim_end_matches('.');
        let is_number = number.len() < w.len()
            && !number.is_empty()
            && number.chars().all(|c| c.is_ascii_digit());
        if is_number || matches!(w, "1-0" | "0-1" | "1/2-1/2" | "*") {
            continue;
        }
        // "12.e3e4": a number written against its move.
        if let Some((n, mv)) = w.split_once('.') {
            if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) {
                let mv = mv.trim_start_matches('.');
                if !mv.is_empty() {
                    out.push((mv.to_owned(), line));
                }
                continue;
            }
        }
        out.push((w.to_owned(), line));
    }
}
