//! Every piece type of Shoko, Gyaku-sama and Hook Shogi, as the variant files define it: its
//! exact move set (destinations and kill squares) from the centre of the real board.
//!
//! Each piece's expected moves are written by hand from the seed's prose description of the
//! piece (and its XBetza, which says the same), in a small geometric vocabulary:
//! - a direction or group and a distance: `N1` one step forward, `orth*` the four rook rays to
//!   the edge, `side2` up to two squares sideways, `fdiag4` up to four squares along the two
//!   forward diagonals (directions N NE E SE S SW W NW from the first player's side; groups
//!   `orth`, `diag`, `all`, `fdiag`, `bdiag`, `side`, `vert`);
//! - `j` before it: the same ray without its first square (jumped, whatever stands there);
//! - `@dir2`: a leap to exactly that distance; `n@dir2` a lame one (blocked by a piece on the
//!   square in between); `knight`: the eight (1,2) leaps;
//! - on the empty board only: `area2` every square within two King steps, `skip` the turn skip,
//!   `all` every square but the own pieces, `colour` every square of the origin's colour.
//!
//! The empty-board table gives each piece's description and its count worked out by hand; the
//! test checks the count against the description and the engine against both, for the first
//! player and (turned 180 degrees) for the second. The crowded-board test runs the pieces whose
//! description is plain rays and leaps among friends and enemies at distances 1 to 3. The
//! special pieces get crowded-board tests of their own: here for the Lion Dog's promotions, the
//! Lion Hawk, the Divine Spirit / Dragon and the Emperor; the others' XBetza strings (checked
//! below to be those of the definitions) are decoded on crowded boards in
//! `xbetza_constructs.rs`.

mod common;

use common::{
    check_moves, coords, distinct, lion_moves, map_squares, move_list_from, ray, square_name,
    token, variant, Coords, Grid, LION_DOG_LAYOUT, LION_DOG_MOVES, LION_LAYOUT,
};
use koma_rules::Variant;
use std::collections::BTreeSet;
use std::sync::Arc;

fn dirs(group: &str) -> Vec<(i32, i32)> {
    let one = |d: &str| -> (i32, i32) {
        match d {
            "N" => (0, 1),
            "NE" => (1, 1),
            "E" => (1, 0),
            "SE" => (1, -1),
            "S" => (0, -1),
            "SW" => (-1, -1),
            "W" => (-1, 0),
            "NW" => (-1, 1),
            _ => panic!("direction {d}"),
        }
    };
    let list: &[&str] = match group {
        "orth" => &["N", "E", "S", "W"],
        "diag" => &["NE", "SE", "SW", "NW"],
        "all" => &["N", "NE", "E", "SE", "S", "SW", "W", "NW"],
        "fdiag" => &["NE", "NW"],
        "bdiag" => &["SE", "SW"],
        "side" => &["E", "W"],
        "vert" => &["N", "S"],
        d => return vec![one(d)],
    };
    list.iter().map(|d| one(d)).collect()
}

/// A board seen by the tested piece: what stands on each square.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Friend,
    Enemy,
}

struct Board {
    size: i32,
    cells: Vec<Cell>,
}

impl Board {
    fn on(&self, (x, y): Coords) -> bool {
        (0..self.size).contains(&x) && (0..self.size).contains(&y)
    }

    fn at(&self, (x, y): Coords) -> Cell {
        self.cells[(y * self.size + x) as usize]
    }

    fn crowded(&self) -> bool {
        self.cells.iter().filter(|&&c| c != Cell::Empty).count() > 2
    }
}

/// Destinations of a description (see the module documentation) from `from`.
fn describe(desc: &str, board: &Board, from: Coords) -> BTreeSet<Coords> {
    let mut out = BTreeSet::new();
    let land = |s: Coords, out: &mut BTreeSet<Coords>| {
        if board.on(s) && board.at(s) != Cell::Friend {
            out.insert(s);
        }
    };
    for token in desc.split_whitespace() {
        let special = ["skip", "all", "colour", "area2", "area3"].contains(&token);
        assert!(
            !(special && board.crowded()),
            "'{token}' is for the empty board"
        );
        match token {
            "skip" => {
                out.insert(from);
            }
            "all" | "colour" => {
                for x in 0..board.size {
                    for y in 0..board.size {
                        let same = (x + y) % 2 == (from.0 + from.1) % 2;
                        if (x, y) != from && (token == "all" || same) {
                            land((x, y), &mut out);
                        }
                    }
                }
            }
            "area2" | "area3" => {
                let k = if token == "area2" { 2 } else { 3 };
                for dx in -k..=k {
                    for dy in -k..=k {
                        if (dx, dy) != (0, 0) {
                            land((from.0 + dx, from.1 + dy), &mut out);
                        }
                    }
                }
            }
            "knight" => {
                for (dx, dy) in [
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ] {
                    land((from.0 + dx, from.1 + dy), &mut out);
                }
            }
            _ => {
                let (lame, rest) = match token.strip_prefix("n@") {
                    Some(r) => (true, r),
                    None => (false, token),
                };
                let (leap, rest) = match rest.strip_prefix('@') {
                    Some(r) => (true, r),
                    None => (lame, rest),
                };
                let (skip_first, rest) = match rest.strip_prefix('j') {
                    Some(r) => (true, r),
                    None => (false, rest),
                };
                let cut = rest.find(|c: char| c.is_ascii_digit() || c == '*').unwrap();
                let (group, n) = rest.split_at(cut);
                let n: i32 = if n == "*" { 99 } else { n.parse().unwrap() };
                for (dx, dy) in dirs(group) {
                    if leap {
                        let between = (1..n).map(|k| (from.0 + dx * k, from.1 + dy * k));
                        if lame
                            && between
                                .into_iter()
                                .any(|s| board.on(s) && board.at(s) != Cell::Empty)
                        {
                            continue;
                        }
                        land((from.0 + dx * n, from.1 + dy * n), &mut out);
                        continue;
                    }
                    for k in 1..=n {
                        let s = (from.0 + dx * k, from.1 + dy * k);
                        if !board.on(s) {
                            break;
                        }
                        if k == 1 && skip_first {
                            continue;
                        }
                        land(s, &mut out);
                        if board.at(s) != Cell::Empty {
                            break;
                        }
                    }
                }
            }
        }
    }
    out
}

