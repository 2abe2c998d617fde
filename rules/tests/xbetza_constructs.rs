//! One test per XBetza construct used by the seed variants (Shoko, Gyaku-sama and Hook Shogi):
//! each decodes a piece's XBetza into its exact set of moves (destinations and kill squares) on
//! a small board.
//!
//! Every expected set here is worked out by hand from the notation's meaning (as summarised in
//! `shared/rules/xbetza.md`, corrected by the reading of XBoard's parser) and checked against the
//! prose of the seed that uses the piece; none was copied from the engine's output. Where a set
//! is regular it is built by a small loop (a ray to the edge, a square area), described in the
//! comment next to it.
//!
//! Conventions: the tested piece is `X` (first player, "Black", moving towards higher ranks) or
//! `x` (second player, moving towards lower ranks), friends and enemies are the blocker `P`/`p`,
//! the kings stand on b1 and b<top> (off every line the tests use unless a test says otherwise).
//! Move texts: `e5e6` plain move or capture on the destination, `e5f6,f6g7` kill on f6 then end
//! on g7, `e5f6,f6e5` igui, `e5e5` turn skip.

mod common;

use common::{
    area, check_moves, coords, distinct, lion_moves, map_squares, move_list_from, ray, set_of,
    square_name, to, Grid, LION_DOG_LAYOUT, LION_DOG_MOVES, LION_LAYOUT,
};
use koma_rules::{Position, Variant};
use std::collections::BTreeSet;
use std::sync::Arc;

/// Orthogonal unit steps (files, ranks): forward, right, back, left for the first player.
const ORTH: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// Diagonal unit steps.
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
/// All eight unit steps.
const ALL8: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

fn test_variant(size: u8, betza: &str) -> Arc<Variant> {
    let toml = format!(
        r#"
name = "Test"
id = "test"
files = {size}
ranks = {size}
max_plies = 100
[rules]
check = "royal-capture"
[[piece]]
id = "K"
name = "King"
betza = "K"
royal = true
setup = ["b1"]
[[piece]]
id = "X"
name = "Tested"
betza = "{betza}"
[[piece]]
id = "P"
name = "Blocker"
betza = "W"
"#
    );
    Arc::new(Variant::from_toml(&toml, "test.toml").expect("test variant"))
}

/// Position text: the tested piece on `from` (`X` if `side` is 'b', `x` if 'w'), the kings on
/// b1 and b<size>, and `pieces`.
fn fen(size: u8, side: char, from: &str, pieces: &[(&str, char)]) -> String {
    let mut grid = Grid::new(size as usize, size as usize);
    grid.put("b1", 'K');
    grid.put(&square_name((1, size as i32 - 1)), 'k');
    grid.put(from, if side == 'b' { 'X' } else { 'x' });
    for &(name, c) in pieces {
        grid.put(name, c);
    }
    grid.text(side, "-")
}

/// The canonical texts of the legal moves starting on `from`, for a piece of `betza` placed
/// there with `pieces` around it. Also checks that no move is generated twice.
fn moves(
    betza: &str,
    size: u8,
    side: char,
    from: &str,
    pieces: &[(&str, char)],
) -> BTreeSet<String> {
    let v = test_variant(size, betza);
    let mut pos = Position::from_text(&v, &fen(size, side, from, pieces)).expect("position text");
    distinct(betza, move_list_from(&mut pos, from))
}

/// `(file, rank)` turned 180 degrees on a `size` x `size` board.
fn half_turn(size: u8, (f, r): (i32, i32)) -> (i32, i32) {
    (size as i32 - 1 - f, size as i32 - 1 - r)
}

/// `name` turned 180 degrees on a `size` x `size` board.
fn rot(size: u8, name: &str) -> String {
    square_name(half_turn(size, coords(name)))
}

/// A move text turned 180 degrees: every square of every leg.
fn rot_text(size: u8, text: &str) -> String {
    map_squares(text, |c| half_turn(size, c))
}

/// The same test for the second player: the position turned 180 degrees with the colours
/// swapped (the tested piece becomes `x`), so the expected moves are `want` turned 180 degrees.
/// The kings stay on b1 and b<size>; callers use positions where no move reaches them.
#[track_caller]
fn check_rotated(
    betza: &str,
    size: u8,
    from: &str,
    pieces: &[(&str, char)],
    want: &BTreeSet<String>,
) {
    let turned: Vec<(String, char)> = pieces
        .iter()
        .map(|&(s, c)| {
            let c = if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            };
            (rot(size, s), c)
        })
        .collect();
    let refs: Vec<(&str, char)> = turned.iter().map(|(s, c)| (s.as_str(), *c)).collect();
    let got = moves(betza, size, 'w', &rot(size, from), &refs);
    let want: BTreeSet<String> = want.iter().map(|t| rot_text(size, t)).collect();
    check_moves(&format!("{betza} (second player)"), &got, &want);
}

// ---------------------------------------------------------------------------------------------
// Plain atoms: one leap of a fixed (x, y) step in each of its directions, intermediate squares
// ignored. By hand from the atom table: W (1,0), F (1,1), D (2,0), N (2,1), A (2,2), H (3,0),
// G (3,3), K = W + F. From e5 on an empty 9x9 board every leap stays on the board.
// ---------------------------------------------------------------------------------------------

#[test]
fn atom_w() {
    // The four orthogonal neighbours.
    let got = moves("W", 9, 'b', "e5", &[]);
    check_moves("W", &got, &to("e5", &["e6", "e4", "d5", "f5"]));
}

#[test]
fn atom_f() {
    // The four diagonal neighbours.
    let got = moves("F", 9, 'b', "e5", &[]);
    check_moves("F", &got, &to("e5", &["d6", "f6", "d4", "f4"]));
}

#[test]
fn atom_d() {
    // Two squares orthogonally.
    let got = moves("D", 9, 'b', "e5", &[]);
    check_moves("D", &got, &to("e5", &["e7", "e3", "c5", "g5"]));
}

#[test]
fn atom_n() {
    // The eight (1,2) leaps.
    let got = moves("N", 9, 'b', "e5", &[]);
    let want = to("e5", &["d7", "f7", "c6", "g6", "c4", "g4", "d3", "f3"]);
    check_moves("N", &got, &want);
}

#[test]
fn atom_a() {
    // Two squares diagonally.
    let got = moves("A", 9, 'b', "e5", &[]);
    check_moves("A", &got, &to("e5", &["c7", "g7", "c3", "g3"]));
}

#[test]
fn atom_h() {
    // Three squares orthogonally.
    let got = moves("H", 9, 'b', "e5", &[]);
    check_moves("H", &got, &to("e5", &["e8", "e2", "b5", "h5"]));
}

#[test]
fn atom_g() {
    // Three squares diagonally.
    let got = moves("G", 9, 'b', "e5", &[]);
    check_moves("G", &got, &to("e5", &["b8", "h8", "b2", "h2"]));
}

#[test]
fn atom_k() {
    // W + F: the eight neighbours.
    let got = moves("K", 9, 'b', "e5", &[]);
    check_moves("K", &got, &to("e5", &area(9, "e5", 1)));
}

#[test]
fn leapers_jump_over_pieces_and_respect_colours() {
    // D: jumps the friend on e6 to capture the enemy on e7; the friend on c5 removes that leap;
    // the enemy on d5 (in between) does not matter.
    let got = moves(
        "D",
        9,
        'b',
        "e5",
        &[("e6", 'P'), ("e7", 'p'), ("c5", 'P'), ("d5", 'p')],
    );
    check_moves("D crowded", &got, &to("e5", &["e7", "e3", "g5"]));
    // N surrounded by friends still leaps; d7 is a capture, f7 a friend.
    let mut pieces: Vec<(String, char)> = area(9, "e5", 1).into_iter().map(|s| (s, 'P')).collect();
    pieces.push(("d7".into(), 'p'));
    pieces.push(("f7".into(), 'P'));
    let refs: Vec<(&str, char)> = pieces.iter().map(|(s, c)| (s.as_str(), *c)).collect();
    let got = moves("N", 9, 'b', "e5", &refs);
    check_moves(
        "N crowded",
        &got,
        &to("e5", &["d7", "c6", "g6", "c4", "g4", "d3", "f3"]),
    );
    // H over two friends.
    let got = moves("H", 9, 'b', "e5", &[("e6", 'P'), ("e7", 'P'), ("e8", 'p')]);
    check_moves("H crowded", &got, &to("e5", &["e8", "e2", "b5", "h5"]));
}

// ---------------------------------------------------------------------------------------------
// Sliders: R, B, Q slide to the edge, stop on the first piece (capturing it if an enemy).
// ---------------------------------------------------------------------------------------------

#[test]
fn slider_r() {
    // Empty board: the four orthogonal rays from e5 to the edge, 4 squares each.
    let all: Vec<String> = ORTH.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    check_moves("R empty", &moves("R", 9, 'b', "e5", &[]), &to("e5", &all));
    // Friend on e7 stops the forward ray after e6; the enemy on g5 is captured and ends the
    // right ray; the other two rays run to the edge.
    let got = moves("R", 9, 'b', "e5", &[("e7", 'P'), ("g5", 'p')]);
    let want = to(
        "e5",
        &[
            "e6", "f5", "g5", "e4", "e3", "e2", "e1", "d5", "c5", "b5", "a5",
        ],
    );
    check_moves("R crowded", &got, &want);
}

#[test]
fn slider_b() {
    // Empty board: the four diagonals from e5 to the corners, 4 squares each.
    let all: Vec<String> = DIAG.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    assert_eq!(all.len(), 16);
    check_moves("B empty", &moves("B", 9, 'b', "e5", &[]), &to("e5", &all));
    // Enemy on c7 captured (d6, c7); friend on g3 leaves only f4.
    let got = moves("B", 9, 'b', "e5", &[("c7", 'p'), ("g3", 'P')]);
    let want = to(
        "e5",
        &[
            "d6", "c7", "f4", "f6", "g7", "h8", "i9", "d4", "c3", "b2", "a1",
        ],
    );
    check_moves("B crowded", &got, &want);
}

