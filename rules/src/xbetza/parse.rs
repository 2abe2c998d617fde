//! XBetza text to a syntax tree: components, legs, modifiers, atoms and ranges.
//!
//! A component is `(modifiers | 'a')* ATOM [ATOM] [range]`: lowercase letters before the atom are
//! modifiers of the current leg, each `a` closes a leg and opens the next, the atom (shared by
//! all legs) and an optional range close the component. A doubled atom (`WW`) is a rider.

use std::fmt;

/// The basic step of a component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Atom {
    /// (1,0) wazir.
    W,
    /// (1,1) ferz.
    F,
    /// (2,0) dabbaba.
    D,
    /// (2,1) knight.
    N,
    /// (2,2) alfil.
    A,
    /// (3,0) threeleaper.
    H,
    /// (3,1) camel.
    C,
    /// (3,2) zebra.
    Z,
    /// (3,3) tripper.
    G,
    /// W and F, one step.
    K,
    /// W rider.
    R,
    /// F rider.
    B,
    /// W and F riders.
    Q,
    /// Universal leaper: any square of the board.
    U,
}

impl Atom {
    fn from_char(c: char) -> Option<Atom> {
        Some(match c {
            'W' => Atom::W,
            'F' => Atom::F,
            'D' => Atom::D,
            'N' => Atom::N,
            'A' => Atom::A,
            'H' => Atom::H,
            'C' => Atom::C,
            'Z' => Atom::Z,
            'G' => Atom::G,
            'K' => Atom::K,
            'R' => Atom::R,
            'B' => Atom::B,
            'Q' => Atom::Q,
            'U' => Atom::U,
            _ => return None,
        })
    }

    /// The step vector in the first octant, (files, ranks) with files >= ranks.
    pub fn step(self) -> (i8, i8) {
        match self {
            Atom::W | Atom::R => (1, 0),
            Atom::F | Atom::B => (1, 1),
            Atom::D => (2, 0),
            Atom::N => (2, 1),
            Atom::A => (2, 2),
            Atom::H => (3, 0),
            Atom::C => (3, 1),
            Atom::Z => (3, 2),
            Atom::G => (3, 3),
            Atom::K | Atom::Q | Atom::U => (1, 0),
        }
    }

    /// Whether the atom slides (repeats its step) by default.
    pub fn is_rider(self) -> bool {
        matches!(self, Atom::R | Atom::B | Atom::Q)
    }
}

/// How a leg may treat the square it ends on (and, for hoppers, pass over).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Modifiers {
    /// `m`: may end on an empty square.
    pub m: bool,
    /// `c`: may capture (end on an enemy; on a non-final leg the piece moves through it).
    pub c: bool,
    /// `p`: hop: must pass over one occupied square.
    pub p: bool,
    /// `g`: hop, then toggle between leaper and slider.
    pub g: bool,
    /// `y`: like `m`, then toggle between leaper and slider.
    pub y: bool,
    /// `j`: leapers must jump an occupied square; sliders skip their first square.
    pub j: bool,
    /// `n`: lame leaper, blocked by occupied squares on the way.
    pub n: bool,
}

/// One leg of a component as written: its direction letters and modifiers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LegSpec {
    /// Direction letters in the order written (`f`, `b`, `l`, `r`, `v`, `s`, `h`).
    pub dirs: String,
    /// Modality letters.
    pub mods: Modifiers,
}

/// One component of a piece's move: its legs, atom and range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Component {
    /// The legs in order; at least one.
    pub legs: Vec<LegSpec>,
    /// The atom shared by the legs.
    pub atom: Atom,
    /// Whether the atom was doubled (`WW`, `NN`): an unlimited rider.
    pub doubled: bool,
    /// The range number after the atom, if any (`0` = unlimited).
    pub range: Option<u8>,
}

/// Why an XBetza string could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset of the offending character.
    pub at: usize,
    /// What is wrong there.
    pub what: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.at + 1, self.what)
    }
}

impl std::error::Error for ParseError {}

/// Splits an XBetza string into components.
pub fn parse(text: &str) -> Result<Vec<Component>, ParseError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out = Vec::new();
    let mut legs: Vec<LegSpec> = Vec::new();
    let mut cur = LegSpec::default();
    let mut pending = false;
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        match c {
            'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => cur.dirs.push(c),
            'm' => cur.mods.m = true,
            'c' => cur.mods.c = true,
            'p' => cur.mods.p = true,
            'g' => cur.mods.g = true,
            'y' => cur.mods.y = true,
            'j' => cur.mods.j = true,
            'n' => cur.mods.n = true,
            'a' => {
                legs.push(std::mem::take(&mut cur));
            }
            _ => {
                let Some(atom) = Atom::from_char(c) else {
                    return Err(ParseError {
                        at,
                        what: format!(
                            "'{c}' is not an XBetza atom or modifier this compiler supports"
                        ),
                    });
                };
                legs.push(std::mem::take(&mut cur));
                let mut doubled = false;
                if i + 1 < chars.len() && chars[i + 1].1 == c && c != 'U' {
                    doubled = true;
                    i += 1;
                }
                let mut range = None;
                let mut j = i + 1;
                while j < chars.len() && chars[j].1.is_ascii_digit() {
                    j += 1;
                }
                if j > i + 1 {
                    let digits: String = chars[i + 1..j].iter().map(|&(_, d)| d).collect();
                    range = Some(digits.parse::<u8>().map_err(|_| ParseError {
                        at: chars[i + 1].0,
                        what: format!("range '{digits}' is too large"),
                    })?);
                    i = j - 1;
                }
                out.push(Component {
                    legs: std::mem::take(&mut legs),
                    atom,
                    doubled,
                    range,
                });
                pending = false;
                i += 1;
                continue;
            }
        }
        pending = true;
        i += 1;
    }
    if pending || !legs.is_empty() {
        return Err(ParseError {
            at: text.len().saturating_sub(1),
            what: "the string ends with modifiers but no atom".into(),
        });
    }
    if out.is_empty() {
        return Err(ParseError {
            at: 0,
            what: "empty move description".into(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_simple_components() {
        let c = parse("WfF").unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].atom, Atom::W);
        assert_eq!(c[1].legs[0].dirs, "f");
    }

    #[test]
    fn reads_legs_ranges_and_doubling() {
        let c = parse("KNADcaKmcabK").unwrap();
        assert_eq!(c.len(), 6);
        assert_eq!(c[4].legs.len(), 2);
        assert!(c[4].legs[0].mods.c);
        assert_eq!(c[5].legs.len(), 2);
        assert!(c[5].legs[0].mods.m && c[5].legs[0].mods.c);
        assert_eq!(c[5].legs[1].dirs, "b");
        let c = parse("BvRsW5").unwrap();
        assert_eq!(c[2].range, Some(5));
        let c = parse("KaKaaK").unwrap();
        assert_eq!(c[1].legs.len(), 2);
        assert_eq!(c[2].legs.len(), 3);
        let c = parse("WW").unwrap();
        assert!(c[0].doubled);
    }

    #[test]
    fn rejects_garbage_with_position() {
        let e = parse("WfX").unwrap_err();
        assert_eq!(e.at, 2);
        assert!(parse("Wf").is_err());
        assert!(parse("").is_err());
    }
}
