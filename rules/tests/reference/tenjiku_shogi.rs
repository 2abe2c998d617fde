//! Slow, deliberately simple, independent reference move generator for Tenjiku Shogi, used by
//! tests to cross-check the fast rules core.
//!
//! It shares no code and no data with the rules core: the pieces, the start position and every
//! rule are written here from `docs/tenjiku-shogi.md`, in plain words rather than from the
//! variant file's XBetza. Everything is done the naive way:
//!   * the board is a `Vec<Option<Piece>>` of (file, rank) squares; a piece is its ID and side;
//!   * a piece's moves are a list of simple components (a step or leap, a slide, a jumping
//!     general's line, a Tetrarch's skipping slide, Lion power, the Free Eagle's diagonal
//!     double moves, the area move), written per ID from the spec's tables and interpreted
//!     afresh at every call by walking the board;
//!   * each walk yields raw moves (origin, squares captured on the way, destination); the
//!     promotion rule (§5) turns them into move texts, and equal texts are one move;
//!   * a move is applied on a copy of the board: captures, then passive burning by the enemy
//!     Fire Demons that stood on the board when the move started, then (if the mover survived
//!     and started the move as a Fire Demon) active burning (§4.3).
//!
//! Rules taken as the spec writes them: jumping generals per §4.1 (plain slides without
//! capture, the first piece met capturable whatever its rank, jump captures over pieces of
//! lower rank than the general's of an enemy of lower rank); area moves per §4.2 (up to three
//! king steps through empty squares, the origin counting as empty, capture only at the end, a
//! pass back onto the origin); Fire Demon `BvR`; Free Eagle `QAcaFcabF`; Heavenly Tetrarchs
//! `jsR3jBjvRcabK`; Lions as in Chu without the trading rules; royal capture (moving into
//! check is legal, a side without King and Crown Prince has lost). No drops, no repetition.
//!
//! Coordinates: `x` = file from 0 (`a`), `y` = rank from 0 (rank 1). Black (the first player)
//! moves first; forward is +y for Black, -y for White.

#![allow(dead_code)]

use std::collections::BTreeSet;

/// Board size.
const SIZE: i32 = 16;
/// Depth of the promotion zone (§1).
const ZONE: i32 = 5;

pub type Sq = (i32, i32);

/// The 36 piece types of the start position (§2.1).
const BASE_IDS: [&str; 36] = [
    "K", "DE", "G", "S", "C", "I", "FL", "N", "L", "RC", "CS", "BT", "KY", "LN", "FK", "PH", "SS",
    "VS", "B", "DH", "DK", "WB", "FI", "LH", "FE", "SM", "VM", "R", "HF", "SE", "BG", "RG", "GG",
    "VG", "P", "D",
];

/// The 30 promoted forms (§2.2).
const PROMOTED_IDS: [&str; 30] = [
    "+P", "+DE", "+G", "+S", "+C", "+I", "+FL", "+N", "+L", "+RC", "+CS", "+BT", "+KY", "+LN",
    "+FK", "+PH", "+SS", "+VS", "+B", "+DH", "+DK", "+WB", "+SM", "+VM", "+R", "+HF", "+SE", "+D",
    "+BG", "+RG",
];

/// The ID as a `'static` string, if it is a Tenjiku piece.
fn known_id(id: &str) -> Option<&'static str> {
    BASE_IDS
        .iter()
        .chain(PROMOTED_IDS.iter())
        .find(|&&k| k == id)
        .copied()
}

/// The promoted form of `id`, if it has one (§2.1 "promotes to"; promoted pieces never
/// promote again).
fn promoted_form(id: &str) -> Option<&'static str> {
    if id.starts_with('+') || matches!(id, "K" | "FI" | "LH" | "FE" | "GG" | "VG") {
        return None;
    }
    known_id(&format!("+{id}"))
}

/// Jumping rank (§4.1): King and Crown Prince 4, Great General 3, Vice General 2, Rook and
/// Bishop Generals 1 (promoted twins included), every other piece 0.
fn rank_of(id: &str) -> i32 {
    match id {
        "K" | "+DE" => 4,
        "GG" | "+RG" => 3,
        "VG" | "+BG" => 2,
        "RG" | "BG" | "+HF" | "+SE" => 1,
        _ => 0,
    }
}

fn is_royal(id: &str) -> bool {
    matches!(id, "K" | "+DE")
}