#[test]
fn slider_q() {
    // Empty board: all eight rays to the edge (32 squares).
    let all: Vec<String> = ALL8.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    assert_eq!(all.len(), 32);
    check_moves("Q empty", &moves("Q", 9, 'b', "e5", &[]), &to("e5", &all));
    // The R and B crowded positions together: the union of those two answers.
    let got = moves(
        "Q",
        9,
        'b',
        "e5",
        &[("e7", 'P'), ("g5", 'p'), ("c7", 'p'), ("g3", 'P')],
    );
    let want = to(
        "e5",
        &[
            "e6", "f5", "g5", "e4", "e3", "e2", "e1", "d5", "c5", "b5", "a5", "d6", "c7", "f4",
            "f6", "g7", "h8", "i9", "d4", "c3", "b2", "a1",
        ],
    );
    check_moves("Q crowded", &got, &want);
}

// ---------------------------------------------------------------------------------------------
// Limited ranges: a number after the atom is the most steps of a blockable slide. Tested on
// 13x13 from g7 where the board is wider than the range.
// ---------------------------------------------------------------------------------------------

#[test]
fn range_r3() {
    // Three squares along each orthogonal ray (not four).
    let all: Vec<String> = ORTH.iter().flat_map(|&d| ray(13, "g7", d, 3)).collect();
    assert_eq!(all.len(), 12);
    check_moves(
        "R3 empty",
        &moves("R3", 13, 'b', "g7", &[]),
        &to("g7", &all),
    );
    // Friend on g9: forward only g8. Enemy on e7: left f7, e7 (capture), not d7.
    let got = moves("R3", 13, 'b', "g7", &[("g9", 'P'), ("e7", 'p')]);
    let want = to(
        "g7",
        &["g8", "f7", "e7", "h7", "i7", "j7", "g6", "g5", "g4"],
    );
    check_moves("R3 crowded", &got, &want);
}

#[test]
fn range_b4() {
    // Four squares along each diagonal: h8 i9 j10 k11 but not l12, and so on.
    let all: Vec<String> = DIAG.iter().flat_map(|&d| ray(13, "g7", d, 4)).collect();
    assert_eq!(all.len(), 16);
    assert!(all.contains(&"k11".to_string()) && !all.contains(&"l12".to_string()));
    check_moves(
        "B4 empty",
        &moves("B4", 13, 'b', "g7", &[]),
        &to("g7", &all),
    );
    // Enemy on i9: h8, i9 on that diagonal.
    let got = moves("B4", 13, 'b', "g7", &[("i9", 'p')]);
    let mut want: Vec<String> = vec!["h8".into(), "i9".into()];
    for d in [(1, -1), (-1, -1), (-1, 1)] {
        want.extend(ray(13, "g7", d, 4));
    }
    check_moves("B4 crowded", &got, &to("g7", &want));
}

#[test]
fn range_sw5() {
    // Sideways up to five: b7..f7 and h7..l7 (not a7, m7).
    let got = moves("sW5", 13, 'b', "g7", &[]);
    let want = to(
        "g7",
        &["f7", "e7", "d7", "c7", "b7", "h7", "i7", "j7", "k7", "l7"],
    );
    check_moves("sW5 empty", &got, &want);
    // A slide, so a friend on j7 blocks: h7, i7 on the right.
    let got = moves("sW5", 13, 'b', "g7", &[("j7", 'P')]);
    let want = to("g7", &["f7", "e7", "d7", "c7", "b7", "h7", "i7"]);
    check_moves("sW5 crowded", &got, &want);
}

#[test]
fn range_w2() {
    // Up to two squares orthogonally.
    let all: Vec<String> = ORTH.iter().flat_map(|&d| ray(9, "e5", d, 2)).collect();
    check_moves("W2 empty", &moves("W2", 9, 'b', "e5", &[]), &to("e5", &all));
    // W2 is a blockable slide (Flying Dragon, "1 or 2 squares"): a friend on e6 blocks e7; an
    // enemy on d5 is captured and blocks c5.
    let got = moves("W2", 9, 'b', "e5", &[("e6", 'P'), ("d5", 'p')]);
    check_moves(
        "W2 crowded",
        &got,
        &to("e5", &["d5", "e4", "e3", "f5", "g5"]),
    );
}

#[test]
fn range_f2() {
    // Up to two squares diagonally.
    let all: Vec<String> = DIAG.iter().flat_map(|&d| ray(9, "e5", d, 2)).collect();
    check_moves("F2 empty", &moves("F2", 9, 'b', "e5", &[]), &to("e5", &all));
    // Enemy on f6 captured and blocks g7; friend on c3 leaves d4.
    let got = moves("F2", 9, 'b', "e5", &[("f6", 'p'), ("c3", 'P')]);
    check_moves(
        "F2 crowded",
        &got,
        &to("e5", &["f6", "d4", "d6", "c7", "f4", "g3"]),
    );
}

#[test]
fn range_k3() {
    // K3 = Q3: three squares along each of the eight rays (Hook Roaring Dog).
    let all: Vec<String> = ALL8.iter().flat_map(|&d| ray(13, "g7", d, 3)).collect();
    assert_eq!(all.len(), 24);
    check_moves(
        "K3 empty",
        &moves("K3", 13, 'b', "g7", &[]),
        &to("g7", &all),
    );
    // Friend on g8: nothing forward. Enemy on j10 (third square forward-right) captured.
    let got = moves("K3", 13, 'b', "g7", &[("g8", 'P'), ("j10", 'p')]);
    let mut want: Vec<String> = Vec::new();
    for d in ALL8 {
        if d != (0, 1) {
            want.extend(ray(13, "g7", d, 3));
        }
    }
    check_moves("K3 crowded", &got, &to("g7", &want));
}

#[test]
fn range_lance_fr_bw2() {
    // Lance fRbW2: forward slide to the edge, backward slide of up to two.
    let got = moves("fRbW2", 9, 'b', "e5", &[]);
    check_moves(
        "fRbW2 black",
        &got,
        &to("e5", &["e6", "e7", "e8", "e9", "e4", "e3"]),
    );
    // For the second player forward is down the board.
    let got = moves("fRbW2", 9, 'w', "e5", &[]);
    check_moves(
        "fRbW2 white",
        &got,
        &to("e5", &["e4", "e3", "e2", "e1", "e6", "e7"]),
    );
    // Enemy on e8 ends the forward slide; friend on e3 cuts the backward one to e4.
    let got = moves("fRbW2", 9, 'b', "e5", &[("e8", 'p'), ("e3", 'P')]);
    check_moves("fRbW2 crowded", &got, &to("e5", &["e6", "e7", "e8", "e4"]));
}

// ---------------------------------------------------------------------------------------------
// Direction letters on the first leg. Orthogonal atoms: each letter one direction (v, s two).
// Diagonal atoms: a letter alone is the pair on that side, two perpendicular letters their
// intersection. K/Q: a letter alone is the straight direction. Oblique: see ffN. For the
// second player everything is turned 180 degrees.
// ---------------------------------------------------------------------------------------------

#[test]
fn dir_fs_w() {
    // fsW (Hook Evil Wolf's W part) = forward, left, right; sfW (Shoko) the same.
    let want = to("e5", &["e6", "d5", "f5"]);
    check_moves("fsW", &moves("fsW", 9, 'b', "e5", &[]), &want);
    check_moves("sfW", &moves("sfW", 9, 'b', "e5", &[]), &want);
    check_moves(
        "fsW white",
        &moves("fsW", 9, 'w', "e5", &[]),
        &to("e5", &["e4", "d5", "f5"]),
    );
    // Shoko Evil Wolf fFsfW: "one square sideways, directly forward, or diagonally forward".
    check_moves(
        "fFsfW",
        &moves("fFsfW", 9, 'b', "e5", &[]),
        &to("e5", &["d6", "f6", "e6", "d5", "f5"]),
    );
    // Blind Tiger FsbW / FbsW: King minus straight forward (order of s, b irrelevant on W).
    let tiger = to("e5", &["d6", "f6", "d4", "f4", "d5", "f5", "e4"]);
    check_moves("FsbW", &moves("FsbW", 9, 'b', "e5", &[]), &tiger);
    check_moves("FbsW", &moves("FbsW", 9, 'b', "e5", &[]), &tiger);
}

#[test]
fn dir_ff_n() {
    // ffN: the two knight leaps most forward (the shogi knight).
    check_moves(
        "ffN",
        &moves("ffN", 9, 'b', "e5", &[]),
        &to("e5", &["d7", "f7"]),
    );
    check_moves(
        "ffN white",
        &moves("ffN", 9, 'w', "e5", &[]),
        &to("e5", &["d3", "f3"]),
    );
}

#[test]
fn dir_w_ff() {
    // Gold WfF: the four orthogonal steps and the two forward diagonals.
    check_moves(
        "WfF",
        &moves("WfF", 9, 'b', "e5", &[]),
        &to("e5", &["e6", "e4", "d5", "f5", "d6", "f6"]),
    );
    check_moves(
        "WfF white",
        &moves("WfF", 9, 'w', "e5", &[]),
        &to("e5", &["e6", "e4", "d5", "f5", "d4", "f4"]),
    );
}

#[test]
fn dir_f_fw() {
    // Silver FfW: the four diagonals and straight forward.
    check_moves(
        "FfW",
        &moves("FfW", 9, 'b', "e5", &[]),
        &to("e5", &["d6", "f6", "d4", "f4", "e6"]),
    );
    check_moves(
        "FfW white",
        &moves("FfW", 9, 'w', "e5", &[]),
        &to("e5", &["d6", "f6", "d4", "f4", "e4"]),
    );
}

