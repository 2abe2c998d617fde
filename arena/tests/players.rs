//! Player strings: what parses, and what each malformed string is told.

use koma_arena::{run_match, ArenaError, MatchConfig, PlayerSpec, DEFAULT_SIMS};
use koma_rules::load_variant;
use std::path::PathBuf;

fn parse_err(s: &str) -> String {
    match s.parse::<PlayerSpec>() {
        Ok(p) => panic!("'{s}' parsed as {p:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_three_kinds_parse() {
    assert_eq!("random".parse::<PlayerSpec>().unwrap(), PlayerSpec::Random);
    assert_eq!(
        " greedy ".parse::<PlayerSpec>().unwrap(),
        PlayerSpec::Greedy
    );
    let PlayerSpec::Model(m) = "model:runs/x/step-7.5:sims=200:gumbel".parse().unwrap() else {
        panic!("not a model");
    };
    assert_eq!(m.stem, PathBuf::from("runs/x/step-7.5"));
    assert_eq!(m.sims, 200);
    assert!(m.gumbel);
    assert_eq!(m.load_path(), PathBuf::from("runs/x/step-7.5.json"));
    let PlayerSpec::Model(m) = "model:ck.json".parse().unwrap() else {
        panic!("not a model");
    };
    assert_eq!(
        (m.stem, m.sims, m.gumbel),
        (PathBuf::from("ck"), DEFAULT_SIMS, false)
    );
}

#[test]
fn bad_strings_say_what_is_wrong() {
    let cases = [
        ("", "empty"),
        ("rnd", "unknown player 'rnd'"),
        ("Random", "unknown player 'Random'"),
        ("model", "needs its checkpoint"),
        ("model:", "checkpoint path is missing"),
        ("model::sims=3", "checkpoint path is missing"),
        ("model:x:sims=0", "sims must be at least 1"),
        ("model:x:sims=lots", "sims 'lots' is not a whole number"),
        ("model:x:sims=-4", "sims '-4' is not a whole number"),
        ("model:x:sims", "needs a value"),
        ("model:x:sims=3:sims=4", "'sims' is given twice"),
        ("model:x:gumbel:gumbel", "'gumbel' is given twice"),
        ("model:x:gumbel=yes", "'gumbel' takes no value"),
        (
            "model:x:simulations=64",
            "unknown model option 'simulations'",
        ),
        ("model:x::gumbel", "empty option"),
        ("model:x:draw=-2", "draw '-2' is not a score from -1"),
        ("model:x:draw=nil", "draw 'nil' is not a score"),
        ("model:x:draw", "'draw' needs a value"),
        ("model:x:draw=0.1:draw=0.2", "'draw' is given twice"),
        (
            "model:x:relative=yes",
            "relative 'yes' is neither on nor off",
        ),
        ("model:x:relative", "'relative' needs a value"),
        (
            "model:x:relative=on:relative=off",
            "'relative' is given twice",
        ),
        (
            "model:x:mopup=-1",
            "mopup '-1' is not a weight from 0 to 10",
        ),
        ("model:x:mopup=lots", "mopup 'lots' is not a weight"),
        ("model:x:mopup", "'mopup' needs a value"),
        ("model:x:mopup=1:mopup=0.5", "'mopup' is given twice"),
        (
            "model:x:material=2",
            "material '2' is not a weight from 0 to 1",
        ),
        ("model:x:material", "'material' needs a value"),
        (
            "model:x:refute=-1",
            "refute '-1' is not a whole number of nodes",
        ),
        (
            "model:x:cpuct=0",
            "cpuct '0' is not an exploration constant",
        ),
        (
            "model:x:cpuct=much",
            "cpuct 'much' is not an exploration constant",
        ),
        ("model:x:cpuct", "'cpuct' needs a value"),
        ("model:x:cpuct=1:cpuct=2", "'cpuct' is given twice"),
        (
            "model:x:fpu=-0.1",
            "fpu '-0.1' is not a first-play reduction from 0 to 2",
        ),
        ("model:x:fpu", "'fpu' needs a value"),
        (
            "model:x:tactics=5",
            "tactics '5' is not a depth in plies from 0 (off) to 4",
        ),
        ("model:x:tactics", "'tactics' needs a value"),
        ("model:x:tactics=2:tactics=1", "'tactics' is given twice"),
    ];
    for (s, want) in cases {
        let e = parse_err(s);
        assert!(e.contains(want), "'{s}': {e}");
        assert!(
            e.starts_with(&format!("player '{s}'")),
            "names the string: {e}"
        );
    }
    let e = parse_err("alpha-beta");
    assert!(
        e.contains(
            "expected random, greedy, alphabeta:depth=N[:millis=T][:contempt=C], model:PATH"
        ),
        "{e}"
    );
    assert!(e.contains("uci:CMD, usi:CMD or xboard:CMD"), "{e}");
    let e = parse_err("alphabeta");
    assert!(e.contains("alphabeta:depth=N or alphabeta:millis=T"), "{e}");
    let e = parse_err("alphabeta:depth=0");
    assert!(e.contains("depth 0 is not from 1 to 64"), "{e}");
    // External engines: the command and each setting are checked.
    for (s, want) in [
        ("uci:", "the engine's command is missing"),
        ("usi:  ;go=depth 2", "the engine's command is missing"),
        ("uci:sf;depth", "setting 'depth' is not KEY=VALUE"),
        ("xboard:sf;depth=3", "unknown setting 'depth'"),
        (
            "uci:sf;searchmoves=maybe",
            "searchmoves 'maybe' is not 0 or 1",
        ),
        (
            "uci:sf;timeout=-1",
            "timeout '-1' is not a number of seconds",
        ),
        ("uci:sf;option:=1", "unknown setting 'option:'"),
    ] {
        let e = parse_err(s);
        assert!(e.contains(want), "'{s}': {e}");
    }
    let p: PlayerSpec = "uci:fairy-stockfish;go=depth 3;option:Threads=1;variant=handshogi"
        .parse()
        .unwrap();
    assert_eq!(p.to_string().parse::<PlayerSpec>().unwrap(), p);
}

#[test]
fn a_missing_checkpoint_names_the_player_and_file() {
    let v = load_variant("hand-shogi").unwrap();
    let dir = std::env::temp_dir().join(format!("koma-arena-missing-{}", std::process::id()));
    let spec: PlayerSpec = format!("model:{}/nothing-here", dir.display())
        .parse()
        .unwrap();
    let cfg = MatchConfig::new(v, spec, PlayerSpec::Random, 2);
    let e = run_match(&cfg).unwrap_err();
    assert!(matches!(e, ArenaError::Model { .. }), "{e:?}");
    let text = e.to_string();
    assert!(
        text.contains("player model:") && text.contains("nothing-here.json"),
        "{text}"
    );
}

#[test]
fn match_settings_are_checked() {
    let v = load_variant("hand-shogi").unwrap();
    let mut cfg = MatchConfig::new(v, PlayerSpec::Random, PlayerSpec::Random, 3);
    let e = run_match(&cfg).unwrap_err().to_string();
    assert!(e.contains("games: 3 is odd"), "{e}");
    cfg.games = 0;
    assert!(run_match(&cfg)
        .unwrap_err()
        .to_string()
        .starts_with("games:"));
    cfg.games = 2;
    cfg.start = Some("9/9 b -".into());
    let e = run_match(&cfg).unwrap_err().to_string();
    assert!(e.starts_with("start position:"), "{e}");
    cfg.start = None;
    cfg.max_plies = Some(4);
    let e = run_match(&cfg).unwrap_err().to_string();
    assert!(e.starts_with("max plies: 4 leaves no room"), "{e}");
    cfg.max_plies = None;
    cfg.concurrency = Some(0);
    assert!(run_match(&cfg)
        .unwrap_err()
        .to_string()
        .starts_with("concurrency:"));
}
