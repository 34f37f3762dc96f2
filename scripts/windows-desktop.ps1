# On a real Windows desktop (the CI's windows-latest runner), what
# scripts/windows-test's step 5 does under Wine, with the system's own
# DLLs, DWM, GDI capture, SetCursorPos, SendInput and WindowFromPoint:
#   1. `bot windows` lists a practice window and a dry run reads its board;
#   2. live play clears the practice game in its proven optimum, and the
#      practice window took exactly that many clicks;
#   3. assist mode: a scripted player clicks every hint at its screen point
#      until the game is cleared, in the optimum;
#   4. dustbot.exe, the app beside bot.exe: it finds the practice window by
#      its board and asks, y (typed in its window) says it is the game, 1
#      starts the hints: the first hint comes with the marks' line (on the
#      board, or why not: Windows may refuse to keep them out of
#      captures), and q quits with 0.
# Each check prints one line; the first failure throws (exit 1) with what
# the bot said. Every wait is bounded.
#   pwsh scripts/windows-desktop.ps1 -Bot PATH\bot.exe
# Env: DUSTBOT_PRACTICE_SCALE, the practice window's scale (default 1):
# scripts/windows-runner.ps1 -Prepare sets it where the display stays too
# small for the practice window beside the app.
param([Parameter(Mandatory)] [string] $Bot)
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version Latest

$work = Join-Path ([System.IO.Path]::GetTempPath()) "dustbot-desktop-$PID"
New-Item -ItemType Directory -Force $work | Out-Null
# The player's clicks (assist mode): the cursor put and the primary button
# pressed as a hand does, held long enough for the practice window's poll.
Add-Type -TypeDefinition @'
using System;
using System.Runtime.InteropServices;
using System.Threading;
public static class Player {
    [DllImport("user32.dll", SetLastError = true)]
    static extern bool SetCursorPos(int x, int y);
    [DllImport("user32.dll")]
    static extern bool SetForegroundWindow(IntPtr window);
    [DllImport("user32.dll")]
    static extern bool ClientToScreen(IntPtr window, ref Point point);
    [DllImport("user32.dll")]
    static extern void keybd_event(byte key, byte scan, uint flags, UIntPtr extra);
    [StructLayout(LayoutKind.Sequential)]
    public struct Point { public int X; public int Y; }
    // A key typed in `window`: a click first near its client area's
    // top-left (the board's picture, where a click outside calibrating
    // does nothing) gives it the keyboard, as a player's click does;
    // Windows lets a program that is not in front bring no window forward.
    public static void Type(IntPtr window, byte key) {
        Point corner = new Point { X = 12, Y = 12 };
        if (!ClientToScreen(window, ref corner)) throw new System.ComponentModel.Win32Exception();
        Click(corner.X, corner.Y);
        SetForegroundWindow(window);
        Thread.Sleep(200);
        keybd_event(key, 0, 0, UIntPtr.Zero);
        Thread.Sleep(30);
        keybd_event(key, 0, 0x0002, UIntPtr.Zero);
    }
    [DllImport("user32.dll")]
    static extern void mouse_event(uint flags, int dx, int dy, uint data, UIntPtr extra);
    public static void Click(int x, int y) {
        if (!SetCursorPos(x, y)) throw new System.ComponentModel.Win32Exception();
        mouse_event(0x0002, 0, 0, 0, UIntPtr.Zero);
        Thread.Sleep(60);
        mouse_event(0x0004, 0, 0, 0, UIntPtr.Zero);
        SetCursorPos(5, 5);
    }
}
'@

# The bot's output, standard error included, as one text; $LASTEXITCODE kept.
function Invoke-Bot {
    $text = & $Bot @args 2>&1 | ForEach-Object { "$_" } | Out-String
    return $text
}

# A 12-click board (README, live bench) and its proven optimum.
$board = 'BBRRYROG,GRYRYOBY,BRORYYGO,GYGBROOO,GBYBYRBG,OOOYBRBR'
$solved = Invoke-Bot solve $board
if ($solved -notmatch '(?m)^(\d+) moves, proven optimal') { throw "no proven optimum for ${board}: $solved" }
$optimum = [int] $Matches[1]

# Opens a practice window of $board logging its clicks to $log; waits until
# the bot lists it and reads its board from the window. (No -WindowStyle
# Hidden: Windows applies a launcher's show state to a program's first
# window, which would hide the practice window itself.)
$scale = if ($env:DUSTBOT_PRACTICE_SCALE) { $env:DUSTBOT_PRACTICE_SCALE } else { '1' }
function Start-Practice([string] $log) {
    $process = Start-Process -FilePath $Bot -PassThru -NoNewWindow `
        -ArgumentList "practice --board $board --anim-ms 300 --scale $scale --log `"$log`"" `
        -RedirectStandardOutput "$log.out" -RedirectStandardError "$log.err"
    for ($i = 0; $i -lt 60; $i++) {
        if ((Invoke-Bot windows) -like '*Dust Practice*' -and
            (Invoke-Bot --window 'Dust Practice' --dry-run --time 1) -like "*$board*") {
            return $process
        }
        Start-Sleep -Milliseconds 500
    }
    throw "the bot does not read the practice window: $(Invoke-Bot windows) $(Invoke-Bot --window 'Dust Practice' --dry-run --time 1)"
}

function Stop-Practice($process) {
    Stop-Process -Id $process.Id -Force -ErrorAction SilentlyContinue
    if (-not $process.WaitForExit(30000)) { throw 'the practice window did not close' }
}

# The clicks the practice window took (lines of its log that cleared cells).
function Get-Taken([string] $log) {
    @(Select-String -Path $log -Pattern '"size":[1-9]').Count
}

