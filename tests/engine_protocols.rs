//! `koma-engine` driven through its standard input and output, as GUIs drive it: real
//! transcripts of XBoard/CECP, USI and UCI sessions, with drops, promotions (forced, chosen and
//! declined), Lion double captures, igui, turn skips, shots, undo, setboard, time controls,
//! move-now and stop requests, and malformed lines. Every engine move is checked for legality
//! against koma's rules.

#[path = "../arena/tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

/// A running engine and what it has said.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    seen: Vec<String>,
}

impl Engine {
    fn start(variant: &str, name: &str, extra: &[&str]) -> Engine {
        let stem = common::tiny_checkpoint(variant, &format!("proto-{name}"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_koma-engine"))
            .arg("--model")
            .arg(&stem)
            .args(extra)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("koma-engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Reads lines until one satisfies `want`; returns it and the lines before it.
    fn until(&mut self, what: &str, want: impl Fn(&str) -> bool) -> (String, Vec<String>) {
        let end = Instant::now() + Duration::from_secs(60);
        let mut before = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    self.seen.push(l.clone());
                    if want(&l) {
                        return (l, before);
                    }
                    before.push(l);
                }
                Err(_) => panic!(
                    "no {what} from the engine; it said:\n{}",
                    self.seen.join("\n")
                ),
            }
        }
    }

    /// Sends the XBoard move `mv` after the game's end and returns the engine's refusal,
    /// which says the game is over (`ping n` as the barrier).
    fn expect_game_over(&mut self, mv: &str, n: u32) -> String {
        self.send(&format!("usermove {mv}"));
        let before = self.sync(n);
        before
            .iter()
            .find(|l| l.contains("the game is over"))
            .unwrap_or_else(|| panic!("{mv} not refused: {before:?}"))
            .clone()
    }

    /// The engine's answer to `go` under XBoard: its move line, or `resign`.
    fn move_or_resign(&mut self) -> String {
        self.until("a move or resign", |l| {
            l.starts_with("move ") || l == "resign"
        })
        .0
    }

    fn expect_prefix(&mut self, prefix: &str) -> (String, Vec<String>) {
        self.until(prefix, |l| l.starts_with(prefix))
    }

    /// Sends `ping n` and returns every line before `pong n` (XBoard's barrier).
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        self.expect_prefix(&format!("pong {n}")).1
    }

