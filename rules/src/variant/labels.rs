//! The short labels boards draw on pieces.
//!
//! An unpromoted kind is drawn by its ID. A promoted form's ID (`+G`) only says what it came
//! from, while players know the piece by what it has become: Gyaku-sama's `+G` is a Rook, so
//! it is drawn `R` in the promoted colour, as the large-shogi diagrams do. A promoted form
//! takes, in order: the `label` its file gives; the ID of an unpromoted kind of the same name;
//! the initials of its name (lengthened with the last word's letters until no other kind uses
//! them); its ID.

use super::PieceType;

/// Longest label, in characters: longer ones do not fit a 26-pixel square.
pub const MAX_LABEL: usize = 4;

/// A label from a variant file, checked: 1 to [`MAX_LABEL`] letters, digits or `+`.
pub fn checked(label: &str) -> Result<String, String> {
    let n = label.chars().count();
    if n == 0 || n > MAX_LABEL {
        return Err(format!("a label has 1 to {MAX_LABEL} characters"));
    }
    if !label.chars().all(|c| c.is_alphanumeric() || c == '+') {
        return Err("a label has only letters, digits and '+'".into());
    }
    Ok(label.to_owned())
}

/// Fills in the label of every kind whose file gave none.
pub fn assign(pieces: &mut [PieceType]) {
    for p in pieces.iter_mut() {
        if p.label.is_empty() && !p.id.starts_with('+') {
            p.label = p.id.clone();
        }
    }
    for i in 0..pieces.len() {
        if !pieces[i].label.is_empty() {
            continue;
        }
        let name = pieces[i].name.to_lowercase();
        let same_name = pieces
            .iter()
            .find(|q| !q.id.starts_with('+') && q.name.to_lowercase() == name)
            .map(|q| q.label.clone());
        let taken = |label: &str| {
            pieces
                .iter()
                .enumerate()
                .any(|(j, q)| j != i && q.name.to_lowercase() != name && q.label == label)
        };
        let label = same_name
            .or_else(|| initials(&pieces[i].name).into_iter().find(|l| !taken(l)))
            .unwrap_or_else(|| pieces[i].id.clone());
        pieces[i].label = label;
    }
}

/// Candidate labels from a name: "flying stag" gives FS, FST, FSTA...; "tokin" gives TO, TOK...
fn initials(name: &str) -> Vec<String> {
    let words: Vec<Vec<char>> = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.chars().flat_map(char::to_uppercase).collect())
        .collect();
    let Some(last) = words.last() else {
        return Vec::new();
    };
    let head: String = words[..words.len() - 1].iter().map(|w| w[0]).collect();
    // A one-word name starts with two letters: one letter is nearly always some ID already.
    let first = if words.len() == 1 { 2 } else { 1 };
    (first..=last.len())
        .map(|n| format!("{head}{}", last[..n].iter().collect::<String>()))
        .filter(|l| l.chars().count() <= MAX_LABEL)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::initials;

    #[test]
    fn initials_lengthen_the_last_word() {
        assert_eq!(initials("flying stag")[..3], ["FS", "FST", "FSTA"]);
        assert_eq!(initials("tokin")[..2], ["TO", "TOK"]);
        assert_eq!(initials("Promoted Knight")[0], "PK");
        assert!(initials("").is_empty());
    }
}
