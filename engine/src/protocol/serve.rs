//! The start of a session: the protocol is recognised from the first command and the session
//! handed to its module.

use crate::protocol::out::Out;
use crate::protocol::session::Engine;
use crate::protocol::{uci, usi, xboard};
use std::io::BufRead;

/// Reads commands from `input` until `quit` or its end, answering on `out`.
pub fn serve(engine: &mut Engine, input: impl BufRead, out: &Out) {
    // Lines that are not UTF-8 are read lossily (a bad byte becomes U+FFFD), so a GUI's stray
    // byte gets the protocol's error reply instead of ending the session.
    let mut lines = input
        .split(b'\n')
        .map_while(Result::ok)
        .map(|bytes| {
            let line = String::from_utf8_lossy(&bytes);
            line.strip_suffix('\r').unwrap_or(&line).to_owned()
        })
        .inspect(|l| {
            tracing::debug!("< {l}");
        });
    loop {
        let Some(first) = lines.next() else { return };
        let word = first
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_owned();
        let mut rest = std::iter::once(first).chain(&mut lines);
        match word.as_str() {
            "" => continue,
            "xboard" => return xboard::run(engine, &mut rest, out),
            "usi" => return usi::run(engine, &mut rest, out),
            "uci" => return uci::run(engine, &mut rest, out),
            "quit" => return,
            other => out.line(format!(
                "Error (unknown protocol; start with xboard, usi or uci): {other}"
            )),
        }
    }
}
