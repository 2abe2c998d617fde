//! Arbitrary bytes as the lines a GUI sends to `koma-engine`: the first byte picks the variant
//! and the protocol's opening line (XBoard, USI, UCI, or none, so that detection sees the
//! bytes too), the rest is the session. The engine must answer every line without panicking;
//! searches run on an untrained tiny network and end with the input.

#![no_main]

use koma_engine::protocol::out::Out;
use koma_engine::protocol::serve;
use koma_engine::protocol::session::{Engine, EngineConfig};
use koma_engine::search::LoadedModel;
use libfuzzer_sys::fuzz_target;

#[path = "tiny.rs"]
mod tiny;

const VARIANTS: [&str; 4] = ["hand-shogi", "shoko-shogi", "gyaku-sama-shogi", "ko-shogi"];
const OPENINGS: [&str; 4] = ["xboard\nprotover 2\n", "usi\n", "uci\n", ""];

fn engine(variant: &str) -> Engine {
    let (v, model) = tiny::tiny_model(variant);
    let config = EngineConfig {
        default_sims: 2,
        ..EngineConfig::for_variant(&v)
    };
    let loaded = LoadedModel {
        model,
        variant: v,
        stem: "fuzz".into(),
        step: 0,
    };
    Engine::new(loaded, config)
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let variant = VARIANTS[pick as usize % VARIANTS.len()];
    let opening = OPENINGS[(pick as usize / VARIANTS.len()) % OPENINGS.len()];
    let mut input = opening.as_bytes().to_vec();
    input.extend_from_slice(rest);
    let mut e = engine(variant);
    serve(&mut e, &input[..], &Out::new(std::io::sink()));
});
