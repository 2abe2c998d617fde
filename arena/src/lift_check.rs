//! Checking koma's rules against an XBoard engine that shows its own legal moves.
//!
//! An engine that announces `highlight=1` (HaChu does) answers XBoard's `lift SQUARE` with a
//! `highlight` board: the squares the piece there may go to, marked `Y` (empty), `R`
//! (capture, or the piece's own square for a turn skip), `M` (the move may promote) or `C`
//! (the first leg of a move that captures on the way; `put` on that square and `lift` it again
//! shows where the second leg goes). The check lifts every piece of the side to move and
//! compares the marks with what koma's legal moves give, square by square, in positions from
//! games the engine plays against itself; every move it plays must also be legal for koma.
//! Turn skips are compared per position, not per piece: a skip leaves the same position
//! whichever piece makes it, and HaChu lists only one (on the last piece of its list that may
//! skip), so the check asks that both see a skip or neither does, on a piece koma agrees may.
//! Each difference is reported with the position text, the piece and the squares, so that it
//! can be explained (a rule reading) or fixed.

use crate::engine_process::{EngineLines, EngineProcess, LinesEnd};
use koma_engine::protocol::letters::parse_move;
use koma_rules::{Move, Position, Square, Variant};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::process::ChildStdin;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long one answer may take.
const WAIT: Duration = Duration::from_secs(30);

/// One square on which koma and the engine disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The position (koma's text).
    pub position: String,
    /// The move that led to it (XBoard text; empty at the start).
    pub last_move: String,
    /// The lifted piece's square, and for a second leg the square it was put on.
    pub lifted: String,
    /// The square that differs.
    pub square: String,
    /// What koma's moves give there (`-` for nothing).
    pub koma: String,
    /// What the engine marked there (`-` for nothing).
    pub engine: String,
}

/// What a check found.
#[derive(Debug, Default)]
pub struct LiftReport {
    /// Positions compared.
    pub positions: usize,
    /// Pieces lifted (first legs and second legs).
    pub lifts: usize,
    /// Engine moves checked for legality.
    pub engine_moves: usize,
    /// Positions compared in which a Lion trading rule struck out some move (the
    /// counterstrike ban, or a protected Lion out of a Lion's reach from afar).
    pub lion_rule_positions: usize,
    /// The differences.
    pub differences: Vec<Difference>,
    /// Engine moves koma found illegal, with their positions.
    pub illegal: Vec<(String, String)>,
}

/// An XBoard engine driven in force mode, for its `highlight` answers and its moves.
pub struct LiftEngine {
    process: EngineProcess,
    stdin: ChildStdin,
    lines: EngineLines,
    variant: Arc<Variant>,
    xboard_name: String,
    ping: u32,
}