/// Fire Demons burn (§4.3): the Fire Demon and the promoted Water Buffalo.
fn is_burner(id: &str) -> bool {
    matches!(id, "FI" | "+WB")
}

/// How many of the farthest ranks force the piece to promote when it may (§5).
fn forced_ranks(id: &str) -> i32 {
    match id {
        "P" | "L" | "I" => 1,
        "N" => 2,
        _ => 0,
    }
}

// ---------------------------------------------------------------------------
// Moves of each piece, in plain components
// ---------------------------------------------------------------------------

/// Directions for Black (forward = +y); White's are turned through 180°.
const F: Sq = (0, 1);
const B: Sq = (0, -1);
const L: Sq = (-1, 0);
const R: Sq = (1, 0);
const FL: Sq = (-1, 1);
const FR: Sq = (1, 1);
const BL: Sq = (-1, -1);
const BR: Sq = (1, -1);
const ORTH: [Sq; 4] = [F, B, L, R];
const DIAG: [Sq; 4] = [FL, FR, BL, BR];
const ALL8: [Sq; 8] = [F, B, L, R, FL, FR, BL, BR];

/// Unlimited range.
const FAR: i32 = 99;

/// One component of a piece's move.
#[derive(Clone, Copy, Debug)]
enum Comp {
    /// One step or leap by the vector, to an empty square or onto an enemy (a leap ignores the
    /// squares between).
    Leap(Sq),
    /// A slide along the direction, at most the given number of squares, stopping at the first
    /// occupied square (capturing it when it is an enemy).
    Slide(Sq, i32),
    /// A jumping general's line (§4.1): plain slide without capture; the first piece met may be
    /// captured whatever its rank; pieces of lower rank than the general's are jumped, and an
    /// enemy of lower rank further on may be captured.
    Jump(Sq),
    /// Heavenly Tetrarchs (§4.5): skip the first square whatever is on it, then slide from the
    /// second square up to the given distance from the origin.
    Skip(Sq, i32),
    /// Heavenly Tetrarchs: igui on any adjacent enemy.
    AdjacentIgui,
    /// The Lion's move (Chu): a king step; a leap to any square two away; a capture on an
    /// adjacent square followed by one more king step anywhere (empty square, second capture,
    /// or back onto the origin = igui); a pass through an empty adjacent square.
    Lion,
    /// Lion power along one direction (Horned Falcon, Soaring Eagle): the step, the two-square
    /// leap, a capture on the step followed by the step on (move or capture) or back (igui),
    /// a pass through the step if it is empty.
    LionLine(Sq),
    /// The Free Eagle's `caFcabF` along one diagonal: capture the diagonal neighbour, then one
    /// more diagonal step straight on, turning 90° either way, or straight back (igui).
    EagleCapture(Sq),
    /// The area move (§4.2) of the Fire Demon and Vice General.
    Area,
}

use Comp::*;

