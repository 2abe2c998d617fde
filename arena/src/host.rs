//! A match as a host of koma's game driver ([`koma_mcts::driver`]): the games of the plan
//! with their openings, each player's turn (a search, a baseline's move, an outside engine's
//! answer), and the record of every finished game.

use crate::alphabeta::AlphaBeta;
use crate::baseline::{greedy_move, random_move};
use crate::config::GamePlan;
use crate::error::ArenaError;
use crate::external::{ExternalEngine, Forfeit};
use crate::models::Mover;
use crate::opening::{play_opening, sub_seed};
use crate::progress::Progress;
use crate::report::GameRecord;
use koma_mcts::driver::{GameStart, Host, TreeSpec, Turn};
use koma_mcts::SearchResult;
use koma_rules::{Color, Move, Outcome, PieceValues, Position};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Seed stream of the players' own random choices.
const MOVE_STREAM: u64 = 2;
/// Seed stream of the search trees.
const TREE_STREAM: u64 = 3;

/// One game of the match in progress.
pub struct ArenaGame {
    index: usize,
    pair: usize,
    a_color: Color,
    rng: StdRng,
    opening: Vec<String>,
    moves: Vec<String>,
    /// Every move from the match's start position, for outside engines.
    played: Vec<Move>,
    /// Why an outside engine lost the game, when it did.
    forfeit: Option<String>,
}

impl ArenaGame {
    /// The player (0 = A, 1 = B) of `side`.
    fn slot(&self, side: Color) -> usize {
        usize::from(side != self.a_color)
    }
}

/// The match's side of the driver.
pub struct MatchHost<'a> {
    /// The games to play, in order.
    pub plan: &'a [GamePlan],
    /// Their openings.
    pub openings: &'a [Vec<Move>],
    /// Where every game starts.
    pub start: &'a Position,
    /// How A (0) and B (1) move.
    pub movers: &'a [Mover; 2],
    /// The outside engines of A and B.
    pub externals: &'a mut [Option<ExternalEngine>; 2],
    /// The classical searchers of A and B (their tables kept from move to move).
    pub searchers: [Option<AlphaBeta>; 2],
    /// The match seed.
    pub seed: u64,
    /// Adjudication cap.
    pub max_plies: Option<u32>,
    /// Piece values for the greedy baseline.
    pub values: PieceValues,
    /// The next game of the plan to start.
    pub next: usize,
    /// Finished games.
    pub records: Vec<GameRecord>,
    /// A's points so far.
    pub a_points: f64,
    /// Progress lines.
    pub progress: Progress,
    /// Keeps each game as it ends (the record file), before the match is over.
    pub journal: &'a mut dyn FnMut(&GameRecord) -> Result<(), ArenaError>,
}

impl MatchHost<'_> {
    /// The tree a model player searches with.
    fn tree_spec(&self, mover: &Mover, index: usize, slot: usize) -> Option<TreeSpec> {
        match *mover {
            Mover::Search {
                evaluator,
                ref config,
                ..
            } => Some(TreeSpec {
                config: config.clone(),
                seed: sub_seed(self.seed, TREE_STREAM, (2 * index + slot) as u64),
                evaluator,
            }),
            _ => None,
        }
    }
}

