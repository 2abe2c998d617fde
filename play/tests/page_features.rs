//! What the page teaches and keeps beyond play: the piece reference with move diagrams, check
//! marks, stepping through the game, the record saved and loaded back, the person's clock.

mod common;

use common::{call, ok, refused, session, MATE_IN_ONE};
use serde_json::Value;
use std::time::Duration;

/// The reference entry of piece `id`.
fn piece<'a>(reference: &'a Value, id: &str) -> &'a Value {
    reference["pieces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id)
        .unwrap_or_else(|| panic!("no piece {id}"))
}

/// The diagram squares of `p` as (df, dr) -> flags.
fn cells(p: &Value) -> Vec<((i64, i64), Vec<String>)> {
    p["diagram"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let how = c["how"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_str().unwrap().to_owned())
                .collect();
            ((c["df"].as_i64().unwrap(), c["dr"].as_i64().unwrap()), how)
        })
        .collect()
}

fn has(cells: &[((i64, i64), Vec<String>)], at: (i64, i64), flag: &str) -> bool {
    cells
        .iter()
        .any(|(sq, how)| *sq == at && how.iter().any(|h| h == flag))
}

#[test]
fn the_piece_reference_draws_every_kind_from_its_compiled_moves() {
    let s = session("hand-shogi");
    let r = ok(&s, "GET", "/api/pieces", "");
    assert_eq!(r["variant"], "hand-shogi");
    assert_eq!(r["pieces"].as_array().unwrap().len(), 12);

    let king = piece(&r, "K");
    assert_eq!(king["royal"], true);
    assert_eq!(king["diagram"]["radius"], 2);
    let k = cells(king);
    assert_eq!(k.len(), 8, "{k:?}");
    assert!(k.iter().all(|(_, how)| how == &["move", "capture", "step"]));

    // The knight leaps two forward and one aside, jumping; the lance slides forward to the
    // diagram's edge (a 9x9 board's radius is 4).
    let n = cells(piece(&r, "N"));
    assert_eq!(n.len(), 2);
    assert!(has(&n, (1, 2), "jump") && has(&n, (-1, 2), "jump"));
    let lance = piece(&r, "L");
    assert_eq!(lance["diagram"]["radius"], 4);
    let l = cells(lance);
    assert_eq!(l.len(), 4);
    assert!((1..=4).all(|d| has(&l, (0, d), "slide")));
    // The shogun slides three squares at most, so its diagram stops there.
    let sh = piece(&r, "SH");
    assert_eq!(sh["diagram"]["radius"], 3);
    assert!(has(&cells(sh), (0, -3), "slide") && !has(&cells(sh), (1, 1), "slide"));

    // Promotion, drop rules and the promoted kind's own label.
    let knight = piece(&r, "N");
    assert_eq!(knight["promotes_to"]["id"], "+N");
    assert_eq!(knight["promotes_to"]["label"], "PK");
    let rules: Vec<&str> = knight["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert!(
        rules
            .iter()
            .any(|x| x.contains("Promotes to") && x.contains("must")),
        "{rules:?}"
    );
    assert!(
        rules.iter().any(|x| x.contains("3 farthest ranks")),
        "{rules:?}"
    );
    assert_eq!(piece(&r, "+N")["promoted_from"]["id"], "N");
    assert!(piece(&r, "O")["rules"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x.as_str().unwrap().contains("must give check")));
}

