//! The players of a match, as the user names them: `random`, `greedy`, or
//! `model:PATH[:sims=N][:gumbel][:material=W][:relative=on|off][:mopup=M][:draw=D][:refute=R]`
//! `[:cpuct=C][:fpu=F][:tactics=N]`.
//!
//! A [`PlayerSpec`] is only a description (parsing needs no files); the match loads models
//! when it starts, so that a typo in a player string is reported before anything heavy runs.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::alphabeta::AlphaBetaSpec;
use crate::external::{ExternalSpec, Protocol};

use koma_engine::search::ranges::{material_weight, mop_up_weight, tactics_depth, within};
use koma_engine::search::search_config;
/// Simulations per move of a model player when the string does not say.
pub use koma_engine::search::DEFAULT_SIMS;
use koma_mcts::SearchConfig;
use koma_rules::Variant;

/// The forms a player string may take, for error messages.
const FORMS: &str = "random, greedy, alphabeta:depth=N[:millis=T][:contempt=C], \
                     model:PATH[:sims=N][:gumbel][:material=W][:relative=on|off][:mopup=M][:draw=D]\
                     [:refute=R][:cpuct=C][:fpu=F][:tactics=N], or an external engine uci:CMD, \
                     usi:CMD or xboard:CMD[;go=..][;option:NAME=VALUE]";

/// A player of the arena.
#[derive(Debug, Clone, PartialEq)]
pub enum PlayerSpec {
    /// A uniformly random legal move: the floor every trained model must clear.
    Random,
    /// Mate in one if there is one, else the capture winning the most material (by
    /// [`crate::PieceValues`]), else a random move: the cheapest player that punishes
    /// hanging pieces, so a model that cannot beat it has not learnt material.
    Greedy,
    /// The classical baseline: alpha-beta on material with quiescence and a mate search.
    AlphaBeta(AlphaBetaSpec),
    /// A checkpoint searched with MCTS.
    Model(ModelPlayer),
    /// An engine outside koma, refereed by the arena.
    External(Box<ExternalSpec>),
}

/// A checkpoint and the search it plays with.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelPlayer {
    /// Checkpoint stem: the path without `.json` / `.safetensors`.
    pub stem: PathBuf,
    /// Simulations per move (new ones: a reused subtree's visits come on top).
    pub sims: u32,
    /// Gumbel root (sequential halving) instead of PUCT; the move played is the
    /// sequential-halving winner.
    pub gumbel: bool,
    /// Weight of material in the search's utility (`SearchConfig::material_weight`); `None`
    /// keeps the default.
    pub material: Option<f32>,
    /// Whether the search counts material from the root's difference
    /// (`SearchConfig::relative_material`); `None` keeps the default.
    pub relative: Option<bool>,
    /// The mop-up term's weight (`SearchConfig::mop_up`): far ahead, each piece brought to
    /// the other side's royal counts up to this share of its value; `None` keeps the default.
    pub mop_up: Option<f32>,
    /// What a draw is worth to this player (`SearchConfig::draw_score`, contempt below 0);
    /// `None` keeps the default (0).
    pub draw: Option<f32>,
    /// Nodes of the refutation search of the moves it is about to play
    /// (`SearchConfig::refute_nodes`, 0 off); `None` keeps the default.
    pub refute: Option<u64>,
    /// PUCT's exploration constant (`SearchConfig::c_puct`); `None` keeps the default.
    pub c_puct: Option<f32>,
    /// First-play urgency's reduction (`SearchConfig::fpu_reduction`); `None` keeps the
    /// default.
    pub fpu: Option<f32>,
    /// Plies of the tactics check of the moves it is about to play
    /// (`SearchConfig::tactics_depth`, 0 off); `None` keeps the default.
    pub tactics: Option<u32>,
}

impl ModelPlayer {
    /// A PUCT player of `stem` with the default simulations.
    pub fn new(stem: impl Into<PathBuf>) -> ModelPlayer {
        ModelPlayer {
            stem: strip_checkpoint_extension(&stem.into()),
            sims: DEFAULT_SIMS,
            gumbel: false,
            material: None,
            relative: None,
            mop_up: None,
            draw: None,
            refute: None,
            c_puct: None,
            fpu: None,
            tactics: None,
        }
    }

    /// The settings this player's tree searches with in `variant`: play's (the engine's
    /// [`search_config`], whose material weight is the variant's unless the player sets
    /// one) with the player's own options on top.
    pub fn search_config(&self, variant: &Variant) -> SearchConfig {
        let base = search_config(variant, self.gumbel, self.material);
        SearchConfig {
            draw_score: self.draw.unwrap_or(base.draw_score),
            relative_material: self.relative.unwrap_or(base.relative_material),
            mop_up: self.mop_up.unwrap_or(base.mop_up),
            refute_nodes: self.refute.unwrap_or(base.refute_nodes),
            c_puct: self.c_puct.unwrap_or(base.c_puct),
            fpu_reduction: self.fpu.unwrap_or(base.fpu_reduction),
            tactics_depth: self.tactics.unwrap_or(base.tactics_depth),
            ..base
        }
    }

