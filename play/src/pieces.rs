//! The piece reference of the page (`GET /api/pieces`): every kind of the variant with its
//! name, label, XBetza, move diagram, promotion and special rules, so that a player can learn
//! Shoko's 59 or Ko Shogi's 64 kinds from the page itself.
//!
//! The diagram is computed from the compiled move tables ([`koma_rules::Diagram`]), the rules
//! from the kind's flags; what a rule module adds is the variant file's `about` text.

use koma_rules::variant::{PieceType, PromotionRule};
use koma_rules::{Diagram, PieceKind, Variant};
use serde::Serialize;

/// Largest diagram radius: a 15x15 board is enough to show any slide's direction.
const MAX_RADIUS: u8 = 7;

/// A kind, as another entry names it.
#[derive(Debug, Clone, Serialize)]
pub struct KindRef {
    /// ID.
    pub id: String,
    /// Label.
    pub label: String,
    /// Name.
    pub name: String,
}

/// One square of a diagram.
#[derive(Debug, Clone, Serialize)]
pub struct DiagramCell {
    /// Files to the right (the side moving up the page).
    pub df: i8,
    /// Ranks forward.
    pub dr: i8,
    /// How the piece reaches it: `move`, `capture`, `step`, `jump`, `slide`, `hop`, `legs`
    /// (the end of a multi-leg move), `kill` (captured on the way).
    pub how: Vec<&'static str>,
}

/// A move diagram: the piece in the middle of an empty board of `2 * radius + 1` squares.
#[derive(Debug, Clone, Serialize)]
pub struct DiagramView {
    /// Squares from the middle to the edge.
    pub radius: u8,
    /// The squares it can reach.
    pub cells: Vec<DiagramCell>,
    /// Some move ends where it began (a turn skip, a capture without moving).
    pub returns: bool,
}

/// One kind of the reference.
#[derive(Debug, Clone, Serialize)]
pub struct PieceRef {
    /// ID.
    pub id: String,
    /// Label.
    pub label: String,
    /// Name.
    pub name: String,
    /// A promoted form.
    pub promoted: bool,
    /// Royal.
    pub royal: bool,
    /// Its moves in XBetza.
    pub betza: String,
    /// Its promoted form.
    pub promotes_to: Option<KindRef>,
    /// The kind it is the promoted form of.
    pub promoted_from: Option<KindRef>,
    /// Its rules beyond the moves, one sentence each.
    pub rules: Vec<String>,
    /// The variant file's words on it.
    pub about: String,
    /// Its move diagram, for the first player (forward is up).
    pub diagram: DiagramView,
    /// What it shoots after a non-capturing move (a rule module's power), if anything.
    pub shot: Option<ShotView>,
}

/// A shooter's shots: from the square it lands on, along the eight lines.
#[derive(Debug, Clone, Serialize)]
pub struct ShotView {
    /// Farthest target.
    pub range: u8,
    /// Shoots over pieces (else only the nearest piece of each line).
    pub over: bool,
    /// Most shots after one move.
    pub shots: u8,
}

/// The whole reference.
#[derive(Debug, Clone, Serialize)]
pub struct PieceReference {
    /// Variant id.
    pub variant: String,
    /// Every kind, in the variant's order.
    pub pieces: Vec<PieceRef>,
}

fn kind_ref(v: &Variant, k: PieceKind) -> KindRef {
    let p = v.piece(k);
    KindRef {
        id: p.id.clone(),
        label: p.label.clone(),
        name: p.name.clone(),
    }
}

/// The kinds named in a set, by name.
fn names(v: &Variant, pick: impl Fn(PieceKind) -> bool) -> String {
    (0..v.num_kinds())
        .map(|k| PieceKind(k as u8))
        .filter(|&k| pick(k))
        .map(|k| v.piece(k).name.clone())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rules of `p` in words.
fn rules_of(v: &Variant, k: PieceKind, p: &PieceType) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(s) = v.shot(k) {
        let what = if s.shots > 1 {
            format!("up to {} enemies, one after the other,", s.shots)
        } else {
            "an enemy".to_owned()
        };
        let how = if s.over {
            "over any pieces between"
        } else {
            "the nearest piece of the line only"
        };
        out.push(format!(
            "After a move to an empty square, may shoot {what} up to {} squares away along any of the eight lines from where it landed ({how}), without moving.",
            s.range
        ));
    }
    if p.royal {
        out.push("Royal: losing it loses the game.".to_owned());
    }
    if let Some(to) = p.promotes_to {
        let to = v.piece(to);
        let when = match v.rules.promotion {
            PromotionRule::Capture => "by capturing",
            _ => "in the promotion zone",
        };
        let forced = if p.promotion_forced { ", and must" } else { "" };
        out.push(format!(
            "Promotes to {} ({}) {when}{forced}.",
            to.name, to.label
        ));
    }
    if p.last_rank_promotion {
        out.push("May promote on reaching the farthest rank without capturing.".into());
    }
    if p.drop.far_ranks > 0 {
        out.push(format!(
            "Not dropped on the {} farthest rank{}.",
            p.drop.far_ranks,
            if p.drop.far_ranks > 1 { "s" } else { "" }
        ));
    }
    if p.drop.one_per_file {
        out.push("Not dropped on a file that holds another of its kind of its side.".into());
    }
    if p.drop.must_check {
        out.push("A drop of it must give check.".into());
    }
    if p.never_flips {
        out.push("Keeps its kind when it captures.".into());
    }
    if let Some(c) = p.contagious {
        out.push(format!(
            "A piece that captures it becomes a {}.",
            v.piece(c).name
        ));
    }
    if p.contagion_immune {
        out.push("Not changed by capturing a contagious piece.".into());
    }
    let cannot = names(v, |k| p.cannot_capture.contains(k));
    if !cannot.is_empty() {
        out.push(format!("Cannot capture: {cannot}."));
    }
    if p.no_capture_protected_royal {
        out.push("Cannot capture a protected royal piece.".into());
    }
    out
}

/// The reference of `v`.
pub fn reference(v: &Variant) -> PieceReference {
    let cap = ((v.geometry.files().min(v.geometry.ranks()) - 1) / 2).clamp(2, MAX_RADIUS);
    let pieces = (0..v.num_kinds())
        .map(|k| {
            let k = PieceKind(k as u8);
            let p = v.piece(k);
            let d = Diagram::of(&p.moves[0], cap);
            PieceRef {
                id: p.id.clone(),
                label: p.label.clone(),
                name: p.name.clone(),
                promoted: p.is_promoted(),
                royal: p.royal,
                betza: p.betza.clone(),
                promotes_to: p.promotes_to.map(|t| kind_ref(v, t)),
                promoted_from: p.demotes_to.map(|f| kind_ref(v, f)),
                rules: rules_of(v, k, p),
                about: p.about.clone(),
                diagram: DiagramView {
                    radius: d.radius,
                    cells: d
                        .cells
                        .iter()
                        .map(|c| DiagramCell {
                            df: c.df,
                            dr: c.dr,
                            how: c.how.names(),
                        })
                        .collect(),
                    returns: d.returns,
                },
                shot: v.shot(k).map(|s| ShotView {
                    range: s.range,
                    over: s.over,
                    shots: s.shots,
                }),
            }
        })
        .collect();
    PieceReference {
        variant: v.id.clone(),
        pieces,
    }
}
