//! The JSON API of `koma play` as a function from a request to an answer, with no HTTP in it:
//! the server passes requests through, and tests call it directly.

use crate::clock::TimeControl;
use crate::page::asset;
use crate::session::{PlayError, Session, SessionError};
use koma_engine::search::Limits;
use koma_rules::{Color, Position};
use serde::Deserialize;
use std::time::Duration;

/// Largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;
/// Largest simulation budget a request may ask for.
pub const MAX_SIMS: u32 = 1_000_000;
/// Longest search a request may ask for, in milliseconds.
pub const MAX_MILLIS: u64 = 600_000;

/// An answer: status, content type and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiResponse {
    /// HTTP status.
    pub status: u16,
    /// Content type.
    pub content_type: &'static str,
    /// Body.
    pub body: Vec<u8>,
}

impl ApiResponse {
    fn json<T: serde::Serialize>(status: u16, value: &T) -> ApiResponse {
        ApiResponse {
            status,
            content_type: "application/json",
            body: serde_json::to_vec(value).expect("state serialises"),
        }
    }

    /// An error answer: `{"error": message}`.
    pub fn error(status: u16, message: impl Into<String>) -> ApiResponse {
        ApiResponse::json(status, &serde_json::json!({ "error": message.into() }))
    }

    /// The body as text (for tests and logs).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    human: Option<String>,
    fen: Option<String>,
    clock: Option<TimeControl>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadRecord {
    record: String,
    clock: Option<TimeControl>,
}

/// Longest main time or byoyomi a clock may have: a day.
pub const MAX_CLOCK_SECS: u64 = 86_400;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayMove {
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EngineMove {
    sims: Option<u32>,
    millis: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Undo {
    plies: Option<usize>,
}

/// Reads a JSON body; an empty body reads as `{}`.
fn body<T: serde::de::DeserializeOwned>(path: &str, bytes: &[u8]) -> Result<T, ApiResponse> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| ApiResponse::error(400, format!("{path}: the body is not UTF-8 text")))?;
    let text = if text.trim().is_empty() { "{}" } else { text };
    serde_json::from_str(text)
        .map_err(|e| ApiResponse::error(400, format!("{path}: malformed request body: {e}")))
}

fn session_error(e: SessionError) -> ApiResponse {
    let status = match e {
        SessionError::Busy
        | SessionError::GameOver(_)
        | SessionError::NothingToUndo(_)
        | SessionError::TimeOut(_) => 409,
        SessionError::Record(_) | SessionError::NoSuchPly { .. } => 400,
        SessionError::Engine(_) => 500,
    };
    ApiResponse::error(status, e.to_string())
}

fn parse_side(s: &str) -> Result<Color, ApiResponse> {
    match s {
        "black" | "b" => Ok(Color::Black),
        "white" | "w" => Ok(Color::White),
        other => Err(ApiResponse::error(
            400,
            format!("/api/new: human '{other}' is not a side (black or white)"),
        )),
    }
}

/// Answers one request.
pub fn handle(session: &Session, method: &str, url: &str, bytes: &[u8]) -> ApiResponse {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    if bytes.len() > MAX_BODY {
        return ApiResponse::error(
            413,
            format!("{path}: the body is {} bytes, over {MAX_BODY}", bytes.len()),
        );
    }
    let page = asset(path);
    let allowed = match path {
        _ if page.is_some() => "GET",
        "/api/state" | "/api/record" | "/api/pieces" | "/api/position" => "GET",
        "/api/new" | "/api/move" | "/api/engine" | "/api/undo" | "/api/load" => "POST",
        _ => {
            return ApiResponse::error(404, format!("no such path: {path}"));
        }
    };
    if method != allowed && !(allowed == "GET" && method == "HEAD") {
        return ApiResponse::error(405, format!("{path} takes {allowed}, not {method}"));
    }
    if let Some(file) = page {
        return ApiResponse {
            status: 200,
            content_type: file.content_type,
            body: file.body.as_bytes().to_vec(),
        };
    }
    let result = match path {
        "/api/state" => Ok(ApiResponse::json(200, &session.state())),
        "/api/record" => Ok(ApiResponse::json(200, &session.record())),
        "/api/pieces" => Ok(ApiResponse::json(
            200,
            &crate::pieces::reference(session.variant()),
        )),
        "/api/position" => position(session, query),
        "/api/load" => load(session, bytes),
        "/api/new" => new_game(session, bytes),
        "/api/move" => play(session, bytes),
        "/api/engine" => engine(session, bytes),
        "/api/undo" => undo(session, bytes),
        _ => unreachable!("paths are matched above"),
    };
    result.unwrap_or_else(|e| e)
}

/// A time control from a request, checked.
fn clock(path: &str, c: Option<TimeControl>) -> Result<TimeControl, ApiResponse> {
    let c = c.unwrap_or_default();
    for (name, secs) in [("main_secs", c.main_secs), ("byoyomi_secs", c.byoyomi_secs)] {
        if secs > MAX_CLOCK_SECS {
            return Err(ApiResponse::error(
                400,
                format!("{path}: clock.{name} {secs} is over {MAX_CLOCK_SECS}"),
            ));
        }
    }
    Ok(c)
}

fn position(session: &Session, query: &str) -> Result<ApiResponse, ApiResponse> {
    let bad = |what: String| ApiResponse::error(400, format!("/api/position: {what}"));
    let mut ply = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        match pair.split_once('=') {
            Some(("ply", n)) => {
                ply = Some(
                    n.parse::<usize>()
                        .map_err(|_| bad(format!("ply '{n}' is not a number of plies")))?,
                )
            }
            _ => return Err(bad(format!("unknown parameter '{pair}' (expected ply=N)"))),
        }
    }
    let ply = ply.ok_or_else(|| bad("ply=N is missing".into()))?;
    let (view, last) = session.position_at(ply).map_err(|e| bad(e.to_string()))?;
    Ok(ApiResponse::json(
        200,
        &serde_json::json!({ "position": view, "last": last }),
    ))
}

