//! The `koma play` API: every endpoint, every kind of bad request, and the same through real
//! HTTP. A bad request must leave the game exactly as it was.

use koma_play::{handle, ApiResponse, PlayServer, ServerLimits};
use serde_json::Value;
use std::io::{Read, Write};
use std::time::Duration;

mod common;

use common::{call, ok, refused, session, MATE_IN_ONE};

#[test]
fn state_describes_the_variant_the_board_and_every_legal_move() {
    let s = session("hand-shogi");
    let v = ok(&s, "GET", "/api/state", "");
    assert_eq!(v["variant"]["id"], "hand-shogi");
    assert_eq!(v["variant"]["files"], 9);
    assert_eq!(v["variant"]["drops"], true);
    assert_eq!(v["model"]["step"], 7);
    assert_eq!(v["human"], "black");
    assert_eq!(v["side_to_move"], "black");
    assert_eq!(v["ply"], 0);
    assert_eq!(v["thinking"], false);
    assert!(v["outcome"].is_null() && v["analysis"].is_null());
    // 319 legal moves from the start (the perft table), 26 on the board and 293 drops.
    let legal = v["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 319);
    let drops = legal.iter().filter(|m| m["drop"].is_string()).count();
    assert_eq!(drops, 293);
    for m in legal {
        let clicks = m["clicks"].as_array().unwrap();
        let first = clicks[0].as_str().unwrap();
        match m["drop"].as_str() {
            Some(id) => assert_eq!(first, format!("@{id}")),
            None => assert_eq!(first, m["from"].as_str().unwrap()),
        }
        assert_eq!(clicks.last().unwrap(), &m["to"]);
    }
    let kings: Vec<&Value> = v["board"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["piece"] == "K")
        .collect();
    assert_eq!(kings.len(), 2);
    assert!(v["hands"]["black"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["id"] == "S" && h["count"] == 2));
}

#[test]
fn a_move_is_played_and_recorded() {
    let s = session("hand-shogi");
    let v = ok(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    assert_eq!(v["ply"], 1);
    assert_eq!(v["side_to_move"], "white");
    assert_eq!(v["history"][0]["text"], "S@e5");
    assert_eq!(v["history"][0]["by"], "human");
    assert_eq!(v["history"][0]["color"], "black");
    assert!(v["board"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["square"] == "e5" && p["piece"] == "S" && p["color"] == "black"));
}

#[test]
fn bad_moves_are_refused_and_change_nothing() {
    let s = session("hand-shogi");
    ok(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    refused(&s, "POST", "/api/move", r#"{"move": "zz99"}"#, 400, "zz99");
    refused(
        &s,
        "POST",
        "/api/move",
        r#"{"move": "e1e9"}"#,
        409,
        "not a legal move",
    );
    refused(
        &s,
        "POST",
        "/api/move",
        r#"{"mv": "e1e2"}"#,
        400,
        "unknown field",
    );
    refused(
        &s,
        "POST",
        "/api/move",
        r#"{}"#,
        400,
        "missing field `move`",
    );
    refused(&s, "POST", "/api/move", r#"{"move": 5}"#, 400, "malformed");
    refused(&s, "POST", "/api/move", "{not json", 400, "malformed");
    refused(&s, "POST", "/api/move", "", 400, "missing field");
    let invalid_utf8 = handle(&s, "POST", "/api/move", &[0xff, 0xfe]);
    assert_eq!(invalid_utf8.status, 400);
    assert!(invalid_utf8.text().contains("UTF-8"));
}

#[test]
fn the_engine_moves_and_shows_its_search() {
    let s = session("hand-shogi");
    ok(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    let v = ok(&s, "POST", "/api/engine", r#"{"sims": 24}"#);
    assert_eq!(v["ply"], 2);
    assert_eq!(v["history"][1]["by"], "engine");
    assert_eq!(v["history"][1]["color"], "white");
    let a = &v["analysis"];
    assert_eq!(a["ply"], 1);
    assert_eq!(a["color"], "white");
    assert_eq!(a["best"], v["history"][1]["text"]);
    assert!(a["simulations"].as_u64().unwrap() >= 24, "{a}");
    let wdl: f64 = a["wdl"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .sum();
    assert!((wdl - 1.0).abs() < 1e-3, "{a}");
    let top = a["top"].as_array().unwrap();
    assert!(!top.is_empty() && top.len() <= 10);
    assert_eq!(a["pv"][0], a["best"]);
    // With a time budget, and with the server's default.
    let v = ok(&s, "POST", "/api/engine", r#"{"millis": 150}"#);
    assert_eq!(v["ply"], 3);
    let v = ok(&s, "POST", "/api/engine", "");
    assert_eq!(v["ply"], 4);
}

#[test]
fn bad_engine_requests_are_refused() {
    let s = session("hand-shogi");
    refused(&s, "POST", "/api/engine", r#"{"sims": 0}"#, 400, "sims 0");
    refused(
        &s,
        "POST",
        "/api/engine",
        r#"{"sims": -3}"#,
        400,
        "malformed",
    );
    refused(
        &s,
        "POST",
        "/api/engine",
        r#"{"millis": 0}"#,
        400,
        "millis 0",
    );
    refused(
        &s,
        "POST",
        "/api/engine",
        r#"{"millis": 99999999}"#,
        400,
        "millis",
    );
    refused(
        &s,
        "POST",
        "/api/engine",
        r#"{"depth": 3}"#,
        400,
        "unknown field",
    );
}

#[test]
fn requests_during_a_search_are_refused_and_the_state_can_still_be_read() {
    let s = session("hand-shogi");
    let searching = {
        let s = s.clone();
        std::thread::spawn(move || ok(&s, "POST", "/api/engine", r#"{"millis": 1500}"#))
    };
    let mut seen_thinking = false;
    for _ in 0..100 {
        let v = ok(&s, "GET", "/api/state", "");
        if v["thinking"] == true {
            seen_thinking = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(seen_thinking, "the state never showed the search");
    for (path, body) in [
        ("/api/move", r#"{"move": "S@e5"}"#),
        ("/api/engine", "{}"),
        ("/api/undo", "{}"),
        ("/api/new", "{}"),
    ] {
        let (st, v) = call(&s, "POST", path, body);
        assert_eq!(st, 409, "{path}: {v}");
        assert!(v["error"].as_str().unwrap().contains("searching"), "{v}");
    }
    let v = searching.join().unwrap();
    assert_eq!(v["ply"], 1);
    assert_eq!(v["thinking"], false);
}

#[test]
fn undo_takes_back_to_the_persons_turn_or_a_number_of_plies() {
    let s = session("hand-shogi");
    refused(&s, "POST", "/api/undo", "{}", 409, "no move");
    ok(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    ok(&s, "POST", "/api/engine", r#"{"sims": 8}"#);
    let v = ok(&s, "GET", "/api/state", "");
    let second = serde_json::json!({ "move": v["legal"][0]["text"] }).to_string();
    ok(&s, "POST", "/api/move", &second);
    ok(&s, "POST", "/api/engine", r#"{"sims": 8}"#);
    let v = ok(&s, "POST", "/api/undo", "");
    assert_eq!(v["ply"], 2);
    assert_eq!(v["side_to_move"], "black");
    assert!(
        v["analysis"].is_null(),
        "the analysis of an undone search is dropped"
    );
    refused(&s, "POST", "/api/undo", r#"{"plies": 3}"#, 409, "only 2");
    refused(
        &s,
        "POST",
        "/api/undo",
        r#"{"plies": 0}"#,
        400,
        "at least 1",
    );
    refused(
        &s,
        "POST",
        "/api/undo",
        r#"{"plies": "x"}"#,
        400,
        "malformed",
    );
    let v = ok(&s, "POST", "/api/undo", r#"{"plies": 1}"#);
    assert_eq!(v["ply"], 1);
    let v = ok(&s, "POST", "/api/undo", r#"{"plies": 1}"#);
    assert_eq!(v["ply"], 0);
    assert_eq!(v["legal"].as_array().unwrap().len(), 319);
}

#[test]
fn new_games_from_the_start_or_a_position_with_either_colour() {
    let s = session("hand-shogi");
    ok(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    let v = ok(&s, "POST", "/api/new", r#"{"human": "white"}"#);
    assert_eq!(v["ply"], 0);
    assert_eq!(v["human"], "white");
    assert!(v["history"].as_array().unwrap().is_empty());
    let fen = format!(r#"{{"human": "black", "fen": "{MATE_IN_ONE}"}}"#);
    let v = ok(&s, "POST", "/api/new", &fen);
    assert_eq!(v["fen"].as_str().unwrap(), format!("{MATE_IN_ONE} 0"));
    assert_eq!(v["start"], v["fen"]);
    refused(&s, "POST", "/api/new", r#"{"human": "red"}"#, 400, "red");
    refused(
        &s,
        "POST",
        "/api/new",
        r#"{"fen": "9/9 b -"}"#,
        400,
        "fen: position text",
    );
    refused(
        &s,
        "POST",
        "/api/new",
        r#"{"fen": "8k/9/9/9/9/9/9/9/K8 b (ZZ)"}"#,
        400,
        "ZZ",
    );
    refused(
        &s,
        "POST",
        "/api/new",
        r#"{"colour": "black"}"#,
        400,
        "unknown field",
    );
}

#[test]
fn the_end_of_the_game_is_reported_and_ends_play() {
    let s = session("hand-shogi");
    ok(
        &s,
        "POST",
        "/api/new",
        &format!(r#"{{"fen": "{MATE_IN_ONE}"}}"#),
    );
    let v = ok(&s, "POST", "/api/move", r#"{"move": "G@h8"}"#);
    assert_eq!(v["outcome"]["result"], "1-0");
    assert_eq!(v["outcome"]["winner"], "black");
    assert_eq!(v["outcome"]["reason"], "checkmate");
    assert_eq!(v["outcome"]["text"], "Black wins by checkmate");
    assert!(v["legal"].as_array().unwrap().is_empty());
    assert_eq!(v["in_check"], true);
    refused(
        &s,
        "POST",
        "/api/move",
        r#"{"move": "i9i8"}"#,
        409,
        "game is over",
    );
    refused(&s, "POST", "/api/engine", "{}", 409, "game is over");
    let r = ok(&s, "GET", "/api/record", "");
    assert_eq!(r["result"], "1-0");
    assert_eq!(r["reason"], "checkmate");
    assert_eq!(r["moves"], serde_json::json!(["G@h8"]));
    let text = r["text"].as_str().unwrap();
    assert!(
        text.contains("[FEN \"8k/9/9/9/7(SH)1/9/9/9/K8 b G 0\"]"),
        "{text}"
    );
    assert!(text.contains("1. G@h8 1-0"), "{text}");
}

#[test]
fn the_engine_finds_the_mate_in_one() {
    let s = session("hand-shogi");
    ok(
        &s,
        "POST",
        "/api/new",
        &format!(r#"{{"human": "white", "fen": "{MATE_IN_ONE}"}}"#),
    );
    let v = ok(&s, "POST", "/api/engine", r#"{"sims": 50}"#);
    assert_eq!(v["history"][0]["text"], "G@h8");
    assert_eq!(v["outcome"]["winner"], "black");
}

#[test]
fn the_record_lists_the_game() {
    let s = session("hand-shogi");
    ok(&s, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    ok(&s, "POST", "/api/engine", r#"{"sims": 8}"#);
    let r = ok(&s, "GET", "/api/record", "");
    assert_eq!(r["variant"], "hand-shogi");
    assert_eq!(r["result"], "*");
    assert!(r["reason"].is_null());
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    let text = r["text"].as_str().unwrap();
    assert!(text.contains("[Variant \"hand-shogi\"]"), "{text}");
    assert!(text.contains("[Black \"human\"]"), "{text}");
    assert!(!text.contains("[FEN"), "{text}");
    assert!(
        text.contains(&format!("1. S@e5 {} *", moves[1].as_str().unwrap())),
        "{text}"
    );
}

#[test]
fn unknown_paths_wrong_methods_and_huge_bodies_are_refused() {
    let s = session("hand-shogi");
    refused(&s, "GET", "/api/nothing", "", 404, "no such path");
    refused(&s, "GET", "/api/move", "", 405, "POST");
    refused(&s, "POST", "/api/state", "{}", 405, "GET");
    refused(&s, "DELETE", "/api/undo", "", 405, "POST");
    let huge = format!(r#"{{"move": "{}"}}"#, "a".repeat(70_000));
    refused(&s, "POST", "/api/move", &huge, 413, "over");
    let page = handle(&s, "GET", "/", b"");
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"));
    assert!(page.text().contains("<html"));
}

#[test]
fn multi_leg_and_shot_moves_are_clicked_leg_by_leg() {
    // Along random games of the variants with multi-leg moves and shots, the clicks of a
    // move name its legs in order, and no two legal moves share clicks and promotion: the page
    // can always tell which move the person entered.
    use rand::{Rng, SeedableRng};
    for variant in ["shoko-shogi", "ko-shogi"] {
        let s = session(variant);
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        let (mut multi, mut shots) = (0, 0);
        for _ in 0..80 {
            let v = ok(&s, "GET", "/api/state", "");
            let legal = v["legal"].as_array().unwrap().clone();
            if legal.is_empty() {
                break;
            }
            let mut seen = std::collections::HashSet::new();
            for m in &legal {
                let key = (m["clicks"].to_string(), m["promotion"].to_string());
                assert!(seen.insert(key), "{variant}: two moves click alike: {m}");
                let clicks: Vec<&str> = m["clicks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|c| c.as_str().unwrap())
                    .collect();
                let kills = m["kills"].as_array().unwrap().len();
                let shot = m["shots"].as_array().unwrap().len();
                if kills > 0 && shot == 0 {
                    multi += 1;
                    // Origin, one click per kill square, then the destination.
                    assert_eq!(clicks.len(), kills + 2, "{m}");
                    for (i, k) in m["kills"].as_array().unwrap().iter().enumerate() {
                        assert_eq!(clicks[i + 1], k.as_str().unwrap(), "{m}");
                    }
                }
                if shot > 0 {
                    shots += 1;
                    for t in m["shots"].as_array().unwrap() {
                        assert!(clicks.contains(&t.as_str().unwrap()), "{m}");
                    }
                }
            }
            let pick = &legal[rng.gen_range(0..legal.len())];
            let body = serde_json::json!({ "move": pick["text"] }).to_string();
            ok(&s, "POST", "/api/move", &body);
        }
        if variant == "shoko-shogi" {
            assert!(multi > 0, "shoko-shogi: no multi-leg capture seen");
        } else {
            assert!(shots > 0, "ko-shogi: no shot seen");
        }
    }
}

/// Sends one HTTP/1.0 request (so the answer is not chunked) and returns the status and body.
fn http(addr: std::net::SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.0\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status: u16 = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {answer}"));
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

#[test]
fn the_server_answers_over_http() {
    let s = session("hand-shogi");
    let server = PlayServer::start("127.0.0.1:0", s.clone()).unwrap();
    let addr = server.addr();
    let (st, page) = http(addr, "GET", "/", "");
    assert_eq!(st, 200);
    assert!(page.contains("<html") && page.contains("koma.js") && page.contains("koma.css"));
    let (st, script) = http(addr, "GET", "/koma.js", "");
    assert_eq!(st, 200);
    assert!(script.contains("/api/state"), "the script talks to the API");
    let (st, style) = http(addr, "GET", "/koma.css", "");
    assert_eq!(st, 200);
    assert!(style.contains("--sq"), "the style sheet");
    let (st, _) = http(addr, "POST", "/koma.js", "");
    assert_eq!(st, 405, "the page's files are read-only");
    let (st, body) = http(addr, "POST", "/api/move", r#"{"move": "S@e5"}"#);
    assert_eq!(st, 200, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["ply"], 1);
    let (st, body) = http(addr, "POST", "/api/move", r#"{"move": "nonsense"}"#);
    assert_eq!(st, 400, "{body}");
    let (st, _) = http(addr, "GET", "/favicon.ico", "");
    assert_eq!(st, 404);
    let (st, body) = http(addr, "POST", "/api/engine", r#"{"sims": 8}"#);
    assert_eq!(st, 200, "{body}");
    assert_eq!(s.moves().len(), 2);
    server.stop();
}

#[test]
fn an_error_answer_is_json_with_the_reason() {
    let r = ApiResponse::error(418, "a reason");
    assert_eq!(r.status, 418);
    assert_eq!(r.text(), r#"{"error":"a reason"}"#);
}

/// Limits short enough for a test: one-second timeouts, two connections.
fn tight_limits() -> ServerLimits {
    ServerLimits {
        head_timeout: Duration::from_secs(1),
        body_timeout: Duration::from_secs(1),
        max_head: 8 * 1024,
        max_body: 4 * 1024,
        max_connections: 2,
    }
}

/// Reads until the server closes the connection (or 10 s pass) and returns what it sent and
/// how long it took to close.
fn read_until_closed(stream: &mut std::net::TcpStream) -> (String, Duration) {
    let started = std::time::Instant::now();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => break,
            Err(e) => panic!("the server kept the connection open: {e}"),
        }
    }
    (
        String::from_utf8_lossy(&got).into_owned(),
        started.elapsed(),
    )
}

#[test]
fn large_heads_and_bodies_are_refused_over_http() {
    let s = session("hand-shogi");
    let server = PlayServer::start_with("127.0.0.1:0", s.clone(), tight_limits()).unwrap();
    let addr = server.addr();
    let body = format!(r#"{{"move": "{}"}}"#, "a".repeat(5_000));
    let (st, text) = http(addr, "POST", "/api/move", &body);
    assert_eq!(st, 413, "{text}");
    assert!(text.contains("over 4096 bytes"), "{text}");
    // A declared length over the limit is refused without waiting for the bytes.
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n"
    )
    .unwrap();
    let (answer, took) = read_until_closed(&mut stream);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(took < Duration::from_secs(3), "took {took:?}");
    // A head past 8 KiB, sent in one write. The server may answer and close before the last
    // bytes are in, so a refused write is no failure: the answer is what counts.
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    let head = format!(
        "GET /api/state HTTP/1.1\r\nHost: x\r\nX-Padding: {}\r\n\r\n",
        "p".repeat(20_000)
    );
    if let Err(e) = stream.write_all(head.as_bytes()) {
        assert!(
            matches!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe | std::io::ErrorKind::ConnectionReset
            ),
            "{e}"
        );
    }
    let (answer, _) = read_until_closed(&mut stream);
    assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
    // Nothing of it reached the game, and the server still answers.
    let (st, _) = http(addr, "GET", "/api/state", "");
    assert_eq!(st, 200);
    assert!(s.moves().is_empty());
    server.stop();
}

#[test]
fn slow_and_idle_clients_are_cut_off() {
    let s = session("hand-shogi");
    let server = PlayServer::start_with("127.0.0.1:0", s.clone(), tight_limits()).unwrap();
    let addr = server.addr();
    // Connected, never sends anything.
    let mut idle = std::net::TcpStream::connect(addr).unwrap();
    // Half a head, then nothing.
    let mut half_head = std::net::TcpStream::connect(addr).unwrap();
    write!(half_head, "POST /api/move HTTP/1.1\r\nHost: x\r\n").unwrap();
    let (_, took) = read_until_closed(&mut idle);
    assert!(took < Duration::from_secs(4), "idle kept {took:?}");
    let (_, took) = read_until_closed(&mut half_head);
    assert!(took < Duration::from_secs(4), "half a head kept {took:?}");
    // A whole head, then a tenth of the body it announced.
    let mut slow_body = std::net::TcpStream::connect(addr).unwrap();
    write!(
        slow_body,
        "POST /api/move HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{{\"move\":"
    )
    .unwrap();
    let (answer, took) = read_until_closed(&mut slow_body);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("did not arrive within 1 s"), "{answer}");
    assert!(took < Duration::from_secs(4), "a slow body kept {took:?}");
    assert!(s.moves().is_empty());
    let (st, _) = http(addr, "GET", "/api/state", "");
    assert_eq!(st, 200);
    server.stop();
}

#[test]
fn connections_past_the_limit_are_closed_and_the_rest_still_served() {
    let s = session("hand-shogi");
    let limits = ServerLimits {
        head_timeout: Duration::from_secs(30),
        ..tight_limits()
    };
    let server = PlayServer::start_with("127.0.0.1:0", s, limits).unwrap();
    let addr = server.addr();
    let first = std::net::TcpStream::connect(addr).unwrap();
    let second = std::net::TcpStream::connect(addr).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let mut third = std::net::TcpStream::connect(addr).unwrap();
    let (answer, took) = read_until_closed(&mut third);
    assert!(answer.is_empty(), "{answer}");
    assert!(took < Duration::from_secs(3), "the third waited {took:?}");
    drop(first);
    std::thread::sleep(Duration::from_millis(300));
    let (st, _) = http(addr, "GET", "/api/state", "");
    assert_eq!(st, 200, "a slot freed by a closed connection is used again");
    drop(second);
    server.stop();
}

#[test]
fn an_address_other_machines_reach_is_warned_about() {
    let s = session("hand-shogi");
    let local = PlayServer::start("127.0.0.1:0", s.clone()).unwrap();
    assert_eq!(local.exposure_warning(), None);
    local.stop();
    let open = PlayServer::start("0.0.0.0:0", s).unwrap();
    let warning = open.exposure_warning().expect("a warning for 0.0.0.0");
    assert!(warning.contains("no authentication"), "{warning}");
    open.stop();
}
