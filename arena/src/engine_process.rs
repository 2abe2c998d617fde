//! An outside engine's operating-system process. The command runs through `sh -c` in a process
//! group of its own, so that stopping the engine stops everything the command started (a
//! wrapper script and the engine it runs, a pipeline): killing `sh` alone would leave them
//! running, re-parented to init. Its error output is kept (the last lines), so that a command
//! that cannot start is reported with what the shell or the engine printed, such as
//! `no-such-engine: not found`.
//!
//! Every live group is registered, and [`stop_all_engines`] kills them all: the binaries call
//! it from their Ctrl-C and termination handler, since an engine in its own group does not
//! receive the terminal's Ctrl-C.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Lines of error output kept for the report of an engine that stopped.
const STDERR_LINES: usize = 6;

/// Process groups of the engines running now.
static GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

/// Kills every outside engine still running (each whole process group). For signal handlers
/// of the binaries, just before they exit.
pub fn stop_all_engines() {
    let groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    for &g in groups.iter() {
        kill_group(g);
    }
}

fn kill_group(group: i32) {
    // SAFETY: kill(2) with a negative pid signals a process group; no memory is involved.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

/// A running engine command.
pub struct EngineProcess {
    child: Child,
    group: i32,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

impl EngineProcess {
    /// Starts `command` through `sh -c` in a new process group, with piped standard input and
    /// output.
    pub fn spawn(command: &str) -> std::io::Result<(EngineProcess, ChildStdin, ChildStdout)> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()?;
        let group = child.id() as i32;
        GROUPS.lock().unwrap_or_else(|e| e.into_inner()).push(group);
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr_pipe).lines().map_while(Result::ok) {
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                if t.len() == STDERR_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        Ok((
            EngineProcess {
                child,
                group,
                stderr,
            },
            stdin,
            stdout,
        ))
    }

    /// [`EngineProcess::spawn`], with the standard output read line by line on a thread of its
    /// own into a channel, so that callers can wait for a line with a timeout.
    pub fn spawn_lines(command: &str) -> std::io::Result<(EngineProcess, ChildStdin, EngineLines)> {
        let (process, stdin, stdout) = EngineProcess::spawn(command)?;
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok((
            process,
            stdin,
            EngineLines {
                rx: lines,
                command: command.to_owned(),
            },
        ))
    }

    /// Waits up to `wait` for the command to end; its exit status if it did.
    pub fn wait_exit(&mut self, wait: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + wait;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= end {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Why the engine stopped talking, for an error message: its exit status (127 read as a
    /// command that was not found, 126 as one that cannot be run) and its last lines of error
    /// output. Empty while it still runs and has printed nothing.
    pub fn death_report(&mut self) -> String {
        let mut parts = Vec::new();
        if let Some(status) = self.wait_exit(Duration::from_millis(500)) {
            parts.push(match status.code() {
                Some(127) => "exit status 127: the command was not found".to_owned(),
                Some(126) => "exit status 126: the command cannot be run".to_owned(),
                Some(c) => format!("exit status {c}"),
                None => "killed by a signal".to_owned(),
            });
        }
        // The reader thread may still be taking the last lines.
        std::thread::sleep(Duration::from_millis(20));
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if !tail.is_empty() {
            let lines: Vec<&str> = tail.iter().map(String::as_str).collect();
            parts.push(format!("it printed: {}", lines.join(" / ")));
        }
        parts.join("; ")
    }
}

impl Drop for EngineProcess {
    /// Kills the whole group (whatever the command started that is still running) and reaps
    /// the shell.
    fn drop(&mut self) {
        kill_group(self.group);
        let _ = self.child.wait();
        GROUPS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|&g| g != self.group);
    }
}

/// An engine's standard output, line by line (from [`EngineProcess::spawn_lines`]), read
/// against deadlines; each line read is traced with the engine's command.
pub struct EngineLines {
    rx: std::sync::mpsc::Receiver<String>,
    command: String,
}

/// Why an awaited line did not come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinesEnd {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited).
    Exited,
}

impl EngineLines {
    /// Reads lines until one for which `stop` holds, before `end`: the lines before it, and
    /// that line.
    pub fn until(
        &self,
        end: Instant,
        mut stop: impl FnMut(&str) -> bool,
    ) -> Result<(Vec<String>, String), LinesEnd> {
        let mut seen = Vec::new();
        loop {
            match self
                .rx
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                Ok(l) => {
                    tracing::trace!(engine = %self.command, "< {l}");
                    if stop(&l) {
                        return Ok((seen, l));
                    }
                    seen.push(l);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return Err(LinesEnd::Timeout),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(LinesEnd::Exited)
                }
            }
        }
    }
}