impl LiftEngine {
    /// Starts `command` and sets it to `xboard_name` (the engine's name of `variant`).
    pub fn start(
        command: &str,
        variant: &Arc<Variant>,
        xboard_name: &str,
    ) -> Result<LiftEngine, String> {
        let (process, stdin, lines) = EngineProcess::spawn_lines(command)
            .map_err(|e| format!("cannot start {command}: {e}"))?;
        let mut e = LiftEngine {
            process,
            stdin,
            lines,
            variant: variant.clone(),
            xboard_name: xboard_name.to_owned(),
            ping: 0,
        };
        e.send("xboard")?;
        e.send("protover 2")?;
        let features = e.sync()?;
        if !features.iter().any(|l| l.contains("highlight=1")) {
            return Err(format!("{command} does not announce highlight=1"));
        }
        if !features.iter().any(|l| {
            l.split(['"', ',', ' '])
                .any(|w| w == xboard_name || w == format!("variants={xboard_name}"))
        }) {
            return Err(format!(
                "{command} does not announce the variant {xboard_name}"
            ));
        }
        // Engines that keep a hash table may need its size before they list moves.
        e.send("memory 64")?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| {
                format!(
                    "the engine's input is closed ({e}) {}",
                    self.process.death_report()
                )
            })
    }

    /// Sends a `ping` and returns the lines that came before its `pong`.
    fn sync(&mut self) -> Result<Vec<String>, String> {
        self.ping += 1;
        let n = self.ping;
        self.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        match self
            .lines
            .until(Instant::now() + WAIT, |l| l.trim() == want)
        {
            Ok((got, _)) => Ok(got),
            Err(LinesEnd::Timeout) => Err(format!("no '{want}' in time")),
            Err(LinesEnd::Exited) => {
                Err(format!("the engine exited {}", self.process.death_report()))
            }
        }
    }

    /// Sets the engine to the start position and plays `moves` (XBoard texts) in force mode.
    fn set_game(&mut self, moves: &[String]) -> Result<(), String> {
        self.send("new")?;
        let name = self.xboard_name.clone();
        self.send(&format!("variant {name}"))?;
        self.send("force")?;
        for m in moves {
            self.send(&format!("usermove {m}"))?;
        }
        let out = self.sync()?;
        if let Some(l) = out
            .iter()
            .find(|l| l.starts_with("Illegal move") || l.starts_with("Error"))
        {
            return Err(format!("the engine refused the game: {l}"));
        }
        Ok(())
    }

    /// The marks of `lift SQUARE` (after `put SQUARE` when `put`), by square.
    fn lift(&mut self, sq: &str, put: bool) -> Result<BTreeMap<String, char>, String> {
        if put {
            self.send(&format!("put {sq}"))?;
        }
        self.send(&format!("lift {sq}"))?;
        let out = self.sync()?;
        let Some(board) = out.iter().rev().find_map(|l| l.strip_prefix("highlight ")) else {
            return Ok(BTreeMap::new());
        };
        parse_highlight(board, &self.variant)
    }

    /// The engine's move in the position it holds (it plays the side to move), as XBoard
    /// text; a multi-leg move printed as several `move` lines is joined.
    fn engine_move(&mut self, go: &[String]) -> Result<String, String> {
        for g in go {
            self.send(g)?;
        }
        self.send("go")?;
        let mut text = String::new();
        let end = Instant::now() + WAIT * 4;
        loop {
            let ended = |l: &str| ["resign", "1-0", "0-1"].iter().any(|e| l.starts_with(e));
            let (_, l) = self
                .lines
                .until(end, |l| l.starts_with("move ") || ended(l))
                .map_err(|_| "no move in time".to_owned())?;
            if ended(&l) {
                return Err(format!("the game ended: {l}"));
            }
            text.push_str(l["move ".len()..].trim());
            if !text.ends_with(',') {
                break;
            }
        }
        self.send("force")?;
        self.sync()?;
        Ok(text)
    }
}

impl Drop for LiftEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.process.wait_exit(Duration::from_secs(2));
    }
}

/// Reads a `highlight` board (ranks from the far one down, files from a, digits for empty
/// runs) into marks by square name.
pub fn parse_highlight(board: &str, v: &Variant) -> Result<BTreeMap<String, char>, String> {
    let g = &v.geometry;
    let ranks: Vec<&str> = board.trim().split('/').collect();
    if ranks.len() != g.ranks() as usize {
        return Err(format!("highlight '{board}': {} ranks", ranks.len()));
    }
    let mut marks = BTreeMap::new();
    for (i, row) in ranks.iter().enumerate() {
        let rank = g.ranks() as usize - 1 - i;
        let mut file = 0usize;
        let mut digits = String::new();
        for c in row.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                file += digits.parse::<usize>().unwrap_or(0);
                digits.clear();
            }
            if file >= g.files() as usize {
                return Err(format!("highlight '{board}': rank {} too long", rank + 1));
            }
            marks.insert(square_name(file, rank), c);
            file += 1;
        }
    }
    Ok(marks)
}

