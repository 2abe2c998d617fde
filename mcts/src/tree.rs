//! The search tree: an arena of nodes and edges, with the gather/apply halves of a simulation.

use crate::config::SearchConfig;
use crate::evaluator::{Evaluation, Evaluator};
use crate::gumbel::GumbelRoot;
use crate::mop_up::MopUp;
use crate::node::{Edge, EdgeStats, Node, State, NONE};
use crate::noise::dirichlet;
use crate::refute::{Check, Refutations, REFUTE_MIN_VISITS};
use crate::tactics::{Tactics, Verdict};
use koma_rules::mate::{Budget, MateAnswer, MateSolver};
use koma_rules::{Color, Move, Outcome, PieceValues, Position};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// What a leaf evaluation must be given back with.
#[derive(Debug)]
pub struct Ticket {
    node: u32,
    path: Vec<u32>,
    /// The leaf's capture-resolved material balance for its side to move.
    material: f32,
}

/// The result of one gather.
#[derive(Debug)]
pub enum Gathered<R> {
    /// A leaf to evaluate: give its evaluation back with [`Tree::apply`].
    Leaf(Ticket, R),
    /// The simulation ended in a finished game and is already backed up.
    Terminal,
    /// The walk ran into a leaf already waiting for evaluation; nothing was changed.
    Collision,
}

/// A search tree for one game.
#[derive(Debug)]
pub struct Tree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) edges: Vec<Edge>,
    /// The statistics of the edges selection has reached (see [`Node::first_stat`]).
    pub(crate) stats: Vec<EdgeStats>,
    pub(crate) root: u32,
    pub(crate) cfg: SearchConfig,
    pub(crate) rng: StdRng,
    /// Gumbel sequential-halving state of the current search, when Gumbel is on.
    pub(crate) gumbel: Option<GumbelRoot>,
    /// Whether this search adds exploration noise at the root.
    noisy: bool,
    noise_applied: bool,
    /// Simulations started at the root in the current search.
    pub(crate) root_sims: u32,
    /// Simulations the current search will run (Gumbel plans its phases with it).
    pub(crate) budget: u32,
    /// A move that wins at once from the root, when the mate check found one.
    pub(crate) root_win: Option<Move>,
    /// Piece values of the variant searched (made at the first leaf).
    values: Option<PieceValues>,
    /// The side to move at the root of the current search and its material difference, from
    /// which leaves count their material (`SearchConfig::relative_material`), with the
    /// mop-up term when one side is far ahead (`SearchConfig::mop_up`); taken at the search's
    /// first walk.
    material_centre: Option<(Color, i64, Option<MopUp>)>,
    /// The moves the current root may choose from, when the caller restricted them.
    root_moves: Option<Vec<Move>>,
    /// The root's value when every move from it leads to a decided position (MCTS-solver)
    /// and none wins: the best of them.
    pub(crate) root_decided: Option<f32>,
    /// The root's proof-number mate searcher, kept for its table's memory.
    solver: Option<MateSolver>,
    /// The checks of the root's preferred moves against the opponent's forced mates.
    pub(crate) refutations: Refutations,
    /// The tactics check of the finished search's choice (`SearchConfig::tactics_depth`).
    tactics: Tactics,
    /// [`Tree::compact`]'s buffers: each node's new index, and the live edge and statistics
    /// ranges.
    compact_map: Vec<u32>,
    compact_ranges: Vec<(u32, u32, u32)>,
    /// [`Tree::gather`]'s buffer for a new leaf's legal moves.
    leaf_moves: Vec<Move>,
}

/// Plies the root's proof-number mate search looks ahead.
const ROOT_MATE_PLIES: u32 = 15;

impl Tree {
    /// An empty tree.
    pub fn new(cfg: SearchConfig, seed: u64) -> Tree {
        let mut t = Tree {
            nodes: Vec::new(),
            edges: Vec::new(),
            stats: Vec::new(),
            root: 0,
            cfg,
            rng: StdRng::seed_from_u64(seed),
            gumbel: None,
            noisy: false,
            noise_applied: false,
            root_sims: 0,
            budget: 0,
            root_win: None,
            values: None,
            material_centre: None,
            root_moves: None,
            root_decided: None,
            solver: None,
            refutations: Refutations::default(),
            tactics: Tactics::default(),
            compact_map: Vec::new(),
            compact_ranges: Vec::new(),
            leaf_moves: Vec::new(),
        };
        t.clear();
        t
    }

