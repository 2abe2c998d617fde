//! A mailbox square index.

/// A cell of the mailbox (see [`crate::geometry`]). Board squares and wall cells share the
/// numbering; only the geometry knows which is which.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u16);

impl Square {
    /// The cell index as a `usize`, for indexing the board array.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The cell `delta` cells away.
    #[inline]
    pub fn offset(self, delta: i32) -> Square {
        Square((self.0 as i32 + delta) as u16)
    }
}
