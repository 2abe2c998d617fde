//! Finding the pieces on the board eight cells at a time.
//!
//! Move generation, the material estimate and the attack tests each walk the board for one
//! side's pieces at every search leaf. Tested square by square, the 361 cells of a 19x19
//! board cost a branch each, most of them on empty squares. A piece is a byte whose low bit
//! tells its colour (see [`crate::piece::Piece`]), so eight cells of a rank read as one
//! integer give, with a few bit operations, a mask of the cells holding a piece of the side
//! asked: the scan then visits only those, in the same board order as the walk.

use crate::color::Color;
use crate::geometry::Geometry;
use crate::piece::Piece;
use crate::square::Square;

/// Which pieces a scan visits.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Side {
    /// The pieces of one colour.
    Of(Color),
    /// Every piece.
    Any,
}

const LOW: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;
const SEVEN: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The high bit of each byte of `x` that is zero, and no other bit.
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    !(((x & SEVEN) + SEVEN) | x | SEVEN)
}

/// The high bit of each of the eight cells in `x` that holds a piece of `side`.
#[inline(always)]
fn side_bytes(x: u64, side: Side) -> u64 {
    let empty = zero_bytes(x);
    let wall = zero_bytes(!x);
    // Piece codes are 1 + 2 * kind + colour: Black's are odd, White's even (and not 0).
    let odd = (x & LOW) << 7;
    match side {
        Side::Of(Color::Black) => odd & !wall,
        Side::Of(Color::White) => !odd & !empty & HIGH,
        Side::Any => !empty & !wall & HIGH,
    }
}

/// Calls `f` with the square and piece of every piece of `side` on `board` (a mailbox of
/// `geometry`), in board order (a1, b1, ..., then rank 2, as [`Geometry::squares`] lists
/// them), until `f` returns true; returns whether it did.
#[inline(always)]
pub(crate) fn scan_pieces(
    board: &[Piece],
    geometry: &Geometry,
    side: Side,
    mut f: impl FnMut(Square, Piece) -> bool,
) -> bool {
    let files = geometry.files() as usize;
    let squares = geometry.squares();
    for rank in 0..geometry.ranks() as usize {
        let row = squares[rank * files].index();
        let mut off = 0;
        while off < files {
            // The cells past the rank's end are wall cells or the next rank's, which the mask
            // leaves out; the mailbox's border rows keep them inside the board.
            let at = row + off;
            let cells: &[Piece; 8] = board[at..at + 8].try_into().expect("eight cells");
            let word = u64::from_le_bytes(cells.map(|p| p.0));
            let mut mask = side_bytes(word, side);
            if files - off < 8 {
                mask &= (1u64 << ((files - off) * 8)) - 1;
            }
            while mask != 0 {
                let cell = at + (mask.trailing_zeros() / 8) as usize;
                if f(Square(cell as u16), board[cell]) {
                    return true;
                }
                mask &= mask - 1;
            }
            off += 8;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece code of either colour next to empty and wall cells is told apart.
    #[test]
    fn every_code_reads_as_its_colour() {
        for code in 0..=255u8 {
            let p = Piece(code);
            let word = u64::from_le_bytes([0, code, 255, code, 0, 0, 255, code]);
            for side in [Side::Of(Color::Black), Side::Of(Color::White), Side::Any] {
                let want = match side {
                    Side::Of(c) => p.is_color(c),
                    Side::Any => p.is_piece(),
                };
                let expected = if want { 0x8000_0000_8000_8000 } else { 0 };
                assert_eq!(side_bytes(word, side), expected, "code {code} {side:?}");
            }
        }
    }
}
