//! Policy/value network for koma, on libtorch.

pub mod device;
