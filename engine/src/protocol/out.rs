//! The engine's output: whole lines, flushed at once, from the command loop and the search
//! thread alike.

use std::io::Write;
use std::sync::{Arc, Mutex};

/// A shared line writer.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Lines to `w`.
    pub fn new(w: impl Write + Send + 'static) -> Out {
        Out(Arc::new(Mutex::new(Box::new(w))))
    }

    /// Writes one line and flushes it (a GUI on the other end of a pipe waits for it). A
    /// closed pipe is the GUI's business: the command loop ends when its input does.
    pub fn line(&self, text: impl AsRef<str>) {
        let mut w = self.0.lock().unwrap_or_else(|p| p.into_inner());
        tracing::debug!("> {}", text.as_ref());
        let _ = writeln!(w, "{}", text.as_ref());
        let _ = w.flush();
    }
}
