//! The compiled form of a piece's moves: concrete legs with absolute steps, per colour.
//!
//! Generation runs these tables; it never looks at XBetza text. Single-leg leaps and slides,
//! by far the most common moves, get their own flat lists so that the hot loops stay simple;
//! everything else (multi-leg moves, hops, lame or jumping leapers, skip-first sliders, the
//! universal leaper) is a [`Path`] run by the general walker.

/// Unlimited range.
pub const UNLIMITED: u8 = u8::MAX;

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
    /// A final slider leg that may jump (a piece's `jumps_lower_ranks`; 0 = none): besides the
    /// plain slide, it passes over any number of pieces of either side whose `rank` is below
    /// this, to capture an enemy of a rank below this further on. A jump never ends on an empty
    /// square. XBetza has no letter for it; the variant loader sets it.
    pub pass_below: u8,
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

/// One leg in the prefix tree of a table's paths: paths that begin with the same legs share
/// them, so the walker follows a common beginning once (an area move's 392 three-step paths
/// start from 8 first steps).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LegNode {
    /// The leg.
    pub leg: Leg,
    /// Whether a path ends with this leg (then `next` is empty).
    pub last: bool,
    /// The legs that may follow.
    pub next: Vec<LegNode>,
    /// Where this leg and those after it can land, from the leg's start.
    pub reach: NodeReach,
}

/// Where the legs of a prefix-tree node and its descendants can land relative to the node's
/// starting square, so that a walk looking for a capture on one square skips the branches
/// that cannot get there (an area move's 512 three-step paths shrink to the few pointing at
/// the target, a hopper's four lines to the one it stands on).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeReach {
    /// Most king steps away any landing can be (saturated: 255 is unbounded).
    pub near: u8,
    /// Every leg goes along this unit step, so every landing lies on its ray.
    pub ray: Option<(i8, i8)>,
}

impl NodeReach {
    /// Whether a landing `(df, dr)` squares away from the node's start may be possible.
    #[inline]
    pub fn may_reach(&self, df: i32, dr: i32) -> bool {
        if df.abs().max(dr.abs()) > self.near as i32 {
            return false;
        }
        match self.ray {
            None => true,
            Some((x, y)) => {
                let k = if x != 0 { df * x as i32 } else { dr * y as i32 };
                k >= 0 && df == k * x as i32 && dr == k * y as i32
            }
        }
    }

    /// The reach of a node with leg `leg` whose children reach as `next` says.
    fn of(leg: &Leg, next: &[LegNode]) -> NodeReach {
        let (x, y) = (leg.step.0 as i32, leg.step.1 as i32);
        let span = x.abs().max(y.abs());
        let own = leg.range as i32 * span;
        let after = next.iter().map(|n| n.reach.near as i32).max().unwrap_or(0);
        let straight = span > 0 && (x == 0 || y == 0 || x.abs() == y.abs());
        let unit = straight.then(|| ((x / span) as i8, (y / span) as i8));
        let ray = unit.filter(|&u| next.iter().all(|n| n.reach.ray == Some(u)));
        NodeReach {
            near: (own + after).min(u8::MAX as i32) as u8,
            ray,
        }
    }

    /// Fills in the reach of every node of `tree`, children first.
    fn fill(tree: &mut [LegNode]) {
        for n in tree {
            NodeReach::fill(&mut n.next);
            n.reach = NodeReach::of(&n.leg, &n.next);
        }
    }
}

/// Where a table's paths can capture, relative to the origin, so that attack tests skip
/// pieces that cannot reach the target. It bounds every square a path passes through as
/// well, not only where it captures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PathReach {
    /// Largest distance (in king steps) of the paths of bounded range: the sum of their legs'
    /// lengths, so no square a path passes lies farther.
    pub near: u8,
    /// Some unbounded paths stay on one orthogonal or diagonal line through the origin (every
    /// leg along one such step). A path along a line of knight steps counts as `anywhere`.
    pub lines: bool,
    /// Some path can capture anywhere (bent or universal moves).
    pub anywhere: bool,
}