/// The components of `id`'s move, from §2 (`moves as` columns).
fn components(id: &str) -> Vec<Comp> {
    let mut m = Vec::new();
    let steps = |m: &mut Vec<Comp>, ds: &[Sq]| m.extend(ds.iter().map(|&d| Leap(d)));
    let slides = |m: &mut Vec<Comp>, ds: &[Sq], n: i32| m.extend(ds.iter().map(|&d| Slide(d, n)));
    match id {
        // King, Crown Prince: `K`.
        "K" | "+DE" => steps(&mut m, &ALL8),
        // Drunk Elephant `FfsW`.
        "DE" => steps(&mut m, &[FL, FR, BL, BR, F, L, R]),
        // Gold, Tokin `WfF`.
        "G" | "+P" => steps(&mut m, &[F, B, L, R, FL, FR]),
        // Silver `FfW`.
        "S" => steps(&mut m, &[FL, FR, BL, BR, F]),
        // Copper `fFvW`.
        "C" => steps(&mut m, &[FL, FR, F, B]),
        // Iron `fWfF`.
        "I" => steps(&mut m, &[F, FL, FR]),
        // Ferocious Leopard `FvW`.
        "FL" => steps(&mut m, &[FL, FR, BL, BR, F, B]),
        // Knight `ffN`.
        "N" => steps(&mut m, &[(-1, 2), (1, 2)]),
        // Lance `fR`.
        "L" => slides(&mut m, &[F], FAR),
        // Reverse Chariot `vR`.
        "RC" => slides(&mut m, &[F, B], FAR),
        // Chariot Soldier `BvRsW2`.
        "CS" | "+VS" => {
            slides(&mut m, &DIAG, FAR);
            slides(&mut m, &[F, B], FAR);
            slides(&mut m, &[L, R], 2);
        }
        // Blind Tiger `FsbW`.
        "BT" => steps(&mut m, &[FL, FR, BL, BR, L, R, B]),
        // Kirin `FD`.
        "KY" => {
            steps(&mut m, &DIAG);
            steps(&mut m, &[(0, 2), (0, -2), (2, 0), (-2, 0)]);
        }
        // Lion `KNADcaKmcabK`.
        "LN" | "+KY" => m.push(Lion),
        // Free King `Q`.
        "FK" | "+PH" => slides(&mut m, &ALL8, FAR),
        // Phoenix `WA`.
        "PH" => {
            steps(&mut m, &ORTH);
            steps(&mut m, &[(2, 2), (2, -2), (-2, 2), (-2, -2)]);
        }
        // Side Soldier `sRbWfW2`.
        "SS" | "+N" => {
            slides(&mut m, &[L, R], FAR);
            steps(&mut m, &[B]);
            slides(&mut m, &[F], 2);
        }
        // Vertical Soldier `fRbWsW2`.
        "VS" | "+I" => {
            slides(&mut m, &[F], FAR);
            steps(&mut m, &[B]);
            slides(&mut m, &[L, R], 2);
        }
        // Bishop `B`.
        "B" | "+FL" => slides(&mut m, &DIAG, FAR),
        // Dragon Horse `BW`.
        "DH" | "+B" => {
            slides(&mut m, &DIAG, FAR);
            steps(&mut m, &ORTH);
        }
        // Dragon King `RF`.
        "DK" | "+R" => {
            slides(&mut m, &ORTH, FAR);
            steps(&mut m, &DIAG);
        }
        // Water Buffalo `BsRvW2`.
        "WB" | "+SS" => {
            slides(&mut m, &DIAG, FAR);
            slides(&mut m, &[L, R], FAR);
            slides(&mut m, &[F, B], 2);
        }
        // Fire Demon `BvR` + area move.
        "FI" | "+WB" => {
            slides(&mut m, &DIAG, FAR);
            slides(&mut m, &[F, B], FAR);
            m.push(Area);
        }
        // Lion Hawk `BWNADcaKmcabK`.
        "LH" | "+LN" => {
            slides(&mut m, &DIAG, FAR);
            m.push(Lion);
        }
        // Free Eagle `QAcaFcabF`.
        "FE" | "+FK" => {
            slides(&mut m, &ALL8, FAR);
            steps(&mut m, &[(2, 2), (2, -2), (-2, 2), (-2, -2)]);
            m.extend(DIAG.iter().map(|&d| EagleCapture(d)));
        }
        // Side Mover `sRvW`.
        "SM" | "+C" => {
            slides(&mut m, &[L, R], FAR);
            steps(&mut m, &[F, B]);
        }
        // Vertical Mover `vRsW`.
        "VM" | "+S" => {
            slides(&mut m, &[F, B], FAR);
            steps(&mut m, &[L, R]);
        }
        // Rook `R`.
        "R" | "+G" => slides(&mut m, &ORTH, FAR),
        // Horned Falcon `BbsRfWfDfcavWfmabW`.
        "HF" | "+DH" => {
            slides(&mut m, &DIAG, FAR);
            slides(&mut m, &[B, L, R], FAR);
            m.push(LionLine(F));
        }
        // Soaring Eagle `RbBfFfAfcavFfmabF`.
        "SE" | "+DK" => {
            slides(&mut m, &ORTH, FAR);
            slides(&mut m, &[BL, BR], FAR);
            m.push(LionLine(FL));
            m.push(LionLine(FR));
        }
        // Bishop General `B`, jump-capture.
        "BG" | "+HF" => m.extend(DIAG.iter().map(|&d| Jump(d))),
        // Rook General `R`, jump-capture.
        "RG" | "+SE" => m.extend(ORTH.iter().map(|&d| Jump(d))),
        // Great General `Q`, jump-capture.
        "GG" | "+RG" => m.extend(ALL8.iter().map(|&d| Jump(d))),
        // Vice General `B`, jump-capture, + area move.
        "VG" | "+BG" => {
            m.extend(DIAG.iter().map(|&d| Jump(d)));
            m.push(Area);
        }
        // Pawn `fW`.
        "P" => steps(&mut m, &[F]),
        // Dog `fWbF`.
        "D" => steps(&mut m, &[F, BL, BR]),
        // White Horse `vRfB`.
        "+L" => slides(&mut m, &[F, B, FL, FR], FAR),
        // Whale `vRbB`.
        "+RC" => slides(&mut m, &[F, B, BL, BR], FAR),
        // Heavenly Tetrarchs `jsR3jBjvRcabK`.
        "+CS" => {
            m.extend([L, R].iter().map(|&d| Skip(d, 3)));
            m.extend([F, B, FL, FR, BL, BR].iter().map(|&d| Skip(d, FAR)));
            m.push(AdjacentIgui);
        }
        // Flying Stag `KvR`.
        "+BT" => {
            steps(&mut m, &ALL8);
            slides(&mut m, &[F, B], FAR);
        }
        // Free Boar `BsR`.
        "+SM" => slides(&mut m, &[FL, FR, BL, BR, L, R], FAR),
        // Flying Ox `BvR`.
        "+VM" => slides(&mut m, &[FL, FR, BL, BR, F, B], FAR),
        // Multi General `fRbB`.
        "+D" => slides(&mut m, &[F, BL, BR], FAR),
        _ => panic!("no moves for {id}"),
    }
    m
}

