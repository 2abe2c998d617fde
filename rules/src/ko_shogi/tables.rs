//! The module's tables, built once from the variant's piece list when the variant loads: the
//! role of each kind, the kinds the rules name, and the kind sets of the promotion and capture
//! rules. The variant holds them; everything that acts on a position reads them.

use crate::geometry::Geometry;
use crate::piece::PieceKind;
use crate::variant::{CheckRule, KindSet, PieceType, PromotionRule, Rules};

/// How a kind generates its moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Role {
    /// Its XBetza table alone.
    Table,
    /// The pawn: its table, without the forward step while its owner has no DR or TC.
    Pawn,
    /// TP, SM (one priest move) and FG, IL (one or two).
    Priest {
        /// Whether a second priest move may follow.
        double: bool,
    },
    /// A shooter: its table, plus shots after each non-capturing move of it.
    Shooter(Shooter),
    /// One move of its table's leaps, optionally followed by a second from where it landed,
    /// back to the origin included (MA, BD, WG; CA and PCA with `cavalry`).
    Double {
        /// The second jump keeps the first one's long direction or reverses it (§3.4.3).
        cavalry: bool,
    },
    /// The thunderclap: 1 to 5 steps of its table, turning allowed, no square twice.
    Thunderclap,
}

/// What a shooter shoots (§5.2, §5.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Shooter {
    /// Farthest target, in steps along a line.
    pub(crate) range: u8,
    /// Shoots over pieces (any enemy in range on the line) rather than the nearest piece only.
    pub(crate) over: bool,
    /// Most shots after one move (1 or 2).
    pub(crate) shots: u8,
    /// Kinds it may not shoot.
    pub(crate) immune: KindSet,
}

/// The kinds the rules name, resolved from their IDs once.
#[derive(Debug, Clone)]
pub(crate) struct Kinds {
    pub(crate) g: PieceKind,
    pub(crate) gv: PieceKind,
    pub(crate) mt: PieceKind,
    pub(crate) bn: PieceKind,
    pub(crate) fw: PieceKind,
    pub(crate) dr: PieceKind,
    pub(crate) tc: PieceKind,
    pub(crate) tp: PieceKind,
    pub(crate) fg: PieceKind,
    pub(crate) il: PieceKind,
    pub(crate) pf: PieceKind,
    pub(crate) sk: PieceKind,
    pub(crate) ew: PieceKind,
    pub(crate) ag: PieceKind,
    pub(crate) rg: PieceKind,
    pub(crate) cl: PieceKind,
    pub(crate) cm: PieceKind,
    pub(crate) fc: PieceKind,
}

/// Ko Shogi's rule module, built from the variant's piece list.
#[derive(Debug, Clone)]
pub struct KoShogi {
    pub(crate) roles: Vec<Role>,
    /// The kinds whose role is [`Role::Table`]: most of a side's pieces, whose generation
    /// skips the dispatch on the role.
    pub(crate) table_kinds: KindSet,
    pub(crate) k: Kinds,
    /// TP, SM, FG, IL: they capture by displacement only one another (§4.3).
    pub(crate) priest_family: KindSet,
    /// DR and BN promote only while their side's priest lives (§8.5, §8.6).
    pub(crate) needs_priest: KindSet,
    /// Killing one of these forces the killer's promotion (§8.3 rule 1).
    pub(crate) command_victims: KindSet,
    /// Step movers (§8.3 rule 2) ...
    pub(crate) step_movers: KindSet,
    /// ... promote when they kill one of these.
    pub(crate) strong_victims: KindSet,
    /// Mailbox offsets of the eight neighbours.
    pub(crate) neighbours: [i32; 8],
    /// Mailbox offset of one step forward, per colour.
    pub(crate) forward: [i32; 2],
}

/// The immunity lists of §5.3.
const BOW_IMMUNE: [&str; 9] = ["SH", "SU", "PSU", "CH", "CU", "PCU", "GC", "CG", "HF"];
const GUN_IMMUNE: [&str; 3] = ["SU", "PSU", "HF"];

/// The shooters of §3.4.6 and §5.2: ID, range, over pieces, shots, immunity list.
const SHOOTERS: [(&str, u8, bool, u8, &[&str]); 8] = [
    ("LB", 3, false, 1, &BOW_IMMUNE),
    ("LC", 3, false, 1, &BOW_IMMUNE),
    ("XB", 5, false, 1, &BOW_IMMUNE),
    ("XC", 5, false, 1, &BOW_IMMUNE),
    ("CN", 5, true, 1, &GUN_IMMUNE),
    ("GC", 5, true, 1, &GUN_IMMUNE),
    ("FC", 7, false, 2, &GUN_IMMUNE),
    ("CG", 7, false, 2, &GUN_IMMUNE),
];

