//! Where the stem's 3x3 kernel carries each input square: the table both sparse forms of the
//! first convolution (inference, [`crate::sparse_stem`]; training,
//! [`crate::sparse_stem_training`]) walk instead of convolving mostly empty planes.

/// Per input square, the (tap, output square) pairs of every kernel tap whose output square is
/// on the board. A zero-padded convolution's output at `o` reads tap `(dr, df)` (row-major
/// 3x3, centre 4) from the input at `o + (dr, df)`, so an input on `sq` reaches the output
/// square at `sq - (dr, df)` through that tap.
#[derive(Debug, Clone)]
pub(crate) struct Reach {
    start: Vec<u32>,
    list: Vec<(u32, u32)>,
}

impl Reach {
    /// The table of a `height` x `width` board.
    pub(crate) fn new(height: usize, width: usize) -> Reach {
        let squares = height * width;
        let mut start = vec![0u32];
        let mut list = Vec::with_capacity(9 * squares);
        for sq in 0..squares {
            for (tap, (dr, df)) in offsets().enumerate() {
                if let Some(o) = on_board(sq, -dr, -df, height, width) {
                    list.push((tap as u32, o as u32));
                }
            }
            start.push(list.len() as u32);
        }
        Reach { start, list }
    }

    /// The (tap, output square) pairs an input on `sq` reaches.
    #[inline]
    pub(crate) fn lands(&self, sq: usize) -> &[(u32, u32)] {
        &self.list[self.start[sq] as usize..self.start[sq + 1] as usize]
    }
}

/// The 3x3 kernel's taps in row-major order, as (rank, file) offsets from the output square.
fn offsets() -> impl Iterator<Item = (isize, isize)> {
    (-1..=1).flat_map(|dr| (-1..=1).map(move |df| (dr, df)))
}

/// The square `(dr, df)` away from `sq` on a `height` x `width` board, if on it.
#[inline]
fn on_board(sq: usize, dr: isize, df: isize, height: usize, width: usize) -> Option<usize> {
    let r = (sq / width) as isize + dr;
    let f = (sq % width) as isize + df;
    (r >= 0 && f >= 0 && (r as usize) < height && (f as usize) < width)
        .then(|| r as usize * width + f as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A corner reaches 4 outputs, an edge square 6, an inner square 9; the centre tap lands
    /// on the square itself, and the tap that reads one rank below its output lands one rank up.
    #[test]
    fn taps_land_where_the_convolution_reads_them() {
        let r = Reach::new(3, 4);
        assert_eq!(r.lands(0).len(), 4);
        assert_eq!(r.lands(1).len(), 6);
        assert_eq!(r.lands(5).len(), 9);
        assert!(r.lands(5).contains(&(4, 5)));
        // Input (rank 1, file 1) is read by output (rank 0, file 1) through tap (+1, 0) = 7.
        assert!(r.lands(5).contains(&(7, 1)));
        // The top-left corner is read only by outputs at or below and right of it, through
        // the taps that look up and left, or the centre.
        let corner: Vec<(u32, u32)> = r.lands(0).to_vec();
        assert_eq!(corner, [(0, 5), (1, 4), (3, 1), (4, 0)]);
    }
}
