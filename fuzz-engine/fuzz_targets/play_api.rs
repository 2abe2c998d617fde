//! Arbitrary requests to `koma play`'s HTTP API: the first byte picks the method and the path,
//! the rest is the body (JSON or not), a few requests per input against one session, so that
//! games can be set up, played into and undone. Every request must get an answer (an error
//! status for bad input) without panicking. `/api/engine` is left out: its body may ask for
//! minutes of search.

#![no_main]

use koma_play::{handle, EngineDefaults, Session};
use koma_engine::search::SearcherOptions;
use libfuzzer_sys::fuzz_target;

#[path = "tiny.rs"]
mod tiny;

const ROUTES: [(&str, &str); 12] = [
    ("GET", "/api/state"),
    ("GET", "/api/record"),
    ("POST", "/api/new"),
    ("POST", "/api/move"),
    ("POST", "/api/undo"),
    ("GET", "/"),
    ("PUT", "/api/move"),
    ("GET", "/api/nothing"),
    ("POST", "/api/state?x=1"),
    ("POST", "/api/load"),
    ("GET", "/api/position?ply=1"),
    ("GET", "/api/position?ply=x&y"),
];

fuzz_target!(|data: &[u8]| {
    let (variant, model) = tiny::tiny_model("hand-shogi");
    let session = Session::new(
        model,
        "fuzz".into(),
        0,
        SearcherOptions::for_variant(&variant),
        EngineDefaults { sims: 2, millis: 0 },
    );
    // Requests separated by a 0xff byte, each: route byte, then the body.
    for request in data.split(|&b| b == 0xff).take(8) {
        let Some((&pick, body)) = request.split_first() else {
            continue;
        };
        let (method, path) = ROUTES[pick as usize % ROUTES.len()];
        let response = handle(&session, method, path, body);
        assert!(
            (200..600).contains(&response.status),
            "status {}",
            response.status
        );
    }
});
