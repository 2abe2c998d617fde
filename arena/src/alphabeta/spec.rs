//! `alphabeta:depth=N[:millis=T][:contempt=C]`: the classical baseline's settings as a player
//! string.

use koma_mcts::alphabeta::{AlphaBeta, SearchLimits};
use koma_rules::Variant;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Depth of an `alphabeta` player whose string gives only a time.
pub const TIMED_DEPTH: u32 = 64;

/// The settings of an alpha-beta player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AlphaBetaSpec {
    /// Deepest full-width iteration, when limited.
    pub depth: Option<u32>,
    /// Milliseconds per move, when limited.
    pub millis: Option<u64>,
    /// Contempt: what a draw costs the player, in mean piece values (`None`: a draw is level).
    /// With it the baseline plays on where it would repeat or shuffle, so that a yardstick
    /// that finds nothing to take (Hook Shogi's open board at depth 2) still plays for a
    /// result instead of drawing by repetition.
    pub contempt: Option<f64>,
}

/// Most contempt a player string may give, in mean piece values.
pub const MAX_CONTEMPT: f64 = 100.0;

impl AlphaBetaSpec {
    /// Reads the options after `alphabeta:` (`depth=N`, `millis=T`, `contempt=C`, separated
    /// by `:`); a depth or a time is needed.
    pub fn parse(rest: &str) -> Result<AlphaBetaSpec, String> {
        let mut spec = AlphaBetaSpec {
            depth: None,
            millis: None,
            contempt: None,
        };
        for opt in rest.split(':').map(str::trim) {
            let (key, value) = opt.split_once('=').ok_or_else(|| {
                format!("option '{opt}' needs a value (depth=N, millis=T or contempt=C)")
            })?;
            let (key, value) = (key.trim(), value.trim());
            let whole = || -> Result<u64, String> {
                value
                    .parse()
                    .map_err(|_| format!("{key} '{value}' is not a whole number"))
            };
            match key {
                "depth" if spec.depth.is_some() => return Err("depth is given twice".into()),
                "depth" => {
                    let n = whole()?;
                    if !(1..=64).contains(&n) {
                        return Err(format!("depth {n} is not from 1 to 64"));
                    }
                    spec.depth = Some(n as u32);
                }
                "millis" if spec.millis.is_some() => return Err("millis is given twice".into()),
                "millis" => {
                    let n = whole()?;
                    if n == 0 {
                        return Err("millis must be at least 1".into());
                    }
                    spec.millis = Some(n);
                }
                "contempt" if spec.contempt.is_some() => {
                    return Err("contempt is given twice".into())
                }
                "contempt" => {
                    let c: f64 = value
                        .parse()
                        .map_err(|_| format!("contempt '{value}' is not a number"))?;
                    if !c.is_finite() || c.abs() > MAX_CONTEMPT {
                        return Err(format!(
                            "contempt {value} is not from -{MAX_CONTEMPT} to {MAX_CONTEMPT} mean piece values"
                        ));
                    }
                    spec.contempt = Some(c);
                }
                other => {
                    return Err(format!(
                        "unknown alphabeta option '{other}' (known: depth=N, millis=T, contempt=C)"
                    ))
                }
            }
        }
        if spec.depth.is_none() && spec.millis.is_none() {
            return Err("alphabeta needs depth=N or millis=T".into());
        }
        Ok(spec)
    }

    /// A searcher for `variant` with this player's contempt.
    pub fn searcher(&self, variant: &Arc<Variant>) -> AlphaBeta {
        AlphaBeta::new(variant).with_contempt(self.contempt.unwrap_or(0.0))
    }

    /// The search limits of one move.
    pub fn limits(&self) -> SearchLimits {
        SearchLimits {
            depth: self.depth.unwrap_or(TIMED_DEPTH),
            time: self.millis.map(Duration::from_millis),
        }
    }
}

impl fmt::Display for AlphaBetaSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("alphabeta")?;
        if let Some(d) = self.depth {
            write!(f, ":depth={d}")?;
        }
        if let Some(m) = self.millis {
            write!(f, ":millis={m}")?;
        }
        if let Some(c) = self.contempt {
            write!(f, ":contempt={c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_and_bad_ones_are_named() {
        for s in [
            "depth=3",
            "millis=200",
            "depth=4:millis=1000",
            "depth=2:contempt=1",
            "depth=2:contempt=0.5",
            "millis=100:contempt=-2",
        ] {
            let spec = AlphaBetaSpec::parse(s).unwrap();
            assert_eq!(spec.to_string(), format!("alphabeta:{s}"));
        }
        for (s, want) in [
            ("", "needs a value"),
            ("depth", "needs a value"),
            ("depth=0", "not from 1 to 64"),
            ("depth=x", "not a whole number"),
            ("depth=2:depth=3", "twice"),
            ("nodes=5", "unknown alphabeta option"),
            ("depth=2:contempt=x", "not a number"),
            ("depth=2:contempt=NaN", "not from"),
            ("depth=2:contempt=1000", "not from"),
            ("depth=2:contempt=1:contempt=2", "twice"),
            ("contempt=1", "needs depth=N or millis=T"),
        ] {
            let e = AlphaBetaSpec::parse(s).unwrap_err();
            assert!(e.contains(want), "{s}: {e}");
        }
    }
}