// ---------------------------------------------------------------------------
// Squares, pieces, raw moves
// ---------------------------------------------------------------------------

/// A piece: its ID (`+` first for a promoted form) and side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Piece {
    pub id: &'static str,
    pub black: bool,
}

fn on_board((x, y): Sq) -> bool {
    (0..SIZE).contains(&x) && (0..SIZE).contains(&y)
}

fn add((x, y): Sq, (dx, dy): Sq, k: i32) -> Sq {
    (x + dx * k, y + dy * k)
}

/// King-step neighbours of `s` on the board.
fn neighbours(s: Sq) -> Vec<Sq> {
    ALL8.iter()
        .map(|&d| add(s, d, 1))
        .filter(|&t| on_board(t))
        .collect()
}

fn adjacent(a: Sq, b: Sq) -> bool {
    a != b && (a.0 - b.0).abs() <= 1 && (a.1 - b.1).abs() <= 1
}

pub fn sq_text((x, y): Sq) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

pub fn parse_sq(s: &str) -> Option<Sq> {
    let b = s.as_bytes();
    let x = (*b.first()? as i32) - b'a' as i32;
    let y: i32 = s.get(1..)?.parse().ok()?;
    let sq = (x, y - 1);
    on_board(sq).then_some(sq)
}

/// One raw move: origin, squares captured on the way in path order, destination (a capture
/// there is implied by an enemy standing on it; the destination may be the origin).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Raw {
    from: Sq,
    kills: Vec<Sq>,
    to: Sq,
}

/// A legal move: its text, its raw path and the ID the mover ends as.
#[derive(Clone, Debug)]
struct Cand {
    text: String,
    raw: Raw,
    end: &'static str,
}

/// `h8h9`; `f8g9,g9f8`: one leg per square captured on the way, then the leg to the end.
fn path_text(raw: &Raw) -> String {
    let mut legs = Vec::new();
    let mut at = raw.from;
    for &k in &raw.kills {
        legs.push(format!("{}{}", sq_text(at), sq_text(k)));
        at = k;
    }
    legs.push(format!("{}{}", sq_text(at), sq_text(raw.to)));
    legs.join(",")
}

// ---------------------------------------------------------------------------
// Position
// ---------------------------------------------------------------------------

#[derive(Clone, PartialEq)]
pub struct RefPosition {
    board: Vec<Option<Piece>>,
    black_to_move: bool,
    ply: u32,
}

impl std::fmt::Debug for RefPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tenjiku {}", self.to_fen())
    }
}

/// What a square holds for a moving piece: empty, own or enemy.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Occ {
    Empty,
    Own,
    Enemy,
}

impl RefPosition {
    fn at(&self, (x, y): Sq) -> Option<Piece> {
        self.board[(y * SIZE + x) as usize]
    }

    fn set(&mut self, (x, y): Sq, p: Option<Piece>) {
        self.board[(y * SIZE + x) as usize] = p;
    }

    fn squares() -> Vec<Sq> {
        (0..SIZE)
            .flat_map(|y| (0..SIZE).map(move |x| (x, y)))
            .collect()
    }

    fn has_royal(&self, black: bool) -> bool {
        Self::squares().into_iter().any(|s| {
            self.at(s)
                .is_some_and(|p| p.black == black && is_royal(p.id))
        })
    }

