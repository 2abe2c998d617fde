//! The mop-up term: a side far ahead is credited for bringing its pieces to the other side's
//! royal piece.
//!
//! Far ahead, the value head is sure of the win after every move and the material term has
//! nothing left to take, so every quiet move looks alike and the search shuffles until the
//! game reaches its length limit (12-32% of a 60-minute Hook Shogi model's games against
//! `greedy`).
//! Classical engines meet the same flat evaluation in won endgames with a mop-up term that
//! rewards closing in on the lone king; this is that term for a board full of pieces: each
//! of the leader's pieces counts a share of its own value for how near it stands to the
//! nearest enemy royal piece. A piece's whole approach, from the far edge to two squares from
//! the royal, is worth `weight` times its value, and it gains nothing by standing beside the
//! royal, where the royal itself could take it.
//!
//! A game that has run past half its length limit without ending is on its way to a draw: the
//! term then grows with the plies played ([`lateness`]), to `1 + LATE_GROWTH` times its
//! weight at the limit, and the lead it needs falls to any lead at all. At the weight of Ko
//! Shogi's preset (2) a step of a middling piece earns about 0.01 of utility, and a search of
//! 64 simulations gives its visits by the policy unless a move's value stands out by a tenth
//! or more: games against `greedy` ran into the limit with the leader's army still on its
//! first ranks for a thousand plies. Four times the weight by the limit drew as often; ten
//! times finished them (docs/experiments.md).

use koma_rules::{Color, CommandRole, PieceValues, Position};

/// How far ahead (in mean piece values, as material adjudication counts) a side must stand at
/// the root for the term to count: below it the game is not won, and the search should look
/// for material and safety, not for the royal.
pub(crate) const MOP_UP_LEAD: f32 = 3.0;

/// The share of the variant's length limit from which the term grows with the plies played:
/// decided games mostly end before it (Ko Shogi's against `greedy` at 817-882 plies on
/// average of 2,000, Hook Shogi's won games at a median of 645 of 1,500), so a game that
/// has not yet drifted towards the limit is searched as before.
pub(crate) const LATE_FROM: f32 = 0.5;

/// How many times its weight the term adds by the length limit, growing evenly from
/// [`LATE_FROM`].
pub(crate) const LATE_GROWTH: f32 = 9.0;

/// How far `pos` stands into the last stretch of its game before the length limit: 0 up to
/// [`LATE_FROM`] of the limit, rising evenly to 1 at the limit.
pub(crate) fn lateness(pos: &Position) -> f32 {
    let limit = pos.variant().rules.max_plies.max(1) as f32;
    ((pos.ply() as f32 / limit - LATE_FROM) / (1.0 - LATE_FROM)).clamp(0.0, 1.0)
}

/// The term for one search: who leads, and how near the leader's pieces stood at the root.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct MopUp {
    leader: Color,
    root: f32,
    /// The other side's commanding pieces (objective and reserve) on the board at the root.
    root_commanders: usize,
    weight: f32,
}

impl MopUp {
    /// The term for a search from `root`, whose side to move stands `difference` value units
    /// ahead (negative: behind); none unless one side leads by [`MOP_UP_LEAD`] mean piece
    /// values or more. Past [`LATE_FROM`] of the length limit the lead needed shrinks and the
    /// weight grows with the root's [`lateness`]: at the limit any lead counts, at
    /// `1 + LATE_GROWTH` times the weight.
    pub(crate) fn at_root(
        root: &Position,
        values: &PieceValues,
        difference: i64,
        weight: f32,
    ) -> Option<MopUp> {
        let late = lateness(root);
        let lead = MOP_UP_LEAD * (1.0 - late) * values.mean_value();
        if weight <= 0.0 || difference == 0 || (difference.unsigned_abs() as f32) < lead {
            return None;
        }
        let weight = weight * (1.0 + LATE_GROWTH * late);
        let side = root.side_to_move();
        let leader = if difference > 0 {
            side
        } else {
            side.opposite()
        };
        let (approach, commanders) = approach(root, values, leader);
        Some(MopUp {
            leader,
            root: approach,
            root_commanders: commanders,
            weight,
        })
    }

