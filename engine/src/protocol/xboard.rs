//! XBoard/CECP v2.
//!
//! Moves are koma's canonical text, which is what XBoard itself sends and expects for these
//! games: squares `a1`..., a multi-leg move leg by leg with commas (`e5f6,f6g7`, the igui
//! `e5f6,f6e5`), the turn skip as XBoard's null move `@@@@` (koma's `e5e5` is read too), drops
//! as `P@e5` and promotions with `+` (`=` declines). XBoard knows
//! pieces by one letter, so drops and positions use the variant's letters
//! ([`crate::protocol::letters`]) where it has them.
//!
//! XBoard calls the side that moves first "white"; koma calls it Black (sente). Results and
//! colours sent to XBoard are in XBoard's naming.
//!
//! For a variant XBoard does not know, the engine announces it in `variants` and, when XBoard
//! selects it, describes it: `setup` gives the board size, holdings, the piece-to-letter table
//! and the start position, and `piece` gives each piece's moves in Betza notation, so XBoard
//! can draw the board and highlight moves ([`describe`]).

use crate::play::game::{outcome_sentence, Mover};
use crate::protocol::clock::Clock;
use crate::protocol::job::Callbacks;
use crate::protocol::letters::{move_text, parse_move, Letters};
use crate::protocol::out::Out;
use crate::protocol::session::Engine;
use koma_rules::{Color, Move, Outcome, Position, Variant};
use std::time::Duration;

/// XBoard's name for the variant: koma's id without dashes (XBoard variant names are single
/// words).
pub fn variant_name(v: &Variant) -> String {
    v.id.replace('-', "")
}

/// Time control as XBoard gives it.
#[derive(Debug, Clone, Copy, Default)]
struct TimeControl {
    /// Moves per session (0: the whole game).
    mps: u32,
    /// Increment per move.
    inc: Duration,
    /// Fixed time per move (`st`).
    st: Option<Duration>,
    /// The engine's clock (`time`, in centiseconds).
    own: Option<Duration>,
}

struct State {
    force: bool,
    /// The side the engine plays (koma's colours).
    engine_side: Color,
    post: bool,
    analyze: bool,
    tc: TimeControl,
    letters: Option<Letters>,
}

