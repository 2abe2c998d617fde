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
    /// Recognise a mate in one (or capture of the last royal) when a node is first reached:
    /// such a node is a proven win, and at the root the winning move is played at once.
    pub mate_check: bool,
    /// Weight of material in the utility the search maximises at a leaf:
    /// `(1 - w) * value + w * material`, where material is the leaf's balance after the
    /// captures under way are played out (`koma_rules::PieceValues::resolved_balance`); 0
    /// searches on the game result alone. Like the score utility of Go engines it gives the
    /// search a dense preference (keep material, take material) while the value head is still
    /// learning what wins games; with few simulations over hundreds of drops, it is what keeps
    /// pieces from being put en prise.
    pub material_weight: f32,
    /// Plies of the capture-only search behind the material term.
    pub material_depth: u32,
}

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
            material_weight: 0.4,
            material_depth: 2,
        }
    }
}
