//! Board shape: the mailbox with a border, square numbering and square names.
//!
//! Squares are indexes into a mailbox whose border is [`BORDER`] cells wide on every side, so
//! that a leap of up to three files or ranks from any board square lands on a cell that exists
//! (a wall cell when it leaves the board). Edge tests are then a single table lookup.

use crate::square::Square;

/// Width of the wall around the board: the longest leap in any definition is three squares.
pub const BORDER: i32 = 3;
/// Largest supported number of files or ranks.
pub const MAX_SIDE: u8 = 25;

/// The shape of a board and the mapping between mailbox cells and (file, rank).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    files: u8,
    ranks: u8,
    stride: i32,
    cells: usize,
    squares: Vec<Square>,
    index_of: Vec<u16>,
    /// Column and row of every mailbox cell (wall included), from which files, ranks and the
    /// steps between squares are read: the attack tests ask how far apart two squares lie for
    /// every piece they consider, and a lookup is cheaper than the divisions by `stride`.
    coords: Vec<(i16, i16)>,
}

/// Marks a mailbox cell that is not on the board in [`Geometry::board_index`].
const OFF: u16 = u16::MAX;

impl Geometry {
    /// A board of `files` x `ranks` squares (each 1..=25).
    pub fn new(files: u8, ranks: u8) -> Option<Geometry> {
        if files == 0 || ranks == 0 || files > MAX_SIDE || ranks > MAX_SIDE {
            return None;
        }
        let stride = files as i32 + 2 * BORDER;
        let cells = (stride * (ranks as i32 + 2 * BORDER)) as usize;
        let mut squares = Vec::with_capacity(files as usize * ranks as usize);
        let mut index_of = vec![OFF; cells];
        for r in 0..ranks {
            for f in 0..files {
                let sq = Square(((r as i32 + BORDER) * stride + f as i32 + BORDER) as u16);
                index_of[sq.index()] = squares.len() as u16;
                squares.push(sq);
            }
        }
        let coords = (0..cells as i32)
            .map(|c| ((c % stride) as i16, (c / stride) as i16))
            .collect();
        Some(Geometry {
            files,
            ranks,
            stride,
            cells,
            squares,
            index_of,
            coords,
        })
    }

    /// Number of files (columns).
    #[inline]
    pub fn files(&self) -> u8 {
        self.files
    }

    /// Number of ranks (rows).
    #[inline]
    pub fn ranks(&self) -> u8 {
        self.ranks
    }

    /// Number of mailbox cells, wall included.
    #[inline]
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// Number of board squares.
    #[inline]
    pub fn num_squares(&self) -> usize {
        self.squares.len()
    }

    /// Mailbox offset of a step of `df` files and `dr` ranks.
    #[inline]
    pub fn delta(&self, df: i32, dr: i32) -> i32 {
        dr * self.stride + df
    }

    /// Mailbox offsets of the eight king steps (the neighbours of a square).
    #[inline]
    pub fn king_steps(&self) -> [i32; 8] {
        [
            self.delta(-1, -1),
            self.delta(0, -1),
            self.delta(1, -1),
            self.delta(-1, 0),
            self.delta(1, 0),
            self.delta(-1, 1),
            self.delta(0, 1),
            self.delta(1, 1),
        ]
    }

    /// The board squares in order a1, b1, ..., then rank 2, and so on.
    #[inline]
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// The square at 0-based `file` and `rank`, if on the board.
    pub fn square(&self, file: u8, rank: u8) -> Option<Square> {
        if file < self.files && rank < self.ranks {
            Some(self.squares[rank as usize * self.files as usize + file as usize])
        } else {
            None
        }
    }

    /// Dense 0-based index of a board square (`rank * files + file`), `None` for wall cells.
    #[inline]
    pub fn board_index(&self, sq: Square) -> Option<usize> {
        match self.index_of.get(sq.index()) {
            Some(&i) if i != OFF => Some(i as usize),
            _ => None,
        }
    }

    /// Whether a mailbox cell is a board square.
    #[inline]
    pub fn on_board(&self, sq: Square) -> bool {
        self.board_index(sq).is_some()
    }

    /// 0-based file of a board square.
    #[inline]
    pub fn file_of(&self, sq: Square) -> u8 {
        (self.coords[sq.index()].0 as i32 - BORDER) as u8
    }

