//! Arbitrary bytes as a position text for Hand Shogi, Shoko Shogi and Chu Shogi (its Lion
//! counterstrike flag, `lionban=1`): reading must answer a position or an error naming the
//! field, never panic; a position read writes back to a text that reads to the same position,
//! and its legal moves can be generated.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn variants() -> &'static [Arc<koma_rules::Variant>] {
    static V: OnceLock<Vec<Arc<koma_rules::Variant>>> = OnceLock::new();
    V.get_or_init(|| {
        ["hand-shogi", "shoko-shogi", "chu-shogi"]
            .iter()
            .map(|v| koma_rules::load_variant(v).unwrap())
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for v in variants() {
        if let Ok(mut pos) = koma_rules::Position::from_text(v, text) {
            let written = pos.to_text();
            let again = koma_rules::Position::from_text(v, &written).unwrap();
            assert_eq!(again.to_text(), written);
            let _ = pos.legal_moves();
            let _ = pos.outcome();
        }
    }
});
