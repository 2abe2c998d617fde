//! Engines outside koma as arena players, over UCI, USI or XBoard.
//!
//! The arena is the referee: at each of the engine's turns it sends the game so far (the start
//! position and every move) and a search limit, and takes the engine's answer only if it is a
//! legal move under koma's rules. Over UCI it also names koma's legal moves (`searchmoves`),
//! so an engine whose own rules are looser (Fairy-Stockfish lacks some of Hand Shogi's drop
//! restrictions) still chooses among legal moves. An illegal move, no move in time, or a
//! resignation loses the game for the engine, and the match records why.
//!
//! Player strings: `uci:CMD`, `usi:CMD` or `xboard:CMD`, with settings after `;`:
//! `go=LIMITS` (what follows `go` in UCI/USI, e.g. `depth 3`, `nodes 1000`, `movetime 200`; for
//! XBoard, commands sent before `go`, e.g. `st 1` or `sd 3`, several joined by `,`),
//! `option:NAME=VALUE` (UCI/USI `setoption`, XBoard `option NAME=VALUE`), `variant=NAME` (`UCI_Variant`, or XBoard's
//! `variant`), `searchmoves=0` (do not restrict the root moves), `timeout=SECONDS` (per move,
//! default 120; also each handshake reply's longest wait where shorter than 30 s). `CMD` runs
//! through `sh -c` in a process group of its own ([`crate::engine_process`]), which is killed
//! whole when the engine is done with, on every path.

use crate::engine_process::{EngineLines, EngineProcess, LinesEnd};
use koma_engine::protocol::letters::{move_text, parse_move, xboard_move_text, Letters};
use koma_engine::protocol::usi::Sfen;
use koma_rules::{Move, Position, Variant};
use std::fmt;
use std::io::Write;
use std::process::ChildStdin;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The protocol an external engine speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// UCI (with `UCI_Variant`).
    Uci,
    /// USI.
    Usi,
    /// XBoard/CECP v2.
    Xboard,
}

impl Protocol {
    fn prefix(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Usi => "usi",
            Protocol::Xboard => "xboard",
        }
    }
}

/// An external player as the user names it.
#[derive(Debug, Clone, PartialEq)]
pub struct ExternalSpec {
    /// Protocol.
    pub protocol: Protocol,
    /// Command line, run through `sh -c`.
    pub command: String,
    /// Search limit of each move.
    pub go: String,
    /// Engine options.
    pub options: Vec<(String, String)>,
    /// Variant name for the engine, when it needs one.
    pub variant: Option<String>,
    /// Whether UCI's `searchmoves` names koma's legal moves.
    pub searchmoves: bool,
    /// Longest wait for a move.
    pub timeout: Duration,
}

impl ExternalSpec {
    /// Reads the part after `uci:`, `usi:` or `xboard:`; the error says what is wrong.
    pub fn parse(protocol: Protocol, rest: &str) -> Result<ExternalSpec, String> {
        let mut parts = rest.split(';');
        let command = parts.next().unwrap_or_default().trim().to_owned();
        if command.is_empty() {
            return Err("the engine's command is missing".into());
        }
        let mut spec = ExternalSpec {
            protocol,
            command,
            go: match protocol {
                Protocol::Xboard => "st 1".into(),
                _ => "movetime 1000".into(),
            },
            options: Vec::new(),
            variant: None,
            searchmoves: protocol == Protocol::Uci,
            timeout: Duration::from_secs(120),
        };
        for part in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("setting '{part}' is not KEY=VALUE"))?;
            let value = value.trim();
            match key.trim() {
                "go" => spec.go = value.to_owned(),
                "variant" => spec.variant = Some(value.to_owned()),
                "searchmoves" => {
                    spec.searchmoves = match value {
                        "1" | "true" | "yes" => true,
                        "0" | "false" | "no" => false,
                        other => return Err(format!("searchmoves '{other}' is not 0 or 1")),
                    }
                }
                "timeout" => {
                    let s: f64 = value
                        .parse()
                        .ok()
                        .filter(|s: &f64| *s > 0.0 && *s < 1e6)
                        .ok_or_else(|| format!("timeout '{value}' is not a number of seconds"))?;
                    spec.timeout = Duration::from_secs_f64(s);
                }
                k => match k.strip_prefix("option:") {
                    Some(name) if !name.trim().is_empty() => spec
                        .options
                        .push((name.trim().to_owned(), value.to_owned())),
                    _ => {
                        return Err(format!(
                            "unknown setting '{k}' (known: go, option:NAME, variant, \
                             searchmoves, timeout)"
                        ))
                    }
                },
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for ExternalSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{};go={}",
            self.protocol.prefix(),
            self.command,
            self.go
        )?;
        for (k, v) in &self.options {
            write!(f, ";option:{k}={v}")?;
        }
        if let Some(v) = &self.variant {
            write!(f, ";variant={v}")?;
        }
        if self.searchmoves != (self.protocol == Protocol::Uci) {
            write!(f, ";searchmoves={}", u8::from(self.searchmoves))?;
        }
        if self.timeout != Duration::from_secs(120) {
            write!(f, ";timeout={}", self.timeout.as_secs_f64())?;
        }
        Ok(())
    }
}

