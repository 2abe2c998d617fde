//! The `koma` command line, run as a user would.

#[path = "../arena/tests/common/mod.rs"]
mod common;
mod koma_cli;
#[path = "common/mod.rs"]
mod loop_common;

use koma_cli::koma;

#[test]
fn perft_prints_the_count() {
    let (ok, out, _) = koma(&["perft", "--variant", "hand-shogi", "--depth", "2"]);
    assert!(ok);
    assert_eq!(out.trim(), "96721");
}

#[test]
fn perft_divide_lists_every_move_and_the_total() {
    let (ok, out, _) = koma(&["perft", "--depth", "2", "--divide", "--moves", "e3e4"]);
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 319 + 1, "319 replies to e3e4 and the total");
    let sum: u64 = lines[..319]
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(lines[319].parse::<u64>().unwrap(), sum);
}

#[test]
fn moves_lists_legal_moves_in_canonical_text() {
    let (ok, out, _) = koma(&["moves", "--variant", "hand-shogi"]);
    assert!(ok);
    let moves: Vec<&str> = out.lines().collect();
    assert_eq!(moves.len(), 319);
    assert!(moves.contains(&"e3e4") && moves.contains(&"SH@e5") && moves.contains(&"H@c7"));
}

#[test]
fn moves_from_a_position_text() {
    let (ok, out, _) = koma(&["moves", "--fen", "8k/9/9/9/4N4/9/9/9/K8 b -"]);
    assert!(ok);
    let moves: Vec<&str> = out.lines().collect();
    assert_eq!(moves, vec!["a1a2", "a1b1", "a1b2", "e5d7+", "e5f7+"]);
}

#[test]
fn an_illegal_move_is_named() {
    let (ok, _, err) = koma(&["moves", "--moves", "e3e4 e7e6 e4e6"]);
    assert!(!ok);
    assert!(err.contains("move 3") && err.contains("'e4e6'"), "{err}");
    let (ok, _, err) = koma(&["perft", "--depth", "1", "--moves", "e3x4"]);
    assert!(!ok);
    assert!(err.contains("'e3x4' is not a move"), "{err}");
}

#[test]
fn a_bad_position_text_is_explained() {
    let (ok, _, err) = koma(&["moves", "--fen", "8k/9/9/9/4Q4/9/9/9/K8 b -"]);
    assert!(!ok);
    assert!(
        err.contains("rank 5") && err.contains("no piece 'Q'"),
        "{err}"
    );
}

#[test]
fn a_malformed_variant_file_names_file_and_line() {
    let dir = std::env::temp_dir().join(format!("koma-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.toml");
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/variants/hand-shogi.toml"
    ))
    .unwrap()
    .replace("betza = \"ffN\"", "betza = \"ffX\"");
    std::fs::write(&path, &text).unwrap();
    let line = text.lines().position(|l| l.contains("ffX")).unwrap() + 1;
    let (ok, _, err) = koma(&["perft", "--depth", "1", "--variant", path.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains(&format!("broken.toml:{line}:")), "{err}");
    assert!(err.contains("'X' is not an XBetza atom"), "{err}");
    let (ok, _, err) = koma(&["perft", "--depth", "1", "--variant", "no-such-variant"]);
    assert!(
        !ok && err.contains("unknown variant 'no-such-variant'"),
        "{err}"
    );
}

