//! External engines as arena players: koma-engine over each protocol, and an engine that
//! breaks the rules, which loses by forfeit with the reason recorded.

#[path = "../engine/tests/common/mod.rs"]
mod common;

use std::process::Command;

fn arena(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .arg("arena")
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .expect("koma runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn koma_engine_plays_in_the_arena_over_every_protocol() {
    let stem = common::tiny_checkpoint("hand-shogi", "arena-external");
    let engine = format!(
        "{} --model {}",
        env!("CARGO_BIN_EXE_koma-engine"),
        stem.display()
    );
    let record = stem.with_extension("games");
    for player in [
        format!("uci:{engine};go=nodes 8"),
        format!("usi:{engine};go=nodes 8"),
        format!("xboard:{engine};go=st 0.05;variant=handshogi"),
    ] {
        let (ok, out, err) = arena(&[
            "--a",
            "greedy",
            "--b",
            &player,
            "--games",
            "2",
            "--max-plies",
            "40",
            "--record",
            record.to_str().unwrap(),
        ]);
        assert!(ok, "{player}: {err}");
        assert!(out.contains("total           2"), "{player}: {out}");
        assert!(!out.contains("forfeit"), "{player}: {out}");
        let games = std::fs::read_to_string(&record).unwrap();
        assert_eq!(games.lines().count(), 2);
        // Every game replays under koma's rules.
        for line in games.lines() {
            let moves = line.split(" moves: ").nth(1).unwrap();
            let v = koma_rules::load_variant("hand-shogi").unwrap();
            let mut pos = koma_rules::Position::start(&v);
            pos.play_texts(moves)
                .unwrap_or_else(|e| panic!("{player}: {e}"));
        }
    }
}

#[test]
fn an_illegal_move_loses_the_game_and_is_recorded() {
    let dir = std::env::temp_dir().join(format!("koma-arena-cheat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A UCI engine that always answers a1a9 (a rook-like jump no Hand Shogi piece can make).
    let script = dir.join("cheat.sh");
    std::fs::write(
        &script,
        "while read -r line; do case \"$line\" in uci) echo uciok;; isready) echo readyok;; \
         go*) echo 'bestmove a1a9';; quit) exit 0;; esac; done\n",
    )
    .unwrap();
    let record = dir.join("games.txt");
    let (ok, out, err) = arena(&[
        "--a",
        "random",
        "--b",
        &format!("uci:sh {}", script.display()),
        "--games",
        "4",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("forfeit 4"), "{out}");
    assert!(out.contains("100.0%"), "{out}");
    let games = std::fs::read_to_string(&record).unwrap();
    assert_eq!(games.matches("forfeit=\"B").count(), 4, "{games}");
    assert!(
        games.contains("played 'a1a9': not legal in this position"),
        "{games}"
    );
    // An engine that does not exist, and malformed player strings, are clear errors.
    let (ok, _, err) = arena(&[
        "--a",
        "random",
        "--b",
        "uci:/nonexistent/engine",
        "--games",
        "2",
    ]);
    assert!(!ok);
    assert!(err.contains("/nonexistent/engine"), "{err}");
    let (ok, _, err) = arena(&["--a", "random", "--b", "uci:x;depth=3", "--games", "2"]);
    assert!(!ok);
    assert!(
        err.contains("setting 'depth=3' is not") || err.contains("unknown setting"),
        "{err}"
    );
}
