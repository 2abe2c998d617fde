//! The compiled form of a piece's moves: concrete legs with absolute steps, per colour.
//!
//! Generation runs these tables; it never looks at XBetza text. Single-leg leaps and slides,
//! by far the most common moves, get their own flat lists so that the hot loops stay simple;
//! everything else (multi-leg moves, hops, lame or jumping leapers, skip-first sliders, the
//! universal leaper) is a [`Path`] run by the general walker.

/// One leg of a compiled move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leg {
    /// Board step (files, ranks), already oriented for the piece's colour.
    pub step: (i8, i8),
    /// The same step as a mailbox offset.
    pub delta: i32,
    /// Most steps the leg may take: 1 for a leaper, more for a slider.
    pub range: u8,
    /// May end on an empty square (a non-final leg then passes through it).
    pub m: bool,
    /// May end on an enemy: a capture (a kill square on a non-final leg).
    pub c: bool,
    /// Hop: on a non-final leg, ends on an occupied square that is passed over untouched; on a
    /// final slider leg, must first pass exactly one occupied square (cannon).
    pub p: bool,
    /// Slider that skips its first square whatever is on it (`jR`).
    pub skip_first: bool,
    /// Leaper whose intermediate squares must all be occupied... at least one (`jD`).
    pub must_jump: bool,
    /// Mailbox offsets (from the leg's start) of the squares a lame leaper needs empty, or a
    /// jumping leaper needs occupied.
    pub between: Vec<i32>,
}

/// A single-leg leap to a fixed offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leap {
    /// Board step (files, ranks), oriented.
    pub step: (i8, i8),
    /// Mailbox offset.
    pub delta: i32,
    /// May move to an empty square.
    pub m: bool,
    /// May capture.
    pub c: bool,
}

/// A single-leg slide along a fixed direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slide {
    /// Unit board step (files, ranks), oriented.
    pub step: (i8, i8),
    /// Mailbox offset of one step.
    pub delta: i32,
    /// Most squares moved (255 = to the edge).
    pub range: u8,
    /// May move to an empty square.
    pub m: bool,
    /// May capture.
    pub c: bool,
}

/// A general compiled move: its legs in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Path {
    /// The legs; the last one is the final leg.
    pub legs: Vec<Leg>,
}

/// Every move of one piece kind for one colour.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveTable {
    /// Single-leg leaps.
    pub leaps: Vec<Leap>,
    /// Single-leg slides.
    pub slides: Vec<Slide>,
    /// Everything else.
    pub paths: Vec<Path>,
    /// The universal leaper `U`: (may move, may capture).
    pub universal: Option<(bool, bool)>,
    /// Whether two entries can produce the same move, so generation must remove duplicates.
    pub may_repeat: bool,
}

impl MoveTable {
    /// Whether the piece has any move that can capture.
    pub fn can_capture(&self) -> bool {
        self.leaps.iter().any(|l| l.c)
            || self.slides.iter().any(|s| s.c)
            || self.paths.iter().any(|p| p.legs.iter().any(|l| l.c))
            || self.universal.is_some_and(|u| u.1)
    }

    /// Whether the table has only plain leaps and slides.
    pub fn is_simple(&self) -> bool {
        self.paths.is_empty() && self.universal.is_none()
    }
}
