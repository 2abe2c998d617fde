//! Slow, deliberately simple, independent reference move generator for Shoko, Gyaku-sama and
//! Hook Shogi, used by tests to cross-check the fast generic rules core.
//!
//! It shares no code and no data with the rules core: the piece lists below are the seeds'
//! Interactive Diagram definitions copied verbatim (`name:ID:XBetza:image:setup squares`), not
//! the variant TOML files, and the rules are written here from `shared/rules/README.md` and the
//! seeds' prose. Everything is done the naive way:
//!   * the board is a `Vec<Option<Pc>>` of (file, rank) squares; a piece names its definition
//!     line;
//!   * a piece's moves come from interpreting its XBetza string afresh at every call: the string
//!     is split into components and legs, direction letters become sets of the eight compass
//!     directions, and a recursive walk follows the legs over the board (rules of the notation
//!     as summarised in `shared/rules/xbetza.md` and the XBoard findings, with the readings the
//!     seeds' prose needs: modality letters in any order, `Xh` half-planes on K and Q, `rv`/`lv`
//!     on B as the right/left pair, `mpy` as "any square, then toggle", `U` any square);
//!   * the capture-promotion, switchback, contagion, last-rank, captureMatrix, royal, Emperor,
//!     turn-skip and check rules are applied to that raw move list by plain functions that
//!     recognise pieces by their IDs and names in the definitions;
//!   * "attacks" means: some raw move of the side ends on, or kills on, the square.
//!
//! Coordinates: `x` = file from 0 (`a`), `y` = rank from 0 (rank 1). Black moves first;
//! forward is +y for Black, -y for White.

#![allow(dead_code)]

use std::collections::BTreeSet;

/// The three variants.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Game {
    Shoko,
    Gyaku,
    Hook,
}

