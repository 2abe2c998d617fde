//! Material in units a reader can picture: the mean value of a variant's non-royal piece
//! kinds, as [`PieceValues`] computes them. `koma games` sorts drawn games by it, and
//! self-play's material adjudication uses the same units, so the two agree on what "far
//! ahead" means.

use crate::record::GameRecord;
use koma_rules::{Color, PieceValues, Position, Variant};
use std::sync::Arc;

/// A variant's piece values and their mean, the unit of material margins.
pub struct MaterialScale {
    variant: Arc<Variant>,
    values: PieceValues,
    mean: f64,
}

impl MaterialScale {
    /// The scale of `variant`.
    pub fn new(variant: &Arc<Variant>) -> MaterialScale {
        let values = PieceValues::new(variant);
        MaterialScale {
            variant: variant.clone(),
            mean: values.mean_value() as f64,
            values,
        }
    }

    /// Black's material minus White's in `pos` (on the board and in hand), in mean piece
    /// values.
    pub fn margin(&self, pos: &Position) -> f64 {
        self.values.difference(pos, Color::Black) as f64 / self.mean
    }

    /// How far apart the sides' material stands at the end of `game`, in mean piece values;
    /// `None` when the record does not replay in this variant.
    pub fn final_margin(&self, game: &GameRecord) -> Option<f64> {
        let end = game.replay(&self.variant, |_, _, _| {}).ok()?;
        Some(self.margin(&end).abs())
    }
}
