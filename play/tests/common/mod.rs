//! What the play tests share: a session with a tiny model, and requests through the API.

#![allow(dead_code)]

use koma_engine::search::SearcherOptions;
use koma_model::{Arch, Model};
use koma_play::{handle, EngineDefaults, Session};
use serde_json::Value;
use std::sync::Arc;

/// The Hand Shogi position of a mate in one by a gold drop (G@h8), Black to move.
pub const MATE_IN_ONE: &str = "8k/9/9/9/7(SH)1/9/9/9/K8 b G";

pub fn session(variant: &str) -> Arc<Session> {
    let v = koma_rules::load_variant(variant).unwrap();
    Arc::new(Session::new(
        Model::new(&v, &Arch::tiny(), tch::Device::Cpu),
        format!("tiny-{variant}"),
        7,
        SearcherOptions::for_variant(&v),
        EngineDefaults {
            sims: 16,
            millis: 0,
        },
    ))
}

pub fn call(s: &Session, method: &str, path: &str, body: &str) -> (u16, Value) {
    let r = handle(s, method, path, body.as_bytes());
    assert_eq!(r.content_type, "application/json", "{path}");
    let v: Value = serde_json::from_slice(&r.body).unwrap_or_else(|e| panic!("{path}: {e}"));
    (r.status, v)
}

pub fn ok(s: &Session, method: &str, path: &str, body: &str) -> Value {
    let (status, v) = call(s, method, path, body);
    assert_eq!(status, 200, "{method} {path} {body}: {v}");
    v
}

/// Asserts an error answer with `status` whose message contains `needle`, and that the game
/// is unchanged.
pub fn refused(s: &Session, method: &str, path: &str, body: &str, status: u16, needle: &str) {
    let before = ok(s, "GET", "/api/state", "");
    let (st, v) = call(s, method, path, body);
    assert_eq!(st, status, "{method} {path} {body}: {v}");
    let msg = v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field: {v}"));
    assert!(msg.contains(needle), "'{msg}' should mention '{needle}'");
    let after = ok(s, "GET", "/api/state", "");
    assert_eq!(before, after, "a refused request changed the game");
}
