//! Slow, deliberately simple, fully independent reference move generator for
//! Hand Shogi (手将棋), used by tests to cross-check the fast generic engine.
//!
//! It uses no external crates and shares no code with the engine. Everything is
//! done the naive way:
//!   * the board is a plain 9x9 array of `Option<Piece>`;
//!   * pseudo-legal moves come from looping over every square and every entry
//!     of a piece's explicit list of (dx, forward-dy, range) rules;
//!   * a move is legal if, after copying the position and applying it, no enemy
//!     piece (found by scanning the whole board and generating its moves) can
//!     reach the mover's King square;
//!   * a Hasty/Onager drop is additionally kept only if, after the drop, the
//!     opponent's King is attacked by some piece of the dropper.
//!
//! Coordinates: `x` = file 0..8 (`a`..`i`), `y` = rank 0..8 (`1`..`9`).
//! Black moves first, "forward" is +y for Black and -y for White.
//!
//! Positions without a King are accepted (handy for hand-made tests): a side
//! with no King can never be "in check", and Hasty/Onager can never be dropped
//! against a side that has no King.
//!
//! `to_fen` writes hand pieces in the order T, SH, G, S, N, L, O, H, PD, SO
//! (the order of the start position's hand for the pieces that appear there;
//! the place of G, PD and SO is this file's choice). `from_fen` accepts hand
//! tokens in any order, so compare positions with `==` on `RefPosition`
//! (parsed from both texts) rather than comparing FEN strings when the other
//! side might order hands differently.

#![allow(dead_code)]

use std::fmt::Write as _;

/// The standard start position.
pub const START_FEN: &str = "2g1k1g2/2(so)1(pd)1(so)2/3(so)(so)(so)3/9/9/9/3(SO)(SO)(SO)3/2(SO)1(PD)1(SO)2/2G1K1G2 b T(SH)2S2N2LOHt(sh)2s2n2loh 0";

// ---------------------------------------------------------------------------
// Colors and piece kinds
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// +1 for Black (towards rank 9), -1 for White (towards rank 1).
    fn forward(self) -> i32 {
        match self {
            Color::Black => 1,
            Color::White => -1,
        }
    }

    fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Kind {
    King,
    Gold,
    Silver,
    Knight,
    Lance,
    Tycoon,
    Shogun,
    Onager,
    Hasty,
    Pard,
    Soldier,
    PromotedKnight,
}

const NUM_KINDS: usize = 12;

/// Kinds that can be held in hand, in the order `to_fen` writes them.
const HAND_ORDER: [Kind; 10] = [
    Kind::Tycoon,
    Kind::Shogun,
    Kind::Gold,
    Kind::Silver,
    Kind::Knight,
    Kind::Lance,
    Kind::Onager,
    Kind::Hasty,
    Kind::Pard,
    Kind::Soldier,
];

impl Kind {
    fn index(self) -> usize {
        self as usize
    }

    /// The uppercase ID of the unpromoted piece (`+N` gives "N").
    fn id(self) -> &'static str {
        match self {
            Kind::King => "K",
            Kind::Gold => "G",
            Kind::Silver => "S",
            Kind::Knight => "N",
            Kind::Lance => "L",
            Kind::Tycoon => "T",
            Kind::Shogun => "SH",
            Kind::Onager => "O",
            Kind::Hasty => "H",
            Kind::Pard => "PD",
            Kind::Soldier => "SO",
            Kind::PromotedKnight => "N",
        }
    }

    fn is_promoted(self) -> bool {
        self == Kind::PromotedKnight
    }

    /// What the piece becomes when captured.
    fn unpromoted(self) -> Kind {
        match self {
            Kind::PromotedKnight => Kind::Knight,
            k => k,
        }
    }

    /// Parse an uppercase ID (without `+`).
    fn from_id(id: &str) -> Option<Kind> {
        Some(match id {
            "K" => Kind::King,
            "G" => Kind::Gold,
            "S" => Kind::Silver,
            "N" => Kind::Knight,
            "L" => Kind::Lance,
            "T" => Kind::Tycoon,
            "SH" => Kind::Shogun,
            "O" => Kind::Onager,
            "H" => Kind::Hasty,
            "PD" => Kind::Pard,
            "SO" => Kind::Soldier,
            _ => return None,
        })
    }

    /// Movement rules as (dx, forward dy, range).
    ///
    /// `range == 1`: the single square at offset (dx, dy) -- a step if the
    /// offset is adjacent, a jump (ignoring anything in between) otherwise.
    /// `range > 1`: slide in the unit direction (dx, dy) up to `range` squares,
    /// stopping at the first occupied square (capturing it if it is an enemy).
    /// `dy` is in the owner's forward direction (+1 = one rank forward).
    fn rules(self) -> &'static [(i32, i32, i32)] {
        const KING: &[(i32, i32, i32)] = &[
            (-1, -1, 1),
            (0, -1, 1),
            (1, -1, 1),
            (-1, 0, 1),
            (1, 0, 1),
            (-1, 1, 1),
            (0, 1, 1),
            (1, 1, 1),
        ];
        const GOLD: &[(i32, i32, i32)] = &[
            (0, 1, 1),
            (0, -1, 1),
            (1, 0, 1),
            (-1, 0, 1),
            (-1, 1, 1),
            (1, 1, 1),
        ];
        const SILVER: &[(i32, i32, i32)] =
            &[(-1, 1, 1), (1, 1, 1), (-1, -1, 1), (1, -1, 1), (0, 1, 1)];
        const KNIGHT: &[(i32, i32, i32)] = &[(-1, 2, 1), (1, 2, 1)];
        const LANCE: &[(i32, i32, i32)] = &[(0, 1, 8)];
        const TYCOON: &[(i32, i32, i32)] = &[(-1, 1, 3), (1, 1, 3), (-1, -1, 3), (1, -1, 3)];
        const SHOGUN: &[(i32, i32, i32)] = &[(0, 1, 3), (0, -1, 3), (1, 0, 3), (-1, 0, 3)];
        const ONAGER: &[(i32, i32, i32)] = &[(0, 2, 1), (0, -2, 1), (2, 0, 1), (-2, 0, 1)];
        const HASTY: &[(i32, i32, i32)] = &[(2, 2, 1), (2, -2, 1), (-2, 2, 1), (-2, -2, 1)];
        const PARD: &[(i32, i32, i32)] = &[
            (0, 2, 1),
            (0, -2, 1),
            (2, 0, 1),
            (-2, 0, 1),
            (2, 2, 1),
            (2, -2, 1),
            (-2, 2, 1),
            (-2, -2, 1),
        ];
        const SOLDIER: &[(i32, i32, i32)] = &[(0, 1, 1), (1, 0, 1), (-1, 0, 1)];
        match self {
            Kind::King => KING,
            Kind::Gold => GOLD,
            Kind::Silver => SILVER,
            Kind::Knight => KNIGHT,
            Kind::Lance => LANCE,
            Kind::Tycoon => TYCOON,
            Kind::Shogun => SHOGUN,
            Kind::Onager => ONAGER,
            Kind::Hasty => HASTY,
            Kind::Pard => PARD,
            Kind::Soldier => SOLDIER,
            Kind::PromotedKnight => GOLD,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: Kind,
}