/// The variants, their centre and the kings' squares (off every line, knight leap and area of
/// the centre, and both on squares of the other colour, so that bent Bishop moves miss them).
const BOARDS: [(&str, &str, &str, &str); 3] = [
    ("shoko-shogi", "g7", "b1", "l13"),
    ("gyaku-sama-shogi", "g7", "b1", "l13"),
    ("hook-shogi", "j10", "b1", "r19"),
];

/// (piece ID, description, number of moves on the empty board): the empty-board table.
/// Counts on 13x13 from g7 (every ray 6 squares) and 19x19 from j10 (every ray 9 squares).
const SHOKO: &[(&str, &str, usize)] = &[
    ("P", "N1", 1),                          // one square forward
    ("GB", "vert1", 2),                      // go between: one square vertically
    ("T", "fdiag1 N1", 3),                   // tile general: one square forward, any way
    ("DV", "NW1 NE1 SE1 W1", 4),             // rbfFlW: diagonally forward, back-right, left
    ("DS", "NW1 NE1 SW1 E1", 4),             // lbfFrW: the mirror image
    ("C", "fdiag1 vert1", 4),                // copper general
    ("EW", "fdiag1 N1 side1", 5),            // evil wolf: sideways, forward, diagonally forward
    ("G", "orth1 fdiag1", 6),                // gold general
    ("BT", "diag1 side1 S1", 7),             // blind tiger: King but straight forward
    ("FH", "diag2", 8),                      // flying horse: up to two diagonally
    ("FY", "orth2", 8),                      // flying dragon: up to two orthogonally
    ("OK", "diag2 side1", 10),               // old kite: two diagonally, one sideways
    ("PS", "orth2 fdiag1", 10),              // poisonous snake: two orthogonally, one diag. fwd
    ("KY", "diag1 @orth2", 8),               // kirin: one diagonally, jump two orthogonally
    ("PH", "orth1 @diag2", 8),               // phoenix: one orthogonally, jump two diagonally
    ("RD", "all1 jall3", 24),                // roaring dog: step, or jump to 2nd, then step on
    ("L", "N* S2", 8),                       // lance: forward slide, up to two back
    ("SM", "vert1 side*", 14),               // side mover
    ("VC", "diag1 vert*", 16),               // vertical chariot: vertical slide, diagonal step
    ("B", "diag*", 24),                      // bishop
    ("R", "orth*", 24),                      // rook
    ("DH", "diag* orth1", 28),               // dragon horse
    ("DK", "orth* diag1", 28),               // dragon king
    ("VF", "diag* knight", 32),              // violent falcon: bishop and (1,2) leap
    ("VE", "orth* knight", 32),              // fierce eagle: rook and (1,2) leap
    ("LD", "all3 skip", 25),                 // lion dog: 1st..3rd square on any ray; skip
    ("LN", "area2 skip", 25),                // lion: the 5x5 area; skip
    ("Q", "all*", 48),                       // queen
    ("TG", "orth1 colour", 88),              // tengu: bishop with one turn, orthogonal step
    ("HM", "all", 167),                      // hook mover: rook with one turn reaches all
    ("K", "all1", 8),                        // king
    ("+P", "orth1 fdiag1", 6),               // tokin (gold)
    ("+GB", "diag1 side1 N1", 7),            // drunk elephant: King but straight back
    ("+T", "diag1 vert*", 16),               // vertical chariot
    ("+DV", "all* skip", 49),                // teaching king: queen or lion dog
    ("+DS", "all* area2 skip", 57),          // divine spirit: queen or lion
    ("+C", "vert1 side*", 14),               // side mover
    ("+EW", "diag1 vert1 side*", 18),        // free wolf: sideways slide or King step
    ("+G", "orth*", 24),                     // rook
    ("+BT", "diag1 side1 vert*", 18),        // flying stag
    ("+FH", "diag* knight", 32),             // violent falcon
    ("+FY", "orth* knight", 32),             // fierce eagle
    ("+OK", "orth1 colour", 88),             // tengu
    ("+PS", "all", 167),                     // hook mover
    ("+KY", "area2 skip", 25),               // lion
    ("+PH", "all*", 48),                     // queen
    ("+RD", "all3 skip", 25),                // lion dog
    ("+L", "fdiag* vert*", 24),              // white horse
    ("+SM", "diag* side*", 36),              // free boar
    ("+VC", "diag* vert* side5", 46),        // free dream eater
    ("+B", "diag* orth1", 28),               // dragon horse
    ("+R", "orth* diag1", 28),               // dragon king
    ("+DH", "diag* side* S* N2 skip", 45),   // horned falcon: sting straight forward
    ("+DK", "orth* bdiag* fdiag2 skip", 41), // soaring eagle: sting diagonally forward
    ("+VF", "diag* side* S* N3 skip", 46),   // great falcon: 3-step sting straight forward
    ("+VE", "orth* bdiag* fdiag3 skip", 43), // great eagle: 3-step sting diag. forward
    ("+LD", "area2 @all3 skip", 33),         // great elephant: lion or lion dog
    ("+LN", "area2 diag* skip", 41),         // lion hawk: lion or bishop
    ("+Q", "all* skip", 49),                 // free eagle: queen, diagonal lion moves
];

