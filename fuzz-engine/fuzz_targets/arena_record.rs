//! Arbitrary text as the record file `koma arena --resume` takes up: the reader must answer
//! with the games or an error naming the line, never panic; every game it keeps is one of the
//! match's, once, and writes back to a line that reads to the same game.

#![no_main]

use koma_arena::record_file::{game_line, header, read_record};
use koma_arena::{MatchConfig, PlayerSpec};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// A 6-game match of Hand Shogi with a 2-ply opening.
fn config() -> &'static MatchConfig {
    static C: OnceLock<MatchConfig> = OnceLock::new();
    C.get_or_init(|| {
        let v = koma_rules::load_variant("hand-shogi").expect("built-in variant");
        let mut cfg = MatchConfig::new(v, PlayerSpec::Greedy, PlayerSpec::Random, 6);
        cfg.opening_plies = 2;
        cfg
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(body) = std::str::from_utf8(data) else {
        return;
    };
    let cfg = config();
    // As given, and after the match's own header, so that the game lines are read too.
    for text in [body.to_owned(), format!("{}{body}", header(cfg))] {
        let Ok(recorded) = read_record(&text, cfg) else {
            continue;
        };
        let mut seen = [false; 6];
        for g in &recorded.games {
            assert!(!std::mem::replace(&mut seen[g.index], true));
            let line = game_line(g);
            let again = read_record(&format!("{}{line}", header(cfg)), cfg)
                .unwrap_or_else(|e| panic!("{line:?} does not read back: {e}"));
            assert_eq!(again.games, [g.clone()], "{line:?}");
        }
    }
});
