//! Arbitrary bytes as a variant file: loading must give a variant or an error naming the file
//! and what is wrong, never panic; a variant loaded sets up its start position and generates
//! its moves.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(v) = koma_rules::Variant::from_toml(text, "fuzz.toml") {
        let v = std::sync::Arc::new(v);
        let mut pos = koma_rules::Position::start(&v);
        let _ = pos.legal_moves();
    }
});