// ---------------------------------------------------------------------------
// Squares
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Sq {
    pub x: i32, // file 0..8 = a..i
    pub y: i32, // rank 0..8 = 1..9
}

impl Sq {
    fn on_board(x: i32, y: i32) -> bool {
        (0..9).contains(&x) && (0..9).contains(&y)
    }

    fn text(self) -> String {
        let file = (b'a' + self.x as u8) as char;
        format!("{}{}", file, self.y + 1)
    }

    /// All 81 squares, a1, b1, ..., i1, a2, ..., i9.
    fn all() -> impl Iterator<Item = Sq> {
        (0..81).map(|i| Sq { x: i % 9, y: i / 9 })
    }
}

/// Is rank `y` among the three farthest ranks for `color`?
fn in_promotion_zone(color: Color, y: i32) -> bool {
    match color {
        Color::Black => y >= 6,
        Color::White => y <= 2,
    }
}

/// Is rank `y` the farthest rank for `color`?
fn is_last_rank(color: Color, y: i32) -> bool {
    match color {
        Color::Black => y == 8,
        Color::White => y == 0,
    }
}

// ---------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
enum Move {
    Board { from: Sq, to: Sq, promote: bool },
    Drop { kind: Kind, to: Sq },
}

impl Move {
    fn text(&self) -> String {
        match *self {
            Move::Board { from, to, promote } => {
                let mut s = from.text();
                s.push_str(&to.text());
                if promote {
                    s.push('+');
                }
                s
            }
            Move::Drop { kind, to } => format!("{}@{}", kind.id(), to.text()),
        }
    }
}

// ---------------------------------------------------------------------------
// Position
// ---------------------------------------------------------------------------

#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct RefPosition {
    /// board[y][x]
    board: [[Option<Piece>; 9]; 9],
    /// hands[color][kind index]; King and PromotedKnight entries stay 0.
    hands: [[u32; NUM_KINDS]; 2],
    side: Color,
}

impl RefPosition {
    // ----- basic access ---------------------------------------------------

    fn at(&self, sq: Sq) -> Option<Piece> {
        self.board[sq.y as usize][sq.x as usize]
    }

    fn set(&mut self, sq: Sq, p: Option<Piece>) {
        self.board[sq.y as usize][sq.x as usize] = p;
    }

    fn hand_count(&self, color: Color, kind: Kind) -> u32 {
        self.hands[color.index()][kind.index()]
    }

    fn king_square(&self, color: Color) -> Option<Sq> {
        Sq::all().find(|&sq| {
            self.at(sq)
                == Some(Piece {
                    color,
                    kind: Kind::King,
                })
        })
    }

    // ----- piece movement -------------------------------------------------

    /// All squares the piece on `from` could move to (empty or enemy-occupied),
    /// ignoring whether its own King would be left in check.
    fn destinations(&self, from: Sq) -> Vec<Sq> {
        let mut out = Vec::new();
        let piece = match self.at(from) {
            Some(p) => p,
            None => return out,
        };
        for &(dx, fdy, range) in piece.kind.rules() {
            let dy = fdy * piece.color.forward();
            for k in 1..=range {
                let x = from.x + dx * k;
                let y = from.y + dy * k;
                if !Sq::on_board(x, y) {
                    break;
                }
                let to = Sq { x, y };
                match self.at(to) {
                    None => out.push(to),
                    Some(other) => {
                        if other.color != piece.color {
                            out.push(to);
                        }
                        break;
                    }
                }
            }
        }
        out
    }

    /// Can some piece of `by` move to (capture on) `target`?
    fn is_attacked(&self, target: Sq, by: Color) -> bool {
        for from in Sq::all() {
            if let Some(p) = self.at(from) {
                if p.color == by && self.destinations(from).contains(&target) {
                    return true;
                }
            }
        }
        false
    }

    /// Is `color`'s King attacked by the other side? (false if it has no King)
    fn in_check(&self, color: Color) -> bool {
        match self.king_square(color) {
            Some(k) => self.is_attacked(k, color.other()),
            None => false,
        }
    }

    // ----- move generation ------------------------------------------------

    /// Static drop restrictions (everything except the Hasty/Onager check rule,
    /// which needs the position after the drop).
    fn drop_allowed_statically(&self, kind: Kind, to: Sq) -> bool {
        let me = self.side;
        if self.at(to).is_some() {
            return false;
        }
        match kind {
            Kind::Knight => !in_promotion_zone(me, to.y),
            Kind::Lance => !is_last_rank(me, to.y),
            Kind::Soldier => !self.file_has_own_soldier(me, to.x),
            _ => true,
        }
    }

    fn file_has_own_soldier(&self, color: Color, x: i32) -> bool {
        (0..9).any(|y| {
            self.at(Sq { x, y })
                == Some(Piece {
                    color,
                    kind: Kind::Soldier,
                })
        })
    }

    /// Moves that obey piece movement and static drop rules, before the
    /// King-safety and the Hasty/Onager check rule are applied.
    fn pseudo_legal_moves(&self) -> Vec<Move> {
        let me = self.side;
        let mut moves = Vec::new();
        // Board moves.
        for from in Sq::all() {
            let piece = match self.at(from) {
                Some(p) if p.color == me => p,
                _ => continue,
            };
            for to in self.destinations(from) {
                let promote = piece.kind == Kind::Knight && in_promotion_zone(me, to.y);
                moves.push(Move::Board { from, to, promote });
            }
        }
        // Drops.
        for kind in HAND_ORDER {
            if self.hand_count(me, kind) == 0 {
                continue;
            }
            for to in Sq::all() {
                if self.drop_allowed_statically(kind, to) {
                    moves.push(Move::Drop { kind, to });
                }
            }
        }
        moves
    }

    /// Apply a move without any legality check (copy-make).
    fn apply(&self, mv: &Move) -> RefPosition {
        let me = self.side;
        let mut next = self.clone();
        match *mv {
            Move::Board { from, to, promote } => {
                let mut piece = self.at(from).expect("apply: no piece on origin");
                if let Some(captured) = self.at(to) {
                    next.hands[me.index()][captured.kind.unpromoted().index()] += 1;
                }
                if promote {
                    piece.kind = Kind::PromotedKnight;
                }
                next.set(from, None);
                next.set(to, Some(piece));
            }
            Move::Drop { kind, to } => {
                next.hands[me.index()][kind.index()] -= 1;
                next.set(to, Some(Piece { color: me, kind }));
            }
        }
        next.side = me.other();
        next
    }