/// Shoko Shogi (seed 001): the Interactive Diagram piece lines, verbatim.
const SHOKO_DEFINITION: &str = "\
pawn:P:fW:p:a4-m4\n\
go between:GB:vW:gb:d5,j5\n\
tile general:T:fFfW:t:b1,l1\n\
deva:DV:rbfFlW:dv:f1\n\
dark spirit:DS:lbfFrW:ds:h1\n\
copper general:C:fFvW:c:c1,k1\n\
evil wolf:EW:fFsfW:ew:e2,i2\n\
gold general:G:WfF:g:d1,j1\n\
blind tiger:BT:FsbW:bt:e1,i1\n\
flying horse:FH:F2:fh:d2\n\
flying dragon:FY:W2:fy:j2\n\
old kite:OK:F2sW:ok:c2\n\
poisonous snake:PS:W2fF:ps:k2\n\
kirin:KY:FD:ky:f2\n\
phoenix:PH:WA:ph:h2\n\
roaring dog:RD:KjQ3:rd:g2\n\
lance:L:fRbW2:l:a1,m1\n\
side mover:SM:vWsR:sm:a3,m3\n\
vertical chariot:VC:FvR:vc:a2,m2\n\
bishop:B:B:b:c3,k3\n\
rook:R:R:r:b3,l3\n\
dragon horse:DH:BW:dh:d3\n\
dragon king:DK:RF:dk:j3\n\
violent falcon:VF:BN:vf:e3\n\
fierce eagle:VE:RN:ve:i3\n\
lion dog:LD:KADGHcavKabKcmpafcavKcafcmpafK:ld:g3\n\
lion:LN:KNADcaKmcabK:ln:f3\n\
queen:Q:Q:q:h3\n\
tengu:TG:WBasB:tg:b2\n\
hook mover:HM:RasR:hm:l2\n\
king:K:K:k:g1\n\
tokin:+P:WfF:p2:\n\
drunk elephant:+GB:FsfW:gb2:\n\
vertical chariot:+T:FvR:t2:\n\
teaching king:+DV:QADGHcavKabKcmpafcavKcafcmpafK:dv2:\n\
divine spirit:+DS:QNADcaKmcabK:ds2:\n\
side mover:+C:vWsR:c2:\n\
free wolf:+EW:FvWsR:ew2:\n\
rook:+G:R:g2:\n\
flying stag:+BT:FsWvR:bt2:\n\
violent falcon:+FH:BN:fh2:\n\
fierce eagle:+FY:RN:fy2:\n\
tengu:+OK:WBasB:ok2:\n\
hook mover:+PS:RasR:ps2:\n\
lion:+KY:KNADcaKmcabK:ky2:\n\
queen:+PH:Q:ph2:\n\
lion dog:+RD:KADGHcavKabKcmpafcavKcafcmpafK:rd2:\n\
white horse:+L:fBvR:l2:\n\
free boar:+SM:BsR:sm2:\n\
free dream eater:+VC:BvRsW5:vc2:\n\
dragon horse:+B:BW:b2:\n\
dragon king:+R:RF:r2:\n\
horned falcon:+DH:BsbRfWfDfcavWfabW:dh2:\n\
soaring eagle:+DK:RbBfFfAfcavFfabF:dk2:\n\
great falcon:+VF:BjBsbRjsbRshbmpafmpyafKfWfDfHfcavWfabWfcmpafcavWfcafcmpafW:vf2:\n\
great eagle:+VE:RjRbBjbBbfbhsmpafmpyafKfFfAfGfcavFfabFfcmpafcavFfcafcmpafF:ve2:\n\
great elephant:+LD:KNADGHcaKmcabKcmpafcavKcafcmpafK:ld2:\n\
lion hawk:+LN:BWNADcaKmcabK:ln2:\n\
free eagle:+Q:QADcaFmcabF:q2:\n\
";
/// Gyaku-sama Shogi (seed 003): the pieces of the one-line definition, verbatim, one a line.
const GYAKU_DEFINITION: &str = "\
pawn:P:fW:p:a4-m4\n\
dog:D:bFfW:d:d5,j5\n\
knight:N:N:n:b1,l1\n\
silver general:S:FfW:s:d1,j1\n\
blind tiger:BT:FsbW:bt:f1,h1\n\
ferocious leopard:FL:FvW:fl:c1,k1\n\
gold general:G:WfF:g:e1,i1\n\
lance:L:fRbW2:l:a1,m1\n\
kirin:KY:FD:ky:c2\n\
phoenix:PH:WA:ph:j2\n\
vertical mover:VM:WvR:vm:a2,m2\n\
bishop:B:B:b:c3,k3\n\
side soldier:SS:WsRfnD:ss:a3,m3\n\
rook:R:R:r:b3,l3\n\
dragon horse:DH:BW:dh:d3,j3\n\
dragon king:DK:RF:dk:e3,i3\n\
chariot soldier:CS:BvRWnD:cs:d2\n\
lion:LN:KNADcaKmcabK:ln:f2\n\
queen:Q:Q:q:h2\n\
bishop general:BG:pafpafcBmcBcpB:bg:f3\n\
rook general:RG:pafpafcRmcRcpR:rg:g3\n\
water buffalo:WB:BsRWnD:wb:k2\n\
vice general:VG:pafpafcBmcBcpBKaKaaKmabK:vg:h3\n\
fire demon:FD:BsRKaKaaKmabKcavKcafmafKmafcavK:fd:g2\n\
tokin:+P:WfF:p2:\n\
multi general:+D:bBfR:d2:\n\
side soldier:+N:WsRfnD:n2:\n\
vertical mover:+S:WvR:s2:\n\
flying stag:+BT:KvR:bt2:\n\
bishop:+FL:B:fl2:\n\
rook:+G:R:g2:\n\
white horse:+L:fBvR:l2:\n\
lion:+KY:KNADcaKmcabK:ky2:\n\
queen:+PH:Q:ph2:\n\
flying ox:+VM:BvR:vm2:\n\
dragon horse:+B:BW:b2:\n\
water buffalo:+SS:BsRWnD:ss2:\n\
dragon king:+R:RF:r2:\n\
horned falcon:+DH:BbsRfWfDfcavWfmabW:dh2:\n\
soaring eagle:+DK:RbBfFfAfcavFfmabF:dk2:\n\
heavenly tetrarch:+CS:jsR3jBjvRcabK:cs2:\n\
lion hawk:+LN:BWNADcaKmcabK:ln2:\n\
free eagle:+Q:QADcasFcafFmcabF:q2:\n\
vice general:+BG:pafpafcBmcBcpBKaKaaKmabK:bg2:\n\
great general:+RG:pafpafcQmcQcpQ:rg2:\n\
fire demon:+WB:BsRKaKaaKmabKcavKcafmafKmafcavK:wb2:\n\
king:K:K:k:g1\n\
";
/// Hook Shogi (seed 000): the pieces of the one-line definition, verbatim, one a line.
const HOOK_DEFINITION: &str = "\
pawn:P:fW:p:a6-s6\n\
dog:D:bFfW:d:f7,n7\n\
knight:N:N:n:c4,q4\n\
earth general:E:vW:e:b1,r1\n\
stone general:O:fF:o:c1,q1\n\
tile general:T:fFbW:t:d1,p1\n\
iron general:I:fFfW:i5:e1,o1\n\
copper general:C:fFvW:c:f1,n1\n\
silver general:S:FfW:s:g1,m1\n\
blind tiger:BT:FsbW:bt:i2,k2\n\
ferocious leopard:FL:FvW:fl:h2,l2\n\
gold general:G:WfF:g:h1,l1\n\
cat sword:CT:F:ct:c2,q2\n\
angry boar:AB:W:ab:d3,p3\n\
evil wolf:EW:fFfsW:ew:h3,l3\n\
coiled serpent:CO:bFvW:co:g2\n\
blind dog:BD:fFsbW:bd:e2\n\
old monkey:OM:FbW:om:o2\n\
reclining dragon:RN:WbF:rn:m2\n\
flying horse:FH:F2:fh:g4,m4\n\
flying dragon:FY:W2:fy:e4,o4\n\
roaring dog:RD:K3:rd:a4,s4\n\
reverse chariot:RV:vR:rv:a2,s2\n\
lance:L:fRbW2:l:a1,s1\n\
kirin:KY:FD:ky:h4,l4\n\
phoenix:PH:WA:ph:i3,k3\n\
warrior:WR:WfFA:wr:i4\n\
poisonous snake:PS:FvWD:ps:k4\n\
left chariot:LC:fRbWflbrB:lc:b5\n\
right chariot:RC:fRbWfrblB:rc:r5\n\
side mover:SM:WsR:sm:c5,q5\n\
vertical mover:VM:WvR:vm:e5,o5\n\
bishop:B:B:b:f5,n5\n\
rook:R:R:r:a5,s5\n\
side chariot:SC:sRvW2:sc:d5,p5\n\
vertical chariot:VC:vRsW2:vc:f3,n3\n\
dragon horse:DH:BW:dh:g5,m5\n\
dragon king:DK:RF:dk:h5,l5\n\
fire dragon:F:RfB4bB2:f:b3,r3\n\
water dragon:W:RbB4fB2:w:a3,s3\n\
earth dragon:H:BsR4vR2:h:b2,r2\n\
wind dragon:A:BvR4sR2:a:b4,r4\n\
lion:LN:KNADcaKmcabK:ln:j3\n\
lion dog:LD:KADGHcafKmcabKcafmpafKmpafcavKcafcafK:ld:j4\n\
queen:Q:Q:q:j5\n\
deva:DV:lfbFW:dv:i1\n\
dark spirit:DS:rfbFW:ds:k1\n\
drunk elephant:DE:FsfW:de:j2\n\
king:K:K:k:j1\n\
tengu:TG:WBmasB:tg:i5\n\
hook mover:HM:RmasR:hm:k5\n\
tokin:+P:WfF:p2:\n\
multi general:+D:bBfR:d2:\n\
side soldier:+N:WsRfW2:n2:\n\
reverse chariot:+E:vR:e2:\n\
side chariot:+O:sRvW2:o2:\n\
vertical chariot:+T:vRsW2:t2:\n\
vertical soldier:+I:WfRsW2:i2:\n\
side mover:+C:WsR:c2:\n\
vertical mover:+S:WvR:s2:\n\
flying stag:+BT:KvR:bt2:\n\
bishop:+FL:B:fl2:\n\
rook:+G:R:g2:\n\
free cat:+CT:B:ct2:\n\
running boar:+AB:R:ab2:\n\
free wolf:+EW:KsR:ew2:\n\
free serpent:+CO:bBvR:co2:\n\
wizard stork:+BD:BsfRbW:bd2:\n\
mountain witch:+OM:BsbRfW:om2:\n\
free dragon:+RN:RbB:rn2:\n\
violent falcon:+FH:BN:fh2:\n\
fierce eagle:+FY:RN:fy2:\n\
lion dog:+RD:KADGHcafKmcabKcafmpafKmpafcavKcafcafK:rd2:\n\
whale:+RV:bBvR:rv2:\n\
white horse:+L:fBvR:l2:\n\
lion:+KY:KNADcaKmcabK:ky2:\n\
queen:+PH:Q:ph2:\n\
tengu:+WR:WBmasB:wr2:\n\
hook mover:+PS:RmasR:ps2:\n\
left army:+LC:KrvBrR:lc2:\n\
right army:+RC:KlvBlR:rc2:\n\
free boar:+SM:BsR:sm2:\n\
flying ox:+VM:BvR:vm2:\n\
dragon horse:+B:BW:b2:\n\
dragon king:+R:RF:r2:\n\
free demon:+SC:BsRvW5:sc2:\n\
free dream eater:+VC:BvRsW5:vc2:\n\
horned falcon:+DH:BbsRfWfDfcavWfmabW:dh2:\n\
soaring eagle:+DK:RbBfFfAfcavFfmabF:dk2:\n\
kirin master:+F:BbsRfWfDfHfcafWfmcabWfcafmpafWfmpafcavWfcafcafW:f2:\n\
phoenix master:+W:RbBfFfAfGfcafFfmcabFfcafmpafFfmpafcavFfcafcafF:w2:\n\
earthward net:+H:BWaKmabK:h2:\n\
skyward net:+A:RFaKmabK:a2:\n\
lion hawk:+LN:BWNADcaKmcabK:ln2:\n\
furious fiend:+LD:KNADGHcaKmcabKcafmpafKmpafcavKcafcafK:ld2:\n\
free eagle:+Q:QADcasFcafFmcabF:q2:\n\
teaching king:+DV:QADGHcafKmcabKcafmpafKmpafcavKcafcafK:dv2:\n\
divine dragon:+DS:QNADcaKmcabK:ds2:\n\
crown prince:+DE:K:de2:\n\
emperor:+K:U:k2:\n\
";