fn load(session: &Session, bytes: &[u8]) -> Result<ApiResponse, ApiResponse> {
    let req: LoadRecord = body("/api/load", bytes)?;
    let clock = clock("/api/load", req.clock)?;
    match session.load(&req.record, clock) {
        Ok(state) => Ok(ApiResponse::json(200, &state)),
        Err(SessionError::Record(e)) => Err(ApiResponse::error(400, format!("/api/load: {e}"))),
        Err(e) => Err(session_error(e)),
    }
}

fn new_game(session: &Session, bytes: &[u8]) -> Result<ApiResponse, ApiResponse> {
    let req: NewGame = body("/api/new", bytes)?;
    let clock = clock("/api/new", req.clock)?;
    let human = parse_side(req.human.as_deref().unwrap_or("black"))?;
    let start = match req.fen.as_deref().map(str::trim) {
        None | Some("") => Position::start(session.variant()),
        Some(text) => Position::from_text(session.variant(), text)
            .map_err(|e| ApiResponse::error(400, format!("/api/new: fen: {e}")))?,
    };
    let state = session
        .new_game(start, human, clock)
        .map_err(session_error)?;
    Ok(ApiResponse::json(200, &state))
}

fn play(session: &Session, bytes: &[u8]) -> Result<ApiResponse, ApiResponse> {
    let req: PlayMove = body("/api/move", bytes)?;
    match session.play_text(req.mv.trim()) {
        Ok(state) => Ok(ApiResponse::json(200, &state)),
        Err(PlayError::Session(e)) => Err(session_error(e)),
        Err(PlayError::Move(e)) => {
            let status = match e {
                koma_rules::NotationError::Malformed { .. } => 400,
                koma_rules::NotationError::Illegal { .. } => 409,
            };
            Err(ApiResponse::error(status, format!("/api/move: {e}")))
        }
    }
}

fn engine(session: &Session, bytes: &[u8]) -> Result<ApiResponse, ApiResponse> {
    let req: EngineMove = body("/api/engine", bytes)?;
    if let Some(n) = req.sims {
        if n == 0 || n > MAX_SIMS {
            return Err(ApiResponse::error(
                400,
                format!("/api/engine: sims {n} is not from 1 to {MAX_SIMS}"),
            ));
        }
    }
    if let Some(ms) = req.millis {
        if ms == 0 || ms > MAX_MILLIS {
            return Err(ApiResponse::error(
                400,
                format!("/api/engine: millis {ms} is not from 1 to {MAX_MILLIS}"),
            ));
        }
    }
    let limits = if req.sims.is_none() && req.millis.is_none() {
        session.defaults().limits()
    } else {
        Limits {
            sims: req.sims,
            time: req.millis.map(Duration::from_millis),
        }
    };
    let state = session.engine_move(limits).map_err(session_error)?;
    Ok(ApiResponse::json(200, &state))
}

fn undo(session: &Session, bytes: &[u8]) -> Result<ApiResponse, ApiResponse> {
    let req: Undo = body("/api/undo", bytes)?;
    if req.plies == Some(0) {
        return Err(ApiResponse::error(
            400,
            "/api/undo: plies must be at least 1",
        ));
    }
    let state = session.undo(req.plies).map_err(session_error)?;
    Ok(ApiResponse::json(200, &state))
}
