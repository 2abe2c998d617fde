//! `alphabeta:depth=N[:millis=T]`: the classical baseline's settings as a player string.

use crate::alphabeta::search::SearchLimits;
use std::fmt;
use std::time::Duration;

/// Depth of an `alphabeta` player whose string gives only a time.
pub const TIMED_DEPTH: u32 = 64;

/// The settings of an alpha-beta player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AlphaBetaSpec {
    /// Deepest full-width iteration, when limited.
    pub depth: Option<u32>,
    /// Milliseconds per move, when limited.
    pub millis: Option<u64>,
}

impl AlphaBetaSpec {
    /// Reads the options after `alphabeta:` (`depth=N`, `millis=T`, separated by `:`); at
    /// least one is needed.
    pub fn parse(rest: &str) -> Result<AlphaBetaSpec, String> {
        let mut spec = AlphaBetaSpec {
            depth: None,
            millis: None,
        };
        for opt in rest.split(':').map(str::trim) {
            let (key, value) = opt
                .split_once('=')
                .ok_or_else(|| format!("option '{opt}' needs a value (depth=N or millis=T)"))?;
            let n: u64 = value
                .trim()
                .parse()
                .map_err(|_| format!("{key} '{value}' is not a whole number"))?;
            match key.trim() {
                "depth" if spec.depth.is_some() => return Err("depth is given twice".into()),
                "depth" if !(1..=64).contains(&n) => {
                    return Err(format!("depth {n} is not from 1 to 64"))
                }
                "depth" => spec.depth = Some(n as u32),
                "millis" if spec.millis.is_some() => return Err("millis is given twice".into()),
                "millis" if n == 0 => return Err("millis must be at least 1".into()),
                "millis" => spec.millis = Some(n),
                other => {
                    return Err(format!(
                        "unknown alphabeta option '{other}' (known: depth=N, millis=T)"
                    ))
                }
            }
        }
        if spec.depth.is_none() && spec.millis.is_none() {
            return Err("alphabeta needs depth=N or millis=T".into());
        }
        Ok(spec)
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
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_round_trip_and_bad_ones_are_named() {
        for s in ["depth=3", "millis=200", "depth=4:millis=1000"] {
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
        ] {
            let e = AlphaBetaSpec::parse(s).unwrap_err();
            assert!(e.contains(want), "{s}: {e}");
        }
    }
}
