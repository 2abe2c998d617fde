//! Slow, deliberately simple, independent reference move generator for Ko Shogi, used by tests
//! to cross-check the rules core and its `ko_shogi` module.
//!
//! It shares no code and no data with the rules core: the pieces are written here from the
//! plain-words columns of `shared/rules/ko-shogi.md` (§3), not from the variant file's XBetza,
//! and every rule is a plain function following the specification's text:
//!   * the board is a 19x19 array of `Option<(side, ID)>`; pieces are known by their IDs;
//!   * a piece's moves are lists of (destination, set of removed squares), built by walking
//!     the board, and merged when equal (§4.4);
//!   * promotion choices come from playing the move on a copy of the board up to the burns;
//!   * a move is applied by following §9 step by step on a copy of the board.
//!
//! Coordinates: `x` = file from 0 (`a`), `y` = rank from 0 (rank 1). Black moves first;
//! forward is +y for Black, -y for White.

#![allow(dead_code, clippy::needless_range_loop)]

use std::collections::BTreeSet;

pub type Sq = (i32, i32);

/// A piece: (is White, ID).
pub type Pc = (bool, &'static str);

/// A move: origin, destination, removed squares (kills by displacement or shot, the
/// destination included when it is captured), promotion suffix ("", "+" or "=").
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RefMove {
    pub from: Sq,
    pub to: Sq,
    pub removed: BTreeSet<Sq>,
    pub promo: &'static str,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefPosition {
    pub board: [[Option<Pc>; 19]; 19],
    pub white_to_move: bool,
}

const IDS: [&str; 64] = [
    "G", "CL", "SO", "AC", "SW", "AI", "ST", "CS", "EN", "TP", "SM", "AG", "MT", "DR", "BN", "SN",
    "MI", "QM", "CE", "RG", "FC", "EL", "LB", "XB", "CN", "CM", "CA", "P", "PU", "SH", "SU", "CH",
    "CU", "VG", "GV", "MA", "BD", "TB", "VB", "VC", "PF", "FG", "IL", "SK", "EW", "TC", "FW", "DA",
    "TW", "WH", "CG", "LC", "XC", "GC", "WG", "CO", "HF", "PQM", "PCE", "PCA", "PPU", "PSU", "PCU",
    "PMI",
];

/// §3.2: what each starting type promotes to.
fn promotes_to(id: &str) -> Option<&'static str> {
    Some(match id {
        "CL" => "MA",
        "SO" => "BD",
        "AC" => "PQM",
        "AI" => "TB",
        "ST" => "VB",
        "CS" => "VC",
        "EN" => "PF",
        "TP" => "FG",
        "SM" => "IL",
        "AG" => "SK",
        "MT" => "GV",
        "DR" => "TC",
        "BN" => "FW",
        "SN" => "PCE",
        "MI" => "DA",
        "QM" => "TW",
        "CE" => "WH",
        "RG" => "EW",
        "FC" => "CG",
        "LB" => "LC",
        "XB" => "XC",
        "CN" => "GC",
        "CM" => "PCA",
        "CA" => "WG",
        "P" => "PPU",
        "PU" => "CO",
        "SH" => "PSU",
        "SU" => "HF",
        "CH" => "PCU",
        "CU" => "PMI",
        "VG" => "CO",
        _ => return None,
    })
}

fn static_id(id: &str) -> &'static str {
    IDS.iter().find(|&&i| i == id).copied().expect("known ID")
}

