//! Chu Shogi against HaChu (Debian package `hachu`), the XBoard engine that plays the large
//! historical variants: koma's moves compared with HaChu's own piece by piece (`koma
//! lift-check`) in the start position and along a game HaChu plays against itself, and whole
//! games in the arena with every move of both sides legal by koma's rules. Where HaChu cannot be
//! installed the tests say they are skipped (and fail where CI is set).

mod component;
mod koma_cli;

use koma_cli::koma;
use std::path::Path;
use std::process::Command;

/// HaChu's path: Debian's, or `KOMA_HACHU` (the strict CI check names one that does not exist).
fn hachu() -> String {
    std::env::var("KOMA_HACHU").unwrap_or_else(|_| "/usr/games/hachu".into())
}

/// Whether HaChu is here, installing it where this process may (root with apt-get). The
/// tests of this file run side by side and each may ask: one installs while the others wait
/// for it, since a second apt-get beside the first fails at once on its lock.
fn hachu_present(test: &str) -> bool {
    static INSTALLING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    if Path::new(&hachu()).exists() {
        return true;
    }
    let may_install = std::env::var_os("KOMA_NO_INSTALL").is_none()
        && Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if may_install {
        let _ = Command::new("sh")
            .args([
                "-c",
                "apt-get install -y -q -o DPkg::Lock::Timeout=120 hachu >/dev/null 2>&1 || \
                 (apt-get update -q -o DPkg::Lock::Timeout=120 >/dev/null 2>&1 && \
                 apt-get install -y -q -o DPkg::Lock::Timeout=120 hachu >/dev/null 2>&1)",
            ])
            .status();
    }
    if Path::new(&hachu()).exists() {
        return true;
    }
    component::component_missing(test, "HaChu (Debian package hachu) could not be installed");
    false
}

/// `koma lift-check` of one game of `plies` plies that HaChu plays against itself at search
/// depth `depth`: its output, once the command has succeeded.
fn lift_check(variant: &str, plies: u32, depth: u32) -> String {
    let (plies, depth) = (plies.to_string(), depth.to_string());
    let (ok, out, err) = koma(&[
        "lift-check",
        "--variant",
        variant,
        "--engine",
        &hachu(),
        "--games",
        "1",
        "--plies",
        &plies,
        "--depth",
        &depth,
    ]);
    assert!(ok, "{out}\n{err}");
    out
}

/// Every piece's moves in the start position and in the positions of a 60-ply game HaChu
/// plays against itself are the same for koma and HaChu, and every move HaChu plays is legal
/// for koma.
#[test]
fn koma_and_hachu_give_every_piece_the_same_moves() {
    if !hachu_present("HaChu lift check") {
        return;
    }
    let out = lift_check("chu-shogi", 60, 2);
    let total = out
        .lines()
        .find(|l| l.starts_with("total:"))
        .unwrap_or_else(|| panic!("no total: {out}"));
    assert!(
        total.contains("0 differences, 0 illegal engine moves"),
        "{total}"
    );
    // The start position and at least most of the game's positions were compared.
    let positions: usize = total
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(positions >= 40, "{total}");
}

/// The same for Dai Shogi (15x15), on a shorter game.
#[test]
fn koma_and_hachu_agree_on_dai_shogi() {
    if !hachu_present("HaChu lift check (Dai)") {
        return;
    }
    let out = lift_check("dai-shogi", 30, 1);
    assert!(
        out.contains("0 differences, 0 illegal engine moves"),
        "{out}"
    );
}

/// HaChu plays whole games of Chu Shogi in the arena, refereed by koma's rules: its Lion
/// moves (sent as two `move` lines) and its promotions are read, and no game ends by forfeit.
#[test]
fn hachu_plays_chu_shogi_in_the_arena() {
    if !hachu_present("HaChu arena test") {
        return;
    }
    let player = format!("xboard:{};go=sd 1;option:Allow repeats=1", hachu());
    let (ok, out, err) = koma(&[
        "arena",
        "--variant",
        "chu-shogi",
        "--a",
        &player,
        "--b",
        "greedy",
        "--games",
        "2",
        "--max-plies",
        "300",
    ]);
    assert!(ok, "{out}\n{err}");
    assert!(
        !out.contains("forfeit") && !err.contains("illegal"),
        "{out}\n{err}"
    );
    let total = out
        .lines()
        .find(|l| l.starts_with("total"))
        .unwrap_or_else(|| panic!("no totals: {out}"));
    let counts: Vec<&str> = total.split_whitespace().collect();
    // Two games played to a result; HaChu at depth 1 does not lose to a one-ply greedy player.
    assert_eq!(counts[1], "2", "{out}");
    assert_eq!(counts[4], "0", "{out}");
}
