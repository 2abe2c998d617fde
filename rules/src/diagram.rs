//! A piece's move diagram: what it can do to each square around it on an empty board, the way
//! piece references (the Interactive Diagram, large-shogi handbooks) draw a piece's moves.
//!
//! It is read from the compiled [`MoveTable`], not from the XBetza text, so the picture is what
//! the move generator does: steps, leaps, slides, hops over a screen, bent and multi-leg moves
//! with the squares they capture on the way. Powers that a rule module adds (Ko Shogi's shots
//! and burning) are not in the table; variant files describe them in words (`about`).

use crate::xbetza::{Leg, MoveTable, UNLIMITED};

/// How a piece may reach one square of its diagram: a set of the flags below.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct How(pub u16);

impl How {
    /// A move may end here on an empty square.
    pub const MOVE: How = How(1);
    /// A move may end here by capturing.
    pub const CAPTURE: How = How(2);
    /// Ends a one-square step (or a leap that cannot jump).
    pub const STEP: How = How(4);
    /// Ends a leap, jumping whatever is between.
    pub const JUMP: How = How(8);
    /// Ends a slide along a line, which pieces block.
    pub const SLIDE: How = How(16);
    /// Ends a hop: the move must pass over a piece (a screen) first.
    pub const HOP: How = How(32);
    /// Ends a move of several legs (a bent slide, a Lion's second step).
    pub const LEGS: How = How(64);
    /// A leg of a multi-leg move may capture here on the way and go on.
    pub const KILL: How = How(128);

    /// Whether every flag of `other` is set.
    pub fn has(self, other: How) -> bool {
        self.0 & other.0 == other.0
    }

    /// The names of the flags set, for documents: `move`, `capture`, `step`, `jump`,
    /// `slide`, `hop`, `legs`, `kill`.
    pub fn names(self) -> Vec<&'static str> {
        const NAMES: [(How, &str); 8] = [
            (How::MOVE, "move"),
            (How::CAPTURE, "capture"),
            (How::STEP, "step"),
            (How::JUMP, "jump"),
            (How::SLIDE, "slide"),
            (How::HOP, "hop"),
            (How::LEGS, "legs"),
            (How::KILL, "kill"),
        ];
        NAMES
            .iter()
            .filter(|(h, _)| self.has(*h))
            .map(|&(_, n)| n)
            .collect()
    }
}

impl std::ops::BitOr for How {
    type Output = How;
    fn bitor(self, o: How) -> How {
        How(self.0 | o.0)
    }
}

impl std::ops::BitOrAssign for How {
    fn bitor_assign(&mut self, o: How) {
        self.0 |= o.0;
    }
}

/// One square of a diagram that the piece can reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// Files to the right of the piece (for the side the table is oriented for).
    pub df: i8,
    /// Ranks forward.
    pub dr: i8,
    /// How.
    pub how: How,
}

/// A piece's moves on an empty board of `2 * radius + 1` squares a side, the piece in the
/// middle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagram {
    /// Squares from the middle to the edge.
    pub radius: u8,
    /// The squares the piece can reach (or capture on the way), each once, by rank then file.
    pub cells: Vec<Cell>,
    /// Some move ends where it began (a turn skip, or a capture on the way without moving).
    pub returns: bool,
}

impl Diagram {
    /// The diagram of `table` on a board of the smallest radius (at least 2, at most `cap`)
    /// that shows every bounded move whole; unbounded moves run to its edge.
    pub fn of(table: &MoveTable, cap: u8) -> Diagram {
        let cap = cap.max(1);
        let radius = natural_radius(table, cap);
        let mut d = Walk {
            radius: radius as i32,
            grid: vec![How::default(); (2 * radius as usize + 1).pow(2)],
            returns: false,
        };
        for l in &table.leaps {
            let far = l.step.0.unsigned_abs().max(l.step.1.unsigned_abs());
            let how = if far > 1 { How::JUMP } else { How::STEP };
            d.end(l.step.0 as i32, l.step.1 as i32, how, l.m, l.c);
        }
        for s in &table.slides {
            let how = if s.range == 1 { How::STEP } else { How::SLIDE };
            for k in 1..=d.steps(s.range) {
                let (f, r) = (s.step.0 as i32 * k, s.step.1 as i32 * k);
                if !d.inside(f, r) {
                    break;
                }
                d.end(f, r, how, s.m, s.c);
            }
        }
        for path in &table.paths {
            d.path(&path.legs, 0, 0, 0);
        }
        if let Some((m, c)) = table.universal {
            let r = radius as i32;
            for f in -r..=r {
                for dr in -r..=r {
                    if (f, dr) != (0, 0) {
                        d.end(f, dr, How::JUMP, m, c);
                    }
                }
            }
        }
        let r = radius as i32;
        let mut cells = Vec::new();
        for dr in (-r..=r).rev() {
            for f in -r..=r {
                let how = d.grid[d.index(f, dr)];
                if how != How::default() {
                    cells.push(Cell {
                        df: f as i8,
                        dr: dr as i8,
                        how,
                    });
                }
            }
        }
        Diagram {
            radius,
            cells,
            returns: d.returns,
        }
    }

