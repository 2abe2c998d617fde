//! The search settings a user may give by hand, read one way by every front end: the
//! `--material`, `--mop-up` and `--tactics` flags of `koma-engine`, `koma play` and `koma
//! analyse`, and the `material=`, `mopup=` and `tactics=` options of the arena's model
//! players. One parser per
//! setting, so their ranges and messages cannot drift apart.

/// A weight of material in the search's leaf utility, `(1 - w) * value + w * material`:
/// from 0 (the network's value alone) to 1.
pub fn material_weight(text: &str) -> Result<f32, String> {
    within(text, 0.0, 1.0).ok_or_else(|| format!("'{text}' is not a weight from 0 to 1"))
}

/// The mop-up term's weight: what bringing a piece to the other side's royal is worth, in
/// shares of the piece's value, from 0 (off) to 10.
pub fn mop_up_weight(text: &str) -> Result<f32, String> {
    within(text, 0.0, 10.0).ok_or_else(|| {
        format!(
            "'{text}' is not a weight from 0 to 10 (what closing in on the royal is worth, \
             in shares of a piece's value)"
        )
    })
}

pub use koma_mcts::MAX_TACTICS_DEPTH;

/// Plies of the tactics check of the move the search chooses (`SearchConfig::tactics_depth`),
/// from 0 (off) to [`MAX_TACTICS_DEPTH`].
pub fn tactics_depth(text: &str) -> Result<u32, String> {
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|d| *d <= MAX_TACTICS_DEPTH)
        .ok_or_else(|| {
            format!("'{text}' is not a depth in plies from 0 (off) to {MAX_TACTICS_DEPTH}")
        })
}

/// `text` as a number from `lo` to `hi`, if it is one (not NaN).
pub fn within(text: &str, lo: f32, hi: f32) -> Option<f32> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|x| (lo..=hi).contains(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ends of each range are accepted; outside them, words and NaN are refused with
    /// the text named.
    #[test]
    fn ranges_take_their_ends_and_refuse_the_rest() {
        assert_eq!(material_weight("0"), Ok(0.0));
        assert_eq!(material_weight("1"), Ok(1.0));
        assert_eq!(mop_up_weight("10"), Ok(10.0));
        for bad in ["-0.1", "1.01", "NaN", "inf", "lots", ""] {
            let e = material_weight(bad).unwrap_err();
            assert!(e.contains(&format!("'{bad}'")), "{e}");
        }
        for bad in ["-1", "10.5", "NaN"] {
            let e = mop_up_weight(bad).unwrap_err();
            assert!(e.contains("is not a weight from 0 to 10"), "{e}");
        }
        assert_eq!(within(" 2.5 ", 0.0, 3.0), Some(2.5));
        assert_eq!(tactics_depth("0"), Ok(0));
        assert_eq!(tactics_depth("4"), Ok(MAX_TACTICS_DEPTH));
        for bad in ["5", "-1", "2.5", "two"] {
            let e = tactics_depth(bad).unwrap_err();
            assert!(e.contains(&format!("'{bad}' is not a depth")), "{e}");
        }
    }
}
