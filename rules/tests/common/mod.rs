//! Helpers shared by the integration tests of `koma-rules`: each was written out in several
//! test files before, and lives here once. A test file uses it with `mod common;`.
//!
//! - loading a built-in variant, naming and finding squares;
//! - building a position text piece by piece ([`Grid`]) and filling random positions;
//! - the legal moves of a position, or of one square, as move texts, and comparing move sets;
//! - small wrappers around playing moves and reading the board;
//! - the Lion's and Lion Dog's crowded-board layouts and their worked-out move sets, which
//!   `xbetza_constructs.rs` decodes on a 9x9 board and `piece_moves.rs` runs on the real boards;
//! - the perft expectations of `tests/data/perft.txt` (format at the top of that file).

#![allow(dead_code)]

use koma_rules::{load_variant, Color, Move, Outcome, Position, Square, Variant};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::BTreeSet;
use std::sync::Arc;

// ---------------------------------------------------------------------------------------------
// Variants and squares
// ---------------------------------------------------------------------------------------------

/// The built-in variants whose pieces all move by XBetza alone (Ko Shogi's move by its rule
/// module as well), for the tests that check the rules core against attack tables.
pub const XBETZA_VARIANTS: [&str; 4] = [
    "hand-shogi",
    "shoko-shogi",
    "gyaku-sama-shogi",
    "hook-shogi",
];

/// A built-in variant (`configs/variants/<id>.toml`); every test file loads some.
pub fn variant(id: &str) -> Arc<Variant> {
    load_variant(id).unwrap_or_else(|e| panic!("variant {id}: {e}"))
}

/// A square of a test board as 0-based (file, rank): `a1` is (0, 0).
pub type Coords = (i32, i32);

/// The coordinates of a square name (`e5` is (4, 4)), for the tests that do board geometry
/// by hand, independently of the rules core's `Geometry`.
pub fn coords(name: &str) -> Coords {
    let file = (name.as_bytes()[0] - b'a') as i32;
    let rank: i32 = name[1..]
        .parse()
        .unwrap_or_else(|_| panic!("square {name}"));
    (file, rank - 1)
}

/// The name of the square at `(file, rank)`, 0-based: the inverse of [`coords`].
pub fn square_name((file, rank): Coords) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// The square named `name` in the position's geometry.
pub fn square(pos: &Position, name: &str) -> Square {
    pos.variant()
        .geometry
        .parse(name)
        .unwrap_or_else(|| panic!("square {name}"))
}

