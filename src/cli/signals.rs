//! Ctrl-C and termination: for the commands that run outside engines (`koma arena`, `koma
//! ladder`), each engine runs in a process group of its own, out of reach of the terminal's
//! Ctrl-C, so the handler kills them before the process exits; the long jobs (`koma train`,
//! `koma teach`) stop gracefully on the first Ctrl-C and at once on the second.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Installs the handler of a long job: the first Ctrl-C (or SIGTERM, SIGHUP) sets the
/// returned flag and says `what` the job finishes first; a second one exits at once.
pub fn stop_flag_on_signal(what: &'static str) -> anyhow::Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let s = stop.clone();
    ctrlc::set_handler(move || {
        if s.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
        eprintln!("stopping after {what} (Ctrl-C again to quit at once)");
    })
    .map_err(|e| anyhow::anyhow!("installing the Ctrl-C handler: {e}"))?;
    Ok(stop)
}

/// Installs the handler: on Ctrl-C, SIGTERM or SIGHUP every outside engine's process group is
/// killed and the process exits with status 130.
pub fn stop_engines_on_signal() -> anyhow::Result<()> {
    ctrlc::set_handler(|| {
        koma_arena::stop_all_engines();
        eprintln!("interrupted: outside engines stopped");
        std::process::exit(130);
    })
    .map_err(|e| anyhow::anyhow!("installing the Ctrl-C handler: {e}"))
}
