//! Reading and validating a variant definition.

use super::file::{PieceFile, VariantFile};
use super::{
    builtin_ids, builtin_text, AttackTables, CheckRule, DropRules, KindSet, PieceSet, PieceType,
    PromotionRule, Rules, Variant, VariantError,
};
use crate::color::Color;
use crate::geometry::Geometry;
use crate::piece::{Piece, PieceKind, MAX_KINDS};
use crate::square::Square;
use crate::xbetza;
use crate::zobrist::{seed_from, Zobrist, MAX_COUNTER_KEYED};
use std::collections::HashMap;
use toml::Spanned;

impl Variant {
    /// Loads a built-in variant by id (`hand-shogi`) or a variant file by path.
    pub fn load(name: &str) -> Result<Variant, VariantError> {
        if let Some(text) = builtin_text(name) {
            return Variant::from_toml(text, &format!("configs/variants/{name}.toml"));
        }
        let path = std::path::Path::new(name);
        if path.extension().is_some_and(|e| e == "toml") || path.exists() {
            let text = std::fs::read_to_string(path).map_err(|source| VariantError::Io {
                file: name.to_owned(),
                source,
            })?;
            return Variant::from_toml(&text, name);
        }
        Err(VariantError::Unknown {
            name: name.to_owned(),
            known: builtin_ids().join(", "),
        })
    }

    /// Parses and validates a variant definition; `file` names it in error messages.
    pub fn from_toml(text: &str, file: &str) -> Result<Variant, VariantError> {
        let err = |at: usize, msg: String| VariantError::at(file, text, at, msg);
        let raw: VariantFile = toml::from_str(text).map_err(|e| {
            let at = e.span().map_or(0, |s| s.start);
            err(at, e.message().to_owned())
        })?;
        let geometry =
            Geometry::new(*raw.files.get_ref(), *raw.ranks.get_ref()).ok_or_else(|| {
                err(
                    raw.files.span().start,
                    format!(
                        "board of {}x{} is not supported (1 to 25 files and ranks)",
                        raw.files.get_ref(),
                        raw.ranks.get_ref()
                    ),
                )
            })?;
        if raw.pieces.is_empty() {
            return Err(err(0, "no [[piece]] entries".into()));
        }
        if raw.pieces.len() > MAX_KINDS {
            return Err(err(
                raw.pieces[MAX_KINDS].span().start,
                format!("more than {MAX_KINDS} piece kinds"),
            ));
        }
        let id = raw.id.get_ref().clone();
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(err(
                raw.id.span().start,
                "id must be letters, digits and '-'".into(),
            ));
        }
        let rules = read_rules(&raw, &err)?;

        // Piece IDs first, so that promotions can refer forwards.
        let mut by_id: HashMap<&str, PieceKind> = HashMap::new();
        for (i, p) in raw.pieces.iter().enumerate() {
            let pid = p.get_ref().id.get_ref();
            if !valid_piece_id(pid) {
                return Err(err(
                    p.get_ref().id.span().start,
                    format!("piece id '{pid}' must be one or more uppercase letters, optionally after '+'"),
                ));
            }
            if by_id.insert(pid.as_str(), PieceKind(i as u8)).is_some() {
                return Err(err(
                    p.get_ref().id.span().start,
                    format!("piece id '{pid}' is defined twice"),
                ));
            }
        }

        let mut pieces = Vec::with_capacity(raw.pieces.len());
        for p in &raw.pieces {
            pieces.push(read_piece(p.get_ref(), &geometry, &by_id, &rules, &err)?);
        }
        // A promoted form shared by two kinds is allowed only where nothing demotes a piece to
        // its unpromoted form (captured pieces to hand, switchbacks).
        let unique_demotion = rules.drops || rules.switchback;
        for i in 0..pieces.len() {
            if let Some(to) = pieces[i].promotes_to {
                let target = &mut pieces[to.index()];
                if target.demotes_to.is_some() {
                    if unique_demotion {
                        return Err(err(
                            raw.pieces[i].span().start,
                            format!("'{}' is the promoted form of two pieces", target.id),
                        ));
                    }
                    continue;
                }
                target.demotes_to = Some(PieceKind(i as u8));
            }
        }
        for (i, p) in raw.pieces.iter().enumerate() {
            if let Some(to) = pieces[i].promotes_to {
                if pieces[to.index()].promotes_to.is_some() {
                    return Err(err(
                        p.span().start,
                        format!(
                            "'{}' promotes to '{}', which promotes again",
                            pieces[i].id,
                            pieces[to.index()].id
                        ),
                    ));
                }
            }
        }

