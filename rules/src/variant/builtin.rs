//! The variant definitions shipped with koma, embedded so that the binaries work anywhere.

const BUILTIN: &[(&str, &str)] = &[
    (
        "hand-shogi",
        include_str!("../../../configs/variants/hand-shogi.toml"),
    ),
    (
        "shoko-shogi",
        include_str!("../../../configs/variants/shoko-shogi.toml"),
    ),
    (
        "gyaku-sama-shogi",
        include_str!("../../../configs/variants/gyaku-sama-shogi.toml"),
    ),
    (
        "hook-shogi",
        include_str!("../../../configs/variants/hook-shogi.toml"),
    ),
    (
        "ko-shogi",
        include_str!("../../../configs/variants/ko-shogi.toml"),
    ),
    (
        "chu-shogi",
        include_str!("../../../configs/variants/chu-shogi.toml"),
    ),
    (
        "dai-shogi",
        include_str!("../../../configs/variants/dai-shogi.toml"),
    ),
    (
        "tenjiku-shogi",
        include_str!("../../../configs/variants/tenjiku-shogi.toml"),
    ),
];

/// The ids of the built-in variants.
pub fn builtin_ids() -> Vec<&'static str> {
    BUILTIN.iter().map(|(id, _)| *id).collect()
}

/// The TOML text of a built-in variant.
pub fn builtin_text(id: &str) -> Option<&'static str> {
    BUILTIN.iter().find(|(i, _)| *i == id).map(|(_, t)| *t)
}
