//! Depth-first proof-number search (df-pn, Nagai 2002) for a forced win of the side to move:
//! the mate solver of shogi engines, for every variant the rules core runs.
//!
//! The attacker (the side to move at the root) plays only moves that win at once or threaten
//! to (checks, in each variant's own sense: [`Position::is_attacking_move`]); the defender
//! plays every legal move. A node is proven when the game ends there in the attacker's favour
//! (checkmate, no legal move, the last royal or sole objective piece taken, perpetual check by
//! the defender) and disproven when it ends otherwise or the attacker has no check left.
//! Proof and disproof numbers are kept in a transposition table keyed by the Zobrist hash,
//! which covers hands and the rule counters, so drops and the limits on checks in a row are
//! part of the search.
//!
//! Soundness: a proof never rests on anything but the rules' own outcomes. Where the search
//! cuts a line short (a position repeated on the current path, the depth limit) it counts the
//! line as disproven, which can only hide a mate, never invent one; such disproofs may sit in
//! the table and hide a mate reached another way (the graph-history problem), again never
//! inventing one.

use crate::color::Color;
use crate::mv::Move;
use crate::position::Position;
use std::collections::HashMap;
use std::time::Instant;

/// Proof or disproof number meaning "cannot be (dis)proven".
const INF: u32 = u32::MAX / 4;

/// What a mate search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MateAnswer {
    /// The side to move wins by force: this move starts it.
    Mate(Move),
    /// There is no forced win with checks within the depth limit.
    NoMate,
    /// The node budget ran out first.
    Unknown,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    pn: u32,
    dn: u32,
}

/// A child of a node: its move and the hash of the position it leads to.
#[derive(Debug, Clone, Copy)]
struct Child {
    mv: Move,
    hash: u64,
}

/// The df-pn solver. Reuse one for many searches: its table is cleared at each.
#[derive(Debug)]
pub struct MateSolver {
    table: HashMap<u64, Entry>,
    /// Nodes expanded in the last search.
    pub nodes: u64,
    max_nodes: u64,
    max_depth: u32,
    attacker: Color,
    /// Hashes of the positions on the current path (repetition cuts).
    path: Vec<u64>,
    /// When the current search must stop, if it has a time limit.
    deadline: Option<Instant>,
    /// Whether the deadline has passed.
    out_of_time: bool,
}

impl MateSolver {
    /// A solver that expands at most `max_nodes` nodes per search and looks at most
    /// `max_depth` plies deep.
    pub fn new(max_nodes: u64, max_depth: u32) -> MateSolver {
        MateSolver {
            table: HashMap::new(),
            nodes: 0,
            max_nodes,
            max_depth: max_depth.max(1),
            attacker: Color::Black,
            path: Vec::new(),
            deadline: None,
            out_of_time: false,
        }
    }

    /// [`MateSolver::solve`] that stops at `deadline` too (answering `Unknown` unless it has
    /// proven or disproven the win by then).
    pub fn solve_until(&mut self, pos: &mut Position, deadline: Option<Instant>) -> MateAnswer {
        self.deadline = deadline;
        let answer = self.solve(pos);
        self.deadline = None;
        answer
    }