        read_cross_references(&raw, &by_id, &mut pieces, &err)?;
        super::labels::assign(&mut pieces);
        crate::promotion::resolve_after_capture(&mut pieces, &rules);

        let (setup, start_hand) = read_setup(&raw, &geometry, &pieces, &rules, &err)?;
        let ko = match &raw.rules.module {
            None => None,
            Some(m) if m.get_ref() == "ko-shogi" => {
                let ko = crate::ko_shogi::KoShogi::new(&pieces, &geometry, &rules)
                    .map_err(|what| err(m.span().start, what))?;
                Some(Box::new(ko))
            }
            Some(m) => {
                return Err(err(
                    m.span().start,
                    format!("module = '{}': expected \"ko-shogi\"", m.get_ref()),
                ))
            }
        };
        for c in Color::ALL {
            if ko.is_some() {
                // The module decides who has lost (Ko Shogi's commanding pieces).
                break;
            }
            let royals = setup
                .iter()
                .filter(|(_, p)| p.color() == c && pieces[p.kind().index()].royal)
                .count();
            if royals == 0 {
                return Err(err(0, format!("{c} has no royal piece in the setup")));
            }
            if rules.check == CheckRule::KingSafety && royals != 1 {
                return Err(err(
                    raw.rules.check.span().start,
                    "check = \"king-safety\" needs exactly one royal piece per side".into(),
                ));
            }
        }

        let attacks = [Color::Black, Color::White].map(|c| {
            AttackTables::build(
                pieces
                    .iter()
                    .enumerate()
                    .map(|(k, p)| (Piece::new(PieceKind(k as u8), c), &p.moves[c.index()])),
            )
        });
        let zone = [Color::Black, Color::White].map(|c| {
            let mut z = vec![false; geometry.cells()];
            if let PromotionRule::Zone { depth } = rules.promotion {
                for &sq in geometry.squares() {
                    z[sq.index()] = relative_rank(&geometry, c, sq) + depth >= geometry.ranks();
                }
            }
            z
        });
        let relative_rank = [Color::Black, Color::White].map(|c| {
            let mut r = vec![0u8; geometry.cells()];
            for &sq in geometry.squares() {
                r[sq.index()] = relative_rank(&geometry, c, sq);
            }
            r
        });
        let zobrist = Zobrist::new(geometry.cells(), pieces.len(), seed_from(&id));
        let mut royal_codes = PieceSet::default();
        let mut protected_royal_rule = PieceSet::default();
        let mut burner_codes = PieceSet::default();
        for (k, p) in pieces.iter().enumerate() {
            for c in Color::ALL {
                let code = Piece::new(PieceKind(k as u8), c);
                if p.royal {
                    royal_codes.insert(code);
                }
                if p.burns {
                    burner_codes.insert(code);
                }
                if p.no_capture_protected_royal {
                    protected_royal_rule.insert(code);
                }
            }
        }
        let has_contagion = pieces.iter().any(|p| p.contagious.is_some());
        let has_lions = pieces.iter().any(|p| p.lion);
        if let Some(burner) = raw.pieces.iter().find(|p| p.get_ref().burns) {
            if ko.is_some() || rules.drops {
                return Err(err(
                    burner.get_ref().id.span().start,
                    format!(
                        "piece '{}': burns = true is not supported with drops or a rule module",
                        burner.get_ref().id.get_ref()
                    ),
                ));
            }
        }
        if has_lions && ko.is_some() {
            return Err(err(
                0,
                "lion = true is not supported with a rule module".into(),
            ));
        }
        Ok(Variant {
            name: raw.name,
            id,
            geometry,
            pieces,
            setup,
            start_hand,
            rules,
            xboard_name: raw.protocol.xboard.clone(),
            zobrist,
            attacks,
            zone,
            relative_rank,
            royal_codes,
            protected_royal_rule,
            has_contagion,
            has_lions,
            burner_codes,
            ko,
        })
    }
}