impl Host for MatchHost<'_> {
    type Game = ArenaGame;
    type Error = ArenaError;

    fn next_game(&mut self) -> Option<GameStart<ArenaGame>> {
        let plan = *self.plan.get(self.next)?;
        let opening = &self.openings[self.next];
        self.next += 1;
        let (pos, texts) = play_opening(self.start, opening);
        let game = ArenaGame {
            index: plan.index,
            pair: plan.opening,
            a_color: plan.a_color,
            rng: StdRng::seed_from_u64(sub_seed(self.seed, MOVE_STREAM, plan.index as u64)),
            opening: texts.clone(),
            moves: texts,
            played: opening.clone(),
            forfeit: None,
        };
        // Two players that are the same model with the same search share a tree, as one
        // player searching both sides would (self-play does the same).
        let specs = [0, 1].map(|slot| self.tree_spec(&self.movers[slot], plan.index, slot));
        let same = self.movers[0] == self.movers[1] && specs[0].is_some();
        let mut trees = Vec::new();
        let mut tree_of_slot = [None, None];
        for (slot, spec) in specs.into_iter().enumerate() {
            if let Some(spec) = spec {
                if same && slot == 1 {
                    tree_of_slot[1] = tree_of_slot[0];
                } else {
                    tree_of_slot[slot] = Some(trees.len());
                    trees.push(spec);
                }
            }
        }
        let a = plan.a_color.index();
        let mut tree_of = [None, None];
        tree_of[a] = tree_of_slot[0];
        tree_of[1 - a] = tree_of_slot[1];
        Some(GameStart {
            game,
            position: pos,
            trees,
            tree_of,
            max_plies: self.max_plies,
            resign: None,
        })
    }

    fn turn(&mut self, game: &mut ArenaGame, pos: &mut Position) -> Turn {
        let slot = game.slot(pos.side_to_move());
        let mut buf = Vec::new();
        let mv = match self.movers[slot] {
            Mover::Search { sims, .. } => {
                return Turn::Search {
                    simulations: sims,
                    noisy: false,
                    prove: true,
                }
            }
            Mover::External => {
                let answer = match self.externals[slot].as_mut() {
                    Some(engine) => engine.best_move(self.start, &game.played),
                    None => Err(Forfeit("the engine is not running".into())),
                };
                match answer {
                    Ok(m) => Some(m),
                    Err(Forfeit(why)) => {
                        let player = if slot == 0 { "A" } else { "B" };
                        tracing::warn!(game = game.index, player, "forfeit: {why}");
                        game.forfeit = Some(format!("{player} ({}) {why}", pos.side_to_move()));
                        return Turn::Forfeit;
                    }
                }
            }
            Mover::Random => {
                pos.legal_moves_into(&mut buf);
                random_move(&buf, &mut game.rng)
            }
            Mover::AlphaBeta(spec) => {
                let searcher =
                    self.searchers[slot].get_or_insert_with(|| spec.searcher(pos.variant()));
                searcher.search(pos, spec.limits()).map(|o| o.best)
            }
            Mover::Greedy => {
                pos.legal_moves_into(&mut buf);
                greedy_move(pos, &buf, &self.values, &mut game.rng)
            }
        };
        // A game whose side to move has no move is over by the rules before it is asked.
        mv.map_or(Turn::Forfeit, Turn::Play)
    }

    fn choose(&mut self, _game: &mut ArenaGame, _pos: &mut Position, r: &SearchResult) -> Move {
        r.best
    }

    fn played(&mut self, game: &mut ArenaGame, pos: &mut Position, mv: Move) {
        game.moves.push(pos.move_text(&mv));
        game.played.push(mv);
    }

    fn finished(
        &mut self,
        game: ArenaGame,
        _pos: &Position,
        outcome: Outcome,
    ) -> Result<(), ArenaError> {
        let record = GameRecord {
            index: game.index,
            pair: game.pair,
            a_color: game.a_color,
            opening: game.opening,
            moves: game.moves,
            outcome,
            forfeit: game.forfeit,
        };
        (self.journal)(&record)?;
        self.a_points += record.score_a();
        self.records.push(record);
        Ok(())
    }

    fn after_round(&mut self) -> Result<(), ArenaError> {
        self.progress.update(self.records.len(), self.a_points);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_engine::search::search_config;
    use koma_mcts::SearchConfig;
    use koma_rules::Variant;
    use std::sync::Arc;
    use std::time::Duration;

    /// A model player's options (`material=W`, `draw=D`, `relative=on|off`, `mopup=M`, `refute=N`,
    /// `cpuct=C`, `fpu=F`) reach its search tree; without them the tree has play's settings,
    /// and the other player's options do not leak into it.
    #[test]
    fn a_model_players_options_reach_its_search_tree() {
        let variant = Arc::new(Variant::load("hand-shogi").unwrap());
        let start = Position::start(&variant);
        let default = search_config(&variant, false, None);
        let search = |text: &str| match text.parse::<crate::PlayerSpec>().unwrap() {
            crate::PlayerSpec::Model(p) => Mover::Search {
                evaluator: 0,
                sims: 8,
                config: p.search_config(&variant),
            },
            other => panic!("{other:?}"),
        };
        let relative = if default.relative_material {
            "off"
        } else {
            "on"
        };
        let movers = [
            search(&format!(
                "model:x:material=0.3:draw=-0.3:relative={relative}:mopup=0.5:refute=0:cpuct=2.5:fpu=0.4"
            )),
            search("model:x"),
        ];
        let mut externals = [None, None];
        let host = MatchHost {
            plan: &[],
            openings: &[],
            start: &start,
            movers: &movers,
            externals: &mut externals,
            searchers: [None, None],
            seed: 1,
            max_plies: None,
            values: PieceValues::new(&variant),
            next: 0,
            records: Vec::new(),
            a_points: 0.0,
            progress: Progress::new(0, Duration::from_secs(60)),
            journal: &mut |_| Ok(()),
        };
        let a = host.tree_spec(&movers[0], 0, 0).unwrap().config;
        let b = host.tree_spec(&movers[1], 0, 1).unwrap().config;
        assert_eq!(b, default);
        assert_eq!(
            a,
            SearchConfig {
                material_weight: 0.3,
                draw_score: -0.3,
                relative_material: !default.relative_material,
                mop_up: 0.5,
                refute_nodes: 0,
                c_puct: 2.5,
                fpu_reduction: 0.4,
                ..default.clone()
            }
        );
        assert!(b.refute_nodes > 0);
        assert!(host.tree_spec(&Mover::Greedy, 0, 0).is_none());
    }
}
