//! Direction letters to direction sets, after XBoard's `MovesFromString` tables.
//!
//! Directions are bits of a byte, clockwise from straight forward as seen by the piece's owner:
//! bit 0 forward, 1 forward-right, 2 right, 3 back-right, 4 back, 5 back-left, 6 left,
//! 7 forward-left. Orthogonal atoms use the even bits, diagonal atoms the odd ones. For the
//! oblique atoms (N, C, Z) the bits name the eight leaps clockwise from (1,2).
//!
//! Where XBoard's literal tables disagree with what the variant definitions need and their
//! prose describes, the definitions win (each case is named below and tested):
//! - `Xh` on K and Q is the half-plane on side X (`fh` = fl f fr), as the Betza page's table
//!   defines it (XBoard itself treats any `h` on K as all eight).
//! - `v` and `s` inside a pair on a diagonal atom stand for "both", so `rvB` = fr + br (XBoard
//!   intersects them to nothing and falls back to all four).

use super::parse::Atom;

/// Vector (files, ranks) of K-system bit `i`, in the owner's frame (forward = +ranks).
pub fn unit(i: u8) -> (i8, i8) {
    [
        (0, 1),
        (1, 1),
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (-1, 1),
    ][i as usize & 7]
}

/// K-system bit of a vector along one of the eight lines.
pub fn dir_of(v: (i8, i8)) -> Option<u8> {
    if v.0 != 0 && v.1 != 0 && v.0.abs() != v.1.abs() {
        return None;
    }
    let s = (v.0.signum(), v.1.signum());
    (0..8).find(|&d| unit(d) == s)
}

/// How an atom's directions are named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Four orthogonal directions (W, R, D, H).
    Orthogonal,
    /// Four diagonal directions (F, B, A, G).
    Diagonal,
    /// All eight (K, Q, U).
    Both,
    /// The eight leaps of N, C, Z.
    Oblique,
}

/// The class and the distance (squares per step along the line) of an atom.
pub fn class_of(atom: Atom) -> (Class, i8) {
    match atom {
        Atom::W | Atom::R => (Class::Orthogonal, 1),
        Atom::D => (Class::Orthogonal, 2),
        Atom::H => (Class::Orthogonal, 3),
        Atom::F | Atom::B => (Class::Diagonal, 1),
        Atom::A => (Class::Diagonal, 2),
        Atom::G => (Class::Diagonal, 3),
        Atom::K | Atom::Q | Atom::U => (Class::Both, 1),
        Atom::N | Atom::C | Atom::Z => (Class::Oblique, 1),
    }
}

/// Mask of a letter from one of the tables, indexed f b l r v s h.
fn table(t: &[u8; 7], c: char) -> u8 {
    match c {
        'f' => t[0],
        'b' => t[1],
        'l' => t[2],
        'r' => t[3],
        'v' => t[4],
        's' => t[5],
        _ => t[6],
    }
}

/// Wide sides: the three K-system directions (or four oblique leaps) on a side.
const WIDE: [u8; 7] = [0xC3, 0x3C, 0xF0, 0x0F, 0xFF, 0xFF, 0xFF];
/// Narrow: the straight direction(s) only.
const NARROW_K: [u8; 7] = [0x01, 0x10, 0x40, 0x04, 0x11, 0x44, 0xFF];
/// K-system half-planes (`fh`, and the masks pairs intersect).
const HALF_K: [u8; 7] = [0x83, 0x38, 0xE0, 0x0E, 0xBB, 0xEE, 0xFF];
/// Narrow oblique: the two leaps most along a side.
const NARROW_N: [u8; 7] = [0x81, 0x18, 0x60, 0x06, 0x99, 0x66, 0xFF];

fn vertical(c: char) -> bool {
    matches!(c, 'f' | 'b' | 'v')
}

fn horizontal(c: char) -> bool {
    matches!(c, 'l' | 'r' | 's')
}

fn perpendicular(a: char, b: char) -> bool {
    (vertical(a) && horizontal(b)) || (horizontal(a) && vertical(b))
}

