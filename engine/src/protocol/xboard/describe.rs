//! Telling XBoard about a variant it does not know: the `setup` line (board size, holdings,
//! piece-to-letter table, start position) and one `piece` line per piece with its moves in
//! Betza notation.

use crate::protocol::letters::Letters;
use crate::protocol::out::Out;
use crate::protocol::xboard::board::{expand_counts, koma_to_letters};
use koma_rules::{Position, Variant};

/// XBoard's name for the variant: koma's id without dashes (XBoard variant names are single
/// words).
pub fn variant_name(v: &Variant) -> String {
    v.id.replace('-', "")
}

/// The name koma-engine announces: XBoard's own name of the game where the variant file gives
/// one (`[protocol] xboard = "chu"`: XBoard then draws and relays it as it knows it), else
/// [`variant_name`].
pub fn xboard_variant_name(v: &Variant) -> String {
    v.xboard_name.clone().unwrap_or_else(|| variant_name(v))
}

/// The board, holdings, letters and start position for XBoard, then each piece's moves.
pub fn describe(v: &Variant, letters: Option<Letters>, out: &Out) {
    let Some(l) = letters else {
        // Without one-letter names XBoard cannot draw this variant's pieces; it can still
        // play it with legality testing off, in koma's notation.
        return;
    };
    let g = &v.geometry;
    let start = Position::start(&std::sync::Arc::new(v.clone()));
    let text = start.to_text();
    let mut fields = text.split_whitespace();
    let board_field = fields.next().unwrap_or_default();
    let hand_field = fields.nth(1).unwrap_or("-");
    let board = koma_to_letters(board_field, l);
    let hand = if hand_field == "-" {
        String::new()
    } else {
        expand_counts(&koma_to_letters(hand_field, l))
    };
    // With drops, shogi's rules and holdings; without, Chu Shogi's board and no holdings.
    let (table, holdings, parent, hand) = if v.rules.drops {
        let holdings = holdable(l).len().min(g.ranks() as usize);
        (piece_to_char(l), holdings, "shogi", format!("[{hand}]"))
    } else {
        (chu_piece_to_char(l), 0, "chu", String::new())
    };
    out.line(format!(
        "setup ({table}) {}x{}+{holdings}_{parent} {board}{hand} w 0 1",
        g.files(),
        g.ranks()
    ));
    for (id, letter) in l.pairs() {
        if let Some(k) = v.kind_by_id(id) {
            let betza = &v.piece(k).betza;
            out.line(format!("piece {letter}& {betza}"));
        }
    }
}

/// The koma IDs of the kinds that can be held, in the order of XBoard's holdings.
pub(crate) fn holdable(l: Letters) -> Vec<&'static str> {
    l.pairs()
        .iter()
        .filter(|(_, s)| !s.starts_with('+') && *s != "K")
        .map(|(id, _)| *id)
        .collect()
}

/// Piece types per side in the table koma sends: XBoard 4.9 has 66 per side, and a shorter
/// table fills the first of them and gives its last letter to the King (type 65).
const XBOARD_TYPES: usize = 44;

/// Distance from a base type to its promoted form in XBoard 4.9: by default types 0 to 10
/// pair with 11 to 21 (`promoPartner`), and a captured piece whose type's letter is `+` goes
/// to the holdings as its partner.
const XBOARD_PROMOTED: usize = 11;

/// XBoard's piece-to-char table: a letter for each of XBoard's piece types in its own order,
/// `+` at the promoted form of each piece that promotes (so XBoard demotes a captured `+N` to
/// a knight in hand), `.` for unused types, the King last; the first player's then the
/// second's.
///
/// With the parent variant `shogi`, XBoard 4.9 applies shogi's rules by type number, whatever
/// the letters: types 0 to 8 may promote in the zone (a move sent without a suffix is relayed
/// with `=`, which koma reads as no promotion), the pawn (type 0) and the lance (type 4) must
/// promote on the last rank, the knight (type 1) on the last two; pawn drops follow shogi's
/// pawn rules. So `P` keeps type 0 and `N` type 1 (the same rules hold for them, but for the
/// exceptions [`xboard_root_moves`] leaves out), type 4 stays unused, and the other letters
/// take types 2, 3 and 5 onwards, in the table's order, which is also the holdings' order.
fn piece_to_char(l: Letters) -> String {
    let mut first = vec!['.'; XBOARD_TYPES];
    let mut next = 5;
    for (_, letter) in l.pairs() {
        let Some(c) = letter.trim_start_matches('+').chars().next() else {
            continue;
        };
        if letter.starts_with('+') || c == 'K' {
            continue;
        }
        let slot = match c {
            'P' => 0,
            'N' => 1,
            'B' => 2,
            'R' => 3,
            _ => {
                next += 1;
                next - 1
            }
        };
        if slot < XBOARD_PROMOTED {
            first[slot] = c;
        }
    }
    for (_, letter) in l.pairs() {
        if let Some(base) = letter.strip_prefix('+') {
            if let Some(slot) = first.iter().position(|&c| base.starts_with(c)) {
                first[slot + XBOARD_PROMOTED] = '+';
            }
        }
    }
    first[XBOARD_TYPES - 1] = 'K';
    let first: String = first.into_iter().collect();
    format!("{first}{}", first.to_ascii_lowercase())
}