    fn quit(mut self) {
        self.send("quit");
        let end = Instant::now() + Duration::from_secs(10);
        while Instant::now() < end {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "koma-engine exited with {status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        panic!("koma-engine did not quit");
    }
}

/// Whether `mv` is legal after `moves` from `fen` (or the start), by koma's rules.
fn legal_after(variant: &str, fen: Option<&str>, moves: &[&str], mv: &str) -> bool {
    let v = koma_rules::load_variant(variant).unwrap();
    let mut pos = match fen {
        Some(f) => koma_rules::Position::from_text(&v, f).unwrap(),
        None => koma_rules::Position::start(&v),
    };
    pos.play_texts(&moves.join(" ")).unwrap();
    pos.parse_move(mv).is_ok()
}

#[test]
fn xboard_session_on_hand_shogi() {
    let mut e = Engine::start("hand-shogi", "xb-hand", &[]);
    e.send("xboard");
    e.send("protover 2");
    let (features, _) = e.expect_prefix("feature ");
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "san=0",
        "done=1",
        "variants=\"handshogi\"",
        "myname=\"koma hand-shogi",
        "option=\"Contempt -spin 0 -100 100\"",
        "option=\"Tactics -spin 0 0 4\"",
    ] {
        assert!(features.contains(f), "{f} missing: {features}");
    }
    // The options: a value in range is taken silently, others are refused by name.
    e.send("option Contempt=25");
    e.send("option Contempt=250");
    e.send("option Tactics=3");
    e.send("option Tactics=-1");
    e.send("option Hash=64");
    let errors: Vec<String> = e
        .sync(2)
        .into_iter()
        .filter(|l| l.starts_with("Error"))
        .collect();
    assert_eq!(
        errors,
        [
            "Error (Contempt is from -100 to 100): option Contempt=250",
            "Error (Tactics is from 0 to 4): option Tactics=-1",
            "Error (unknown option): option Hash=64"
        ],
        "{errors:?}"
    );
    e.send("protover 2");
    let (features, _) = e.expect_prefix("feature ");
    assert!(
        features.contains("option=\"Contempt -spin 25 -100 100\"")
            && features.contains("option=\"Tactics -spin 3 0 4\""),
        "the values taken are the ones offered: {features}"
    );
    e.send("new");
    e.send("variant handshogi");
    let before = e.sync(1);
    let setup = before
        .iter()
        .find(|l| l.starts_with("setup "))
        .expect("setup");
    assert!(setup.contains(" 9x9+"), "{setup}");
    assert!(setup.contains("[SSNNLLBROHssnnllbroh] w 0 1"), "{setup}");
    let pieces: Vec<&String> = before.iter().filter(|l| l.starts_with("piece ")).collect();
    assert_eq!(pieces.len(), 12, "{before:?}");
    assert!(pieces.iter().any(|l| l.ends_with(" fsW")), "{pieces:?}");
    // A move from the GUI (a drop), the engine answers with thinking output and a legal move.
    e.send("post");
    e.send("st 0.3");
    e.send("usermove S@e5");
    let (reply, thinking) = e.expect_prefix("move ");
    let mv = reply.trim_start_matches("move ").to_owned();
    assert!(
        legal_after("hand-shogi", None, &["S@e5"], &xboard_to_koma(&mv)),
        "{mv}"
    );
    assert!(
        thinking.iter().any(|l| is_thinking_line(l)),
        "no thinking line: {thinking:?}"
    );
    // Malformed and illegal input gets the protocol's replies; the engine goes on.
    e.send("usermove zz9");
    e.send("usermove e1e9");
    e.send("frobnicate");
    e.send("level x");
    let before = e.sync(2);
    assert!(before
        .iter()
        .any(|l| l.starts_with("Illegal move (") && l.ends_with(": zz9")));
    assert!(before
        .iter()
        .any(|l| l.starts_with("Illegal move (") && l.ends_with(": e1e9")));
    assert!(before.contains(&"Error (unknown command): frobnicate".to_owned()));
    assert!(before
        .iter()
        .any(|l| l.starts_with("Error (expected level")));
    // undo / remove, then setboard (XBoard's FEN) and a mate found by the engine.
    e.send("force");
    e.send("remove");
    e.send("remove");
    let before = e.sync(3);
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("Error (no move to take back)")),
        "{before:?}"
    );
    e.send("setboard 8k/9/9/9/7R1/9/9/9/K8[G] w 0 1");
    e.send("go");
    let (reply, _) = e.expect_prefix("move ");
    assert_eq!(reply, "move G@h8");
    let (result, _) = e.expect_prefix("1-0");
    assert_eq!(result, "1-0 {First player wins by checkmate}");
    e.expect_game_over("i9i8", 4);
    // A clock: level with 1 s on it, then `?` cuts a long fixed-time search short.
    e.send("new");
    e.send("level 0 0:01 0");
    e.send("time 100");
    e.send("otim 100");
    e.send("usermove S@e5");
    let t = Instant::now();
    e.expect_prefix("move ");
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    e.send("force");
    e.send("new");
    e.send("st 60");
    e.send("go");
    std::thread::sleep(Duration::from_millis(500));
    let t = Instant::now();
    e.send("?");
    e.expect_prefix("move ");
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "? took {:?}",
        t.elapsed()
    );
    // Analysis: thinking lines until `exit`, no move.
    e.send("force");
    e.send("new");
    e.send("analyze");
    let (line, _) = e.until("analysis output", is_thinking_line);
    assert!(is_thinking_line(&line));
    e.send("exit");
    let before = e.sync(5);
    assert!(!before.iter().any(|l| l.starts_with("move ")), "{before:?}");
    e.quit();
}