#[test]
fn dir_rbf_f_lw() {
    // Shoko Deva rbfFlW: on F, "rb" is one diagonal (back-right, f4), then "f" alone the pair
    // d6 f6; lW the left step d5. Four steps (the findings, section 1: this is not "King minus
    // forward-right", which is Hook's lfbFW).
    check_moves(
        "rbfFlW",
        &moves("rbfFlW", 9, 'b', "e5", &[]),
        &to("e5", &["f4", "d6", "f6", "d5"]),
    );
    // Second player: the same shape turned 180 degrees.
    check_moves(
        "rbfFlW white",
        &moves("rbfFlW", 9, 'w', "e5", &[]),
        &to("e5", &["d6", "d4", "f4", "f5"]),
    );
    // Shoko Dark Spirit lbfFrW: back-left d4, forward pair d6 f6, right f5.
    check_moves(
        "lbfFrW",
        &moves("lbfFrW", 9, 'b', "e5", &[]),
        &to("e5", &["d4", "d6", "f6", "f5"]),
    );
}

#[test]
fn dir_lfb_fw() {
    // Hook Deva lfbFW: "lf" = forward-left d6, "b" = the back pair d4 f4, plus W: the King
    // without the forward-right step f6 (prose: "any direction except diagonally forward to
    // the right").
    let mut king: BTreeSet<String> = to("e5", &area(9, "e5", 1));
    king.remove("e5f6");
    check_moves("lfbFW", &moves("lfbFW", 9, 'b', "e5", &[]), &king);
    // Second player: its forward-right is our d4.
    let mut king: BTreeSet<String> = to("e5", &area(9, "e5", 1));
    king.remove("e5d4");
    check_moves("lfbFW white", &moves("lfbFW", 9, 'w', "e5", &[]), &king);
    // Hook Dark Spirit rfbFW: King minus forward-left d6.
    let mut king: BTreeSet<String> = to("e5", &area(9, "e5", 1));
    king.remove("e5d6");
    check_moves("rfbFW", &moves("rfbFW", 9, 'b', "e5", &[]), &king);
}

#[test]
fn dir_fr_bw_flbr_b() {
    // Left Chariot fRbWflbrB: forward slide e6..e9, back step e4, slides forward-left
    // (d6..a9) and back-right (f4..i1).
    let mut want = vec!["e4".to_string()];
    want.extend(ray(9, "e5", (0, 1), 8));
    want.extend(ray(9, "e5", (-1, 1), 8));
    want.extend(ray(9, "e5", (1, -1), 8));
    check_moves(
        "fRbWflbrB",
        &moves("fRbWflbrB", 9, 'b', "e5", &[]),
        &to("e5", &want),
    );
    // Second player: forward is down, back step e6; its forward-left is our back-right, so the
    // diagonal is the same line.
    let mut want = vec!["e6".to_string()];
    want.extend(ray(9, "e5", (0, -1), 8));
    want.extend(ray(9, "e5", (-1, 1), 8));
    want.extend(ray(9, "e5", (1, -1), 8));
    check_moves(
        "fRbWflbrB white",
        &moves("fRbWflbrB", 9, 'w', "e5", &[]),
        &to("e5", &want),
    );
    // Right Chariot fRbWfrblB: forward-right f6..i9 and back-left d4..a1.
    let mut want = vec!["e4".to_string()];
    want.extend(ray(9, "e5", (0, 1), 8));
    want.extend(ray(9, "e5", (1, 1), 8));
    want.extend(ray(9, "e5", (-1, -1), 8));
    check_moves(
        "fRbWfrblB",
        &moves("fRbWfrblB", 9, 'b', "e5", &[]),
        &to("e5", &want),
    );
}

/// King steps plus slides along `rays` from e5 on an empty 9x9 board.
fn king_plus(rays: &[(i32, i32)]) -> BTreeSet<String> {
    let mut want = area(9, "e5", 1);
    for &d in rays {
        want.extend(ray(9, "e5", d, 8));
    }
    to("e5", &want)
}

#[test]
fn dir_k_rv_b_r_r() {
    // Left Army KrvBrR: King, slides along both right diagonals ("rv" on B = the right pair,
    // not XBoard's all-four fallback) and the right orthogonal (prose: "slide along the right
    // orthogonal or either right diagonal"). 8 + 3 rays of 4, minus the 3 overlapping steps.
    let want = king_plus(&[(1, 1), (1, -1), (1, 0)]);
    assert_eq!(want.len(), 17);
    check_moves("KrvBrR", &moves("KrvBrR", 9, 'b', "e5", &[]), &want);
    // For the second player "right" is towards file a.
    let want = king_plus(&[(-1, -1), (-1, 1), (-1, 0)]);
    check_moves("KrvBrR white", &moves("KrvBrR", 9, 'w', "e5", &[]), &want);
}

#[test]
fn dir_k_lv_b_l_r() {
    // Right Army KlvBlR: the mirror image (left diagonals and left orthogonal).
    let want = king_plus(&[(-1, -1), (-1, 1), (-1, 0)]);
    check_moves("KlvBlR", &moves("KlvBlR", 9, 'b', "e5", &[]), &want);
}

#[test]
fn dir_b_sb_r_fw() {
    // Mountain Witch BsbRfW: bishop, rook slides left, right and back ("sb" on R never
    // combines), one step forward.
    let mut want: Vec<String> = DIAG.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    for d in [(-1, 0), (1, 0), (0, -1)] {
        want.extend(ray(9, "e5", d, 8));
    }
    want.push("e6".into());
    assert_eq!(want.len(), 29);
    check_moves(
        "BsbRfW",
        &moves("BsbRfW", 9, 'b', "e5", &[]),
        &to("e5", &want),
    );
}

#[test]
fn dir_bb_fr() {
    // Multi General bBfR: both backward diagonals and the forward ray.
    let mut want = Vec::new();
    for d in [(-1, -1), (1, -1), (0, 1)] {
        want.extend(ray(9, "e5", d, 8));
    }
    check_moves("bBfR", &moves("bBfR", 9, 'b', "e5", &[]), &to("e5", &want));
    // Second player: its backward diagonals point up the board, its forward down.
    let mut want = Vec::new();
    for d in [(-1, 1), (1, 1), (0, -1)] {
        want.extend(ray(9, "e5", d, 8));
    }
    check_moves(
        "bBfR white",
        &moves("bBfR", 9, 'w', "e5", &[]),
        &to("e5", &want),
    );
}

// ---------------------------------------------------------------------------------------------
// `j` on sliders: skip the first square whatever stands on it; it counts towards the range.
// ---------------------------------------------------------------------------------------------

#[test]
fn roaring_dog_k_jq3() {
    // Shoko Roaring Dog KjQ3: a King step, or the 2nd/3rd square of any ray over whatever is on
    // the 1st ("jump to the second square in any direction before optionally stepping one square
    // in the same direction"). Empty board: every square at distance 1..3 on the 8 rays.
    let all: Vec<String> = ALL8.iter().flat_map(|&d| ray(9, "e5", d, 3)).collect();
    check_moves(
        "KjQ3 empty",
        &moves("KjQ3", 9, 'b', "e5", &[]),
        &to("e5", &all),
    );
    // Friends e6 f6 g5, enemies d6 c5 e4 e3.
    // King steps: not to the friends e6 f6; d6 and e4 are captures: d6 d5 d4 e4 f4 f5.
    // jQ3 by ray (1st square skipped): N e7 e8 (over the friend); NE g7 h8; E g5 is a friend on
    // the 2nd square: nothing; SE g3 h2; S e3 captured (over the enemy on e4), ends there;
    // SW c3 b2; W c5 captured; NW c7 b8.
    let pieces = [
        ("e6", 'P'),
        ("f6", 'P'),
        ("g5", 'P'),
        ("d6", 'p'),
        ("c5", 'p'),
        ("e4", 'p'),
        ("e3", 'p'),
    ];
    let got = moves("KjQ3", 9, 'b', "e5", &pieces);
    let want = to(
        "e5",
        &[
            "d6", "d5", "d4", "e4", "f4", "f5", "e7", "e8", "g7", "h8", "g3", "h2", "e3", "c3",
            "b2", "c5", "c7", "b8",
        ],
    );
    check_moves("KjQ3 crowded", &got, &want);
}

#[test]
fn heavenly_tetrarch_js_r3_jb_jv_r_cab_k() {
    // Gyaku-sama Heavenly Tetrarch jsR3jBjvRcabK: sideways 2nd and 3rd square (jsR3, range 3
    // counts the skipped square), diagonals and verticals from the 2nd square on (jB, jvR),
    // igui on adjacent enemies (cabK). Prose: "cannot move to any adjacent square, and is not
    // blocked from moving by pieces on those squares". The `j` is written before the direction
    // letters: read as an unordered modifier (findings section 9.1), so jsR3 stays sideways.
    let mut want = vec!["c5", "b5", "g5", "h5"]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    for d in DIAG {
        want.extend(ray(9, "e5", d, 8).into_iter().skip(1));
    }
    for d in [(0, 1), (0, -1)] {
        want.extend(ray(9, "e5", d, 8).into_iter().skip(1));
    }
    assert_eq!(want.len(), 22);
    check_moves(
        "Tetrarch empty",
        &moves("jsR3jBjvRcabK", 9, 'b', "e5", &[]),
        &to("e5", &want),
    );
    // Enemies e6 d4 f4 (adjacent: igui), h8, c5, e2; friends f6 d5 (adjacent), g5.
    // igui: e6, d4, f4 (not the friends). jsR3: left skips d5, captures c5, stops; right skips
    // f5, g5 friend: nothing. jB: NE skips f6, g7, h8 captured; NW c7 b8 a9; SW skips d4:
    // c3 b2 a1; SE skips f4: g3 h2 i1. jvR: N skips e6: e7 e8 e9; S e3, e2 captured.
    let pieces = [
        ("e6", 'p'),
        ("d4", 'p'),
        ("f4", 'p'),
        ("h8", 'p'),
        ("c5", 'p'),
        ("e2", 'p'),
        ("f6", 'P'),
        ("d5", 'P'),
        ("g5", 'P'),
    ];
    let got = moves("jsR3jBjvRcabK", 9, 'b', "e5", &pieces);
    let mut want = to(
        "e5",
        &[
            "c5", "g7", "h8", "c7", "b8", "a9", "c3", "b2", "a1", "g3", "h2", "i1", "e7", "e8",
            "e9", "e3", "e2",
        ],
    );
    want.extend(set_of(&["e5e6,e6e5", "e5d4,d4e5", "e5f4,f4e5"]));
    check_moves("Tetrarch crowded", &got, &want);
}