fn relative_rank(g: &Geometry, c: Color, sq: Square) -> u8 {
    match c {
        Color::Black => g.rank_of(sq),
        Color::White => g.ranks() - 1 - g.rank_of(sq),
    }
}

fn valid_piece_id(id: &str) -> bool {
    let body = id.strip_prefix('+').unwrap_or(id);
    !body.is_empty() && body.len() <= 4 && body.chars().all(|c| c.is_ascii_uppercase())
}

fn read_rules(
    raw: &VariantFile,
    err: &impl Fn(usize, String) -> VariantError,
) -> Result<Rules, VariantError> {
    let r = &raw.rules;
    let check = match r.check.get_ref().as_str() {
        "king-safety" => CheckRule::KingSafety,
        "royal-capture" => CheckRule::RoyalCapture,
        other => {
            return Err(err(
                r.check.span().start,
                format!("check = '{other}': expected \"king-safety\" or \"royal-capture\""),
            ))
        }
    };
    let promotion = match r.promotion.get_ref().as_str() {
        "none" => PromotionRule::None,
        "capture" => PromotionRule::Capture,
        "zone" => {
            if r.promotion_zone == 0 || r.promotion_zone > *raw.ranks.get_ref() {
                return Err(err(
                    r.promotion.span().start,
                    "promotion = \"zone\" needs promotion_zone between 1 and the number of ranks"
                        .into(),
                ));
            }
            PromotionRule::Zone {
                depth: r.promotion_zone,
            }
        }
        other => {
            return Err(err(
                r.promotion.span().start,
                format!("promotion = '{other}': expected \"none\", \"zone\" or \"capture\""),
            ))
        }
    };
    let perpetual_check_loses = match r.perpetual_check.get_ref().as_str() {
        "loss" => true,
        "draw" => false,
        other => {
            return Err(err(
                r.perpetual_check.span().start,
                format!("perpetual_check = '{other}': expected \"loss\" or \"draw\""),
            ))
        }
    };
    let repetition_loses = match r
        .repetition_result
        .as_ref()
        .map(|s| (s, s.get_ref().as_str()))
    {
        None | Some((_, "draw")) => false,
        Some((_, "loss")) => true,
        Some((s, other)) => {
            return Err(err(
                s.span().start,
                format!("repetition_result = '{other}': expected \"draw\" or \"loss\""),
            ))
        }
    };
    if r.repetition < 2 {
        return Err(err(0, "repetition must be at least 2".into()));
    }
    if *raw.max_plies.get_ref() == 0 {
        return Err(err(
            raw.max_plies.span().start,
            "max_plies must be positive".into(),
        ));
    }
    if r.switchback && promotion != PromotionRule::Capture {
        return Err(err(
            r.promotion.span().start,
            "switchback = true needs promotion = \"capture\"".into(),
        ));
    }
    let limit = |field: &Option<Spanned<u8>>, name: &str| -> Result<Option<u8>, VariantError> {
        match field {
            None => Ok(None),
            Some(n) if (1..=MAX_COUNTER_KEYED as u8).contains(n.get_ref()) => {
                Ok(Some(*n.get_ref()))
            }
            Some(n) => Err(err(
                n.span().start,
                format!("{name} must be between 1 and {MAX_COUNTER_KEYED}"),
            )),
        }
    };
    let zone_entry_only = match r.zone_promotion.as_ref() {
        None => false,
        Some(z) if !matches!(promotion, PromotionRule::Zone { .. }) => {
            return Err(err(
                z.span().start,
                "zone_promotion needs promotion = \"zone\"".into(),
            ))
        }
        Some(z) => match z.get_ref().as_str() {
            "any" => false,
            "entry" => true,
            other => {
                return Err(err(
                    z.span().start,
                    format!("zone_promotion = '{other}': expected \"any\" or \"entry\""),
                ))
            }
        },
    };
    Ok(Rules {
        check,
        zone_entry_only,
        drops: r.drops,
        promotion,
        repetition: r.repetition,
        perpetual_check_loses,
        repetition_loses,
        max_plies: *raw.max_plies.get_ref(),
        switchback: r.switchback,
        max_consecutive_skips: limit(&r.max_consecutive_skips, "max_consecutive_skips")?,
        max_consecutive_checks: limit(&r.max_consecutive_checks, "max_consecutive_checks")?,
    })
}