/// XBoard cannot hold Hand Shogi's Pard, so the engine never drops it under XBoard. When such
/// a drop is the only way out of check (here the King on a1, checked by a Shogun on d1, a Gold
/// on b3 guarding a2 and b2, the Pard the only piece in hand), the engine resigns instead of
/// playing a move XBoard would refuse; with another way out it plays that.
#[test]
fn xboard_resigns_when_every_legal_move_is_one_xboard_refuses() {
    let mut e = Engine::start("hand-shogi", "xb-resign", &[]);
    e.send("xboard");
    e.send("protover 2");
    e.expect_prefix("feature ");
    e.send("new");
    e.send("variant handshogi");
    e.send("force");
    let fen = "8k/9/9/9/9/9/1g7/9/K2r5[D] w 0 1";
    let koma = "8k/9/9/9/9/9/1g7/9/K2(sh)5 b (PD)";
    let moves = |text: &str| {
        let v = koma_rules::load_variant("hand-shogi").unwrap();
        let mut pos = koma_rules::Position::from_text(&v, text).unwrap();
        let legal = pos.legal_moves();
        let mut texts: Vec<String> = legal.iter().map(|m| pos.move_text(m)).collect();
        texts.sort();
        texts
    };
    assert_eq!(moves(koma), ["PD@b1", "PD@c1"], "only Pard drops are legal");
    e.send(&format!("setboard {fen}"));
    e.send("st 0.2");
    e.send("go");
    assert_eq!(e.move_or_resign(), "resign");
    // The game is over for the engine: a move sent now is refused as such.
    let refusal = e.expect_game_over("i9h9", 1);
    assert!(
        refusal.contains("Second player wins by resignation"),
        "{refusal}"
    );
    // Asked to move again, it does not (nothing until the barrier).
    e.send("go");
    let before = e.sync(2);
    assert!(before.is_empty(), "{before:?}");
    // With a Gold in hand too, the engine plays a Gold drop.
    e.send("force");
    e.send("setboard 8k/9/9/9/9/9/1g7/9/K2r5[DG] w 0 1");
    e.send("go");
    let reply = e.move_or_resign();
    assert!(reply == "move G@b1" || reply == "move G@c1", "{reply}");
    e.quit();
}

/// XBoard's drop letters back to koma's IDs for Hand Shogi (only the ones the engine may send).
fn xboard_to_koma(mv: &str) -> String {
    match mv.split_once('@') {
        Some((l, sq)) => {
            let id = match l {
                "P" => "SO",
                "B" => "T",
                "R" => "SH",
                "D" => "PD",
                other => other,
            };
            format!("{id}@{sq}")
        }
        None => mv.to_owned(),
    }
}

/// `ply score time nodes pv...`.
fn is_thinking_line(l: &str) -> bool {
    let w: Vec<&str> = l.split_whitespace().collect();
    w.len() >= 5 && w[..4].iter().all(|x| x.parse::<i64>().is_ok())
}

/// Chu Shogi is a game XBoard knows: koma-engine announces it by XBoard's name `chu` and sends
/// no `setup` for it, reads a move without suffix into the zone as declining, and answers with
/// a legal move.
#[test]
fn xboard_names_chu_shogi_as_xboard_knows_it() {
    let mut e = Engine::start("chu-shogi", "xb-chu", &[]);
    e.send("xboard");
    e.send("protover 2");
    let (features, _) = e.expect_prefix("feature ");
    assert!(features.contains("variants=\"chu\""), "{features}");
    e.send("new");
    e.send("variant chu");
    e.send("force");
    // A Silver on e8 enters the zone without its suffix: no promotion.
    let fen = "6k5/12/12/12/4S7/12/12/12/12/12/12/5K6 b -";
    e.send(&format!("setboard {fen}"));
    e.send("usermove e8e9");
    let before = e.sync(7);
    assert!(
        !before
            .iter()
            .any(|l| l.starts_with("setup") || l.starts_with("Illegal") || l.starts_with("Error")),
        "{before:?}"
    );
    e.send("new");
    e.send("variant chu");
    e.send("force");
    e.send("usermove f4f5");
    e.send("sd 1");
    e.send("st 0.2");
    e.send("go");
    let (reply, _) = e.expect_prefix("move ");
    let mv = reply.trim_start_matches("move ");
    assert!(legal_after("chu-shogi", None, &["f4f5"], mv), "{mv}");
    e.quit();
}

