//! koma-engine: filled in by the learning loop.