/// XBoard 4.9's types whose moves it applies its own way whatever the letters, left out of
/// the table for a variant without drops: the pawn (0: en passant, see
/// [`en_passant_in_xboard`]) and its partner (11), the falcon, lance and cobra (17 to 19), the
/// lion (21: Chu's lion-capture rules) and the monarch (50: royal in Chu).
const XBOARD_SPECIAL_TYPES: [usize; 7] = [0, 11, 17, 18, 19, 21, 50];

/// The piece-to-char table for a variant without drops, with the parent variant `chu`: the
/// base letters in the types XBoard gives no rules of its own, then each promoted form as
/// `^X` (XBoard 4.9 makes that type the promoted partner of the type lettered X, in both
/// directions, so a `+` on a move promotes a base piece and turns a promoted one back, as a
/// capture does in Gyaku-sama Shogi), the King last. XBoard is run with legality testing off
/// for such a variant: it relays the engines' moves and draws the board, and knows nothing of
/// its rules.
fn chu_piece_to_char(l: Letters) -> String {
    let mut slots: Vec<String> = Vec::new();
    let place = |token: String, slots: &mut Vec<String>| {
        while XBOARD_SPECIAL_TYPES.contains(&slots.len()) {
            slots.push(".".into());
        }
        slots.push(token);
    };
    for (_, letter) in l.pairs() {
        if !letter.starts_with('+') && *letter != "K" {
            place((*letter).to_owned(), &mut slots);
        }
    }
    for (_, letter) in l.pairs() {
        if let Some(base) = letter.strip_prefix('+') {
            place(format!("^{base}"), &mut slots);
        }
    }
    place("K".into(), &mut slots);
    let first = slots.concat();
    format!("{first}{}", first.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::load_variant;

    /// XBoard 4.9 pairs types 0-10 with 11-21 and demotes a captured piece only when its own
    /// type's letter is `+`: Hand Shogi's promoted knight must sit 11 after the knight, so a
    /// captured `+N` goes to the hand as a knight. Type 4, which XBoard's shogi makes promote
    /// on the last rank, stays unused.
    #[test]
    fn the_piece_table_puts_the_promoted_knight_where_xboard_pairs_it() {
        let v = load_variant("hand-shogi").unwrap();
        let table = piece_to_char(Letters::of(&v).unwrap());
        let first: Vec<char> = table.chars().take(XBOARD_TYPES).collect();
        assert_eq!(table.len(), 2 * XBOARD_TYPES);
        assert_eq!(&first[..11].iter().collect::<String>(), "PNBR.LSOHGD");
        assert_eq!(first[1 + 11], '+');
        assert_eq!(first.iter().filter(|&&c| c == '+').count(), 1);
        assert_eq!(first[XBOARD_TYPES - 1], 'K');
        assert_eq!(
            table[XBOARD_TYPES..],
            table[..XBOARD_TYPES].to_ascii_lowercase()
        );
    }

    /// Gyaku-sama Shogi (13x13, no drops) is described with the parent variant `chu`: every
    /// base letter in a type XBoard has no rules for, each promoted form paired to its base by
    /// `^`, the King last, the start position in letters.
    #[test]
    fn a_variant_without_drops_is_described_with_the_chu_parent() {
        let v = load_variant("gyaku-sama-shogi").unwrap();
        let l = Letters::of(&v).expect("Gyaku-sama Shogi has letters");
        let table = chu_piece_to_char(l);
        let (first, second) = table.split_at(table.len() / 2);
        assert_eq!(second, first.to_ascii_lowercase());
        let mut slots = Vec::new();
        let mut chars = first.chars();
        while let Some(c) = chars.next() {
            slots.push(if c == '^' {
                format!("^{}", chars.next().unwrap())
            } else {
                c.to_string()
            });
        }
        assert_eq!(slots.last().map(String::as_str), Some("K"));
        for t in XBOARD_SPECIAL_TYPES {
            assert!(
                t >= slots.len() || slots[t] == ".",
                "type {t} is {}",
                slots[t]
            );
        }
        let bases: Vec<&String> = slots.iter().filter(|s| s.len() == 1 && *s != ".").collect();
        let promoted = slots.iter().filter(|s| s.starts_with('^')).count();
        assert_eq!(bases.len(), 25, "24 kinds and the King: {first}");
        assert_eq!(promoted, 22);
        // Every letter once; every promoted form's base is in the table.
        let mut seen: Vec<&String> = bases.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), bases.len());
        for s in slots.iter().filter(|s| s.starts_with('^')) {
            assert!(bases.iter().any(|b| **b == s[1..]), "{s}");
        }
        let out_buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let out = Out::new(SharedBuf(out_buf.clone()));
        describe(&v, Some(l), &out);
        let text = String::from_utf8(out_buf.lock().unwrap().clone()).unwrap();
        let setup = text.lines().next().unwrap();
        assert!(
            setup.ends_with(
                ") 13x13+0_chu lnfsgtktgsfnl/v1wx1qzi1co1v/mrbheujaehbrm/ppppppppppppp/3d5d3/\
                 13/13/13/3D5D3/PPPPPPPPPPPPP/MRBHEAJUEHBRM/V1OC1IZQ1XW1V/LNFSGTKTGSFNL w 0 1"
            ),
            "{setup}"
        );
        assert_eq!(text.lines().filter(|l| l.starts_with("piece ")).count(), 47);
        assert!(text.contains("piece +I& BWNADcaKmcabK"), "{text}");
    }

    /// A writer the test can read back.
    struct SharedBuf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for SharedBuf {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
}