#[test]
fn xboard_multi_leg_moves_igui_and_turn_skips_on_shoko_shogi() {
    // A Lion on e7 with pawns to take on f8 and g9.
    let fen = "6k6/13/13/13/6p6/5p7/4(LN)8/13/13/13/13/13/6K6 b -";
    let mut e = Engine::start("shoko-shogi", "xb-lion", &[]);
    e.send("xboard");
    e.send("protover 2");
    e.expect_prefix("feature ");
    e.send("variant shokoshogi");
    e.send("force");
    for (n, mv) in (10..).zip(["e7f8,f8g9+", "e7f8,f8e7+", "e7e7", "@@@@", "e7e8="]) {
        e.send(&format!("setboard {fen}"));
        e.send(&format!("usermove {mv}"));
        let before = e.sync(n);
        assert!(
            !before
                .iter()
                .any(|l| l.starts_with("Illegal") || l.starts_with("Error")),
            "{mv}: {before:?}"
        );
    }
    // The engine, asked to move after the double capture, answers with a legal move.
    e.send(&format!("setboard {fen}"));
    e.send("usermove e7f8,f8g9+");
    e.send("sd 1");
    e.send("st 0.2");
    e.send("go");
    let (reply, _) = e.expect_prefix("move ");
    let mv = reply.trim_start_matches("move ");
    assert!(
        legal_after("shoko-shogi", Some(fen), &["e7f8,f8g9+"], mv),
        "{mv}"
    );
    // A double capture that is not legal is refused with the move named.
    e.send(&format!("setboard {fen}"));
    e.send("usermove e7f8,f8f9,f9f10");
    let before = e.sync(99);
    assert!(before
        .iter()
        .any(|l| l.starts_with("Illegal move") && l.ends_with("e7f8,f8f9,f9f10")));
    e.quit();
}