#[test]
fn multi_leg_moves_show_their_captures_on_the_way_and_promoted_kinds_their_own_labels() {
    let s = session("shoko-shogi");
    let r = ok(&s, "GET", "/api/pieces", "");
    // The Lion: two king steps, capturing on the first (kill marks all round), ending up to
    // two squares away (legs) or back where it began.
    let lion = piece(&r, "LN");
    let c = cells(lion);
    assert!(has(&c, (1, 1), "kill") && has(&c, (0, -1), "kill"));
    assert!(has(&c, (2, 2), "move") && has(&c, (2, 2), "capture"));
    assert_eq!(lion["diagram"]["returns"], true);
    // A promoted gold general is a rook, drawn as the rook is.
    let state = ok(&s, "GET", "/api/state", "");
    let label = |id: &str| {
        state["variant"]["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .map(|p| p["label"].as_str().unwrap().to_owned())
            .unwrap()
    };
    assert_eq!(label("+G"), "R");
    assert_eq!(label("G"), "G");
    assert_eq!(piece(&r, "+G")["name"], "rook");

    // Ko Shogi's rule-module powers are described by the variant file.
    let ko = session("ko-shogi");
    let r = ok(&ko, "GET", "/api/pieces", "");
    let sw = piece(&r, "SW");
    assert!(
        sw["about"].as_str().unwrap().contains("igui"),
        "{}",
        sw["about"]
    );
    assert_eq!(sw["diagram"]["radius"], 2);
    // The longbow's shots come from the rule module: range 3, the nearest piece only.
    let longbow = piece(&r, "LB");
    assert!(!longbow["about"].as_str().unwrap().is_empty());
    assert_eq!(longbow["shot"]["range"], 3);
    assert_eq!(longbow["shot"]["over"], false);
    assert!(longbow["rules"][0]
        .as_str()
        .unwrap()
        .contains("may shoot an enemy up to 3 squares"));
    assert_eq!(piece(&r, "FC")["shot"]["shots"], 2);
    assert!(sw["shot"].is_null());
}

#[test]
fn a_check_names_the_king_and_the_pieces_giving_it() {
    let s = session("hand-shogi");
    let v = ok(
        &s,
        "POST",
        "/api/new",
        &format!(r#"{{"fen": "{MATE_IN_ONE}"}}"#),
    );
    assert_eq!(v["checks"]["targets"], serde_json::json!([]));
    let v = ok(&s, "POST", "/api/move", r#"{"move": "G@h8"}"#);
    assert_eq!(v["in_check"], true);
    assert_eq!(v["checks"]["targets"], serde_json::json!(["i9"]));
    assert_eq!(v["checks"]["checkers"], serde_json::json!(["h8"]));
    assert_eq!(v["history"][0]["piece"], "G");
}

#[test]
fn each_earlier_position_can_be_shown_and_bad_plies_are_refused() {
    let s = session("hand-shogi");
    ok(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    let now = ok(&s, "POST", "/api/engine", r#"{"sims": 8}"#);
    let start = ok(&s, "GET", "/api/position?ply=0", "");
    assert_eq!(start["position"]["ply"], 0);
    assert_eq!(start["position"]["fen"], now["start"]);
    assert!(start["last"].is_null());
    let one = ok(&s, "GET", "/api/position?ply=1", "");
    assert_eq!(one["last"]["text"], "S@e5");
    assert_eq!(one["last"]["piece"], "S");
    assert_eq!(one["position"]["side_to_move"], "white");
    assert!(one["position"]["board"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["square"] == "e5" && p["piece"] == "S" && p["label"] == "S"));
    let two = ok(&s, "GET", "/api/position?ply=2", "");
    assert_eq!(two["position"]["fen"], now["fen"]);
    assert_eq!(two["last"]["text"], now["history"][1]["text"]);
    refused(
        &s,
        "GET",
        "/api/position?ply=3",
        "",
        400,
        "the game has 2 plies",
    );
    refused(
        &s,
        "GET",
        "/api/position?ply=x",
        "",
        400,
        "'x' is not a number",
    );
    refused(&s, "GET", "/api/position", "", 400, "ply=N is missing");
    refused(
        &s,
        "GET",
        "/api/position?at=1",
        "",
        400,
        "unknown parameter 'at=1'",
    );
}

#[test]
fn a_saved_record_loads_back_into_the_same_game() {
    let s = session("hand-shogi");
    ok(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    let v = ok(&s, "POST", "/api/engine", r#"{"sims": 8}"#);
    let third = v["legal"][0]["text"].as_str().unwrap();
    ok(
        &s,
        "POST",
        "/api/move",
        &format!(r#"{{"move": "{third}"}}"#),
    );
    let before = ok(&s, "GET", "/api/state", "");
    let record = ok(&s, "GET", "/api/record", "")["text"]
        .as_str()
        .unwrap()
        .to_owned();
    ok(&s, "POST", "/api/new", r#"{"human": "white"}"#);
    let body = serde_json::json!({ "record": record }).to_string();
    let after = ok(&s, "POST", "/api/load", &body);
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(after["human"], "black");
    assert_eq!(
        after["history"], before["history"],
        "moves and who played them"
    );
    assert_eq!(after["ply"], 3);

    // A record of a game from a position, the person playing White, typed with comments
    // and numbers written against the moves.
    let typed = format!(
        "[Variant \"hand-shogi\"]\n[White \"human\"]\n[FEN \"{MATE_IN_ONE}\"]\n\n\
         {{a mate in one}} 1.G@h8 {{mate}} 1-0\n"
    );
    let v = ok(
        &s,
        "POST",
        "/api/load",
        &serde_json::json!({ "record": typed }).to_string(),
    );
    assert_eq!(v["human"], "white");
    assert_eq!(v["outcome"]["reason"], "checkmate");
    assert_eq!(v["history"][0]["by"], "engine");
}

#[test]
fn a_bad_record_is_named_and_changes_nothing() {
    let s = session("hand-shogi");
    ok(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    let load = |text: &str| serde_json::json!({ "record": text }).to_string();
    refused(
        &s,
        "POST",
        "/api/load",
        &load("[Variant \"ko-shogi\"]\n\n1. a1a2 *"),
        400,
        "variant 'ko-shogi', but this game is hand-shogi",
    );
    refused(
        &s,
        "POST",
        "/api/load",
        &load("[Variant \"hand-shogi\"]\n\n1. S@e5 e7e6\n2. S@e5 *"),
        400,
        "move 3 ('S@e5', line 4)",
    );
    refused(
        &s,
        "POST",
        "/api/load",
        &load("[Variant hand-shogi]\n1. e3e4"),
        400,
        "line 1",
    );
    refused(
        &s,
        "POST",
        "/api/load",
        &load("1. e3e4 {never closed\n"),
        400,
        "not closed",
    );
    refused(
        &s,
        "POST",
        "/api/load",
        &load("[FEN \"9/9 b\"]\n"),
        400,
        "FEN",
    );
    refused(
        &s,
        "POST",
        "/api/load",
        r#"{"text": "x"}"#,
        400,
        "malformed",
    );
}

#[test]
fn the_persons_clock_runs_on_their_turn_and_its_flag_ends_the_game() {
    let s = session("hand-shogi");
    let v = ok(
        &s,
        "POST",
        "/api/new",
        r#"{"clock": {"main_secs": 60, "byoyomi_secs": 0}}"#,
    );
    assert_eq!(v["clock"]["control"]["main_secs"], 60);
    assert_eq!(v["clock"]["running"], true);
    assert!(v["clock"]["main_left_ms"].as_u64().unwrap() <= 60_000);
    // The engine's turn (and its search) do not run the person's clock.
    let v = ok(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    assert_eq!(v["clock"]["running"], false);
    let left = v["clock"]["main_left_ms"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let v = ok(&s, "GET", "/api/state", "");
    assert_eq!(v["clock"]["main_left_ms"].as_u64().unwrap(), left);
    let v = ok(&s, "POST", "/api/engine", r#"{"sims": 8}"#);
    assert_eq!(v["clock"]["running"], true);

    // One second a move: the flag falls while the person waits.
    let v = ok(&s, "POST", "/api/new", r#"{"clock": {"byoyomi_secs": 1}}"#);
    assert!(v["clock"]["byoyomi_left_ms"].as_u64().unwrap() <= 1_000);
    std::thread::sleep(Duration::from_millis(1_200));
    let v = ok(&s, "GET", "/api/state", "");
    assert_eq!(v["outcome"]["reason"], "time");
    assert_eq!(v["outcome"]["text"], "White wins on time");
    assert_eq!(v["clock"]["running"], false);
    let (status, e) = call(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    assert_eq!(status, 409, "{e}");
    let record = ok(&s, "GET", "/api/record", "")["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(record.contains("[Termination \"time\"]"), "{record}");
    // The loss on time is in the record, and loading it keeps it.
    ok(&s, "POST", "/api/new", "{}");
    let v = ok(
        &s,
        "POST",
        "/api/load",
        &serde_json::json!({ "record": record }).to_string(),
    );
    assert_eq!(v["outcome"]["reason"], "time");
    assert!(v["clock"].is_null());

    refused(
        &s,
        "POST",
        "/api/new",
        r#"{"clock": {"main_secs": 100000}}"#,
        400,
        "clock.main_secs 100000",
    );
    refused(
        &s,
        "POST",
        "/api/new",
        r#"{"clock": {"minutes": 5}}"#,
        400,
        "malformed",
    );
}