/// The K-system (eight-direction) reading used by K, Q and every continuation leg: a lone
/// letter is the straight direction(s); `Xh` is the half-plane; a letter among f b l r followed
/// by a perpendicular letter is their intersection (`fr`, `fs`); a doubled letter stands alone.
pub fn king_mask(letters: &str) -> u8 {
    let c: Vec<char> = letters.chars().collect();
    let mut mask = 0u8;
    let mut i = 0;
    while i < c.len() {
        let a = c[i];
        let next = c.get(i + 1).copied();
        match next {
            Some('h') if a != 'h' => {
                mask |= table(&HALF_K, a);
                i += 2;
            }
            Some(b) if matches!(a, 'f' | 'b' | 'l' | 'r') && perpendicular(a, b) => {
                mask |= table(&HALF_K, a) & table(&HALF_K, b);
                i += 2;
            }
            Some(b) if b == a => {
                mask |= table(&NARROW_K, a);
                i += 2;
            }
            _ => {
                mask |= table(&NARROW_K, a);
                i += 1;
            }
        }
    }
    mask
}

/// First-leg direction mask of `letters` for an atom of `class` (0xFF-style masks restricted
/// to the class's bits); no letters means all.
pub fn first_mask(class: Class, letters: &str) -> u8 {
    if letters.is_empty() {
        return match class {
            Class::Orthogonal => 0x55,
            Class::Diagonal => 0xAA,
            _ => 0xFF,
        };
    }
    let c: Vec<char> = letters.chars().collect();
    match class {
        // Orthogonal atoms never combine letters: each adds its straight direction(s).
        Class::Orthogonal => c.iter().fold(0, |m, &a| m | table(&NARROW_K, a)) & 0x55,
        Class::Both => king_mask(letters),
        // Diagonal atoms: a letter alone is the pair on that side, two perpendicular letters
        // (in either order) their intersection.
        Class::Diagonal => {
            let mut mask = 0u8;
            let mut i = 0;
            while i < c.len() {
                let a = c[i];
                match c.get(i + 1) {
                    Some(&b) if perpendicular(a, b) => {
                        mask |= table(&WIDE, a) & table(&WIDE, b);
                        i += 2;
                    }
                    _ => {
                        mask |= table(&WIDE, a);
                        i += 1;
                    }
                }
            }
            mask & 0xAA
        }
        // Oblique atoms: a letter alone selects the narrow pair, `Xh` the four on side X, a
        // doubled or perpendicular pair the wide side of the first letter narrowed by the
        // second (`ffN` = `fN` = the shogi knight, `lfN` = one leap).
        Class::Oblique => {
            let mut mask = 0u8;
            let mut i = 0;
            while i < c.len() {
                let a = c[i];
                match c.get(i + 1) {
                    Some('h') => {
                        mask |= table(&WIDE, a);
                        i += 2;
                    }
                    Some(&b) if b == a || perpendicular(a, b) => {
                        mask |= table(&WIDE, a) & table(&NARROW_N, b);
                        i += 2;
                    }
                    _ => {
                        mask |= table(&NARROW_N, a);
                        i += 1;
                    }
                }
            }
            mask
        }
    }
}

/// The first-leg vectors (owner's frame) that `letters` select for `atom`.
pub fn first_leg(atom: Atom, letters: &str) -> Result<Vec<(i8, i8)>, String> {
    let (class, dist) = class_of(atom);
    let mask = first_mask(class, letters);
    if mask == 0 {
        return Err(format!("direction '{letters}' selects no move of {atom:?}"));
    }
    let (a, b) = atom.step();
    let (long, short) = (a.max(b), a.min(b));
    Ok((0..8u8)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| {
            if class == Class::Oblique {
                // Clockwise from (short, long): (1,2), (2,1), (2,-1), (1,-2), ...
                [
                    (short, long),
                    (long, short),
                    (long, -short),
                    (short, -long),
                    (-short, -long),
                    (-long, -short),
                    (-long, short),
                    (-short, long),
                ][i as usize]
            } else {
                let (x, y) = unit(i);
                (x * dist, y * dist)
            }
        })
        .collect())
}