/// Runs XBoard on `lines` (the first, `xboard`, included) until `quit` or the end of input.
pub fn run(engine: &mut Engine, lines: &mut dyn Iterator<Item = String>, out: &Out) {
    let mut st = State {
        force: false,
        engine_side: Color::White,
        post: false,
        analyze: false,
        tc: TimeControl::default(),
        letters: Letters::of(&engine.variant),
    };
    for line in lines {
        let line = line.trim().to_owned();
        let (cmd, arg) = match line.split_once(' ') {
            Some((c, a)) => (c, a.trim()),
            None => (line.as_str(), ""),
        };
        match cmd {
            "" | "xboard" | "accepted" | "rejected" | "hard" | "easy" | "random" | "computer"
            | "name" | "rating" | "ics" | "cores" | "memory" | "egtpath" | "option" | "."
            | "hint" | "bk" | "draw" | "otim" | "sd" | "nps" => {}
            "protover" => {
                out.line(format!(
                    "feature myname=\"{}\" variants=\"{}\" setboard=1 usermove=1 ping=1 \
                     sigint=0 sigterm=0 san=0 time=1 draw=0 reuse=1 analyze=1 colors=0 \
                     exclude=0 done=1",
                    engine.name,
                    variant_name(&engine.variant)
                ));
            }
            "new" => {
                engine.jobs.new_game();
                engine.set_position(Position::start(&engine.variant));
                st.force = false;
                st.analyze = false;
                st.engine_side = Color::White;
                st.tc.own = None;
            }
            "variant" => {
                if arg == variant_name(&engine.variant) || arg == engine.variant.id {
                    describe(&engine.variant, st.letters, out);
                } else {
                    out.line(format!(
                        "Error (this model plays {}): variant {arg}",
                        variant_name(&engine.variant)
                    ));
                }
            }
            "force" => {
                engine.jobs.cancel();
                st.force = true;
            }
            "go" => {
                st.force = false;
                st.engine_side = engine.game().position().side_to_move();
                think(engine, &st, out);
            }
            "playother" => {
                st.force = false;
                st.engine_side = engine.game().position().side_to_move().opposite();
            }
            "white" | "black" => {}
            "usermove" => user_move(engine, &mut st, arg, out),
            "?" => engine.jobs.stop(),
            "undo" | "remove" => {
                engine.jobs.cancel();
                let n = if cmd == "undo" { 1 } else { 2 };
                if engine.game().moves().len() < n {
                    out.line(format!("Error (no move to take back): {cmd}"));
                } else {
                    engine.game().undo(n);
                    if st.analyze {
                        think(engine, &st, out);
                    }
                }
            }
            "setboard" => set_board(engine, &st, arg, out),
            "level" => match level(arg) {
                Some((mps, inc)) => {
                    st.tc.mps = mps;
                    st.tc.inc = inc;
                    st.tc.st = None;
                }
                None => out.line(format!("Error (expected level MPS BASE INC): level {arg}")),
            },
            "st" => match arg.parse::<f64>() {
                Ok(s) if s > 0.0 && s < 1e6 => st.tc.st = Some(Duration::from_secs_f64(s)),
                _ => out.line(format!("Error (expected seconds): st {arg}")),
            },
            "time" => match arg.parse::<u64>() {
                Ok(cs) => st.tc.own = Some(Duration::from_millis(cs * 10)),
                Err(_) => out.line(format!("Error (expected centiseconds): time {arg}")),
            },
            "result" => {
                engine.jobs.cancel();
                st.force = true;
            }
            "post" => st.post = true,
            "nopost" => st.post = false,
            "analyze" => {
                st.analyze = true;
                st.force = true;
                think(engine, &st, out);
            }
            "exit" => {
                engine.jobs.cancel();
                st.analyze = false;
            }
            "ping" => out.line(format!("pong {arg}")),
            "quit" => break,
            _ if looks_like_move(cmd) => user_move(engine, &mut st, &line, out),
            _ => out.line(format!("Error (unknown command): {line}")),
        }
    }
    engine.jobs.cancel();
}

/// Whether an unknown command is a move sent without `usermove`.
fn looks_like_move(cmd: &str) -> bool {
    let b = cmd.as_bytes();
    b.len() >= 4 && (b[0].is_ascii_lowercase() && b[1].is_ascii_digit() || cmd.contains('@'))
}

/// `level MPS BASE INC`: moves per session, base time (minutes or min:sec), increment.
fn level(arg: &str) -> Option<(u32, Duration)> {
    let w: Vec<&str> = arg.split_whitespace().collect();
    if w.len() != 3 {
        return None;
    }
    let mps = w[0].parse().ok()?;
    let base_ok = match w[1].split_once(':') {
        Some((m, s)) => m.parse::<u64>().is_ok() && s.parse::<u64>().is_ok(),
        None => w[1].parse::<f64>().is_ok(),
    };
    let inc = w[2].parse::<f64>().ok().filter(|i| *i >= 0.0)?;
    base_ok.then(|| (mps, Duration::from_secs_f64(inc)))
}

fn user_move(engine: &mut Engine, st: &mut State, arg: &str, out: &Out) {
    engine.jobs.cancel();
    let mut pos = engine.game().position().clone();
    if let Some(o) = pos.outcome() {
        out.line(format!(
            "Illegal move (the game is over: {}): {arg}",
            outcome_sentence(&o)
        ));
        return;
    }
    match parse_move(&mut pos, st.letters, arg) {
        Ok(m) => {
            engine.play(m);
            if let Some(o) = engine.game().outcome() {
                out.line(result_line(&o));
                return;
            }
            let to_move = engine.game().position().side_to_move();
            if st.analyze || (!st.force && to_move == st.engine_side) {
                think(engine, st, out);
            }
        }
        Err(reason) => out.line(format!("Illegal move ({reason}): {arg}")),
    }
}

