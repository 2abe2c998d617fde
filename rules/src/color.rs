//! The two players.

/// A player. `Black` (sente) is the first player and starts on the low ranks; `White` (gote)
/// starts on the high ranks with the 180-degree rotation of Black's setup.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player, moving towards higher ranks.
    Black = 0,
    /// The second player, moving towards lower ranks.
    White = 1,
}

impl Color {
    /// Both colours, first player first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other player.
    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour with the given index (0 or 1).
    #[inline]
    pub fn from_index(i: usize) -> Color {
        if i == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The side letter of the position text: `b` or `w`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}
