//! One game a single-game front end keeps (the page of `koma play`, a protocol session): the
//! start position, the moves and who played them, and how the result reads.

use koma_rules::{Color, DrawReason, Move, Outcome, Position, WinReason};

/// Who made a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mover {
    /// The person at the page, or the GUI's side of a protocol session.
    Human,
    /// The engine.
    Engine,
}

/// A game in progress or finished.
#[derive(Debug, Clone)]
pub struct Game {
    start: Position,
    pos: Position,
    moves: Vec<Move>,
    by: Vec<Mover>,
    human: Color,
    /// An arbiter's result that the position does not show (a person's clock ran out).
    verdict: Option<Outcome>,
}

impl Game {
    /// A game from `start`, the person playing `human`.
    pub fn new(start: Position, human: Color) -> Game {
        Game {
            pos: start.clone(),
            start,
            moves: Vec::new(),
            by: Vec::new(),
            human,
            verdict: None,
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The current position, for move generation.
    pub fn position_mut(&mut self) -> &mut Position {
        &mut self.pos
    }

    /// Moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Who played each move.
    pub fn movers(&self) -> &[Mover] {
        &self.by
    }

    /// The person's colour.
    pub fn human(&self) -> Color {
        self.human
    }

    /// The result, if the game is over.
    pub fn outcome(&mut self) -> Option<Outcome> {
        self.verdict.or_else(|| self.pos.outcome())
    }

    /// Ends the game with an arbiter's result (a loss on time), unless it is over already.
    pub fn adjudicate(&mut self, outcome: Outcome) {
        if self.outcome().is_none() {
            self.verdict = Some(outcome);
        }
    }

    /// Plays a legal move.
    pub fn play(&mut self, mv: Move, by: Mover) {
        self.pos.make_move(mv);
        self.moves.push(mv);
        self.by.push(by);
    }

    /// Takes back the last `plies` moves (all there are, at most); an arbiter's result goes
    /// with them.
    pub fn undo(&mut self, plies: usize) {
        if plies > 0 {
            self.verdict = None;
        }
        for _ in 0..plies.min(self.moves.len()) {
            self.pos.unmake_move();
            self.moves.pop();
            self.by.pop();
        }
    }

    /// Plies to take back to reach the person's previous turn: the engine's replies since the
    /// person's last move, and that move. `None` when the person has not moved yet.
    pub fn plies_to_human_turn(&self) -> Option<usize> {
        let last_human = self.by.iter().rposition(|&b| b == Mover::Human)?;
        Some(self.by.len() - last_human)
    }
}

/// The side's name as the page and the record write it.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The result in PGN's form.
pub fn result_text(o: &Outcome) -> &'static str {
    match o.winner() {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    }
}

/// Why the game ended, in words.
pub fn reason_text(o: &Outcome) -> &'static str {
    match o {
        Outcome::Win { reason, .. } => match reason {
            WinReason::Checkmate => "checkmate",
            WinReason::NoLegalMoves => "no legal moves",
            WinReason::RoyalCaptured => "royal captured",
            WinReason::PerpetualCheck => "perpetual check",
            WinReason::RepetitionMade => "repetition",
            WinReason::Forfeit => "forfeit",
            WinReason::Resignation => "resignation",
            WinReason::Time => "time",
        },
        Outcome::Draw(DrawReason::Repetition) => "repetition",
        Outcome::Draw(DrawReason::MaxLength) => "maximum length",
    }
}

/// One sentence for the end of the game: "Black wins by checkmate", "Draw by repetition".
pub fn outcome_sentence(o: &Outcome) -> String {
    match o.winner() {
        Some(c)
            if matches!(
                o,
                Outcome::Win {
                    reason: WinReason::Time,
                    ..
                }
            ) =>
        {
            format!(
                "{} wins on time",
                if c == Color::Black { "Black" } else { "White" }
            )
        }
        Some(Color::Black) => format!("Black wins by {}", reason_text(o)),
        Some(Color::White) => format!("White wins by {}", reason_text(o)),
        None => format!("Draw by {}", reason_text(o)),
    }
}
