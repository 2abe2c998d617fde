//! The state document: everything the page draws, in one JSON object (see `docs/play-api.md`).

use crate::clock::ClockView;
use koma_engine::game::{color_name, outcome_sentence, reason_text, result_text, Game, Mover};
use koma_engine::search::Thought;
use koma_rules::{move_legs, Color, Move, PieceKind, Position, Promotion, Variant};
use serde::Serialize;

/// The variant as the page needs it.
#[derive(Debug, Clone, Serialize)]
pub struct VariantInfo {
    /// Variant id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Board width.
    pub files: u8,
    /// Board height.
    pub ranks: u8,
    /// Whether captured pieces can be dropped.
    pub drops: bool,
    /// Every piece kind.
    pub pieces: Vec<PieceInfo>,
}

/// One piece kind.
#[derive(Debug, Clone, Serialize)]
pub struct PieceInfo {
    /// ID (`+` first for a promoted form).
    pub id: String,
    /// The label drawn on it (a promoted form's own kind, not `+` and its origin).
    pub label: String,
    /// Name.
    pub name: String,
    /// Whether it is a promoted form.
    pub promoted: bool,
}

impl VariantInfo {
    /// The page's view of `v`.
    pub fn of(v: &Variant) -> VariantInfo {
        VariantInfo {
            id: v.id.clone(),
            name: v.name.clone(),
            files: v.geometry.files(),
            ranks: v.geometry.ranks(),
            drops: v.rules.drops,
            pieces: v
                .pieces
                .iter()
                .map(|p| PieceInfo {
                    id: p.id.clone(),
                    label: p.label.clone(),
                    name: p.name.clone(),
                    promoted: p.is_promoted(),
                })
                .collect(),
        }
    }
}

/// The model playing.
#[derive(Debug, Clone, Serialize)]
pub struct ModelInfo {
    /// Checkpoint stem.
    pub path: String,
    /// Training step.
    pub step: u64,
}

/// Default engine budget.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Defaults {
    /// Simulations per move (0: none).
    pub sims: u32,
    /// Milliseconds per move (0: none).
    pub millis: u64,
}

/// An occupied square.
#[derive(Debug, Clone, Serialize)]
pub struct SquareInfo {
    /// Square name.
    pub square: String,
    /// Piece ID.
    pub piece: String,
    /// Its label.
    pub label: String,
    /// Owner.
    pub color: &'static str,
    /// Promoted form.
    pub promoted: bool,
}

/// Pieces of one kind in a hand.
#[derive(Debug, Clone, Serialize)]
pub struct HandItem {
    /// Piece ID.
    pub id: String,
    /// Its label.
    pub label: String,
    /// How many.
    pub count: u8,
}

/// Both hands.
#[derive(Debug, Clone, Serialize)]
pub struct Hands {
    /// The first player's.
    pub black: Vec<HandItem>,
    /// The second player's.
    pub white: Vec<HandItem>,
}

/// A move, broken into what the page shows and clicks.
#[derive(Debug, Clone, Serialize)]
pub struct MoveInfo {
    /// Canonical text.
    pub text: String,
    /// Label of the piece that moves (or is dropped).
    pub piece: String,
    /// Clicks that enter it: origin (or `@ID`), each leg's end followed by its shots.
    pub clicks: Vec<String>,
    /// Origin square (board moves).
    pub from: Option<String>,
    /// Dropped piece ID (drops).
    pub drop: Option<String>,
    /// Destination.
    pub to: String,
    /// Squares captured on the way (not shots).
    pub kills: Vec<String>,
    /// Squares shot.
    pub shots: Vec<String>,
    /// `+`, `=` or empty.
    pub promotion: &'static str,
}

impl MoveInfo {
    /// Describes `mv`, a move of `pos`.
    pub fn of(pos: &Position, mv: &Move) -> MoveInfo {
        let v = pos.variant();
        let g = &v.geometry;
        let name = |sq| g.name(sq);
        let mut clicks = Vec::new();
        let kind = mv
            .dropped()
            .unwrap_or_else(|| pos.piece_at(mv.from()).kind());
        let (from, drop) = match mv.dropped() {
            Some(k) => {
                let id = v.piece(k).id.clone();
                clicks.push(format!("@{id}"));
                (None, Some(id))
            }
            None => {
                clicks.push(name(mv.from()));
                (Some(name(mv.from())), None)
            }
        };
        if mv.is_drop() {
            clicks.push(name(mv.to()));
        }
        for leg in move_legs(mv) {
            clicks.push(name(leg.to));
            clicks.extend(leg.shots.iter().map(|&s| name(s)));
        }
        let mut kills = Vec::new();
        let mut shots = Vec::new();
        for (i, &k) in mv.kills().iter().enumerate() {
            if mv.is_shot(i) {
                shots.push(name(k));
            } else {
                kills.push(name(k));
            }
        }
        MoveInfo {
            text: pos.move_text(mv),
            piece: v.piece(kind).label.clone(),
            clicks,
            from,
            drop,
            to: name(mv.to()),
            kills,
            shots,
            promotion: match mv.promotion() {
                Promotion::None => "",
                Promotion::Promote => "+",
                Promotion::Decline => "=",
            },
        }
    }
}