    /// Forgets everything; the arenas keep their memory for the next search.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.edges.clear();
        self.stats.clear();
        self.nodes.push(Node::new());
        self.root = 0;
        self.gumbel = None;
        self.noise_applied = false;
        self.root_win = None;
        self.root_moves = None;
        self.root_decided = None;
        self.material_centre = None;
        self.refutations.new_root();
        self.tactics.new_root();
    }

    /// Sets what a draw is worth to the searching side (`SearchConfig::draw_score`). The
    /// tree keeps its statistics: the score is weighed in when moves are selected.
    pub fn set_draw_score(&mut self, draw_score: f32) {
        self.cfg.draw_score = draw_score;
    }

    /// Sets the plies of the tactics check of each search's choice
    /// (`SearchConfig::tactics_depth`, 0 off), from the next search's end on.
    pub fn set_tactics_depth(&mut self, depth: u32) {
        self.cfg.tactics_depth = depth;
    }

    /// Lets the search of the current root choose only among `moves` (UCI's `searchmoves`, or
    /// moves a GUI cannot show); `None` lifts the restriction. Moves that are not legal at the
    /// root are ignored; if none is, the root keeps all its moves. The restriction ends when
    /// the root changes. Call it before [`Tree::begin`].
    pub fn restrict_root(&mut self, moves: Option<Vec<Move>>) {
        self.root_moves = moves;
    }

    /// Starts a search of `budget` simulations from the current root; `noisy` adds exploration
    /// (Dirichlet noise under PUCT, Gumbel sampling under Gumbel) as self-play wants.
    pub fn begin(&mut self, budget: u32, noisy: bool) {
        self.budget = budget.max(1);
        self.noisy = noisy;
        self.root_sims = 0;
        self.gumbel = None;
        self.noise_applied = false;
        self.material_centre = None;
        self.refutations.new_search();
        self.tactics.new_root();
        let root = self.root as usize;
        if self.nodes[root].state == State::Expanded {
            // Reused root: restore the network priors before new noise.
            self.make_all_stats(self.root);
            let (a, b) = self.edge_range(self.root);
            let (s, _) = self.stat_range(self.root);
            for (e, st) in self.edges[a..b].iter_mut().zip(&self.stats[s..]) {
                e.prior = st.raw_prior;
            }
            self.prepare_root();
        }
    }

    /// Number of completed visits of the root.
    pub fn root_visits(&self) -> u32 {
        self.nodes[self.root as usize].n
    }

    /// Whether the root has been evaluated.
    pub fn root_expanded(&self) -> bool {
        self.nodes[self.root as usize].state == State::Expanded
    }

    /// Nodes in the arena (for memory accounting).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree holds only an unexpanded root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1 && self.nodes[0].state == State::New
    }

    /// The piece values of the variant searched, made the first time they are needed.
    fn piece_values(&mut self, pos: &Position) -> &PieceValues {
        self.values
            .get_or_insert_with(|| PieceValues::new(pos.variant()))
    }

    pub(crate) fn edge_range(&self, node: u32) -> (usize, usize) {
        let n = &self.nodes[node as usize];
        (n.first_edge as usize, (n.first_edge + n.n_edges) as usize)
    }

    /// The range of `node`'s statistics in the statistics arena: those of its first edges.
    pub(crate) fn stat_range(&self, node: u32) -> (usize, usize) {
        let n = &self.nodes[node as usize];
        (n.first_stat as usize, (n.first_stat + n.n_stats) as usize)
    }

    /// Where the statistics of edge `e` (an index into the edge arena) of `node` are; the
    /// edge must have them (selection has walked it, or `node` is the root).
    #[inline]
    pub(crate) fn walked(&self, node: u32, e: usize) -> usize {
        let n = &self.nodes[node as usize];
        let i = e - n.first_edge as usize;
        debug_assert!(
            i < n.n_stats as usize,
            "edge {e} of node {node} has no statistics"
        );
        n.first_stat as usize + i
    }

    /// The statistics of edge `e` (an index into the edge arena) of `node`: those of an
    /// unvisited edge where it has none yet.
    pub(crate) fn stat(&self, node: u32, e: usize) -> EdgeStats {
        let n = &self.nodes[node as usize];
        let i = e - n.first_edge as usize;
        if i < n.n_stats as usize {
            self.stats[n.first_stat as usize + i]
        } else {
            EdgeStats::unvisited(self.edges[e].prior)
        }
    }

    /// Gives `node`'s edges up to `e` (an index into the edge arena) their statistics, and
    /// returns where `e`'s are. A node's statistics stay together: when they must grow and do
    /// not end the arena, they move to its end, at least doubled so that a node moves a few
    /// times at most (the place they left is taken back by [`Tree::compact`]). Walks under way
    /// find them through the node, so a move does not lose their visits.
    fn make_stats(&mut self, node: u32, e: usize) -> usize {
        let n = &self.nodes[node as usize];
        let (first_edge, n_edges) = (n.first_edge as usize, n.n_edges as usize);
        let (first, have) = (n.first_stat as usize, n.n_stats as usize);
        let i = e - first_edge;
        if i < have {
            return first + i;
        }
        let want = (i + 1).max(2 * have).max(4).min(n_edges);
        let at = if have > 0 && first + have == self.stats.len() {
            first
        } else {
            let at = self.stats.len();
            self.stats.extend_from_within(first..first + have);
            at
        };
        let heads = &self.edges[first_edge + have..first_edge + want];
        self.stats
            .extend(heads.iter().map(|h| EdgeStats::unvisited(h.prior)));
        let n = &mut self.nodes[node as usize];
        n.first_stat = at as u32;
        n.n_stats = want as u32;
        at + i
    }

    /// Gives every edge of `node` its statistics: the root's are all read.
    fn make_all_stats(&mut self, node: u32) {
        let (a, b) = self.edge_range(node);
        if b > a {
            self.make_stats(node, b - 1);
        }
    }

    /// Walks to a leaf; see [`Gathered`]. `pos` must be the root position and is left as it was.
    pub fn gather<E: Evaluator>(&mut self, pos: &mut Position, eval: &E) -> Gathered<E::Request> {
        if (self.cfg.relative_material || self.cfg.mop_up > 0.0)
            && self.cfg.material_weight > 0.0
            && self.material_centre.is_none()
        {
            // `pos` is the root here: the search's first walk fixes its centre.
            let side = pos.side_to_move();
            let weight = self.cfg.mop_up;
            let values = self.piece_values(pos);
            let difference = values.difference(pos, side);
            let mop_up = MopUp::at_root(pos, values, difference, weight);
            // Counted from level unless asked, or far ahead where the mop-up needs the centre.
            let centre = if self.cfg.relative_material || mop_up.is_some() {
                difference
            } else {
                0
            };
            self.material_centre = Some((side, centre, mop_up));
        }
        let mut path: Vec<u32> = Vec::new();
        // Where the statistics of the path's last edge are.
        let mut last_stat = None;
        let mut node = self.root;
        loop {
            match self.nodes[node as usize].state {
                State::New => break,
                State::Pending => {
                    self.unwind(pos, &path, None);
                    return Gathered::Collision;
                }
                State::Terminal(v) => {
                    self.unwind(pos, &path, Some(v));
                    return Gathered::Terminal;
                }
                State::Expanded => {
                    let e = if node == self.root {
                        self.root_sims += 1;
                        self.select_root()
                    } else {
                        self.select_puct(node, self.draw_at(path.len()))
                    };
                    path.push(e as u32);
                    let nd = &mut self.nodes[node as usize];
                    nd.tried = nd.tried.max((e + 1) as u32 - nd.first_edge);
                    let s = self.make_stats(node, e);
                    last_stat = Some(s);
                    pos.make_move(self.edges[e].mv);
                    let next = self.nodes.len() as u32;
                    let st = &mut self.stats[s];
                    st.inflight += 1;
                    if st.child == NONE {
                        st.child = next;
                        self.nodes.push(Node::new());
                    }
                    node = self.stats[s].child;
                }
            }
        }
        if node == self.root {
            self.root_sims += 1;
        }
        // One buffer for every leaf's moves: a leaf of the large boards has some 250, and a
        // new vector each time cost an allocation and, past 256, a reallocation.
        let mut moves = std::mem::take(&mut self.leaf_moves);
        pos.legal_moves_into(&mut moves);
        let gathered = self.leaf(pos, path, node, last_stat, eval, &moves);
        self.leaf_moves = moves;
        gathered
    }

    /// The end of [`Tree::gather`] at the new node `node`, reached by `path` (its last
    /// edge's statistics at `last_stat`), whose legal moves are `moves`: a decided position
    /// is backed up, any other made a pending leaf.
    fn leaf<E: Evaluator>(
        &mut self,
        pos: &mut Position,
        path: Vec<u32>,
        node: u32,
        last_stat: Option<usize>,
        eval: &E,
        moves: &[Move],
    ) -> Gathered<E::Request> {
        if let Some(o) = pos.outcome_given(moves.is_empty()) {
            let v = terminal_value(o, pos);
            self.set_terminal(node, last_stat, v);
            self.unwind(pos, &path, Some(v));
            return Gathered::Terminal;
        }
        if self.cfg.mate_check {
            let mut budget = Budget::new(self.cfg.mate_budget);
            if let Some(win) = pos.forced_win(moves, self.cfg.mate_plies, &mut budget) {
                if node == self.root {
                    self.root_win = Some(win);
                } else {
                    // The side to move here wins by force: a proven win, no evaluation needed.
                    self.set_terminal(node, last_stat, 1.0);
                    self.unwind(pos, &path, Some(1.0));
                    return Gathered::Terminal;
                }
            }
        }
        let material = if self.cfg.material_weight > 0.0 {
            let side = pos.side_to_move();
            let (centre, mop_up) = match self.material_centre {
                Some((c, d, m)) if c == side => (d, m),
                Some((_, d, m)) => (-d, m),
                None => (0, None),
            };
            let depth = self.cfg.material_depth;
            let values = self.piece_values(pos);
            // The leader's approach counts as material: moving the centre down by it is the
            // same as adding it to the difference.
            let centre = centre as f32 - mop_up.map_or(0.0, |m| m.leaf_term(pos, values, side));
            if depth == 0 {
                values.balance_about(pos, side, centre)
            } else {
                values.quick_balance_about(pos, moves, centre)
            }
        } else {
            0.0
        };
        let request = eval.prepare(pos, moves);
        let first = self.edges.len() as u32;
        self.edges
            .extend(moves.iter().map(|&mv| Edge { mv, prior: 0.0 }));
        let n = &mut self.nodes[node as usize];
        n.first_edge = first;
        n.n_edges = moves.len() as u32;
        n.state = State::Pending;
        for _ in 0..path.len() {
            pos.unmake_move();
        }
        Gathered::Leaf(
            Ticket {
                node,
                path,
                material,
            },
            request,
        )
    }

    /// Gives a leaf its evaluation: expands it and backs its value up the path.
    pub fn apply(&mut self, ticket: Ticket, eval: Evaluation) {
        let node = ticket.node;
        let (a, b) = self.edge_range(node);
        let sum: f32 = eval.priors.iter().take(b - a).sum();
        let uniform = 1.0 / (b - a).max(1) as f32;
        for (i, e) in self.edges[a..b].iter_mut().enumerate() {
            let p = match eval.priors.get(i) {
                Some(&p) if sum > 0.0 && p.is_finite() => p / sum,
                _ => uniform,
            };
            e.prior = p;
        }
        if node != self.root {
            // No walk has passed this leaf yet, so it has no statistics to keep in step.
            debug_assert_eq!(self.nodes[node as usize].n_stats, 0);
            // Most likely first, for `select_puct`'s early stop; a stable sort keeps the
            // generation order among equal priors, so ties are broken as before.
            let edges = &mut self.edges[a..b];
            if !Edge::sorted_by_prior(edges) {
                edges.sort_by(Edge::by_prior);
            }
        }
        let w = self.cfg.material_weight.clamp(0.0, 1.0);
        let v = (1.0 - w) * eval.value() + w * ticket.material;
        let d = (1.0 - w) * eval.wdl[1];
        let n = &mut self.nodes[node as usize];
        n.state = State::Expanded;
        n.net_value = v;
        n.net_draw = d;
        if node == self.root {
            self.prepare_root();
        }
        // An evaluated leaf is not decided, so no node above it can become decided now: each
        // has this leaf's line undecided, and a move into a lost position would have decided
        // it when that position was proven. The solver's walk, which reads every move of the
        // leaf's parent, is left to the backups of decided leaves.
        self.backup(&ticket.path, v, d, false);
    }

    /// Undoes the moves of a walk; with a value, backs it up first.
    fn unwind(&mut self, pos: &mut Position, path: &[u32], value: Option<f32>) {
        match value {
            Some(v) => self.backup(path, v, terminal_draw(v), true),
            None => {
                let mut node = self.root;
                for &e in path {
                    let s = self.walked(node, e as usize);
                    self.stats[s].inflight -= 1;
                    node = self.stats[s].child;
                }
            }
        }
        for _ in 0..path.len() {
            pos.unmake_move();
        }
    }

    /// Backs up `v`, the leaf's value for its side to move, and `d`, its draw probability,
    /// along `path` (edges from the root); with `solve`, carries a decided leaf's result up
    /// ([`Tree::solve_up`]).
    fn backup(&mut self, path: &[u32], v: f32, d: f32, solve: bool) {
        // Values alternate sides: the last edge's mover gets -v, and so every other edge
        // counted from the leaf end.
        let mut value = if path.len() % 2 == 1 { -v } else { v };
        let mut node = self.root;
        self.nodes[node as usize].n += 1;
        for &e in path {
            let s = self.walked(node, e as usize);
            let st = &mut self.stats[s];
            st.n += 1;
            st.inflight -= 1;
            st.w += value;
            st.d += d;
            value = -value;
            node = st.child;
            self.nodes[node as usize].n += 1;
        }
        if solve {
            self.solve_up(path);
        }
    }

    /// MCTS-solver: carries proven results up the path of the last simulation. A node with a
    /// move to a position lost for the opponent is won; a node all of whose moves lead to
    /// decided positions is decided with the best of them for its side. Decided nodes become
    /// terminal, so the search stops spending simulations below them; at the root a proven
    /// win becomes the move to play.
    fn solve_up(&mut self, path: &[u32]) {
        // The node each edge of the path leaves, and where the edge's statistics are.
        let mut walk = Vec::with_capacity(path.len());
        let mut node = self.root;
        for &e in path {
            let s = self.walked(node, e as usize);
            walk.push((node, s));
            node = self.stats[s].child;
        }
        for i in (0..path.len()).rev() {
            let parent = walk[i].0;
            let (a, _) = self.edge_range(parent);
            let (s, t) = self.stat_range(parent);
            let mut best: Option<(f32, usize)> = None;
            // An edge without statistics has no child, so nothing is decided below it.
            let mut all_decided = t - s == self.nodes[parent as usize].n_edges as usize;
            for (j, st) in self.stats[s..t].iter().enumerate() {
                let child = st.child;
                match (child != NONE).then(|| self.nodes[child as usize].state) {
                    Some(State::Terminal(v)) => {
                        if best.is_none_or(|(bv, _)| -v > bv) {
                            best = Some((-v, a + j));
                        }
                    }
                    _ => all_decided = false,
                }
            }
            let decided = match best {
                Some((v, j)) if v >= 1.0 => Some((1.0, j)),
                Some((v, j)) if all_decided => Some((v, j)),
                _ => None,
            };
            let Some((v, j)) = decided else {
                return;
            };
            if parent == self.root {
                if v >= 1.0 {
                    self.root_win = Some(self.edges[j].mv);
                } else {
                    self.root_decided = Some(v);
                }
                return;
            }
            if matches!(self.nodes[parent as usize].state, State::Terminal(_)) {
                return;
            }
            self.set_terminal(parent, Some(walk[i - 1].1), v);
        }
    }

    /// Makes `node` terminal with value `v`, and copies the result to `edge`, where the
    /// statistics of the edge into it are (none for the root).
    fn set_terminal(&mut self, node: u32, edge: Option<usize>, v: f32) {
        self.nodes[node as usize].state = State::Terminal(v);
        if let Some(s) = edge {
            debug_assert_eq!(self.stats[s].child, node);
            self.stats[s].set_terminal(v);
        }
    }

    /// Takes the check of the move the search would play now ([`Tree::chosen_root_edge`])
    /// against the opponent's forced mates (`SearchConfig::refute_nodes`, see `refute.rs`),
    /// if it has `min_visits` visits or more, was not checked at this root and no other check
    /// is out. `last`: the search has finished (the checks kept for its choice may be used).
    /// Run it with [`Check::run`] on the root position and hand it back with
    /// [`Tree::finish_refutation`].
    fn claim_refutation(&mut self, min_visits: u32, last: bool) -> Option<Check> {
        let nodes = self.cfg.refute_nodes;
        if nodes == 0
            || !self.refutations.may_check(last)
            || self.root_win.is_some()
            || self.root_decided.is_some()
            || !self.root_expanded()
        {
            return None;
        }
        let j = self.chosen_root_edge()?;
        let mv = self.edges[j].mv;
        let EdgeStats { n, proven, .. } = self.stat(self.root, j);
        if n < min_visits || proven == -1 {
            return None;
        }
        self.refutations.claim(mv, nodes, last)
    }

    /// [`Tree::claim_refutation`] between rounds of a search, once the move has enough
    /// visits for the preference to mean something.
    pub(crate) fn claim_refutation_during_search(&mut self) -> Option<Check> {
        self.claim_refutation(REFUTE_MIN_VISITS, false)
    }

    /// Takes back a check that has run (`lost`: its answer); the move, if still a root
    /// move and not already lost, is marked lost. Returns whether it was.
    pub(crate) fn finish_refutation(&mut self, check: Check, lost: bool) -> bool {
        let mv = check.mv;
        self.refutations.finish(check, lost);
        if !lost {
            return false;
        }
        let (a, b) = self.edge_range(self.root);
        let Some(j) = (a..b).find(|&j| self.edges[j].mv == mv) else {
            return false;
        };
        let st = self.stat(self.root, j);
        if st.proven == -1 {
            return false;
        }
        tracing::debug!(mv = ?mv, visits = st.n, "root move refuted by a forced mate");
        self.mark_root_move_lost(j);
        true
    }

    /// Claims, runs and hands back one check (see [`Tree::claim_refutation`]); `pos` is the
    /// root position, left as it was. Returns whether a move was proven lost.
    fn refute_chosen(&mut self, pos: &mut Position, min_visits: u32, last: bool) -> bool {
        let Some(mut check) = self.claim_refutation(min_visits, last) else {
            return false;
        };
        let lost = check.run(pos);
        self.finish_refutation(check, lost)
    }

    /// Stops the current search's refutation checks (call it after the search begins; a new
    /// search has no clock until given one): those made during it at `during`, when its
    /// simulations stop, so that none started late runs into the time kept for the end, and
    /// those of the finished search's choice at `last`, the move's end.
    pub fn limit_refutations(
        &mut self,
        during: Option<std::time::Instant>,
        last: Option<std::time::Instant>,
    ) {
        self.refutations.set_deadlines(during, last);
    }

    /// Checks the move the search would play between rounds of a search, once it has enough
    /// visits for the preference to mean something (see `refute.rs`).
    pub fn refute_during_search(&mut self, pos: &mut Position) {
        self.refute_chosen(pos, REFUTE_MIN_VISITS, false);
    }

    /// Checks the move the finished search would play, and the next in turn while one is
    /// proven lost, within the search's checks (and clock, [`Tree::limit_refutations`]); then
    /// runs the tactics check ([`Tree::check_tactics`]) and, where it put another move in
    /// place of the choice, checks that move the same way: [`Tree::result`] then returns a
    /// move the checks did not refute, where one is left and the checks did not run out.
    pub fn refute_final(&mut self, pos: &mut Position) {
        while self.refute_chosen(pos, 0, true) {}
        self.check_tactics(pos);
        if self.tactics.choice.is_some() {
            // The move put in place of the search's choice is checked for the opponent's
            // mates too; proven lost, it gives way to the choice again.
            while self.refute_chosen(pos, 0, true) {}
        }
    }

    /// The tactics check of the finished search's choice (`SearchConfig::tactics_depth`,
    /// `tactics.rs`), within the clock of the refutation checks: where it finds the choice
    /// loses material, [`Tree::chosen_root_edge`] returns the move it puts in its place.
    /// Skipped where a forced result is known at the root.
    fn check_tactics(&mut self, pos: &mut Position) {
        self.tactics.new_root();
        let depth = self.cfg.tactics_depth;
        if depth == 0 || self.root_win.is_some() || self.root_decided.is_some() {
            return;
        }
        let Some(chosen) = self.chosen_root_edge() else {
            return;
        };
        let (a, b) = self.edge_range(self.root);
        let st = |j: usize| self.stat(self.root, j);
        // The search's other moves in its order of preference: visits, then the prior.
        let mut others: Vec<usize> = (a..b)
            .filter(|&j| j != chosen && st(j).proven != -1)
            .collect();
        others.sort_by(|&x, &y| {
            let (ex, ey) = (st(x), st(y));
            ey.n.cmp(&ex.n).then(ey.raw_prior.total_cmp(&ex.raw_prior))
        });
        let candidates: Vec<Move> = std::iter::once(chosen)
            .chain(others)
            .map(|j| self.edges[j].mv)
            .collect();
        let deadline = self.refutations.last_deadline();
        let margin = self.cfg.tactics_margin;
        if let Verdict::Replace(mv) = self
            .tactics
            .check(pos, &candidates, depth, margin, deadline)
        {
            self.tactics.choice = Some(mv);
        }
    }

    /// Index of the root edge the search would play now: the proven win; else the tactics
    /// check's replacement of the finished search's choice, unless proven lost; else Gumbel's
    /// sequential-halving winner or, under PUCT, the most visits (then the highest prior);
    /// never a move proven lost while one that is not is left (the most visits among those).
    /// `None` when the root has no move.
    pub(crate) fn chosen_root_edge(&self) -> Option<usize> {
        let (a, b) = self.edge_range(self.root);
        let st = |j: usize| self.stat(self.root, j);
        if let Some(w) = self.root_win {
            if let Some(j) = (a..b).find(|&j| self.edges[j].mv == w) {
                return Some(j);
            }
        }
        if let Some(t) = self.tactics.choice {
            if let Some(j) = (a..b).find(|&j| self.edges[j].mv == t && st(j).proven != -1) {
                return Some(j);
            }
        }
        let most_visits = |lost_too: bool| {
            (a..b)
                .filter(|&j| lost_too || st(j).proven != -1)
                .max_by(|&x, &y| {
                    let (ex, ey) = (st(x), st(y));
                    ex.n.cmp(&ey.n).then(ex.raw_prior.total_cmp(&ey.raw_prior))
                })
        };
        if let Some(g) = &self.gumbel {
            let (stats, net_value) = self.root_stats();
            let choice = a + g.final_choice(stats, net_value, &self.cfg);
            if st(choice).proven != -1 {
                return Some(choice);
            }
        }
        most_visits(false).or_else(|| most_visits(true))
    }

    /// Marks root edge `j` as a move that loses by force: its child, where it has one, is a
    /// won position for the opponent, and the root is decided where every move now is. A
    /// move never visited has no child node: only its edge says it loses, which keeps
    /// selection and the choice of the move away from it.
    pub(crate) fn mark_root_move_lost(&mut self, j: usize) {
        let s = self.walked(self.root, j);
        let child = self.stats[s].child;
        if child == NONE {
            self.stats[s].proven = -1;
            return;
        }
        self.set_terminal(child, Some(s), 1.0);
        self.solve_up(&[j as u32]);
    }

    /// Runs the proof-number mate search at the root (`root_mate_nodes`, and until
    /// `deadline` when given); a forced win it proves becomes the move to play. `pos` is the
    /// root position, left as it was.
    pub fn prove_root(&mut self, pos: &mut Position, deadline: Option<std::time::Instant>) {
        if self.cfg.root_mate_nodes == 0 || self.root_win.is_some() {
            return;
        }
        let solver = self
            .solver
            .get_or_insert_with(|| MateSolver::new(self.cfg.root_mate_nodes, ROOT_MATE_PLIES));
        if let MateAnswer::Mate(m) = solver.solve_until(pos, deadline) {
            let allowed = self.root_moves.as_ref().is_none_or(|r| r.contains(&m));
            if allowed {
                self.root_win = Some(m);
            }
        }
    }

    /// Noise or Gumbel sampling for a freshly expanded or reused root.
    fn prepare_root(&mut self) {
        self.make_all_stats(self.root);
        self.apply_root_restriction();
        let (a, b) = self.edge_range(self.root);
        if b == a {
            return;
        }
        let (s, t) = self.stat_range(self.root);
        if self.cfg.gumbel {
            self.gumbel = Some(GumbelRoot::new(
                &self.stats[s..t],
                &self.cfg,
                self.budget,
                self.root_sims,
                self.noisy,
                &mut self.rng,
            ));
        } else if self.noisy && !self.noise_applied && self.cfg.dirichlet_weight > 0.0 {
            let n = b - a;
            let alpha = self.cfg.dirichlet_total_alpha / n as f32;
            let eta = dirichlet(&mut self.rng, alpha, n);
            let w = self.cfg.dirichlet_weight;
            for ((e, st), x) in self.edges[a..b].iter_mut().zip(&self.stats[s..t]).zip(eta) {
                e.prior = (1.0 - w) * st.raw_prior + w * x;
            }
            self.noise_applied = true;
        }
        if !self.cfg.gumbel {
            self.order_root_by_prior();
        }
    }

    /// Under PUCT, orders the root's edges by their prior (noise included), most likely
    /// first, as every node below it is ordered at expansion, so that selection at the root
    /// too reads no further than its first untried edge; `tried` then counts the edges up to
    /// the last one visited. A stable order: equal priors keep the generation order. Only
    /// while no walk is under way (a root just expanded, or a search beginning): the walks
    /// find their edges by index.
    fn order_root_by_prior(&mut self) {
        let root = self.root;
        let (a, b) = self.edge_range(root);
        let (s, t) = self.stat_range(root);
        debug_assert_eq!(t - s, b - a);
        if !Edge::sorted_by_prior(&self.edges[a..b]) {
            let mut pairs: Vec<(Edge, EdgeStats)> = self.edges[a..b]
                .iter()
                .copied()
                .zip(self.stats[s..t].iter().copied())
                .collect();
            pairs.sort_by(|(x, _), (y, _)| Edge::by_prior(x, y));
            for ((e, st), (pe, pst)) in self.edges[a..b]
                .iter_mut()
                .zip(&mut self.stats[s..t])
                .zip(pairs)
            {
                (*e, *st) = (pe, pst);
            }
        }
        let tried = self.stats[s..t]
            .iter()
            .rposition(|st| st.n + st.inflight > 0)
            .map_or(0, |i| i + 1);
        self.nodes[root as usize].tried = tried as u32;
    }

    /// Gives the root only the edges of the allowed moves: copies of them and of their
    /// statistics (sharing their subtrees) at the end of the arenas, the old ones left to
    /// compaction. Only while no walk is under way, as a root is prepared (when it is first
    /// expanded, every other walk having stopped at it, or when a search begins): a walk
    /// finds an edge's statistics through the node it leaves.
    fn apply_root_restriction(&mut self) {
        let Some(allowed) = &self.root_moves else {
            return;
        };
        let (a, b) = self.edge_range(self.root);
        let (s, _) = self.stat_range(self.root);
        let kept: Vec<(Edge, EdgeStats)> = self.edges[a..b]
            .iter()
            .zip(&self.stats[s..])
            .filter(|(e, _)| allowed.contains(&e.mv))
            .map(|(&e, &st)| (e, st))
            .collect();
        if kept.is_empty() || kept.len() == b - a {
            return;
        }
        let sum: f32 = kept.iter().map(|(_, st)| st.raw_prior).sum();
        let first = self.edges.len() as u32;
        let first_stat = self.stats.len() as u32;
        let n = kept.len() as u32;
        for (mut e, mut st) in kept {
            if sum > 0.0 {
                st.raw_prior /= sum;
                e.prior = st.raw_prior;
            }
            self.edges.push(e);
            self.stats.push(st);
        }
        let root = &mut self.nodes[self.root as usize];
        root.first_edge = first;
        root.n_edges = n;
        root.first_stat = first_stat;
        root.n_stats = n;
        if self.root_win.is_some_and(|w| !allowed.contains(&w)) {
            self.root_win = None;
        }
    }

    fn select_root(&mut self) -> usize {
        if let Some(w) = self.root_win {
            let (a, b) = self.edge_range(self.root);
            if let Some(i) = self.edges[a..b].iter().position(|e| e.mv == w) {
                return a + i;
            }
        }
        if let Some(g) = &self.gumbel {
            let (a, _) = self.edge_range(self.root);
            let (stats, net_value) = self.root_stats();
            a + g.select(stats, self.root_sims, net_value, &self.cfg)
        } else {
            self.select_puct(self.root, self.cfg.draw_score)
        }
    }

    /// What a draw is worth to the side to move at `depth` plies below the root: the
    /// configured draw score for the root's side, its opposite for the other.
    fn draw_at(&self, depth: usize) -> f32 {
        if depth.is_multiple_of(2) {
            self.cfg.draw_score
        } else {
            -self.cfg.draw_score
        }
    }

    /// PUCT with first-play urgency and virtual loss; a draw counts `draw` for the side to
    /// move at `node`.
    pub(crate) fn select_puct(&self, node: u32, draw: f32) -> usize {
        let (a, end) = self.edge_range(node);
        let nd = &self.nodes[node as usize];
        let heads = &self.edges[a..end];
        let (s, t) = self.stat_range(node);
        let stats = &self.stats[s..t];
        // Every edge beyond the first untried one is unvisited with no higher prior (sorted
        // at expansion, the root when its search begins): it adds nothing to the sums, and
        // with a non-negative exploration term it scores no higher than that one, which wins
        // ties as the earlier. A root move proven lost before its first visit (by a
        // refutation) is passed over, not stopped at.
        let mut first_untried = nd.tried as usize;
        while first_untried < stats.len() && stats[first_untried].proven == -1 {
            first_untried += 1;
        }
        let tried_end = end.min(a + first_untried + 1);
        // Edges without statistics are unvisited: they add nothing to the sums.
        let mut parent_n = 0u32;
        let mut visited_mass = 0.0f32;
        for (h, st) in heads[..tried_end - a].iter().zip(stats) {
            parent_n += st.n + st.inflight;
            if st.n + st.inflight > 0 {
                visited_mass += h.prior;
            }
        }
        let parent_n = parent_n.max(1) as f32;
        let c = self.cfg.c_puct
            + if self.cfg.c_puct_base > 0.0 {
                ((parent_n + self.cfg.c_puct_base + 1.0) / self.cfg.c_puct_base).ln()
            } else {
                0.0
            };
        let explore = c * parent_n.sqrt();
        let b = if explore >= 0.0 { tried_end } else { end };
        let fpu = nd.net_utility(draw) - self.cfg.fpu_reduction * visited_mass.sqrt();
        let vl = self.cfg.virtual_loss;
        let mut best = a;
        let mut best_score = f32::NEG_INFINITY;
        let with_stats = (b - a).min(stats.len());
        for (i, (h, e)) in heads[..with_stats].iter().zip(stats).enumerate() {
            let n = e.n + e.inflight;
            // A move into a decided position needs no exploring: a win is taken at once, a
            // loss only when nothing else is left.
            match e.proven {
                1 => return a + i,
                -1 => {
                    if best_score == f32::NEG_INFINITY {
                        best = a + i;
                        best_score = f32::MIN;
                    }
                    continue;
                }
                _ => {}
            }
            let q = if n == 0 {
                fpu
            } else {
                (e.w + draw * e.d - vl * e.inflight as f32) / n as f32
            };
            let score = q + explore * h.prior / (1.0 + n as f32);
            if score > best_score {
                best_score = score;
                best = a + i;
            }
        }
        for (i, h) in heads[with_stats..b - a].iter().enumerate() {
            let score = fpu + explore * h.prior;
            if score > best_score {
                best_score = score;
                best = a + with_stats + i;
            }
        }
        best
    }

    /// Moves to the child reached by `mv`, keeping its subtree (tree reuse); forgets the tree if
    /// that child was never evaluated.
    pub fn advance(&mut self, mv: Move) {
        self.material_centre = None;
        let (a, b) = self.edge_range(self.root);
        let child = (a..b)
            .find(|&j| self.edges[j].mv == mv)
            .map_or(NONE, |j| self.stat(self.root, j).child);
        let reusable = child != NONE
            && match self.nodes[child as usize].state {
                State::Expanded => true,
                // Decided through the solver, with its moves known.
                State::Terminal(_) => self.nodes[child as usize].n_edges > 0,
                _ => false,
            };
        if reusable {
            self.root = child;
            self.gumbel = None;
            self.root_win = None;
            self.root_moves = None;
            self.root_decided = None;
            self.refutations.new_root();
            self.tactics.new_root();
            // A root that is itself decided was reached through a proven line: search it
            // afresh (its edges are all there) so the new search finds the way.
            if let State::Terminal(_) = self.nodes[child as usize].state {
                self.nodes[child as usize].state = State::Expanded;
            }
            // Compact when the discarded part dominates, so long games stay small.
            if self.edges.len() > 20_000 {
                self.compact();
            }
        } else {
            self.clear();
        }
    }

    /// Keeps only the subtree of the root, moved down to the front of the arenas in the order
    /// it had there, so that the arenas keep their memory: new vectors after every move grew
    /// again from nothing, copying themselves and faulting in fresh pages on every search.
    /// Each node's edges stay together and in their order.
    pub(crate) fn compact(&mut self) {
        // Which nodes live: the root's subtree, each node marked once.
        let map = &mut self.compact_map;
        map.clear();
        map.resize(self.nodes.len(), NONE);
        map[self.root as usize] = 0;
        let mut stack = vec![self.root];
        while let Some(node) = stack.pop() {
            let n = &self.nodes[node as usize];
            let (s, t) = (n.first_stat as usize, (n.first_stat + n.n_stats) as usize);
            for st in &self.stats[s..t] {
                if st.child != NONE && map[st.child as usize] == NONE {
                    map[st.child as usize] = 0;
                    stack.push(st.child);
                }
            }
        }
        // The live nodes, moved down in their order (a node never moves up, so none is
        // overwritten before it has moved), and their edge ranges in the order they lie.
        let ranges = &mut self.compact_ranges;
        ranges.clear();
        let mut kept = 0usize;
        for (old, new) in map.iter_mut().enumerate() {
            if *new == NONE {
                continue;
            }
            *new = kept as u32;
            self.nodes[kept] = self.nodes[old].clone();
            let n = &self.nodes[kept];
            if n.n_edges > 0 {
                ranges.push((n.first_edge, n.n_edges, kept as u32));
            }
            kept += 1;
        }
        self.nodes.truncate(kept);
        ranges.sort_unstable();
        pack_blocks(&mut self.edges, ranges, |node, at, _| {
            self.nodes[node as usize].first_edge = at;
        });
        // The statistics the same way, their children renumbered.
        ranges.clear();
        for (node, n) in self.nodes.iter_mut().enumerate() {
            if n.n_stats > 0 {
                ranges.push((n.first_stat, n.n_stats, node as u32));
            } else {
                n.first_stat = 0;
            }
        }
        ranges.sort_unstable();
        pack_blocks(&mut self.stats, ranges, |node, at, block| {
            for st in block.iter_mut().filter(|st| st.child != NONE) {
                st.child = map[st.child as usize];
            }
            self.nodes[node as usize].first_stat = at;
        });
        self.root = map[self.root as usize];
    }

    /// The statistics of the root's edges (it has them for every edge) and its network
    /// value, a draw counting the configured draw score.
    pub(crate) fn root_stats(&self) -> (&[EdgeStats], f32) {
        let (s, t) = self.stat_range(self.root);
        let root = &self.nodes[self.root as usize];
        debug_assert!(root.n_stats == root.n_edges || root.state != State::Expanded);
        (&self.stats[s..t], root.net_utility(self.cfg.draw_score))
    }

    /// Root moves with their completed visits, priors and mean values (for the mover, a
    /// draw counting the configured draw score, as the search weighed them).
    pub fn root_children(&self) -> Vec<(Move, u32, f32, f32)> {
        let (a, b) = self.edge_range(self.root);
        (a..b)
            .map(|j| {
                let e = self.stat(self.root, j);
                let q = e.q(self.cfg.draw_score).unwrap_or(0.0);
                (self.edges[j].mv, e.n, e.raw_prior, q)
            })
            .collect()
    }

    /// The proven value of root move `mv` for the side playing it (1 a forced win, -1 a
    /// forced loss, 0 a forced draw), when the solver has decided the position it leads to.
    pub fn proven_value(&self, mv: Move) -> Option<f32> {
        let (a, b) = self.edge_range(self.root);
        let e = self.stat(self.root, (a..b).find(|&j| self.edges[j].mv == mv)?);
        match (e.child != NONE).then(|| self.nodes[e.child as usize].state)? {
            State::Terminal(v) => Some(-v),
            _ => None,
        }
    }

    /// Whether every move of the root leads to a decided position (the solver's verdict), so
    /// more simulations cannot change the result.
    pub fn is_decided(&self) -> bool {
        self.root_decided.is_some()
    }

    /// The move that wins by force from the root, when a mate search or the solver proved
    /// one: a search driver can stop there.
    pub fn proven_win(&self) -> Option<Move> {
        self.root_win
    }

    /// The most visited line from the root, at most `max_len` moves: at each node the child
    /// with the most completed visits, while it has any.
    pub fn principal_variation(&self, max_len: usize) -> Vec<Move> {
        let mut pv = Vec::new();
        let mut node = self.root;
        while pv.len() < max_len {
            let (a, _) = self.edge_range(node);
            let (s, t) = self.stat_range(node);
            // Only edges with statistics have visits.
            let Some((i, e)) = self.stats[s..t]
                .iter()
                .enumerate()
                .filter(|(_, e)| e.n > 0)
                .max_by(|(_, x), (_, y)| x.n.cmp(&y.n).then(x.w.total_cmp(&y.w)))
            else {
                break;
            };
            pv.push(self.edges[a + i].mv);
            if e.child == NONE {
                break;
            }
            node = e.child;
        }
        pv
    }

    /// The root's value for its side to move: the mean of the backed-up values, a draw
    /// counting 0 whatever the draw score (it is what self-play records as a value target).
    pub fn root_value(&self) -> f32 {
        let (s, t) = self.stat_range(self.root);
        let (n, w) = self.stats[s..t]
            .iter()
            .fold((0u32, 0.0f32), |(n, w), e| (n + e.n, w + e.w));
        if n == 0 {
            self.nodes[self.root as usize].net_value
        } else {
            w / n as f32
        }
    }
}

/// Moves the blocks of `arena` that `ranges` names (start, length, owning node; in the order
/// they lie) down to its front, each kept together, and drops the rest; `placed` is told
/// each block's node, new start and contents.
fn pack_blocks<T: Copy>(
    arena: &mut Vec<T>,
    ranges: &[(u32, u32, u32)],
    mut placed: impl FnMut(u32, u32, &mut [T]),
) {
    let mut at = 0usize;
    for &(first, len, node) in ranges {
        let (first, len) = (first as usize, len as usize);
        arena.copy_within(first..first + len, at);
        placed(node, at as u32, &mut arena[at..at + len]);
        at += len;
    }
    arena.truncate(at);
}

/// The draw probability of a decided position of value `v`: proven results are wins (1),
/// losses (-1) or draws (0).
fn terminal_draw(v: f32) -> f32 {
    if v.abs() < 1.0 {
        1.0
    } else {
        0.0
    }
}

fn terminal_value(o: Outcome, pos: &Position) -> f32 {
    match o.winner() {
        None => 0.0,
        Some(w) if w == pos.side_to_move() => 1.0,
        Some(_) => -1.0,
    }
}