const GYAKU: &[(&str, &str, usize)] = &[
    ("P", "N1", 1),                          // pawn
    ("D", "N1 bdiag1", 3),                   // dog: forward, or diagonally back
    ("N", "knight", 8),                      // knight (chess)
    ("S", "diag1 N1", 5),                    // silver general
    ("BT", "diag1 side1 S1", 7),             // blind tiger
    ("FL", "diag1 vert1", 6),                // ferocious leopard
    ("G", "orth1 fdiag1", 6),                // gold general
    ("L", "N* S2", 8),                       // lance
    ("KY", "diag1 @orth2", 8),               // kirin
    ("PH", "orth1 @diag2", 8),               // phoenix
    ("VM", "side1 vert*", 14),               // vertical mover
    ("B", "diag*", 24),                      // bishop
    ("SS", "side* S1 N2", 15),               // side soldier: sideways, back one, fwd 1 or 2
    ("R", "orth*", 24),                      // rook
    ("DH", "diag* orth1", 28),               // dragon horse
    ("DK", "orth* diag1", 28),               // dragon king
    ("CS", "diag* vert* side2", 40),         // chariot soldier
    ("LN", "area2 skip", 25),                // lion
    ("Q", "all*", 48),                       // queen
    ("BG", "diag*", 24),                     // bishop general (no screens: a bishop)
    ("RG", "orth*", 24),                     // rook general
    ("WB", "diag* side* vert2", 40),         // water buffalo
    ("VG", "diag* area3 skip", 61),          // vice general: bishop, 3-step area move, skip
    ("FD", "diag* side* area3 skip", 67),    // fire demon: sideways and diagonal slides, area
    ("+P", "orth1 fdiag1", 6),               // tokin
    ("+D", "bdiag* N*", 18),                 // multi general
    ("+N", "side* S1 N2", 15),               // side soldier
    ("+S", "side1 vert*", 14),               // vertical mover
    ("+BT", "all1 vert*", 18),               // flying stag
    ("+FL", "diag*", 24),                    // bishop
    ("+G", "orth*", 24),                     // rook
    ("+L", "fdiag* vert*", 24),              // white horse
    ("+KY", "area2 skip", 25),               // lion
    ("+PH", "all*", 48),                     // queen
    ("+VM", "diag* vert*", 36),              // flying ox
    ("+B", "diag* orth1", 28),               // dragon horse
    ("+SS", "diag* side* vert2", 40),        // water buffalo
    ("+R", "orth* diag1", 28),               // dragon king
    ("+DH", "diag* side* S* N2 skip", 45),   // horned falcon
    ("+DK", "orth* bdiag* fdiag2 skip", 41), // soaring eagle
    ("+CS", "jside3 jdiag* jvert*", 34),     // heavenly tetrarch: no adjacent square
    ("+LN", "area2 diag* skip", 41),         // lion hawk
    ("+Q", "all* skip", 49),                 // free eagle
    ("+BG", "diag* area3 skip", 61),         // vice general
    ("+RG", "all*", 48),                     // great general (no screens: a queen)
    ("+WB", "diag* side* area3 skip", 67),   // fire demon
    ("K", "all1", 8),                        // king
];