    /// What the leader's approach since the root is worth to `side` at `leaf`, in value units
    /// (added to `side`'s material difference): positive for the leader, negative for the
    /// side it closes in on.
    /// A leaf where a commanding piece has been taken is measured to the objectives left,
    /// which may stand farther off (in Ko Shogi, once the general falls, the middle troop and
    /// banners): there the approach counts no loss, so taking one is never a step back.
    /// Not rounded: a one-square step of a small piece is worth less than a value unit on a
    /// large board, and would otherwise count nothing.
    pub(crate) fn leaf_term(&self, leaf: &Position, values: &PieceValues, side: Color) -> f32 {
        let (approach, commanders) = approach(leaf, values, self.leader);
        let mut gain = self.weight * (approach - self.root);
        if commanders < self.root_commanders {
            gain = gain.max(0.0);
        }
        if side == self.leader {
            gain
        } else {
            -gain
        }
    }
}

/// How near `leader`'s pieces stand to the other side's royal pieces, in value units: each
/// non-royal piece on the board counts its value times (R - d) / (R - 2), where d is its
/// king's-move distance to the nearest enemy royal piece (2 when nearer: a piece beside the
/// royal gains nothing over one a square away, so nothing is won by putting it where the royal
/// takes it) and R the largest such distance the board allows. 0 when the other side has no
/// royal piece on the board. With it, the number of the other side's commanding pieces on the
/// board (objective and reserve, [`Position::command_role`]).
/// "Royal" here is what removing wins now ([`CommandRole::Objective`]): in Ko Shogi, which has
/// no royal kind, the general and the governor, and once both have fallen the middle troop and
/// banners. The leader's own commanding pieces are not sent in.
pub(crate) fn approach(pos: &Position, values: &PieceValues, leader: Color) -> (f32, usize) {
    const MOST_ROYALS: usize = 8;
    let v = pos.variant();
    let g = &v.geometry;
    let far = (g.files().max(g.ranks()) as i32 - 1).max(3);
    let mut royals: [(i32, i32); MOST_ROYALS] = [(0, 0); MOST_ROYALS];
    let mut n_royals = 0;
    let mut commanders = 0;
    let at = |sq| (g.file_of(sq) as i32, g.rank_of(sq) as i32);
    if let Some(sq) = pos.royal_square(leader.opposite()) {
        // One royal piece, whose square the position keeps: no walk of the board.
        royals[0] = at(sq);
        n_royals = 1;
        commanders = 1;
    } else {
        for &sq in g.squares() {
            let p = pos.piece_at(sq);
            if !p.is_piece() || p.color() == leader {
                continue;
            }
            match pos.command_role(p) {
                CommandRole::None => {}
                CommandRole::Reserve => commanders += 1,
                CommandRole::Objective => {
                    commanders += 1;
                    if n_royals < MOST_ROYALS {
                        royals[n_royals] = at(sq);
                        n_royals += 1;
                    }
                }
            }
        }
    }
    if n_royals == 0 {
        return (0.0, 0);
    }
    let royals = &royals[..n_royals];
    let mut sum = 0.0f32;
    for &sq in g.squares() {
        let p = pos.piece_at(sq);
        if !p.is_piece() || p.color() != leader || pos.command_role(p) != CommandRole::None {
            continue;
        }
        let (f, r) = (g.file_of(sq) as i32, g.rank_of(sq) as i32);
        let d = royals
            .iter()
            .map(|&(rf, rr)| (f - rf).abs().max((r - rr).abs()))
            .min()
            .unwrap_or(far)
            .clamp(2, far);
        sum += values.value(p.kind()) as f32 * (far - d) as f32 / (far - 2) as f32;
    }
    (sum, commanders)
}

#[cfg(test)]
mod tests {
    use super::*;
    use koma_rules::load_variant;