    /// The path to hand to `Model::load`: the stem with `.json` appended. `Model::load`
    /// replaces the extension of what it is given, so passing the bare stem would cut a dotted
    /// stem (`step-1.5`) short; with `.json` appended, only that suffix is replaced.
    pub fn load_path(&self) -> PathBuf {
        let mut s = self.stem.clone().into_os_string();
        s.push(".json");
        PathBuf::from(s)
    }
}

impl PlayerSpec {
    /// Whether the player searches with a network.
    pub fn is_model(&self) -> bool {
        matches!(self, PlayerSpec::Model(_))
    }
}

/// A player string that could not be read: the string and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("player '{spec}': {reason}")]
pub struct PlayerParseError {
    /// The string as given.
    pub spec: String,
    /// What is wrong.
    pub reason: String,
}

/// `x.json` and `x.safetensors` name the checkpoint `x`; any other path is taken as the stem.
fn strip_checkpoint_extension(path: &Path) -> PathBuf {
    match path.extension().and_then(|e| e.to_str()) {
        Some("json") | Some("safetensors") => path.with_extension(""),
        _ => path.to_path_buf(),
    }
}

impl FromStr for PlayerSpec {
    type Err = PlayerParseError;

    /// Reads a player string. Model options follow the path, each after a `:`; a path may
    /// therefore not contain `:` itself.
    fn from_str(s: &str) -> Result<PlayerSpec, PlayerParseError> {
        let fail = |reason: String| PlayerParseError {
            spec: s.to_owned(),
            reason,
        };
        let text = s.trim();
        for (prefix, protocol) in [
            ("uci:", Protocol::Uci),
            ("usi:", Protocol::Usi),
            ("xboard:", Protocol::Xboard),
        ] {
            if let Some(rest) = text.strip_prefix(prefix) {
                return ExternalSpec::parse(protocol, rest)
                    .map(|e| PlayerSpec::External(Box::new(e)))
                    .map_err(fail);
            }
        }
        if let Some(rest) = text.strip_prefix("alphabeta:") {
            return AlphaBetaSpec::parse(rest)
                .map(PlayerSpec::AlphaBeta)
                .map_err(fail);
        }
        match text {
            "alphabeta" => {
                return Err(fail(
                    "alphabeta needs its depth or time: alphabeta:depth=N or alphabeta:millis=T"
                        .into(),
                ))
            }
            "random" => return Ok(PlayerSpec::Random),
            "greedy" => return Ok(PlayerSpec::Greedy),
            "" => return Err(fail(format!("empty; expected {FORMS}"))),
            _ => {}
        }
        let Some(rest) = text.strip_prefix("model:") else {
            let hint = if text == "model" {
                " (a model player needs its checkpoint: model:PATH)".to_owned()
            } else {
                String::new()
            };
            return Err(fail(format!(
                "unknown player '{text}'{hint}; expected {FORMS}"
            )));
        };
        let mut parts = rest.split(':');
        let path = parts.next().unwrap_or_default().trim();
        if path.is_empty() {
            return Err(fail(format!(
                "the checkpoint path is missing; expected {FORMS}"
            )));
        }
        let mut player = ModelPlayer::new(path);
        let (mut seen_sims, mut seen_gumbel) = (false, false);
        for opt in parts {
            let opt = opt.trim();
            let (key, value) = match opt.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v.trim())),
                None => (opt, None),
            };
            match (key, value) {
                ("sims", Some(v)) => {
                    if seen_sims {
                        return Err(fail("option 'sims' is given twice".into()));
                    }
                    seen_sims = true;
                    player.sims = match v.parse::<u32>() {
                        Ok(0) => return Err(fail("sims must be at least 1".into())),
                        Ok(n) => n,
                        Err(_) => {
                            return Err(fail(format!(
                                "sims '{v}' is not a whole number of simulations"
                            )))
                        }
                    };
                }
                ("sims", None) => {
                    return Err(fail("option 'sims' needs a value, as in sims=64".into()))
                }
                ("gumbel", None) => {
                    if seen_gumbel {
                        return Err(fail("option 'gumbel' is given twice".into()));
                    }
                    seen_gumbel = true;
                    player.gumbel = true;
                }
                ("gumbel", Some(_)) => {
                    return Err(fail("option 'gumbel' takes no value".into()));
                }
                ("material", v) => {
                    set_once(&mut player.material, key, v, "0.4", material_weight).map_err(fail)?
                }
                ("relative", v) => set_once(&mut player.relative, key, v, "on", |v| match v {
                    "on" => Ok(true),
                    "off" => Ok(false),
                    _ => Err(format!("'{v}' is neither on nor off")),
                })
                .map_err(fail)?,
                ("mopup", v) => {
                    set_once(&mut player.mop_up, key, v, "4", mop_up_weight).map_err(fail)?
                }
                ("draw", v) => set_once(&mut player.draw, key, v, "-0.3", |v| {
                    within(v, -1.0, 1.0).ok_or_else(|| {
                        format!("'{v}' is not a score from -1 (a loss) to 1 (a win)")
                    })
                })
                .map_err(fail)?,
                ("refute", v) => set_once(&mut player.refute, key, v, "20000", |v| {
                    v.parse::<u64>()
                        .map_err(|_| format!("'{v}' is not a whole number of nodes (0 is off)"))
                })
                .map_err(fail)?,
                ("cpuct", v) => set_once(&mut player.c_puct, key, v, "1.25", |v| {
                    within(v, 0.01, 100.0).ok_or_else(|| {
                        format!("'{v}' is not an exploration constant from 0.01 to 100")
                    })
                })
                .map_err(fail)?,
                ("fpu", v) => set_once(&mut player.fpu, key, v, "0.2", |v| {
                    within(v, 0.0, 2.0)
                        .ok_or_else(|| format!("'{v}' is not a first-play reduction from 0 to 2"))
                })
                .map_err(fail)?,
                ("tactics", v) => {
                    set_once(&mut player.tactics, key, v, "2", tactics_depth).map_err(fail)?
                }
                ("", _) => return Err(fail("an empty option (two ':' in a row?)".into())),
                (other, _) => {
                    return Err(fail(format!(
                        "unknown model option '{other}' (known: sims=N, gumbel, material=W, \
                         relative=on|off, mopup=W, draw=D, refute=N, cpuct=C, fpu=F, \
                         tactics=N)"
                    )))
                }
            }
        }
        Ok(PlayerSpec::Model(player))
    }
}