    /// The flags of the square `(df, dr)` (empty where the piece cannot go).
    pub fn at(&self, df: i8, dr: i8) -> How {
        self.cells
            .iter()
            .find(|c| c.df == df && c.dr == dr)
            .map_or(How::default(), |c| c.how)
    }
}

/// The smallest radius that shows the bounded moves of `table` whole, from 2 to `cap`.
fn natural_radius(table: &MoveTable, cap: u8) -> u8 {
    let far = |s: (i8, i8)| s.0.unsigned_abs().max(s.1.unsigned_abs()) as u32;
    let mut need: u32 = 2;
    for l in &table.leaps {
        need = need.max(far(l.step));
    }
    for s in &table.slides {
        need = need.max(if s.range == UNLIMITED {
            cap as u32
        } else {
            s.range as u32 * far(s.step)
        });
    }
    for p in &table.paths {
        let bounded = p.legs.iter().all(|l| l.range != UNLIMITED);
        need = need.max(if bounded {
            p.legs.iter().map(|l| l.range as u32 * far(l.step)).sum()
        } else {
            cap as u32
        });
    }
    if table.universal.is_some() {
        need = cap as u32;
    }
    need.min(cap as u32) as u8
}

/// The grid being filled.
struct Walk {
    radius: i32,
    grid: Vec<How>,
    returns: bool,
}

impl Walk {
    fn inside(&self, f: i32, r: i32) -> bool {
        f.abs() <= self.radius && r.abs() <= self.radius
    }

    fn index(&self, f: i32, r: i32) -> usize {
        let side = 2 * self.radius + 1;
        ((self.radius - r) * side + (f + self.radius)) as usize
    }

    /// Most steps a leg of `range` takes on this board.
    fn steps(&self, range: u8) -> i32 {
        if range == UNLIMITED {
            2 * self.radius
        } else {
            range as i32
        }
    }

    fn mark(&mut self, f: i32, r: i32, how: How) {
        if (f, r) == (0, 0) {
            return;
        }
        if self.inside(f, r) {
            let i = self.index(f, r);
            self.grid[i] |= how;
        }
    }

    /// A move may end on `(f, r)`.
    fn end(&mut self, f: i32, r: i32, how: How, m: bool, c: bool) {
        if (f, r) == (0, 0) {
            self.returns = true;
            return;
        }
        let mut h = how;
        if m {
            h |= How::MOVE;
        }
        if c {
            h |= How::CAPTURE;
        }
        self.mark(f, r, h);
    }

    /// Follows `legs[i..]` from `(f, r)`, marking where they end and capture on the way.
    fn path(&mut self, legs: &[Leg], i: usize, f: i32, r: i32) {
        let leg = &legs[i];
        let last = i + 1 == legs.len();
        let first = if leg.skip_first { 2 } else { 1 };
        for k in first..=self.steps(leg.range) {
            let (tf, tr) = (f + leg.step.0 as i32 * k, r + leg.step.1 as i32 * k);
            // A later leg may come back into view, so only a first leg stops at the edge.
            if i == 0 && !self.inside(tf, tr) {
                break;
            }
            if (tf - f).abs() > 4 * self.radius || (tr - r).abs() > 4 * self.radius {
                break;
            }
            if last {
                let how = if legs.len() > 1 {
                    How::LEGS
                } else if leg.p {
                    How::HOP
                } else if leg.skip_first || leg.must_jump {
                    // Over the first square whatever is there (`jQ3`), or over pieces (`jD`).
                    How::JUMP
                } else if leg.range > 1 {
                    How::SLIDE
                } else if leg.between.is_empty()
                    && leg.step.0.unsigned_abs().max(leg.step.1.unsigned_abs()) > 1
                {
                    How::JUMP
                } else {
                    // A step, or a lame leap that needs its way free.
                    How::STEP
                };
                if !leg.p || k > 1 {
                    self.end(tf, tr, how, leg.m, leg.c);
                }
            } else {
                if leg.c && !leg.p {
                    self.mark(tf, tr, How::KILL);
                }
                if leg.m || leg.c || leg.p {
                    self.path(legs, i + 1, tf, tr);
                }
            }
        }
    }
}
