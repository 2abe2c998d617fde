//! Running the `koma` binary as a user would, for the command-line tests.

use std::process::Command;

/// Runs `koma` with `args`; whether it succeeded, its standard output and its standard error.
pub fn koma(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_koma"))
        .args(args)
        .env("RUST_LOG", "warn")
        .output()
        .expect("koma runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