#[test]
fn usi_session_on_hand_shogi() {
    let mut e = Engine::start("hand-shogi", "usi", &[]);
    e.send("usi");
    let (_, before) = e.expect_prefix("usiok");
    assert!(before.iter().any(|l| l.starts_with("id name koma")));
    for option in [
        "MoveOverhead",
        "Threads",
        "Simulations",
        "Contempt",
        "Tactics",
    ] {
        assert!(
            before
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type spin"))),
            "{before:?}"
        );
    }
    e.send("setoption name USI_Hash value 256");
    e.send("setoption name USI_Ponder value false");
    e.send("setoption name MoveOverhead value 20");
    e.send("setoption name Threads value 2");
    e.send("setoption name Threads value 0");
    e.send("setoption name Contempt value 30");
    e.send("setoption name Contempt value -101");
    e.send("setoption name Tactics value 2");
    e.send("setoption name Tactics value 9");
    e.send("isready");
    let (_, before) = e.expect_prefix("readyok");
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("info string USI_Hash is not used")),
        "{before:?}"
    );
    let errors: Vec<&String> = before.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(
        errors.len(),
        3,
        "only Threads 0, Contempt -101 and Tactics 9 are refused: {before:?}"
    );
    assert!(
        errors[1].contains("Contempt '-101' is not from -100 to 100"),
        "{errors:?}"
    );
    assert!(
        errors[2].contains("Tactics '9' is not from 0 to 4"),
        "{errors:?}"
    );
    e.send("usi");
    let (_, before) = e.expect_prefix("usiok");
    assert!(
        before.contains(&"option name Contempt type spin default 30 min -100 max 100".to_owned())
            && before.contains(&"option name Tactics type spin default 2 min 0 max 4".to_owned()),
        "the values taken are the ones offered: {before:?}"
    );
    // The strength setting: simulations per move when the GUI sets no limit. Node counts
    // are the current search's, whatever a reused tree held before.
    e.send("setoption name Simulations value 24");
    e.send("position startpos");
    e.send("go");
    let (best, info) = e.expect_prefix("bestmove ");
    let nodes = |info: &[String]| {
        info.iter()
            .filter_map(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let i = w.iter().position(|x| *x == "nodes")?;
                w.get(i + 1)?.parse::<u32>().ok()
            })
            .max()
            .unwrap_or(0)
    };
    assert!((1..=24).contains(&nodes(&info)), "{info:?}");
    let mv = best.trim_start_matches("bestmove ").to_owned();
    let reply = {
        let v = koma_rules::load_variant("hand-shogi").unwrap();
        let mut pos = koma_rules::Position::start(&v);
        let sfen = koma_engine::protocol::usi::Sfen::of(&v).unwrap();
        let m = sfen.parse_move(&mut pos, &mv).unwrap();
        pos.make_move(m);
        let legal = pos.legal_moves();
        sfen.move_text(&pos, &legal[0])
    };
    e.send(&format!("position startpos moves {mv} {reply}"));
    e.send("go nodes 32");
    let (_, info) = e.expect_prefix("bestmove ");
    assert!((1..=32).contains(&nodes(&info)), "{info:?}");
    e.send("setoption name Threads value 1");
    e.send("usinewgame");
    // A drop by the GUI, a clock with byoyomi.
    e.send("position startpos moves S*5e");
    e.send("go btime 0 wtime 0 byoyomi 500");
    let (best, info) = e.expect_prefix("bestmove ");
    assert!(info
        .iter()
        .any(|l| l.starts_with("info depth ") && l.contains(" pv ")));
    let mv = best.trim_start_matches("bestmove ");
    e.send(&format!("position startpos moves S*5e {mv}"));
    e.send("isready");
    let (_, before) = e.expect_prefix("readyok");
    assert!(
        !before.iter().any(|l| l.contains("error")),
        "{mv}: {before:?}"
    );
    // An SFEN position with a mate in one (G*2b); the knight promotes by force (`+`).
    e.send("position sfen 8k/9/9/9/7R1/9/9/9/K8 b G 1");
    e.send("go nodes 30");
    let (best, info) = e.expect_prefix("bestmove ");
    assert_eq!(best, "bestmove G*2b");
    assert!(info.iter().any(|l| l.contains("score mate 1")), "{info:?}");
    e.send("position sfen 8k/9/9/4N4/9/9/9/9/K8 b - 1 moves 5d4b+");
    e.send("isready");
    let (_, before) = e.expect_prefix("readyok");
    assert!(before.is_empty(), "{before:?}");
    // `stop` ends an infinite search, which answers only then.
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(400));
    e.send("isready");
    let (_, before) = e.expect_prefix("readyok");
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
    e.send("stop");
    e.expect_prefix("bestmove ");
    // Malformed lines are reported and change nothing.
    for bad in [
        "position sfen 9/9 b -",
        "position startpos moves 1a1a",
        "position startpos moves X*5e",
        "position banana",
        "go sideways",
        "frobnicate",
    ] {
        e.send(bad);
        e.send("isready");
        let (_, before) = e.expect_prefix("readyok");
        assert!(
            before.iter().any(|l| l.starts_with("info string error")),
            "{bad}: {before:?}"
        );
    }
    // After a refused position the engine does not answer for the one it had before: the GUI
    // shows another position, with the other side to move.
    e.send("position startpos moves 5g5f 9z9z");
    e.send("go nodes 32");
    let (best, before) = e.expect_prefix("bestmove ");
    assert_eq!(best, "bestmove resign", "{before:?}");
    assert!(
        before.iter().any(|l| l.contains("no position to search")),
        "{before:?}"
    );
    // A position that can be set up ends the refusal.
    e.send("position startpos moves 5g5f");
    e.send("go nodes 32");
    let (best, _) = e.expect_prefix("bestmove ");
    let mv = best.trim_start_matches("bestmove ");
    e.send(&format!("position startpos moves 5g5f {mv}"));
    e.send("isready");
    let (_, before) = e.expect_prefix("readyok");
    assert!(before.is_empty(), "{mv}: {before:?}");
    e.send("gameover win");
    e.quit();
}