// ---------------------------------------------------------------------------
// Piece definitions and the per-variant rules
// ---------------------------------------------------------------------------

/// One definition line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Def {
    pub name: &'static str,
    pub id: &'static str,
    pub betza: &'static str,
    pub squares: &'static str,
}

fn definitions(game: Game) -> Vec<Def> {
    let text = match game {
        Game::Shoko => SHOKO_DEFINITION,
        Game::Gyaku => GYAKU_DEFINITION,
        Game::Hook => HOOK_DEFINITION,
    };
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&'static str> = l.split(':').collect();
            assert_eq!(f.len(), 5, "definition line {l}");
            Def {
                name: f[0],
                id: f[1],
                betza: f[2],
                squares: f[4],
            }
        })
        .collect()
}

impl Game {
    pub fn id(self) -> &'static str {
        match self {
            Game::Shoko => "shoko-shogi",
            Game::Gyaku => "gyaku-sama-shogi",
            Game::Hook => "hook-shogi",
        }
    }

    fn size(self) -> i32 {
        match self {
            Game::Shoko | Game::Gyaku => 13,
            Game::Hook => 19,
        }
    }

    /// Royal pieces (Shoko `royal=31`, Hook `royal=49 royal=99 royal=100`, Gyaku-sama's prose).
    fn is_royal(self, id: &str) -> bool {
        match self {
            Game::Shoko | Game::Gyaku => id == "K",
            Game::Hook => matches!(id, "K" | "+DE" | "+K"),
        }
    }

    /// Most turn skips in a row.
    fn max_skips(self) -> u8 {
        match self {
            Game::Shoko | Game::Hook => 1,
            Game::Gyaku => 3,
        }
    }

    /// Most checking moves in a row (Gyaku-sama only).
    fn max_checks(self) -> Option<u8> {
        match self {
            Game::Gyaku => Some(3),
            _ => None,
        }
    }

    /// Shoko's captureMatrix: Hook Movers and Tengus (by name, promoted ones included) cannot
    /// capture Hook Movers and Tengus.
    fn capture_forbidden(self, mover: &Def, victim: &Def) -> bool {
        let hooky = |d: &Def| d.name == "hook mover" || d.name == "tengu";
        self == Game::Shoko && hooky(mover) && hooky(victim)
    }

    /// What capturing `victim` turns a (non-exempt) capturer into.
    fn contagion(self, victim: &str) -> Option<&'static str> {
        match (self, victim) {
            (Game::Shoko | Game::Hook, "DV" | "+DV") => Some("+DV"),
            (Game::Shoko | Game::Hook, "DS" | "+DS") => Some("+DS"),
            _ => None,
        }
    }

    /// Pieces that ignore contagion: Shoko's King; Hook's royal and potentially royal pieces.
    fn contagion_exempt(self, id: &str) -> bool {
        match self {
            Game::Shoko => id == "K",
            Game::Hook => matches!(id, "K" | "DE" | "+DE" | "+K"),
            Game::Gyaku => false,
        }
    }

    /// Pieces that may promote on a non-capture reaching the last rank.
    fn last_rank_option(self, id: &str) -> bool {
        match self {
            Game::Shoko => false,
            Game::Gyaku => id == "P",
            Game::Hook => matches!(id, "P" | "O" | "I"),
        }
    }

    /// Gyaku-sama: pieces named King, Fire Demon, Vice General or Tokin never flip.
    fn never_flips(self, d: &Def) -> bool {
        self == Game::Gyaku && matches!(d.name, "king" | "fire demon" | "vice general" | "tokin")
    }
}

