//! The HTTP front of `koma play`: tiny_http on a few threads, each passing requests to
//! [`crate::api::handle`].
//!
//! Several threads so that the page can read the state (and a second tab can load) while one
//! request waits for the engine's move.

use crate::api::{handle, ApiResponse, MAX_BODY};
use crate::session::Session;
use std::io::Read;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Request threads.
const THREADS: usize = 4;

/// A running server.
pub struct PlayServer {
    server: Arc<tiny_http::Server>,
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<()>>,
}

/// The server could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {addr}: {reason}")]
pub struct BindError {
    /// The address asked for.
    pub addr: String,
    /// Why.
    pub reason: String,
}

impl PlayServer {
    /// Listens on `addr` (port 0: any free port) and serves `session` until [`Self::stop`].
    pub fn start(addr: &str, session: Arc<Session>) -> Result<PlayServer, BindError> {
        let server = tiny_http::Server::http(addr).map_err(|e| BindError {
            addr: addr.to_owned(),
            reason: e.to_string(),
        })?;
        let bound = server.server_addr().to_ip().ok_or_else(|| BindError {
            addr: addr.to_owned(),
            reason: "not an IP address".into(),
        })?;
        let server = Arc::new(server);
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..THREADS)
            .map(|i| {
                let server = server.clone();
                let session = session.clone();
                let stop = stop.clone();
                std::thread::Builder::new()
                    .name(format!("koma-play-{i}"))
                    .spawn(move || serve(&server, &session, &stop))
                    .expect("spawn a request thread")
            })
            .collect();
        Ok(PlayServer {
            server,
            addr: bound,
            stop,
            threads,
        })
    }

    /// The address listened on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }

    /// Stops serving and waits for the request threads.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for _ in 0..self.threads.len() {
            self.server.unblock();
        }
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

impl Drop for PlayServer {
    fn drop(&mut self) {
        if !self.threads.is_empty() {
            self.shutdown();
        }
    }
}

fn serve(server: &tiny_http::Server, session: &Session, stop: &AtomicBool) {
    while !stop.load(Ordering::SeqCst) {
        let mut request = match server.recv() {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!("koma play: {e}");
                continue;
            }
        };
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let method = request.method().as_str().to_owned();
        let url = request.url().to_owned();
        let mut body = Vec::new();
        let read = request
            .as_reader()
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut body);
        let answer = match read {
            Err(e) => ApiResponse::error(400, format!("{url}: the body could not be read: {e}")),
            Ok(_) => handle(session, &method, &url, &body),
        };
        tracing::debug!("{method} {url} -> {}", answer.status);
        if answer.status >= 400 {
            tracing::info!("{method} {url}: {} {}", answer.status, answer.text());
        }
        let header = tiny_http::Header::from_bytes("Content-Type", answer.content_type)
            .expect("a valid header");
        let no_store =
            tiny_http::Header::from_bytes("Cache-Control", "no-store").expect("a valid header");
        let response = tiny_http::Response::from_data(answer.body)
            .with_status_code(answer.status)
            .with_header(header)
            .with_header(no_store);
        if let Err(e) = request.respond(response) {
            tracing::debug!("koma play: answer to {method} {url} not sent: {e}");
        }
    }
}
