//! Errors of loading a variant definition.

/// A variant file could not be loaded. The message names the file, the line and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum VariantError {
    /// The file's content is malformed or inconsistent.
    #[error("{file}:{line}:{column}: {message}")]
    Invalid {
        /// File name (or `<builtin>/id.toml`).
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The file could not be read.
    #[error("{file}: {source}")]
    Io {
        /// File name.
        file: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// No built-in variant has this name and no such file exists.
    #[error("unknown variant '{name}' (built-in variants: {known})")]
    Unknown {
        /// What was asked for.
        name: String,
        /// The built-in ids, comma-separated.
        known: String,
    },
}

impl VariantError {
    /// An error located at byte offset `at` of `text`.
    pub(crate) fn at(file: &str, text: &str, at: usize, message: impl Into<String>) -> Self {
        let at = at.min(text.len());
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let column = before.rfind('\n').map_or(at, |nl| at - nl - 1) + 1;
        VariantError::Invalid {
            file: file.to_owned(),
            line,
            column,
            message: message.into(),
        }
    }
}