const HOOK: &[(&str, &str, usize)] = &[
    ("P", "N1", 1),                          // pawn
    ("D", "N1 bdiag1", 3),                   // dog
    ("N", "knight", 8),                      // knight
    ("E", "vert1", 2),                       // earth general: one square vertically
    ("O", "fdiag1", 2),                      // stone general: one square diagonally forward
    ("T", "fdiag1 S1", 3),                   // tile general: back, or diagonally forward
    ("I", "fdiag1 N1", 3),                   // iron general: forward, any way
    ("C", "fdiag1 vert1", 4),                // copper general
    ("S", "diag1 N1", 5),                    // silver general
    ("BT", "diag1 side1 S1", 7),             // blind tiger
    ("FL", "diag1 vert1", 6),                // ferocious leopard
    ("G", "orth1 fdiag1", 6),                // gold general
    ("CT", "diag1", 4),                      // cat sword
    ("AB", "orth1", 4),                      // angry boar
    ("EW", "side1 N1 fdiag1", 5),            // evil wolf
    ("CO", "vert1 bdiag1", 4),               // coiled serpent
    ("BD", "side1 S1 fdiag1", 5),            // blind dog
    ("OM", "diag1 S1", 5),                   // old monkey
    ("RN", "orth1 bdiag1", 6),               // reclining dragon: King but diagonally forward
    ("FH", "diag2", 8),                      // flying horse
    ("FY", "orth2", 8),                      // flying dragon
    ("RD", "all3", 24),                      // roaring dog: up to three any way
    ("RV", "vert*", 18),                     // reverse chariot
    ("L", "N* S2", 11),                      // lance
    ("KY", "diag1 @orth2", 8),               // kirin
    ("PH", "orth1 @diag2", 8),               // phoenix
    ("WR", "orth1 fdiag1 @diag2", 10),       // warrior: King but diag. back; jump 2 diag.
    ("PS", "diag1 vert1 @orth2", 10),        // poisonous snake: King but sideways; jump 2 orth.
    ("LC", "N* S1 NW* SE*", 28),             // left chariot
    ("RC", "N* S1 NE* SW*", 28),             // right chariot
    ("SM", "vert1 side*", 20),               // side mover
    ("VM", "side1 vert*", 20),               // vertical mover
    ("B", "diag*", 36),                      // bishop
    ("R", "orth*", 36),                      // rook
    ("SC", "side* vert2", 22),               // side chariot
    ("VC", "vert* side2", 22),               // vertical chariot
    ("DH", "diag* orth1", 40),               // dragon horse
    ("DK", "orth* diag1", 40),               // dragon king
    ("F", "orth* fdiag4 bdiag2", 48),        // fire dragon
    ("W", "orth* bdiag4 fdiag2", 48),        // water dragon
    ("H", "diag* side4 vert2", 48),          // earth dragon
    ("A", "diag* vert4 side2", 48),          // wind dragon
    ("LN", "area2 skip", 25),                // lion
    ("LD", "all3 skip", 25),                 // lion dog
    ("Q", "all*", 72),                       // queen
    ("DV", "orth1 NW1 bdiag1", 7),           // deva: King but diagonally forward-right
    ("DS", "orth1 NE1 bdiag1", 7),           // dark spirit: King but diagonally forward-left
    ("DE", "diag1 side1 N1", 7),             // drunk elephant: King but straight back
    ("K", "all1", 8),                        // king
    ("TG", "orth1 colour", 184),             // tengu
    ("HM", "all", 359),                      // hook mover
    ("+P", "orth1 fdiag1", 6),               // tokin
    ("+D", "bdiag* N*", 27),                 // multi general
    ("+N", "side* S1 N2", 21),               // side soldier
    ("+E", "vert*", 18),                     // reverse chariot
    ("+O", "side* vert2", 22),               // side chariot
    ("+T", "vert* side2", 22),               // vertical chariot
    ("+I", "N* S1 side2", 14),               // vertical soldier
    ("+C", "vert1 side*", 20),               // side mover
    ("+S", "side1 vert*", 20),               // vertical mover
    ("+BT", "all1 vert*", 24),               // flying stag
    ("+FL", "diag*", 36),                    // bishop
    ("+G", "orth*", 36),                     // rook
    ("+CT", "diag*", 36),                    // free cat
    ("+AB", "orth*", 36),                    // running boar
    ("+EW", "all1 side*", 24),               // free wolf
    ("+CO", "bdiag* vert*", 36),             // free serpent
    ("+BD", "diag* side* N* S1", 64),        // wizard stork
    ("+OM", "diag* side* S* N1", 64),        // mountain witch
    ("+RN", "orth* bdiag*", 54),             // free dragon: all but diagonally forward
    ("+FH", "diag* knight", 44),             // violent falcon
    ("+FY", "orth* knight", 44),             // fierce eagle
    ("+RD", "all3 skip", 25),                // lion dog
    ("+RV", "bdiag* vert*", 36),             // whale
    ("+L", "fdiag* vert*", 36),              // white horse
    ("+KY", "area2 skip", 25),               // lion
    ("+PH", "all*", 72),                     // queen
    ("+WR", "orth1 colour", 184),            // tengu
    ("+PS", "all", 359),                     // hook mover
    ("+LC", "all1 NE* SE* E*", 32),          // left army: King, right orthogonal and diagonals
    ("+RC", "all1 NW* SW* W*", 32),          // right army: the mirror image
    ("+SM", "diag* side*", 54),              // free boar
    ("+VM", "diag* vert*", 54),              // flying ox
    ("+B", "diag* orth1", 40),               // dragon horse
    ("+R", "orth* diag1", 40),               // dragon king
    ("+SC", "diag* side* vert5", 64),        // free demon
    ("+VC", "diag* vert* side5", 64),        // free dream eater
    ("+DH", "diag* side* S* N2 skip", 66),   // horned falcon
    ("+DK", "orth* bdiag* fdiag2 skip", 59), // soaring eagle
    ("+F", "diag* side* S* N3 skip", 67),    // kirin master: 3-step sting straight forward
    ("+W", "orth* bdiag* fdiag3 skip", 61),  // phoenix master: diagonally forward
    ("+H", "area2 diag* skip", 53),          // earthward net: bishop, 2-step area move, skip
    ("+A", "area2 orth* skip", 53),          // skyward net: rook, 2-step area move, skip
    ("+LN", "area2 diag* skip", 53),         // lion hawk
    ("+LD", "area2 @all3 skip", 33),         // furious fiend: lion or lion dog
    ("+Q", "all* skip", 73),                 // free eagle
    ("+DV", "all* skip", 73),                // teaching king
    ("+DS", "all* area2 skip", 81),          // divine dragon: queen or lion
    ("+DE", "all1", 8),                      // crown prince: King
    ("+K", "all", 359),                      // emperor: any square
];