    /// A piece nearer the enemy royal counts more, a royal piece and the other side's pieces
    /// nothing, and the term starts only at the lead.
    #[test]
    fn approach_counts_the_leaders_pieces_by_their_distance_to_the_royal() {
        let v = load_variant("hand-shogi").unwrap();
        let values = PieceValues::new(&v);
        let far = Position::from_text(&v, "4k4/9/9/9/9/9/9/9/G3K4 b -").unwrap();
        let near = Position::from_text(&v, "4k4/9/9/9/G8/9/9/9/4K4 b -").unwrap();
        let next = Position::from_text(&v, "4k4/9/3G5/9/9/9/9/9/4K4 b -").unwrap();
        let a = |p: &Position| approach(p, &values, Color::Black).0;
        assert!(
            a(&far) < a(&near) && a(&near) < a(&next),
            "{} {} {}",
            a(&far),
            a(&near),
            a(&next)
        );
        // White has no piece but its King to bring; Black has one royal piece to be reached.
        assert_eq!(approach(&next, &values, Color::White), (0.0, 1));
        let gold = next.variant().geometry.parse("d7").unwrap();
        let gold = values.value(next.piece_at(gold).kind()) as f32;
        // Two squares from the King: the whole value.
        assert!((a(&next) - gold).abs() < 1e-3, "{}", a(&next));
        assert_eq!(a(&far), 0.0, "the farthest square counts nothing");
        // Level material: no term; far ahead: the leader is the side ahead.
        assert!(MopUp::at_root(&far, &values, 0, 1.0).is_none());
        let lead = (4.0 * values.mean_value()) as i64;
        let m = MopUp::at_root(&far, &values, -lead, 1.0).unwrap();
        assert_eq!(m.leader, Color::White);
        assert!(MopUp::at_root(&far, &values, lead, 0.0).is_none());
        // Measured from the root: a piece drawn back costs the leader, and its opponent
        // sees the opposite.
        let m = MopUp::at_root(&next, &values, lead, 1.0).unwrap();
        assert_eq!(m.leader, Color::Black);
        let back = m.leaf_term(&far, &values, Color::Black);
        assert!(back < 0.0, "drawn back: {back}");
        assert_eq!(m.leaf_term(&far, &values, Color::White), -back);
    }

    /// Past half the length limit the term needs less lead and weighs more, until at the limit
    /// any lead counts at ten times the weight; a level game still has none.
    #[test]
    fn late_in_a_game_the_term_needs_less_lead_and_weighs_more() {
        let v = load_variant("hand-shogi").unwrap();
        let values = PieceValues::new(&v);
        let limit = v.rules.max_plies;
        let at =
            |ply: u32, board: &str| Position::from_text(&v, &format!("{board} b - {ply}")).unwrap();
        let far = "4k4/9/9/9/9/9/9/9/G3K4";
        let near = at(0, "4k4/9/9/9/G8/9/9/9/4K4");
        let mean = values.mean_value();
        let two = (2.0 * mean).ceil() as i64;
        assert!((two as f32) < MOP_UP_LEAD * mean);
        for ply in [0, limit / 2] {
            assert_eq!(lateness(&at(ply, far)), 0.0);
            assert!(
                MopUp::at_root(&at(ply, far), &values, two, 2.0).is_none(),
                "{ply}"
            );
        }
        let early = MopUp::at_root(&at(0, far), &values, 4 * two, 2.0).unwrap();
        let three_quarters = at(limit / 4 * 3, far);
        assert!((lateness(&three_quarters) - 0.5).abs() < 1e-6);
        let late = MopUp::at_root(&three_quarters, &values, two, 2.0).unwrap();
        let (e, l) = (
            early.leaf_term(&near, &values, Color::Black),
            late.leaf_term(&near, &values, Color::Black),
        );
        assert!(
            e > 0.0 && (l / e - (1.0 + LATE_GROWTH * 0.5)).abs() < 1e-4,
            "{e} {l}"
        );
        // At the limit a single unit leads; level material has no leader.
        let last = at(limit - 1, far);
        assert!(MopUp::at_root(&last, &values, -1, 2.0).is_some_and(|m| m.leader == Color::White));
        assert!(MopUp::at_root(&last, &values, 0, 2.0).is_none());
    }