#[test]
fn arena_reports_a_results_table_and_elo() {
    let (ok, out, err) = koma(&[
        "arena",
        "--a",
        "greedy",
        "--b",
        "random",
        "--games",
        "4",
        "--max-plies",
        "80",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("Elo"), "{out}");
    let (ok, _, err) = koma(&["arena", "--a", "rnd", "--b", "random", "--games", "2"]);
    assert!(!ok);
    assert!(err.contains("unknown player 'rnd'"), "{err}");
}

/// A tiny untrained Hand Shogi checkpoint; returns its stem.
fn tiny_model(name: &str) -> std::path::PathBuf {
    common::tiny_checkpoint("hand-shogi", &format!("cli-{name}"))
}

#[test]
fn analyse_shows_the_networks_view_and_the_searched_moves() {
    let stem = tiny_model("analyse");
    let stem = stem.to_str().unwrap();
    let fen = "8k/9/9/9/7(SH)1/9/9/9/K8 b G";
    let (ok, out, err) = koma(&[
        "analyse", "--model", stem, "--fen", fen, "--sims", "32", "--top", "3",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("network: value"), "{out}");
    assert!(out.contains("material"), "{out}");
    // The mate check plays the mate in one whatever the untrained network says.
    assert!(out.contains("search: best G@h8"), "{out}");
    let listed = out
        .lines()
        .skip_while(|l| !l.contains("visits"))
        .skip(1)
        .count();
    assert_eq!(listed, 3, "{out}");
    let (ok, _, err) = koma(&["analyse", "--model", "/nonexistent/model", "--fen", fen]);
    assert!(!ok);
    assert!(err.contains("/nonexistent/model"), "{err}");
}

/// A match cut off keeps the games it finished, and `--resume` plays only the others: the
/// kept games count as read from the file (one is edited here to a resignation no baseline
/// makes), a line cut off while being written is played again, and a file of another match, or
/// a match that fails to start, leaves the file as it was.
#[test]
fn arena_resumes_a_match_from_its_record() {
    let dir = std::env::temp_dir().join(format!("koma-arena-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("games.txt");
    let args = |seed: &'static str| {
        vec![
            "--a",
            "greedy",
            "--b",
            "random",
            "--games",
            "6",
            "--max-plies",
            "30",
            "--seed",
            seed,
            "--record",
            record.to_str().unwrap(),
        ]
    };
    let (ok, out, err) = arena(&args("3"));
    assert!(ok, "{err}");
    assert!(out.contains("6 games in"), "{out}");
    let full = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    assert_eq!(lines.len(), 7, "{full}");
    // The header, games 0 and 3 (game 0 now A's resignation win), half of game 4's line.
    let kept0 = lines[1].replacen(
        &lines[1][lines[1].find("result=").unwrap()..lines[1].find(" moves:").unwrap()],
        "result=\"black wins (Resignation)\"",
        1,
    );
    let cut = format!(
        "{}\n{kept0}\n{}\n{}",
        lines[0],
        lines[4],
        &lines[5][..lines[5].len() / 2]
    );
    std::fs::write(&record, &cut).unwrap();
    let mut resume = args("3");
    resume.push("--resume");
    let (ok, out, err) = arena(&resume);
    assert!(ok, "{err}");
    assert!(
        out.contains("6 games in") && out.contains("2 of them kept from the record"),
        "{out}"
    );
    assert!(out.contains("resignation 1"), "{out}");
    assert!(err.contains("cut off while being written"), "{err}");
    let after = std::fs::read_to_string(&record).unwrap();
    let after: Vec<&str> = after.lines().collect();
    assert_eq!(after.len(), 7, "{after:?}");
    assert_eq!(after[1], kept0);
    for (i, line) in after[1..].iter().enumerate() {
        assert!(line.starts_with(&format!("game {i} ")), "{after:?}");
    }
    // Games 1, 2, 4 and 5 were played again, with the same openings and seeds.
    for i in [2, 3, 5, 6] {
        assert_eq!(after[i], lines[i]);
    }
    // Another seed is another match: refused, and the file keeps its games.
    let before = std::fs::read_to_string(&record).unwrap();
    let mut other = args("4");
    other.push("--resume");
    let (ok, _, err) = arena(&other);
    assert!(!ok);
    assert!(
        err.contains("line 1: the file records another match"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap(), before);
    // A kept game whose opening is not its pair's under these settings.
    let moved = before.replacen(" moves: ", " moves: 9i9h ", 1);
    std::fs::write(&record, &moved).unwrap();
    let (ok, _, err) = arena(&resume);
    assert!(!ok);
    assert!(
        err.contains("game 0 of the record: its opening is 9i9h"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&record).unwrap(), moved);
    // A match that fails to start, resumed or not, leaves the file as it was.
    for extra in [None, Some("--resume")] {
        // The variant given, so that the model is first looked for when the match starts.
        let mut bad = vec![
            "--variant",
            "hand-shogi",
            "--a",
            "model:/nonexistent/model",
            "--b",
            "random",
            "--games",
            "2",
            "--record",
            record.to_str().unwrap(),
        ];
        bad.extend(extra);
        let (ok, _, err) = arena(&bad);
        assert!(!ok);
        assert!(err.contains("/nonexistent/model"), "{err}");
        assert_eq!(std::fs::read_to_string(&record).unwrap(), moved);
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn arena_records_every_game_and_takes_search_options() {
    let stem = tiny_model("record");
    let record = stem.with_file_name("games.txt");
    let player = format!("model:{}:sims=4:material=0.8", stem.display());
    let (ok, out, err) = koma(&[
        "arena",
        "--a",
        &player,
        "--b",
        "random",
        "--games",
        "2",
        "--max-plies",
        "20",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("material=0.8"), "{out}");
    let text = std::fs::read_to_string(&record).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with("# koma arena variant=hand-shogi a=model:"),
        "{text}"
    );
    assert!(lines[1].starts_with("game 0 a=Black result="), "{text}");
    assert!(lines[2].starts_with("game 1 a=White result="), "{text}");
    let (ok, _, err) = koma(&[
        "arena",
        "--a",
        "model:x:material=2",
        "--b",
        "random",
        "--games",
        "2",
    ]);
    assert!(!ok);
    assert!(err.contains("not a weight from 0 to 1"), "{err}");
}

/// `koma arena` with its arguments.
fn arena(args: &[&str]) -> (bool, String, String) {
    let mut all = vec!["arena"];
    all.extend_from_slice(args);
    koma(&all)
}

// External engines as arena players: koma-engine over each protocol, and an engine that
// breaks the rules, which loses by forfeit with the reason recorded.

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
        let games: Vec<&str> = games.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(games.len(), 2);
        // Every game replays under koma's rules.
        for line in games {
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

#[test]
fn bad_store_settings_are_explained_before_anything_runs() {
    let dir = std::env::temp_dir().join(format!("koma-cli-store-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    for (args, want) in [
        (
            vec!["status", "--store", "gs://bucket/x"],
            "unknown scheme 'gs'",
        ),
        (vec!["status", "--store", "s3://Bad_Name"], "bucket name"),
        (
            vec![
                "status",
                "--store",
                "s3://koma/run",
                "--store-endpoint",
                "http://127.0.0.1:9",
            ],
            "--store-allow-http",
        ),
        (vec!["status"], "--store URL, or --run-dir"),
        (
            vec!["selfplay", "--run-dir", d, "--worker-id", "a/b"],
            "--worker-id 'a/b'",
        ),
        (
            vec!["trainer", "--run-dir", d, "--device", "tpu"],
            "--device tpu",
        ),
    ] {
        let (ok, _, err) = koma(&args);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    // An empty local store: a status with nothing in it yet.
    let (ok, out, err) = koma(&["status", "--store", &format!("file://{d}/store")]);
    assert!(ok, "{err}");
    assert!(
        out.contains("none published yet") && out.contains("0 seen"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ladder_rates_a_runs_published_models() {
    use koma_store::Store;
    let dir = std::env::temp_dir().join(format!("koma-cli-ladder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::local(&dir.join("store")).unwrap();
    for step in [0, 500, 700] {
        let mut m = common::tiny_model("hand-shogi");
        m.meta.step = step;
        koma_trainer::publish_model(&store, &m, &dir.join("scratch")).unwrap();
    }
    let d = dir.to_str().unwrap();
    let args = [
        "ladder",
        "--run-dir",
        d,
        "--games",
        "2",
        "--sims",
        "2",
        "--max-plies",
        "30",
    ];
    let (ok, out, err) = koma(&args);
    assert!(ok, "{err}");
    // Steps 0 and 500 (multiples of 500) and the newest, 700.
    for p in [
        "random",
        "greedy",
        "alphabeta:depth=1",
        "alphabeta:depth=2",
        "step-0",
        "step-500",
        "step-700",
    ] {
        assert!(out.contains(p), "{p} missing:\n{out}");
    }
    // Each model against the four baselines, and the two later ones against the one before.
    assert!(out.contains("3 new models rated in 14 matches"), "{out}");
    for f in ["ladder/results.csv", "ladder/ratings.csv", "ladder/elo.png"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    assert!(std::fs::read_dir(dir.join("tb/ladder")).unwrap().count() > 0);
    // A second run rates nothing new.
    let (ok, out, err) = koma(&args);
    assert!(ok, "{err}");
    assert!(out.contains("0 new models rated in 0 matches"), "{out}");
    let (ok, _, err) = koma(&["ladder", "--run-dir", d, "--games", "3"]);
    assert!(!ok && err.contains("--games 3"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `koma arena --matches`: Hand Shogi's matches, won by two hands in a row with the first move
/// alternating between hands; every recorded hand replays under the rules.
#[test]
fn arena_plays_matches_of_two_hands_in_a_row() {
    let dir = std::env::temp_dir().join(format!("koma-arena-matches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("hands.txt");
    // Two random players: draws, broken runs and undecided matches all occur.
    let (ok, out, err) = arena(&[
        "--a",
        "random",
        "--b",
        "random",
        "--matches",
        "6",
        "--max-hands",
        "5",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("6 matches (first to win 2 hands in a row"),
        "{out}"
    );
    let text = std::fs::read_to_string(&record).unwrap();
    // match -> (winner, [(A's colour, hand winner as "A"/"B"/"-")])
    let mut matches: std::collections::BTreeMap<usize, (String, Vec<(String, String)>)> =
        Default::default();
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let m: usize = w[1].parse().unwrap();
        let h: usize = w[4].parse().unwrap();
        let a_color = w[5].trim_start_matches("a=").to_owned();
        let result = line.split("result=\"").nth(1).unwrap();
        let hand_winner = if result.starts_with("draw") {
            "-"
        } else if result.starts_with(&a_color.to_lowercase()) {
            "A"
        } else {
            "B"
        };
        let entry = matches
            .entry(m)
            .or_insert_with(|| (w[2].trim_start_matches("winner=").to_owned(), vec![]));
        assert_eq!(entry.1.len(), h, "hands in order: {line}");
        // The first move alternates: A is Black in hand h of match m when m + h is even.
        let expected = if (m + h).is_multiple_of(2) {
            "Black"
        } else {
            "White"
        };
        assert_eq!(a_color, expected, "{line}");
        entry.1.push((a_color, hand_winner.to_owned()));
        let moves = line.split("moves: ").nth(1).unwrap();
        let (ok, _, err) = koma(&["moves", "--variant", "hand-shogi", "--moves", moves]);
        assert!(ok, "hand does not replay: {err}\n{line}");
    }
    assert_eq!(matches.len(), 6, "{text}");
    for (m, (winner, hands)) in &matches {
        let winners: Vec<&str> = hands.iter().map(|(_, w)| w.as_str()).collect();
        let first_double = winners.windows(2).position(|p| p[0] == p[1] && p[0] != "-");
        match first_double {
            Some(i) => {
                assert_eq!(i + 2, hands.len(), "match {m} went on after {winners:?}");
                assert_eq!(winner, winners[i], "match {m}: {winners:?}");
            }
            None => {
                assert_eq!(hands.len(), 5, "match {m} stopped early: {winners:?}");
                assert_eq!(winner, "none");
            }
        }
    }
    assert!(out.contains("matches "), "{out}");
    let (ok, _, err) = arena(&[
        "--a",
        "greedy",
        "--b",
        "random",
        "--matches",
        "2",
        "--max-hands",
        "1",
    ]);
    assert!(!ok);
    assert!(err.contains("at least 2 hands"), "{err}");
    let (ok, _, err) = arena(&["--a", "greedy", "--b", "random"]);
    assert!(!ok);
    assert!(
        err.contains("--games") || err.contains("--matches"),
        "{err}"
    );
}

/// `koma games`: a store's self-play games per stretch of training, a damaged chunk named and
/// skipped.
#[test]
fn games_summarises_a_stores_self_play_games() {
    use koma_store::{chunk, GameRecord, GameResult, Store};
    let dir = std::env::temp_dir().join(format!("koma-cli-games-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::local(&dir.join("store")).unwrap();
    let game = |step: u64, plies: usize, result: GameResult, reason: &str| GameRecord {
        variant: "hand-shogi".into(),
        start: None,
        moves: vec![0; plies],
        searches: vec![None; plies],
        result,
        reason: reason.into(),
        resigned: false,
        model_step: step,
    };
    let early = [
        game(0, 400, GameResult::Draw, "draw (MaxLength)"),
        game(0, 100, GameResult::BlackWin, "Black wins (Checkmate)"),
    ];
    let late = [
        game(900, 60, GameResult::WhiteWin, "White wins (Checkmate)"),
        game(900, 40, GameResult::BlackWin, "Black wins (Checkmate)"),
    ];
    store
        .put("games/w/0000000000-2g-500p.chunk", chunk::encode(&early))
        .unwrap();
    store
        .put("games/w/0000000001-2g-100p.chunk", chunk::encode(&late))
        .unwrap();
    store
        .put(
            "games/w/0000000002-1g-9p.chunk",
            b"KOMAGMS1 damaged".to_vec(),
        )
        .unwrap();
    let d = dir.to_str().unwrap();
    let (ok, out, err) = koma(&["games", "--run-dir", d, "--stretches", "2"]);
    assert!(ok, "{err}");
    assert!(out.contains("chunks 3 (1 unreadable)"), "{out}");
    assert!(out.contains("0000000002-1g-9p.chunk"), "{out}");
    let row = |label: &str| {
        out.lines()
            .find(|l| l.starts_with(label))
            .unwrap_or_else(|| panic!("no row {label}:\n{out}"))
            .split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    // steps, games, black-draw-white, mean, median, p90, max, draws by material, reasons...
    assert_eq!(row("0-0")[1..4], ["2", "1-1-0", "250"]);
    // The one draw, 400 times the first legal move, is sorted by its material at the end, or
    // named as a record that does not replay; the won games are not counted.
    let margins = row("all")[7].clone();
    assert!(
        ["1/0/0", "0/1/0", "0/0/1", "0/0/0?1"].contains(&margins.as_str()),
        "{out}"
    );
    assert_eq!(row("900-900")[7], "0/0/0", "{out}");
    assert!(
        out.contains("draws =/+/++: drawn games whose material"),
        "{out}"
    );
    assert_eq!(row("900-900")[1..3], ["2", "1-0-1"]);
    let all = row("all");
    assert_eq!(all[1..3], ["4", "2-1-1"]);
    assert_eq!(all[6], "400");
    assert!(out.contains("Checkmate 75%, MaxLength 25%"), "{out}");
    let (ok, json, err) = koma(&["games", "--run-dir", d, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["all"]["games"], 4);
    assert_eq!(v["unreadable"].as_array().unwrap().len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `koma teach` writes the classical baseline's games to a run's store as training records,
/// `koma games` reads them like self-play's, and `koma trainer` trains a model on them alone
/// (the supervised start); bad settings are named before anything runs.
#[test]
fn teach_writes_teacher_games_that_the_trainer_learns_from() {
    let dir = std::env::temp_dir().join(format!("koma-cli-teach-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    for (args, want) in [
        (vec!["--teacher", "greedy"], "only alphabeta"),
        (vec!["--teacher", "alphabeta:depth=0"], "not from 1 to 64"),
        (vec!["--games", "0"], "--games 0"),
        (vec!["--minutes=-1"], "--minutes -1"),
        (vec!["--opening-plies", "0"], "opening plies"),
        (vec!["--value-scale", "0"], "value scale"),
        (
            vec!["--teacher", "alphabeta:depth=1:contempt=1"],
            "contempt",
        ),
    ] {
        let mut all = vec!["teach", "--run-dir", d];
        if !args.contains(&"--games") {
            all.extend(["--games", "1"]);
        }
        all.extend(args.iter().copied());
        let (ok, _, err) = koma(&all);
        assert!(!ok, "{args:?} succeeded");
        assert!(err.contains(want), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (ok, out, err) = koma(&[
        "teach",
        "--run-dir",
        d,
        "--games",
        "4",
        "--threads",
        "2",
        "--teacher",
        "alphabeta:depth=1",
        "--opening-plies",
        "4",
        "--max-plies",
        "40",
    ]);
    assert!(ok, "{err}");
    assert!(out.contains("4 games"), "{out}");
    assert!(out.contains("koma trainer"), "{out}");
    let (ok, out, err) = koma(&["games", "--run-dir", d]);
    assert!(ok, "{err}");
    let all = out
        .lines()
        .find(|l| l.starts_with("all"))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(all.split_whitespace().nth(1), Some("4"), "{out}");
    // The tests' tiny network and trainer; the trainer ignores its self-play settings.
    std::fs::write(
        dir.join("tiny.toml"),
        loop_common::tiny_config_text("hand-shogi"),
    )
    .unwrap();
    let tiny = dir.join("tiny.toml");
    let (ok, _, err) = koma(&[
        "trainer",
        "--run-dir",
        d,
        "--config",
        tiny.to_str().unwrap(),
        "--steps",
        "6",
    ]);
    assert!(ok, "{err}");
    let latest = std::fs::read_to_string(dir.join("store/models/LATEST")).unwrap();
    let latest: serde_json::Value = serde_json::from_str(&latest).unwrap();
    assert_eq!(latest["step"], 6, "{latest}");
    let _ = std::fs::remove_dir_all(&dir);
}