    /// 0-based rank of a board square.
    #[inline]
    pub fn rank_of(&self, sq: Square) -> u8 {
        (self.coords[sq.index()].1 as i32 - BORDER) as u8
    }

    /// How many files and ranks `to` lies from `from` (both board squares).
    #[inline]
    pub fn steps_between(&self, from: Square, to: Square) -> (i32, i32) {
        let (a, b) = (self.coords[from.index()], self.coords[to.index()]);
        ((b.0 - a.0) as i32, (b.1 - a.1) as i32)
    }

    /// The square seen from the other side of the board (180-degree rotation).
    pub fn rotate(&self, sq: Square) -> Square {
        let f = self.files - 1 - self.file_of(sq);
        let r = self.ranks - 1 - self.rank_of(sq);
        self.square(f, r)
            .expect("rotation of a board square is on the board")
    }

    /// Chess-like name: file letter from `a`, rank number from 1 (`e1`, `s19`).
    pub fn name(&self, sq: Square) -> String {
        let f = (b'a' + self.file_of(sq)) as char;
        format!("{}{}", f, self.rank_of(sq) as u32 + 1)
    }

    /// Parses a square name at the start of `text`, returning the square and the number of bytes
    /// read. Ranks take as many digits as form a rank of this board, so `a1` and `a19` both read.
    pub fn parse_prefix(&self, text: &str) -> Option<(Square, usize)> {
        let b = text.as_bytes();
        let file = *b.first()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let file = file - b'a';
        let mut end = 1;
        while end < b.len() && end < 3 && b[end].is_ascii_digit() {
            end += 1;
        }
        // Prefer the longest rank number that is on the board.
        while end > 1 {
            if let Ok(rank) = text[1..end].parse::<u8>() {
                if rank >= 1 {
                    if let Some(sq) = self.square(file, rank - 1) {
                        return Some((sq, end));
                    }
                }
            }
            end -= 1;
        }
        None
    }

    /// Parses a whole square name.
    pub fn parse(&self, text: &str) -> Option<Square> {
        match self.parse_prefix(text) {
            Some((sq, n)) if n == text.len() => Some(sq),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_every_size() {
        for (f, r) in [(9u8, 9u8), (13, 13), (19, 19), (25, 25), (3, 7)] {
            let g = Geometry::new(f, r).unwrap();
            for &sq in g.squares() {
                assert_eq!(g.parse(&g.name(sq)), Some(sq));
                assert_eq!(g.rotate(g.rotate(sq)), sq);
            }
            assert_eq!(g.num_squares(), f as usize * r as usize);
        }
    }

    #[test]
    fn steps_between_two_squares_are_their_file_and_rank_differences() {
        for (f, r) in [(9u8, 9u8), (19, 19), (3, 7)] {
            let g = Geometry::new(f, r).unwrap();
            for &a in g.squares() {
                for &b in g.squares() {
                    let want = (
                        g.file_of(b) as i32 - g.file_of(a) as i32,
                        g.rank_of(b) as i32 - g.rank_of(a) as i32,
                    );
                    assert_eq!(g.steps_between(a, b), want);
                    let (df, dr) = want;
                    assert_eq!(a.0 as i32 + g.delta(df, dr), b.0 as i32);
                }
            }
        }
    }

    #[test]
    fn out_of_range_names_are_rejected() {
        let g = Geometry::new(9, 9).unwrap();
        assert_eq!(g.parse("j1"), None);
        assert_eq!(g.parse("a10"), None);
        assert_eq!(g.parse("a0"), None);
        assert_eq!(g.parse("e"), None);
        assert_eq!(g.name(g.parse("i9").unwrap()), "i9");
    }

    #[test]
    fn leaps_of_three_from_the_edge_stay_in_the_mailbox() {
        let g = Geometry::new(25, 25).unwrap();
        for &sq in g.squares() {
            for df in -3..=3 {
                for dr in -3..=3 {
                    let t = sq.0 as i32 + g.delta(df, dr);
                    assert!(t >= 0 && (t as usize) < g.cells());
                }
            }
        }
        assert_eq!(Geometry::new(26, 5), None);
    }
}
