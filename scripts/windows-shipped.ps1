# On a real Windows (the CI's windows-latest runner), the players' archive
# as `make dist` wrote it (MinGW's bot.exe, never run on Windows before):
#   1. SHA256SUMS holds the zip's hash and, once unzipped, bot.exe's and
#      dustbot.exe's;
#   2. unzipped into a folder whose path has spaces and letters beyond
#      ASCII, bot.exe names itself `bot`, proves the README's example and
#      reads every sample exactly with the calibration beside it;
#   3. bot.exe's and dustbot.exe's version resources say "dustbot" (what
#      Task Manager shows and xcap gives as every bot window's
#      application), each its own OriginalFilename, their manifests are
#      per-monitor DPI aware v2 and declare Windows 10 and 11 only, and
#      each carries the repository's icon (windows/dustbot.ico);
#   4. a copy alone where Explorer puts an exe opened inside a zip
#      (%TEMP%\Temp1_NAME.zip\dustbot\) reads a sample with the built-in
#      calibration and says to extract the zip first.
# Each check prints one line; the first failure throws (exit 1).
#   pwsh scripts/windows-shipped.ps1 -Dist FOLDER -Samples FOLDER
param(
    [Parameter(Mandatory)] [string] $Dist,
    [Parameter(Mandatory)] [string] $Samples
)
$ErrorActionPreference = 'Stop'
Set-StrictMode -Version Latest
# Absolute: the checks below run from other folders.
$Dist = (Resolve-Path $Dist).Path
$Samples = (Resolve-Path $Samples).Path

$zip = @(Get-ChildItem (Join-Path $Dist 'dustbot-*-windows-x86_64.zip'))
if ($zip.Count -ne 1) { throw "not one Windows zip in ${Dist}: $($zip.Name)" }
$zip = $zip[0]
$sums = Get-Content (Join-Path $Dist 'SHA256SUMS')
function Get-Listed([string] $name) {
    $line = @($sums | Where-Object { $_ -match "^[0-9a-f]{64}  $([regex]::Escape($name))$" })
    if ($line.Count -ne 1) { throw "SHA256SUMS lists $name $($line.Count) times: $sums" }
    $line[0].Substring(0, 64)
}

$player = Join-Path ([System.IO.Path]::GetTempPath()) "Jeux de Zoë $PID\dust bot ÅÄÖ"
Expand-Archive -Path $zip.FullName -DestinationPath $player
$exe = Join-Path $player 'dustbot\bot.exe'
$app = Join-Path $player 'dustbot\dustbot.exe'
foreach ($file in @(@($zip.FullName, $zip.Name), @($exe, 'dustbot/bot.exe'), @($app, 'dustbot/dustbot.exe'))) {
    $hash = (Get-FileHash -Algorithm SHA256 $file[0]).Hash.ToLowerInvariant()
    if ($hash -ne (Get-Listed $file[1])) { throw "$($file[1]): SHA-256 $hash is not the one SHA256SUMS lists" }
}
Write-Output "SHA256SUMS matches $($zip.Name), dustbot/bot.exe and dustbot/dustbot.exe unzipped"

# The bot's output, standard error included, as one text; $LASTEXITCODE kept.
function Invoke-Bot([string] $program) {
    & $program @args 2>&1 | ForEach-Object { "$_" } | Out-String
}
Push-Location $player
try {
    $help = Invoke-Bot $exe --help
    if ($help -notmatch '(?m)^Usage: bot \[OPTIONS\]') { throw "bot.exe --help: $help" }
    $solved = Invoke-Bot $exe solve 'GGGGBOYO,RORGYGBY,RRBGOORG,BRBOBYRG,BRYBBRGG,OYGGRORG'
    if ($solved -notmatch '(?m)^11 moves, proven optimal') { throw "bot.exe solve: $solved" }
    $read = 0
    foreach ($truth in Get-ChildItem (Join-Path $Samples '*.board')) {
        $picture = @(Get-ChildItem (Join-Path $Samples "$($truth.BaseName).*") | Where-Object Extension -ne '.board')[0]
        $said = Invoke-Bot $exe --dry-run --json --time 1 $picture.FullName
        # The answer is the one line of JSON; a warning may come beside it.
        $json = @($said -split "`r?`n" | Where-Object { $_.StartsWith('{') })
        $board = (Get-Content -Raw $truth.FullName).TrimEnd("`r", "`n")
        if ($LASTEXITCODE -ne 0 -or $json.Count -ne 1 -or ($json[0] | ConvertFrom-Json).board -ne $board) {
            throw "$($truth.BaseName) read wrong: $said"
        }
        $read++
    }
} finally {
    Pop-Location
}
Write-Output "in '$player': help names bot, solve proves 11, $read samples read exactly"

foreach ($program in @(@($exe, 'bot'), @($app, 'dustbot'))) {
    $version = (Get-Item $program[0]).VersionInfo
    $name = "$($program[1]).exe"
    if ($version.FileDescription -ne 'dustbot') { throw "${name}: FileDescription '$($version.FileDescription)', not dustbot" }
    if ($version.OriginalFilename -ne $name) { throw "${name}: OriginalFilename '$($version.OriginalFilename)'" }
    # The manifest is stored as the text it is, in the resource section.
    $bytes = [System.Text.Encoding]::Latin1.GetString([System.IO.File]::ReadAllBytes($program[0]))
    if (-not $bytes.Contains('PerMonitorV2')) { throw "${name}: the manifest is not per-monitor DPI aware v2" }
    if (-not $bytes.Contains('{8e0f7a12-bfb3-4fe8-b9a5-48fd50a15a9a}')) { throw "${name}: the manifest does not declare Windows 10 and 11" }
    if ($bytes.Contains('{1f676c76-80e1-4239-95bb-83d0f6d0da78}')) { throw "${name}: the manifest declares Windows 8.1" }
    & (Join-Path $PSScriptRoot 'windows-runner.ps1') -IconIn $program[0]
    Write-Output "${name}: FileDescription $($version.FileDescription), product $($version.ProductVersion); manifest PerMonitorV2, Windows 10 and 11; the icon"
}

$opened = Join-Path ([System.IO.Path]::GetTempPath()) "Temp1_$($zip.Name)\dustbot"
New-Item -ItemType Directory -Force $opened | Out-Null
Copy-Item $exe $opened
$elsewhere = New-Item -ItemType Directory -Force (Join-Path ([System.IO.Path]::GetTempPath()) "dustbot-elsewhere-$PID")
Push-Location $elsewhere
try {
    $alone = Invoke-Bot (Join-Path $opened 'bot.exe') --dry-run (Join-Path $Samples 'mid-1x-window.png')
    $code = $LASTEXITCODE
} finally {
    Pop-Location
}
if ($code -ne 0) { throw "bot.exe alone in the zip's temporary folder exited ${code}: $alone" }
if ($alone -notlike '*built into the bot*') { throw "bot.exe alone did not say it reads with the built-in calibration: $alone" }
if ($alone -notlike '*extract the zip first*') { throw "bot.exe alone in $opened did not say to extract the zip: $alone" }
Write-Output "alone in $opened`: reads with the built-in calibration and says to extract the zip first"
Write-Output 'OK'
