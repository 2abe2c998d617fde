//! The game of a `koma play` server and its engine, shared by the request threads.
//!
//! The engine searches outside the lock, so the page can still read the state while it
//! thinks; every request that would change the game meanwhile is refused (the search's answer
//! would otherwise land on a different position). The searcher is taken out of the session for
//! the search and put back afterwards, with its tree, so the next search reuses it.

use crate::clock::{PersonClock, TimeControl};
use crate::record::{self, Record, RecordError};
use crate::state::{self, Analysis, BoardView, Defaults, ModelInfo, PlayedMove, State};
use koma_engine::game::{Game, Mover};
use koma_engine::search::{Limits, SearchError, Searcher, SearcherOptions, SharedModel, Thought};
use koma_model::Model;
use koma_rules::{Color, Move, Outcome, Position, Variant, WinReason};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// Default engine budget of a server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineDefaults {
    /// Simulations per move (0: none).
    pub sims: u32,
    /// Milliseconds per move (0: none).
    pub millis: u64,
}

impl EngineDefaults {
    /// The limits these defaults mean; with neither set, the arena's default simulations (a
    /// search must end by itself: nobody can stop it from the page).
    pub fn limits(&self) -> Limits {
        let l = Limits {
            sims: (self.sims > 0).then_some(self.sims),
            time: (self.millis > 0).then(|| std::time::Duration::from_millis(self.millis)),
        };
        if l.is_infinite() {
            Limits::sims(koma_engine::search::DEFAULT_SIMS)
        } else {
            l
        }
    }
}

/// What can go wrong in a session; the API maps each to its HTTP status.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SessionError {
    /// A request changing the game arrived while the engine searches.
    #[error("the engine is searching; wait for its move")]
    Busy,
    /// A move or search was asked for after the end of the game.
    #[error("the game is over ({0})")]
    GameOver(String),
    /// Nothing to take back.
    #[error("{0}")]
    NothingToUndo(String),
    /// The engine failed.
    #[error("the engine failed: {0}")]
    Engine(String),
    /// The person's clock ran out before the move.
    #[error("your time ran out before the move: {0}")]
    TimeOut(String),
    /// A record to load is not a game of this variant.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A ply to show is past the end of the game.
    #[error("ply {asked}: the game has {played} plies")]
    NoSuchPly {
        /// The ply asked for.
        asked: usize,
        /// Plies played.
        played: usize,
    },
}

struct Inner {
    game: Game,
    searcher: Option<Searcher<SharedModel>>,
    thinking: bool,
    analysis: Option<Analysis>,
    clock: PersonClock,
}

/// A game and the engine playing it.
pub struct Session {
    model: Arc<SharedModel>,
    variant: Arc<Variant>,
    info: ModelInfo,
    options: SearcherOptions,
    defaults: EngineDefaults,
    inner: Mutex<Inner>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("model", &self.info)
            .finish()
    }
}

impl Session {
    /// A session playing `model` (loaded from `path`, trained `step` steps): a game from the
    /// start, the person playing Black.
    pub fn new(
        model: Model,
        path: String,
        step: u64,
        options: SearcherOptions,
        defaults: EngineDefaults,
    ) -> Session {
        let variant = model.encoder().variant().clone();
        let model = Arc::new(SharedModel::new(model));
        let searcher = Searcher::new(model.clone(), options.clone());
        Session {
            model,
            variant: variant.clone(),
            info: ModelInfo { path, step },
            options,
            defaults,
            inner: Mutex::new(Inner {
                game: Game::new(Position::start(&variant), Color::Black),
                searcher: Some(searcher),
                thinking: false,
                analysis: None,
                clock: PersonClock::new(TimeControl::default()),
            }),
        }
    }

    /// The variant played.
    pub fn variant(&self) -> &Arc<Variant> {
        &self.variant
    }

