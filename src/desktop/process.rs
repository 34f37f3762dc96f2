//! The bot's own process tree and what it tells of the windows: this
//! process's command line as a terminal's title shows it, its ancestors
//! (the shell and the terminal that run it, a reused process id ending the
//! chain), the terminal it runs in among the windows, and which programs
//! are terminals or a dustbot's. The window list ([`super::capture`]) asks
//! it, so that the bot never takes its own terminal or another dustbot's
//! window for the game.

use super::platform;
use super::words::WindowInfo;

/// Applications that are terminals, as the window list names them: on
/// Windows the program's description or file name, on X11 its class
/// (`WM_CLASS`), lower case. Any application whose name says "terminal"
/// counts too (Windows Terminal, GNOME's, Xfce's, MATE's, LXTerminal).
const TERMINALS: [&str; 27] = [
    "console window host",
    "conhost.exe",
    "openconsole.exe",
    "windows command processor",
    "cmd.exe",
    "windows powershell",
    "powershell.exe",
    "pwsh",
    "pwsh.exe",
    "conemu",
    "conemu64.exe",
    "mintty",
    "xterm",
    "uxterm",
    "urxvt",
    "rxvt",
    "konsole",
    "alacritty",
    "kitty",
    "wezterm",
    "org.wezfurlong.wezterm",
    "terminator",
    "tilix",
    "st",
    "foot",
    "kgx",
    "guake",
];

/// The bot's programs, by their file names without `.exe`, lower case.
const BOT_PROGRAMS: [&str; 2] = ["bot", "dustbot"];

/// Whether a process run as `command` is a dustbot's whose windows are
/// its own: the program is one of [`BOT_PROGRAMS`] and it is not the
/// practice window (`bot practice`).
pub(super) fn bots_own(command: &str) -> bool {
    let command = command.trim_start();
    // The program: quoted (a path with spaces), else the first word.
    let (program, rest) = match command.strip_prefix('"') {
        Some(quoted) => quoted.split_once('"').unwrap_or((quoted, "")),
        None => command.split_once(' ').unwrap_or((command, "")),
    };
    let name = program
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .to_lowercase();
    let name = name.strip_suffix(".exe").unwrap_or(&name);
    BOT_PROGRAMS.contains(&name) && !rest.split_whitespace().any(|word| word == "practice")
}

/// Whether `app` names a terminal program (see [`TERMINALS`]).
pub(super) fn terminal_app(app: &str) -> bool {
    let app = app.trim().to_lowercase();
    app.contains("terminal") || TERMINALS.contains(&app.as_str())
}

/// The command line the bot was started with, as a terminal shows it in
/// a title: the program's name (`bot`, `bot.exe`, `./target/debug/bot`,
/// `.\bot`) and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    /// The program's file name without `.exe`, lower case.
    program: String,
    /// The arguments, one space between them, lower case.
    arguments: String,
}

impl CommandLine {
    /// This process's.
    pub fn own() -> CommandLine {
        let args: Vec<String> = std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        CommandLine::of(&args)
    }

    /// The command line `args` (the program first).
    pub fn of(args: &[String]) -> CommandLine {
        let program = args.first().map_or("", String::as_str);
        // Both separators: a Windows path read anywhere.
        let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
        let name = name.to_lowercase();
        let name = name.strip_suffix(".exe").unwrap_or(&name);
        CommandLine {
            program: name.to_owned(),
            // As in a title, where a shell's quotes are taken out.
            arguments: args
                .get(1..)
                .unwrap_or_default()
                .join(" ")
                .to_lowercase()
                .replace(['"', '\''], ""),
        }
    }

    /// Whether `title` shows this command line: the program's name, then
    /// a space and the arguments as typed (a shell's quotes taken out),
    /// ignoring case. A bare program without arguments never searches a
    /// window, and is never looked for.
    pub(super) fn is_in(&self, title: &str) -> bool {
        if self.arguments.is_empty() || self.program.is_empty() {
            return false;
        }
        let title: String = title
            .to_lowercase()
            .chars()
            .filter(|c| !matches!(c, '"' | '\''))
            .collect();
        let mut from = 0;
        while let Some(at) = title[from..].find(&self.arguments) {
            let before = title[..from + at].trim_end();
            let before = before.strip_suffix(".exe").unwrap_or(before);
            let named = before.ends_with(&self.program)
                && before[..before.len() - self.program.len()]
                    .chars()
                    .next_back()
                    .is_none_or(|c| c.is_whitespace() || matches!(c, '/' | '\\'));
            let ends = title[from + at + self.arguments.len()..]
                .chars()
                .next()
                .is_none_or(char::is_whitespace);
            if named && ends && title[..from + at].ends_with(' ') {
                return true;
            }
            from += at + title[from + at..].chars().next().map_or(1, char::len_utf8);
        }
        false
    }
}

/// The window of the terminal the bot runs in, among `all`: the console
/// (Windows: conhost's, or the terminal's that owns ConPTY's), else the
/// window the terminal names as the bot's (`WINDOWID`, xterm's and
/// others'), else a terminal's window of one of the bot's ancestors (the
/// terminal program that runs its shell): never a window of an ancestor
/// that is no terminal (Explorer, the taskbar, a desktop's launcher).
pub(super) fn own_terminal_among(all: &[WindowInfo]) -> Option<&WindowInfo> {
    let named = own_window().or_else(|| {
        std::env::var("WINDOWID")
            .ok()
            .and_then(|id| id.trim().parse().ok())
    });
    let ancestors: Vec<u32> = own_processes()
        .into_iter()
        .filter(|&pid| pid != std::process::id())
        .collect();
    named
        .and_then(|id| all.iter().find(|w| w.id == id))
        .or_else(|| {
            all.iter().find(|w| {
                w.is_visible()
                    && w.is_terminal()
                    && w.pid.is_some_and(|pid| ancestors.contains(&pid))
            })
        })
}