// ---------------------------------------------------------------------------------------------
// Lame leaper `n`.
// ---------------------------------------------------------------------------------------------

#[test]
fn side_soldier_ws_r_fn_d() {
    // Gyaku-sama Side Soldier WsRfnD: "slide sideways or move one square directly backward; in
    // addition slide one or two squares directly forward". fnD = forward D blocked by a piece
    // on the square in between.
    let side: Vec<String> = [(-1, 0), (1, 0)]
        .iter()
        .flat_map(|&d| ray(9, "e5", d, 8))
        .collect();
    let with = |extra: &[&str]| {
        let mut s = to("e5", &side);
        s.extend(to("e5", extra));
        s
    };
    check_moves(
        "WsRfnD empty",
        &moves("WsRfnD", 9, 'b', "e5", &[]),
        &with(&["e6", "e4", "e7"]),
    );
    // Friend on e6: neither e6 nor the D leap over it.
    check_moves(
        "WsRfnD friend e6",
        &moves("WsRfnD", 9, 'b', "e5", &[("e6", 'P')]),
        &with(&["e4"]),
    );
    // Enemy on e6: captured by the W step, still blocks the D leap.
    check_moves(
        "WsRfnD enemy e6",
        &moves("WsRfnD", 9, 'b', "e5", &[("e6", 'p')]),
        &with(&["e6", "e4"]),
    );
    // e6 empty, enemy on e7: captured by the D leap.
    check_moves(
        "WsRfnD enemy e7",
        &moves("WsRfnD", 9, 'b', "e5", &[("e7", 'p')]),
        &with(&["e6", "e4", "e7"]),
    );
    // Second player: forward is down; an enemy on e4 is captured and blocks e3.
    check_moves(
        "WsRfnD white",
        &moves("WsRfnD", 9, 'w', "e5", &[]),
        &with(&["e6", "e4", "e3"]),
    );
    check_moves(
        "WsRfnD white blocked",
        &moves("WsRfnD", 9, 'w', "e5", &[("e4", 'P')]),
        &with(&["e6", "e4"]),
    );
}

// ---------------------------------------------------------------------------------------------
// Lion KNADcaKmcabK: K N A D leaps (the 5x5 area), caK (kill an adjacent enemy, then one more
// King step in any direction but straight back: hit and run or double capture), mcabK (step
// out and straight back: turn skip from an empty square, igui on an enemy).
// ---------------------------------------------------------------------------------------------

#[test]
fn lion_empty_board() {
    // All 24 squares of the 5x5 area, plus the turn skip (all neighbours are empty). No enemy,
    // so no kill.
    let mut want = to("e5", &area(9, "e5", 2));
    want.insert("e5e5".into());
    assert_eq!(want.len(), 25);
    check_moves(
        "Lion empty",
        &moves("KNADcaKmcabK", 9, 'b', "e5", &[]),
        &want,
    );
}

#[test]
fn lion_crowded_board() {
    // `LION_LAYOUT` and the Lion's 43 moves there (`lion_moves`), worked out by hand in
    // `common/mod.rs` (`piece_moves.rs` moves them onto the real boards): the 5x5 area but the
    // friends, hit and run / double captures through the adjacent enemies, igui on them, and
    // the turn skip.
    let pieces = LION_LAYOUT;
    let got = moves("KNADcaKmcabK", 9, 'b', "e5", &pieces);
    let want = lion_moves();
    check_moves("Lion crowded", &got, &want);
    check_rotated("KNADcaKmcabK", 9, "e5", &pieces, &want);
}

// ---------------------------------------------------------------------------------------------
// Lion Dog. Shoko: KADGHcavKabKcmpafcavKcafcmpafK; Hook: KADGHcafKmcabKcafmpafKmpafcavKcafcafK.
// Both mean (prose): up to three steps along one ray, each a move, capture or hop, returning
// towards but not beyond the origin. Per ray with squares s1 s2 s3 the moves are:
//   (a) leap to s1, s2 or s3 (K A D G H) when not a friend;
//   (b) kill an enemy on s1, then to s2 (not a friend) or back to the origin (igui);
//   (c) s1 empty: out and back (turn skip);
//   (d) s1 anything (enemy: killed or hopped), kill an enemy on s2, then on to s3 (not a
//       friend) or back to s1 (empty or enemy; the enemy there is then captured on arrival);
//   (e) kill an enemy on s1, pass s2 (any; an enemy there may also be killed), end on s3.
// Shoko: KADGH = (a); cavK = (b); abK = (c); cmpafcavK = (d) with s1 killed or hopped;
// cafcmpafK = (e). Hook: cafK + mcabK = (b) + (c); mpafcavK = (d) with s1 hopped; cafcafK and
// cafmpafK = (e) and (d) with s1 killed. So both strings must give the same set.
// ---------------------------------------------------------------------------------------------

const LION_DOG_SHOKO: &str = "KADGHcavKabKcmpafcavKcafcmpafK";
const LION_DOG_HOOK: &str = "KADGHcafKmcabKcafmpafKmpafcavKcafcafK";

#[test]
fn lion_dog_empty_board() {
    // Every square at distance 1..3 on the eight rays (24), plus the turn skip.
    let all: Vec<String> = ALL8.iter().flat_map(|&d| ray(9, "e5", d, 3)).collect();
    let mut want = to("e5", &all);
    want.insert("e5e5".into());
    assert_eq!(want.len(), 25);
    for betza in [LION_DOG_SHOKO, LION_DOG_HOOK] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &[]), &want);
    }
}

#[test]
fn lion_dog_crowded_board() {
    // `LION_DOG_LAYOUT` and the Lion Dog's 34 moves there (`LION_DOG_MOVES`), worked out ray by
    // ray in `common/mod.rs` with the kinds of move (a) to (e) above (`piece_moves.rs` moves
    // them onto the real boards).
    let pieces = LION_DOG_LAYOUT;
    let want = set_of(&LION_DOG_MOVES);
    assert_eq!(want.len(), 34);
    for betza in [LION_DOG_SHOKO, LION_DOG_HOOK] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &pieces), &want);
        check_rotated(betza, 9, "e5", &pieces, &want);
    }
}

// ---------------------------------------------------------------------------------------------
// Area moves (KaKaaK: up to three King steps through empty squares, each not straight back,
// stopping at the first capture) and the Fire Demon's demon move.
// ---------------------------------------------------------------------------------------------

const FIRE_DEMON: &str = "BsRKaKaaKmabKcavKcafmafKmafcavK";

#[test]
fn fire_demon_empty_board() {
    // Area move: the whole 7x7 area (48); the bishop adds the four corners a1 a9 i1 i9, the
    // sideways rook a5 and i5; mabK the turn skip. No enemy, so no demon move.
    let mut want = to("e5", &area(9, "e5", 3));
    want.extend(to("e5", &["a1", "a9", "i1", "i9", "a5", "i5"]));
    want.insert("e5e5".into());
    assert_eq!(want.len(), 55);
    check_moves(
        "Fire Demon empty",
        &moves(FIRE_DEMON, 9, 'b', "e5", &[]),
        &want,
    );
}

#[test]
fn fire_demon_crowded_board() {
    // Enemies e6 e8 f6 g7 g5 g3 d6; friends h2 e4 d4 d5 c7. Empty neighbours: f5, f4.
    let pieces = [
        ("e6", 'p'),
        ("e8", 'p'),
        ("f6", 'p'),
        ("g7", 'p'),
        ("g5", 'p'),
        ("g3", 'p'),
        ("d6", 'p'),
        ("h2", 'P'),
        ("e4", 'P'),
        ("d4", 'P'),
        ("d5", 'P'),
        ("c7", 'P'),
    ];
    let got = moves(FIRE_DEMON, 9, 'b', "e5", &pieces);
    // Area move, by hand (intermediate squares must be empty, so only f5 and f4 are step-1
    // relays, and from them f4/f5, g6, g4, f3, e3 as step-2 relays):
    //   1 step: d6 e6 f6 (captures), f5, f4.
    //   via f5: f6 g6 g5 g4 f4 e6; via f4: f5 g5 g4 g3 f3 e3.
    //   via f5-g6: g7 h7 h6 h5 g5 f6 f7; via f5-g4 and f4-g4: g5 h5 h4 h3 g3 f3 f4/f5;
    //   via f5-f4: f3 g3 g4 g5 e3 (and e5 itself: the skip); via f4-f5: f6 g6 g5 g4 e6;
    //   via f4-f3: f2 g2 g3 g4 e3 e2; via f4-e3: e2 d2 d3 f3 f2.
    // The e-file above e6, f8, and the c-file stay out of reach (every relay is occupied).
    // The bishop (f6, d6, f4, g3) and sideways rook (f5, g5) add nothing new.
    let mut want = to(
        "e5",
        &[
            "d6", "d3", "d2", "e6", "e3", "e2", "f7", "f6", "f5", "f4", "f3", "f2", "g7", "g6",
            "g5", "g4", "g3", "g2", "h7", "h6", "h5", "h4", "h3",
        ],
    );
    want.extend(set_of(&[
        "e5e5",
        // N: cavK kills e6 then e7 or igui; cafmafK kills e6, crosses the empty e7, captures
        // e8. mafcavK needs e6 empty.
        "e5e6,e6e7",
        "e5e6,e6e5",
        "e5e6,e6e8",
        // NE: cavK kills f6 then captures g7, or igui (cafmafK needs g7 empty).
        "e5f6,f6g7",
        "e5f6,f6e5",
        // E: mafcavK crosses f5, kills g5, then h5 or back to f5.
        "e5g5,g5h5",
        "e5g5,g5f5",
        // SE: mafcavK crosses f4, kills g3, back to f4 (h2 is a friend).
        "e5g3,g3f4",
        // NW: igui on d6 (c7 is a friend).
        "e5d6,d6e5",
    ]));
    assert_eq!(want.len(), 33);
    check_moves("Fire Demon crowded", &got, &want);
    check_rotated(FIRE_DEMON, 9, "e5", &pieces, &want);
}