    fn is_legal(&self, mv: &Move) -> bool {
        let me = self.side;
        let after = self.apply(mv);
        // 1. The mover's own King must not be attacked afterwards.
        if after.in_check(me) {
            return false;
        }
        // 2. A Hasty or Onager may only be dropped where it gives check.
        if let Move::Drop { kind, .. } = *mv {
            if kind == Kind::Hasty || kind == Kind::Onager {
                let gives_check = match after.king_square(me.other()) {
                    Some(k) => after.is_attacked(k, me),
                    None => false,
                };
                if !gives_check {
                    return false;
                }
            }
        }
        true
    }

    fn legal_move_list(&self) -> Vec<Move> {
        self.pseudo_legal_moves()
            .into_iter()
            .filter(|m| self.is_legal(m))
            .collect()
    }

    // ----- public API -----------------------------------------------------

    pub fn start() -> RefPosition {
        RefPosition::from_fen(START_FEN).expect("start FEN must parse")
    }

    /// Canonical texts of all legal moves (any order, no duplicates).
    pub fn legal_moves(&self) -> Vec<String> {
        self.legal_move_list().iter().map(|m| m.text()).collect()
    }

    /// Copy-make: the position after `mv`, or an error if `mv` is not the
    /// canonical text of a legal move.
    pub fn play(&self, mv: &str) -> Result<RefPosition, String> {
        for m in self.legal_move_list() {
            if m.text() == mv {
                return Ok(self.apply(&m));
            }
        }
        Err(format!(
            "illegal or malformed move '{}' in {}",
            mv,
            self.to_fen()
        ))
    }

    /// Naive perft: full recursion down to depth 0, no bulk counting.
    /// (Uses the internal move list + copy-make; `play` would re-generate the
    /// move list for every child, which is far too slow at depth 3. The tests
    /// check that the string API gives the same counts.)
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for m in self.legal_move_list() {
            total += self.apply(&m).perft(depth - 1);
        }
        total
    }

    /// Per-move perft counts, sorted by move text (for debugging mismatches).
    pub fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        assert!(depth >= 1);
        let mut v: Vec<(String, u64)> = self
            .legal_move_list()
            .iter()
            .map(|m| (m.text(), self.apply(m).perft(depth - 1)))
            .collect();
        v.sort();
        v
    }

    pub fn side_to_move_is_black(&self) -> bool {
        self.side == Color::Black
    }

    pub fn is_in_check(&self) -> bool {
        self.in_check(self.side)
    }

    // ----- FEN ------------------------------------------------------------

    pub fn from_fen(text: &str) -> Result<RefPosition, String> {
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() < 3 || fields.len() > 4 {
            return Err(format!("expected 3 or 4 fields in '{}'", text));
        }
        let mut pos = RefPosition {
            board: [[None; 9]; 9],
            hands: [[0; NUM_KINDS]; 2],
            side: Color::Black,
        };

        // Board.
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 9 {
            return Err(format!("expected 9 ranks, got {}", ranks.len()));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let y = 8 - i as i32;
            let chars: Vec<char> = rank_text.chars().collect();
            let mut x: i32 = 0;
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                if c.is_ascii_digit() {
                    let mut n: i32 = 0;
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        n = n * 10 + chars[j].to_digit(10).unwrap() as i32;
                        if n > 9 {
                            return Err(format!("bad empty count in rank '{}'", rank_text));
                        }
                        j += 1;
                    }
                    if n == 0 {
                        return Err(format!("zero empty count in rank '{}'", rank_text));
                    }
                    x += n;
                } else {
                    let mut promoted = false;
                    if c == '+' {
                        promoted = true;
                        j += 1;
                    }
                    let (color, kind, next_j) = parse_piece_token(&chars, j)?;
                    j = next_j;
                    let kind = if promoted {
                        if kind != Kind::Knight {
                            return Err(format!("only the Knight promotes: '{}'", rank_text));
                        }
                        Kind::PromotedKnight
                    } else {
                        kind
                    };
                    if x >= 9 {
                        return Err(format!("rank '{}' has more than 9 files", rank_text));
                    }
                    pos.set(Sq { x, y }, Some(Piece { color, kind }));
                    x += 1;
                }
                if x > 9 {
                    return Err(format!("rank '{}' has more than 9 files", rank_text));
                }
            }
            if x != 9 {
                return Err(format!("rank '{}' has {} files, expected 9", rank_text, x));
            }
        }

        // Side to move.
        pos.side = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            s => return Err(format!("bad side to move '{}'", s)),
        };

        // Hands.
        if fields[2] != "-" {
            let chars: Vec<char> = fields[2].chars().collect();
            if chars.is_empty() {
                return Err("empty hand field".to_string());
            }
            let mut j = 0;
            while j < chars.len() {
                let mut count: u32 = 0;
                let mut has_count = false;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    count = count
                        .checked_mul(10)
                        .and_then(|c| c.checked_add(chars[j].to_digit(10).unwrap()))
                        .ok_or("hand count too large")?;
                    has_count = true;
                    j += 1;
                }
                if !has_count {
                    count = 1;
                }
                if count == 0 {
                    return Err(format!("zero count in hand '{}'", fields[2]));
                }
                let (color, kind, next_j) = parse_piece_token(&chars, j)?;
                j = next_j;
                if kind == Kind::King {
                    return Err("a King cannot be in hand".to_string());
                }
                pos.hands[color.index()][kind.index()] += count;
            }
        }

        // Ply (ignored, but must be a number).
        if fields.len() == 4 && fields[3].parse::<u64>().is_err() {
            return Err(format!("bad ply '{}'", fields[3]));
        }

        // At most one King per side.
        for color in [Color::Black, Color::White] {
            let kings = Sq::all()
                .filter(|&sq| {
                    pos.at(sq)
                        == Some(Piece {
                            color,
                            kind: Kind::King,
                        })
                })
                .count();
            if kings > 1 {
                return Err(format!("more than one King for {:?}", color));
            }
        }
        Ok(pos)
    }

    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for y in (0..9).rev() {
            let mut empty = 0;
            for x in 0..9 {
                match self.at(Sq { x, y }) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(s, "{}", empty).unwrap();
                            empty = 0;
                        }
                        if p.kind.is_promoted() {
                            s.push('+');
                        }
                        s.push_str(&piece_token(p.color, p.kind.unpromoted()));
                    }
                }
            }
            if empty > 0 {
                write!(s, "{}", empty).unwrap();
            }
            if y > 0 {
                s.push('/');
            }
        }
        s.push(' ');
        s.push(if self.side == Color::Black { 'b' } else { 'w' });
        s.push(' ');
        let mut hand = String::new();
        for color in [Color::Black, Color::White] {
            for kind in HAND_ORDER {
                let n = self.hand_count(color, kind);
                if n > 1 {
                    write!(hand, "{}", n).unwrap();
                }
                if n >= 1 {
                    hand.push_str(&piece_token(color, kind));
                }
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        s.push_str(&hand);
        s
    }
}