/// Whether `window`, one of `all`, is the terminal the bot runs in.
pub fn is_own_terminal(window: &WindowInfo, all: &[WindowInfo]) -> bool {
    own_terminal_among(all).is_some_and(|own| own.id == window.id)
}

/// This process and its ancestors (the shell and the terminal that run the
/// bot), so that `--window` never picks the terminal whose title holds the
/// command line.
pub(super) fn own_processes() -> Vec<u32> {
    ancestors(std::process::id(), parent_of, started_at)
}

/// `pid` and its ancestors, `parent` and `started` telling a process's
/// parent and start time. A process id is reused once its process has
/// ended: a "parent" that started after its child is another program
/// that took the id of the child's ended parent, and the chain stops
/// there, as it does where a start time is unknown.
fn ancestors(
    pid: u32,
    parent: impl Fn(u32) -> Option<u32>,
    started: impl Fn(u32) -> Option<u64>,
) -> Vec<u32> {
    let mut pids = vec![pid];
    loop {
        let child = *pids.last().expect("never empty");
        let Some(next) = parent(child) else { break };
        if next <= 1 || pids.contains(&next) {
            break;
        }
        match (started(next), started(child)) {
            (Some(born), Some(child_born)) if born <= child_born => pids.push(next),
            _ => break,
        }
    }
    pids
}

/// The parent of process `pid`, where the system says.
fn parent_of(pid: u32) -> Option<u32> {
    platform::parent_of(pid)
}

/// When process `pid` started, in the system's own units (clock ticks
/// since boot on Linux, 100 ns since 1601 on Windows): only compared.
fn started_at(pid: u32) -> Option<u64> {
    platform::started_at(pid)
}

/// The console window the bot runs in, on Windows, whose title holds the
/// command line (`bot --window Nodiatis`): never the game. Elsewhere the
/// terminal is one of the bot's ancestors.
pub(super) fn own_window() -> Option<u32> {
    platform::console_window()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &[&str]) -> CommandLine {
        CommandLine::of(&line.iter().map(|a| (*a).to_owned()).collect::<Vec<_>>())
    }

    #[test]
    fn another_bots_windows_are_its_own_and_its_practice_window_a_game() {
        for own in [
            "/home/ana/dustbot/target/debug/bot --window Nodiatis --assist",
            "bot",
            "dustbot",
            r#""C:\Program Files\dustbot\dustbot.exe""#,
            r"C:\Games\bot.EXE --window Nodiatis",
        ] {
            assert!(bots_own(own), "{own}");
        }
        for other in [
            "/home/ana/dustbot/target/debug/bot practice --title Nodiatis",
            r#""C:\Program Files\dustbot\bot.exe" practice"#,
            "/usr/bin/robot --window Nodiatis",
            "/usr/bin/display samples/full-1x-bare.png",
            "java -jar nodiatis.jar",
        ] {
            assert!(!bots_own(other), "{other}");
        }
    }

    #[test]
    fn a_reused_process_id_ends_the_chain_of_parents() {
        // 30 is the bot; 20 its shell; 10 the terminal, started before.
        let parents = [(30, 20), (20, 10), (10, 1)];
        let parent = |pid| parents.iter().find(|p| p.0 == pid).map(|p| p.1);
        let born = |pid| Some(u64::from(pid));
        assert_eq!(ancestors(30, parent, born), [30, 20, 10]);
        // The shell ended, and its id went to a program started after
        // the bot: not the bot's ancestor, nor is its own parent.
        let reused = |pid| Some(if pid == 20 { 500 } else { u64::from(pid) });
        assert_eq!(ancestors(30, parent, reused), [30]);
        // A start time that cannot be read stops the chain too.
        let unknown = |pid| (pid != 10).then_some(u64::from(pid));
        assert_eq!(ancestors(30, parent, unknown), [30, 20]);
    }

    #[test]
    fn the_bot_runs_inside_its_own_processes() {
        let own = own_processes();
        assert_eq!(own[0], std::process::id());
        // Each is the parent of the one before: /proc on Linux, the
        // process snapshot on Windows.
        for pair in own.windows(2) {
            assert_eq!(parent_of(pair[0]), Some(pair[1]), "{own:?}");
        }
        // On Linux cargo runs the tests; under Wine the runner's parent
        // is a Linux process, which Windows does not list.
        if cfg!(target_os = "linux") {
            assert!(own.len() >= 2, "{own:?}");
        }
    }

    #[test]
    fn a_title_that_only_resembles_the_command_line_is_a_window() {
        let bot = command(&["bot", "--window", "Nodiatis"]);
        assert!(bot.is_in("cmd.exe - bot --window Nodiatis"));
        assert!(bot.is_in("~/dustbot: ./target/debug/bot --window Nodiatis"));
        // Another program's name, another command: not the bot's.
        assert!(!bot.is_in("robot --window Nodiatis"));
        assert!(
            !bot.is_in("bot --window Nodiatis2 is not this"),
            "the line is a prefix"
        );
        assert!(!bot.is_in("Nodiatis"));
        // The bare bot searches no window.
        assert!(!command(&["bot"]).is_in("bot"));
        // A game's program is not a terminal; the terminals are.
        assert!(!terminal_app("Nodiatis"));
        for app in [
            "Windows Terminal",
            "Console Window Host",
            "XTerm",
            "Gnome-terminal",
            "kitty",
        ] {
            assert!(terminal_app(app), "{app}");
        }
    }
}
