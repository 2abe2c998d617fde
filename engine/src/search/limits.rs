//! What ends a search.

use std::time::Duration;

/// Simulations per move when nothing else sets a limit: of `koma-engine` when the GUI gives no
/// time or node limit, of `koma play`, `koma analyse`, and of an arena model player whose
/// string does not say. About a tenth of a second per move for a CPU preset's network on one
/// core, and several times the 8 to 32 of self-play's searches, so a model plays clearly
/// stronger than in its training games without keeping a person waiting.
pub const DEFAULT_SIMS: u32 = 400;

/// Budget of one search; it ends at the first limit reached (or at a stop request, or when the
/// root has a proven win). With no limit at all the search runs until it is stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// New simulations of this search (a reused subtree's visits come on top).
    pub sims: Option<u32>,
    /// Wall-clock time.
    pub time: Option<Duration>,
}

impl Limits {
    /// A fixed number of simulations.
    pub fn sims(n: u32) -> Limits {
        Limits {
            sims: Some(n.max(1)),
            time: None,
        }
    }

    /// A fixed time.
    pub fn time(t: Duration) -> Limits {
        Limits {
            sims: None,
            time: Some(t),
        }
    }

    /// Whether nothing but a stop request ends the search.
    pub fn is_infinite(&self) -> bool {
        self.sims.is_none() && self.time.is_none()
    }
}