/// XBoard's result line: `1-0` when the first player (XBoard's white) wins.
fn result_line(o: &Outcome) -> String {
    let score = match o.winner() {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2-1/2",
    };
    let sentence = outcome_sentence(o)
        .replace("Black", "First player")
        .replace("White", "Second player");
    format!("{score} {{{sentence}}}")
}

fn set_board(engine: &mut Engine, st: &State, arg: &str, out: &Out) {
    engine.jobs.cancel();
    let koma_text = xboard_fen_to_koma(arg, st.letters);
    match Position::from_text(&engine.variant, &koma_text)
        .or_else(|_| Position::from_text(&engine.variant, arg))
    {
        Ok(p) => engine.set_position(p),
        Err(e) => out.line(format!("Error ({e}): setboard {arg}")),
    }
}

/// XBoard's FEN for holdings variants: `<board>[<holdings>] <w|b> ...`, letters for pieces,
/// `w` for the first player. Returns koma's position text (or the input when it cannot be
/// read that way, to be tried as koma's own text).
fn xboard_fen_to_koma(fen: &str, letters: Option<Letters>) -> String {
    let Some(l) = letters else {
        return fen.to_owned();
    };
    let mut words = fen.split_whitespace();
    let (Some(board), Some(side)) = (words.next(), words.next()) else {
        return fen.to_owned();
    };
    let (board, holdings) = match board.split_once('[') {
        Some((b, h)) => (b, h.trim_end_matches(']')),
        None => (board, ""),
    };
    let side = match side {
        "w" => "b",
        "b" => "w",
        _ => return fen.to_owned(),
    };
    let (Ok(board), Ok(hand)) = (l.to_koma(board), l.to_koma(holdings)) else {
        return fen.to_owned();
    };
    let hand = if hand.is_empty() || hand == "-" {
        "-".to_owned()
    } else {
        hand
    };
    format!("{board} {side} {hand}")
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
fn holdable(l: Letters) -> Vec<&'static str> {
    l.pairs()
        .iter()
        .filter(|(_, s)| !s.starts_with('+') && *s != "K")
        .map(|(id, _)| *id)
        .collect()
}

/// The moves the engine may play under XBoard, when some legal ones are left out, because
/// XBoard would refuse them, relay them otherwise or adjudicate them as a loss:
/// - XBoard shows each holdable kind on one row beside the board, so it holds at most as many
///   kinds as the board has ranks. A kind past that (Hand Shogi's Pard, the 10th) goes into
///   XBoard's holdings as a pawn, and XBoard refuses its drop.
/// - XBoard applies shogi's pawn rules to the kind lettered `P` (Hand Shogi's Soldier): it
///   must promote on the last rank (XBoard relays the move with `+`), may not be dropped there,
///   and a drop that mates loses. Hand Shogi's Soldier never promotes, and may do both.
///
/// Its other drop rules (knights not on the last two ranks, one pawn per file) are also Hand
/// Shogi's, or stricter there.
pub fn xboard_root_moves(pos: &Position, letters: Option<Letters>) -> Option<Vec<Move>> {
    let l = letters?;
    let v = pos.variant();
    if !v.rules.drops {
        return None;
    }
    let kinds = holdable(l);
    let ranks = v.geometry.ranks() as usize;
    let unholdable = &kinds[ranks.min(kinds.len())..];
    let pawn = l.id("P");
    let us = pos.side_to_move();
    let mut after = pos.clone();
    let legal = after.legal_moves();
    let kept: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| {
            let Some(k) = m.dropped() else {
                let mover = v.piece(pos.piece_at(m.from()).kind()).id.as_str();
                if pawn != Some(mover) {
                    return true;
                }
                // The Soldier: not to the last rank, and no sideways step XBoard would take
                // for an en-passant capture.
                return !v.on_last_rank(us, m.to()) && !en_passant_in_xboard(pos, *m);
            };
            let id = v.piece(k).id.as_str();
            if unholdable.contains(&id) {
                return false;
            }
            if pawn != Some(id) {
                return true;
            }
            if v.on_last_rank(us, m.to()) {
                return false;
            }
            after.make_move(*m);
            let mates = after.legal_moves().is_empty();
            after.unmake_move();
            !mates
        })
        .collect();
    (kept.len() < legal.len()).then_some(kept)
}