/// Why an engine lost a game without the rules deciding it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Forfeit(pub String);

/// The engine could not be started or did not answer its handshake.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("engine '{command}': {reason}")]
pub struct StartError {
    /// The command.
    pub command: String,
    /// What went wrong.
    pub reason: String,
}

/// A running external engine.
pub struct ExternalEngine {
    spec: ExternalSpec,
    process: EngineProcess,
    stdin: ChildStdin,
    lines: EngineLines,
    letters: Option<Letters>,
    sfen: Option<Sfen>,
    variant: Arc<Variant>,
}

impl fmt::Debug for ExternalEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ExternalEngine({})", self.spec)
    }
}

/// Handshakes wait this long.
const HANDSHAKE: Duration = Duration::from_secs(30);

impl ExternalEngine {
    /// Starts the engine and completes its handshake.
    pub fn start(
        spec: &ExternalSpec,
        variant: &Arc<Variant>,
    ) -> Result<ExternalEngine, StartError> {
        let fail = |reason: String| StartError {
            command: spec.command.clone(),
            reason,
        };
        let sfen = Sfen::of(variant);
        if spec.protocol == Protocol::Usi && sfen.is_none() {
            return Err(fail(format!(
                "USI has no SFEN letters for {}",
                variant.name
            )));
        }
        let (process, stdin, lines) = EngineProcess::spawn_lines(&spec.command)
            .map_err(|e| fail(format!("cannot start: {e}")))?;
        let mut e = ExternalEngine {
            spec: spec.clone(),
            process,
            stdin,
            lines,
            letters: Letters::of(variant),
            sfen,
            variant: variant.clone(),
        };
        e.handshake().map_err(fail)?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        tracing::trace!(engine = %self.spec.command, "> {line}");
        if let Err(e) = writeln!(self.stdin, "{line}").and_then(|_| self.stdin.flush()) {
            return Err(self.stopped(format!("the engine's input is closed ({e})")));
        }
        Ok(())
    }

    /// `what` went wrong because the engine stopped: the message with its exit status and
    /// last error output.
    fn stopped(&mut self, what: String) -> String {
        let report = self.process.death_report();
        if report.is_empty() {
            what
        } else {
            format!("{what} ({report})")
        }
    }

    /// Reads lines until one starts with `prefix`, for at most `wait`.
    fn expect(&mut self, prefix: &str, wait: Duration) -> Result<String, String> {
        self.lines_until(prefix, wait).map(|(_, line)| line)
    }

    /// Reads lines until one starts with `prefix` or `other`, for at most `wait`: that line.
    fn expect_either(
        &mut self,
        prefix: &str,
        other: &str,
        wait: Duration,
    ) -> Result<String, String> {
        self.lines_matching(prefix, wait, |l| {
            l.starts_with(prefix) || l.starts_with(other)
        })
        .map(|(_, line)| line)
    }

    /// Reads lines until one starts with `prefix`, for at most `wait`: the lines before it and
    /// that line.
    fn lines_until(
        &mut self,
        prefix: &str,
        wait: Duration,
    ) -> Result<(Vec<String>, String), String> {
        self.lines_matching(prefix, wait, |l| l.starts_with(prefix))
    }

    /// Reads lines until `found` accepts one, for at most `wait`; errors name `prefix`, what
    /// was awaited.
    fn lines_matching(
        &mut self,
        prefix: &str,
        wait: Duration,
        found: impl Fn(&str) -> bool,
    ) -> Result<(Vec<String>, String), String> {
        let got = self.lines.until(Instant::now() + wait, |l| found(l));
        match got {
            Ok(found) => Ok(found),
            Err(LinesEnd::Timeout) => {
                Err(format!("no '{prefix}' within {:.0} s", wait.as_secs_f64()))
            }
            Err(LinesEnd::Exited) => {
                Err(self.stopped(format!("the engine exited before '{prefix}'")))
            }
        }
    }

