//! The tree's storage: nodes and the edges (moves) out of them, in flat arenas indexed by
//! `u32`, so a tree is two vectors and a search allocates nothing per simulation.

use koma_rules::Move;

/// No child yet.
pub(crate) const NONE: u32 = u32::MAX;

/// A move out of a node and its prior: all that an edge selection has not reached yet needs.
///
/// The statistics live apart ([`EdgeStats`]), made only for the edges selection reaches, as
/// Leela Chess Zero keeps a move and its policy apart from the visited node. An expanded
/// leaf writes one of these per legal move, a few hundred on the large boards, and most
/// leaves are never walked through: writing the statistics with each (52 bytes an edge
/// instead of 24) was a tenth of Ko Shogi's search.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Edge {
    pub(crate) mv: Move,
    /// Prior used for selection (noise mixed in at a noisy root).
    pub(crate) prior: f32,
}

impl Edge {
    /// The order a node's edges are kept in: most likely first (`select_puct` stops at the
    /// first untried edge). Sorted stably by it, equal priors keep the generation order.
    pub(crate) fn by_prior(x: &Edge, y: &Edge) -> std::cmp::Ordering {
        y.prior
            .partial_cmp(&x.prior)
            .unwrap_or(std::cmp::Ordering::Equal)
    }

    /// Whether `edges` are in [`Edge::by_prior`] order.
    pub(crate) fn sorted_by_prior(edges: &[Edge]) -> bool {
        edges.is_sorted_by(|x, y| x.prior >= y.prior)
    }
}

/// The statistics of an edge that selection has reached, and of every root edge.
#[derive(Debug, Clone, Copy)]
pub(crate) struct EdgeStats {
    pub(crate) child: u32,
    /// Completed visits.
    pub(crate) n: u32,
    /// Sum of backed-up values, from the view of the player making this move.
    pub(crate) w: f32,
    /// Sum of the backed-up draw probabilities (the same for both sides), which
    /// `SearchConfig::draw_score` weighs into the mean value.
    pub(crate) d: f32,
    /// Visits under way (virtual loss).
    pub(crate) inflight: u32,
    /// The network's prior, kept for Gumbel logits and policy targets: the edge's prior when
    /// its statistics were made, before any noise (noise is mixed in only at the root, after
    /// the root's statistics are made).
    pub(crate) raw_prior: f32,
    /// The child's proven result from the view of the player making this move: 1 the move
    /// wins, -1 it loses, 0 not proven (or a draw). A copy of the child's terminal state, so
    /// that selection need not read every child node.
    pub(crate) proven: i8,
}

impl EdgeStats {
    /// The statistics of an edge never visited, whose prior is `raw_prior`.
    pub(crate) fn unvisited(raw_prior: f32) -> EdgeStats {
        EdgeStats {
            child: NONE,
            n: 0,
            w: 0.0,
            d: 0.0,
            inflight: 0,
            raw_prior,
            proven: 0,
        }
    }

    /// Mean value for the player making this move, a draw counting `draw` for that player;
    /// `None` before the first completed visit.
    pub(crate) fn q(&self, draw: f32) -> Option<f32> {
        (self.n > 0).then(|| (self.w + draw * self.d) / self.n as f32)
    }

    /// Records that the child became terminal with value `v` (from the child's side to move).
    pub(crate) fn set_terminal(&mut self, v: f32) {
        self.proven = if -v >= 1.0 {
            1
        } else if -v <= -1.0 {
            -1
        } else {
            0
        };
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum State {
    /// Not yet reached.
    New,
    /// Sent for evaluation; edges known, priors not yet.
    Pending,
    /// Evaluated.
    Expanded,
    /// Game over here; value for the side to move.
    Terminal(f32),
}

#[derive(Debug, Clone)]
pub(crate) struct Node {
    pub(crate) first_edge: u32,
    pub(crate) n_edges: u32,
    /// Where the statistics of the node's first edges start in the tree's statistics arena,
    /// and how many of its edges, counted from the first, have them: every edge selection
    /// has chosen (the first `tried`), and at the root every edge. The edges beyond are
    /// unvisited.
    pub(crate) first_stat: u32,
    pub(crate) n_stats: u32,
    pub(crate) n: u32,
    pub(crate) state: State,
    /// The evaluation's value for the side to move.
    pub(crate) net_value: f32,
    /// The evaluation's draw probability (weighted as the value is).
    pub(crate) net_draw: f32,
    /// How many of the node's edges, counted from the first, selection may have chosen: the
    /// edges beyond are unvisited. The edges are sorted by prior, most likely first, when the
    /// node is expanded (under PUCT the root's again when its search begins, noise
    /// included), so no unvisited edge scores above the first of them and selection reads
    /// no further (a wide node visited a few times costs a few edges, not hundreds).
    pub(crate) tried: u32,
}

impl Node {
    /// A node not yet reached.
    pub(crate) fn new() -> Node {
        Node {
            first_edge: 0,
            n_edges: 0,
            first_stat: 0,
            n_stats: 0,
            n: 0,
            state: State::New,
            net_value: 0.0,
            net_draw: 0.0,
            tried: 0,
        }
    }

    /// The evaluation's value for the side to move, a draw counting `draw` for it.
    pub(crate) fn net_utility(&self, draw: f32) -> f32 {
        self.net_value + draw * self.net_draw
    }
}