/// Each square of a move text (`e5e6`, `e5f6,f6g7`: every leg is two square names) mapped by
/// `f`: turning or shifting an expected move set to another board position.
pub fn map_squares(text: &str, f: impl Fn(Coords) -> Coords) -> String {
    text.split(',')
        .map(|leg| {
            // A leg is two square names: split before the second letter.
            let cut = leg[1..]
                .find(|c: char| c.is_ascii_alphabetic())
                .unwrap_or_else(|| panic!("leg {leg}"))
                + 1;
            format!(
                "{}{}",
                square_name(f(coords(&leg[..cut]))),
                square_name(f(coords(&leg[cut..])))
            )
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The square `(dx, dy)` away from `from` on a `size` x `size` board, if on the board.
pub fn step(size: i32, from: &str, dx: i32, dy: i32) -> Option<String> {
    let (f, r) = coords(from);
    let (f, r) = (f + dx, r + dy);
    ((0..size).contains(&f) && (0..size).contains(&r)).then(|| square_name((f, r)))
}

/// Up to `n` squares from `from` (excluded) along `(dx, dy)`, stopping at the board's edge.
pub fn ray(size: i32, from: &str, (dx, dy): (i32, i32), n: i32) -> Vec<String> {
    (1..=n)
        .map_while(|k| step(size, from, dx * k, dy * k))
        .collect()
}

/// Every square of the board within `r` king steps of `from` (Chebyshev distance), `from`
/// excluded.
pub fn area(size: i32, from: &str, r: i32) -> Vec<String> {
    let mut out = Vec::new();
    for dx in -r..=r {
        for dy in -r..=r {
            if (dx, dy) != (0, 0) {
                out.extend(step(size, from, dx, dy));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Position texts
// ---------------------------------------------------------------------------------------------

/// The token of piece `id` in a position text: lowercase for the second player ("White"),
/// in parentheses when longer than one letter, a promoted piece's `+` in front.
pub fn token(id: &str, white: bool) -> String {
    let (plus, body) = match id.strip_prefix('+') {
        Some(b) => ("+", b),
        None => ("", id),
    };
    let body = if white {
        body.to_ascii_lowercase()
    } else {
        body.to_string()
    };
    if body.len() == 1 {
        format!("{plus}{body}")
    } else {
        format!("{plus}({body})")
    }
}

/// A board filled piece by piece and written as a position text: the tests set up positions
/// from piece lists (hand-made examples, random positions), and the board field (ranks from the
/// top, runs of empty squares as numbers) is written the same way for all of them.
pub struct Grid {
    files: usize,
    ranks: usize,
    /// Tokens by `rank * files + file`, rank 0 being rank 1 (the first player's side).
    cells: Vec<Option<String>>,
}

impl Grid {
    /// An empty `files` x `ranks` board.
    pub fn new(files: usize, ranks: usize) -> Grid {
        Grid {
            files,
            ranks,
            cells: vec![None; files * ranks],
        }
    }

    /// An empty board of the variant's size.
    pub fn for_variant(v: &Variant) -> Grid {
        Grid::new(v.geometry.files() as usize, v.geometry.ranks() as usize)
    }

    /// Puts `token` (see [`token`]) on the square named `name`; a square may be filled once.
    #[track_caller]
    pub fn put(&mut self, name: &str, token: impl Into<String>) {
        self.put_at(coords(name), token);
    }

    /// Puts `token` on `(file, rank)`, 0-based; a square may be filled once.
    #[track_caller]
    pub fn put_at(&mut self, (file, rank): Coords, token: impl Into<String>) {
        let on = (0..self.files as i32).contains(&file) && (0..self.ranks as i32).contains(&rank);
        let name = square_name((file, rank));
        assert!(on, "{name} is off the board");
        let cell = &mut self.cells[rank as usize * self.files + file as usize];
        assert!(cell.is_none(), "two pieces on {name}");
        *cell = Some(token.into());
    }

    /// Puts `token` on a random empty square (there must be one).
    pub fn place_randomly(&mut self, rng: &mut impl Rng, token: impl Into<String>) {
        let token = token.into();
        loop {
            let i = rng.gen_range(0..self.cells.len());
            if self.cells[i].is_none() {
                self.cells[i] = Some(token);
                return;
            }
        }
    }

    /// The board field of the position text.
    pub fn board(&self) -> String {
        let mut rows = Vec::new();
        for rank in self.cells.chunks(self.files).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for cell in rank {
                match cell {
                    None => empty += 1,
                    Some(t) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push_str(t);
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        rows.join("/")
    }

    /// The position text: the board, `side` to move (`b` or `w`), then `rest` (the hand field
    /// and whatever follows, as `Position::from_text` reads them).
    pub fn text(&self, side: char, rest: &str) -> String {
        format!("{} {side} {rest}", self.board())
    }

    /// The position of [`Grid::text`] in `v`; panics with the text if it does not parse.
    #[track_caller]
    pub fn position(&self, v: &Arc<Variant>, side: char, rest: &str) -> Position {
        let text = self.text(side, rest);
        Position::from_text(v, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }
}

/// Adds `n` pieces of random kinds and colours on random empty squares of `grid`: with
/// probability `p` one of `favourites` (pieces with rules of their own, so that the random
/// positions put those rules to work), else any kind the variant defines.
pub fn place_random_pieces(
    grid: &mut Grid,
    v: &Variant,
    rng: &mut impl Rng,
    n: usize,
    favourites: &[&str],
    p: f64,
) {
    for _ in 0..n {
        let id = if rng.gen_bool(p) {
            favourites.choose(rng).unwrap().to_string()
        } else {
            v.pieces.choose(rng).unwrap().id.clone()
        };
        let t = token(&id, rng.gen_bool(0.5));
        grid.place_randomly(rng, t);
    }
}

/// A random side to move, as the position text writes it.
pub fn random_side(rng: &mut impl Rng) -> char {
    if rng.gen_bool(0.5) {
        'b'
    } else {
        'w'
    }
}

/// Plays up to `plies` random legal moves (fewer if the side to move has none).
pub fn play_random_moves(pos: &mut Position, rng: &mut impl Rng, plies: usize) {
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos.make_move(moves[rng.gen_range(0..moves.len())]);
    }
}

// ---------------------------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------------------------

/// The texts of all legal moves.
pub fn move_texts(pos: &mut Position) -> BTreeSet<String> {
    pos.legal_moves().iter().map(|m| pos.move_text(m)).collect()
}

/// The texts of the legal board moves starting on `from` (drops left out), in the order the
/// generator lists them.
pub fn move_list_from(pos: &mut Position, from: &str) -> Vec<String> {
    let origin = square(pos, from);
    pos.legal_moves()
        .iter()
        .filter(|m| !m.is_drop() && m.from() == origin)
        .map(|m| pos.move_text(m))
        .collect()
}

/// The texts of the legal board moves starting on `from`.
pub fn moves_from(pos: &mut Position, from: &str) -> BTreeSet<String> {
    move_list_from(pos, from).into_iter().collect()
}

/// The moves of `list` as a set, checking that none is listed twice (`what` names the list).
#[track_caller]
pub fn distinct(what: &str, list: Vec<String>) -> BTreeSet<String> {
    let set: BTreeSet<String> = list.iter().cloned().collect();
    assert_eq!(
        set.len(),
        list.len(),
        "{what}: a move is generated twice: {list:?}"
    );
    set
}

/// Literal move texts (or square names) as a set.
pub fn set_of(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Plain moves (no kill) from `from` to each of `dests`.
pub fn to<S: AsRef<str>>(from: &str, dests: &[S]) -> BTreeSet<String> {
    dests
        .iter()
        .map(|d| format!("{from}{}", d.as_ref()))
        .collect()
}

/// Asserts two move sets are equal, naming what is missing and what is extra.
#[track_caller]
pub fn check_moves(what: &str, got: &BTreeSet<String>, want: &BTreeSet<String>) {
    let missing: Vec<_> = want.difference(got).collect();
    let extra: Vec<_> = got.difference(want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{what}: {} moves, expected {}\n  missing: {missing:?}\n  extra:   {extra:?}",
        got.len(),
        want.len()
    );
}

/// Compares the legal moves of the rules core in `pos` with those of an independent reference
/// generator, and the position each move leads to; returns the core's moves. `read` turns a
/// position text into the reference's own position, `successors` lists the reference's moves
/// (as move texts) with the positions they reach. Every move is also checked to keep the
/// incremental hash right and to unmake back to the same text. `what` names the variant in
/// failure messages.
#[track_caller]
pub fn compare_with_reference<R: PartialEq + std::fmt::Debug>(
    what: &str,
    pos: &mut Position,
    read: impl Fn(&str) -> R,
    successors: impl Fn(&R) -> Vec<(String, R)>,
) -> Vec<String> {
    let text = pos.to_text();
    let ours = move_texts(pos);
    let theirs_after = successors(&read(&text));
    let theirs: BTreeSet<String> = theirs_after.iter().map(|(t, _)| t.clone()).collect();
    check_moves(&format!("{what} at {text}"), &ours, &theirs);
    for (t, after) in &theirs_after {
        let m = pos.parse_move(t).unwrap();
        pos.make_move(m);
        let ours = read(&pos.to_text());
        assert_eq!(
            pos.compute_hash(),
            pos.hash(),
            "{what}: hash after {t} at {text}"
        );
        pos.unmake_move();
        assert_eq!(&ours, after, "{what} at {text}, after {t}");
    }
    assert_eq!(pos.to_text(), text, "{what}: make and unmake at {text}");
    ours.into_iter().collect()
}

/// Squares a move removes by kill (displacement or shot), its destination included when it
/// captures there, in board order (file, then rank).
pub fn removed(pos: &Position, m: &Move) -> Vec<Square> {
    let g = &pos.variant().geometry;
    let mut r: Vec<_> = m.kills().to_vec();
    if m.to() != m.from() && pos.piece_at(m.to()).is_piece() {
        r.push(m.to());
    }
    r.sort_by_key(|&s| (g.file_of(s), g.rank_of(s)));
    r
}

// ---------------------------------------------------------------------------------------------
// Playing and looking
// ---------------------------------------------------------------------------------------------

/// Plays the moves of `texts` (separated by spaces), which must be legal.
#[track_caller]
pub fn play(pos: &mut Position, texts: &str) {
    if let Err(e) = pos.play_texts(texts) {
        panic!("{texts}: {e} in {}", pos.to_text());
    }
}

/// Plays `cycle` `times` times (the game must not end before), then returns the outcome.
#[track_caller]
pub fn play_cycle(pos: &mut Position, cycle: &[&str], times: usize) -> Option<Outcome> {
    for _ in 0..times {
        for t in cycle {
            assert!(pos.outcome().is_none(), "game ended early before {t}");
            play(pos, t);
        }
    }
    pos.outcome()
}

/// The ID of the piece on the square named `name` (uppercase form) with its owner.
pub fn piece_on(pos: &Position, name: &str) -> Option<(String, Color)> {
    let p = pos.piece_at(square(pos, name));
    p.is_piece()
        .then(|| (pos.variant().piece(p.kind()).id.clone(), p.color()))
}

/// Attack counts for `by` at every board square (indexed as `Geometry::board_index`).
pub fn attack_counts(pos: &Position, by: Color) -> Vec<u8> {
    let mut counts = vec![0; pos.variant().geometry.num_squares()];
    pos.add_attack_counts(by, &mut counts);
    counts
}

// ---------------------------------------------------------------------------------------------
// The Lion and the Lion Dog on crowded boards
//
// Worked out by hand on a 9x9 board around e5 (first player, kings out of the way);
// `xbetza_constructs.rs` decodes the pieces' XBetza there, and `piece_moves.rs` moves layout
// and moves to the centre of each real board for the pieces (and promotions) that move as
// Lions or Lion Dogs.
// ---------------------------------------------------------------------------------------------

/// The Lion layout: enemies e6 f6 f4 (adjacent) and g7 (distance 2); friends d5 (adjacent),
/// c3 and e7 (distance 2).
pub const LION_LAYOUT: [(&str, char); 7] = [
    ("e6", 'p'),
    ("f6", 'p'),
    ("f4", 'p'),
    ("g7", 'p'),
    ("d5", 'P'),
    ("c3", 'P'),
    ("e7", 'P'),
];

/// The Lion's (KNADcaKmcabK) 43 moves from e5 in [`LION_LAYOUT`].
pub fn lion_moves() -> BTreeSet<String> {
    // Leaps: the 5x5 area minus the three friends (21 moves, the enemies are captures).
    let mut want: BTreeSet<String> = to(
        "e5",
        &area(9, "e5", 2)
            .into_iter()
            .filter(|s| !["d5", "c3", "e7"].contains(&s.as_str()))
            .collect::<Vec<_>>(),
    );
    assert_eq!(want.len(), 21);
    want.extend(set_of(&[
        // caK via e6 (came north, so not back south to e5): e7 friend, f7, f6 enemy (double
        // capture), f5, d5 friend, d6, d7.
        "e5e6,e6f7",
        "e5e6,e6f6",
        "e5e6,e6f5",
        "e5e6,e6d6",
        "e5e6,e6d7",
        // caK via f6 (came north-east, not back south-west): f7, g7 enemy, g6, g5, f5, e6
        // enemy, e7 friend.
        "e5f6,f6f7",
        "e5f6,f6g7",
        "e5f6,f6g6",
        "e5f6,f6g5",
        "e5f6,f6f5",
        "e5f6,f6e6",
        // caK via f4 (came south-east): f5 g5 g4 g3 f3 e3 e4, all empty.
        "e5f4,f4f5",
        "e5f4,f4g5",
        "e5f4,f4g4",
        "e5f4,f4g3",
        "e5f4,f4f3",
        "e5f4,f4e3",
        "e5f4,f4e4",
        // mcabK: igui on the three adjacent enemies, and a turn skip (d6 d4 e4 f5 are empty).
        "e5e6,e6e5",
        "e5f6,f6e5",
        "e5f4,f4e5",
        "e5e5",
    ]));
    assert_eq!(want.len(), 43);
    want
}

/// The Lion Dog layout. Rays from e5 (s1 s2 s3; X enemy, F friend, . empty):
///   N  e6 X, e7 X, e8 .     NE f6 F, g7 X, h8 .     E  f5 X, g5 ., h5 X
///   SE f4 ., g3 X, h2 F     S  e4 X, e3 F, e2 X     SW d4 F, c3 F, b2 X
///   W  d5 ., c5 ., b5 .     NW d6 X, c7 ., b8 F
pub const LION_DOG_LAYOUT: [(&str, char); 16] = [
    ("e6", 'p'),
    ("e7", 'p'),
    ("f6", 'P'),
    ("g7", 'p'),
    ("f5", 'p'),
    ("h5", 'p'),
    ("g3", 'p'),
    ("h2", 'P'),
    ("e4", 'p'),
    ("e3", 'P'),
    ("e2", 'p'),
    ("d4", 'P'),
    ("c3", 'P'),
    ("b2", 'p'),
    ("d6", 'p'),
    ("b8", 'P'),
];

/// The Lion Dog's 34 moves from e5 in [`LION_DOG_LAYOUT`], by ray; (a) to (e) are the kinds of
/// Lion Dog move listed in `xbetza_constructs.rs` (before `lion_dog_empty_board`).
pub const LION_DOG_MOVES: [&str; 34] = [
    // N: (a) e6 e7 e8; (b) kill e6 then e7, or igui; (d) kill e7 then e8 with or without
    // e6, or back to e6; (e) kill e6, over e7, to e8.
    "e5e6",
    "e5e7",
    "e5e8",
    "e5e6,e6e7",
    "e5e6,e6e5",
    "e5e7,e7e8",
    "e5e6,e6e7,e7e8",
    "e5e7,e7e6",
    "e5e6,e6e8",
    // NE: (a) g7 h8; (d) hop the friend, kill g7, on to h8 (not back to the friend).
    "e5g7",
    "e5h8",
    "e5g7,g7h8",
    // E: (a) f5 g5 h5; (b) kill f5 then g5, or igui; (e) kill f5, over g5, capture h5.
    "e5f5",
    "e5g5",
    "e5h5",
    "e5f5,f5g5",
    "e5f5,f5e5",
    "e5f5,f5h5",
    // SE: (a) f4 g3; (c) skip; (d) kill g3, back to f4 (h2 is a friend).
    "e5f4",
    "e5g3",
    "e5g3,g3f4",
    "e5e5",
    // S: (a) e4 e2; (b) igui (e3 is a friend); (e) kill e4, hop the friend, capture e2.
    "e5e4",
    "e5e2",
    "e5e4,e4e5",
    "e5e4,e4e2",
    // SW: (a) b2 only.
    "e5b2",
    // W: (a) d5 c5 b5 (and the skip, already listed).
    "e5d5",
    "e5c5",
    "e5b5",
    // NW: (a) d6 c7; (b) kill d6 then c7, or igui; (e) would end on the friend b8.
    "e5d6",
    "e5c7",
    "e5d6,d6c7",
    "e5d6,d6e5",
];

// ---------------------------------------------------------------------------------------------
// Perft expectations (tests/data/perft.txt)
// ---------------------------------------------------------------------------------------------

/// One `depth` line of the perft table: perft(`depth`) of `fen` (`startpos` or a position
/// text) in `variant` is `nodes`.
#[derive(Clone, Debug)]
pub struct PerftCase {
    pub variant: String,
    pub fen: String,
    pub depth: u32,
    pub nodes: u64,
    /// Line number in the data file, for messages.
    pub line: usize,
}

impl PerftCase {
    /// The position the case counts from.
    pub fn position(&self) -> Position {
        let v = variant(&self.variant);
        if self.fen == "startpos" {
            Position::start(&v)
        } else {
            Position::from_text(&v, &self.fen)
                .unwrap_or_else(|e| panic!("perft.txt line {}: {}: {e}", self.line, self.fen))
        }
    }
}

/// Every case of `tests/data/perft.txt`.
pub fn perft_cases() -> Vec<PerftCase> {
    parse_perft_table(include_str!("../data/perft.txt"))
}

/// Parses the perft table format (see the top of `tests/data/perft.txt`).
pub fn parse_perft_table(text: &str) -> Vec<PerftCase> {
    let mut cases = Vec::new();
    let mut variant: Option<String> = None;
    let mut fen: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap().trim();
        if content.is_empty() {
            continue;
        }
        let (key, rest) = content
            .split_once(char::is_whitespace)
            .unwrap_or((content, ""));
        let rest = rest.trim();
        match key {
            "variant" => {
                assert!(
                    !rest.is_empty(),
                    "perft.txt line {line}: variant without id"
                );
                variant = Some(rest.to_string());
                fen = None;
            }
            "fen" => {
                assert!(
                    variant.is_some(),
                    "perft.txt line {line}: fen before variant"
                );
                assert!(!rest.is_empty(), "perft.txt line {line}: empty fen");
                fen = Some(rest.to_string());
            }
            "depth" => {
                let number = |s: &str| s.replace('_', "").parse::<u64>().ok();
                let fields: Vec<&str> = rest.split_whitespace().collect();
                let (depth, nodes) = match fields[..] {
                    [d, n] => (number(d), number(n)),
                    _ => (None, None),
                };
                let (Some(depth), Some(nodes)) = (depth, nodes) else {
                    panic!("perft.txt line {line}: expected 'depth <d> <nodes>', got '{content}'");
                };
                let (Some(variant), Some(fen)) = (&variant, &fen) else {
                    panic!("perft.txt line {line}: depth before variant and fen");
                };
                cases.push(PerftCase {
                    variant: variant.clone(),
                    fen: fen.clone(),
                    depth: depth as u32,
                    nodes,
                    line,
                });
            }
            _ => panic!("perft.txt line {line}: unknown keyword '{key}'"),
        }
    }
    cases
}

/// The expected perft(`depth`) of `fen` (`startpos` or a position text) in `variant_id`, from
/// the perft table, for the tests that check other generators against the same numbers.
#[track_caller]
pub fn expected_perft(variant_id: &str, fen: &str, depth: u32) -> u64 {
    let found: Vec<u64> = perft_cases()
        .into_iter()
        .filter(|c| c.variant == variant_id && c.fen == fen && c.depth == depth)
        .map(|c| c.nodes)
        .collect();
    match found[..] {
        [n] => n,
        [] => panic!("no perft({depth}) of {variant_id} {fen} in tests/data/perft.txt"),
        _ => panic!("perft({depth}) of {variant_id} {fen} twice in tests/data/perft.txt"),
    }
}