const VICE_GENERAL: &str = "pafpafcBmcBcpBKaKaaKmabK";

#[test]
fn vice_general_empty_board() {
    // mcB = bishop (16); KaKaaK = the 7x7 area (48, which holds 12 of the bishop squares);
    // mabK = turn skip. No range capture without pieces.
    let mut want = to("e5", &area(9, "e5", 3));
    want.extend(to("e5", &["a1", "a9", "i1", "i9"]));
    want.insert("e5e5".into());
    assert_eq!(want.len(), 53);
    check_moves(
        "Vice General empty",
        &moves(VICE_GENERAL, 9, 'b', "e5", &[]),
        &want,
    );
}

#[test]
fn vice_general_crowded_board() {
    // 13x13, from g7. Diagonals (distance 1, 2, ...):
    //   NE h8 F, i9 ., j10 X, k11 ., l12 X, m13 X
    //   NW f8 ., e9 X, d10 F, c11 ., b12 X, a13 .
    //   SE h6 X, i5 X, j4 X, k3 ...
    //   SW f6 ., e5 ., d4 F, c3 X, b2 ., a1 .
    // Orthogonal neighbours: g8 F, g6 F, f7 F, h7 X.
    let pieces = [
        ("h8", 'P'),
        ("j10", 'p'),
        ("l12", 'p'),
        ("m13", 'p'),
        ("e9", 'p'),
        ("d10", 'P'),
        ("b12", 'p'),
        ("h6", 'p'),
        ("i5", 'p'),
        ("j4", 'p'),
        ("d4", 'P'),
        ("c3", 'p'),
        ("g8", 'P'),
        ("g6", 'P'),
        ("f7", 'P'),
        ("h7", 'p'),
    ];
    let got = moves(VICE_GENERAL, 13, 'b', "g7", &pieces);
    // Range captures ("moves as a Bishop but can jump up to two pieces along the line of attack
    // when taking"): mcB plain, cpB captures the first piece after one screen, pafpafcB the
    // first after two screens; screens of either colour are not captured.
    //   NE: plain blocked by the friend; cpB j10; pafpafcB l12.
    //   NW: plain f8 e9; cpB would take the friend d10: no; pafpafcB b12.
    //   SE: plain h6; cpB i5; pafpafcB j4.
    //   SW: plain f6 e5; cpB c3 (over the friend d4); pafpafcB finds nothing after c3.
    // Area move, only f8 and f6 are empty neighbours:
    //   1 step: f8 f6, captures h6 h7.
    //   2 steps via f8: f9 g9 e7 e8 e9; via f6: e7 e6 e5 f5 g5.
    //   3 steps: via f9: f10 g10 e10 (and g9 e8 e9); via g9: h10 h9 (g10 f9 f10); via e7/e8:
    //   d6 d7 d8 d9 (e6 e8 f6 f8 e9 f9); via e6/e5: d5 d6 d7 e4 f4 f5; via f5: f4 g4 g5 e4;
    //   via g5: h6 h5 h4 g4. Nothing reaches the i-file (no empty relay on the h-file) or the
    //   c-file; d4 and d10 are friends.
    let mut want = to(
        "g7",
        &[
            "d5", "d6", "d7", "d8", "d9", "e4", "e5", "e6", "e7", "e8", "e9", "e10", "f4", "f5",
            "f6", "f8", "f9", "f10", "g4", "g5", "g9", "g10", "h4", "h5", "h6", "h7", "h9", "h10",
        ],
    );
    assert_eq!(want.len(), 28);
    // The range captures beyond the area.
    want.extend(to("g7", &["j10", "l12", "b12", "i5", "j4", "c3"]));
    want.insert("g7g7".into());
    assert_eq!(want.len(), 35);
    check_moves("Vice General crowded", &got, &want);
    check_rotated(VICE_GENERAL, 13, "g7", &pieces, &want);
}

#[test]
fn rook_general_paf_paf_c_r_mc_r_cp_r() {
    // Rook General: rook, or capture the first piece behind one or two screens (either colour).
    //   N: e6 F, e7 ., e8 X, e9 X -> plain blocked; cpR e8; pafpafcR e9.
    //   S: e4 X, e3 X, e2 F, e1 X -> plain e4; cpR e3; pafpafcR would take the friend e2.
    //   W: empty -> d5 c5 b5 a5.
    //   E: f5 ., g5 X, h5 ., i5 X -> plain f5 g5; cpR i5; pafpafcR nothing after i5.
    let pieces = [
        ("e6", 'P'),
        ("e8", 'p'),
        ("e9", 'p'),
        ("e4", 'p'),
        ("e3", 'p'),
        ("e2", 'P'),
        ("e1", 'p'),
        ("g5", 'p'),
        ("i5", 'p'),
    ];
    let got = moves("pafpafcRmcRcpR", 9, 'b', "e5", &pieces);
    let want = to(
        "e5",
        &[
            "e8", "e9", "e4", "e3", "d5", "c5", "b5", "a5", "f5", "g5", "i5",
        ],
    );
    check_moves("Rook General", &got, &want);
}

/// Pieces for the Bishop General test (diagonals of e5 on 9x9).
const BISHOP_GENERAL_PIECES: [(&str, char); 10] = [
    ("f6", 'p'),
    ("g7", 'P'),
    ("h8", 'p'),
    ("b8", 'p'),
    ("f4", 'P'),
    ("g3", 'P'),
    ("h2", 'P'),
    ("i1", 'p'),
    ("c3", 'p'),
    ("a1", 'p'),
];

/// Expected Bishop General moves with [`BISHOP_GENERAL_PIECES`]:
///   NE: f6 X, g7 F, h8 X, i9 . -> plain f6; cpB would take the friend g7; pafpafcB h8.
///   NW: d6 ., c7 ., b8 X, a9 . -> plain d6 c7 b8; nothing after b8.
///   SE: f4 F, g3 F, h2 F, i1 X -> nothing: three screens are one too many.
///   SW: d4 ., c3 X, b2 ., a1 X -> plain d4 c3; cpB a1.
const BISHOP_GENERAL_MOVES: [&str; 8] = ["f6", "h8", "d6", "c7", "b8", "d4", "c3", "a1"];

#[test]
fn bishop_general_paf_paf_c_b_mc_b_cp_b() {
    let got = moves("pafpafcBmcBcpB", 9, 'b', "e5", &BISHOP_GENERAL_PIECES);
    check_moves("Bishop General", &got, &to("e5", &BISHOP_GENERAL_MOVES));
}

#[test]
fn great_general_paf_paf_c_q_mc_q_cp_q() {
    // Great General: the Rook General's and Bishop General's positions together (no piece of
    // one lies on the other's lines), so the union of their answers.
    let mut pieces = BISHOP_GENERAL_PIECES.to_vec();
    pieces.extend([
        ("e6", 'P'),
        ("e8", 'p'),
        ("e9", 'p'),
        ("e4", 'p'),
        ("e3", 'p'),
        ("e2", 'P'),
        ("e1", 'p'),
        ("g5", 'p'),
        ("i5", 'p'),
    ]);
    let got = moves("pafpafcQmcQcpQ", 9, 'b', "e5", &pieces);
    let mut want = to(
        "e5",
        &[
            "e8", "e9", "e4", "e3", "d5", "c5", "b5", "a5", "f5", "g5", "i5",
        ],
    );
    want.extend(to("e5", &BISHOP_GENERAL_MOVES));
    assert_eq!(want.len(), 19);
    check_moves("Great General", &got, &want);
}

// ---------------------------------------------------------------------------------------------
// Bent sliders: masR / asR (Hook Mover), masB / asB (Tengu). The first leg slides over empty
// squares (a non-final leg defaults to m, so asR = masR); from any of them the second leg turns
// 90 degrees (s) and slides on, capturing or not. The plain R / B covers the unturned moves.
// ---------------------------------------------------------------------------------------------

#[test]
fn hook_mover_empty_board() {
    // With one turn every square of the board is reachable (via the corner square on e-file or
    // rank 5); the own king on b1 is not a destination (d1..c1 and a1 are, by other paths),
    // the enemy king on b9 is a capture. So: every square but e5 and b1.
    let mut want = BTreeSet::new();
    for f in 0..9 {
        for r in 1..=9 {
            let s = square_name((f, r - 1));
            if s != "e5" && s != "b1" {
                want.insert(format!("e5{s}"));
            }
        }
    }
    assert_eq!(want.len(), 79);
    for betza in ["RmasR", "RasR"] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &[]), &want);
    }
}