// ---------------------------------------------------------------------------
// Colours, pieces, squares
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

    fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }
}

/// A piece: index into the definitions, and owner.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pc {
    def: usize,
    color: Color,
}

type Sq = (i32, i32);

fn sq_text((x, y): Sq) -> String {
    format!("{}{}", (b'a' + x as u8) as char, y + 1)
}

/// The eight directions, clockwise from forward (for Black): f fr r br b bl l fl.
const UNIT: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

// ---------------------------------------------------------------------------
// XBetza, read afresh at every call
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, Default)]
struct LegText {
    dirs: Vec<char>,
    m: bool,
    c: bool,
    p: bool,
    g: bool,
    y: bool,
    j: bool,
    n: bool,
}

#[derive(Clone, Debug)]
struct Component {
    legs: Vec<LegText>,
    atom: char,
    range: Option<u32>,
}

fn components(betza: &str) -> Vec<Component> {
    let chars: Vec<char> = betza.chars().collect();
    let mut out = Vec::new();
    let mut legs = Vec::new();
    let mut cur = LegText::default();
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        match ch {
            'a' => legs.push(std::mem::take(&mut cur)),
            'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => cur.dirs.push(ch),
            'm' => cur.m = true,
            'c' => cur.c = true,
            'p' => cur.p = true,
            'g' => cur.g = true,
            'y' => cur.y = true,
            'j' => cur.j = true,
            'n' => cur.n = true,
            'A'..='Z' => {
                legs.push(std::mem::take(&mut cur));
                let mut j = i + 1;
                let mut digits = String::new();
                while j < chars.len() && chars[j].is_ascii_digit() {
                    digits.push(chars[j]);
                    j += 1;
                }
                out.push(Component {
                    legs: std::mem::take(&mut legs),
                    atom: ch,
                    range: if digits.is_empty() {
                        None
                    } else {
                        Some(digits.parse().unwrap())
                    },
                });
                i = j;
                continue;
            }
            _ => panic!("unexpected '{ch}' in {betza}"),
        }
        i += 1;
    }
    assert!(
        legs.is_empty() && cur.dirs.is_empty(),
        "dangling legs in {betza}"
    );
    out
}

/// Length of one step of an atom along its line, and whether it is orthogonal (W-like),
/// diagonal (F-like) or both (K-like).
fn atom_shape(atom: char) -> (i32, &'static str) {
    match atom {
        'W' | 'R' => (1, "orth"),
        'D' => (2, "orth"),
        'H' => (3, "orth"),
        'F' | 'B' => (1, "diag"),
        'A' => (2, "diag"),
        'G' => (3, "diag"),
        'K' | 'Q' => (1, "both"),
        'N' => (1, "knight"),
        _ => panic!("atom {atom}"),
    }
}

fn default_range(c: &Component) -> u32 {
    let rider = matches!(c.atom, 'R' | 'B' | 'Q');
    match c.range {
        Some(0) => u32::MAX,
        Some(n) => n,
        None if rider => u32::MAX,
        None => 1,
    }
}

fn vertical(ch: char) -> bool {
    matches!(ch, 'f' | 'b' | 'v')
}

fn sideways(ch: char) -> bool {
    matches!(ch, 'l' | 'r' | 's')
}

fn crossing(a: char, b: char) -> bool {
    (vertical(a) && sideways(b)) || (sideways(a) && vertical(b))
}

/// The straight direction(s) a letter names.
fn narrow(ch: char) -> Vec<usize> {
    match ch {
        'f' => vec![0],
        'r' => vec![2],
        'b' => vec![4],
        'l' => vec![6],
        'v' => vec![0, 4],
        's' => vec![2, 6],
        _ => panic!("direction {ch}"),
    }
}

/// The three directions on a side (half-plane of the K system).
fn half(ch: char) -> Vec<usize> {
    match ch {
        'f' => vec![7, 0, 1],
        'r' => vec![1, 2, 3],
        'b' => vec![3, 4, 5],
        'l' => vec![5, 6, 7],
        'v' => vec![7, 0, 1, 3, 4, 5],
        's' => vec![1, 2, 3, 5, 6, 7],
        _ => panic!("direction {ch}"),
    }
}

/// The diagonal pair on a side (v and s: all four).
fn diagonal_pair(ch: char) -> Vec<usize> {
    match ch {
        'f' => vec![7, 1],
        'r' => vec![1, 3],
        'b' => vec![3, 5],
        'l' => vec![5, 7],
        'v' | 's' => vec![1, 3, 5, 7],
        _ => panic!("direction {ch}"),
    }
}

fn both(a: &[usize], b: &[usize]) -> Vec<usize> {
    a.iter().copied().filter(|d| b.contains(d)).collect()
}