$started = Get-Date
$practice = Start-Practice (Join-Path $work 'live.jsonl')
Write-Output "'bot windows' lists the practice window, a dry run reads its board: $([int]((Get-Date) - $started).TotalSeconds) s"

$started = Get-Date
$played = Invoke-Bot --window 'Dust Practice' --time 10
if ($LASTEXITCODE -ne 0) { throw "live play exited ${LASTEXITCODE}: $played" }
if ($played -notmatch "(?m)^cleared in $optimum clicks") { throw "live play did not clear in ${optimum}: $played" }
$taken = Get-Taken (Join-Path $work 'live.jsonl')
if ($taken -ne $optimum) { throw "the practice window took $taken clicks, not ${optimum}: $played" }
Write-Output "live play: $(($played -split "`n" | Select-String '^cleared').Line), $taken clicks taken by the window: $([int]((Get-Date) - $started).TotalSeconds) s"
Stop-Practice $practice

$started = Get-Date
$practice = Start-Practice (Join-Path $work 'assist.jsonl')
$hints = Join-Path $work 'hints.jsonl'
$assistant = Start-Process -FilePath $Bot -PassThru -NoNewWindow `
    -ArgumentList "--window `"Dust Practice`" --assist --time 10 --hint-log `"$hints`"" `
    -RedirectStandardOutput (Join-Path $work 'assist.out') -RedirectStandardError (Join-Path $work 'assist.err')
# Without the handle taken now, ExitCode reads empty once the process ended.
$null = $assistant.Handle
$said = { "$(Get-Content -Raw (Join-Path $work 'assist.out') -ErrorAction SilentlyContinue) $(Get-Content -Raw (Join-Path $work 'assist.err') -ErrorAction SilentlyContinue)" }
$seen = 0
$cleared = $false
$deadline = (Get-Date).AddSeconds(120)
while (-not $cleared -and (Get-Date) -lt $deadline) {
    $lines = @(Get-Content $hints -ErrorAction SilentlyContinue | Where-Object { $_ -like '*"next"*' })
    if ($lines.Count -gt $seen) {
        $last = $lines[-1]
        $seen = $lines.Count
        if ($last -like '*"cleared":true*') { $cleared = $true; break }
        if ($last -notmatch '"screen":\[(-?\d+),(-?\d+)\]') { throw "a hint without a screen point: $last" }
        # The hint before the next: this player's clicks are the only ones.
        [Player]::Click([int] $Matches[1], [int] $Matches[2])
    }
    Start-Sleep -Milliseconds 100
}
if (-not $cleared) { throw "the assisted game did not clear: $(& $said)" }
if (-not $assistant.WaitForExit(60000)) { throw "assist mode still runs 60 s after the game: $(& $said)" }
if ($assistant.ExitCode -ne 0) { throw "assist mode exited $($assistant.ExitCode): $(& $said)" }
$taken = Get-Taken (Join-Path $work 'assist.jsonl')
if ($taken -ne $optimum) { throw "the player needed $taken clicks, not ${optimum}: $(& $said)" }
if ((& $said) -notlike "*optimum $optimum*") { throw "assist mode's summary: $(& $said)" }
Write-Output "assist mode: the player cleared in $taken clicks by the hints, optimum ${optimum}: $([int]((Get-Date) - $started).TotalSeconds) s"
Stop-Practice $practice

# The app, dustbot.exe, beside bot.exe as the archive has it.
$app = Join-Path (Split-Path -Parent $Bot) 'dustbot.exe'
$started = Get-Date
$practice = Start-Practice (Join-Path $work 'app.jsonl')
$desk = Start-Process -FilePath $app -PassThru `
    -RedirectStandardOutput (Join-Path $work 'app.out') -RedirectStandardError (Join-Path $work 'app.err')
$null = $desk.Handle
$told = { "$(Get-Content -Raw (Join-Path $work 'app.out') -ErrorAction SilentlyContinue) $(Get-Content -Raw (Join-Path $work 'app.err') -ErrorAction SilentlyContinue)" }
# Waits until the app said `$text`, 60 s at most.
function Wait-Said([string] $text) {
    $deadline = (Get-Date).AddSeconds(60)
    while ((Get-Date) -lt $deadline) {
        if ((& $told) -like "*$text*") { return }
        if ($desk.HasExited) { throw "dustbot.exe exited $($desk.ExitCode) before '$text': $(& $told)" }
        Start-Sleep -Milliseconds 200
    }
    throw "dustbot.exe did not say '$text': $(& $told)"
}
Wait-Said 'is this window the game?'
$desk.Refresh()
[Player]::Type($desk.MainWindowHandle, 0x59) # Y
Wait-Said 'menu: 1 Hints, 2 Play'
[Player]::Type($desk.MainWindowHandle, 0x31) # 1
Wait-Said 'hint: click'
$marks = ((& $told) -split "`n" | Select-String 'marks on the board|marked on the board' | Select-Object -First 1)
if (-not $marks) { throw "no line about the marks on the board: $(& $told)" }
[Player]::Type($desk.MainWindowHandle, 0x51) # Q
if (-not $desk.WaitForExit(30000)) { throw "dustbot.exe still runs 30 s after q: $(& $told)" }
if ($desk.ExitCode -ne 0) { throw "dustbot.exe exited $($desk.ExitCode): $(& $told)" }
Write-Output "dustbot.exe: found the practice window, the first hint, $($marks.Line.Trim()), q quit with 0: $([int]((Get-Date) - $started).TotalSeconds) s"
Stop-Practice $practice
Write-Output 'OK'
