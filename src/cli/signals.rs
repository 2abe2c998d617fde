//! Ctrl-C and termination for the commands that run outside engines (`koma arena`, `koma
//! ladder`): each engine runs in a process group of its own, out of reach of the terminal's
//! Ctrl-C, so the handler kills them before the process exits.

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
