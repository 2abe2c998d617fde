//! The perft table: every `depth` line of `tests/data/perft.txt` (format at the top of that
//! file), checked with `koma_rules::perft`. Where the numbers come from is noted there; the
//! `*_perft.rs` tests check the independent reference generators against the same lines.

mod common;

use common::{parse_perft_table, perft_cases};
use koma_rules::perft;

#[test]
fn every_line_of_the_perft_table() {
    let cases = perft_cases();
    for id in [
        "hand-shogi",
        "ko-shogi",
        "shoko-shogi",
        "gyaku-sama-shogi",
        "hook-shogi",
    ] {
        assert!(
            cases.iter().any(|c| c.variant == id && c.fen == "startpos"),
            "no start-position perft of {id}"
        );
    }
    // The cases are independent: count them side by side, then report every mismatch.
    let failures: Vec<String> = std::thread::scope(|s| {
        let runs: Vec<_> = cases
            .iter()
            .map(|c| {
                s.spawn(move || {
                    let got = perft(&mut c.position(), c.depth);
                    (got != c.nodes).then(|| {
                        format!(
                            "line {}: {} {} perft({}) = {got}, expected {}",
                            c.line, c.variant, c.fen, c.depth, c.nodes
                        )
                    })
                })
            })
            .collect();
        runs.into_iter().filter_map(|r| r.join().unwrap()).collect()
    });
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_table_format_is_read_as_documented() {
    let cases = parse_perft_table(
        "# a comment\n\
         variant hand-shogi   # trailing comment\n\
         fen startpos\n\
         depth 1 319\n\
         \n\
         fen 8k/9/9/9/9/9/9/9/K8 b - 0\n\
         depth 2 1_234\n",
    );
    assert_eq!(cases.len(), 2);
    assert_eq!(
        (cases[0].variant.as_str(), cases[0].fen.as_str()),
        ("hand-shogi", "startpos")
    );
    assert_eq!((cases[0].depth, cases[0].nodes, cases[0].line), (1, 319, 4));
    assert_eq!(cases[1].fen, "8k/9/9/9/9/9/9/9/K8 b - 0");
    assert_eq!((cases[1].depth, cases[1].nodes), (2, 1234));
}
