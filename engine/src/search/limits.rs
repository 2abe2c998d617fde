//! What ends a search.

use std::time::Duration;

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