#[test]
fn hook_mover_crowded_board() {
    // Friends e7 c5 f3, enemies g5 e4 d6 h6.
    // First legs: N e6 (then friend); S e4 captured (a capture ends the move: no turn); W d5
    // (then friend); E f5, g5 captured.
    // Turns: at e6 west d6 captured, east f6 g6 h6 captured; at d5 north d6 captured, south
    // d4 d3 d2 d1; at f5 north f6 f7 f8 f9, south f4 (f3 friend).
    let pieces = [
        ("e7", 'P'),
        ("c5", 'P'),
        ("f3", 'P'),
        ("g5", 'p'),
        ("e4", 'p'),
        ("d6", 'p'),
        ("h6", 'p'),
    ];
    let want = to(
        "e5",
        &[
            "e6", "e4", "d5", "f5", "g5", "d6", "f6", "g6", "h6", "d4", "d3", "d2", "d1", "f7",
            "f8", "f9", "f4",
        ],
    );
    for betza in ["RmasR", "RasR"] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &pieces), &want);
        check_rotated(betza, 9, "e5", &pieces, &want);
    }
}

#[test]
fn tengu_empty_board() {
    // Bishop with one 90-degree turn reaches every square of its colour (the perpendicular
    // diagonal through any such square meets a diagonal of e5 on the board), plus the four W
    // steps. e5 has file+rank odd (0-based file): 40 such squares besides e5; both kings stand
    // on the other colour.
    let mut want = to("e5", &["e6", "e4", "d5", "f5"]);
    for f in 0..9 {
        for r in 1..=9 {
            let s = square_name((f, r - 1));
            if (f + r) % 2 == 1 && s != "e5" {
                want.insert(format!("e5{s}"));
            }
        }
    }
    assert_eq!(want.len(), 44);
    for betza in ["WBmasB", "WBasB"] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &[]), &want);
    }
}

#[test]
fn tengu_crowded_board() {
    // Enemies f6 g3 d5 h6; friends c7 e6 b6.
    // W: e4, d5 captured, f5 (e6 friend).
    // Bishop: NE f6 captured (no turn on a capture); NW d6 (then friend c7); SE f4, g3
    // captured; SW d4 c3 b2 a1.
    // Turns: at d6 NE e7 f8 g9, SW c5 b4 a3; at f4 NE g5 h6 captured, SW e3 d2 c1; at d4 NW
    // c5 (then friend b6), SE e3 f2 g1; at c3 NW b4 a5, SE d2 e1; at b2 NW a3, SE c1; at a1
    // both perpendiculars leave the board.
    let pieces = [
        ("f6", 'p'),
        ("g3", 'p'),
        ("d5", 'p'),
        ("h6", 'p'),
        ("c7", 'P'),
        ("e6", 'P'),
        ("b6", 'P'),
    ];
    let want = to(
        "e5",
        &[
            "e4", "d5", "f5", "f6", "d6", "f4", "g3", "d4", "c3", "b2", "a1", "e7", "f8", "g9",
            "c5", "b4", "a3", "g5", "h6", "e3", "d2", "c1", "f2", "g1", "a5", "e1",
        ],
    );
    assert_eq!(want.len(), 26);
    for betza in ["WBmasB", "WBasB"] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &pieces), &want);
        check_rotated(betza, 9, "e5", &pieces, &want);
    }
}

// ---------------------------------------------------------------------------------------------
// Free Eagle: Shoko QADcaFmcabF, Hook/Gyaku-sama QADcasFcafFmcabF. caF's second F step may go
// straight on or turn 90 degrees (the default for a 4-fold atom, never straight back), which
// is casF + cafF. mcabF: out and back along a diagonal (skip or igui).
// ---------------------------------------------------------------------------------------------

#[test]
fn free_eagle_empty_board() {
    // Queen (32; the A and D leaps are queen squares too) plus the turn skip.
    let all: Vec<String> = ALL8.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    let mut want = to("e5", &all);
    want.insert("e5e5".into());
    for betza in ["QADcaFmcabF", "QADcasFcafFmcabF"] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &[]), &want);
    }
}

#[test]
fn free_eagle_crowded_board() {
    // Enemies f6 g7 d6 e7 c3 f5; friends c7 e6 f4 c5.
    // Queen: N nothing (e6 friend); NE f6; E f5; SE nothing; S e4 e3 e2 e1; SW d4 c3; W d5;
    // NW d6. A: g7 (over f6), g3 (over the friend f4), c7 friend, c3. D: e7 (over e6), g5,
    // c5 friend, e3.
    // caF via f6 (NE): straight g7 enemy, turned e7 enemy and g5 empty. Via d6 (NW): straight
    // c7 friend, turned e7 enemy and c5 friend. mcabF: igui f6 and d6, skip via d4.
    let pieces = [
        ("f6", 'p'),
        ("g7", 'p'),
        ("d6", 'p'),
        ("e7", 'p'),
        ("c3", 'p'),
        ("f5", 'p'),
        ("c7", 'P'),
        ("e6", 'P'),
        ("f4", 'P'),
        ("c5", 'P'),
    ];
    let mut want = to(
        "e5",
        &[
            "f6", "f5", "e4", "e3", "e2", "e1", "d4", "c3", "d5", "d6", "g7", "g3", "e7", "g5",
        ],
    );
    want.extend(set_of(&[
        "e5f6,f6g7",
        "e5f6,f6e7",
        "e5f6,f6g5",
        "e5d6,d6e7",
        "e5f6,f6e5",
        "e5d6,d6e5",
        "e5e5",
    ]));
    assert_eq!(want.len(), 21);
    for betza in ["QADcaFmcabF", "QADcasFcafFmcabF"] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &pieces), &want);
        check_rotated(betza, 9, "e5", &pieces, &want);
    }
}

// ---------------------------------------------------------------------------------------------
// Soaring Eagle RbBfFfAfcavFfmabF (Shoko: ...fabF) and Horned Falcon BbsRfWfDfcavWfmabW
// (Shoko: BsbR...fabW): slides elsewhere, and in the forward diagonals (straight forward) a
// Lion's two-step: step, leap to the 2nd square, kill the 1st then to the 2nd or back, skip.
// fabF = fmabF (a non-final leg defaults to m).
// ---------------------------------------------------------------------------------------------

#[test]
fn soaring_eagle_empty_board() {
    // R (16), backward B (8), forward diagonals d6 f6 c7 g7, skip.
    let mut v: Vec<String> = ORTH.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    v.extend(ray(9, "e5", (-1, -1), 8));
    v.extend(ray(9, "e5", (1, -1), 8));
    v.extend(["d6", "f6", "c7", "g7"].map(String::from));
    let mut want = to("e5", &v);
    want.insert("e5e5".into());
    assert_eq!(want.len(), 29);
    for betza in ["RbBfFfAfcavFfmabF", "RbBfFfAfcavFfabF"] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &[]), &want);
    }
    // Second player: its forward diagonals point down the board.
    let mut v: Vec<String> = ORTH.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    v.extend(ray(9, "e5", (-1, 1), 8));
    v.extend(ray(9, "e5", (1, 1), 8));
    v.extend(["d4", "f4", "c3", "g3"].map(String::from));
    let mut want = to("e5", &v);
    want.insert("e5e5".into());
    check_moves(
        "Soaring Eagle white",
        &moves("RbBfFfAfcavFfmabF", 9, 'w', "e5", &[]),
        &want,
    );
}

#[test]
fn soaring_eagle_crowded_board() {
    // Enemies f6 g7 c7 f5; friends e6 d4; d6 empty.
    // R: N nothing; S e4..e1; W d5..a5; E f5. bB: SW nothing; SE f4 g3 h2 i1.
    // fF f6 d6; fA g7 c7; fcavF kills f6 then captures g7, or igui; skip via d6.
    let pieces = [
        ("f6", 'p'),
        ("g7", 'p'),
        ("c7", 'p'),
        ("f5", 'p'),
        ("e6", 'P'),
        ("d4", 'P'),
    ];
    let mut want = to(
        "e5",
        &[
            "e4", "e3", "e2", "e1", "d5", "c5", "b5", "a5", "f5", "f4", "g3", "h2", "i1", "f6",
            "d6", "g7", "c7",
        ],
    );
    want.extend(set_of(&["e5f6,f6g7", "e5f6,f6e5", "e5e5"]));
    assert_eq!(want.len(), 20);
    for betza in ["RbBfFfAfcavFfmabF", "RbBfFfAfcavFfabF"] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &pieces), &want);
        check_rotated(betza, 9, "e5", &pieces, &want);
    }
}

#[test]
fn horned_falcon_empty_board() {
    // B (16), rook slides left, right, back (12), forward e6 e7, skip.
    let mut v: Vec<String> = DIAG.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    for d in [(-1, 0), (1, 0), (0, -1)] {
        v.extend(ray(9, "e5", d, 8));
    }
    v.extend(["e6", "e7"].map(String::from));
    let mut want = to("e5", &v);
    want.insert("e5e5".into());
    assert_eq!(want.len(), 31);
    for betza in ["BbsRfWfDfcavWfmabW", "BsbRfWfDfcavWfabW"] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &[]), &want);
    }
    // Second player: forward is e4 e3, backward slide up the board.
    let mut v: Vec<String> = DIAG.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    for d in [(-1, 0), (1, 0), (0, 1)] {
        v.extend(ray(9, "e5", d, 8));
    }
    v.extend(["e4", "e3"].map(String::from));
    let mut want = to("e5", &v);
    want.insert("e5e5".into());
    check_moves(
        "Horned Falcon white",
        &moves("BbsRfWfDfcavWfmabW", 9, 'w', "e5", &[]),
        &want,
    );
}

