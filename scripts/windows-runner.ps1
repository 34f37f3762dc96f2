# The CI's Windows runner made ready for the desktop checks, and what it
# showed kept when a check fails (.github/workflows/ci.yml's Windows jobs):
#   pwsh scripts/windows-runner.ps1 -Prepare
#     the display at 1920x1080 (GitHub's runners start at 1024x768, where
#     the app beside the practice window does not fit and could cover the
#     board it must find; Set-DisplayResolution is Windows Server's, as the
#     runners are) and every window minimised (a provisioner's console in
#     front would take the keys the checks type); says the screen's size
#     and work area. Where the display stays smaller (the command fails,
#     or leaves it so), the practice window is made to fit beside the app
#     instead: DUSTBOT_PRACTICE_SCALE, the scale scripts/windows-desktop.ps1
#     opens it at, goes to the job's later steps ($GITHUB_ENV), and a
#     notice says it.
#   pwsh scripts/windows-runner.ps1 -Keep FOLDER
#     a screenshot of the whole desktop, the desktop checks' outputs and
#     game logs (%TEMP%\dustbot-desktop-*) and the bot's data and settings
#     folders (dustbot.log among them) copied into FOLDER, for the
#     workflow to upload.
#   pwsh scripts/windows-runner.ps1 -IconIn EXE
#     throws unless EXE carries the repository's icon (windows/dustbot.ico)
#     as the icon group Explorer shows.
param([switch] $Prepare, [string] $Keep, [string] $IconIn)
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version Latest
Add-Type -AssemblyName System.Windows.Forms, System.Drawing
if ($Prepare) {
    try {
        Set-DisplayResolution -Width 1920 -Height 1080 -Force
    } catch {
        Write-Output "::warning::the display stays as it is: Set-DisplayResolution: $_"
    }
    (New-Object -ComObject Shell.Application).MinimizeAll()
    $screen = [System.Windows.Forms.Screen]::PrimaryScreen
    $bounds, $work = $screen.Bounds, $screen.WorkingArea
    Write-Output "the primary screen: $($bounds.Width)x$($bounds.Height), work area $($work.Width)x$($work.Height); the other windows minimised"
    if ($bounds.Width -lt 1920 -or $bounds.Height -lt 1080) {
        # The practice window is 720x560 at scale 1 (80-pixel cells), and
        # its frame about 16x40 more: it gets half the work area's width
        # at most, the app the rest (282 pixels wide at 1024x768), and
        # the scale goes down by twentieths, to 0.5 at the least (40-pixel
        # cells, which the bot reads as it reads 80).
        $fits = [math]::Min(($work.Width / 2 - 16) / 720, ($work.Height - 40) / 560)
        $scale = [math]::Max(0.5, [math]::Min(1, [math]::Floor($fits * 20) / 20))
        $scale = $scale.ToString([System.Globalization.CultureInfo]::InvariantCulture)
        if ($env:GITHUB_ENV) { "DUSTBOT_PRACTICE_SCALE=$scale" | Out-File -Append -Encoding utf8 $env:GITHUB_ENV }
        Write-Output "::notice::the display is $($bounds.Width)x$($bounds.Height), not 1920x1080: the desktop checks open the practice window at scale $scale (DUSTBOT_PRACTICE_SCALE) to fit beside the app"
    }
}
if ($Keep) {
    $kept = New-Item -ItemType Directory -Force $Keep
    $all = [System.Windows.Forms.SystemInformation]::VirtualScreen
    $shot = New-Object System.Drawing.Bitmap $all.Width, $all.Height
    [System.Drawing.Graphics]::FromImage($shot).CopyFromScreen($all.Left, $all.Top, 0, 0, $shot.Size)
    $shot.Save((Join-Path $kept 'desktop.png'))
    $folders = @(Get-ChildItem (Join-Path $env:TEMP 'dustbot-desktop-*') -Directory -ErrorAction SilentlyContinue | ForEach-Object FullName) +
        @((Join-Path $env:LOCALAPPDATA 'dustbot'), (Join-Path $env:APPDATA 'dustbot'))
    foreach ($folder in $folders) {
        if (Test-Path $folder) { Copy-Item -Recurse -Force $folder (Join-Path $kept (Split-Path -Leaf $folder)) }
    }
    Write-Output "kept in ${Keep}: $((Get-ChildItem $kept).Name -join ', ')"
}
if ($IconIn) {
    # The icon group resource (GRPICONDIR): the icon file's header and
    # entries, each with its image's id (1, 2, ...) in place of its offset
    # in the file (the file itself is in the exes too, for the windows'
    # icon, which this does not match).
    $icon = [System.IO.File]::ReadAllBytes((Join-Path $PSScriptRoot '..\windows\dustbot.ico'))
    $count = [BitConverter]::ToUInt16($icon, 4)
    $group = [System.Collections.Generic.List[byte]]::new()
    $group.AddRange([byte[]]$icon[0..5])
    foreach ($i in 0..($count - 1)) {
        $group.AddRange([byte[]]$icon[(6 + 16 * $i)..(17 + 16 * $i)])
        $group.AddRange([BitConverter]::GetBytes([uint16]($i + 1)))
    }
    $group = [System.Text.Encoding]::Latin1.GetString($group.ToArray())
    $bytes = [System.Text.Encoding]::Latin1.GetString([System.IO.File]::ReadAllBytes($IconIn))
    if (-not $bytes.Contains($group)) { throw "${IconIn}: no icon group of windows/dustbot.ico" }
}