#[test]
fn uci_session_with_promotion_choices_and_shots_on_ko_shogi() {
    let fen = include_str!("../tests/browser/play_test.py");
    let start = fen.find("KO_POSITION = (").unwrap();
    let end = start + fen[start..].find("\n)").unwrap();
    let ko_fen: String = fen[start..end]
        .lines()
        .skip(1)
        .map(|l| l.trim().trim_matches('"'))
        .collect();
    let mut e = Engine::start("ko-shogi", "uci", &["--sims", "8"]);
    e.send("uci");
    let (_, before) = e.expect_prefix("uciok");
    assert!(before
        .contains(&"option name UCI_Variant type combo default ko-shogi var ko-shogi".to_owned()));
    e.send("setoption name Hash value 64");
    e.send("isready");
    let (_, before) = e.expect_prefix("readyok");
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("info string Hash is not used")),
        "{before:?}"
    );
    e.send("setoption name UCI_Variant value ko-shogi");
    e.send("setoption name UCI_Variant value chess");
    e.send("isready");
    let (_, before) = e.expect_prefix("readyok");
    assert_eq!(before.len(), 1, "{before:?}");
    assert!(before[0].contains("not 'chess'"));
    e.send("ucinewgame");
    // A promotion taken, one declined, a shot and a multi-leg move, all in one line of moves.
    for moves in ["c9c14+", "c9c14=", "f1e2*h5", "c18a17,a17b15"] {
        e.send(&format!("position fen {ko_fen} moves {moves}"));
        e.send("go wtime 2000 btime 2000 winc 100 binc 100");
        let (best, _) = e.expect_prefix("bestmove ");
        let mv = best.trim_start_matches("bestmove ");
        assert!(
            legal_after("ko-shogi", Some(&ko_fen), &[moves], mv),
            "{moves} then {mv}"
        );
    }
    e.send("position startpos moves a1a1a1");
    e.send("isready");
    let (_, before) = e.expect_prefix("readyok");
    assert!(before
        .iter()
        .any(|l| l.starts_with("info string error move 1 (a1a1a1)")));
    // The refused position is not searched: no move for the position before it.
    e.send("go movetime 200");
    let (best, before) = e.expect_prefix("bestmove ");
    assert_eq!(best, "bestmove (none)", "{before:?}");
    assert!(
        before.iter().any(|l| l.contains("no position to search")),
        "{before:?}"
    );
    e.send(&format!("position fen {ko_fen}"));
    e.send("go movetime 200");
    let (best, _) = e.expect_prefix("bestmove ");
    let mv = best.trim_start_matches("bestmove ");
    assert!(legal_after("ko-shogi", Some(&ko_fen), &[], mv), "{mv}");
    // A depth limit is refused openly; the engine still answers.
    e.send("go depth 2");
    let (_, info) = e.expect_prefix("bestmove ");
    assert!(
        info.iter()
            .any(|l| l.starts_with("info string error go depth 2: not a limit")),
        "{info:?}"
    );
    e.quit();
}

#[test]
fn the_first_line_picks_the_protocol() {
    let mut e = Engine::start("hand-shogi", "detect", &[]);
    e.send("");
    e.send("hello");
    e.expect_prefix("Error (unknown protocol");
    // A line that is not UTF-8 gets the same reply; the session goes on.
    e.stdin.write_all(b"\xff\xfehello\r\n").unwrap();
    e.stdin.flush().unwrap();
    let (line, _) = e.expect_prefix("Error (unknown protocol");
    assert!(line.contains('\u{fffd}'), "{line}");
    e.send("uci");
    e.expect_prefix("uciok");
    e.send("isready\r");
    e.expect_prefix("readyok");
    e.quit();
}

/// UCI's `searchmoves`: the engine chooses only among the moves named (a bad one is reported),
/// even where another move mates at once; without it, it mates.
#[test]
fn uci_searchmoves_restricts_the_moves_searched() {
    let mut e = Engine::start("hand-shogi", "uci-searchmoves", &["--sims", "16"]);
    e.send("uci");
    e.expect_prefix("uciok");
    let mate = "8k/9/9/9/7(SH)1/9/9/9/K8 b G";
    e.send(&format!("position fen {mate}"));
    e.send("go nodes 64 searchmoves a1a2 a1b1 z9z9");
    let (best, before) = e.expect_prefix("bestmove ");
    assert!(best == "bestmove a1a2" || best == "bestmove a1b1", "{best}");
    assert!(
        before
            .iter()
            .any(|l| l.starts_with("info string error searchmoves z9z9")),
        "{before:?}"
    );
    e.send("go nodes 64");
    let (best, _) = e.expect_prefix("bestmove ");
    assert_eq!(best, "bestmove G@h8");
    e.quit();
}