#[test]
fn horned_falcon_crowded_board() {
    // Enemies e6 e7 d5; friends f6 e3.
    // B: NE nothing; NW d6..a9; SE f4..i1; SW d4..a1. sbR: W d5 captured; E f5..i5; S e4.
    // fW e6; fD e7; fcavW kills e6 then captures e7, or igui; no skip (e6 occupied).
    let pieces = [
        ("e6", 'p'),
        ("e7", 'p'),
        ("d5", 'p'),
        ("f6", 'P'),
        ("e3", 'P'),
    ];
    let mut v = Vec::new();
    for d in [(-1, 1), (1, -1), (-1, -1)] {
        v.extend(ray(9, "e5", d, 8));
    }
    v.extend(ray(9, "e5", (1, 0), 8));
    v.extend(["d5", "e4", "e6", "e7"].map(String::from));
    let mut want = to("e5", &v);
    want.extend(set_of(&["e5e6,e6e7", "e5e6,e6e5"]));
    assert_eq!(want.len(), 22);
    for betza in ["BbsRfWfDfcavWfmabW", "BsbRfWfDfcavWfabW"] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &pieces), &want);
        check_rotated(betza, 9, "e5", &pieces, &want);
    }
}

// ---------------------------------------------------------------------------------------------
// Great Falcon / Great Eagle (Shoko): Queen that may jump to the 2nd (jB, jsbR / jR, jbB) or
// 3rd square (mpafmpyafK: pass two squares whatever is on them, then the y toggle turns the K
// into a Q slide) before sliding, except in the stinging directions (Falcon: straight forward,
// "shb" = all but f; Eagle: forward diagonals, "bfbhs" = all but fl fr), which have the Shoko
// Lion Dog's three-step moves restricted to that direction.
// ---------------------------------------------------------------------------------------------

const GREAT_FALCON: &str = "BjBsbRjsbRshbmpafmpyafKfWfDfHfcavWfabWfcmpafcavWfcafcmpafW";
const GREAT_EAGLE: &str = "RjRbBjbBbfbhsmpafmpyafKfFfAfGfcavFfabFfcmpafcavFfcafcmpafF";

#[test]
fn great_falcon_empty_board() {
    // Queen minus the forward ray, plus e6 e7 e8 (the sting reaches three squares, no further),
    // plus the skip.
    let mut v: Vec<String> = Vec::new();
    for d in ALL8 {
        if d != (0, 1) {
            v.extend(ray(9, "e5", d, 8));
        }
    }
    v.extend(["e6", "e7", "e8"].map(String::from));
    let mut want = to("e5", &v);
    want.insert("e5e5".into());
    assert_eq!(want.len(), 32);
    check_moves(
        "Great Falcon empty",
        &moves(GREAT_FALCON, 9, 'b', "e5", &[]),
        &want,
    );
}

#[test]
fn great_eagle_empty_board() {
    // Queen minus the forward diagonals, plus d6 c7 b8 and f6 g7 h8, plus the skip.
    let mut v: Vec<String> = Vec::new();
    for d in ALL8 {
        if d != (1, 1) && d != (-1, 1) {
            v.extend(ray(9, "e5", d, 8));
        }
    }
    v.extend(["d6", "c7", "b8", "f6", "g7", "h8"].map(String::from));
    let mut want = to("e5", &v);
    want.insert("e5e5".into());
    assert_eq!(want.len(), 31);
    check_moves(
        "Great Eagle empty",
        &moves(GREAT_EAGLE, 9, 'b', "e5", &[]),
        &want,
    );
}

/// 13x13 position around g7 shared by the Great Falcon and Great Eagle crowded tests
/// (X enemy, F friend, . empty; distance 1, 2, 3, ...):
///   N  g8 X, g9 X, g10 ., g11 ., g12 ., g13 .
///   NE h8 F, i9 ., j10 X, ...
///   E  h7 X, i7 F, j7 ., k7 X, l7 ., m7 .
///   SE h6 ., i5 X, j4 ., k3 ., l2 ., m1 .
///   S  g6 F, g5 F, g4 F, g3 ., ...
///   SW f6 X, e5 X, d4 ., c3 ., b2 F, a1 .
///   W  f7 ., e7 ., d7 F, c7 X, ...
///   NW f8 X, e9 ., d10 X, c11 ., ...
const GREAT_BIRD_PIECES: [(&str, char); 18] = [
    ("g8", 'p'),
    ("g9", 'p'),
    ("h8", 'P'),
    ("j10", 'p'),
    ("h7", 'p'),
    ("i7", 'P'),
    ("k7", 'p'),
    ("i5", 'p'),
    ("g6", 'P'),
    ("g5", 'P'),
    ("g4", 'P'),
    ("f6", 'p'),
    ("e5", 'p'),
    ("b2", 'P'),
    ("d7", 'P'),
    ("c7", 'p'),
    ("f8", 'p'),
    ("d10", 'p'),
];

/// Sliding directions shared by both birds in [`GREAT_BIRD_PIECES`]: each ray gives the union
/// of a plain slide (first piece, from distance 1), a slide after skipping distance 1, and a
/// slide after passing distances 1 and 2 (first piece from distance 3 on).
///   E: plain h7; skip-1 blocked by the friend i7; from 3: j7, k7 captured.
///   SE: plain h6 i5; skip-1 i5; from 3: j4 k3 l2 m1.
///   S: friends at 1, 2 and 3: nothing.
///   SW: plain f6; skip-1 e5; from 3: d4 c3 (b2 friend).
///   W: plain f7 e7; skip-1 e7; from 3: the friend d7 blocks.
const GREAT_BIRD_COMMON: [&str; 15] = [
    "h7", "j7", "k7", "h6", "i5", "j4", "k3", "l2", "m1", "f6", "e5", "d4", "c3", "f7", "e7",
];

#[test]
fn great_falcon_crowded_board() {
    let got = moves(GREAT_FALCON, 13, 'b', "g7", &GREAT_BIRD_PIECES);
    let mut want = to("g7", &GREAT_BIRD_COMMON);
    // NE slides: plain blocked by the friend h8; skip-1 i9, j10 captured; from 3 j10.
    // NW slides: plain f8 captured; skip-1 e9, d10 captured; from 3 d10.
    want.extend(to("g7", &["i9", "j10", "f8", "e9", "d10"]));
    // N, the sting (the Lion Dog ray with two enemies then an empty square): leaps g8 g9 g10;
    // kill g8 then g9, or igui; kill g9 then g10 with or without g8, or back to g8; kill g8,
    // over g9, to g10. No slide beyond g10.
    want.extend(set_of(&[
        "g7g8",
        "g7g9",
        "g7g10",
        "g7g8,g8g9",
        "g7g8,g8g7",
        "g7g9,g9g10",
        "g7g8,g8g9,g9g10",
        "g7g9,g9g8",
        "g7g8,g8g10",
    ]));
    assert_eq!(want.len(), 29);
    check_moves("Great Falcon crowded", &got, &want);
    check_rotated(GREAT_FALCON, 13, "g7", &GREAT_BIRD_PIECES, &want);
}

#[test]
fn great_eagle_crowded_board() {
    let got = moves(GREAT_EAGLE, 13, 'b', "g7", &GREAT_BIRD_PIECES);
    let mut want = to("g7", &GREAT_BIRD_COMMON);
    // N slides: plain g8; skip-1 g9; from 3: g10 g11 g12 g13.
    want.extend(to("g7", &["g8", "g9", "g10", "g11", "g12", "g13"]));
    // NE sting: h8 friend, i9 empty, j10 enemy: only the leaps fA i9 and fG j10 (no kill on
    // h8, no skip from it, nothing to kill on i9).
    want.extend(to("g7", &["i9", "j10"]));
    // NW sting: f8 enemy, e9 empty, d10 enemy: leaps f8 e9 d10; kill f8 then e9, or igui;
    // kill f8, cross e9, capture d10.
    want.extend(set_of(&[
        "g7f8",
        "g7e9",
        "g7d10",
        "g7f8,f8e9",
        "g7f8,f8g7",
        "g7f8,f8d10",
    ]));
    assert_eq!(want.len(), 29);
    check_moves("Great Eagle crowded", &got, &want);
    check_rotated(GREAT_EAGLE, 13, "g7", &GREAT_BIRD_PIECES, &want);
}

// ---------------------------------------------------------------------------------------------
// Nets (Hook): BWaKmabK (Earthward) and RFaKmabK (Skyward): slider + one-step atom + a 2-step
// area move (aK: first step to an empty square, second step anywhere but straight back) + the
// turn skip; no igui (prose).
// ---------------------------------------------------------------------------------------------

#[test]
fn nets_empty_board() {
    // The 5x5 area (24) plus the slider's squares beyond it (8), plus the skip.
    let mut want = to("e5", &area(9, "e5", 2));
    want.extend(to("e5", &["h8", "i9", "b8", "a9", "b2", "a1", "h2", "i1"]));
    want.insert("e5e5".into());
    assert_eq!(want.len(), 33);
    check_moves(
        "BWaKmabK empty",
        &moves("BWaKmabK", 9, 'b', "e5", &[]),
        &want,
    );
    let mut want = to("e5", &area(9, "e5", 2));
    want.extend(to("e5", &["e8", "e9", "e2", "e1", "b5", "a5", "h5", "i5"]));
    want.insert("e5e5".into());
    check_moves(
        "RFaKmabK empty",
        &moves("RFaKmabK", 9, 'b', "e5", &[]),
        &want,
    );
}

