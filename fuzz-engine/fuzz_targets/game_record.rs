//! Arbitrary text as a game record for `koma play`'s Load: the reader must answer with a game
//! or an error naming what is wrong, never panic, for Hand Shogi and for Ko Shogi (multi-leg
//! moves, shots).

#![no_main]

use koma_rules::Variant;
use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

/// The variants, loaded once.
fn variants() -> &'static [Arc<Variant>] {
    static V: OnceLock<Vec<Arc<Variant>>> = OnceLock::new();
    V.get_or_init(|| {
        ["hand-shogi", "ko-shogi"]
            .iter()
            .map(|id| koma_rules::load_variant(id).expect("built-in variant"))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for variant in variants() {
        if let Ok(mut game) = koma_play::record::read(variant, text) {
            // What was read writes back as a record that reads to the same moves.
            let again = koma_play::record::write(&mut game, variant, "fuzz");
            let back = koma_play::record::read(variant, &again.text).expect("a written record reads");
            assert_eq!(back.moves(), game.moves());
        }
    }
});