/// Reads option `key`'s value into `slot` with `parse`, refusing a second setting of it and
/// a missing value (`example` shows one).
fn set_once<T>(
    slot: &mut Option<T>,
    key: &str,
    value: Option<&str>,
    example: &str,
    parse: impl FnOnce(&str) -> Result<T, String>,
) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("option '{key}' is given twice"));
    }
    let Some(v) = value else {
        return Err(format!(
            "option '{key}' needs a value, as in {key}={example}"
        ));
    };
    *slot = Some(parse(v).map_err(|e| format!("{key} {e}"))?);
    Ok(())
}

impl fmt::Display for PlayerSpec {
    /// The canonical player string (it parses back to the same player).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::AlphaBeta(a) => write!(f, "{a}"),
            PlayerSpec::External(e) => write!(f, "{e}"),
            PlayerSpec::Model(m) => {
                write!(f, "model:{}:sims={}", m.stem.display(), m.sims)?;
                if m.gumbel {
                    f.write_str(":gumbel")?;
                }
                if let Some(w) = m.material {
                    write!(f, ":material={w}")?;
                }
                if let Some(r) = m.relative {
                    write!(f, ":relative={}", if r { "on" } else { "off" })?;
                }
                if let Some(w) = m.mop_up {
                    write!(f, ":mopup={w}")?;
                }
                if let Some(d) = m.draw {
                    write!(f, ":draw={d}")?;
                }
                if let Some(n) = m.refute {
                    write!(f, ":refute={n}")?;
                }
                if let Some(c) = m.c_puct {
                    write!(f, ":cpuct={c}")?;
                }
                if let Some(x) = m.fpu {
                    write!(f, ":fpu={x}")?;
                }
                if let Some(d) = m.tactics {
                    write!(f, ":tactics={d}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_strings_round_trip() {
        for s in [
            "random",
            "greedy",
            "model:runs/a/step-100:sims=64",
            "model:x:sims=8:gumbel",
            "model:x:sims=8:material=0.7",
            "model:x:sims=8:draw=-0.3",
            "model:x:sims=8:gumbel:material=0.5:draw=0.25",
            "model:x:sims=8:relative=on",
            "model:x:sims=8:material=0.4:relative=off:draw=-0.1",
            "model:x:sims=8:relative=on:mopup=0.5",
            "model:x:sims=8:refute=0",
            "model:x:sims=8:draw=-0.1:refute=5000",
            "model:x:sims=8:refute=0:cpuct=2.5:fpu=0.1",
            "model:x:sims=8:tactics=2",
            "alphabeta:depth=2",
            "alphabeta:depth=3:millis=500",
        ] {
            let p: PlayerSpec = s.parse().unwrap();
            assert_eq!(p.to_string(), s);
        }
    }

    #[test]
    fn checkpoint_files_name_their_stem() {
        let p: PlayerSpec = "model:dir/ck.json".parse().unwrap();
        let q: PlayerSpec = "model:dir/ck.safetensors:sims=3".parse().unwrap();
        match (p, q) {
            (PlayerSpec::Model(p), PlayerSpec::Model(q)) => {
                assert_eq!(p.stem, PathBuf::from("dir/ck"));
                assert_eq!(p.sims, DEFAULT_SIMS);
                assert_eq!(q.stem, PathBuf::from("dir/ck"));
                assert_eq!(q.sims, 3);
            }
            other => panic!("{other:?}"),
        }
    }
}