/// Directions of the K system named by `letters` (K and Q first legs, every continuation leg):
/// a letter alone is its straight direction, `Xh` the half-plane, an f/b/l/r letter followed by
/// a crossing letter the directions the two share, a doubled letter the straight one.
fn king_directions(letters: &[char]) -> Vec<usize> {
    let mut set = Vec::new();
    let mut i = 0;
    while i < letters.len() {
        let a = letters[i];
        let next = letters.get(i + 1).copied();
        if next == Some('h') {
            set.extend(half(a));
            i += 2;
        } else if matches!(a, 'f' | 'b' | 'l' | 'r') && next.is_some_and(|b| crossing(a, b)) {
            set.extend(both(&half(a), &half(next.unwrap())));
            i += 2;
        } else if next == Some(a) {
            set.extend(narrow(a));
            i += 2;
        } else {
            set.extend(narrow(a));
            i += 1;
        }
    }
    set.sort();
    set.dedup();
    set
}

/// Absolute directions of a first leg.
fn first_directions(atom: char, letters: &[char]) -> Vec<usize> {
    let (_, shape) = atom_shape(atom);
    let mut set: Vec<usize> = match shape {
        "orth" => {
            if letters.is_empty() {
                vec![0, 2, 4, 6]
            } else {
                letters.iter().flat_map(|&c| narrow(c)).collect()
            }
        }
        "diag" => {
            if letters.is_empty() {
                vec![1, 3, 5, 7]
            } else {
                let mut s = Vec::new();
                let mut i = 0;
                while i < letters.len() {
                    let a = letters[i];
                    match letters.get(i + 1) {
                        Some(&b) if crossing(a, b) => {
                            s.extend(both(&diagonal_pair(a), &diagonal_pair(b)));
                            i += 2;
                        }
                        _ => {
                            s.extend(diagonal_pair(a));
                            i += 1;
                        }
                    }
                }
                s
            }
        }
        "both" => {
            if letters.is_empty() {
                (0..8).collect()
            } else {
                king_directions(letters)
            }
        }
        _ => {
            assert!(letters.is_empty(), "directions on N are not used here");
            (0..8).collect()
        }
    };
    set.sort();
    set.dedup();
    set
}

/// Turns (eighths clockwise, 0 = straight on) allowed to a continuation leg.
fn turns(atom: char, letters: &[char]) -> Vec<usize> {
    if letters.is_empty() {
        let (_, shape) = atom_shape(atom);
        if shape == "both" || shape == "knight" {
            vec![0, 1, 2, 3, 5, 6, 7]
        } else {
            vec![0, 2, 6]
        }
    } else {
        king_directions(letters)
    }
}

/// A pseudo-legal move: its text, its raw path and the definition the mover ends as.
#[derive(Clone, Debug)]
struct Cand {
    text: String,
    raw: Raw,
    end: usize,
}

/// One raw move: origin, kill squares in path order, destination.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Raw {
    from: Sq,
    kills: Vec<Sq>,
    to: Sq,
}

// ---------------------------------------------------------------------------
// Position
// ---------------------------------------------------------------------------

#[derive(Clone)]
pub struct RefPosition {
    pub game: Game,
    defs: Vec<Def>,
    board: Vec<Option<Pc>>,
    side: Color,
    ply: u32,
    skips: [u8; 2],
    checks: [u8; 2],
}

impl std::fmt::Debug for RefPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} {}", self.game, self.to_fen())
    }
}

impl PartialEq for RefPosition {
    fn eq(&self, o: &Self) -> bool {
        self.game == o.game
            && self.board == o.board
            && self.side == o.side
            && self.ply == o.ply
            && self.skips == o.skips
            && self.checks == o.checks
    }
}

struct Walk<'a> {
    pos: &'a RefPosition,
    comp: &'a Component,
    from: Sq,
    color: Color,
    out: &'a mut Vec<Raw>,
}

