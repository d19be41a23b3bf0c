//! Progress on standard error: bytes and lines processed, throughput and, for
//! files, the ETA. Drawn by indicatif on a terminal; written as plain lines,
//! once a second, when forced on something that is not a terminal.

use std::io::{self, IsTerminal, Write};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};

/// The progress shown; the one progress type of the binary. It adds up
/// what [`uriscan::batch::run`] reports file by file.
pub struct Progress {
    bar: Option<ProgressBar>,
    /// Bytes and lines of the files done.
    done: (u64, u64),
    /// Bytes and lines of the current file so far.
    file: (u64, u64),
}

impl Progress {
    /// `force`: `Some(true)` for `--progress`, `Some(false)` for
    /// `--no-progress`, `None` to show it only on a terminal. `total`: the
    /// input size when known.
    pub fn new(force: Option<bool>, total: Option<u64>) -> Progress {
        let tty = io::stderr().is_terminal();
        if !force.unwrap_or(tty) {
            return Progress {
                bar: None,
                done: (0, 0),
                file: (0, 0),
            };
        }
        let target = if tty {
            ProgressDrawTarget::stderr_with_hz(10)
        } else {
            ProgressDrawTarget::term_like_with_hz(Box::new(LogLines), 1)
        };
        let bar = ProgressBar::with_draw_target(total, target);
        let template = if total.is_some() {
            "{bytes}/{total_bytes} {binary_bytes_per_sec} {msg} ETA {eta}"
        } else {
            "{bytes} {binary_bytes_per_sec} {msg}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        Progress {
            bar: Some(bar),
            done: (0, 0),
            file: (0, 0),
        }
    }

    /// What the current file's run has done so far.
    pub fn update(&mut self, p: &uriscan::batch::Progress) {
        self.file = (p.bytes, p.lines);
        if let Some(bar) = &self.bar {
            bar.set_position(self.done.0 + p.bytes);
            let lines = self.done.1 + p.lines;
            bar.set_message(crate::output::count(lines, "line", "lines"));
        }
    }

    /// The current file is done; the next starts from zero.
    pub fn next_file(&mut self) {
        self.done = (self.done.0 + self.file.0, self.done.1 + self.file.1);
        self.file = (0, 0);
    }

    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// A "terminal" that writes each drawn line as a line of its own.
#[derive(Debug)]
struct LogLines;

impl TermLike for LogLines {
    fn width(&self) -> u16 {
        100
    }
    fn move_cursor_up(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> io::Result<()> {
        if s.trim().is_empty() {
            return Ok(());
        }
        writeln!(io::stderr(), "progress: {s}")
    }
    fn write_str(&self, s: &str) -> io::Result<()> {
        self.write_line(s)
    }
    fn clear_line(&self) -> io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> io::Result<()> {
        io::stderr().flush()
    }
}
