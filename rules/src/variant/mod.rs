//! Variants as data: a validated variant definition with its compiled move tables.

mod attack_tables;
mod builtin;
mod definition;
mod error;
pub mod file;
mod kind_set;
pub mod labels;
mod load;
mod piece_type;
mod rules;

pub use attack_tables::{AttackTables, PieceSet};
pub use builtin::{builtin_ids, builtin_text};
pub use definition::Variant;
pub use error::VariantError;
pub use kind_set::KindSet;
pub use load::load_variant;
pub use piece_type::{DropRules, PieceType};
pub use rules::{CheckRule, PromotionRule, Rules};
