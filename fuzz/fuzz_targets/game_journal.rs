//! Arbitrary bytes as a worker's spool journal (the games finished since the last chunk,
//! length- and checksum-framed): recovery must keep the valid records before the first damaged
//! one, never panic, and say how many bytes they fill; each record kept replays to a position or
//! a record error.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn variant() -> &'static Arc<koma_rules::Variant> {
    static V: OnceLock<Arc<koma_rules::Variant>> = OnceLock::new();
    V.get_or_init(|| koma_rules::load_variant("hand-shogi").unwrap())
}

fuzz_target!(|data: &[u8]| {
    // As written on disk, and each 8-byte-aligned piece re-framed with a valid length and
    // checksum, so that the record decoder sees the bytes too.
    for bytes in [data.to_vec(), koma_store::spool::frame_journal_record(data)] {
        let (records, used) = koma_store::spool::decode_journal(&bytes);
        assert!(used <= bytes.len());
        for r in records.iter().take(4) {
            let _ = r.replay(variant(), |_, _, _| {});
        }
    }
});