fn table(id: &str) -> &'static [(&'static str, &'static str, usize)] {
    match id {
        "shoko-shogi" => SHOKO,
        "gyaku-sama-shogi" => GYAKU,
        _ => HOOK,
    }
}

/// The engine's moves of the piece `id` of `white` on `from`, among `others` (square, token),
/// as move texts without their promotion suffix (the promotion rules are tested elsewhere).
fn engine_moves(
    v: &Arc<Variant>,
    id: &str,
    white: bool,
    from: Coords,
    others: &[(Coords, String)],
) -> BTreeSet<String> {
    let mut grid = Grid::for_variant(v);
    for (s, t) in others {
        grid.put_at(*s, t.as_str());
    }
    grid.put_at(from, token(id, white));
    let mut pos = grid.position(v, if white { 'w' } else { 'b' }, "-");
    let list: Vec<String> = move_list_from(&mut pos, &square_name(from))
        .iter()
        .map(|t| t.trim_end_matches('+').to_string())
        .collect();
    distinct(id, list)
}

fn kings(king_b: &str, king_w: &str) -> Vec<(Coords, String)> {
    vec![(coords(king_b), "K".into()), (coords(king_w), "k".into())]
}

#[test]
fn every_piece_type_is_in_the_table() {
    for (id, _, _, _) in BOARDS {
        let v = variant(id);
        let listed: Vec<&str> = table(id).iter().map(|r| r.0).collect();
        let defined: Vec<&str> = v.pieces.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(
            listed, defined,
            "{id}: the table follows the definition's order"
        );
    }
}

#[test]
fn every_piece_on_the_empty_board() {
    for (id, centre, king_b, king_w) in BOARDS {
        let v = variant(id);
        let size = v.geometry.files() as i32;
        let from = coords(centre);
        let others = kings(king_b, king_w);
        let mut board = Board {
            size,
            cells: vec![Cell::Empty; (size * size) as usize],
        };
        board.cells[(coords(king_b).1 * size + coords(king_b).0) as usize] = Cell::Friend;
        board.cells[(coords(king_w).1 * size + coords(king_w).0) as usize] = Cell::Enemy;
        for &(pid, desc, count) in table(id) {
            let want: BTreeSet<String> = describe(desc, &board, from)
                .into_iter()
                .map(|s| format!("{}{}", square_name(from), square_name(s)))
                .collect();
            assert_eq!(
                want.len(),
                count,
                "{id} {pid}: '{desc}' gives {} squares",
                want.len()
            );
            let got = engine_moves(&v, pid, false, from, &others);
            check_moves(&format!("{id} {pid} ({desc})"), &got, &want);
            // The second player's piece: the same moves turned 180 degrees (the kings' squares
            // are each other's turn).
            let rot = |(x, y): Coords| (size - 1 - x, size - 1 - y);
            let swapped: Vec<(Coords, String)> = vec![
                (rot(coords(king_w)), "K".into()),
                (rot(coords(king_b)), "k".into()),
            ];
            let got = engine_moves(&v, pid, true, rot(from), &swapped);
            let want: BTreeSet<String> = describe(desc, &board, from)
                .into_iter()
                .map(|s| format!("{}{}", square_name(rot(from)), square_name(rot(s))))
                .collect();
            check_moves(&format!("{id} {pid} (second player)"), &got, &want);
        }
    }
}