    /// Ko Shogi has no royal kind: the term aims at its commanders, and a commander of the
    /// leader's own is not sent in.
    #[test]
    fn in_ko_shogi_the_approach_is_to_the_commanders() {
        let v = load_variant("ko-shogi").unwrap();
        let values = PieceValues::new(&v);
        let start = Position::start(&v);
        let (sum, commanders) = approach(&start, &values, Color::Black);
        let reserve = v
            .geometry
            .squares()
            .iter()
            .map(|&sq| start.piece_at(sq))
            .filter(|&p| p.is_piece() && p.color() == Color::White)
            .filter(|&p| start.command_role(p) == CommandRole::Reserve)
            .count();
        assert!(reserve >= 2, "a middle troop and a banner at the start");
        assert_eq!(commanders, 1 + reserve, "White's general and its reserve");
        assert!(sum > 0.0, "{sum}");
        // Black's own general counts nothing, wherever it stands: brought from its first rank
        // to the middle of the board, the approach stays that of the millenary alone.
        let with_general_on = |rank: &str, first: &str| {
            let text = format!(
                "9(g)9/19/19/19/19/19/19/19/19/{rank}/19/19/19/19/19/19/19/4(MI)14/{first} b -"
            );
            Position::from_text(&v, &text).unwrap()
        };
        let near = with_general_on("9(G)9", "19");
        let far = with_general_on("19", "9(G)9");
        assert_eq!(
            approach(&near, &values, Color::Black),
            approach(&far, &values, Color::Black)
        );
        let piece = |id: &str, c: Color| koma_rules::Piece::new(v.kind_by_id(id).unwrap(), c);
        assert_eq!(
            start.command_role(piece("MT", Color::White)),
            CommandRole::Reserve
        );
        assert_eq!(
            start.command_role(piece("G", Color::White)),
            CommandRole::Objective
        );
        assert!(v.is_objective_kind(v.kind_by_id("G").unwrap()));
        assert!(v.is_objective_kind(v.kind_by_id("GV").unwrap()));
        let objectives = (0..v.num_kinds())
            .filter(|&k| v.is_objective_kind(koma_rules::PieceKind(k as u8)))
            .count();
        assert_eq!(objectives, 2);
    }

    /// Once the general has fallen, a Ko Shogi side commands on through its middle troop and
    /// banner: the term aims at them, and taking the general is never counted a step back.
    #[test]
    fn in_ko_shogi_the_approach_turns_to_the_troop_and_banner_once_the_general_falls() {
        let v = load_variant("ko-shogi").unwrap();
        let values = PieceValues::new(&v);
        // White: general on the top rank, middle troop and banner near the bottom-left corner;
        // Black: its general in the bottom-right corner, and a millenary.
        let with = |ranks: &[(usize, &str)]| {
            let mut rows = vec!["19"; 19];
            rows[17] = "(mt)(bn)17";
            rows[18] = "18(G)";
            for &(r, text) in ranks {
                rows[r] = text;
            }
            Position::from_text(&v, &format!("{} b -", rows.join("/"))).unwrap()
        };
        // The millenary next to White's general, which it then takes.
        let root = with(&[(0, "9(g)9"), (1, "9(MI)9")]);
        let taken = with(&[(0, "9(MI)9")]);
        let troop = v.kind_by_id("MT").unwrap();
        let mt = koma_rules::Piece::new(troop, Color::White);
        assert_eq!(root.command_role(mt), CommandRole::Reserve);
        assert_eq!(taken.command_role(mt), CommandRole::Objective);
        let (near_general, at_root) = approach(&root, &values, Color::Black);
        let (to_troop, after) = approach(&taken, &values, Color::Black);
        assert_eq!(
            (at_root, after),
            (3, 2),
            "general, troop and banner; then two"
        );
        // The millenary stands by the general at the root and far from the troop after it.
        assert!(
            to_troop > 0.0 && to_troop < near_general,
            "{to_troop} {near_general}"
        );
        let lead = (4.0 * values.mean_value()) as i64;
        let m = MopUp::at_root(&root, &values, lead, 2.0).unwrap();
        assert_eq!(m.leaf_term(&taken, &values, Color::Black), 0.0);
        // With the general gone at the root, coming nearer the troop counts.
        let nearer = with(&[(12, "3(MI)15")]);
        let m = MopUp::at_root(&taken, &values, lead, 2.0).unwrap();
        assert!(m.leaf_term(&nearer, &values, Color::Black) > 0.0);
    }
}