impl Walk<'_> {
    /// What stands on `s` during the move: the origin counts as empty.
    fn at(&self, s: Sq) -> Option<Pc> {
        if s == self.from {
            None
        } else {
            self.pos.at(s)
        }
    }

    fn emit(&mut self, kills: &[Sq], to: Sq) {
        let mut k: Vec<Sq> = Vec::new();
        for &s in kills {
            if s != to && !k.contains(&s) {
                k.push(s);
            }
        }
        self.out.push(Raw {
            from: self.from,
            kills: k,
            to,
        });
    }

    /// Leg `i` starts on `cur`, the previous leg having gone along `prev`; `range` is this
    /// leg's range (after any toggles).
    fn leg(&mut self, i: usize, cur: Sq, prev: Option<usize>, range: u32, kills: &mut Vec<Sq>) {
        let comp = self.comp;
        let spec = &comp.legs[i];
        let last = i + 1 == comp.legs.len();
        let (len, shape) = atom_shape(comp.atom);
        let fwd = if self.color == Color::Black { 1 } else { -1 };
        // Range of the following legs: a g or y toggles leaper and slider.
        let next_range = if spec.g || spec.y {
            if range == 1 {
                u32::MAX
            } else {
                1
            }
        } else {
            range
        };
        let vectors: Vec<(usize, (i32, i32))> = if shape == "knight" {
            assert!(i == 0 && last, "N legs are single here");
            [
                (1, 2),
                (2, 1),
                (2, -1),
                (1, -2),
                (-1, -2),
                (-2, -1),
                (-2, 1),
                (-1, 2),
            ]
            .iter()
            .enumerate()
            .map(|(d, &(x, y))| (d, (x * fwd, y * fwd)))
            .collect()
        } else {
            let dirs: Vec<usize> = match prev {
                None => first_directions(comp.atom, &spec.dirs),
                Some(p) => turns(comp.atom, &spec.dirs)
                    .into_iter()
                    .map(|t| (p + t) % 8)
                    .collect(),
            };
            dirs.into_iter()
                .map(|d| {
                    // Continuation directions are already absolute; first legs turn for White.
                    let (x, y) = UNIT[d];
                    let v = if prev.is_none() {
                        (x * fwd, y * fwd)
                    } else {
                        (x, y)
                    };
                    (d, v)
                })
                .collect()
        };
        for (d, unit) in vectors {
            // The absolute direction index, for the next leg's turns.
            let abs = if prev.is_none() && self.color == Color::White {
                (d + 4) % 8
            } else {
                d
            };
            // A leg's default modality: a final leg moves or captures, a non-final one moves.
            let plain = !(spec.m || spec.c || spec.p || spec.g || spec.y);
            let may_move = spec.m || spec.y || plain;
            let may_capture = spec.c || (plain && last);
            let hop = spec.p || spec.g;
            if range == 1 {
                let t = (cur.0 + unit.0 * len, cur.1 + unit.1 * len);
                if !self.pos.on_board(t) {
                    continue;
                }
                let between: Vec<Sq> = (1..len)
                    .map(|k| (cur.0 + unit.0 * k, cur.1 + unit.1 * k))
                    .collect();
                let occupied = between.iter().filter(|&&b| self.at(b).is_some()).count();
                if spec.n && occupied > 0 {
                    continue;
                }
                if spec.j && occupied == 0 {
                    continue;
                }
                self.arrive(
                    i,
                    t,
                    abs,
                    last,
                    may_move,
                    may_capture,
                    hop,
                    next_range,
                    kills,
                );
            } else {
                let mut t = cur;
                let mut screened = false;
                let mut k = 0;
                while k < range {
                    k += 1;
                    t = (t.0 + unit.0, t.1 + unit.1);
                    if !self.pos.on_board(t) {
                        break;
                    }
                    if k == 1 && spec.j {
                        continue;
                    }
                    let q = self.at(t);
                    if last && hop && !screened {
                        // A cannon: pass empty squares, hop the first piece, then go on.
                        if q.is_some() {
                            screened = true;
                        }
                        continue;
                    }
                    let (mm, cc) = if last && hop {
                        // After the screen: default move-or-capture unless limited.
                        let limited = spec.m || spec.c;
                        (spec.m || !limited, spec.c || !limited)
                    } else {
                        (may_move, may_capture)
                    };
                    self.arrive(i, t, abs, last, mm, cc, hop && !last, next_range, kills);
                    if q.is_some() {
                        break;
                    }
                }
            }
        }
    }

    /// Leg `i` reaches `t` along direction `abs`.
    #[allow(clippy::too_many_arguments)]
    fn arrive(
        &mut self,
        i: usize,
        t: Sq,
        abs: usize,
        last: bool,
        may_move: bool,
        may_capture: bool,
        hop: bool,
        next_range: u32,
        kills: &mut Vec<Sq>,
    ) {
        let q = self.at(t);
        let enemy = q.is_some_and(|p| p.color != self.color);
        if last {
            if (q.is_none() && may_move) || (enemy && may_capture) {
                let k = kills.clone();
                self.emit(&k, t);
            }
            return;
        }
        match q {
            None => {
                if may_move {
                    self.leg(i + 1, t, Some(abs), next_range, kills);
                }
            }
            Some(_) => {
                if enemy && may_capture && !kills.contains(&t) {
                    kills.push(t);
                    self.leg(i + 1, t, Some(abs), next_range, kills);
                    kills.pop();
                }
                if hop {
                    self.leg(i + 1, t, Some(abs), next_range, kills);
                }
            }
        }
    }
}

impl RefPosition {
    fn size(&self) -> i32 {
        self.game.size()
    }

    fn on_board(&self, (x, y): Sq) -> bool {
        (0..self.size()).contains(&x) && (0..self.size()).contains(&y)
    }

    fn at(&self, (x, y): Sq) -> Option<Pc> {
        self.board[(y * self.size() + x) as usize]
    }

    fn set(&mut self, (x, y): Sq, p: Option<Pc>) {
        let n = self.size();
        self.board[(y * n + x) as usize] = p;
    }

    fn squares(&self) -> Vec<Sq> {
        let n = self.size();
        (0..n).flat_map(|y| (0..n).map(move |x| (x, y))).collect()
    }

    fn def_by_id(&self, id: &str) -> usize {
        self.defs
            .iter()
            .position(|d| d.id == id)
            .unwrap_or_else(|| panic!("no piece {id}"))
    }

    fn has_def(&self, id: &str) -> bool {
        self.defs.iter().any(|d| d.id == id)
    }

    /// The raw XBetza moves of the piece on `from`.
    fn raw_moves_from(&self, from: Sq) -> Vec<Raw> {
        let pc = self.at(from).expect("a piece");
        let def = self.defs[pc.def];
        let mut out = Vec::new();
        for comp in components(def.betza) {
            if comp.atom == 'U' {
                for t in self.squares() {
                    if t == from {
                        continue;
                    }
                    match self.at(t) {
                        None => out.push(Raw {
                            from,
                            kills: vec![],
                            to: t,
                        }),
                        Some(q) if q.color != pc.color => out.push(Raw {
                            from,
                            kills: vec![],
                            to: t,
                        }),
                        _ => {}
                    }
                }
                continue;
            }
            let range = default_range(&comp);
            let mut walk = Walk {
                pos: self,
                comp: &comp,
                from,
                color: pc.color,
                out: &mut out,
            };
            walk.leg(0, from, None, range, &mut Vec::new());
        }
        out.sort();
        out.dedup();
        out
    }

    /// Whether a raw move of `by` ends on or kills on `s`.
    fn attacks(&self, s: Sq, by: Color) -> bool {
        self.squares().into_iter().any(|f| {
            self.at(f).is_some_and(|p| p.color == by)
                && self
                    .raw_moves_from(f)
                    .iter()
                    .any(|m| (m.to == s && m.to != m.from) || m.kills.contains(&s))
        })
    }

    fn royal_squares(&self, c: Color) -> Vec<Sq> {
        self.squares()
            .into_iter()
            .filter(|&s| {
                self.at(s)
                    .is_some_and(|p| p.color == c && self.game.is_royal(self.defs[p.def].id))
            })
            .collect()
    }

