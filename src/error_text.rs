//! An error and its causes as one line for the user. Library errors name their cause in their
//! own message (so that a log line of the error alone is whole) and also keep it as the source
//! of the chain; printing every link would say the cause twice or three times. A cause whose
//! text is already in the line is left out.

/// `e` and the causes not already said, joined by `: `.
pub fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let part = cause.to_string();
        if text.contains(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("{file}: {source}")]
    struct Io {
        file: String,
        source: std::io::Error,
    }

    #[test]
    fn a_cause_in_the_message_is_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let e = anyhow::Error::new(Io {
            file: "m.json".into(),
            source: io,
        })
        .context("model player m");
        assert_eq!(error_text(&e), "model player m: m.json: No such file");
        let plain = anyhow::anyhow!("bad").context("reading x");
        assert_eq!(error_text(&plain), "reading x: bad");
    }
}
