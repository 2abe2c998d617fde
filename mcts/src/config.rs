//! Search settings.

use serde::{Deserialize, Serialize};

/// How a search selects, explores and stops. Defaults follow AlphaZero/KataGo practice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchConfig {
    /// Exploration constant of PUCT at its base value.
    pub c_puct: f32,
    /// Growth of the exploration constant with visits (AlphaZero's c_base); 0 disables it.
    pub c_puct_base: f32,
    /// First-play urgency: an unvisited child is valued at the parent's value minus this times
    /// the square root of the policy mass already visited.
    pub fpu_reduction: f32,
    /// Dirichlet noise at the root: total concentration spread over the legal moves
    /// (alpha per move = this / number of moves), 0 disables noise.
    pub dirichlet_total_alpha: f32,
    /// Weight of the noise in the root priors.
    pub dirichlet_weight: f32,
    /// Use Gumbel sequential halving at the root instead of PUCT.
    pub gumbel: bool,
    /// Number of root moves Gumbel sampling considers (m).
    pub gumbel_considered: usize,
    /// c_visit of the completed-Q transform.
    pub gumbel_c_visit: f32,
    /// c_scale of the completed-Q transform.
    pub gumbel_c_scale: f32,
    /// Virtual loss added per in-flight visit (several leaves of one tree in one batch).
    pub virtual_loss: f32,
    /// Look for a forced win where a node is first reached (a capture of the last royal
    /// piece, a mate in one, or within `mate_plies`): such a node is a proven win, and at the
    /// root the winning move is played at once.
    pub mate_check: bool,
    /// Plies of the leaf mate search: 1 (mates in one) or 3 (checks, every reply, a mate in
    /// one after each).
    pub mate_plies: u32,
    /// Trial moves the leaf mate search may make at one leaf: a cap that keeps a leaf with
    /// many checks from costing more than a few move generations.
    pub mate_budget: u32,
    /// Nodes of the proof-number mate search run at the root before each search (0: none).
    /// A forced win it proves is played at once; it looks much deeper than the leaf search.
    pub root_mate_nodes: u64,
    /// Nodes of the proof-number search for the opponent after the root move the search
    /// prefers (0: none): a move after which the opponent mates by force is marked lost, so
    /// the search turns to the others and does not play it while one not proven lost is left
    /// (`refute.rs`). The leaf mate search sees only the opponent's mates in three.
    pub refute_nodes: u64,
    /// Weight of material in the utility the search maximises at a leaf:
    /// `(1 - w) * value + w * material`, where material is the leaf's balance after the
    /// captures under way are played out (see `material_depth`); 0
    /// searches on the game result alone. Like the score utility of Go engines it gives the
    /// search a dense preference (keep material, take material) while the value head is still
    /// learning what wins games; with few simulations over hundreds of drops, it is what keeps
    /// pieces from being put en prise.
    pub material_weight: f32,
    /// How the material term sees captures under way: 0 counts the material on the board
    /// and in hand as it stands; 1 or more plays out the side to move's best capture against
    /// the opponent's best answer (`koma_rules::PieceValues::quick_balance`: two plies, from
    /// the leaf's own move list, with no move generation).
    pub material_depth: u32,
    /// Count a leaf's material from the root's own difference instead of from level
    /// material, as KataGo centres its score utility on the root's expected score. The
    /// material term is a tanh of the difference, so a side far ahead sees one more piece won
    /// or lost move it hardly at all, and, with the value head sure of the win as well, every
    /// move looks the same: the search shuffles, and a won game runs into the length limit.
    /// Centred, each piece keeps the weight it has in a level game. The centre is taken from
    /// the root when a search begins; a reused subtree keeps the values it was given under the
    /// previous one.
    pub relative_material: bool,
    /// The mop-up term (`mop_up.rs`): when one side stands at least three mean piece values
    /// ahead at the root, the material term also credits the leader for bringing its pieces
    /// near the other side's royal piece, each piece up to this share of its own value, and
    /// is counted from the root's difference (as with `relative_material`, which far ahead it
    /// implies: counted from level, the term is flat there). 0: off. A won game otherwise
    /// shuffles into the length limit once nothing is left to take. Past half the length
    /// limit the lead it needs shrinks to any lead and the weight grows, to ten times this by
    /// the limit.
    pub mop_up: f32,
    /// What a draw is worth to the side that searches (the root's side to move), in
    /// [-1, 1]; its opponent is credited the opposite (contempt, as classical engines have
    /// it). Below 0 the search steers away from draws, which a game that allows repetition
    /// draws needs in self-play: without it both sides learn that shuffling is safe. It
    /// weighs the network's draw probability and proven draws alike, and is applied when a
    /// move is selected, so a tree reused after a move judges draws for its new root's side.
    /// It shapes the policy a search returns (a self-play policy target); the root value it
    /// reports (a value target) and game results count a draw as 0.
    pub draw_score: f32,
    /// Plies of the tactics check of the finished search's choice (0: none; `tactics.rs`):
    /// an alpha-beta search on material with captures to quiescence scores the choice, and a
    /// choice more than `tactics_margin` below the best move it finds is replaced by the
    /// search's next candidate within the margin (or the check's own best move). For play
    /// with networks that do not yet see short tactics; self-play leaves it off, so the
    /// network learns from its own choices.
    pub tactics_depth: u32,
    /// How far below the tactics check's best move (in mean piece values) the search's choice
    /// may score and still be played.
    pub tactics_margin: f32,
}

/// The deepest tactics check (`SearchConfig::tactics_depth`) a user may ask for: each ply
/// multiplies its cost by the board's moves, and four already take seconds on a 19x19 board.
pub const MAX_TACTICS_DEPTH: u32 = 4;

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            c_puct: 1.25,
            c_puct_base: 19652.0,
            fpu_reduction: 0.2,
            dirichlet_total_alpha: 10.0,
            dirichlet_weight: 0.25,
            gumbel: false,
            gumbel_considered: 16,
            gumbel_c_visit: 50.0,
            gumbel_c_scale: 0.1,
            virtual_loss: 1.0,
            mate_check: true,
            mate_plies: 1,
            mate_budget: 64,
            root_mate_nodes: 100,
            refute_nodes: 0,
            material_weight: 0.4,
            material_depth: 2,
            relative_material: false,
            mop_up: 0.0,
            draw_score: 0.0,
            tactics_depth: 0,
            tactics_margin: 1.0,
        }
    }
}