    /// Whether some royal piece of `c` is attacked.
    fn in_check(&self, c: Color) -> bool {
        self.royal_squares(c)
            .into_iter()
            .any(|s| self.attacks(s, c.other()))
    }

    /// What the piece `mover` becomes after capturing `victims` (in move-text order).
    fn after_capture(&self, mover: usize, victims: &[usize]) -> usize {
        let game = self.game;
        let d = self.defs[mover];
        if !game.contagion_exempt(d.id) {
            // The last contagious victim decides.
            if let Some(c) = victims
                .iter()
                .rev()
                .find_map(|&v| game.contagion(self.defs[v].id))
            {
                return self.def_by_id(c);
            }
        }
        if game.never_flips(&d) {
            return mover;
        }
        let promoted = format!("+{}", d.id);
        if game == Game::Gyaku && d.id.starts_with('+') {
            return self.def_by_id(&d.id[1..]);
        }
        if !d.id.starts_with('+') && self.has_def(&promoted) {
            return self.def_by_id(&promoted);
        }
        mover
    }

    fn last_rank(&self, c: Color, (_, y): Sq) -> bool {
        match c {
            Color::Black => y == self.size() - 1,
            Color::White => y == 0,
        }
    }

    /// Pseudo-legal moves of the side to move.
    fn pseudo_legal(&self) -> Vec<Cand> {
        let us = self.side;
        let mut out = Vec::new();
        for from in self.squares() {
            let Some(pc) = self.at(from) else { continue };
            if pc.color != us {
                continue;
            }
            let def = self.defs[pc.def];
            for raw in self.raw_moves_from(from) {
                let mut victims: Vec<usize> =
                    raw.kills.iter().map(|&k| self.at(k).unwrap().def).collect();
                if raw.to != from {
                    if let Some(q) = self.at(raw.to) {
                        victims.push(q.def);
                    }
                }
                if victims
                    .iter()
                    .any(|&v| self.game.capture_forbidden(&def, &self.defs[v]))
                {
                    continue;
                }
                let text = move_text(&raw);
                let cand = |text: String, end: usize| Cand {
                    text,
                    raw: raw.clone(),
                    end,
                };
                if !victims.is_empty() {
                    let end = self.after_capture(pc.def, &victims);
                    let suffix = if end != pc.def { "+" } else { "" };
                    out.push(cand(format!("{text}{suffix}"), end));
                } else if self.game.last_rank_option(def.id)
                    && raw.to != from
                    && self.last_rank(us, raw.to)
                {
                    let promoted = self.def_by_id(&format!("+{}", def.id));
                    out.push(cand(format!("{text}+"), promoted));
                    out.push(cand(format!("{text}="), pc.def));
                } else {
                    out.push(cand(text, pc.def));
                }
            }
        }
        out
    }

    /// The position after `raw`, the mover ending as definition `end`; counters updated.
    fn apply_raw(&self, raw: &Raw, end: usize) -> RefPosition {
        let us = self.side;
        let mut p = self.clone();
        p.set(raw.from, None);
        for &k in &raw.kills {
            p.set(k, None);
        }
        p.set(
            raw.to,
            Some(Pc {
                def: end,
                color: us,
            }),
        );
        p.side = us.other();
        p.ply += 1;
        let skip = raw.from == raw.to && raw.kills.is_empty();
        p.skips[us.index()] = if skip { self.skips[us.index()] + 1 } else { 0 };
        if self.game.max_checks().is_some() {
            let check = p.in_check(us.other());
            p.checks[us.index()] = if check {
                self.checks[us.index()] + 1
            } else {
                0
            };
        }
        p
    }

    /// The position after a candidate move.
    fn apply(&self, c: &Cand) -> RefPosition {
        self.apply_raw(&c.raw, c.end)
    }

    /// The legal moves.
    fn legal(&self) -> Vec<Cand> {
        let us = self.side;
        if self.royal_squares(us).is_empty() || self.royal_squares(us.other()).is_empty() {
            return Vec::new();
        }
        let mut moves = self.pseudo_legal();
        // No more turn skips in a row than the variant allows.
        if self.skips[us.index()] >= self.game.max_skips() {
            moves.retain(|c| !(c.raw.from == c.raw.to && c.raw.kills.is_empty()));
        }
        // No more checks in a row than the variant allows.
        if let Some(max) = self.game.max_checks() {
            if self.checks[us.index()] >= max {
                moves.retain(|c| !self.apply(c).in_check(us.other()));
            }
        }
        // Hook's Emperor may not capture a protected royal piece.
        if self.game == Game::Hook {
            moves.retain(|c| {
                let (from, to) = (c.raw.from, c.raw.to);
                let mover = self.at(from).unwrap();
                let victim = if to != from { self.at(to) } else { None };
                let emperor = self.defs[mover.def].id == "+K";
                let royal_victim = victim.is_some_and(|v| self.game.is_royal(self.defs[v.def].id));
                !(emperor && royal_victim && self.apply(c).attacks(to, us.other()))
            });
        }
        moves.sort_by(|a, b| a.text.cmp(&b.text));
        moves.dedup_by(|a, b| a.text == b.text);
        moves
    }

    // -----------------------------------------------------------------------
    // Public interface
    // -----------------------------------------------------------------------

    pub fn start(game: Game) -> RefPosition {
        let defs = definitions(game);
        let n = game.size();
        let mut p = RefPosition {
            game,
            defs: defs.clone(),
            board: vec![None; (n * n) as usize],
            side: Color::Black,
            ply: 0,
            skips: [0; 2],
            checks: [0; 2],
        };
        for (i, d) in defs.iter().enumerate() {
            for part in d.squares.split(',').filter(|s| !s.is_empty()) {
                let squares: Vec<Sq> = match part.split_once('-') {
                    None => vec![parse_sq(part).unwrap()],
                    Some((a, b)) => {
                        let (a, b) = (parse_sq(a).unwrap(), parse_sq(b).unwrap());
                        assert_eq!(a.1, b.1, "ranges along a rank");
                        (a.0..=b.0).map(|x| (x, a.1)).collect()
                    }
                };
                for s in squares {
                    p.set(
                        s,
                        Some(Pc {
                            def: i,
                            color: Color::Black,
                        }),
                    );
                    p.set(
                        (n - 1 - s.0, n - 1 - s.1),
                        Some(Pc {
                            def: i,
                            color: Color::White,
                        }),
                    );
                }
            }
        }
        p
    }