/// Turns (in eighths, clockwise, 0 = straight on) that a continuation leg's letters allow
/// relative to the previous leg. No letters: every direction except straight back for K, Q
/// and oblique atoms; straight on and the two right-angle turns for the four-fold atoms.
pub fn continuation(letters: &str, eight: bool) -> Vec<u8> {
    let mask = if letters.is_empty() {
        if eight {
            0xEF
        } else {
            0x45
        }
    } else {
        king_mask(letters)
    };
    (0..8u8).filter(|i| mask & (1 << i) != 0).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(atom: Atom, l: &str) -> Vec<(i8, i8)> {
        let mut v = first_leg(atom, l).unwrap();
        v.sort();
        v
    }

    #[test]
    fn orthogonal_letters_never_combine() {
        assert_eq!(set(Atom::W, "f"), vec![(0, 1)]);
        assert_eq!(set(Atom::W, "fs"), vec![(-1, 0), (0, 1), (1, 0)]);
        assert_eq!(set(Atom::R, "sb"), vec![(-1, 0), (0, -1), (1, 0)]);
        assert_eq!(set(Atom::R, "bs"), set(Atom::R, "sb"));
        assert_eq!(set(Atom::D, "f"), vec![(0, 2)]);
    }

    #[test]
    fn diagonal_letters_pair_up() {
        assert_eq!(set(Atom::F, "f"), vec![(-1, 1), (1, 1)]);
        assert_eq!(set(Atom::F, "lf"), vec![(-1, 1)]);
        // Hook Deva: King minus forward-right.
        assert_eq!(set(Atom::F, "lfb"), vec![(-1, -1), (-1, 1), (1, -1)]);
        // Shoko Deva's diagonals: rb + f.
        assert_eq!(set(Atom::F, "rbf"), vec![(-1, 1), (1, -1), (1, 1)]);
        // Left/Right Army: either right diagonal.
        assert_eq!(set(Atom::B, "rv"), vec![(1, -1), (1, 1)]);
        assert_eq!(set(Atom::B, "flbr"), vec![(-1, 1), (1, -1)]);
    }

    #[test]
    fn king_letters_use_the_eight_direction_system() {
        assert_eq!(set(Atom::K, "f"), vec![(0, 1)]);
        assert_eq!(set(Atom::K, "fs"), vec![(-1, 1), (1, 1)]);
        assert_eq!(set(Atom::K, "fr"), vec![(1, 1)]);
        assert_eq!(set(Atom::K, "sb"), vec![(-1, 0), (0, -1), (1, 0)]);
        assert_eq!(set(Atom::K, "").len(), 8);
        // Great Falcon: everything but straight forward.
        let falcon = set(Atom::K, "shb");
        assert_eq!(falcon.len(), 7);
        assert!(!falcon.contains(&(0, 1)));
        // Great Eagle: everything but the forward diagonals.
        let eagle = set(Atom::K, "bfbhs");
        assert_eq!(eagle.len(), 6);
        assert!(!eagle.contains(&(1, 1)) && !eagle.contains(&(-1, 1)));
    }

    #[test]
    fn oblique_letters() {
        assert_eq!(set(Atom::N, "ff"), vec![(-1, 2), (1, 2)]);
        assert_eq!(set(Atom::N, "f"), vec![(-1, 2), (1, 2)]);
        assert_eq!(set(Atom::N, "fh").len(), 4);
        assert_eq!(set(Atom::N, "lf"), vec![(-1, 2)]);
        assert_eq!(set(Atom::N, "").len(), 8);
    }

    #[test]
    fn continuation_defaults_exclude_straight_back() {
        assert_eq!(continuation("", true), vec![0, 1, 2, 3, 5, 6, 7]);
        assert_eq!(continuation("", false), vec![0, 2, 6]);
        assert_eq!(continuation("v", true), vec![0, 4]);
        assert_eq!(continuation("s", false), vec![2, 6]);
        assert_eq!(continuation("b", true), vec![4]);
        assert_eq!(continuation("fs", true), vec![1, 7]);
    }
}
