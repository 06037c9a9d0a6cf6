//! A Chromium page driven over the DevTools protocol, through the pipe Chromium opens with
//! `--remote-debugging-pipe` (it reads commands from fd 3 and writes answers and events to fd 4,
//! each message one JSON object ended by a NUL byte). Only what the browser test needs: one page,
//! its events, `Runtime.evaluate`, mouse clicks and screenshots.
//!
//! Protocol: <https://chromedevtools.github.io/devtools-protocol/> (Target, Page, Runtime, Log,
//! Input domains). Messages for the page carry the `sessionId` of a flat attachment
//! (`Target.attachToTarget` with `flatten: true`).

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{FromRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

/// What is done with each event (a message without an `id`): `method` and `params`.
pub type Listener = Box<dyn Fn(&str, &Value) + Send>;

/// A region of the page in CSS pixels from the document's top left (`Page.Viewport`).
#[derive(Clone, Debug)]
pub struct Viewport {
    /// Left (px).
    pub x: f64,
    /// Top (px).
    pub y: f64,
    /// Width (px).
    pub width: f64,
    /// Height (px).
    pub height: f64,
    /// Device pixels per CSS pixel in the picture.
    pub scale: f64,
}

/// One headless Chromium with one page, killed when dropped.
pub struct Tab {
    child: Child,
    to_chrome: File,
    answers: Receiver<Value>,
    listeners: Arc<Mutex<Vec<Listener>>>,
    session: String,
    next_id: AtomicU64,
    timeout: Mutex<Duration>,
    profile: PathBuf,
}

/// Two pipes' ends, moved above the descriptors a child is given (so that `dup2` to 3 and 4
/// never meets one of them), close-on-exec.
fn pipe_high() -> std::io::Result<(RawFd, RawFd)> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let mut high = [0; 2];
    for (h, &fd) in high.iter_mut().zip(&fds) {
        // SAFETY: `fd` is a descriptor this process just opened.
        *h = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10) };
        // SAFETY: as above; the copy is kept.
        unsafe { libc::close(fd) };
        if *h < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok((high[0], high[1]))
}