/// Friends and enemies around the centre, at distances 1 to 3, as offsets (files, ranks):
///   N: 1 empty, 2 enemy;  NE: 1 friend;  E: 1, 2 empty, 3 friend;  SE: 1 enemy;
///   S: 1 empty, 2 friend;  SW: 1, 2 empty, 3 enemy;  W: 1 enemy;  NW: 1 empty, 2 friend;
///   knight leaps: (1,2) friend, (-2,1) enemy; and (2,-2) enemy, (-3,0) enemy.
const CROWD: [((i32, i32), bool); 12] = [
    ((0, 2), false),
    ((1, 1), true),
    ((3, 0), true),
    ((1, -1), false),
    ((0, -2), true),
    ((-3, -3), false),
    ((-1, 0), false),
    ((-2, 2), true),
    ((1, 2), true),
    ((-2, 1), false),
    ((2, -2), false),
    ((-3, 0), false),
];

#[test]
fn plain_pieces_on_a_crowded_board() {
    for (id, centre, king_b, king_w) in BOARDS {
        let v = variant(id);
        let size = v.geometry.files() as i32;
        let from = coords(centre);
        let mut others = kings(king_b, king_w);
        let mut board = Board {
            size,
            cells: vec![Cell::Empty; (size * size) as usize],
        };
        board.cells[(coords(king_b).1 * size + coords(king_b).0) as usize] = Cell::Friend;
        board.cells[(coords(king_w).1 * size + coords(king_w).0) as usize] = Cell::Enemy;
        for ((dx, dy), friend) in CROWD {
            let s = (from.0 + dx, from.1 + dy);
            board.cells[(s.1 * size + s.0) as usize] =
                if friend { Cell::Friend } else { Cell::Enemy };
            others.push((s, if friend { "P".into() } else { "p".into() }));
        }
        let mut tested = 0;
        for &(pid, desc, _) in table(id) {
            let plain = desc
                .split_whitespace()
                .all(|t| !["skip", "all", "colour", "area2", "area3"].contains(&t));
            if !plain || v.piece(v.kind_by_id(pid).unwrap()).betza.contains('a') {
                continue;
            }
            let want: BTreeSet<String> = describe(desc, &board, from)
                .into_iter()
                .map(|s| format!("{}{}", square_name(from), square_name(s)))
                .collect();
            let got = engine_moves(&v, pid, false, from, &others);
            check_moves(&format!("{id} {pid} crowded ({desc})"), &got, &want);
            tested += 1;
        }
        assert!(tested > 20, "{id}: {tested} plain pieces");
    }
}

// ---------------------------------------------------------------------------------------------
// Special pieces on crowded boards.
// ---------------------------------------------------------------------------------------------

/// The special pieces whose XBetza strings `xbetza_constructs.rs` decodes on crowded boards
/// (test named on the right): the definitions must use exactly these strings.
const DECODED_ELSEWHERE: &[(&str, &str, &str, &str)] = &[
    ("shoko-shogi", "LN", "KNADcaKmcabK", "lion_crowded_board"),
    (
        "gyaku-sama-shogi",
        "LN",
        "KNADcaKmcabK",
        "lion_crowded_board",
    ),
    ("hook-shogi", "LN", "KNADcaKmcabK", "lion_crowded_board"),
    (
        "shoko-shogi",
        "LD",
        "KADGHcavKabKcmpafcavKcafcmpafK",
        "lion_dog_crowded_board",
    ),
    (
        "hook-shogi",
        "LD",
        "KADGHcafKmcabKcafmpafKmpafcavKcafcafK",
        "lion_dog_crowded_board",
    ),
    (
        "shoko-shogi",
        "+VF",
        "BjBsbRjsbRshbmpafmpyafKfWfDfHfcavWfabWfcmpafcavWfcafcmpafW",
        "great_falcon_crowded_board",
    ),
    (
        "shoko-shogi",
        "+VE",
        "RjRbBjbBbfbhsmpafmpyafKfFfAfGfcavFfabFfcmpafcavFfcafcmpafF",
        "great_eagle_crowded_board",
    ),
    (
        "shoko-shogi",
        "+DK",
        "RbBfFfAfcavFfabF",
        "soaring_eagle_crowded_board",
    ),
    (
        "gyaku-sama-shogi",
        "+DK",
        "RbBfFfAfcavFfmabF",
        "soaring_eagle_crowded_board",
    ),
    (
        "hook-shogi",
        "+DK",
        "RbBfFfAfcavFfmabF",
        "soaring_eagle_crowded_board",
    ),
    (
        "shoko-shogi",
        "+DH",
        "BsbRfWfDfcavWfabW",
        "horned_falcon_crowded_board",
    ),
    (
        "gyaku-sama-shogi",
        "+DH",
        "BbsRfWfDfcavWfmabW",
        "horned_falcon_crowded_board",
    ),
    (
        "hook-shogi",
        "+DH",
        "BbsRfWfDfcavWfmabW",
        "horned_falcon_crowded_board",
    ),
    (
        "shoko-shogi",
        "+Q",
        "QADcaFmcabF",
        "free_eagle_crowded_board",
    ),
    (
        "gyaku-sama-shogi",
        "+Q",
        "QADcasFcafFmcabF",
        "free_eagle_crowded_board",
    ),
    (
        "hook-shogi",
        "+Q",
        "QADcasFcafFmcabF",
        "free_eagle_crowded_board",
    ),
    (
        "gyaku-sama-shogi",
        "FD",
        "BsRKaKaaKmabKcavKcafmafKmafcavK",
        "fire_demon_crowded_board",
    ),
    (
        "gyaku-sama-shogi",
        "+WB",
        "BsRKaKaaKmabKcavKcafmafKmafcavK",
        "fire_demon_crowded_board",
    ),
    (
        "gyaku-sama-shogi",
        "VG",
        "pafpafcBmcBcpBKaKaaKmabK",
        "vice_general_crowded_board",
    ),
    (
        "gyaku-sama-shogi",
        "+BG",
        "pafpafcBmcBcpBKaKaaKmabK",
        "vice_general_crowded_board",
    ),
    (
        "gyaku-sama-shogi",
        "BG",
        "pafpafcBmcBcpB",
        "bishop_general_paf_paf_c_b_mc_b_cp_b",
    ),
    (
        "gyaku-sama-shogi",
        "RG",
        "pafpafcRmcRcpR",
        "rook_general_paf_paf_c_r_mc_r_cp_r",
    ),
    (
        "gyaku-sama-shogi",
        "+RG",
        "pafpafcQmcQcpQ",
        "great_general_paf_paf_c_q_mc_q_cp_q",
    ),
    (
        "gyaku-sama-shogi",
        "+CS",
        "jsR3jBjvRcabK",
        "heavenly_tetrarch_js_r3_jb_jv_r_cab_k",
    ),
    ("shoko-shogi", "HM", "RasR", "hook_mover_crowded_board"),
    ("hook-shogi", "HM", "RmasR", "hook_mover_crowded_board"),
    ("shoko-shogi", "TG", "WBasB", "tengu_crowded_board"),
    ("hook-shogi", "TG", "WBmasB", "tengu_crowded_board"),
    ("shoko-shogi", "RD", "KjQ3", "roaring_dog_k_jq3"),
    ("hook-shogi", "RD", "K3", "range_k3"),
    ("hook-shogi", "+H", "BWaKmabK", "nets_crowded_board"),
    ("hook-shogi", "+A", "RFaKmabK", "nets_crowded_board"),
    (
        "hook-shogi",
        "+F",
        "BbsRfWfDfHfcafWfmcabWfcafmpafWfmpafcavWfcafcafW",
        "kirin_master",
    ),
    (
        "hook-shogi",
        "+W",
        "RbBfFfAfGfcafFfmcabFfcafmpafFfmpafcavFfcafcafF",
        "phoenix_master",
    ),
    ("hook-shogi", "+K", "U", "universal_leaper_u"),
];

