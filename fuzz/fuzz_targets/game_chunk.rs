//! Arbitrary bytes as a game chunk from the store: decoding must answer the records or an
//! error naming what is wrong, never panic or exhaust memory (a decompression bomb is refused
//! at the size limit); a record decoded replays to a position or a record error, as the
//! trainer's ingest replays it.

#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::{Arc, OnceLock};

fn variant() -> &'static Arc<koma_rules::Variant> {
    static V: OnceLock<Arc<koma_rules::Variant>> = OnceLock::new();
    V.get_or_init(|| koma_rules::load_variant("hand-shogi").unwrap())
}

fuzz_target!(|data: &[u8]| {
    // Most random bytes fail the magic or the checksum; the second half of the runs feeds the
    // bytes as a payload behind a valid header, so the decompressor and the record decoder see
    // them too.
    for bytes in [data.to_vec(), koma_store::chunk::frame(data)] {
        if let Ok(records) = koma_store::chunk::decode("games/fuzz/0000000000.chunk", &bytes) {
            for r in records.iter().take(4) {
                let _ = r.replay(variant(), |_, _, _| {});
            }
        }
    }
});
