//! The HTTP front of `koma play`: hyper on a small tokio runtime, passing each request to
//! [`crate::api::handle`] on a blocking thread (an engine move can take minutes).
//!
//! The page has no authentication, so the server is built to be left running where others can
//! reach it: request heads and bodies have size limits, a client that sends its head or body
//! too slowly is cut off, and the number of open connections is bounded, so a slow or hostile
//! client cannot hold memory or threads that the person at the board needs.

use crate::api::{handle, ApiResponse, MAX_BODY};
use crate::session::Session;
use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

/// The server's limits against slow, large or many requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerLimits {
    /// Longest wait for a request's head (request line and headers), from its first byte or,
    /// on a kept-alive connection, from the end of the previous answer.
    pub head_timeout: Duration,
    /// Longest wait for a request's whole body once its head has arrived.
    pub body_timeout: Duration,
    /// Largest request head in bytes (431 past it).
    pub max_head: usize,
    /// Largest request body in bytes (413 past it).
    pub max_body: usize,
    /// Connections served at once; more are closed as soon as they are accepted.
    pub max_connections: usize,
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits {
            head_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_head: 16 * 1024,
            max_body: MAX_BODY,
            max_connections: 256,
        }
    }
}

/// A running server.
pub struct PlayServer {
    addr: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
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
    /// Listens on `addr` (port 0: any free port) and serves `session` until [`Self::stop`],
    /// with the default [`ServerLimits`].
    pub fn start(addr: &str, session: Arc<Session>) -> Result<PlayServer, BindError> {
        PlayServer::start_with(addr, session, ServerLimits::default())
    }

    /// [`Self::start`] with the given limits.
    pub fn start_with(
        addr: &str,
        session: Arc<Session>,
        limits: ServerLimits,
    ) -> Result<PlayServer, BindError> {
        let bind_error = |reason: String| BindError {
            addr: addr.to_owned(),
            reason,
        };
        let listener = std::net::TcpListener::bind(addr).map_err(|e| bind_error(e.to_string()))?;
        let bound = listener
            .local_addr()
            .map_err(|e| bind_error(e.to_string()))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| bind_error(e.to_string()))?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(64)
            .thread_name("koma-play")
            .enable_all()
            .build()
            .map_err(|e| bind_error(format!("no runtime: {e}")))?;
        let listener = {
            let _inside = runtime.enter();
            tokio::net::TcpListener::from_std(listener).map_err(|e| bind_error(e.to_string()))?
        };
        let (stop, stopped) = watch::channel(false);
        let thread = std::thread::Builder::new()
            .name("koma-play-accept".into())
            .spawn(move || {
                runtime.block_on(accept_loop(listener, session, limits, stopped));
                // Searches still running on blocking threads finish on their own; the page's
                // connections are dropped.
                runtime.shutdown_timeout(Duration::from_secs(1));
            })
            .map_err(|e| bind_error(format!("no thread: {e}")))?;
        Ok(PlayServer {
            addr: bound,
            stop,
            thread: Some(thread),
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

    /// A warning to show when the address can be reached from other machines: the page lets
    /// anyone who reaches it play and start searches. `None` on a loopback address.
    pub fn exposure_warning(&self) -> Option<String> {
        (!self.addr.ip().is_loopback()).then(|| {
            format!(
                "koma play listens on {}, which other machines may reach: the page has no \
                 authentication, so anyone who reaches it can play and start engine searches \
                 on this machine",
                self.addr
            )
        })
    }

    /// Serves until the process ends.
    pub fn wait(mut self) {
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Stops serving and waits for the server's thread.
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        let _ = self.stop.send(true);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for PlayServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

async fn accept_loop(
    listener: tokio::net::TcpListener,
    session: Arc<Session>,
    limits: ServerLimits,
    mut stopped: watch::Receiver<bool>,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.head_timeout)
        .max_header_size(limits.max_head)
        .max_buf_size(limits.max_head.max(8192) + limits.max_body);
    loop {
        let (stream, peer) = tokio::select! {
            _ = stopped.changed() => return,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, say: wait a moment instead of spinning.
                    tracing::warn!("koma play: cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tracing::warn!(
                "koma play: {} connections open already; {peer} closed",
                limits.max_connections
            );
            continue;
        };
        let session = session.clone();
        let conn = http.serve_connection(
            TokioIo::new(stream),
            hyper::service::service_fn(move |req| answer(req, session.clone(), limits)),
        );
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let _slot = slot;
            tokio::pin!(conn);
            tokio::select! {
                r = conn.as_mut() => {
                    if let Err(e) = r {
                        tracing::debug!("koma play: connection from {peer}: {e}");
                    }
                }
                _ = stopped.changed() => {}
            }
        });
    }
}

/// One request: its body read within the limits, then the API's answer.
async fn answer(
    req: Request<Incoming>,
    session: Arc<Session>,
    limits: ServerLimits,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let method = req.method().as_str().to_owned();
    let url = req
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_else(|| "/".into());
    let (answer, close) = match read_body(req.into_body(), limits).await {
        BodyRead::TimedOut => (
            ApiResponse::error(
                408,
                format!(
                    "{url}: the body did not arrive within {} s",
                    limits.body_timeout.as_secs_f64()
                ),
            ),
            true,
        ),
        BodyRead::TooLarge => (
            ApiResponse::error(
                413,
                format!("{url}: the body is over {} bytes", limits.max_body),
            ),
            true,
        ),
        BodyRead::Failed(e) => (
            ApiResponse::error(400, format!("{url}: the body could not be read: {e}")),
            true,
        ),
        BodyRead::Got(body) => {
            let (m, u) = (method.clone(), url.clone());
            let answered = tokio::task::spawn_blocking(move || handle(&session, &m, &u, &body));
            match answered.await {
                Ok(a) => (a, false),
                Err(e) => (
                    ApiResponse::error(500, format!("{url}: the request failed: {e}")),
                    true,
                ),
            }
        }
    };
    tracing::debug!("{method} {url} -> {}", answer.status);
    if answer.status >= 400 {
        tracing::info!("{method} {url}: {} {}", answer.status, answer.text());
    }
    let mut response = Response::builder()
        .status(answer.status)
        .header("Content-Type", answer.content_type)
        .header("Cache-Control", "no-store");
    if close {
        // The rest of a refused body is not read: the connection cannot carry another request.
        response = response.header("Connection", "close");
    }
    Ok(response
        .body(Full::new(Bytes::from(answer.body)))
        .unwrap_or_else(|_| Response::new(Full::new(Bytes::new()))))
}

/// What became of a request's body.
enum BodyRead {
    Got(Bytes),
    TooLarge,
    TimedOut,
    Failed(String),
}

/// Reads a body within the size and time limits. A declared length over the limit is refused
/// before any of the body is waited for.
async fn read_body(body: Incoming, limits: ServerLimits) -> BodyRead {
    if hyper::body::Body::size_hint(&body).lower() > limits.max_body as u64 {
        return BodyRead::TooLarge;
    }
    let collected = tokio::time::timeout(
        limits.body_timeout,
        Limited::new(body, limits.max_body).collect(),
    )
    .await;
    match collected {
        Err(_) => BodyRead::TimedOut,
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => BodyRead::TooLarge,
        Ok(Err(e)) => BodyRead::Failed(e.to_string()),
        Ok(Ok(c)) => BodyRead::Got(c.to_bytes()),
    }
}