    /// What `s` holds for a piece of side `black` moving from `from` (its origin counts as
    /// empty during its own move).
    fn occ(&self, s: Sq, from: Sq, black: bool) -> Occ {
        if s == from {
            return Occ::Empty;
        }
        match self.at(s) {
            None => Occ::Empty,
            Some(p) if p.black == black => Occ::Own,
            Some(_) => Occ::Enemy,
        }
    }

    /// Every raw move of the piece on `from` (duplicates possible).
    fn raw_moves(&self, from: Sq) -> Vec<Raw> {
        let pc = self.at(from).expect("a piece to move");
        let black = pc.black;
        // White's directions are Black's turned through 180°.
        let orient = |(dx, dy): Sq| if black { (dx, dy) } else { (-dx, -dy) };
        let occ = |s: Sq| self.occ(s, from, black);
        let mut out = Vec::new();
        let mut plain = |to: Sq| {
            out.push(Raw {
                from,
                kills: vec![],
                to,
            })
        };
        // Lion-type second steps are collected separately, then merged.
        let mut multi: Vec<Raw> = Vec::new();
        for comp in components(pc.id) {
            match comp {
                Leap(v) => {
                    let t = add(from, orient(v), 1);
                    if on_board(t) && occ(t) != Occ::Own {
                        plain(t);
                    }
                }
                Slide(d, n) => {
                    let d = orient(d);
                    for k in 1..=n {
                        let t = add(from, d, k);
                        if !on_board(t) {
                            break;
                        }
                        match occ(t) {
                            Occ::Empty => plain(t),
                            Occ::Enemy => {
                                plain(t);
                                break;
                            }
                            Occ::Own => break,
                        }
                    }
                }
                Jump(d) => {
                    let d = orient(d);
                    let own_rank = rank_of(pc.id);
                    let mut met_piece = false;
                    for k in 1.. {
                        let t = add(from, d, k);
                        if !on_board(t) {
                            break;
                        }
                        let Some(q) = self.at(t) else {
                            // Empty squares are destinations only before any piece is met
                            // (no non-capturing jumps).
                            if !met_piece {
                                plain(t);
                            }
                            continue;
                        };
                        let lower = rank_of(q.id) < own_rank;
                        let enemy = q.black != black;
                        // The first piece met: capturable whatever its rank. Any later one:
                        // only when its rank is lower than the general's.
                        if enemy && (!met_piece || lower) {
                            plain(t);
                        }
                        met_piece = true;
                        if !lower {
                            break;
                        }
                    }
                }
                Skip(d, n) => {
                    let d = orient(d);
                    for k in 2..=n {
                        let t = add(from, d, k);
                        if !on_board(t) {
                            break;
                        }
                        match occ(t) {
                            Occ::Empty => plain(t),
                            Occ::Enemy => {
                                plain(t);
                                break;
                            }
                            Occ::Own => break,
                        }
                    }
                }
                AdjacentIgui => {
                    for x in neighbours(from) {
                        if occ(x) == Occ::Enemy {
                            multi.push(Raw {
                                from,
                                kills: vec![x],
                                to: from,
                            });
                        }
                    }
                }
                Lion => {
                    // Every square within two king steps, directly (step or leap).
                    for dx in -2..=2 {
                        for dy in -2..=2 {
                            let t = (from.0 + dx, from.1 + dy);
                            if t != from && on_board(t) && occ(t) != Occ::Own {
                                plain(t);
                            }
                        }
                    }
                    for x in neighbours(from) {
                        match occ(x) {
                            // Capture on x, then one more king step from x in any direction.
                            Occ::Enemy => {
                                for y in neighbours(x) {
                                    if occ(y) != Occ::Own {
                                        multi.push(Raw {
                                            from,
                                            kills: vec![x],
                                            to: y,
                                        });
                                    }
                                }
                            }
                            // Step to an empty square and back: a pass.
                            Occ::Empty => multi.push(Raw {
                                from,
                                kills: vec![],
                                to: from,
                            }),
                            Occ::Own => {}
                        }
                    }
                }
                LionLine(d) => {
                    let d = orient(d);
                    let x = add(from, d, 1);
                    if !on_board(x) {
                        continue;
                    }
                    let y = add(from, d, 2);
                    // The step.
                    if occ(x) != Occ::Own {
                        plain(x);
                    }
                    // The two-square leap.
                    if on_board(y) && occ(y) != Occ::Own {
                        plain(y);
                    }
                    match occ(x) {
                        Occ::Enemy => {
                            // Capture on x, then on to y (move or capture) or back (igui).
                            if on_board(y) && occ(y) != Occ::Own {
                                multi.push(Raw {
                                    from,
                                    kills: vec![x],
                                    to: y,
                                });
                            }
                            multi.push(Raw {
                                from,
                                kills: vec![x],
                                to: from,
                            });
                        }
                        Occ::Empty => multi.push(Raw {
                            from,
                            kills: vec![],
                            to: from,
                        }),
                        Occ::Own => {}
                    }
                }
                EagleCapture(d) => {
                    let d = orient(d);
                    let x = add(from, d, 1);
                    if !on_board(x) || occ(x) != Occ::Enemy {
                        continue;
                    }
                    // Straight on, turned 90° either way, straight back.
                    let (dx, dy) = d;
                    for e in [(dx, dy), (-dy, dx), (dy, -dx), (-dx, -dy)] {
                        let y = add(x, e, 1);
                        if on_board(y) && occ(y) != Occ::Own {
                            multi.push(Raw {
                                from,
                                kills: vec![x],
                                to: y,
                            });
                        }
                    }
                }
                Area => {
                    // Up to three king steps; every square passed through is empty (the
                    // origin counts as empty); the move may end on an enemy (capture), on an
                    // empty square, or back on the origin (a pass).
                    let mut ends: BTreeSet<Sq> = BTreeSet::new();
                    let mut frontier: BTreeSet<Sq> = BTreeSet::from([from]);
                    for _step in 0..3 {
                        let mut next = BTreeSet::new();
                        for &s in &frontier {
                            for t in neighbours(s) {
                                match occ(t) {
                                    Occ::Empty => {
                                        ends.insert(t);
                                        next.insert(t);
                                    }
                                    Occ::Enemy => {
                                        ends.insert(t);
                                    }
                                    Occ::Own => {}
                                }
                            }
                        }
                        frontier = next;
                    }
                    for t in ends {
                        multi.push(Raw {
                            from,
                            kills: vec![],
                            to: t,
                        });
                    }
                }
            }
        }
        out.extend(multi);
        out.sort();
        out.dedup();
        out
    }