#[test]
fn special_pieces_use_the_strings_decoded_on_crowded_boards() {
    for &(id, pid, betza, test) in DECODED_ELSEWHERE {
        let v = variant(id);
        let k = v.kind_by_id(pid).unwrap();
        assert_eq!(
            v.piece(k).betza,
            betza,
            "{id} {pid} (xbetza_constructs::{test})"
        );
    }
}

// The Lion Dog and Lion layouts and their move sets (`LION_DOG_LAYOUT`, `LION_DOG_MOVES`,
// `LION_LAYOUT`, `lion_moves`) are worked out in `common/mod.rs`, on a 9x9 board around e5 where
// `xbetza_constructs.rs` decodes the plain Lion Dog and Lion; the tests below move them to the
// centre of each real board.

/// `texts` (squares named on a 9x9 board around e5) moved so that e5 becomes `centre`.
fn shifted<S: AsRef<str>>(texts: impl IntoIterator<Item = S>, centre: &str) -> BTreeSet<String> {
    let (cx, cy) = coords(centre);
    let (dx, dy) = (cx - 4, cy - 4);
    texts
        .into_iter()
        .map(|t| map_squares(t.as_ref(), |(x, y)| (x + dx, y + dy)))
        .collect()
}

/// Pieces of a layout given on 9x9 around e5, moved to `centre`, plus the kings.
fn layout(
    pieces: &[(&str, char)],
    centre: &str,
    king_b: &str,
    king_w: &str,
) -> Vec<(Coords, String)> {
    let (cx, cy) = coords(centre);
    let mut out = kings(king_b, king_w);
    for &(s, c) in pieces {
        let (x, y) = coords(s);
        out.push(((x + cx - 4, y + cy - 4), c.to_string()));
    }
    out
}

/// Plain moves from `centre` along `d` from distance `first` to the edge.
fn ray_from(size: i32, centre: &str, d: (i32, i32), first: i32) -> Vec<String> {
    ray(size, centre, d, size)
        .into_iter()
        .skip(first as usize - 1)
        .map(|s| format!("{centre}{s}"))
        .collect()
}

