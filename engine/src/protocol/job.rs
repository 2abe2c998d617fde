//! A search running in the background while the protocol keeps reading commands, so that
//! `stop`, `?`, `isready` and `ping` are answered during a search.

use crate::search::{Limits, Progress, SearchError, Searcher, SharedModel, Thought};
use koma_rules::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// What the search thread calls while it runs and when it ends.
pub struct Callbacks {
    /// Called about once a second with the search so far.
    pub progress: Box<dyn FnMut(&Progress) + Send>,
    /// Called with the result, unless the search was cancelled.
    pub done: Box<dyn FnOnce(Result<Thought, SearchError>) + Send>,
}

/// The search settings a GUI may change between searches (`Contempt`, `Tactics`): each
/// search takes them as they stand when it starts, and a search under way keeps its own.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GuiSettings {
    /// What a draw is worth to the engine (`SearchConfig::draw_score`).
    pub draw_score: f32,
    /// Plies of the tactics check of the move chosen (`SearchConfig::tactics_depth`).
    pub tactics_depth: u32,
}

/// The engine's searcher and the search under way, if any.
pub struct Jobs {
    searcher: Arc<Mutex<Searcher<SharedModel>>>,
    running: Option<Running>,
}

struct Running {
    stop: Arc<AtomicBool>,
    cancel: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

impl Jobs {
    /// Jobs searching with `searcher`.
    pub fn new(searcher: Searcher<SharedModel>) -> Jobs {
        Jobs {
            searcher: Arc::new(Mutex::new(searcher)),
            running: None,
        }
    }

    /// Starts searching `start` + `moves` (after ending any search under way by cancelling it),
    /// choosing among `root_moves` when given, with the GUI's `settings` (given per search:
    /// GUIs change options at any time, and a search under way keeps its own).
    pub fn start(
        &mut self,
        start: Position,
        moves: Vec<Move>,
        root_moves: Option<Vec<Move>>,
        limits: Limits,
        settings: GuiSettings,
        cb: Callbacks,
    ) {
        self.cancel();
        let stop = Arc::new(AtomicBool::new(false));
        let cancel = Arc::new(AtomicBool::new(false));
        let searcher = self.searcher.clone();
        let (stop2, cancel2) = (stop.clone(), cancel.clone());
        let handle = std::thread::Builder::new()
            .name("koma-search".into())
            .spawn(move || {
                let Callbacks { mut progress, done } = cb;
                let result = {
                    let mut s = searcher.lock().unwrap_or_else(|p| p.into_inner());
                    s.set_draw_score(settings.draw_score);
                    s.set_tactics_depth(settings.tactics_depth);
                    s.think_among(
                        &start,
                        &moves,
                        root_moves.as_deref(),
                        &limits,
                        Some(&stop2),
                        Some(&mut *progress),
                    )
                };
                // An infinite search answers only when told to stop, even when it has
                // nothing left to search (a proven win, a single move).
                while limits.is_infinite() && !stop2.load(Ordering::SeqCst) {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                if !cancel2.load(Ordering::SeqCst) {
                    done(result);
                }
            })
            .expect("spawn the search thread");
        self.running = Some(Running {
            stop,
            cancel,
            handle,
        });
    }

    /// Ends the search under way now; its result is still reported (`?`, `stop`).
    pub fn stop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::SeqCst);
            let _ = r.handle.join();
        }
    }

    /// Ends the search under way and drops its result (the game changed under it).
    pub fn cancel(&mut self) {
        if let Some(r) = self.running.take() {
            r.cancel.store(true, Ordering::SeqCst);
            r.stop.store(true, Ordering::SeqCst);
            let _ = r.handle.join();
        }
    }

    /// Threads searching each move, from the next search on (the one under way is
    /// cancelled).
    pub fn set_threads(&mut self, threads: usize) {
        self.cancel();
        self.searcher
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .set_threads(threads);
    }

    /// Forgets the search tree (a new game).
    pub fn new_game(&mut self) {
        self.cancel();
        self.searcher
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
    }
}

impl Drop for Jobs {
    fn drop(&mut self) {
        self.cancel();
    }
}