fn read_piece(
    p: &PieceFile,
    geometry: &Geometry,
    by_id: &HashMap<&str, PieceKind>,
    rules: &Rules,
    err: &impl Fn(usize, String) -> VariantError,
) -> Result<PieceType, VariantError> {
    let moves =
        [Color::Black, Color::White].map(|c| xbetza::compile(p.betza.get_ref(), geometry, c));
    let [black, white] = moves;
    let black = black.map_err(|e| {
        err(
            p.betza.span().start,
            format!(
                "piece '{}': XBetza '{}': {e}",
                p.id.get_ref(),
                p.betza.get_ref()
            ),
        )
    })?;
    let mut white = white.map_err(|e| err(p.betza.span().start, e.to_string()))?;
    let mut black = black;
    if p.jumps_lower_ranks {
        if p.rank == 0 {
            return Err(err(
                p.id.span().start,
                "jumps_lower_ranks needs a rank above 0 (it jumps only pieces of lower rank)"
                    .into(),
            ));
        }
        let jumping = jumping_slides(&mut black, p.rank) + jumping_slides(&mut white, p.rank);
        if jumping == 0 {
            return Err(err(
                p.betza.span().start,
                format!(
                    "piece '{}': jumps_lower_ranks but its XBetza has no unlimited slide",
                    p.id.get_ref()
                ),
            ));
        }
    }
    let promotes_to = match &p.promotes {
        None => None,
        Some(s) => Some(*by_id.get(s.get_ref().as_str()).ok_or_else(|| {
            err(
                s.span().start,
                format!("promotes = '{}': no piece has this id", s.get_ref()),
            )
        })?),
    };
    if promotes_to.is_some() && rules.promotion == PromotionRule::None {
        return Err(err(
            p.id.span().start,
            "a piece promotes but the rules say promotion = \"none\"".into(),
        ));
    }
    let promotion_forced = match p
        .promotion
        .as_ref()
        .map(|s| (s.get_ref().as_str(), s.span()))
    {
        None | Some(("optional", _)) => false,
        Some(("forced", _)) => true,
        Some((other, span)) => {
            return Err(err(
                span.start,
                format!("promotion = '{other}': expected \"optional\" or \"forced\""),
            ))
        }
    };
    if p.forced_promotion_ranks > 0
        && (promotes_to.is_none() || !matches!(rules.promotion, PromotionRule::Zone { .. }))
    {
        return Err(err(
            p.id.span().start,
            "forced_promotion_ranks needs a promoted form and promotion = \"zone\"".into(),
        ));
    }
    if (p.drop_far_ranks > 0 || p.drop_one_per_file || p.drop_must_check) && !rules.drops {
        return Err(err(
            p.id.span().start,
            "drop restrictions given but the rules do not allow drops".into(),
        ));
    }
    let capture_rule = rules.promotion == PromotionRule::Capture;
    if (p.contagious.is_some() || p.contagion_immune) && !capture_rule {
        return Err(err(
            p.id.span().start,
            "contagion needs rules.promotion = \"capture\"".into(),
        ));
    }
    if p.never_flips && !rules.switchback {
        return Err(err(
            p.id.span().start,
            "never_flips needs rules.switchback = true".into(),
        ));
    }
    let last_rank_promotion = match &p.last_rank {
        None => false,
        Some(s) if s.get_ref() == "optional-promotion" => {
            if rules.promotion == PromotionRule::None || promotes_to.is_none() {
                return Err(err(
                    s.span().start,
                    "last_rank = \"optional-promotion\" needs a promoted form and a promotion rule"
                        .into(),
                ));
            }
            true
        }
        Some(s) => {
            return Err(err(
                s.span().start,
                format!(
                    "last_rank = '{}': expected \"optional-promotion\"",
                    s.get_ref()
                ),
            ))
        }
    };
    if p.no_capture_protected_royal {
        if rules.check != CheckRule::RoyalCapture {
            return Err(err(
                p.id.span().start,
                "no_capture_protected_royal needs check = \"royal-capture\"".into(),
            ));
        }
        // The rule looks at the destination only, so the piece may not capture on the way.
        let kills_on_the_way = black
            .paths
            .iter()
            .any(|path| path.legs[..path.legs.len() - 1].iter().any(|l| l.c));
        if kills_on_the_way {
            return Err(err(
                p.betza.span().start,
                "no_capture_protected_royal is supported only for pieces that capture on their destination alone".into(),
            ));
        }
    }
    Ok(PieceType {
        id: p.id.get_ref().clone(),
        name: p.name.clone(),
        label: match &p.label {
            Some(l) => super::labels::checked(l.get_ref())
                .map_err(|e| err(l.span().start, format!("label = '{}': {e}", l.get_ref())))?,
            None => String::new(),
        },
        about: p.about.clone().unwrap_or_default().trim().to_owned(),
        betza: p.betza.get_ref().clone(),
        royal: p.royal,
        moves: [black, white],
        promotes_to,
        promotion_forced,
        forced_promotion_ranks: p.forced_promotion_ranks,
        demotes_to: None,
        drop: DropRules {
            far_ranks: p.drop_far_ranks,
            one_per_file: p.drop_one_per_file,
            must_check: p.drop_must_check,
        },
        never_flips: p.never_flips,
        contagious: None,
        contagion_immune: p.contagion_immune,
        last_rank_promotion,
        cannot_capture: KindSet::default(),
        no_capture_protected_royal: p.no_capture_protected_royal,
        lion: p.lion,
        trade_cheap: p.trade_cheap,
        rank: p.rank,
        burns: p.burns,
        after_capture: PieceKind(0),
    })
}