fn square_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// What koma's legal `moves` from `from` give as marks, first legs; the letters that the
/// engine may show there (a square that is both a first leg and a destination shows the first
/// leg's `C`, or `M` when the destination move may promote: the engine keeps whichever it wrote
/// last).
fn koma_marks(pos: &Position, from: Square, moves: &[Move]) -> BTreeMap<String, BTreeSet<char>> {
    let mut direct: BTreeMap<Square, (bool, bool)> = BTreeMap::new(); // (promotes, occupied)
    let mut first_legs: BTreeSet<Square> = BTreeSet::new();
    for m in moves.iter().filter(|m| !m.is_drop() && m.from() == from) {
        if let Some(&e) = m.kills().first() {
            first_legs.insert(e);
            continue;
        }
        let occupied = pos.piece_at(m.to()).is_piece();
        let entry = direct.entry(m.to()).or_insert((false, occupied));
        if m.promotion() == koma_rules::Promotion::Promote {
            entry.0 = true;
        }
    }
    let name = |sq: Square| pos.variant().geometry.name(sq);
    let mut out: BTreeMap<String, BTreeSet<char>> = BTreeMap::new();
    for (&sq, &(promotes, occupied)) in &direct {
        let mut set = BTreeSet::new();
        if promotes {
            set.insert('M');
        } else if !first_legs.contains(&sq) {
            set.insert(if occupied { 'R' } else { 'Y' });
        }
        out.insert(name(sq), set);
    }
    for &e in &first_legs {
        out.entry(name(e)).or_default().insert('C');
    }
    out
}

/// Second legs of the moves from `from` whose first capture is on `via`: destination marks.
fn koma_second_legs(
    pos: &Position,
    from: Square,
    via: Square,
    moves: &[Move],
) -> BTreeMap<String, BTreeSet<char>> {
    let mut out: BTreeMap<String, BTreeSet<char>> = BTreeMap::new();
    for m in moves
        .iter()
        .filter(|m| !m.is_drop() && m.from() == from && m.kills().first() == Some(&via))
    {
        let (sq, mark) = match m.kills().get(1) {
            Some(&e2) => (e2, 'C'),
            None => {
                let occupied = pos.piece_at(m.to()).is_piece();
                (m.to(), if occupied { 'R' } else { 'Y' })
            }
        };
        out.entry(pos.variant().geometry.name(sq))
            .or_default()
            .insert(mark);
    }
    out
}

fn compare(
    koma: &BTreeMap<String, BTreeSet<char>>,
    engine: &BTreeMap<String, char>,
    (position, last_move): (&str, &str),
    lifted: &str,
    out: &mut Vec<Difference>,
) {
    let squares: BTreeSet<&String> = koma.keys().chain(engine.keys()).collect();
    for sq in squares {
        let k = koma.get(sq);
        let e = engine.get(sq);
        let agree = match (k, e) {
            (Some(set), Some(c)) => set.contains(c),
            (None, None) => true,
            _ => false,
        };
        if !agree {
            out.push(Difference {
                position: position.to_owned(),
                last_move: last_move.to_owned(),
                lifted: lifted.to_owned(),
                square: sq.clone(),
                koma: k.map_or("-".into(), |s| s.iter().collect()),
                engine: e.map_or("-".into(), |c| c.to_string()),
            });
        }
    }
}