    /// The engine's XBoard move: a move of several legs may come as several `move` lines, each
    /// but the last ending in `,` (HaChu's Lion moves: `move f5f6,` then `move f6f7`). An
    /// engine that answers `Illegal move` to a move of the game relayed to it would go on from
    /// another position than the arena's, so that ends the game with the engine's words.
    fn xboard_move(&mut self, wait: Duration) -> Result<String, String> {
        let end = Instant::now() + wait;
        let mut text = String::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let line = self.expect_either("move ", "Illegal move", left)?;
            if line.starts_with("Illegal move") {
                return Err(format!(
                    "refused a move of the game relayed to it: '{line}'"
                ));
            }
            text.push_str(line.trim_start_matches("move ").trim());
            if !text.ends_with(',') {
                return Ok(text);
            }
        }
    }

    fn handshake(&mut self) -> Result<(), String> {
        let options = self.spec.options.clone();
        let wait = HANDSHAKE.min(self.spec.timeout);
        match self.spec.protocol {
            Protocol::Uci | Protocol::Usi => {
                let (hello, ok) = match self.spec.protocol {
                    Protocol::Uci => ("uci", "uciok"),
                    _ => ("usi", "usiok"),
                };
                self.send(hello)?;
                self.expect(ok, wait)?;
                for (k, v) in &options {
                    self.send(&format!("setoption name {k} value {v}"))?;
                }
                if let (Protocol::Uci, Some(v)) = (self.spec.protocol, self.spec.variant.clone()) {
                    self.send(&format!("setoption name UCI_Variant value {v}"))?;
                }
                self.send("isready")?;
                self.expect("readyok", wait)?;
            }
            Protocol::Xboard => {
                self.send("xboard")?;
                self.send("protover 2")?;
                // Engines that answer with features end them with done=1; old ones send none.
                let _ = self.expect("feature", Duration::from_secs(2));
                self.send("ping 1")?;
                let (features, _) = self.lines_until("pong 1", wait)?;
                // As XBoard does: the hash size to an engine that asks for it (HaChu lists no
                // moves without one), and the options before any game.
                if features.iter().any(|l| l.contains("memory=1")) {
                    self.send("memory 64")?;
                }
                for (k, v) in &options {
                    self.send(&format!("option {k}={v}"))?;
                }
            }
        }
        Ok(())
    }

    /// The engine's move in the game `start` + `moves`; a forfeit when it gives an illegal move,
    /// none in time, or resigns.
    pub fn best_move(&mut self, start: &Position, moves: &[Move]) -> Result<Move, Forfeit> {
        let mut pos = start.clone();
        let mut texts = Vec::with_capacity(moves.len());
        for m in moves {
            texts.push(self.text(&pos, m));
            pos.make_move(*m);
        }
        let legal = pos.legal_moves();
        let wait = self.spec.timeout;
        let answer = match self.spec.protocol {
            Protocol::Uci | Protocol::Usi => {
                let base = if self.standard_start(start) {
                    "position startpos".to_owned()
                } else {
                    // Not every engine reads koma's position text; koma-engine does.
                    format!("position fen {}", start.to_text())
                };
                let line = if texts.is_empty() {
                    base
                } else {
                    format!("{base} moves {}", texts.join(" "))
                };
                let mut go = format!("go {}", self.spec.go);
                if self.spec.protocol == Protocol::Uci && self.spec.searchmoves {
                    go.push_str(" searchmoves");
                    for m in &legal {
                        go.push(' ');
                        go.push_str(&self.text(&pos, m));
                    }
                }
                self.send(&line)
                    .and_then(|_| self.send(&go))
                    .and_then(|_| self.expect("bestmove", wait))
                    .map(|l| l.split_whitespace().nth(1).unwrap_or_default().to_owned())
            }
            Protocol::Xboard => {
                let mut lines = vec!["new".to_owned()];
                // The variant as the engine names it: the player's `variant=`, else the name
                // the variant file gives XBoard's game.
                if let Some(v) = self
                    .spec
                    .variant
                    .as_ref()
                    .or(self.variant.xboard_name.as_ref())
                {
                    lines.push(format!("variant {v}"));
                }
                lines.push("force".into());
                if !self.standard_start(start) {
                    lines.push(format!("setboard {}", start.to_text()));
                }
                for t in &texts {
                    lines.push(format!("usermove {t}"));
                }
                lines.extend(self.spec.go.split(',').map(|s| s.trim().to_owned()));
                lines.push("go".into());
                let sent: Result<(), String> = lines.iter().try_for_each(|l| self.send(l));
                sent.and_then(|_| self.xboard_move(wait))
            }
        };
        let text = answer.map_err(Forfeit)?;
        if self.spec.protocol == Protocol::Xboard {
            let _ = self.send("force");
        }
        match text.as_str() {
            "resign" | "(none)" | "0000" | "" => {
                return Err(Forfeit(format!("gave no move ('{text}')")))
            }
            _ => {}
        }
        let parsed = match self.spec.protocol {
            Protocol::Usi => self
                .sfen
                .expect("checked at start")
                .parse_move(&mut pos, &text),
            _ => parse_move(&mut pos, self.letters, &text),
        };
        parsed.map_err(|e| Forfeit(format!("played '{text}': {e}")))
    }

    fn text(&self, pos: &Position, m: &Move) -> String {
        match (self.spec.protocol, self.sfen) {
            (Protocol::Usi, Some(s)) => s.move_text(pos, m),
            (Protocol::Xboard, _) => xboard_move_text(pos, self.letters, m),
            _ => move_text(pos, self.letters, m),
        }
    }

    fn standard_start(&self, start: &Position) -> bool {
        start.to_text() == Position::start(&self.variant).to_text()
    }
}

impl Drop for ExternalEngine {
    /// Asks the engine to quit and gives it two seconds; then its process group is killed
    /// (when the process is dropped), whatever is left of it.
    fn drop(&mut self) {
        if writeln!(self.stdin, "quit")
            .and_then(|_| self.stdin.flush())
            .is_ok()
        {
            self.process.wait_exit(Duration::from_secs(2));
        }
    }
}