    /// The legal moves in the canonical notation.
    pub fn legal_moves(&self) -> BTreeSet<String> {
        self.legal().into_iter().map(|c| c.text).collect()
    }

    /// The legal moves in the canonical notation, each with the position it leads to.
    pub fn successors(&self) -> Vec<(String, RefPosition)> {
        self.legal()
            .iter()
            .map(|c| (c.text.clone(), self.apply(c)))
            .collect()
    }

    /// Plays a move given in the canonical notation.
    pub fn play(&self, text: &str) -> Result<RefPosition, String> {
        self.legal()
            .iter()
            .find(|c| c.text == text)
            .map(|c| self.apply(c))
            .ok_or_else(|| format!("'{text}' is not legal in {}", self.to_fen()))
    }

    /// Leaf count with the legal moves counted at depth 1.
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
        self.side == Color::Black
    }

    /// Reads the position text: `<board> <side> <hand> [<ply> [<counters>]]`.
    pub fn from_fen(game: Game, text: &str) -> Result<RefPosition, String> {
        let mut p = RefPosition::start(game);
        let n = game.size();
        p.board = vec![None; (n * n) as usize];
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(3..=5).contains(&fields.len()) {
            return Err(format!("bad field count in {text}"));
        }
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != n as usize {
            return Err("bad rank count".into());
        }
        for (i, row) in rows.iter().enumerate() {
            let y = n - 1 - i as i32;
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
                    x += run.parse::<i32>().unwrap();
                    j = k;
                    continue;
                }
                let mut id = String::new();
                if chars[j] == '+' {
                    id.push('+');
                    j += 1;
                }
                let letters: String = if chars[j] == '(' {
                    let close = chars[j..].iter().position(|&c| c == ')').unwrap() + j;
                    let s: String = chars[j + 1..close].iter().collect();
                    j = close + 1;
                    s
                } else {
                    j += 1;
                    chars[j - 1].to_string()
                };
                let white = letters.chars().all(|c| c.is_ascii_lowercase());
                id.push_str(&letters.to_ascii_uppercase());
                let def = p
                    .defs
                    .iter()
                    .position(|d| d.id == id)
                    .ok_or_else(|| format!("unknown piece {id}"))?;
                if x >= n {
                    return Err("rank too long".into());
                }
                p.set(
                    (x, y),
                    Some(Pc {
                        def,
                        color: if white { Color::White } else { Color::Black },
                    }),
                );
                x += 1;
            }
            if x != n {
                return Err(format!("rank {} has {x} files", y + 1));
            }
        }
        p.side = match fields[1] {
            "b" => Color::Black,
            "w" => Color::White,
            _ => return Err("bad side".into()),
        };
        if fields[2] != "-" {
            return Err("no hands in these variants".into());
        }
        p.ply = fields
            .get(3)
            .map_or(Ok(0), |s| s.parse())
            .map_err(|_| "bad ply")?;
        if let Some(c) = fields.get(4) {
            for item in c.split(',') {
                let (name, v) = item.split_once('=').ok_or("bad counter")?;
                let (b, w) = v.split_once('/').ok_or("bad counter")?;
                let pair = [b.parse().map_err(|_| "bad")?, w.parse().map_err(|_| "bad")?];
                match name {
                    "skips" => p.skips = pair,
                    "checks" => p.checks = pair,
                    _ => return Err("unknown counter".into()),
                }
            }
        }
        Ok(p)
    }

    pub fn to_fen(&self) -> String {
        let n = self.size();
        let mut rows = Vec::new();
        for y in (0..n).rev() {
            let mut row = String::new();
            let mut empty = 0;
            for x in 0..n {
                match self.at((x, y)) {
                    None => empty += 1,
                    Some(pc) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let id = self.defs[pc.def].id;
                        let (plus, body) = match id.strip_prefix('+') {
                            Some(b) => ("+", b),
                            None => ("", id),
                        };
                        let body = if pc.color == Color::White {
                            body.to_ascii_lowercase()
                        } else {
                            body.to_string()
                        };
                        row.push_str(plus);
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
        let mut s = format!(
            "{} {} - {}",
            rows.join("/"),
            if self.side == Color::Black { 'b' } else { 'w' },
            self.ply
        );
        let mut counters = Vec::new();
        if self.skips != [0, 0] {
            counters.push(format!("skips={}/{}", self.skips[0], self.skips[1]));
        }
        if self.checks != [0, 0] {
            counters.push(format!("checks={}/{}", self.checks[0], self.checks[1]));
        }
        if !counters.is_empty() {
            s.push(' ');
            s.push_str(&counters.join(","));
        }
        s
    }
}

fn parse_sq(s: &str) -> Option<Sq> {
    let b = s.as_bytes();
    let x = (*b.first()? as i32) - b'a' as i32;
    let y: i32 = s[1..].parse().ok()?;
    Some((x, y - 1))
}

/// `e5f6,f6g7`: one leg per kill square, then the last leg to the destination.
fn move_text(raw: &Raw) -> String {
    let mut legs = Vec::new();
    let mut at = raw.from;
    for &k in &raw.kills {
        legs.push(format!("{}{}", sq_text(at), sq_text(k)));
        at = k;
    }
    legs.push(format!("{}{}", sq_text(at), sq_text(raw.to)));
    legs.join(",")
}