    /// Whether `s` is in the promotion zone of side `black`.
    fn in_zone(black: bool, (_, y): Sq) -> bool {
        if black {
            y >= SIZE - ZONE
        } else {
            y < ZONE
        }
    }

    /// Whether `s` is on one of the `n` farthest ranks of side `black`.
    fn on_last_ranks(black: bool, (_, y): Sq, n: i32) -> bool {
        if black {
            y >= SIZE - n
        } else {
            y < n
        }
    }

    /// The moves of the side to move, before merging equal texts.
    fn candidates(&self) -> Vec<Cand> {
        let us = self.black_to_move;
        let mut out = Vec::new();
        for from in Self::squares() {
            let Some(pc) = self.at(from) else { continue };
            if pc.black != us {
                continue;
            }
            for raw in self.raw_moves(from) {
                let text = path_text(&raw);
                let captures = !raw.kills.is_empty()
                    || (raw.to != from && self.at(raw.to).is_some_and(|q| q.black != us));
                // §5: a capture may promote when it starts or ends in the zone; a non-capture
                // only when it enters the zone from outside.
                let may_promote = promoted_form(pc.id).is_some()
                    && if captures {
                        Self::in_zone(us, from) || Self::in_zone(us, raw.to)
                    } else {
                        !Self::in_zone(us, from) && Self::in_zone(us, raw.to)
                    };
                if !may_promote {
                    out.push(Cand {
                        text,
                        raw,
                        end: pc.id,
                    });
                    continue;
                }
                let promoted = promoted_form(pc.id).unwrap();
                let n = forced_ranks(pc.id);
                let forced = n > 0 && Self::on_last_ranks(us, raw.to, n);
                out.push(Cand {
                    text: format!("{text}+"),
                    raw: raw.clone(),
                    end: promoted,
                });
                if !forced {
                    out.push(Cand {
                        text: format!("{text}="),
                        raw,
                        end: pc.id,
                    });
                }
            }
        }
        out
    }

