//! The practice window: a real window that plays like the game, for watching and testing the bot.
