//! The terminal side: raw mode and the alternate screen, restored on every way out (quit,
//! Ctrl-C, an error, a panic, SIGTERM/SIGHUP/SIGINT), and the loop that turns terminal
//! events into actions and redraws at most once per batch of events.

use super::app::App;
use super::doc::Doc;
use super::draw::draw;
use super::load::lock;
use anyhow::{Context, Result};
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::terminal::{
    BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen, LeaveAlternateScreen,
    disable_raw_mode, enable_raw_mode,
};
use crossterm::{execute, queue};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the reader's news is drawn at most: a big input's indexing sends news thousands
/// of times a second, and each frame takes the document from the reader for a while. Ten
/// frames a second still read as live; at twenty the drawing was 1.7% of the viewer's samples
/// on a 1 GB log, taken from the two busy threads' cores (and the terminal drew as often).
const NEWS_FRAME: Duration = Duration::from_millis(100);

/// What wakes the UI thread.
pub enum Wake {
    Term(Event),
    /// The reader added something.
    Doc,
    Signal(i32),
}

/// Blocks the signals that end the viewer (SIGINT, SIGTERM, SIGHUP) in this thread and every
/// thread it starts from now on; call it before starting the reader thread. One thread waits
/// for them (see [`run`]): the terminal is then restored by the normal way out, not from a
/// signal handler.
pub fn block_signals() -> Result<()> {
    crate::signals::block(&crate::signals::TERMINATING).context("cannot block signals")
}

fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        std::io::stdout(),
        LeaveAlternateScreen,
        DisableMouseCapture,
        crossterm::cursor::Show
    );
}

/// The screen's frames go out whole: buffered, and marked as one synchronized update, so a
/// terminal (or a multiplexer, or a slow ssh link) never shows half of one frame over the last.
type Screen = Terminal<CrosstermBackend<std::io::BufWriter<std::io::Stdout>>>;

/// Returns the memory freed while the input was indexed to the system: the viewer then sits
/// idle, and the allocator would otherwise keep it until its next allocation. (Purging at
/// every free instead cost a tenth more CPU while indexing: freed pages were faulted in again.)
fn give_back_freed_memory() {
    // SAFETY: mi_collect has no preconditions; it only walks the allocator's own state. When
    // mimalloc is not the global allocator (the library's tests) it has nothing to collect.
    #[allow(unsafe_code)]
    unsafe {
        libmimalloc_sys::mi_collect(true);
    }
}

/// Restores the terminal when dropped: on return and on unwinding.
struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

/// Ctrl-Z: the terminal back to the shell, the process stopped (SIGTSTP, as a shell's job
/// control expects); on `fg` the screen is set up and drawn again.
fn suspend(terminal: &mut Screen, mouse: bool) -> Result<()> {
    restore();
    // The whole process stops here until SIGCONT.
    crate::signals::stop_self().context("cannot suspend")?;
    enable_raw_mode().context("cannot put the terminal in raw mode")?;
    execute!(std::io::stdout(), EnterAlternateScreen).context("cannot set up the terminal")?;
    if mouse {
        execute!(std::io::stdout(), EnableMouseCapture).context("cannot set up the terminal")?;
    }
    terminal.clear()?;
    Ok(())
}

/// Runs the viewer until the user quits; returns the exit status.
pub fn run(
    mut app: App,
    doc: Arc<Mutex<Doc>>,
    tx: Sender<Wake>,
    rx: Receiver<Wake>,
    stop: Arc<AtomicBool>,
) -> Result<i32> {
    watch_signals(tx.clone());
    restore_on_panic();
    enable_raw_mode().context("cannot put the terminal in raw mode")?;
    let guard = Guard;
    execute!(std::io::stdout(), EnterAlternateScreen).context("cannot set up the terminal")?;
    let mut terminal: Screen = Terminal::new(CrosstermBackend::new(
        std::io::BufWriter::with_capacity(1 << 16, std::io::stdout()),
    ))?;
    read_terminal_events(tx, stop.clone());
    let mut status = 0;
    let mut frames = Frames::new();
    loop {
        frames.draw_if_due(&mut terminal, &mut app, &doc)?;
        let wait = frames.wait(&mut app, &doc);
        let first = match rx.recv_timeout(wait) {
            Ok(w) => Some(w),
            // While the input is read, redraw now and then even without news: the
            // violations panel regroups at most twice a second.
            Err(RecvTimeoutError::Timeout) => {
                frames.dirty |= !lock(&doc).done;
                None
            }
            Err(RecvTimeoutError::Disconnected) => break,
        };
        if let Some(s) = frames.apply(first, &rx, &mut app, &doc) {
            status = s;
        }
        if app.quit {
            break;
        }
        if std::mem::take(&mut app.suspend) {
            suspend(&mut terminal, frames.mouse)?;
            frames.dirty = true;
        }
    }
    stop.store(true, Ordering::Relaxed);
    drop(terminal);
    drop(guard);
    let _ = std::panic::take_hook();
    if let Some(p) = &app.copied {
        println!("{p}");
    }
    if let Some(e) = lock(&doc).error.clone() {
        crate::eprintln_safe!("kibitzer: {e}");
        status = status.max(2);
    }
    Ok(status)
}

