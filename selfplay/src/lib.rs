//! koma-selfplay: filled in by the learning loop.