#[test]
fn lion_dog_promotions_on_a_crowded_board() {
    // Great Elephant (Shoko) and Furious Fiend (Hook): "move as a Lion or as a Lion Dog". In
    // the Lion Dog layout the Lion adds the eight knight leaps (all empty) and its hit and run
    // / double capture through each adjacent enemy (e6 f5 e4 d6) to every square around it but
    // straight back and the friends: via e6 f7 f5 d5 d6 d7 (e7 is the Lion Dog's too); via f5
    // g6 g4 f4 e4 e6 (g5 too); via e4 d3 f3 f4 d5 f5; via d6 d7 e7 e6 c6 c5 d5 (c7 too).
    let lion_extra = [
        "e5d7",
        "e5f7",
        "e5c6",
        "e5g6",
        "e5c4",
        "e5g4",
        "e5d3",
        "e5f3",
        "e5e6,e6f7",
        "e5e6,e6f5",
        "e5e6,e6d5",
        "e5e6,e6d6",
        "e5e6,e6d7",
        "e5f5,f5g6",
        "e5f5,f5g4",
        "e5f5,f5f4",
        "e5f5,f5e4",
        "e5f5,f5e6",
        "e5e4,e4d3",
        "e5e4,e4f3",
        "e5e4,e4f4",
        "e5e4,e4d5",
        "e5e4,e4f5",
        "e5d6,d6d7",
        "e5d6,d6e7",
        "e5d6,d6e6",
        "e5d6,d6c6",
        "e5d6,d6c5",
        "e5d6,d6d5",
    ];
    for (id, centre, king_b, king_w) in [BOARDS[0], BOARDS[2]] {
        let v = variant(id);
        let size = v.geometry.files() as i32;
        let others = layout(&LION_DOG_LAYOUT, centre, king_b, king_w);
        let mut want = shifted(LION_DOG_MOVES, centre);
        want.extend(shifted(lion_extra, centre));
        assert_eq!(want.len(), 63);
        check_moves(
            &format!("{id} +LD"),
            &engine_moves(&v, "+LD", false, coords(centre), &others),
            &want,
        );
        // Teaching King: "as a Lion Dog or as a Queen". The queen's rays stop on the first
        // piece; only the empty west ray reaches beyond the Lion Dog's three squares.
        let mut want = shifted(LION_DOG_MOVES, centre);
        want.extend(ray_from(size, centre, (-1, 0), 4));
        check_moves(
            &format!("{id} +DV"),
            &engine_moves(&v, "+DV", false, coords(centre), &others),
            &want,
        );
    }
}

#[test]
fn lion_hawk_and_divine_spirit_on_a_crowded_board() {
    for (id, centre, king_b, king_w) in BOARDS {
        let v = variant(id);
        let size = v.geometry.files() as i32;
        let others = layout(&LION_LAYOUT, centre, king_b, king_w);
        // Lion Hawk: "as a Bishop or as a Lion". Of the bishop's rays only the north-west one
        // is open (d6 c7 are in the Lion's area); the others end on f6 f4 (enemies, in the
        // area) and before c3 (a friend).
        let mut want = shifted(lion_moves(), centre);
        want.extend(ray_from(size, centre, (-1, 1), 3));
        check_moves(
            &format!("{id} +LN"),
            &engine_moves(&v, "+LN", false, coords(centre), &others),
            &want,
        );
        if id == "gyaku-sama-shogi" {
            continue;
        }
        // Divine Spirit (Shoko) / Divine Dragon (Hook): "as a Lion or as a Queen". The queen
        // adds the open rays east (f5 g5 empty), south (e4 e3) and north-west beyond the area;
        // north and north-east end on enemies, west on the friend d5, south-west on c3.
        let mut want = shifted(lion_moves(), centre);
        for d in [(1, 0), (0, -1), (-1, 1)] {
            want.extend(ray_from(size, centre, d, 3));
        }
        check_moves(
            &format!("{id} +DS"),
            &engine_moves(&v, "+DS", false, coords(centre), &others),
            &want,
        );
    }
}

#[test]
fn emperor_on_a_crowded_board() {
    // Hook Emperor (U) on j10: every square but its own, its friends (the King b1, pawns j11
    // i9) and the protected enemy royal pieces: the King r19 (the gold r18 guards it) and a
    // Crown Prince h8 (the pawn h9 guards it). The Crown Prince k11 beside it is unguarded,
    // and the guarded gold r18 is no royal piece: both may be taken.
    let v = variant("hook-shogi");
    let pieces: Vec<(Coords, String)> = [
        ("b1", "K"),
        ("r19", "k"),
        ("r18", "g"),
        ("h8", "+(de)"),
        ("h9", "p"),
        ("k11", "+(de)"),
        ("j11", "P"),
        ("i9", "P"),
        ("k9", "p"),
    ]
    .iter()
    .map(|&(s, t)| (coords(s), t.to_string()))
    .collect();
    let got = engine_moves(&v, "+K", false, coords("j10"), &pieces);
    let mut want = BTreeSet::new();
    for x in 0..19 {
        for y in 0..19 {
            let s = square_name((x, y));
            if !["j10", "b1", "j11", "i9", "r19", "h8"].contains(&s.as_str()) {
                want.insert(format!("j10{s}"));
            }
        }
    }
    assert_eq!(want.len(), 355);
    check_moves("emperor", &got, &want);
}
