//! What the learning-loop tests share.

/// A training configuration small enough for a test on two cores: a one-block network, a few
/// games in flight, frequent publishing and checkpoints.
pub fn tiny_config_text(variant: &str) -> String {
    TINY.replace("{variant}", variant)
}

/// A fresh directory under the system's temporary one holding `tiny.toml` for Hand Shogi.
#[allow(dead_code)] // not every test file that shares this module uses it
pub fn dir_with_tiny_config(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("koma-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("tiny.toml"), tiny_config_text("hand-shogi")).unwrap();
    dir
}

/// Fails the test with the command's standard error unless it exited with success.
#[allow(dead_code)] // not every test file that shares this module uses it
pub fn assert_success(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const TINY: &str = r#"
variant = "{variant}"
device = "cpu"
torch_threads = 1
[model]
blocks = 1
channels = 8
gpool_every = 1
head_dim = 4
value_channels = 2
value_hidden = 8
[selfplay]
workers = 1
games_per_worker = 6
full_simulations = 8
fast_simulations = 2
full_search_fraction = 0.5
opening_plies = 2
games_per_chunk = 1
max_batch = 64
[trainer]
batch_size = 16
warmup_steps = 2
window_positions = 5000
min_positions = 32
target_ratio = 8.0
publish_every = 3
checkpoint_every = 3
"#;