/// Turns the unlimited single-leg slides of `table` into walker paths that pass over pieces
/// of a rank below `rank` (the plain slide tables and the reverse attack tables stop at the
/// first piece). Returns how many it turned.
fn jumping_slides(table: &mut xbetza::MoveTable, rank: u8) -> usize {
    let (jumping, plain): (Vec<_>, Vec<_>) = table
        .slides
        .drain(..)
        .partition(|s| s.range == xbetza::UNLIMITED);
    table.slides = plain;
    let n = jumping.len();
    for s in jumping {
        table.paths.push(xbetza::Path {
            legs: vec![xbetza::Leg {
                step: s.step,
                delta: s.delta,
                range: s.range,
                m: s.m,
                c: s.c,
                p: false,
                skip_first: false,
                must_jump: false,
                between: Vec::new(),
                pass_below: rank,
            }],
        });
    }
    // Paths go through the deduplicating generator.
    table.may_repeat |= n > 0;
    table.finish();
    n
}

/// The per-piece fields that name other kinds: `contagious` and `cannot_capture`.
fn read_cross_references(
    raw: &VariantFile,
    by_id: &HashMap<&str, PieceKind>,
    pieces: &mut [PieceType],
    err: &impl Fn(usize, String) -> VariantError,
) -> Result<(), VariantError> {
    let lookup = |s: &Spanned<String>, field: &str| {
        by_id.get(s.get_ref().as_str()).copied().ok_or_else(|| {
            err(
                s.span().start,
                format!("{field} = '{}': no piece has this id", s.get_ref()),
            )
        })
    };
    for (k, p) in raw.pieces.iter().enumerate() {
        let p = p.get_ref();
        if let Some(s) = &p.contagious {
            pieces[k].contagious = Some(lookup(s, "contagious")?);
        }
        for s in &p.cannot_capture {
            let victim = lookup(s, "cannot_capture")?;
            if pieces[victim.index()].royal {
                return Err(err(
                    s.span().start,
                    format!(
                        "cannot_capture = '{}': a royal piece cannot be protected this way",
                        s.get_ref()
                    ),
                ));
            }
            pieces[k].cannot_capture.insert(victim);
        }
    }
    if pieces.iter().any(|p| p.contagious.is_some()) {
        for (k, p) in raw.pieces.iter().enumerate() {
            if pieces[k].royal && !pieces[k].contagion_immune {
                return Err(err(
                    p.span().start,
                    format!(
                        "royal piece '{}' must be contagion_immune where pieces are contagious",
                        pieces[k].id
                    ),
                ));
            }
            if let Some(target) = pieces[k].contagious {
                if pieces[target.index()].royal {
                    return Err(err(
                        p.span().start,
                        "contagion may not turn a piece into a royal one".into(),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Setup squares of the first player, expanded (`a4-m4` is every square from a4 to m4).
fn expand_squares(
    g: &Geometry,
    s: &Spanned<String>,
    err: &impl Fn(usize, String) -> VariantError,
) -> Result<Vec<Square>, VariantError> {
    let bad = || {
        err(
            s.span().start,
            format!("'{}' is not a square or range of this board", s.get_ref()),
        )
    };
    match s.get_ref().split_once('-') {
        None => Ok(vec![g.parse(s.get_ref()).ok_or_else(bad)?]),
        Some((a, b)) => {
            let (a, b) = (g.parse(a).ok_or_else(bad)?, g.parse(b).ok_or_else(bad)?);
            let (fa, ra, fb, rb) = (g.file_of(a), g.rank_of(a), g.file_of(b), g.rank_of(b));
            if ra == rb && fa <= fb {
                Ok((fa..=fb).filter_map(|f| g.square(f, ra)).collect())
            } else if fa == fb && ra <= rb {
                Ok((ra..=rb).filter_map(|r| g.square(fa, r)).collect())
            } else {
                Err(bad())
            }
        }
    }
}

type Setup = (Vec<(Square, Piece)>, Vec<(PieceKind, u8)>);

fn read_setup(
    raw: &VariantFile,
    g: &Geometry,
    pieces: &[PieceType],
    rules: &Rules,
    err: &impl Fn(usize, String) -> VariantError,
) -> Result<Setup, VariantError> {
    let mut setup: Vec<(Square, Piece)> = Vec::new();
    let mut hand = Vec::new();
    for (k, p) in raw.pieces.iter().enumerate() {
        let kind = PieceKind(k as u8);
        for s in &p.get_ref().setup {
            for sq in expand_squares(g, s, err)? {
                let rot = g.rotate(sq);
                for (sq, c) in [(sq, Color::Black), (rot, Color::White)] {
                    if setup.iter().any(|(o, _)| *o == sq) {
                        return Err(err(
                            s.span().start,
                            format!("square {} is set up twice", g.name(sq)),
                        ));
                    }
                    setup.push((sq, Piece::new(kind, c)));
                }
            }
        }
        let n = p.get_ref().hand;
        if n > 0 {
            if !rules.drops {
                return Err(err(
                    p.get_ref().id.span().start,
                    "pieces in hand need rules.drops = true".into(),
                ));
            }
            if pieces[k].demotes_to.is_some() || pieces[k].royal {
                return Err(err(
                    p.get_ref().id.span().start,
                    "promoted and royal pieces cannot start in hand".into(),
                ));
            }
            hand.push((kind, n));
        }
    }
    Ok((setup, hand))
}

/// Loads a built-in variant or variant file, shared for positions.
pub fn load_variant(name: &str) -> Result<std::sync::Arc<Variant>, VariantError> {
    Variant::load(name).map(std::sync::Arc::new)
}