    fn exhausted(&mut self) -> bool {
        if self.nodes >= self.max_nodes {
            return true;
        }
        if !self.out_of_time && self.nodes.is_multiple_of(256) {
            self.out_of_time = self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.out_of_time
    }

    /// Whether the side to move of `pos` (left as it was) can force a win.
    pub fn solve(&mut self, pos: &mut Position) -> MateAnswer {
        self.table.clear();
        self.nodes = 0;
        self.out_of_time = false;
        self.path.clear();
        self.attacker = pos.side_to_move();
        let root = pos.hash();
        let (pn, dn, _) = self.mid(pos, true, INF - 1, INF - 1, 0);
        debug_assert_eq!(pos.hash(), root);
        if pn == 0 {
            match self.proving_move(pos) {
                Some(m) => MateAnswer::Mate(m),
                None => MateAnswer::Unknown,
            }
        } else if dn == 0 {
            MateAnswer::NoMate
        } else {
            MateAnswer::Unknown
        }
    }

    /// At a proven attacker node: the child move whose position is proven.
    fn proving_move(&mut self, pos: &mut Position) -> Option<Move> {
        let legal = pos.legal_moves();
        if let Some(m) = pos.winning_capture(&legal) {
            return Some(m);
        }
        for m in legal {
            if !pos.is_attacking_move(m) {
                continue;
            }
            pos.make_move(m);
            let proven = self.attacker_wins_here(pos) == Some(true)
                || self.table.get(&pos.hash()).is_some_and(|e| e.pn == 0);
            pos.unmake_move();
            if proven {
                return Some(m);
            }
        }
        None
    }

    fn lookup(&self, hash: u64) -> (u32, u32) {
        self.table.get(&hash).map_or((1, 1), |e| (e.pn, e.dn))
    }

    fn store(&mut self, hash: u64, pn: u32, dn: u32) {
        self.table.insert(hash, Entry { pn, dn });
    }

    /// Whether the game is over here: `Some(true)` when the attacker has won, `Some(false)`
    /// when it is over otherwise, `None` while it goes on. Asks the rules with the legal moves
    /// already known not to be empty unless `no_moves`.
    fn attacker_wins_here(&self, pos: &mut Position) -> Option<bool> {
        pos.outcome_given(false)
            .map(|o| o.winner() == Some(self.attacker))
    }

    /// Whether the attacker has won where the side to move has no legal move (checkmate,
    /// or stalemate where the rules give it a result).
    fn attacker_wins_without_moves(&self, pos: &mut Position) -> bool {
        pos.outcome_given(true).map(|o| o.winner()) == Some(Some(self.attacker))
    }

    /// The children of a node, each as its move and the hash it leads to; for the attacker
    /// only winning and threatening moves. `Err(true)` / `Err(false)`: the node itself is
    /// proven / disproven (no children to search).
    fn children(&mut self, pos: &mut Position, or_node: bool) -> Result<Vec<Child>, bool> {
        if let Some(won) = self.attacker_wins_here(pos) {
            return Err(won);
        }
        let moves = if or_node && pos.only_checks_win_at_once() {
            // Nothing but a check can start a win here: the checks alone are generated.
            let mut checks = Vec::with_capacity(16);
            pos.legal_threats_into(&mut checks);
            if checks.is_empty() && !pos.has_legal_move() {
                return Err(self.attacker_wins_without_moves(pos));
            }
            checks
        } else {
            let mut legal = pos.legal_moves();
            if legal.is_empty() {
                return Err(self.attacker_wins_without_moves(pos));
            }
            if or_node {
                if pos.winning_capture(&legal).is_some() {
                    return Err(true);
                }
                let checks = crate::mate::threat::CheckTest::new(pos);
                legal.retain(|&m| pos.gives_threat(m, &checks));
            }
            legal
        };
        if moves.is_empty() {
            // The attacker has no check left.
            return Err(false);
        }
        Ok(moves
            .into_iter()
            .map(|mv| {
                pos.make_move(mv);
                let hash = pos.hash();
                pos.unmake_move();
                Child { mv, hash }
            })
            .collect())
    }

    /// Multiple iterative deepening at one node, until its numbers reach the thresholds.
    /// Returns its numbers and whether the line was cut (depth limit, repetition on the
    /// current path): a cut answer holds for this path only and is not stored.
    fn mid(
        &mut self,
        pos: &mut Position,
        or_node: bool,
        thpn: u32,
        thdn: u32,
        depth: u32,
    ) -> (u32, u32, bool) {
        let hash = pos.hash();
        if depth >= self.max_depth || self.path.contains(&hash) {
            // Too deep, or back on the current path: no progress for the attacker here.
            return (INF, 0, true);
        }
        let (pn, dn) = self.lookup(hash);
        if pn == 0 || dn == 0 || pn >= thpn || dn >= thdn {
            return (pn, dn, false);
        }
        self.nodes += 1;
        let children = match self.children(pos, or_node) {
            Ok(c) => c,
            Err(proven) => {
                let (pn, dn) = if proven { (0, INF) } else { (INF, 0) };
                self.store(hash, pn, dn);
                return (pn, dn, false);
            }
        };
        self.path.push(hash);
        // Answers of children whose lines were cut on this path.
        let mut cut: Vec<Option<(u32, u32)>> = vec![None; children.len()];
        let result = loop {
            // The node's numbers from its children's, and the best child with the runner-up.
            let (mut sum, mut best, mut best_i, mut second) = (0u32, INF, 0usize, INF);
            for (i, c) in children.iter().enumerate() {
                let (cpn, cdn) = cut[i].unwrap_or_else(|| self.lookup(c.hash));
                // OR node: pn = min child pn, dn = sum child dn; AND node the other way round.
                let (select, add) = if or_node { (cpn, cdn) } else { (cdn, cpn) };
                sum = sum.saturating_add(add).min(INF);
                if select < best {
                    second = best;
                    best = select;
                    best_i = i;
                } else if select < second {
                    second = select;
                }
            }
            let (pn, dn) = if or_node { (best, sum) } else { (sum, best) };
            if pn >= thpn || dn >= thdn || pn == 0 || dn == 0 || self.exhausted() {
                break (pn, dn);
            }
            let c = children[best_i];
            let (cpn, cdn) = self.lookup(c.hash);
            let (child_thpn, child_thdn) = if or_node {
                (
                    thpn.min(second.saturating_add(1)),
                    (thdn - dn).saturating_add(cdn).min(INF - 1),
                )
            } else {
                (
                    (thpn - pn).saturating_add(cpn).min(INF - 1),
                    thdn.min(second.saturating_add(1)),
                )
            };
            pos.make_move(c.mv);
            let (npn, ndn, was_cut) = self.mid(pos, !or_node, child_thpn, child_thdn, depth + 1);
            pos.unmake_move();
            if was_cut {
                cut[best_i] = Some((npn, ndn));
            }
        };
        self.path.pop();
        self.store(hash, result.0, result.1);
        (result.0, result.1, false)
    }
}

impl Position {
    /// Whether the side to move can force a win within `max_nodes` expanded nodes and
    /// `max_depth` plies ([`MateSolver`]).
    pub fn solve_mate(&mut self, max_nodes: u64, max_depth: u32) -> MateAnswer {
        MateSolver::new(max_nodes, max_depth).solve(self)
    }
}