/// The step movers of §8.3 rule 2 (the Japanese list, §11.15).
const STEP_MOVERS: [&str; 15] = [
    "AC", "AI", "ST", "CS", "EN", "MT", "DR", "BN", "SN", "FC", "LB", "XB", "CN", "P", "SH",
];

impl KoShogi {
    /// The shots of `kind`, if it is a shooter (for piece references).
    pub(crate) fn shot(&self, kind: PieceKind) -> Option<crate::shot::Shot> {
        match self.roles.get(kind.index()) {
            Some(Role::Shooter(s)) => Some(crate::shot::Shot {
                range: s.range,
                over: s.over,
                shots: s.shots,
            }),
            _ => None,
        }
    }

    /// Resolves the kinds the rules name and checks that the variant fits the module.
    pub(crate) fn new(
        pieces: &[PieceType],
        geometry: &Geometry,
        rules: &Rules,
    ) -> Result<KoShogi, String> {
        if rules.check != CheckRule::RoyalCapture
            || rules.drops
            || rules.switchback
            || !matches!(rules.promotion, PromotionRule::Zone { .. })
        {
            return Err("module \"ko-shogi\" needs check = \"royal-capture\", promotion = \"zone\", no drops and no switchbacks".into());
        }
        if pieces.iter().any(|p| p.royal) {
            return Err(
                "module \"ko-shogi\" decides the end of the game itself: no piece may be royal"
                    .into(),
            );
        }
        let find = |id: &str| -> Result<PieceKind, String> {
            pieces
                .iter()
                .position(|p| p.id == id)
                .map(|i| PieceKind(i as u8))
                .ok_or_else(|| format!("module \"ko-shogi\" needs a piece with id '{id}'"))
        };
        let set = |ids: &[&str]| -> Result<KindSet, String> {
            let mut s = KindSet::default();
            for id in ids {
                s.insert(find(id)?);
            }
            Ok(s)
        };
        let k = Kinds {
            g: find("G")?,
            gv: find("GV")?,
            mt: find("MT")?,
            bn: find("BN")?,
            fw: find("FW")?,
            dr: find("DR")?,
            tc: find("TC")?,
            tp: find("TP")?,
            fg: find("FG")?,
            il: find("IL")?,
            pf: find("PF")?,
            sk: find("SK")?,
            ew: find("EW")?,
            ag: find("AG")?,
            rg: find("RG")?,
            cl: find("CL")?,
            cm: find("CM")?,
            fc: find("FC")?,
        };
        let mut roles = vec![Role::Table; pieces.len()];
        roles[find("P")?.index()] = Role::Pawn;
        for (id, double) in [("TP", false), ("SM", false), ("FG", true), ("IL", true)] {
            roles[find(id)?.index()] = Role::Priest { double };
        }
        for (id, range, over, shots, immune) in SHOOTERS {
            roles[find(id)?.index()] = Role::Shooter(Shooter {
                range,
                over,
                shots,
                immune: set(immune)?,
            });
        }
        for (id, cavalry) in [
            ("MA", false),
            ("BD", false),
            ("WG", false),
            ("CA", true),
            ("PCA", true),
        ] {
            roles[find(id)?.index()] = Role::Double { cavalry };
        }
        roles[find("TC")?.index()] = Role::Thunderclap;
        // The module walks these kinds' leaps itself, so their tables must be leaps only.
        for (kind, role) in roles.iter().enumerate() {
            let leaps_only = matches!(
                role,
                Role::Priest { .. } | Role::Double { .. } | Role::Thunderclap
            );
            let t = &pieces[kind].moves[0];
            if leaps_only && !(t.slides.is_empty() && t.is_simple() && !t.leaps.is_empty()) {
                return Err(format!(
                    "piece '{}': module \"ko-shogi\" needs its XBetza to be single leaps",
                    pieces[kind].id
                ));
            }
        }
        let d = |df: i32, dr: i32| geometry.delta(df, dr);
        let mut table_kinds = KindSet::default();
        for (kind, role) in roles.iter().enumerate() {
            if matches!(role, Role::Table) {
                table_kinds.insert(PieceKind(kind as u8));
            }
        }
        Ok(KoShogi {
            roles,
            table_kinds,
            priest_family: set(&["TP", "SM", "FG", "IL"])?,
            needs_priest: set(&["DR", "BN"])?,
            command_victims: set(&["G", "GV", "MT", "BN", "DR"])?,
            step_movers: set(&STEP_MOVERS)?,
            strong_victims: set(&["SW", "DA", "FW", "TC"])?,
            neighbours: geometry.king_steps(),
            forward: [d(0, 1), d(0, -1)],
            k,
        })
    }
}