/// Compares every piece of the side to move in the engine's current position (`pos`).
fn compare_position(
    engine: &mut LiftEngine,
    pos: &mut Position,
    last_move: &str,
    report: &mut LiftReport,
) -> Result<(), String> {
    let moves = pos.legal_moves();
    if pos.lion_rules_struck_out() {
        report.lion_rule_positions += 1;
    }
    let text = pos.to_text();
    let us = pos.side_to_move();
    let squares: Vec<Square> = pos.variant().geometry.squares().to_vec();
    let (mut koma_skips, mut engine_skips) = (Vec::new(), Vec::new());
    for from in squares {
        let p = pos.piece_at(from);
        if !p.is_color(us) {
            continue;
        }
        let name = pos.variant().geometry.name(from);
        let mut theirs = engine.lift(&name, false)?;
        report.lifts += 1;
        let mut ours = koma_marks(pos, from, &moves);
        // HaChu keeps the moves it struck out of its list (repetitions, Lion trades) as
        // INVALID, which is 0, and 0 reads as a null move on a1: an `R` on a1 for the piece on
        // a1, where koma has no turn skip for it, is that and not a move.
        if name == "a1" && theirs.get("a1") == Some(&'R') && !ours.contains_key("a1") {
            theirs.remove("a1");
        }
        // A turn skip leaves the same position whichever piece makes it, and HaChu lists one
        // (on the last piece in its list that may skip): skips are compared per position.
        if ours.remove(&name).is_some() {
            koma_skips.push(name.clone());
        }
        if theirs.remove(&name).is_some() {
            engine_skips.push(name.clone());
        }
        compare(
            &ours,
            &theirs,
            (&text, last_move),
            &name,
            &mut report.differences,
        );
        let first_legs: Vec<String> = theirs
            .iter()
            .filter(|(_, &c)| c == 'C')
            .map(|(sq, _)| sq.clone())
            .collect();
        for via in &first_legs {
            let via_sq = pos
                .variant()
                .geometry
                .parse(via)
                .ok_or_else(|| format!("bad square {via}"))?;
            // The engine shows a second leg after the first was lifted and put down.
            engine.lift(&name, false)?;
            let second = engine.lift(via, true)?;
            report.lifts += 1;
            let ours = koma_second_legs(pos, from, via_sq, &moves);
            compare(
                &ours,
                &second,
                (&text, last_move),
                &format!("{name} via {via}"),
                &mut report.differences,
            );
        }
    }
    let skip_agrees = koma_skips.is_empty() == engine_skips.is_empty()
        && engine_skips.iter().all(|s| koma_skips.contains(s));
    if !skip_agrees {
        report.differences.push(Difference {
            position: text.clone(),
            last_move: last_move.to_owned(),
            lifted: "turn skip".into(),
            square: "-".into(),
            koma: koma_skips.join(" "),
            engine: engine_skips.join(" "),
        });
    }
    report.positions += 1;
    Ok(())
}

/// Settings of a check.
#[derive(Debug, Clone)]
pub struct LiftCheck {
    /// The engine command.
    pub command: String,
    /// The engine's name of the variant.
    pub xboard_name: String,
    /// Games the engine plays against itself.
    pub games: usize,
    /// Plies per game at most.
    pub plies: usize,
    /// Commands before each `go` (e.g. `sd 2`).
    pub go: Vec<String>,
    /// Compare every this many plies (1: every position).
    pub every: usize,
    /// Engine options (`option NAME=VALUE`), sent before any game; HaChu needs
    /// `Allow repeats=1` to list the moves that repeat a position, which koma allows.
    pub options: Vec<String>,
}

/// Runs the check: the start position, then positions from the engine's own games.
pub fn run_lift_check(
    variant: &Arc<Variant>,
    check: &LiftCheck,
    mut progress: impl FnMut(&LiftReport),
) -> Result<LiftReport, String> {
    let mut report = LiftReport::default();
    let mut engine = LiftEngine::start(&check.command, variant, &check.xboard_name)?;
    for o in &check.options {
        engine.send(&format!("option {o}"))?;
    }
    for game in 0..check.games.max(1) {
        let mut pos = Position::start(variant);
        let mut texts: Vec<String> = Vec::new();
        engine.set_game(&texts)?;
        if game == 0 {
            compare_position(&mut engine, &mut pos, "", &mut report)?;
        }
        if check.games == 0 {
            break;
        }
        // A different game each time: the engine randomises its opening moves when asked.
        engine.send("random")?;
        for ply in 0..check.plies {
            if pos.outcome().is_some() {
                break;
            }
            let text = match engine.engine_move(&check.go) {
                Ok(t) => t,
                Err(_) => break,
            };
            report.engine_moves += 1;
            match parse_move(&mut pos, None, &text) {
                Ok(m) => pos.make_move(m),
                Err(e) => {
                    report.illegal.push((pos.to_text(), format!("{text}: {e}")));
                    break;
                }
            }
            texts.push(text);
            if (ply + 1) % check.every.max(1) == 0 && pos.outcome().is_none() {
                let last = texts.last().cloned().unwrap_or_default();
                compare_position(&mut engine, &mut pos, &last, &mut report)?;
            }
        }
        progress(&report);
    }
    Ok(report)
}