/// A move of the game record.
#[derive(Debug, Clone, Serialize)]
pub struct PlayedMove {
    /// Ply number (1 = first move of the game).
    pub ply: usize,
    /// The side that played it.
    pub color: &'static str,
    /// The move.
    #[serde(flatten)]
    pub info: MoveInfo,
    /// Squares where the move removed an opposing piece.
    pub captured: Vec<String>,
    /// `human` or `engine`.
    pub by: &'static str,
}

/// The end of the game.
#[derive(Debug, Clone, Serialize)]
pub struct OutcomeInfo {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// The winner.
    pub winner: Option<&'static str>,
    /// Why it ended.
    pub reason: &'static str,
    /// One sentence.
    pub text: String,
}

/// A root move of the engine's last search.
#[derive(Debug, Clone, Serialize)]
pub struct TopMove {
    /// Move text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Visits.
    pub visits: u32,
    /// Network prior.
    pub prior: f32,
    /// Mean value for the searching side.
    pub q: f32,
}

/// The engine's last search.
#[derive(Debug, Clone, Serialize)]
pub struct Analysis {
    /// Ply of the searched position (moves played before it).
    pub ply: usize,
    /// Side that searched.
    pub color: &'static str,
    /// Move chosen.
    pub best: String,
    /// Search value for `color`.
    pub value: f32,
    /// Network win/draw/loss for `color`.
    pub wdl: [f32; 3],
    /// Root visits.
    pub simulations: u32,
    /// Search time.
    pub millis: u64,
    /// Most visited root moves (at most 10).
    pub top: Vec<TopMove>,
    /// Principal variation.
    pub pv: Vec<String>,
}

impl Analysis {
    /// The page's view of a search of `pos` (the position searched), `ply` moves into the game.
    pub fn of(pos: &Position, ply: usize, t: &Thought) -> Analysis {
        // The PV's texts need each move made in turn.
        let mut p = pos.clone();
        let mut pv = Vec::new();
        for &m in &t.pv {
            pv.push(p.move_text(&m));
            p.make_move(m);
        }
        Analysis {
            ply,
            color: color_name(pos.side_to_move()),
            best: pos.move_text(&t.best),
            value: t.value,
            wdl: t.wdl,
            simulations: t.simulations,
            millis: t.elapsed.as_millis() as u64,
            top: t
                .top
                .iter()
                .take(10)
                .map(|r| TopMove {
                    mv: pos.move_text(&r.mv),
                    visits: r.visits,
                    prior: r.prior,
                    q: r.q,
                })
                .collect(),
            pv,
        }
    }
}

/// Who gives check, for the page's marks.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ChecksInfo {
    /// Squares of the side to move's royal pieces in check.
    pub targets: Vec<String>,
    /// Squares of the pieces giving check.
    pub checkers: Vec<String>,
}

/// One position of the game: what the board shows (the current one, or an earlier one under
/// review).
#[derive(Debug, Clone, Serialize)]
pub struct BoardView {
    /// Plies played before it.
    pub ply: usize,
    /// Position text.
    pub fen: String,
    /// Side to move.
    pub side_to_move: &'static str,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// Who gives check.
    pub checks: ChecksInfo,
    /// Occupied squares.
    pub board: Vec<SquareInfo>,
    /// Hands.
    pub hands: Hands,
}

impl BoardView {
    /// The view of `pos`, `ply` moves into the game.
    pub fn of(pos: &Position, ply: usize) -> BoardView {
        let v = pos.variant();
        let g = &v.geometry;
        let mut board = Vec::new();
        for &sq in g.squares() {
            let p = pos.piece_at(sq);
            if p.is_piece() {
                let t = v.piece(p.kind());
                board.push(SquareInfo {
                    square: g.name(sq),
                    promoted: t.is_promoted(),
                    piece: t.id.clone(),
                    label: t.label.clone(),
                    color: color_name(p.color()),
                });
            }
        }
        // Empty exactly when the side is not in check, so one search answers both.
        let checks = pos.checks(pos.side_to_move());
        BoardView {
            ply,
            fen: pos.to_text(),
            side_to_move: color_name(pos.side_to_move()),
            in_check: !checks.is_empty(),
            checks: ChecksInfo {
                targets: checks.targets.iter().map(|&s| g.name(s)).collect(),
                checkers: checks.checkers.iter().map(|&s| g.name(s)).collect(),
            },
            board,
            hands: Hands {
                black: hand(pos, Color::Black),
                white: hand(pos, Color::White),
            },
        }
    }
}