impl Tab {
    /// Starts `chrome` headless at `window` (CSS px) with `args` besides, and opens a blank page.
    ///
    /// # Errors
    /// The browser does not start or does not answer within `timeout`.
    pub fn launch(
        chrome: &Path,
        window: (u32, u32),
        args: &[&str],
        timeout: Duration,
    ) -> Result<Tab, String> {
        let (cmd_r, cmd_w) = pipe_high().map_err(|e| e.to_string())?;
        let (out_r, out_w) = pipe_high().map_err(|e| e.to_string())?;
        let profile = std::env::temp_dir().join(format!(
            "pool-browser-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        let mut command = Command::new(chrome);
        command
            .args([
                "--headless",
                "--remote-debugging-pipe",
                // Root (CI, containers) cannot start Chromium's sandbox; the page is our own file.
                "--no-sandbox",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-sync",
                "--mute-audio",
            ])
            .arg(format!("--window-size={},{}", window.0, window.1))
            .arg(format!("--user-data-dir={}", profile.display()))
            .args(args)
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // SAFETY: between fork and exec only dup2 runs, which is async-signal-safe; dup2 leaves
        // the new descriptors open across exec (their close-on-exec flag cleared).
        unsafe {
            command.pre_exec(move || {
                if libc::dup2(cmd_r, 3) < 0 || libc::dup2(out_w, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let spawned = command.spawn();
        // SAFETY: the child has its copies; these ends are this process's to close or own.
        unsafe {
            libc::close(cmd_r);
            libc::close(out_w);
        }
        let child = match spawned {
            Ok(c) => c,
            Err(e) => {
                // SAFETY: the other ends, not owned by anything else.
                unsafe {
                    libc::close(cmd_w);
                    libc::close(out_r);
                }
                return Err(format!("could not start {}: {e}", chrome.display()));
            }
        };
        // SAFETY: each descriptor is open and owned by nothing else from here on.
        let (to_chrome, from_chrome) =
            unsafe { (File::from_raw_fd(cmd_w), File::from_raw_fd(out_r)) };

        let listeners: Arc<Mutex<Vec<Listener>>> = Arc::new(Mutex::new(Vec::new()));
        let (tx, answers) = channel();
        {
            let listeners = Arc::clone(&listeners);
            std::thread::spawn(move || {
                let mut r = BufReader::new(from_chrome);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match r.read_until(0, &mut buf) {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                    if buf.last() == Some(&0) {
                        buf.pop();
                    }
                    let Ok(msg) = serde_json::from_slice::<Value>(&buf) else {
                        continue;
                    };
                    if msg.get("id").is_some() {
                        if tx.send(msg).is_err() {
                            return;
                        }
                    } else if let Some(m) = msg.get("method").and_then(Value::as_str) {
                        let params = msg.get("params").cloned().unwrap_or(Value::Null);
                        for l in listeners.lock().unwrap().iter() {
                            l(m, &params);
                        }
                    }
                }
            });
        }
        let mut tab = Tab {
            child,
            to_chrome,
            answers,
            listeners,
            session: String::new(),
            next_id: AtomicU64::new(0),
            timeout: Mutex::new(timeout),
            profile,
        };
        let target = tab.call("Target.createTarget", json!({"url": "about:blank"}))?;
        let target_id = target["targetId"]
            .as_str()
            .ok_or("Target.createTarget: no targetId")?
            .to_string();
        let attached = tab.call(
            "Target.attachToTarget",
            json!({"targetId": target_id, "flatten": true}),
        )?;
        tab.session = attached["sessionId"]
            .as_str()
            .ok_or("Target.attachToTarget: no sessionId")?
            .to_string();
        tab.call("Page.enable", json!({}))?;
        Ok(tab)
    }

    /// How long each later command may take to be answered.
    pub fn set_default_timeout(&self, t: Duration) {
        *self.timeout.lock().unwrap() = t;
    }

    /// Calls `l` with every event from here on (on the reading thread).
    pub fn add_event_listener(&self, l: Listener) {
        self.listeners.lock().unwrap().push(l);
    }

    /// Sends one command (to the page once attached) and waits for its `result`.
    ///
    /// # Errors
    /// The protocol's `error`, no answer within the timeout, or the browser gone.
    pub fn call(&self, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let timeout = *self.timeout.lock().unwrap();
        let mut msg = json!({"id": id, "method": method, "params": params});
        if !self.session.is_empty() {
            msg["sessionId"] = Value::String(self.session.clone());
        }
        let mut bytes = serde_json::to_vec(&msg).map_err(|e| e.to_string())?;
        bytes.push(0);
        (&self.to_chrome)
            .write_all(&bytes)
            .map_err(|e| format!("{method}: the browser's pipe: {e}"))?;
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            match self.answers.recv_timeout(left) {
                Ok(a) if a["id"].as_u64() == Some(id) => {
                    return match a.get("error") {
                        Some(e) => Err(format!("{method}: {e}")),
                        None => Ok(a.get("result").cloned().unwrap_or(Value::Null)),
                    };
                }
                // An answer to a command that timed out earlier.
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{method}: no answer within {timeout:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{method}: the browser has gone"))
                }
            }
        }
    }

    /// `Runtime.enable`: console calls and uncaught exceptions become events.
    pub fn enable_runtime(&self) -> Result<(), String> {
        self.call("Runtime.enable", json!({})).map(drop)
    }

    /// `Log.enable`: the browser's log entries (failed loads, CSP, ...) become events.
    pub fn enable_log(&self) -> Result<(), String> {
        self.call("Log.enable", json!({})).map(drop)
    }

    /// `Page.navigate` (returns when the navigation is under way, not when it has loaded).
    pub fn navigate_to(&self, url: &str) -> Result<(), String> {
        let r = self.call("Page.navigate", json!({"url": url}))?;
        match r.get("errorText").and_then(Value::as_str) {
            Some(e) if !e.is_empty() => Err(format!("navigating to {url}: {e}")),
            _ => Ok(()),
        }
    }

    /// `Runtime.evaluate` by value: the `RemoteObject` (`type`, `value`, `description`).
    ///
    /// # Errors
    /// The protocol's error, or the expression threw (its exception's description).
    pub fn evaluate(&self, expr: &str, await_promise: bool) -> Result<Value, String> {
        let r = self.call(
            "Runtime.evaluate",
            json!({"expression": expr, "awaitPromise": await_promise, "returnByValue": true}),
        )?;
        if let Some(d) = r.get("exceptionDetails") {
            let what = d["exception"]["description"]
                .as_str()
                .or(d["text"].as_str())
                .unwrap_or("an exception");
            return Err(what.to_string());
        }
        Ok(r.get("result").cloned().unwrap_or(Value::Null))
    }

    /// The left button pressed and released at (x, y) CSS px of the viewport, the mouse moved
    /// there first.
    pub fn click_point(&self, x: f64, y: f64) -> Result<(), String> {
        self.call(
            "Input.dispatchMouseEvent",
            json!({"type": "mouseMoved", "x": x, "y": y}),
        )?;
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )?;
        }
        Ok(())
    }

    /// A PNG of `clip`, beyond the viewport too (`Page.captureScreenshot`), base64 as sent.
    pub fn capture_screenshot(&self, clip: &Viewport) -> Result<String, String> {
        let r = self.call(
            "Page.captureScreenshot",
            json!({
                "format": "png",
                "clip": {"x": clip.x, "y": clip.y, "width": clip.width,
                         "height": clip.height, "scale": clip.scale},
                "fromSurface": true,
                "captureBeyondViewport": true,
            }),
        )?;
        r["data"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| "Page.captureScreenshot: no data".to_string())
    }
}

impl Drop for Tab {
    fn drop(&mut self) {
        self.session.clear();
        let _ = self
            .to_chrome
            .write_all(b"{\"id\":0,\"method\":\"Browser.close\"}\0");
        let t = std::time::Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