const KING: [Sq; 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];
const ORTH: [Sq; 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAG: [Sq; 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];
const KNIGHT: [Sq; 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const FAR: i32 = 18;

/// The single-leg moves of a piece as (direction, most steps), for Black: steps and jumps
/// (range 1, squares in between ignored) and slides. From the plain words of §3.2 and §3.3.
fn rays(id: &str) -> Vec<(Sq, i32)> {
    let f = (0, 1);
    let b = (0, -1);
    let l = (-1, 0);
    let r = (1, 0);
    let fl = (-1, 1);
    let fr = (1, 1);
    let bl = (-1, -1);
    let br = (1, -1);
    let one = |ds: &[Sq]| ds.iter().map(|&d| (d, 1)).collect::<Vec<_>>();
    let slide = |ds: &[Sq], n: i32| ds.iter().map(|&d| (d, n)).collect::<Vec<_>>();
    let cat = |a: Vec<(Sq, i32)>, b: Vec<(Sq, i32)>| a.into_iter().chain(b).collect::<Vec<_>>();
    let dab: Vec<Sq> = ORTH.iter().map(|&(x, y)| (2 * x, 2 * y)).collect();
    let alf: Vec<Sq> = DIAG.iter().map(|&(x, y)| (2 * x, 2 * y)).collect();
    match id {
        "G" | "MT" | "GV" => one(&KING),
        "CL" | "MA" => cat(one(&DIAG), one(&dab)),
        "SO" | "BD" => cat(one(&ORTH), one(&alf)),
        "AC" => one(&[f, fr, r, br, bl, l, fl]),
        "SW" => one(&KING),
        "AI" => one(&[f, b, l, r, fl, fr]),
        "ST" => one(&[fl, fr, bl, br, f]),
        "CS" => one(&[fl, fr, bl, br, f, b]),
        "EN" | "PF" => one(&[fl, fr, f, b]),
        "AG" => cat(slide(&[f], FAR), one(&[b])),
        "DR" | "BN" => one(&[fl, fr, bl, br, l, r]),
        "SN" => one(&[fl, fr, bl, br, l, r, b]),
        "MI" | "PMI" => slide(&KING, FAR),
        "QM" | "PQM" => cat(slide(&ORTH, FAR), one(&DIAG)),
        "CE" | "PCE" => cat(slide(&DIAG, FAR), one(&ORTH)),
        "RG" => cat(slide(&[b], FAR), one(&[f])),
        "FC" | "LB" | "XB" | "CN" | "SH" => one(&DIAG),
        "EL" => slide(&DIAG, FAR),
        "CM" | "CA" | "PCA" | "LC" | "XC" | "WG" => one(&KNIGHT),
        "P" => one(&[b, l, r]),
        "PU" | "PPU" => cat(slide(&[f, b], FAR), one(&[l, r])),
        "SU" | "PSU" => cat(slide(&[l, r], FAR), one(&DIAG)),
        "CH" | "GC" | "CG" => slide(&ORTH, 5),
        "CU" | "PCU" => slide(&ORTH, FAR),
        "VG" => slide(&[f], 5),
        "TB" => cat(slide(&[f, b], FAR), one(&KING)),
        "VB" => cat(slide(&[l, r], FAR), one(&KING)),
        "VC" => cat(slide(&DIAG, FAR), slide(&[f], FAR)),
        "SK" => cat(slide(&[l, r, fl, fr], FAR), one(&[b])),
        "EW" => cat(slide(&[l, r, bl, br], FAR), one(&[f])),
        "DA" => slide(&KING, FAR),
        "TW" => cat(slide(&ORTH, FAR), one(&DIAG)),
        "WH" => cat(slide(&DIAG, FAR), one(&ORTH)),
        "CO" => cat(slide(&DIAG, FAR), slide(&[f, b], FAR)),
        "HF" => cat(slide(&DIAG, FAR), slide(&[l, r], FAR)),
        // Moved by their own rules below.
        "TP" | "SM" | "FG" | "IL" | "TC" | "FW" => Vec::new(),
        other => panic!("no piece {other}"),
    }
}

const PRIESTS: [&str; 4] = ["TP", "SM", "FG", "IL"];
const STEP_MOVERS: [&str; 15] = [
    "AC", "AI", "ST", "CS", "EN", "MT", "DR", "BN", "SN", "FC", "LB", "XB", "CN", "P", "SH",
];

/// §5.2, §5.3: range, over pieces, shots, immune kinds.
fn shooter(id: &str) -> Option<(i32, bool, usize, &'static [&'static str])> {
    const BOWS: &[&str] = &["SH", "SU", "PSU", "CH", "CU", "PCU", "GC", "CG", "HF"];
    const GUNS: &[&str] = &["SU", "PSU", "HF"];
    Some(match id {
        "LB" | "LC" => (3, false, 1, BOWS),
        "XB" | "XC" => (5, false, 1, BOWS),
        "CN" | "GC" => (5, true, 1, GUNS),
        "FC" | "CG" => (7, false, 2, GUNS),
        _ => return None,
    })
}

fn on(s: Sq) -> bool {
    (0..19).contains(&s.0) && (0..19).contains(&s.1)
}

fn add(a: Sq, d: Sq) -> Sq {
    (a.0 + d.0, a.1 + d.1)
}

fn name(s: Sq) -> String {
    format!("{}{}", (b'a' + s.0 as u8) as char, s.1 + 1)
}

fn cheb(a: Sq, b: Sq) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

/// A board that a move is being worked out on.
type Board = [[Option<Pc>; 19]; 19];

fn at(b: &Board, s: Sq) -> Option<Pc> {
    b[s.0 as usize][s.1 as usize]
}

fn put(b: &mut Board, s: Sq, p: Option<Pc>) {
    b[s.0 as usize][s.1 as usize] = p;
}

impl RefPosition {
    /// The start position of §2.
    pub fn start() -> RefPosition {
        let rows = [
            "AG SM EN CS ST AI SW AC CL G SO AC SW AI ST CS EN TP AG",
            "RG CE . QM . MI . SN DR MT BN SN . MI . QM . CE RG",
            "EL CN XB LB EL CN XB LB EL FC EL LB XB CN EL LB XB CN EL",
            "CA . CM . CM . CM . CM . CM . CM . CM . CM . CA",
            ". PU . P . P . P . PU . P . P . P . PU .",
            "CU SU CH SH CH SH CH SH CH SU CH SH CH SH CH SH CH SU CU",
            ". . . . . . . . . VG . . . . . . . . .",
        ];
        let mut board: Board = [[None; 19]; 19];
        for (y, row) in rows.iter().enumerate() {
            let cells: Vec<&str> = row.split(' ').collect();
            assert_eq!(cells.len(), 19, "{row}");
            for (x, c) in cells.iter().enumerate() {
                if *c != "." {
                    let id = static_id(c);
                    board[x][y] = Some((false, id));
                    board[18 - x][18 - y] = Some((true, id));
                }
            }
        }
        RefPosition {
            board,
            white_to_move: false,
        }
    }

    /// Reads the board and side fields of a position text.
    pub fn from_fen(text: &str) -> RefPosition {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let mut board: Board = [[None; 19]; 19];
        for (i, row) in fields[0].split('/').enumerate() {
            let y = 18 - i as i32;
            let mut x = 0;
            let b = row.as_bytes();
            let mut j = 0;
            while j < b.len() {
                if b[j].is_ascii_digit() {
                    let mut k = j;
                    while k < b.len() && b[k].is_ascii_digit() {
                        k += 1;
                    }
                    x += row[j..k].parse::<i32>().unwrap();
                    j = k;
                } else {
                    let (letters, next) = if b[j] == b'(' {
                        let close = row[j..].find(')').unwrap() + j;
                        (&row[j + 1..close], close + 1)
                    } else {
                        (&row[j..j + 1], j + 1)
                    };
                    let white = letters.chars().all(|c| c.is_ascii_lowercase());
                    board[x as usize][y as usize] =
                        Some((white, static_id(&letters.to_ascii_uppercase())));
                    x += 1;
                    j = next;
                }
            }
            assert_eq!(x, 19, "rank {}", y + 1);
        }
        RefPosition {
            board,
            white_to_move: fields[1] == "w",
        }
    }

    /// The board and side fields of the position text.
    pub fn to_fen(&self) -> String {
        let mut rows = Vec::new();
        for y in (0..19).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..19 {
                match self.board[x][y] {
                    None => empty += 1,
                    Some((white, id)) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let body = if white {
                            id.to_ascii_lowercase()
                        } else {
                            id.to_string()
                        };
                        if body.len() == 1 {
                            row.push_str(&body);
                        } else {
                            row.push_str(&format!("({body})"));
                        }
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        format!(
            "{} {}",
            rows.join("/"),
            if self.white_to_move { "w" } else { "b" }
        )
    }

    fn has(b: &Board, white: bool, ids: &[&str]) -> bool {
        (0..19).any(|x| {
            (0..19).any(|y| matches!(b[x][y], Some((w, id)) if w == white && ids.contains(&id)))
        })
    }

    /// §10: a side survives while it has a G, a GV, or an MT and a banner (BN or FW).
    fn survives(b: &Board, white: bool) -> bool {
        Self::has(b, white, &["G"])
            || Self::has(b, white, &["GV"])
            || (Self::has(b, white, &["MT"]) && Self::has(b, white, &["BN", "FW"]))
    }

    fn priest_lives(b: &Board, white: bool) -> bool {
        Self::has(b, white, &["TP", "FG"])
    }

    /// §7: the pieces of the side `white` held by the other side's nets.
    fn immobilized(b: &Board, white: bool) -> Vec<Sq> {
        let mut out = Vec::new();
        for x in 0..19 {
            for y in 0..19 {
                let Some((w, id)) = b[x][y] else { continue };
                if w == white || !(id == "SK" || id == "EW") {
                    continue;
                }
                let fwd = if w { -1 } else { 1 };
                let v = if id == "SK" { fwd } else { -fwd };
                for d in [(-1, 0), (1, 0), (-1, v), (1, v)] {
                    let mut s = add((x as i32, y as i32), d);
                    while on(s) && at(b, s).is_none() {
                        s = add(s, d);
                    }
                    if on(s) && at(b, s).is_some_and(|p| p.0 == white) {
                        out.push(s);
                    }
                }
            }
        }
        out
    }

    /// The raw moves (destination, removed squares) of the piece on `from`, merged (§4.4).
    fn piece_moves(&self, from: Sq) -> BTreeSet<(Sq, BTreeSet<Sq>)> {
        let b = &self.board;
        let (white, id) = at(b, from).unwrap();
        let turn = |d: Sq| if white { (-d.0, -d.1) } else { d };
        let mut out: BTreeSet<(Sq, BTreeSet<Sq>)> = BTreeSet::new();
        // What a square holds during the move: the origin is empty.
        let content = |s: Sq| if s == from { None } else { at(b, s) };
        let enemy = |p: Option<Pc>| p.is_some_and(|p| p.0 != white);
        let friend = |p: Option<Pc>| p.is_some_and(|p| p.0 == white);
        let no_hf = ["CH", "CU", "PCU", "GC", "CG"].contains(&id);
        let may_take = |p: Option<Pc>| match p {
            Some((w, victim)) if w != white => !(no_hf && victim == "HF"),
            _ => false,
        };
        let set = |v: &[Sq]| v.iter().copied().collect::<BTreeSet<Sq>>();

        // Single-leg moves.
        let mut rs = rays(id);
        if id == "P" && Self::has(b, white, &["DR", "TC"]) {
            rs.push(((0, 1), 1));
        }
        let mut quiet = Vec::new(); // non-capturing destinations, for shooters
        for (d, n) in rs {
            let d = turn(d);
            let mut s = from;
            for _ in 0..n {
                s = add(s, d);
                if !on(s) {
                    break;
                }
                let q = content(s);
                if q.is_none() {
                    out.insert((s, BTreeSet::new()));
                    quiet.push(s);
                    continue;
                }
                if may_take(q) {
                    out.insert((s, set(&[s])));
                }
                break;
            }
        }

        // Double movers (§3.4.1, §3.4.3) and the KaK / FaF parts.
        let double: Option<(Vec<Sq>, bool)> = match id {
            "SW" | "DA" => Some((KING.to_vec(), false)),
            "MA" => Some((rays("MA").into_iter().map(|r| r.0).collect(), false)),
            "BD" => Some((rays("BD").into_iter().map(|r| r.0).collect(), false)),
            "TW" => Some((DIAG.to_vec(), false)),
            "WG" => Some((KNIGHT.to_vec(), false)),
            "CA" | "PCA" => Some((KNIGHT.to_vec(), true)),
            _ => None,
        };
        if let Some((atoms, cavalry)) = double {
            for &a in &atoms {
                let s1 = add(from, a);
                if !on(s1) || friend(content(s1)) {
                    continue;
                }
                let k1 = enemy(content(s1));
                out.insert((s1, if k1 { set(&[s1]) } else { BTreeSet::new() }));
                for &a2 in &atoms {
                    if cavalry {
                        let same = a2 == a;
                        let back = a2 == (-a.0, -a.1);
                        let twin = if a.0.abs() > a.1.abs() {
                            a2 == (a.0, -a.1)
                        } else {
                            a2 == (-a.0, a.1)
                        };
                        if !(same || back || twin) {
                            continue;
                        }
                    }
                    let s2 = add(s1, a2);
                    if !on(s2) || friend(content(s2)) {
                        continue;
                    }
                    let mut rem = BTreeSet::new();
                    if k1 {
                        rem.insert(s1);
                    }
                    if enemy(content(s2)) {
                        rem.insert(s2);
                    }
                    out.insert((s2, rem));
                }
            }
        }

        // War hawk: two orthogonal steps straight on.
        if id == "WH" {
            for d in ORTH {
                let s1 = add(from, d);
                let s2 = add(s1, d);
                if !on(s2) || friend(content(s1)) || friend(content(s2)) {
                    continue;
                }
                let mut rem = BTreeSet::new();
                for s in [s1, s2] {
                    if enemy(content(s)) {
                        rem.insert(s);
                    }
                }
                out.insert((s2, rem));
            }
        }

        // Flag waver: 1 to 5 steps in a line, capturing every enemy passed.
        if id == "FW" {
            for d in ORTH {
                let mut rem = BTreeSet::new();
                let mut s = from;
                for _ in 0..5 {
                    s = add(s, d);
                    if !on(s) || friend(content(s)) {
                        break;
                    }
                    if enemy(content(s)) {
                        rem.insert(s);
                    }
                    out.insert((s, rem.clone()));
                }
            }
        }

        // Thunderclap: self-avoiding orthogonal walks of 1 to 5 steps.
        if id == "TC" {
            fn walk(
                b: &Board,
                white: bool,
                path: &mut Vec<Sq>,
                rem: &mut Vec<Sq>,
                out: &mut BTreeSet<(Sq, BTreeSet<Sq>)>,
            ) {
                if path.len() > 5 {
                    return;
                }
                let cur = *path.last().unwrap();
                for d in ORTH {
                    let s = add(cur, d);
                    if !on(s) || path.contains(&s) {
                        continue;
                    }
                    let q = at(b, s);
                    if q.is_some_and(|p| p.0 == white) {
                        continue;
                    }
                    let taken = q.is_some();
                    if taken {
                        rem.push(s);
                    }
                    path.push(s);
                    out.insert((s, rem.iter().copied().collect()));
                    walk(b, white, path, rem, out);
                    path.pop();
                    if taken {
                        rem.pop();
                    }
                }
            }
            walk(b, white, &mut vec![from], &mut Vec::new(), &mut out);
        }

        // Priests (§3.4.5).
        if PRIESTS.contains(&id) {
            let jumps: Vec<Sq> = ORTH
                .iter()
                .chain(DIAG.iter())
                .map(|&(x, y)| (2 * x, 2 * y))
                .collect();
            let double = id == "FG" || id == "IL";
            // (board of the move so far, where the priest stands, removed so far)
            let mut board = *b;
            put(&mut board, from, None);
            let mut legs: Vec<(Board, Sq, BTreeSet<Sq>)> = Vec::new();
            for &j in &jumps {
                let t = add(from, j);
                if !on(t) {
                    continue;
                }
                match at(&board, t) {
                    None => {
                        out.insert((t, BTreeSet::new()));
                        legs.push((board, t, BTreeSet::new()));
                        for d in KING {
                            let a = add(t, d);
                            if on(a) && at(&board, a).is_some_and(|p| p.0 != white) {
                                out.insert((t, set(&[a])));
                                let mut nb = board;
                                put(&mut nb, a, None);
                                legs.push((nb, t, set(&[a])));
                            }
                        }
                    }
                    Some((w, victim)) if w != white && PRIESTS.contains(&victim) => {
                        out.insert((t, set(&[t])));
                        let mut nb = board;
                        put(&mut nb, t, None);
                        legs.push((nb, t, set(&[t])));
                    }
                    _ => {}
                }
            }
            if double {
                for (board, t1, rem) in legs {
                    for &j in &jumps {
                        let t = add(t1, j);
                        if !on(t) {
                            continue;
                        }
                        match at(&board, t) {
                            None => {
                                out.insert((t, rem.clone()));
                                for d in KING {
                                    let a = add(t, d);
                                    if on(a) && at(&board, a).is_some_and(|p| p.0 != white) {
                                        let mut r = rem.clone();
                                        r.insert(a);
                                        out.insert((t, r));
                                    }
                                }
                            }
                            Some((w, victim)) if w != white && PRIESTS.contains(&victim) => {
                                let mut r = rem.clone();
                                r.insert(t);
                                out.insert((t, r));
                            }
                            _ => {}
                        }
                    }
                }
            }
        }

        // Shooters (§5): from each square reached without capturing.
        if let Some((range, over, shots, immune)) = shooter(id) {
            let fog_near = |s: Sq| {
                (0..19).any(|x| {
                    (0..19).any(|y| {
                        matches!(b[x][y], Some((w, "FG")) if w != white)
                            && cheb(s, (x as i32, y as i32)) <= 5
                    })
                })
            };
            let targets = |board: &Board, s: Sq| -> Vec<Sq> {
                let mut t = Vec::new();
                for d in KING {
                    let mut c = s;
                    for _ in 0..range {
                        c = add(c, d);
                        if !on(c) {
                            break;
                        }
                        let Some((w, victim)) = at(board, c) else {
                            continue;
                        };
                        if w != white && !immune.contains(&victim) {
                            t.push(c);
                        }
                        if !over {
                            break;
                        }
                    }
                }
                t
            };
            for s in quiet {
                if fog_near(s) {
                    continue;
                }
                let mut board = *b;
                put(&mut board, from, None);
                put(&mut board, s, Some((white, id)));
                for t1 in targets(&board, s) {
                    out.insert((s, set(&[t1])));
                    if shots == 2 {
                        let mut nb = board;
                        put(&mut nb, t1, None);
                        for t2 in targets(&nb, s) {
                            out.insert((s, set(&[t1, t2])));
                        }
                    }
                }
            }
        }

        // Captures by displacement of a priest: only the priest family.
        out
    }

    /// Plays the move (destination `to`, removed squares) of the piece on `from` up to the
    /// burns (§9 steps 2 to 4); returns the board and whether the mover is still there.
    fn through_burns(&self, from: Sq, to: Sq, removed: &BTreeSet<Sq>) -> (Board, bool) {
        let mut b = self.board;
        let p = at(&b, from).unwrap();
        put(&mut b, from, None);
        for &k in removed {
            put(&mut b, k, None);
        }
        put(&mut b, to, Some(p));
        if p.1 == "PF" {
            for d in KING {
                let n = add(to, d);
                if on(n) {
                    put(&mut b, n, None);
                }
            }
        }
        let next_to_flame = KING.iter().any(|&d| {
            let n = add(to, d);
            on(n) && at(&b, n) == Some((!p.0, "PF"))
        });
        if next_to_flame {
            put(&mut b, to, None);
        }
        let alive = at(&b, to) == Some(p);
        (b, alive)
    }

    /// Every legal move of the side to move (§9), none once a side no longer survives.
    pub fn legal_moves(&self) -> Vec<RefMove> {
        let b = &self.board;
        let white = self.white_to_move;
        if !Self::survives(b, white) || !Self::survives(b, !white) {
            return Vec::new();
        }
        let frozen = Self::immobilized(b, white);
        let mut out = Vec::new();
        for x in 0..19 {
            for y in 0..19 {
                let from = (x, y);
                match at(b, from) {
                    Some((w, _)) if w == white => {}
                    _ => continue,
                }
                if frozen.contains(&from) {
                    continue;
                }
                let id = at(b, from).unwrap().1;
                for (to, removed) in self.piece_moves(from) {
                    for promo in self.promotions(from, id, to, &removed) {
                        out.push(RefMove {
                            from,
                            to,
                            removed: removed.clone(),
                            promo,
                        });
                    }
                }
            }
        }
        out
    }

    /// §8: the promotion suffixes a move comes with.
    fn promotions(&self, from: Sq, id: &str, to: Sq, removed: &BTreeSet<Sq>) -> Vec<&'static str> {
        let white = self.white_to_move;
        if promotes_to(id).is_none() {
            return vec![""];
        }
        let (after, alive) = self.through_burns(from, to, removed);
        if !alive {
            return vec![""];
        }
        if (id == "DR" || id == "BN") && !Self::priest_lives(&after, white) {
            return vec![""];
        }
        let victims: Vec<&str> = removed
            .iter()
            .map(|&s| at(&self.board, s).unwrap().1)
            .collect();
        let hit = |ids: &[&str]| victims.iter().any(|v| ids.contains(v));
        let forced = hit(&["G", "GV", "MT", "BN", "DR"])
            || (STEP_MOVERS.contains(&id) && hit(&["SW", "DA", "FW", "TC"]))
            || (id == "CM" && hit(&["FC"]));
        if forced {
            return vec!["+"];
        }
        let zone = |s: Sq| if white { s.1 <= 5 } else { s.1 >= 13 };
        if zone(from) || zone(to) {
            vec!["+", "="]
        } else {
            vec![""]
        }
    }

    /// The position after `m` (§9).
    pub fn apply(&self, m: &RefMove) -> RefPosition {
        let white = self.white_to_move;
        let p = at(&self.board, m.from).unwrap();
        let (mut b, alive) = self.through_burns(m.from, m.to, &m.removed);
        if alive && m.promo == "+" {
            let np = promotes_to(p.1).unwrap();
            put(&mut b, m.to, Some((white, np)));
            if p.1 == "CL" {
                for x in 0..19 {
                    for y in 0..19 {
                        match b[x][y] {
                            Some((w, "AG")) if w == white => b[x][y] = Some((w, "SK")),
                            Some((w, "RG")) if w == white => b[x][y] = Some((w, "EW")),
                            Some((w, "PF")) if w != white => b[x][y] = None,
                            _ => {}
                        }
                    }
                }
            }
        }
        for side in [false, true] {
            if !Self::priest_lives(&b, side) {
                for x in 0..19 {
                    for y in 0..19 {
                        match b[x][y] {
                            Some((w, "TC")) if w == side => b[x][y] = Some((w, "DR")),
                            Some((w, "FW")) if w == side => b[x][y] = Some((w, "BN")),
                            _ => {}
                        }
                    }
                }
            }
        }
        let mut lights = Vec::new();
        let mut fogs = Vec::new();
        for x in 0..19 {
            for y in 0..19 {
                match b[x][y] {
                    Some((_, "IL")) => lights.push((x as i32, y as i32)),
                    Some((w, "FG")) => fogs.push(((x as i32, y as i32), w)),
                    _ => {}
                }
            }
        }
        for (f, w) in fogs {
            let lit = lights.iter().any(|&l| {
                let (dx, dy) = ((l.0 - f.0).abs(), (l.1 - f.1).abs());
                (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 5
            });
            if lit {
                put(&mut b, f, Some((w, "TP")));
            }
        }
        RefPosition {
            board: b,
            white_to_move: !white,
        }
    }

    /// Who has won after the last move, if anyone: the mover wins when the opponent no longer
    /// survives, else loses when it no longer survives itself (§10).
    pub fn winner_after_move(&self) -> Option<bool> {
        let mover = !self.white_to_move;
        if !Self::survives(&self.board, !mover) {
            Some(mover)
        } else if !Self::survives(&self.board, mover) {
            Some(!mover)
        } else {
            None
        }
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|m| self.apply(m).perft(depth - 1)).sum()
    }

    /// A move as a comparable key: origin, destination, removed squares (sorted names),
    /// promotion suffix.
    pub fn key(m: &RefMove) -> String {
        let removed: Vec<String> = m.removed.iter().map(|&s| name(s)).collect();
        format!(
            "{}-{} x{{{}}}{}",
            name(m.from),
            name(m.to),
            removed.join(","),
            m.promo
        )
    }
}