#[test]
fn nets_crowded_board() {
    // Enemies e6 d4; friends f6 d5 e4; empty neighbours d6 f5 f4.
    // aK via d6 (came NW): d7 e7 e6 c5 c6 c7 (d5 friend, e5 straight back); via f5 (came E):
    // g6 g5 g4 f4 e6 (f6, e4 friends); via f4 (came SE): f5 g5 g4 g3 f3 e3 (e4 friend).
    // No hit and run through the enemies e6, d4, and no igui on them.
    let pieces = [
        ("e6", 'p'),
        ("d4", 'p'),
        ("f6", 'P'),
        ("d5", 'P'),
        ("e4", 'P'),
    ];
    let area_moves = [
        "d7", "e7", "e6", "c5", "c6", "c7", "g6", "g5", "g4", "f4", "f5", "g3", "f3", "e3",
    ];
    // Earthward: W e6 f5; B NW d6 c7 b8 a9, SE f4 g3 h2 i1, SW d4, NE blocked.
    let mut want = to("e5", &area_moves);
    want.extend(to(
        "e5",
        &[
            "e6", "f5", "d6", "c7", "b8", "a9", "f4", "g3", "h2", "i1", "d4",
        ],
    ));
    want.insert("e5e5".into());
    assert_eq!(want.len(), 21);
    check_moves(
        "BWaKmabK crowded",
        &moves("BWaKmabK", 9, 'b', "e5", &pieces),
        &want,
    );
    // Skyward: F d6 f4 d4; R N e6, E f5 g5 h5 i5, S and W blocked.
    let mut want = to("e5", &area_moves);
    want.extend(to("e5", &["d6", "f4", "d4", "e6", "f5", "g5", "h5", "i5"]));
    want.insert("e5e5".into());
    assert_eq!(want.len(), 19);
    check_moves(
        "RFaKmabK crowded",
        &moves("RFaKmabK", 9, 'b', "e5", &pieces),
        &want,
    );
}

// ---------------------------------------------------------------------------------------------
// Kirin Master / Phoenix Master (Hook): slides elsewhere and the Hook Lion Dog's three-step
// moves (cafW mcabW cafmpafW mpafcavW cafcafW with W/D/H leaps) straight forward (Kirin) or in
// the forward diagonals (Phoenix, F/A/G).
// ---------------------------------------------------------------------------------------------

const KIRIN_MASTER: &str = "BbsRfWfDfHfcafWfmcabWfcafmpafWfmpafcavWfcafcafW";
const PHOENIX_MASTER: &str = "RbBfFfAfGfcafFfmcabFfcafmpafFfmpafcavFfcafcafF";

#[test]
fn kirin_master() {
    // Empty: B (16), rook left/right/back (12), e6 e7 e8, skip.
    let mut v: Vec<String> = DIAG.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    for d in [(-1, 0), (1, 0), (0, -1)] {
        v.extend(ray(9, "e5", d, 8));
    }
    v.extend(["e6", "e7", "e8"].map(String::from));
    let mut want = to("e5", &v);
    want.insert("e5e5".into());
    assert_eq!(want.len(), 32);
    check_moves(
        "Kirin Master empty",
        &moves(KIRIN_MASTER, 9, 'b', "e5", &[]),
        &want,
    );
    // Crowded: forward e6 enemy, e7 friend, e8 enemy: leaps e6 e8 (not the friend); igui on
    // e6; kill e6, pass the friend, capture e8. (Kill e6 then e7 is a friend; nothing to kill
    // on e7.) Also friend d6 (NW blocked), enemy f4 (SE capture), enemy d5 (W capture),
    // friend e3 (back: e4 only).
    let pieces = [
        ("e6", 'p'),
        ("e7", 'P'),
        ("e8", 'p'),
        ("d6", 'P'),
        ("f4", 'p'),
        ("d5", 'p'),
        ("e3", 'P'),
    ];
    let mut v = ray(9, "e5", (1, 1), 8);
    v.extend(ray(9, "e5", (-1, -1), 8));
    v.extend(ray(9, "e5", (1, 0), 8));
    v.extend(["f4", "d5", "e4", "e6", "e8"].map(String::from));
    let mut want = to("e5", &v);
    want.extend(set_of(&["e5e6,e6e5", "e5e6,e6e8"]));
    assert_eq!(want.len(), 19);
    check_moves(
        "Kirin Master crowded",
        &moves(KIRIN_MASTER, 9, 'b', "e5", &pieces),
        &want,
    );
    check_rotated(KIRIN_MASTER, 9, "e5", &pieces, &want);
}

#[test]
fn phoenix_master() {
    // Empty: R (16), backward B (8), forward diagonals to distance 3, skip.
    let mut v: Vec<String> = ORTH.iter().flat_map(|&d| ray(9, "e5", d, 8)).collect();
    v.extend(ray(9, "e5", (-1, -1), 8));
    v.extend(ray(9, "e5", (1, -1), 8));
    v.extend(["d6", "c7", "b8", "f6", "g7", "h8"].map(String::from));
    let mut want = to("e5", &v);
    want.insert("e5e5".into());
    assert_eq!(want.len(), 31);
    check_moves(
        "Phoenix Master empty",
        &moves(PHOENIX_MASTER, 9, 'b', "e5", &[]),
        &want,
    );
    // Crowded: NE f6 enemy, g7 enemy, h8 empty (the Lion Dog's two-enemy ray, 9 moves); NW d6
    // empty, c7 enemy, b8 friend: leaps d6 c7, skip, pass d6 kill c7 back to d6. R: N e6..e9,
    // W d5..a5, E f5 captured, S blocked by the friend e4. bB: SE f4..i1, SW d4 captured.
    let pieces = [
        ("f6", 'p'),
        ("g7", 'p'),
        ("c7", 'p'),
        ("b8", 'P'),
        ("e4", 'P'),
        ("f5", 'p'),
        ("d4", 'p'),
    ];
    let mut v = ray(9, "e5", (0, 1), 8);
    v.extend(ray(9, "e5", (-1, 0), 8));
    v.extend(ray(9, "e5", (1, -1), 8));
    v.extend(["f5", "d4", "d6", "c7"].map(String::from));
    let mut want = to("e5", &v);
    want.extend(set_of(&[
        "e5f6",
        "e5g7",
        "e5h8",
        "e5f6,f6g7",
        "e5f6,f6e5",
        "e5g7,g7h8",
        "e5f6,f6g7,g7h8",
        "e5g7,g7f6",
        "e5f6,f6h8",
        "e5c7,c7d6",
        "e5e5",
    ]));
    assert_eq!(want.len(), 27);
    check_moves(
        "Phoenix Master crowded",
        &moves(PHOENIX_MASTER, 9, 'b', "e5", &pieces),
        &want,
    );
    check_rotated(PHOENIX_MASTER, 9, "e5", &pieces, &want);
}

// ---------------------------------------------------------------------------------------------
// Universal leaper U (Hook Emperor): any square of the board, empty or enemy. (The Emperor's
// "cannot capture a protected royal" is a separate rule, not part of the XBetza.)
// ---------------------------------------------------------------------------------------------

#[test]
fn universal_leaper_u() {
    // Every square but e5, the own king b1 and the friend e6; the enemy on a9 and the enemy
    // king on b9 are captures.
    let got = moves("U", 9, 'b', "e5", &[("e6", 'P'), ("a9", 'p')]);
    let mut want = BTreeSet::new();
    for f in 0..9 {
        for r in 1..=9 {
            let s = square_name((f, r - 1));
            if !["e5", "b1", "e6"].contains(&s.as_str()) {
                want.insert(format!("e5{s}"));
            }
        }
    }
    assert_eq!(want.len(), 78);
    check_moves("U", &got, &want);
}

// ---------------------------------------------------------------------------------------------
// Board edges and notation details.
// ---------------------------------------------------------------------------------------------

#[test]
fn multi_leg_moves_at_the_board_edge() {
    // Lion on i5 (right edge), enemy on i6. Leaps: the 5x5 area clipped to files g..i (14).
    // caK via i6 (came north, so not back south): i7, h7, h6, h5; the three eastward steps
    // leave the board. Igui on i6; turn skip.
    let got = moves("KNADcaKmcabK", 9, 'b', "i5", &[("i6", 'p')]);
    let mut want = to("i5", &area(9, "i5", 2));
    assert_eq!(want.len(), 14);
    want.extend(set_of(&[
        "i5i6,i6i7",
        "i5i6,i6h7",
        "i5i6,i6h6",
        "i5i6,i6h5",
        "i5i6,i6i5",
        "i5i5",
    ]));
    check_moves("Lion at the edge", &got, &want);
    // Lion Dog on h2, enemies on i3 (NE, then off the board) and h1 (S, then off the board):
    // leaps and igui only on those rays; elsewhere the rays are clipped: N h3 h4 h5, E i2,
    // SE i1, SW g1, W g2 f2 e2, NW g3 f4 e5; and the skip.
    let want = {
        let mut w = to(
            "h2",
            &[
                "h3", "h4", "h5", "i3", "i2", "i1", "h1", "g1", "g2", "f2", "e2", "g3", "f4", "e5",
            ],
        );
        w.extend(set_of(&["h2i3,i3h2", "h2h1,h1h2", "h2h2"]));
        w
    };
    assert_eq!(want.len(), 17);
    for betza in [LION_DOG_SHOKO, LION_DOG_HOOK] {
        let got = moves(betza, 9, 'b', "h2", &[("i3", 'p'), ("h1", 'p')]);
        check_moves(betza, &got, &want);
    }
}

#[test]
fn modality_letters_are_an_unordered_set() {
    // Shoko writes `cmp` where XBoard wants `mcp`; both orders (and `pmc`) mean the same leg,
    // and `j` before or after the direction letters means the same slider (Heavenly Tetrarch's
    // jsR3). Compared on the crowded positions of the tests above.
    let pieces = LION_DOG_LAYOUT;
    let reference = moves(LION_DOG_SHOKO, 9, 'b', "e5", &pieces);
    for betza in [
        "KADGHcavKabKmcpafcavKcafmcpafK",
        "KADGHcavKabKpmcafcavKcafpmcafK",
    ] {
        check_moves(betza, &moves(betza, 9, 'b', "e5", &pieces), &reference);
    }
    let pieces = [("d5", 'P'), ("c5", 'p'), ("g5", 'P')];
    check_moves(
        "sjR3",
        &moves("sjR3", 9, 'b', "e5", &pieces),
        &moves("jsR3", 9, 'b', "e5", &pieces),
    );
    // And the set itself, by hand: left skips the friend d5 and captures c5; right skips f5
    // and meets the friend g5.
    check_moves(
        "jsR3",
        &moves("jsR3", 9, 'b', "e5", &pieces),
        &to("e5", &["c5"]),
    );
}