/// Whether a step runs along a file, a rank or a diagonal.
fn queen_aligned(step: (i8, i8)) -> bool {
    step.0 == 0 || step.1 == 0 || step.0.abs() == step.1.abs()
}

impl PathReach {
    /// Whether a capture `(df, dr)` squares away from the origin may be possible.
    #[inline]
    pub fn may_reach(&self, df: i32, dr: i32) -> bool {
        self.anywhere
            || df.abs().max(dr.abs()) <= self.near as i32
            || (self.lines && (df == 0 || dr == 0 || df.abs() == dr.abs()))
    }
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
    /// `paths` as a prefix tree: what the walker runs (all of them but the area move's).
    pub tree: Vec<LegNode>,
    /// The radius of the area move among `paths` (2 or 3 king steps; 0: none), which
    /// generation answers by set operations instead of the walker (see `xbetza::area`).
    pub area: u8,
    /// Where `paths` and `universal` can capture.
    pub reach: PathReach,
    /// The universal leaper `U`: (may move, may capture).
    pub universal: Option<(bool, bool)>,
    /// Whether two entries can produce the same move, so generation must remove duplicates.
    pub may_repeat: bool,
}

impl MoveTable {
    /// Builds `tree` from the `paths` marked `walked`, and `reach` from all paths and
    /// `universal` (`finish` decides which paths the walker runs).
    pub(crate) fn build_tree(&mut self, walked: &[bool]) {
        let mut tree: Vec<LegNode> = Vec::new();
        for (path, _) in self.paths.iter().zip(walked).filter(|(_, &w)| w) {
            let mut level = &mut tree;
            for (i, leg) in path.legs.iter().enumerate() {
                let last = i + 1 == path.legs.len();
                let at = match level.iter().position(|n| n.leg == *leg && n.last == last) {
                    Some(at) => at,
                    None => {
                        level.push(LegNode {
                            leg: leg.clone(),
                            last,
                            next: Vec::new(),
                            reach: NodeReach { near: 0, ray: None },
                        });
                        level.len() - 1
                    }
                };
                level = &mut level[at].next;
            }
        }
        NodeReach::fill(&mut tree);
        self.tree = tree;
        let mut reach = PathReach {
            anywhere: self.universal.is_some(),
            ..PathReach::default()
        };
        for path in &self.paths {
            let bounded = path.legs.iter().all(|l| l.range != UNLIMITED);
            if bounded {
                let far: u32 = path
                    .legs
                    .iter()
                    .map(|l| {
                        l.range as u32 * l.step.0.unsigned_abs().max(l.step.1.unsigned_abs()) as u32
                    })
                    .sum();
                reach.near = reach.near.max(far.min(u8::MAX as u32) as u8);
            } else if path.legs.iter().all(|l| l.step == path.legs[0].step)
                && queen_aligned(path.legs[0].step)
            {
                reach.lines = true;
            } else {
                reach.anywhere = true;
            }
        }
        self.reach = reach;
    }

    /// Whether the piece has any move that can capture.
    pub fn can_capture(&self) -> bool {
        self.leaps.iter().any(|l| l.c)
            || self.slides.iter().any(|s| s.c)
            || self.paths.iter().any(|p| p.legs.iter().any(|l| l.c))
            || self.universal.is_some_and(|u| u.1)
    }

    /// Whether a walk aimed at one square follows few branches: every branch at the root of
    /// the path tree is bounded or stays on one ray ([`NodeReach`]), and there is no universal
    /// leap. Hoppers and area movers are; bent sliders are not.
    pub fn aims_well(&self) -> bool {
        self.universal.is_none()
            && self
                .tree
                .iter()
                .all(|n| n.reach.ray.is_some() || n.reach.near < u8::MAX)
    }

    /// Whether the table has only plain leaps and slides.
    pub fn is_simple(&self) -> bool {
        self.paths.is_empty() && self.universal.is_none()
    }
}
