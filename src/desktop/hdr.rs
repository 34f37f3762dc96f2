//! Whether HDR is on for a monitor: with HDR on, Windows hands GDI
//! captures back washed out (its SDR content mapped into the HDR range),
//! and a calibration made with HDR off misreads the board. The decision
//! is [`HdrState::of_colour_space`], pure; the monitor's colour space
//! comes from the platform (Windows: the DXGI output of the monitor,
//! `IDXGIOutput6::GetDesc1`; X11 has no HDR: unknown; macOS: unknown,
//! its captures drawn into sRGB from the display's profile instead, see
//! `desktop::macos`).

use super::screen::ScreenPoint;

/// `DXGI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020`: the colour space of a
/// monitor with HDR on (SMPTE 2084 over BT.2020 primaries); SDR is
/// `..._G22_NONE_P709` (0).
pub const HDR_COLOUR_SPACE: i32 = 12;

/// What the bot says to a player with HDR on, once, when the game is
/// found.
pub const ADVICE: &str = "HDR is on for this monitor: captures look washed out; turn HDR off for the game, or calibrate with HDR on: `bot calibrate` / Calibrate in dustbot";

/// HDR on the game's monitor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HdrState {
    On,
    Off,
    /// No colour space to read: X11, Windows without DXGI (a remote
    /// session, Wine), a window on no monitor.
    Unknown,
}

impl HdrState {
    /// The state of a monitor whose DXGI colour space is `colour_space`
    /// (`None`: none read).
    pub fn of_colour_space(colour_space: Option<i32>) -> HdrState {
        match colour_space {
            Some(HDR_COLOUR_SPACE) => HdrState::On,
            Some(_) => HdrState::Off,
            None => HdrState::Unknown,
        }
    }

    /// The monitor of window `id` (the one it mostly lies on).
    pub fn of_window(id: u32) -> HdrState {
        HdrState::read(super::platform::colour_space_of_window(id))
    }

    /// The monitor at `point` of the desktop.
    pub fn at(point: ScreenPoint) -> HdrState {
        HdrState::read(super::platform::colour_space_at(point))
    }

    fn read(colour_space: Result<Option<i32>, String>) -> HdrState {
        let colour_space = colour_space.unwrap_or_else(|why| {
            log::debug!("HDR unknown: {why}");
            None
        });
        HdrState::of_colour_space(colour_space)
    }

    /// The game's window `id` found: with HDR on its monitor, [`ADVICE`]
    /// logged as a warning (it goes into a report) and returned, for the
    /// door to show as well.
    pub fn warn_for_game(id: u32) -> Option<&'static str> {
        let advice = HdrState::of_window(id).advice();
        if let Some(advice) = advice {
            log::warn!("{advice}");
        }
        advice
    }

    /// What to tell the player, when there is something: [`ADVICE`] with
    /// HDR on.
    pub fn advice(self) -> Option<&'static str> {
        (self == HdrState::On).then_some(ADVICE)
    }
}

impl std::fmt::Display for HdrState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HdrState::On => "on",
            HdrState::Off => "off",
            HdrState::Unknown => "unknown",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hdr_is_on_for_the_hdr10_colour_space_alone() {
        assert_eq!(HdrState::of_colour_space(Some(12)), HdrState::On);
        // SDR (G22 P709), and the studio and YCbCr spaces: not HDR output.
        for sdr in [0, 1, 2, 13, 14] {
            assert_eq!(HdrState::of_colour_space(Some(sdr)), HdrState::Off, "{sdr}");
        }
        assert_eq!(HdrState::of_colour_space(None), HdrState::Unknown);
    }

    #[test]
    fn only_hdr_on_is_said_with_how_to_calibrate() {
        let said = HdrState::On.advice().unwrap();
        assert!(said.contains("washed out"), "{said}");
        assert!(said.contains("bot calibrate"), "{said}");
        assert_eq!(HdrState::Off.advice(), None);
        assert_eq!(HdrState::Unknown.advice(), None);
        assert_eq!(HdrState::Unknown.to_string(), "unknown");
    }

    #[test]
    #[cfg(windows)]
    fn hdr_is_dxgis_hdr10_colour_space() {
        use windows::Win32::Graphics::Dxgi::Common::DXGI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020;
        assert_eq!(
            HDR_COLOUR_SPACE,
            DXGI_COLOR_SPACE_RGB_FULL_G2084_NONE_P2020.0
        );
    }
}
