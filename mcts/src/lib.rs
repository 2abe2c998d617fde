//! koma-mcts: filled in by the learning loop.