    /// The engine's default budget.
    pub fn defaults(&self) -> EngineDefaults {
        self.defaults
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while the lock was held cannot leave the game half-changed (every change is
        // one call on the game), so a poisoned lock is still good to use.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs the person's clock from the game: it runs while the person is to move in a game
    /// that goes on (and the engine is not searching), and a flag that fell ends the game.
    fn tick(inner: &mut Inner, now: Instant) {
        if !inner.clock.is_set() {
            return;
        }
        let human = inner.game.human();
        let over = inner.game.outcome().is_some();
        let persons_turn = inner.game.position().side_to_move() == human;
        if over || !persons_turn || inner.thinking {
            inner.clock.pause(now);
            return;
        }
        inner.clock.start(now);
        if inner.clock.flagged(now) {
            inner.game.adjudicate(Outcome::Win {
                winner: human.opposite(),
                reason: WinReason::Time,
            });
            inner.clock.pause(now);
        }
    }

    fn state_of(&self, inner: &mut Inner) -> State {
        let now = Instant::now();
        Self::tick(inner, now);
        let clock = inner.clock.view(now);
        state::build(
            &mut inner.game,
            &self.info,
            Defaults {
                sims: self.defaults.sims,
                millis: self.defaults.millis,
            },
            inner.thinking,
            inner.analysis.as_ref(),
            clock,
        )
    }

    /// The state now.
    pub fn state(&self) -> State {
        let mut inner = self.lock();
        self.state_of(&mut inner)
    }

    /// Starts a new game from `start`, the person playing `human` under `clock`.
    pub fn new_game(
        &self,
        start: Position,
        human: Color,
        clock: TimeControl,
    ) -> Result<State, SessionError> {
        self.replace_game(Game::new(start, human), clock)
    }

    /// Loads a game record (see [`crate::record`]), to review or play on from its end under
    /// `clock`; nothing changes if any of it is wrong.
    pub fn load(&self, text: &str, clock: TimeControl) -> Result<State, SessionError> {
        let game = record::read(&self.variant, text)?;
        self.replace_game(game, clock)
    }

    fn replace_game(&self, game: Game, clock: TimeControl) -> Result<State, SessionError> {
        let mut inner = self.lock();
        if inner.thinking {
            return Err(SessionError::Busy);
        }
        inner.game = game;
        inner.clock = PersonClock::new(clock);
        inner.analysis = None;
        if let Some(s) = inner.searcher.as_mut() {
            s.clear();
        }
        Ok(self.state_of(&mut inner))
    }

    /// Plays the person's move, given as text; the text is checked against the legal moves.
    pub fn play_text(&self, text: &str) -> Result<State, PlayError> {
        let mut inner = self.lock();
        if inner.thinking {
            return Err(SessionError::Busy.into());
        }
        let now = Instant::now();
        Self::tick(&mut inner, now);
        if let Some(o) = inner.game.outcome() {
            let sentence = koma_engine::game::outcome_sentence(&o);
            if matches!(
                o,
                Outcome::Win {
                    reason: WinReason::Time,
                    ..
                }
            ) {
                return Err(SessionError::TimeOut(sentence).into());
            }
            return Err(SessionError::GameOver(sentence).into());
        }
        let mv = inner
            .game
            .position_mut()
            .parse_move(text)
            .map_err(PlayError::Move)?;
        // `tick` found the flag up at this same `now`: the move ends the person's turn.
        inner.clock.pause(now);
        inner.game.play(mv, Mover::Human);
        Ok(self.state_of(&mut inner))
    }

    /// Takes back `plies` moves, or (`None`) back to the person's previous turn.
    pub fn undo(&self, plies: Option<usize>) -> Result<State, SessionError> {
        let mut inner = self.lock();
        if inner.thinking {
            return Err(SessionError::Busy);
        }
        let played = inner.game.moves().len();
        let n = match plies {
            Some(n) if n > played => {
                return Err(SessionError::NothingToUndo(format!(
                    "cannot take back {n} plies: only {played} were played"
                )))
            }
            Some(n) => n,
            None => inner.game.plies_to_human_turn().ok_or_else(|| {
                SessionError::NothingToUndo("you have made no move to take back".into())
            })?,
        };
        inner.game.undo(n);
        let now = inner.game.moves().len();
        if inner.analysis.as_ref().is_some_and(|a| a.ply >= now) {
            inner.analysis = None;
        }
        Ok(self.state_of(&mut inner))
    }

    /// The engine searches the position within `limits` and plays its move.
    pub fn engine_move(&self, limits: Limits) -> Result<State, SessionError> {
        let (mut searcher, start, moves, pos) = {
            let mut inner = self.lock();
            if inner.thinking {
                return Err(SessionError::Busy);
            }
            if let Some(o) = inner.game.outcome() {
                return Err(SessionError::GameOver(koma_engine::game::outcome_sentence(
                    &o,
                )));
            }
            // The search is the engine's time, even when it plays the person's side.
            inner.clock.pause(std::time::Instant::now());
            inner.thinking = true;
            let searcher = inner
                .searcher
                .take()
                .unwrap_or_else(|| Searcher::new(self.model.clone(), self.options.clone()));
            (
                searcher,
                inner.game.start().clone(),
                inner.game.moves().to_vec(),
                inner.game.position().clone(),
            )
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let r = searcher.think(&start, &moves, &limits, None, None);
            (searcher, r)
        }));
        let mut inner = self.lock();
        inner.thinking = false;
        let thought: Result<Thought, SessionError> = match result {
            Ok((searcher, r)) => {
                inner.searcher = Some(searcher);
                r.map_err(|e| match e {
                    SearchError::GameOver => SessionError::GameOver(e.to_string()),
                })
            }
            Err(panic) => {
                let what = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_else(|| "unknown error".into());
                tracing::error!("search failed: {what}");
                Err(SessionError::Engine(what))
            }
        };
        let t = thought?;
        let ply = moves.len();
        inner.analysis = Some(Analysis::of(&pos, ply, &t));
        inner.game.play(t.best, Mover::Engine);
        Ok(self.state_of(&mut inner))
    }

    /// The game as a record.
    pub fn record(&self) -> Record {
        let mut inner = self.lock();
        Self::tick(&mut inner, Instant::now());
        let engine = format!("koma {} (step {})", self.info.path, self.info.step);
        record::write(&mut inner.game, &self.variant, &engine)
    }

    /// The position after `ply` moves (for a review), with the move that led to it.
    pub fn position_at(&self, ply: usize) -> Result<(BoardView, Option<PlayedMove>), SessionError> {
        let inner = self.lock();
        let played = inner.game.moves().len();
        if ply > played {
            return Err(SessionError::NoSuchPly { asked: ply, played });
        }
        Ok(state::position_at(&inner.game, ply))
    }

    /// The moves played so far (for tests).
    pub fn moves(&self) -> Vec<Move> {
        self.lock().game.moves().to_vec()
    }
}

/// A move that could not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The session refused it.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The text is malformed or not legal here.
    #[error(transparent)]
    Move(koma_rules::NotationError),
}
