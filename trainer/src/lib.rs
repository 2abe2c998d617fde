//! koma-trainer: filled in by the learning loop.