/// Whether XBoard would apply `m`, a Soldier's step, as an en-passant capture. XBoard 4.9's
/// `ApplyMove` takes any move of a type-0 piece (its pawn) that changes file onto an empty
/// square from the far half of the board as one, and removes whatever stands on the square
/// behind the destination. Its board then loses that piece while koma's keeps it, and a later
/// move of the lost piece is refused as illegal. Only a non-capturing sideways step with a
/// piece behind its destination is affected; the halves are taken one rank wide of XBoard's
/// (the middle rank counts for both players).
fn en_passant_in_xboard(pos: &Position, m: Move) -> bool {
    let g = &pos.variant().geometry;
    let (from, to) = (m.from(), m.to());
    if g.file_of(from) == g.file_of(to) || !pos.piece_at(to).is_empty() {
        return false;
    }
    let (rank, ranks) = (g.rank_of(from) as i32, g.ranks() as i32);
    // Ranks from the mover's side: XBoard's check is `fromY >= half` for the first player and
    // `fromY < half` for the second, on its own rank numbers.
    let (far_half, back) = match pos.side_to_move() {
        Color::Black => (rank >= ranks / 2, -1),
        Color::White => (rank <= ranks / 2, 1),
    };
    let behind = g.rank_of(to) as i32 + back;
    far_half
        && (0..ranks).contains(&behind)
        && g.square(g.file_of(to), behind as u8)
            .is_some_and(|sq| !pos.piece_at(sq).is_empty())
}

/// koma's position text field in one-letter names.
fn koma_to_letters(field: &str, l: Letters) -> String {
    let mut out = String::new();
    let mut chars = field.chars().peekable();
    let mut plus = false;
    while let Some(c) = chars.next() {
        match c {
            '+' => plus = true,
            '(' => {
                let mut id = String::new();
                for d in chars.by_ref() {
                    if d == ')' {
                        break;
                    }
                    id.push(d);
                }
                out.push_str(&letter_of(&id, plus, l));
                plus = false;
            }
            c if c.is_ascii_alphabetic() => {
                out.push_str(&letter_of(&c.to_string(), plus, l));
                plus = false;
            }
            c => out.push(c),
        }
    }
    out
}

fn letter_of(id: &str, plus: bool, l: Letters) -> String {
    let upper = id.to_ascii_uppercase();
    let key = format!("{}{upper}", if plus { "+" } else { "" });
    let letter = l.letter(&key).unwrap_or("?");
    if id.chars().all(|c| c.is_ascii_lowercase()) {
        letter.to_ascii_lowercase()
    } else {
        letter.to_owned()
    }
}

