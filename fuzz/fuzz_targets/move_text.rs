//! Arbitrary bytes as a move text, in the start positions of Hand Shogi and Ko Shogi (drops,
//! multi-leg moves, shots): parsing must answer a move or an error, never panic, and a parsed
//! move must be legal and print back to a text that parses to the same move.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn positions() -> &'static [koma_rules::Position] {
    static P: OnceLock<Vec<koma_rules::Position>> = OnceLock::new();
    P.get_or_init(|| {
        ["hand-shogi", "ko-shogi"]
            .iter()
            .map(|v| koma_rules::Position::start(&koma_rules::load_variant(v).unwrap()))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for start in positions() {
        let mut pos = start.clone();
        if let Ok(m) = pos.parse_move(text) {
            assert!(pos.is_legal(&m));
            let again = pos.move_text(&m);
            assert_eq!(pos.parse_move(&again).unwrap(), m);
        }
    }
});