    /// The legal moves, one per text: every pseudo-legal move (royal capture: moving into
    /// check is legal), none once a side has no royal piece.
    fn legal(&self) -> Vec<Cand> {
        if !self.has_royal(true) || !self.has_royal(false) {
            return Vec::new();
        }
        let mut moves = self.candidates();
        moves.sort_by(|a, b| a.text.cmp(&b.text));
        moves.dedup_by(|a, b| a.text == b.text);
        moves
    }

    /// The position after a move (§4.3's order: captures, passive burn, active burn).
    fn apply(&self, c: &Cand) -> RefPosition {
        let us = self.black_to_move;
        let Raw { from, kills, to } = &c.raw;
        let (from, to) = (*from, *to);
        let mover = self.at(from).expect("a mover");
        // The enemy Fire Demons on the board when the move starts.
        let demons: Vec<Sq> = Self::squares()
            .into_iter()
            .filter(|&s| self.at(s).is_some_and(|p| p.black != us && is_burner(p.id)))
            .collect();
        let mut p = self.clone();
        p.set(from, None);
        for &k in kills {
            p.set(k, None);
        }
        p.set(
            to,
            Some(Piece {
                id: c.end,
                black: us,
            }),
        );
        if demons.iter().any(|&d| adjacent(d, to)) {
            // Passive burn: the mover disappears and burns nothing.
            p.set(to, None);
        } else if is_burner(mover.id) {
            // Active burn: only by a piece that started the move as a Fire Demon.
            for n in neighbours(to) {
                if p.at(n).is_some_and(|q| q.black != us) {
                    p.set(n, None);
                }
            }
        }
        p.black_to_move = !us;
        p.ply += 1;
        p
    }

    // -----------------------------------------------------------------------
    // Public interface
    // -----------------------------------------------------------------------

    /// The start position of §3, built from the first player's table and turned through 180°
    /// for the second player.
    pub fn start() -> RefPosition {
        const RANKS: [[&str; 16]; 6] = [
            [
                "L", "N", "FL", "I", "C", "S", "G", "K", "DE", "G", "S", "C", "I", "FL", "N", "L",
            ],
            [
                "RC", "", "CS", "CS", "", "BT", "KY", "LN", "FK", "PH", "BT", "", "CS", "CS", "",
                "RC",
            ],
            [
                "SS", "VS", "B", "DH", "DK", "WB", "FI", "LH", "FE", "FI", "WB", "DK", "DH", "B",
                "VS", "SS",
            ],
            [
                "SM", "VM", "R", "HF", "SE", "BG", "RG", "GG", "VG", "RG", "BG", "SE", "HF", "R",
                "VM", "SM",
            ],
            ["P"; 16],
            [
                "", "", "", "", "D", "", "", "", "", "", "", "D", "", "", "", "",
            ],
        ];
        let mut p = RefPosition {
            board: vec![None; (SIZE * SIZE) as usize],
            black_to_move: true,
            ply: 0,
        };
        for (y, row) in RANKS.iter().enumerate() {
            for (x, &id) in row.iter().enumerate() {
                if id.is_empty() {
                    continue;
                }
                let id = known_id(id).unwrap();
                let (x, y) = (x as i32, y as i32);
                p.set((x, y), Some(Piece { id, black: true }));
                p.set(
                    (SIZE - 1 - x, SIZE - 1 - y),
                    Some(Piece { id, black: false }),
                );
            }
        }
        p
    }

    /// The legal moves in koma's move text.
    pub fn legal_moves(&self) -> BTreeSet<String> {
        self.legal().into_iter().map(|c| c.text).collect()
    }

    /// The legal moves of the piece on `square` (e.g. `h8`).
    pub fn moves_from(&self, square: &str) -> BTreeSet<String> {
        let Some(s) = parse_sq(square) else {
            return BTreeSet::new();
        };
        self.legal()
            .into_iter()
            .filter(|c| c.raw.from == s)
            .map(|c| c.text)
            .collect()
    }

    /// The legal moves, each with the position it leads to.
    pub fn successors(&self) -> Vec<(String, RefPosition)> {
        self.legal()
            .iter()
            .map(|c| (c.text.clone(), self.apply(c)))
            .collect()
    }

    /// Plays a move given in koma's move text.
    pub fn play(&self, text: &str) -> Result<RefPosition, String> {
        self.legal()
            .iter()
            .find(|c| c.text == text)
            .map(|c| self.apply(c))
            .ok_or_else(|| format!("'{text}' is not legal in {}", self.to_fen()))
    }