/// `2S` -> `SS`: XBoard's holdings list each piece.
fn expand_counts(s: &str) -> String {
    let mut out = String::new();
    let mut n = 0usize;
    for c in s.chars() {
        if let Some(d) = c.to_digit(10) {
            n = n * 10 + d as usize;
        } else {
            for _ in 0..n.max(1) {
                out.push(c);
            }
            n = 0;
        }
    }
    out
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

/// Starts a search for the engine's move (or an analysis).
fn think(engine: &mut Engine, st: &State, out: &Out) {
    let mut pos = engine.game().position().clone();
    if pos.outcome().is_some() {
        return;
    }
    let mut clock = Clock {
        overhead: engine.config.overhead,
        infinite: st.analyze,
        movetime: st.tc.st,
        remaining: st.tc.own,
        increment: st.tc.inc,
        ..Clock::default()
    };
    if st.tc.mps > 0 {
        let played = engine.game().moves().len() as u32 / 2;
        clock.moves_to_go = Some(st.tc.mps - played % st.tc.mps);
    }
    let letters = st.letters;
    let (post, analyze) = (st.post || st.analyze, st.analyze);
    let info_out = out.clone();
    let info_pos = pos.clone();
    let done_out = out.clone();
    let game = engine.game_handle();
    let root_moves = xboard_root_moves(&pos, letters);
    engine.go(
        &clock,
        root_moves,
        Callbacks {
            progress: Box::new(move |p| {
                if post {
                    info_out.line(thinking(p, &info_pos, letters));
                }
            }),
            done: Box::new(move |r| {
                let Ok(t) = r else { return };
                if post {
                    done_out.line(thinking(&t.progress(), &pos, letters));
                }
                if analyze {
                    return;
                }
                let mv = text(&pos, letters, &t.best);
                let mut g = game.lock().unwrap_or_else(|p| p.into_inner());
                g.play(t.best, Mover::Engine);
                done_out.line(format!("move {mv}"));
                if let Some(o) = g.outcome() {
                    done_out.line(result_line(&o));
                }
            }),
        },
    );
}

/// A move as sent to XBoard: koma's text, drops by letter, and a turn skip as XBoard's null
/// move `@@@@` (XBoard refuses a move that starts and ends on one square).
fn text(pos: &Position, letters: Option<Letters>, m: &Move) -> String {
    if m.is_skip() {
        "@@@@".to_owned()
    } else {
        move_text(pos, letters, m)
    }
}

/// A thinking line: `ply score time nodes pv` (score in centipawns, time in centiseconds).
fn thinking(p: &crate::search::Progress, pos: &Position, letters: Option<Letters>) -> String {
    let score = if p.proven_win {
        100_000 - 1
    } else {
        p.centipawns()
    };
    let mut line = format!(
        "{} {score} {} {}",
        p.pv.len().max(1),
        p.elapsed.as_millis() / 10,
        p.simulations
    );
    let mut q = pos.clone();
    for m in &p.pv {
        line.push(' ');
        line.push_str(&text(&q, letters, m));
        q.make_move(*m);
    }
    line
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

    /// Hand Shogi has ten droppable kinds and XBoard holds nine on a 9x9 board: the engine
    /// does not drop the tenth (the Pard) under XBoard, and drops everything else.
    #[test]
    fn under_xboard_the_engine_does_not_drop_what_xboard_cannot_hold() {
        let v = load_variant("hand-shogi").unwrap();
        let l = Letters::of(&v);
        let start = Position::start(&v);
        assert_eq!(xboard_root_moves(&start, l), None, "no Pard in hand");
        let mut pos = Position::from_text(&v, "8k/9/9/9/9/9/9/9/K8 b (PD)G").unwrap();
        let kept = xboard_root_moves(&pos, l).expect("the Pard's drops are left out");
        let legal = pos.legal_moves();
        assert!(legal.iter().any(|m| pos.move_text(m).starts_with("PD@")));
        assert!(kept.iter().all(|m| !pos.move_text(m).starts_with("PD@")));
        assert!(kept.iter().any(|m| pos.move_text(m).starts_with("G@")));
        assert_eq!(
            kept.len(),
            legal
                .iter()
                .filter(|m| !pos.move_text(m).starts_with("PD@"))
                .count()
        );
    }

    /// XBoard's shogi pawn rules hold for Hand Shogi's Soldier (its `P`), which Hand Shogi
    /// lets drop on the last rank, mate by a drop and step onto the last rank without
    /// promoting: the engine leaves those moves out under XBoard.
    #[test]
    fn under_xboard_the_soldier_keeps_to_xboards_pawn_rules() {
        let v = load_variant("hand-shogi").unwrap();
        let l = Letters::of(&v);
        let texts = |pos: &Position, moves: &[Move]| -> Vec<String> {
            moves.iter().map(|m| pos.move_text(m)).collect()
        };
        // Drops on the last rank.
        let mut pos = Position::from_text(&v, "8k/9/9/9/9/9/9/9/K8 b (SO)").unwrap();
        let moves = pos.legal_moves();
        let legal = texts(&pos, &moves);
        assert!(legal.contains(&"SO@e9".to_owned()));
        let kept = texts(
            &pos,
            &xboard_root_moves(&pos, l).expect("some are left out"),
        );
        assert!(kept.iter().all(|m| !m.ends_with('9')), "{kept:?}");
        assert!(kept.contains(&"SO@e8".to_owned()));
        // A drop that mates.
        let mut pos = Position::from_text(&v, "6lkl/9/6GG1/9/9/9/9/9/K8 b (SO)").unwrap();
        let mate = pos.parse_move("SO@h8").unwrap();
        pos.make_move(mate);
        assert!(pos.legal_moves().is_empty(), "SO@h8 mates");
        pos.unmake_move();
        let legal = pos.legal_moves();
        let kept = xboard_root_moves(&pos, l).expect("some are left out");
        assert!(!kept.contains(&mate));
        assert_eq!(
            kept.len(),
            legal.len() - 1 - 6,
            "the mate and six last-rank drops"
        );
        // A step onto the last rank.
        let mut pos = Position::from_text(&v, "k8/4(SO)4/9/9/9/9/9/9/K8 b -").unwrap();
        let moves = pos.legal_moves();
        let legal = texts(&pos, &moves);
        assert!(legal.contains(&"e8e9".to_owned()));
        let kept = texts(
            &pos,
            &xboard_root_moves(&pos, l).expect("the step is left out"),
        );
        assert!(!kept.contains(&"e8e9".to_owned()));
        assert!(kept.contains(&"e8d8".to_owned()));
    }

    /// XBoard takes a pawn's sideways step onto an empty square in the far half for an
    /// en-passant capture and removes the piece behind the destination (seen in a match: a
    /// Soldier's i3h3 made XBoard lose the Soldier on h4, and its later h4h3 was refused). The
    /// engine leaves such steps out, for both players, and keeps the harmless ones.
    #[test]
    fn under_xboard_the_soldier_makes_no_step_xboard_takes_for_en_passant() {
        let v = load_variant("hand-shogi").unwrap();
        let l = Letters::of(&v);
        let kept_and_legal = |text: &str| {
            let mut pos = Position::from_text(&v, text).unwrap();
            let moves = pos.legal_moves();
            let legal: Vec<String> = moves.iter().map(|m| pos.move_text(m)).collect();
            let kept: Vec<String> = xboard_root_moves(&pos, l)
                .unwrap_or(moves)
                .iter()
                .map(|m| pos.move_text(m))
                .collect();
            (kept, legal)
        };
        // The first player's Soldier on e6 (its far half), a Gold behind d6.
        let (kept, legal) = kept_and_legal("k8/9/9/4(SO)4/3G5/9/9/9/K8 b -");
        for m in ["e6d6", "e6f6", "e6e7"] {
            assert!(legal.contains(&m.to_owned()), "{m} legal");
        }
        assert!(!kept.contains(&"e6d6".to_owned()), "{kept:?}");
        assert!(kept.contains(&"e6f6".to_owned()), "nothing behind f6");
        assert!(kept.contains(&"e6e7".to_owned()), "a forward step");
        // In its own half the same step is kept.
        let (kept, _) = kept_and_legal("k8/9/9/9/9/9/4(SO)4/3G5/K8 b -");
        assert!(kept.contains(&"e3d3".to_owned()), "{kept:?}");
        // The second player's Soldier on h4 (the game's), the piece behind h3 on h4's left.
        let (kept, legal) = kept_and_legal("k8/9/9/9/9/7(so)1/8(so)/9/K8 w -");
        assert!(legal.contains(&"i3h3".to_owned()));
        assert!(!kept.contains(&"i3h3".to_owned()), "{kept:?}");
        assert!(kept.contains(&"h4g4".to_owned()), "nothing behind g4");
        // A sideways capture is an ordinary capture for XBoard.
        let (kept, _) = kept_and_legal("k8/9/9/9/9/7(so)1/7G(so)/9/K8 w -");
        assert!(kept.contains(&"i3h3".to_owned()), "{kept:?}");
    }
}