/// A terminating signal wakes the loop, which leaves with 128 + its number.
fn watch_signals(tx: Sender<Wake>) {
    std::thread::spawn(move || {
        if let Ok(sig) = crate::signals::wait(&crate::signals::TERMINATING) {
            let _ = tx.send(Wake::Signal(sig as i32));
        }
    });
}

/// A panic on this thread ends the viewer: the terminal is restored before the message.
/// The reader thread's panics are caught there and shown on the screen instead.
fn restore_on_panic() {
    let ui = std::thread::current().id();
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().id() == ui {
            restore();
            prev(info);
        }
        // Elsewhere the message would be drawn over the screen; the reader reports it.
    }));
}

/// Keys, the mouse and resizes, read on a thread of their own until `stop`.
fn read_terminal_events(tx: Sender<Wake>, stop: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        while !stop.load(Ordering::Relaxed) {
            match event::poll(Duration::from_millis(200)) {
                Ok(true) => match event::read() {
                    Ok(ev) => {
                        if tx.send(Wake::Term(ev)).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                },
                Ok(false) => {}
                Err(_) => break,
            }
        }
    });
}

/// When the screen is drawn: what changed since the last frame, and when that was.
struct Frames {
    /// The document's generation last drawn.
    generation: u64,
    /// The memory freed by indexing was given back to the system.
    gave_back: bool,
    dirty: bool,
    /// News from the reader that is not drawn yet, and when the screen was last drawn.
    news: bool,
    drawn: Instant,
    /// Mouse capture as the terminal has it.
    mouse: bool,
}

impl Frames {
    fn new() -> Frames {
        Frames {
            generation: u64::MAX,
            gave_back: false,
            dirty: true,
            news: false,
            drawn: Instant::now(),
            mouse: false,
        }
    }

    /// Draws a frame when something changed; the reader's news waits for the next frame,
    /// except the first lines: the first screen is what a user waits for.
    fn draw_if_due(
        &mut self,
        terminal: &mut Screen,
        app: &mut App,
        doc: &Mutex<Doc>,
    ) -> Result<()> {
        if self.news && (self.generation == 0 || self.drawn.elapsed() >= NEWS_FRAME) {
            self.dirty = true;
        }
        if !self.dirty {
            return Ok(());
        }
        let d = lock(doc);
        let size = terminal.size()?;
        app.set_size(size.width, size.height);
        app.sync(&d);
        let mut areas = app.areas;
        queue!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
        terminal.draw(|f| areas = draw(f, app, &d))?;
        execute!(terminal.backend_mut(), EndSynchronizedUpdate)?;
        app.areas = areas;
        self.generation = d.generation;
        self.news = false;
        self.drawn = Instant::now();
        let indexed = d.done;
        drop(d);
        if indexed && !self.gave_back {
            give_back_freed_memory();
            self.gave_back = true;
        }
        if app.mouse_capture != self.mouse {
            self.mouse = app.mouse_capture;
            let _ = if self.mouse {
                execute!(std::io::stdout(), EnableMouseCapture)
            } else {
                execute!(std::io::stdout(), DisableMouseCapture)
            };
        }
        if let Some(seq) = app.osc52.take() {
            let mut out = std::io::stdout();
            let _ = out.write_all(seq.as_bytes());
            let _ = out.flush();
        }
        self.dirty = false;
        Ok(())
    }

    /// How long to wait for the next event: not at all while a search is under way (it goes
    /// on between events, a slice at a time), until the next frame when news waits.
    fn wait(&mut self, app: &mut App, doc: &Mutex<Doc>) -> Duration {
        let busy = if app.is_busy() {
            self.dirty = true;
            app.work(&lock(doc))
        } else {
            false
        };
        if busy {
            Duration::ZERO
        } else if self.news {
            NEWS_FRAME.saturating_sub(self.drawn.elapsed())
        } else {
            Duration::from_millis(250)
        }
    }

    /// Applies `first` and everything already waiting before the next frame (a flood of
    /// lines or keys costs one redraw); a terminating signal gives the exit status.
    fn apply(
        &mut self,
        first: Option<Wake>,
        rx: &Receiver<Wake>,
        app: &mut App,
        doc: &Mutex<Doc>,
    ) -> Option<i32> {
        let mut status = None;
        let mut wakes: Vec<Wake> = first.into_iter().collect();
        wakes.extend(rx.try_iter());
        let d = lock(doc);
        for w in wakes {
            match w {
                Wake::Term(Event::Key(k)) if k.kind != event::KeyEventKind::Release => {
                    app.key(&d, k);
                    self.dirty = true;
                }
                Wake::Term(Event::Mouse(m)) => {
                    app.mouse(&d, m);
                    self.dirty = true;
                }
                Wake::Term(Event::Resize(..)) => self.dirty = true,
                Wake::Term(_) => {}
                Wake::Doc => {}
                Wake::Signal(s) => {
                    status = Some(128 + s);
                    app.quit = true;
                }
            }
        }
        // A key is drawn at once, and so is the end of indexing (the status bar says so
        // without waiting for a frame).
        self.news |= d.generation != self.generation;
        self.dirty |= d.done && !self.gave_back;
        status
    }
}