/// Piece text without `+`: `K`, `(SH)`, `g`, `(so)`.
fn piece_token(color: Color, kind: Kind) -> String {
    let id = kind.id();
    let id = match color {
        Color::Black => id.to_string(),
        Color::White => id.to_ascii_lowercase(),
    };
    if id.len() == 1 {
        id
    } else {
        format!("({})", id)
    }
}

/// Parse one piece token (a letter or a parenthesised ID) starting at `j`.
/// Returns color, (unpromoted) kind and the index after the token.
fn parse_piece_token(chars: &[char], j: usize) -> Result<(Color, Kind, usize), String> {
    if j >= chars.len() {
        return Err("expected a piece, found end of text".to_string());
    }
    let (id, next): (String, usize) = if chars[j] == '(' {
        let close = chars[j..]
            .iter()
            .position(|&c| c == ')')
            .ok_or("unclosed '('")?
            + j;
        (chars[j + 1..close].iter().collect(), close + 1)
    } else {
        (chars[j].to_string(), j + 1)
    };
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphabetic()) {
        return Err(format!("bad piece '{}'", id));
    }
    let color = if id.chars().all(|c| c.is_ascii_uppercase()) {
        Color::Black
    } else if id.chars().all(|c| c.is_ascii_lowercase()) {
        Color::White
    } else {
        return Err(format!("mixed-case piece '{}'", id));
    };
    let kind = Kind::from_id(&id.to_ascii_uppercase()).ok_or(format!("unknown piece '{}'", id))?;
    Ok((color, kind, next))
}

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn pos(fen: &str) -> RefPosition {
        RefPosition::from_fen(fen).unwrap_or_else(|e| panic!("{}: {}", fen, e))
    }

    fn moves_set(p: &RefPosition) -> BTreeSet<String> {
        let v = p.legal_moves();
        let set: BTreeSet<String> = v.iter().cloned().collect();
        assert_eq!(set.len(), v.len(), "duplicate moves in {}", p.to_fen());
        set
    }

    fn set_of(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    fn count_prefix(moves: &BTreeSet<String>, prefix: &str) -> usize {
        moves.iter().filter(|m| m.starts_with(prefix)).count()
    }

    /// perft(1) from the start, derived by hand.
    ///
    /// Start position (Black = uppercase, bottom):
    ///   rank 9: c9 g, e9 k, g9 g
    ///   rank 8: c8 so, e8 pd, g8 so
    ///   rank 7: d7 so, e7 so, f7 so
    ///   rank 3: d3 SO, e3 SO, f3 SO
    ///   rank 2: c2 SO, e2 PD, g2 SO
    ///   rank 1: c1 G, e1 K, g1 G
    /// Black hand: T SH 2S 2N 2L O H.
    ///
    /// Board moves (Black):
    ///   K e1 : d1 f1 d2 f2 (e2 own PD, rank 0 off board)         = 4
    ///   G c1 : b1 d1 b2 d2 (c2 own SO)                            = 4
    ///   G g1 : f1 h1 f2 h2 (g2 own SO)                            = 4
    ///   SO c2: c3 b2 d2                                           = 3
    ///   SO g2: g3 f2 h2                                           = 3
    ///   PD e2: e4 c4 g4 (c2, g2 own SO; e0 c0 g0 off board)      = 3
    ///   SO d3: d4 c3 (e3 own)                                     = 2
    ///   SO e3: e4 (d3, f3 own)                                    = 1
    ///   SO f3: f4 g3 (e3 own)                                     = 2
    ///   board total: 4+4+4+3+3+3+2+1+2                            = 26
    ///
    /// Drops: 18 pieces on the board -> 81 - 18 = 63 empty squares. Black is
    /// not in check and a drop can only block lines, so no drop exposes the
    /// King. Per hand piece type (each type counted once, however many held):
    ///   T  : any empty square                                     = 63
    ///   SH : any empty square                                     = 63
    ///   S  : any empty square                                     = 63
    ///   N  : not ranks 7-9; ranks 1,2,3 have 6 empty each, ranks
    ///        4,5,6 have 9 each: 6+6+6+27                          = 45
    ///   L  : not rank 9 (6 empty there): 63 - 6                   = 57
    ///   O  : must attack e9: from e7 / c9 / g9 (e11 off board), all
    ///        occupied                                             = 0
    ///   H  : must attack e9: from c7 / g7 (c11, g11 off), both empty = 2
    ///   drop total: 63*3 + 45 + 57 + 0 + 2 = 189 + 104            = 293
    ///
    /// perft(1) = 26 + 293 = 319.
    #[test]
    fn start_perft1_matches_hand_count() {
        let p = RefPosition::start();
        let m = moves_set(&p);
        // Board moves per piece.
        assert_eq!(count_prefix(&m, "e1"), 4);
        assert_eq!(count_prefix(&m, "c1"), 4);
        assert_eq!(count_prefix(&m, "g1"), 4);
        assert_eq!(count_prefix(&m, "c2"), 3);
        assert_eq!(count_prefix(&m, "g2"), 3);
        assert_eq!(count_prefix(&m, "e2"), 3);
        assert_eq!(count_prefix(&m, "d3"), 2);
        assert_eq!(count_prefix(&m, "e3"), 1);
        assert_eq!(count_prefix(&m, "f3"), 2);
        let board_moves = m.iter().filter(|s| !s.contains('@')).count();
        assert_eq!(board_moves, 26);
        // Drops per type.
        assert_eq!(count_prefix(&m, "T@"), 63);
        assert_eq!(count_prefix(&m, "SH@"), 63);
        assert_eq!(count_prefix(&m, "S@"), 63);
        assert_eq!(count_prefix(&m, "N@"), 45);
        assert_eq!(count_prefix(&m, "L@"), 57);
        assert_eq!(count_prefix(&m, "O@"), 0);
        assert_eq!(count_prefix(&m, "H@"), 2);
        assert!(m.contains("H@c7") && m.contains("H@g7"));
        let drops = m.iter().filter(|s| s.contains('@')).count();
        assert_eq!(drops, 293);
        assert_eq!(m.len(), 319);
        assert_eq!(p.perft(1), 319);
    }

    /// The start position is symmetric, so White to move has 319 moves too.
    #[test]
    fn start_white_to_move_is_symmetric() {
        let p = pos("2g1k1g2/2(so)1(pd)1(so)2/3(so)(so)(so)3/9/9/9/3(SO)(SO)(SO)3/2(SO)1(PD)1(SO)2/2G1K1G2 w T(SH)2S2N2LOHt(sh)2s2n2loh");
        let m = moves_set(&p);
        assert_eq!(m.len(), 319);
        assert!(!m.contains("h@c3"), "drop IDs are uppercase");
        assert!(m.contains("H@c3") && m.contains("H@g3"));
        assert_eq!(count_prefix(&m, "N@"), 45);
        assert!(!m.iter().any(|s| s.starts_with("N@") && s.ends_with('3')));
    }

    /// Reply counts after a few Black first moves, derived by hand.
    #[test]
    fn hand_checked_reply_counts() {
        let start = RefPosition::start();

        // H@c7 checks e9 (c7 -> e9 is a (+2,+2) jump). A jump cannot be blocked.
        // Captures of c7: so d7 (sideways) and so c8 (White's forward) -> 2.
        // King e9 -> d9 f9 d8 f8 (e8 own PD); none attacked by H c7
        // (it attacks a5 e5 a9 e9) nor by anything else -> 4. Total 6.
        let p = start.play("H@c7").unwrap();
        assert!(p.is_in_check());
        assert_eq!(
            moves_set(&p),
            set_of(&["d7c7", "c8c7", "e9d9", "e9f9", "e9d8", "e9f8"])
        );

        // e3e4: White's 26 board moves are unaffected (they reach rank 6 at
        // most). Drops: still 63 empty squares -> T, SH, S: 63 each; N: ranks
        // 4-9 now have 26 + 18 = 44 empty squares (e4 filled); L: 63 - 6 = 57;
        // O: e3 is now empty, O@e3 checks e1 -> 1; H: c3, g3 -> 2.
        // Total 26 + 189 + 44 + 57 + 1 + 2 = 319.
        let p = start.play("e3e4").unwrap();
        let m = moves_set(&p);
        assert_eq!(count_prefix(&m, "N@"), 44);
        assert_eq!(count_prefix(&m, "O@"), 1);
        assert!(m.contains("O@e3"));
        assert_eq!(m.len(), 319);

        // T@e5: 62 empty squares. Board 26; T, SH, S: 62 each = 186;
        // N: 45 - 1 = 44; L: 62 - 6 = 56; O: 0; H: c3, g3 = 2.
        // The Tycoon (d6 c7 b8 / f6 g7 h8 / ...) attacks none of the White
        // King's flight squares or e9. Total 26 + 186 + 44 + 56 + 0 + 2 = 314.
        let p = start.play("T@e5").unwrap();
        assert_eq!(p.legal_moves().len(), 314);
    }

    /// Computed by this file; cross-checked against the string API (below),
    /// against colour-reversal and left-right mirror symmetry (below), and the
    /// hand counts of individual replies above.
    const START_PERFT2: u64 = 96_721;
    const START_PERFT3: u64 = 27_072_671;

    #[test]
    fn start_perft2() {
        let start = RefPosition::start();
        // Independent path: string API (legal_moves + play) and counting the
        // replies of every first move.
        let mut sum = 0u64;
        for (i, mv) in start.legal_moves().iter().enumerate() {
            let child = start.play(mv).unwrap();
            let replies = child.legal_moves();
            // Replies must be playable through the string API (checked for a
            // sample of children only; doing all of them costs a perft(3)).
            if i % 40 == 0 {
                for r in &replies {
                    child.play(r).unwrap();
                }
            }
            sum += replies.len() as u64;
        }
        let p2 = start.perft(2);
        println!("perft(2) from start = {}", p2);
        assert_eq!(p2, sum);
        assert_eq!(p2, START_PERFT2);
    }

    /// Slow in debug builds; run with `--include-ignored`.
    #[test]
    #[ignore]
    fn start_perft3() {
        let t = std::time::Instant::now();
        let p3 = RefPosition::start().perft(3);
        println!("perft(3) from start = {} ({:?})", p3, t.elapsed());
        assert_eq!(p3, START_PERFT3);
    }

    #[test]
    fn fen_round_trip_start() {
        let p = RefPosition::start();
        assert_eq!(
            p.to_fen(),
            "2g1k1g2/2(so)1(pd)1(so)2/3(so)(so)(so)3/9/9/9/3(SO)(SO)(SO)3/2(SO)1(PD)1(SO)2/2G1K1G2 b T(SH)2S2N2LOHt(sh)2s2n2loh"
        );
        assert_eq!(RefPosition::from_fen(&p.to_fen()).unwrap(), p);
        // Ply is optional.
        assert_eq!(RefPosition::from_fen(&p.to_fen()).unwrap(), pos(START_FEN));
    }

    #[test]
    fn fen_round_trip_after_moves() {
        let mut p = RefPosition::start();
        for mv in ["e3e4", "e7e6", "e4e5", "e6e5", "d3d4", "N@d6", "d4d5"] {
            p = p.play(mv).unwrap();
            let back = RefPosition::from_fen(&p.to_fen()).unwrap();
            assert_eq!(back, p, "{}", p.to_fen());
            assert_eq!(back.to_fen(), p.to_fen());
        }
        // e6e5 captured a Black soldier (White's hand gains a SO), N@d6
        // used one of White's Knights. Exact text, derived by hand:
        assert_eq!(
            p.to_fen(),
            "2g1k1g2/2(so)1(pd)1(so)2/3(so)1(so)3/3n5/3(SO)(so)4/9/5(SO)3/2(SO)1(PD)1(SO)2/2G1K1G2 w T(SH)2S2N2LOHt(sh)2sn2loh(so)"
        );
        // White may not drop a Knight on rank 3.
        assert!(RefPosition::start()
            .play("e3e4")
            .unwrap()
            .play("N@d3")
            .is_err());
    }

    /// Deterministic pseudo-random games: FEN round trip, no duplicate moves,
    /// and `play` agrees with the internal generator, at every ply.
    #[test]
    fn fen_round_trip_random_games() {
        let mut seed: u64 = 0x1234_5678_9abc_def0;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let mut saw_promotion = false;
        let mut saw_promoted_capture = false;
        for _game in 0..6 {
            let mut p = RefPosition::start();
            for _ply in 0..150 {
                let moves = moves_set(&p);
                let back = RefPosition::from_fen(&p.to_fen()).unwrap();
                assert_eq!(back, p);
                assert_eq!(back.to_fen(), p.to_fen());
                if moves.is_empty() {
                    break;
                }
                // Prefer captures to get interesting hands.
                let list: Vec<&String> = moves.iter().collect();
                let captures: Vec<&String> = list
                    .iter()
                    .copied()
                    .filter(|m| {
                        !m.contains('@') && {
                            let to = &m[2..4];
                            let x = (to.as_bytes()[0] - b'a') as i32;
                            let y = (to.as_bytes()[1] - b'1') as i32;
                            p.at(Sq { x, y }).is_some()
                        }
                    })
                    .collect();
                let mv = if !captures.is_empty() && next() % 2 == 0 {
                    captures[next() % captures.len()].clone()
                } else {
                    list[next() % list.len()].clone()
                };
                if mv.ends_with('+') {
                    saw_promotion = true;
                }
                if !mv.contains('@') {
                    let to = &mv[2..4];
                    let x = (to.as_bytes()[0] - b'a') as i32;
                    let y = (to.as_bytes()[1] - b'1') as i32;
                    if let Some(pc) = p.at(Sq { x, y }) {
                        if pc.kind == Kind::PromotedKnight {
                            saw_promoted_capture = true;
                        }
                    }
                }
                let next_pos = p.play(&mv).unwrap();
                // The mover is never left in check.
                assert!(!next_pos.in_check(p.side), "{} {}", p.to_fen(), mv);
                p = next_pos;
            }
        }
        println!(
            "random games: saw promotion {}, saw capture of +N {}",
            saw_promotion, saw_promoted_capture
        );
    }

    #[test]
    fn fen_parsing_details() {
        let p = pos("4k4/9/9/9/4+n4/9/9/9/4K4 w 2(SO)G3(so)n 5");
        assert_eq!(p.hand_count(Color::Black, Kind::Soldier), 2);
        assert_eq!(p.hand_count(Color::Black, Kind::Gold), 1);
        assert_eq!(p.hand_count(Color::White, Kind::Soldier), 3);
        assert_eq!(p.hand_count(Color::White, Kind::Knight), 1);
        assert_eq!(p.at(Sq { x: 4, y: 4 }).unwrap().kind, Kind::PromotedKnight);
        assert_eq!(p.to_fen(), "4k4/9/9/9/4+n4/9/9/9/4K4 w G2(SO)n3(so)");
        // Errors.
        assert!(RefPosition::from_fen("4k4/9/9/9/9/9/9/9 b -").is_err());
        assert!(RefPosition::from_fen("4k5/9/9/9/9/9/9/9/4K4 b -").is_err());
        assert!(RefPosition::from_fen("4k3/9/9/9/9/9/9/9/4K4 b -").is_err());
        assert!(RefPosition::from_fen("4k4/9/9/9/9/9/9/9/4K4 x -").is_err());
        assert!(RefPosition::from_fen("4k4/9/9/9/9/9/9/9/4+G4 b -").is_err());
        assert!(RefPosition::from_fen("4k4/9/9/9/9/9/9/9/4(Xy)4 b -").is_err());
        assert!(RefPosition::from_fen("4k4/9/9/9/9/9/9/9/4K4 b K").is_err());
        assert!(RefPosition::from_fen("4k4/9/9/9/9/9/9/9/4K4 b +N").is_err());
        assert!(RefPosition::from_fen("4k4/9/9/9/9/9/9/9/4K4 b - x").is_err());
    }

    #[test]
    fn piece_moves_on_open_board() {
        // Black piece on e5, Black King a1, White King i9.
        let cases: &[(&str, usize)] = &[
            ("G", 6),
            ("S", 5),
            ("N", 2),
            ("L", 4),
            ("T", 12),
            ("(SH)", 12),
            ("O", 4),
            ("H", 4),
            ("(PD)", 8),
            ("(SO)", 3),
            ("+N", 6),
        ];
        for &(tok, n) in cases {
            let fen = format!("8k/9/9/9/4{}4/9/9/9/K8 b -", tok);
            let p = pos(&fen);
            let m = moves_set(&p);
            let mine: Vec<&String> = m.iter().filter(|s| s.starts_with("e5")).collect();
            assert_eq!(mine.len(), n, "{}: {:?}", tok, mine);
        }
        // King (the only Black King) on e5.
        let p = pos("8k/9/9/9/4K4/9/9/9/9 b -");
        assert_eq!(moves_set(&p).len(), 8);
        // Exact destination sets for a few pieces.
        let p = pos("8k/9/9/9/4N4/9/9/9/K8 b -");
        let m = moves_set(&p);
        assert!(m.contains("e5d7+") && m.contains("e5f7+"));
        let p = pos("8k/9/9/9/4(SO)4/9/9/9/K8 b -");
        let m = moves_set(&p);
        assert_eq!(count_prefix(&m, "e5"), 3);
        assert!(m.contains("e5e6") && m.contains("e5d5") && m.contains("e5f5"));
        // White soldier goes "forward" = down.
        let p = pos("8k/9/9/9/4(so)4/9/9/9/K8 w -");
        let m = moves_set(&p);
        assert!(m.contains("e5e4") && m.contains("e5d5") && m.contains("e5f5"));
        // White Silver: forward = down; diagonals both ways.
        let p = pos("8k/9/9/9/4s4/9/9/9/K8 w -");
        let m = moves_set(&p);
        let got: BTreeSet<String> = m.iter().filter(|s| s.starts_with("e5")).cloned().collect();
        assert_eq!(got, set_of(&["e5e4", "e5d4", "e5f4", "e5d6", "e5f6"]));
        // White Gold.
        let p = pos("8k/9/9/9/4g4/9/9/9/K8 w -");
        let m = moves_set(&p);
        let got: BTreeSet<String> = m.iter().filter(|s| s.starts_with("e5")).cloned().collect();
        assert_eq!(
            got,
            set_of(&["e5e4", "e5e6", "e5d5", "e5f5", "e5d4", "e5f4"])
        );
        // Lance: Black slides up to the last rank.
        let p = pos("8k/9/9/9/4L4/9/9/9/K8 b -");
        let m = moves_set(&p);
        let got: BTreeSet<String> = m.iter().filter(|s| s.starts_with("e5")).cloned().collect();
        assert_eq!(got, set_of(&["e5e6", "e5e7", "e5e8", "e5e9"]));
    }

    #[test]
    fn limited_sliders_are_blocked_and_capture() {
        // Black T on e5, own SO on f6, White S on c7; kings far away.
        let p = pos("8k/9/2s6/5(SO)3/4T4/9/9/9/K8 b -");
        let m = moves_set(&p);
        let got: BTreeSet<String> = m.iter().filter(|s| s.starts_with("e5")).cloned().collect();
        assert_eq!(
            got,
            set_of(&["e5d6", "e5c7", "e5d4", "e5c3", "e5b2", "e5f4", "e5g3", "e5h2"])
        );
        // Black SH on e5, White piece on e6, own on d5; range 3 elsewhere.
        let p = pos("8k/9/9/4g4/3GT4/9/9/9/K8 b -".replace('T', "(SH)").as_str());
        let m = moves_set(&p);
        let got: BTreeSet<String> = m.iter().filter(|s| s.starts_with("e5")).cloned().collect();
        assert_eq!(
            got,
            set_of(&["e5e6", "e5f5", "e5g5", "e5h5", "e5e4", "e5e3", "e5e2"])
        );
        // Jumpers ignore blockers: O, H, PD surrounded by own Golds.
        // (rank 6 holds the PD on e6.)
        let p = pos("8k/9/3GGG3/3G(PD)G3/3GGG3/9/9/9/K8 b -");
        let m = moves_set(&p);
        assert_eq!(count_prefix(&m, "e6"), 8);
        for tok in ["O", "H"] {
            let p = pos(&format!("8k/9/3GGG3/3G{}G3/3GGG3/9/9/9/K8 b -", tok));
            assert_eq!(count_prefix(&moves_set(&p), "e6"), 4, "{}", tok);
        }
        // Lance stops at the first piece and captures an enemy.
        let p = pos("8k/4g4/9/9/4L4/9/9/9/K8 b -");
        let m = moves_set(&p);
        let got: BTreeSet<String> = m.iter().filter(|s| s.starts_with("e5")).cloned().collect();
        assert_eq!(got, set_of(&["e5e6", "e5e7", "e5e8"]));
    }

    #[test]
    fn captures_go_to_hand_unpromoted() {
        // White +n on e2 checks the Black King on e1; Gold d1 captures it.
        let p = pos("4k4/9/9/9/9/9/9/4+n4/3GK4 b -");
        assert!(p.is_in_check());
        let q = p.play("d1e2").unwrap();
        assert_eq!(q.to_fen(), "4k4/9/9/9/9/9/9/4G4/4K4 w N");
        // The Knight can now be dropped by Black (after a White move).
        let r = q.play("e9e8").unwrap();
        assert!(r.legal_moves().contains(&"N@a1".to_string()));
    }

    #[test]
    fn knight_must_promote_in_zone() {
        // Black N on c6 (-> b8, d8, promote) and on g4 (-> f6, h6, no promotion).
        let p = pos("4k4/9/9/2N6/9/6N2/9/9/4K4 b -");
        let m = moves_set(&p);
        assert!(m.contains("c6b8+") && m.contains("c6d8+"));
        assert!(!m.contains("c6b8") && !m.contains("c6d8"));
        assert!(m.contains("g4f6") && m.contains("g4h6"));
        assert!(!m.contains("g4f6+") && !m.contains("g4h6+"));
        let q = p.play("c6b8+").unwrap();
        assert_eq!(q.to_fen(), "4k4/1+N7/9/9/9/6N2/9/9/4K4 w -");
        assert!(p.play("c6b8").is_err());
        // Rank 7 is in the zone too: N c5 -> b7+, d7+.
        let p = pos("4k4/9/9/9/2N6/9/9/9/4K4 b -");
        let m = moves_set(&p);
        assert!(m.contains("c5b7+") && m.contains("c5d7+") && !m.contains("c5b7"));
        // White: N c4 -> b2+, d2+ ; N c6 -> b4, d4.
        let p = pos("4k4/9/9/2n6/9/2n6/9/9/K8 w -");
        let m = moves_set(&p);
        assert!(m.contains("c4b2+") && m.contains("c4d2+") && !m.contains("c4b2"));
        assert!(m.contains("c6b4") && m.contains("c6d4") && !m.contains("c6b4+"));
        // The promoted Knight then moves as a Gold: b8 -> b9 a9 c9 a8 c8 b7.
        let r = q.play("e9f9").unwrap();
        let got: BTreeSet<String> = moves_set(&r)
            .into_iter()
            .filter(|s| s.starts_with("b8"))
            .collect();
        assert_eq!(
            got,
            set_of(&["b8b9", "b8a9", "b8c9", "b8a8", "b8c8", "b8b7"])
        );
    }

    #[test]
    fn knight_drop_restriction() {
        // Black may not drop a Knight on ranks 7-9.
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b N");
        let m = moves_set(&p);
        let drops: Vec<&String> = m.iter().filter(|s| s.starts_with("N@")).collect();
        // Ranks 1-6 = 54 squares minus e1 = 53.
        assert_eq!(drops.len(), 53);
        assert!(drops
            .iter()
            .all(|s| !s.ends_with('7') && !s.ends_with('8') && !s.ends_with('9')));
        assert!(m.contains("N@a6") && !m.contains("N@a7"));
        // White may not drop on ranks 1-3.
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 w n");
        let m = moves_set(&p);
        let drops: Vec<&String> = m.iter().filter(|s| s.starts_with("N@")).collect();
        assert_eq!(drops.len(), 53);
        assert!(m.contains("N@a4") && !m.contains("N@a3"));
        assert!(p.play("N@a3").is_err());
    }

    #[test]
    fn lance_drop_restriction() {
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b L");
        let m = moves_set(&p);
        // 79 empty squares minus the 8 empty ones on rank 9.
        assert_eq!(count_prefix(&m, "L@"), 71);
        assert!(m.contains("L@a8") && !m.contains("L@a9"));
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 w l");
        let m = moves_set(&p);
        assert_eq!(count_prefix(&m, "L@"), 71);
        assert!(m.contains("L@a2") && !m.contains("L@a1"));
        // But a Lance may MOVE onto the farthest rank (no promotion).
        let p = pos("4k4/L8/9/9/9/9/9/9/4K4 b -");
        assert!(moves_set(&p).contains("a8a9"));
        let p = pos("4k4/9/9/9/9/9/9/l8/4K4 w -");
        assert!(moves_set(&p).contains("a2a1"));
    }

    #[test]
    fn soldier_drop_restriction() {
        // Black SO on c2, White so on d8. Black may not drop a SO on file c,
        // may on file d (only an enemy soldier there), and on any rank.
        let p = pos("4k4/3(so)5/9/9/9/9/9/2(SO)6/4K4 b (SO)");
        let m = moves_set(&p);
        // 77 empty squares minus 8 empty squares of file c.
        assert_eq!(count_prefix(&m, "SO@"), 69);
        assert!(!m.iter().any(|s| s.starts_with("SO@c")));
        assert!(m.contains("SO@d5") && m.contains("SO@a9") && m.contains("SO@a1"));
        // White: own so on d8 forbids file d.
        let p = pos("4k4/3(so)5/9/9/9/9/9/2(SO)6/4K4 w (so)");
        let m = moves_set(&p);
        assert_eq!(count_prefix(&m, "SO@"), 69);
        assert!(!m.iter().any(|s| s.starts_with("SO@d")));
        assert!(m.contains("SO@c5") && m.contains("SO@a1"));
        // After dropping, the file becomes forbidden for a second soldier.
        let q = pos("4k4/9/9/9/9/9/9/9/4K4 b 2(SO)")
            .play("SO@a5")
            .unwrap()
            .play("e9d9")
            .unwrap();
        let m = moves_set(&q);
        assert!(!m.iter().any(|s| s.starts_with("SO@a")));
        assert!(m.contains("SO@b5"));
    }

    #[test]
    fn hasty_and_onager_drops_must_give_check() {
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b OH");
        let m = moves_set(&p);
        let h: BTreeSet<String> = m.iter().filter(|s| s.starts_with("H@")).cloned().collect();
        let o: BTreeSet<String> = m.iter().filter(|s| s.starts_with("O@")).cloned().collect();
        assert_eq!(h, set_of(&["H@c7", "H@g7"]));
        assert_eq!(o, set_of(&["O@c9", "O@g9", "O@e7"]));
        // White.
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 w oh");
        let m = moves_set(&p);
        let h: BTreeSet<String> = m.iter().filter(|s| s.starts_with("H@")).cloned().collect();
        let o: BTreeSet<String> = m.iter().filter(|s| s.starts_with("O@")).cloned().collect();
        assert_eq!(h, set_of(&["H@c3", "H@g3"]));
        assert_eq!(o, set_of(&["O@c1", "O@g1", "O@e3"]));
        // Near the edge: King a9 -> H only from c7, O from a7 and c9.
        let p = pos("k8/9/9/9/9/9/9/9/4K4 b OH");
        let m = moves_set(&p);
        let ho: BTreeSet<String> = m
            .iter()
            .filter(|s| s.starts_with("H@") || s.starts_with("O@"))
            .cloned()
            .collect();
        assert_eq!(ho, set_of(&["H@c7", "O@a7", "O@c9"]));
        // Other pieces may be dropped anywhere (no check needed).
        let p = pos("4k4/9/9/9/9/9/9/9/4K4 b (PD)");
        assert_eq!(count_prefix(&moves_set(&p), "PD@"), 79);
        // A checking H drop that does not cure own check is illegal:
        // Black King e1 is in check from the lance e5; only King moves help.
        let p = pos("4k4/9/9/9/4l4/9/9/9/4K4 b H");
        assert!(p.is_in_check());
        assert_eq!(moves_set(&p), set_of(&["e1d1", "e1f1", "e1d2", "e1f2"]));
    }

    #[test]
    fn moving_into_check_is_illegal() {
        // White Gold on e3 covers d2, e2, f2 (and d3, f3, e4).
        let p = pos("4k4/9/9/9/9/9/4g4/9/4K4 b -");
        assert_eq!(moves_set(&p), set_of(&["e1d1", "e1f1"]));
        assert!(p.play("e1e2").is_err());
        // Pinned Gold on e2 (White Lance on e7): may only move along the file.
        let p = pos("4k4/9/4l4/9/9/9/9/4G4/4K4 b -");
        assert_eq!(
            moves_set(&p),
            set_of(&["e2e3", "e1d1", "e1f1", "e1d2", "e1f2"])
        );
        // King may not step next to... a square attacked by a jumper (PD e5
        // attacks e3, c3, g3 ...): King e2 -> d1 e1 f1 d2 f2 d3 f3, e3 excluded.
        let p = pos("8k/9/9/9/4(pd)4/9/9/4K4/9 b -");
        let m = moves_set(&p);
        assert_eq!(m.len(), 7);
        assert!(!m.contains("e2e3"));
        // Drops must block a check from a slider if possible: Lance e5 checks e1.
        let p = pos("4k4/9/9/9/4l4/9/9/9/4K4 b G");
        let m = moves_set(&p);
        let drops: BTreeSet<String> = m.iter().filter(|s| s.contains('@')).cloned().collect();
        assert_eq!(drops, set_of(&["G@e2", "G@e3", "G@e4"]));
    }

    #[test]
    fn no_legal_moves_when_mated() {
        // Black King a1 mated: White Gold b2 protected by White Silver c3.
        let p = pos("4k4/9/9/9/9/9/2s6/1g7/K8 b -");
        assert!(p.is_in_check());
        assert!(p.legal_moves().is_empty());
        assert_eq!(p.perft(1), 0);
        assert_eq!(p.perft(3), 0);
    }

    // ----- symmetry checks ------------------------------------------------

    /// Rotate the board by 180 degrees and swap colours, hands and side to
    /// move: the result is the same game seen from the other player.
    fn color_reversed(p: &RefPosition) -> RefPosition {
        let mut q = p.clone();
        for sq in Sq::all() {
            let from = Sq {
                x: 8 - sq.x,
                y: 8 - sq.y,
            };
            q.set(
                sq,
                p.at(from).map(|pc| Piece {
                    color: pc.color.other(),
                    kind: pc.kind,
                }),
            );
        }
        q.hands = [p.hands[1], p.hands[0]];
        q.side = p.side.other();
        q
    }

    /// Reflect the board left-right (file a <-> file i).
    fn mirrored(p: &RefPosition) -> RefPosition {
        let mut q = p.clone();
        for sq in Sq::all() {
            q.set(
                sq,
                p.at(Sq {
                    x: 8 - sq.x,
                    y: sq.y,
                }),
            );
        }
        q
    }

    /// Map every square in a move text through `f`.
    fn map_move(mv: &str, f: fn(u8, u8) -> (u8, u8)) -> String {
        let map_sq = |sq: &str| {
            let b = sq.as_bytes();
            let (file, rank) = f(b[0], b[1]);
            format!("{}{}", file as char, rank as char)
        };
        if let Some(at) = mv.find('@') {
            format!("{}@{}", &mv[..at], map_sq(&mv[at + 1..at + 3]))
        } else {
            let suffix = &mv[4..];
            format!("{}{}{}", map_sq(&mv[0..2]), map_sq(&mv[2..4]), suffix)
        }
    }

    fn rotate_sq(file: u8, rank: u8) -> (u8, u8) {
        (b'a' + (b'i' - file), b'1' + (b'9' - rank))
    }

    fn mirror_sq(file: u8, rank: u8) -> (u8, u8) {
        (b'a' + (b'i' - file), rank)
    }

    fn assert_symmetric(p: &RefPosition) {
        let moves = moves_set(p);
        let rot: BTreeSet<String> = moves.iter().map(|m| map_move(m, rotate_sq)).collect();
        assert_eq!(
            rot,
            moves_set(&color_reversed(p)),
            "colour reversal of {}",
            p.to_fen()
        );
        let mir: BTreeSet<String> = moves.iter().map(|m| map_move(m, mirror_sq)).collect();
        assert_eq!(mir, moves_set(&mirrored(p)), "mirror of {}", p.to_fen());
    }

    #[test]
    fn start_is_symmetric() {
        let start = RefPosition::start();
        assert_eq!(color_reversed(&start).to_fen(), "2g1k1g2/2(so)1(pd)1(so)2/3(so)(so)(so)3/9/9/9/3(SO)(SO)(SO)3/2(SO)1(PD)1(SO)2/2G1K1G2 w T(SH)2S2N2LOHt(sh)2s2n2loh");
        assert_eq!(mirrored(&start), start);
        assert_symmetric(&start);
        // perft(2) with White to move in the (colour-symmetric) start position.
        assert_eq!(color_reversed(&start).perft(2), START_PERFT2);
        // Mirror-image first moves have the same number of replies.
        let divide = start.perft_divide(2);
        let lookup: std::collections::BTreeMap<String, u64> = divide.iter().cloned().collect();
        for (mv, n) in &divide {
            assert_eq!(lookup[&map_move(mv, mirror_sq)], *n, "{}", mv);
        }
    }

    /// Move generation commutes with colour reversal and with the left-right
    /// mirror, in every position of some pseudo-random games.
    #[test]
    fn symmetry_in_random_games() {
        let mut seed: u64 = 42;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        for _game in 0..4 {
            let mut p = RefPosition::start();
            for _ply in 0..120 {
                assert_symmetric(&p);
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p = p.play(&moves[next() % moves.len()]).unwrap();
            }
        }
    }
}