/// The whole state.
#[derive(Debug, Clone, Serialize)]
pub struct State {
    /// The variant.
    pub variant: VariantInfo,
    /// The model.
    pub model: ModelInfo,
    /// Default engine budget.
    pub defaults: Defaults,
    /// The person's side.
    pub human: &'static str,
    /// Start position text.
    pub start: String,
    /// The position now: `fen`, `side_to_move`, `ply`, `in_check`, `checks`, `board`, `hands`.
    #[serde(flatten)]
    pub now: BoardView,
    /// Legal moves (none once the game is over).
    pub legal: Vec<MoveInfo>,
    /// Moves played.
    pub history: Vec<PlayedMove>,
    /// The result, once over.
    pub outcome: Option<OutcomeInfo>,
    /// Whether the engine is searching.
    pub thinking: bool,
    /// The engine's last search.
    pub analysis: Option<Analysis>,
    /// The person's clock (none without a time control).
    pub clock: Option<ClockView>,
}

/// The hand of `c` in `pos`.
fn hand(pos: &Position, c: Color) -> Vec<HandItem> {
    let v = pos.variant();
    (0..v.num_kinds())
        .map(|k| PieceKind(k as u8))
        .filter_map(|k| {
            let n = pos.in_hand(c, k);
            (n > 0).then(|| HandItem {
                id: v.piece(k).id.clone(),
                label: v.piece(k).label.clone(),
                count: n,
            })
        })
        .collect()
}

/// Squares where `mv` removes an opposing piece of `pos` (the position before it).
fn captured(pos: &Position, mv: &Move) -> Vec<String> {
    let g = &pos.variant().geometry;
    let them = pos.side_to_move().opposite();
    let mut out: Vec<String> = Vec::new();
    let targets = mv
        .kills()
        .iter()
        .copied()
        .chain((!mv.is_drop()).then(|| mv.to()));
    for sq in targets {
        let p = pos.piece_at(sq);
        let name = g.name(sq);
        if p.is_piece() && p.is_color(them) && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// The position after `ply` moves of `game` (the start for 0), with the move that led to it.
pub fn position_at(game: &Game, ply: usize) -> (BoardView, Option<PlayedMove>) {
    let mut pos = game.start().clone();
    let mut last = None;
    for (i, (&mv, &by)) in game.moves().iter().zip(game.movers()).take(ply).enumerate() {
        last = Some(played(&pos, i, mv, by));
        pos.make_move(mv);
    }
    (BoardView::of(&pos, ply.min(game.moves().len())), last)
}

/// The `i`-th move of a game (from 0), `mv` by `by`, played in `pos`.
fn played(pos: &Position, i: usize, mv: Move, by: Mover) -> PlayedMove {
    PlayedMove {
        ply: i + 1,
        color: color_name(pos.side_to_move()),
        info: MoveInfo::of(pos, &mv),
        captured: captured(pos, &mv),
        by: match by {
            Mover::Human => "human",
            Mover::Engine => "engine",
        },
    }
}

/// Builds the state of `game`.
pub fn build(
    game: &mut Game,
    model: &ModelInfo,
    defaults: Defaults,
    thinking: bool,
    analysis: Option<&Analysis>,
    clock: Option<ClockView>,
) -> State {
    let outcome = game.outcome();
    let pos = game.position().clone();
    let v = pos.variant().clone();
    let legal = if outcome.is_some() {
        Vec::new()
    } else {
        let moves = game.position_mut().legal_moves();
        moves.iter().map(|m| MoveInfo::of(&pos, m)).collect()
    };
    let mut replay = game.start().clone();
    let mut history = Vec::new();
    for (i, (&mv, &by)) in game.moves().iter().zip(game.movers()).enumerate() {
        history.push(played(&replay, i, mv, by));
        replay.make_move(mv);
    }
    State {
        variant: VariantInfo::of(&v),
        model: model.clone(),
        defaults,
        human: color_name(game.human()),
        start: game.start().to_text(),
        now: BoardView::of(&pos, game.moves().len()),
        legal,
        history,
        outcome: outcome.map(|o| OutcomeInfo {
            result: result_text(&o),
            winner: o.winner().map(color_name),
            reason: reason_text(&o),
            text: outcome_sentence(&o),
        }),
        thinking,
        analysis: analysis.cloned(),
        clock,
    }
}