    /// Leaf count, the legal moves counted at depth 1.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|c| self.apply(c).perft(depth - 1)).sum()
    }

    pub fn side_to_move_is_black(&self) -> bool {
        self.black_to_move
    }

    /// The piece on `square` as the position text writes it (`FI`, `+de`), if any.
    pub fn piece_on(&self, square: &str) -> Option<String> {
        let p = self.at(parse_sq(square)?)?;
        Some(token(p))
    }

    /// Whether the given side still has a King or Crown Prince.
    pub fn has_royal_piece(&self, black: bool) -> bool {
        self.has_royal(black)
    }

    /// Reads a position text: `<board> <side> <hand> [<ply>]` (the hand must be `-`; no
    /// counters exist in Tenjiku).
    pub fn from_fen(text: &str) -> Result<RefPosition, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(3..=4).contains(&fields.len()) {
            return Err(format!("expected 3 or 4 fields in '{text}'"));
        }
        let mut p = RefPosition {
            board: vec![None; (SIZE * SIZE) as usize],
            black_to_move: true,
            ply: 0,
        };
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != SIZE as usize {
            return Err(format!("{} ranks, expected {SIZE}", rows.len()));
        }
        for (i, row) in rows.iter().enumerate() {
            let y = SIZE - 1 - i as i32;
            let chars: Vec<char> = row.chars().collect();
            let mut x = 0;
            let mut j = 0;
            while j < chars.len() {
                if chars[j].is_ascii_digit() {
                    let mut k = j;
                    while k < chars.len() && chars[k].is_ascii_digit() {
                        k += 1;
                    }
                    let run: String = chars[j..k].iter().collect();
                    x += run.parse::<i32>().map_err(|e| e.to_string())?;
                    j = k;
                    continue;
                }
                let mut id = String::new();
                if chars[j] == '+' {
                    id.push('+');
                    j += 1;
                }
                let letters: String = match chars.get(j) {
                    Some('(') => {
                        let close = chars[j..]
                            .iter()
                            .position(|&c| c == ')')
                            .ok_or("unclosed '('")?
                            + j;
                        let s: String = chars[j + 1..close].iter().collect();
                        if s.chars().count() < 2 {
                            return Err(format!("'({s})': one-letter IDs are written bare"));
                        }
                        j = close + 1;
                        s
                    }
                    Some(&c) if c.is_ascii_alphabetic() => {
                        j += 1;
                        c.to_string()
                    }
                    other => return Err(format!("unexpected {other:?} in rank {}", y + 1)),
                };
                let white = letters.chars().all(|c| c.is_ascii_lowercase());
                let black = letters.chars().all(|c| c.is_ascii_uppercase());
                if !white && !black {
                    return Err(format!("mixed case in '{letters}'"));
                }
                id.push_str(&letters.to_ascii_uppercase());
                let id = known_id(&id).ok_or_else(|| format!("unknown piece {id}"))?;
                if x >= SIZE {
                    return Err(format!("rank {} too long", y + 1));
                }
                p.set((x, y), Some(Piece { id, black }));
                x += 1;
            }
            if x != SIZE {
                return Err(format!("rank {} has {x} files", y + 1));
            }
        }
        p.black_to_move = match fields[1] {
            "b" => true,
            "w" => false,
            other => return Err(format!("bad side '{other}'")),
        };
        if fields[2] != "-" {
            return Err("no pieces in hand in Tenjiku Shogi".into());
        }
        if let Some(ply) = fields.get(3) {
            p.ply = ply.parse().map_err(|_| format!("bad ply '{ply}'"))?;
        }
        Ok(p)
    }

    /// The position text: `<board> <side> - <ply>`.
    pub fn to_fen(&self) -> String {
        let mut rows = Vec::new();
        for y in (0..SIZE).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..SIZE {
                match self.at((x, y)) {
                    None => empty += 1,
                    Some(pc) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(&token(pc));
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        format!(
            "{} {} - {}",
            rows.join("/"),
            if self.black_to_move { 'b' } else { 'w' },
            self.ply
        )
    }
}

/// A piece as the position text writes it: `+` for a promoted form, one letter bare, several
/// in parentheses, lowercase for White.
fn token(p: Piece) -> String {
    let (plus, body) = match p.id.strip_prefix('+') {
        Some(b) => ("+", b),
        None => ("", p.id),
    };
    let body = if p.black {
        body.to_string()
    } else {
        body.to_ascii_lowercase()
    };
    if body.len() == 1 {
        format!("{plus}{body}")
    } else {
        format!("{plus}({body})")
    }
}
